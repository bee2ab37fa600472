"""The words of the terminal app in English and German.

Every word comes from the message catalogue the app shares with the browser page
(:mod:`spite.catalogue`: the shared ``spite/web/static/messages/*.json`` and each game family's
``words/*.json``): the screen's own words (prompts,
keys) as ``tui.KEY``, and what the engine, the bots and the server say (refusals, hint reasons,
game-over reasons) under the same keys the page uses: the same codes, the same words.
:func:`tr` looks a key up as ``tui.KEY`` first, then as it is.

The German terms are those of the German rule texts (docs/rules.md): Vorratsstapel (stock),
Mittelstapel (build piles), Ablagestapel (discard piles), Blatt (hand), Nachziehstapel (draw pile).
Move notation and card tokens (``H7-B2``, ``QS``) are the records' and stay the same in both
languages; so do the keys, which follow the notation (S stock, D discard, B build).

>>> tr("en", "stock"), tr("de", "stock")
('Stock', 'Vorratsstapel')
>>> tr("de", "wins", name="Spieler 1")
'Spieler 1 gewinnt'
>>> tr("de", "reason_blocked")
'niemand konnte spielen'
>>> tr("fr", "stock")
Traceback (most recent call last):
...
ValueError: unknown language 'fr' (en or de)

Names the page words too: levels, presets and the keys of the footers.

>>> level_name("de", "expert"), level_name("de", "search:0.5"), preset_name("de", "short")
('Experte', 'search:0.5', 'kurz')
>>> key_name("de", "space"), key_name("de", "ctrl+s"), key_name("en", "ctrl+s"), key_name("en", "question_mark")
('Leertaste', 'Strg+S', 'Ctrl+S', '?')
>>> seat_word("Mittel"), seat_word("Mensch"), seat_word("medium"), seat_word("wizard")
('medium', 'human', 'medium', None)
"""

from __future__ import annotations

from typing import Final

from spite import catalogue
from spite.catalogue import SeatName
from spite.errors import Phrase, SpiteError
from spite.tui.render import on_screen

__all__ = ["LANGUAGES", "LEVEL_NAMES", "error_words", "has_text", "key_name", "level_name", "preset_name", "say",
           "say_all", "seat_word", "tr"]

LANGUAGES: Final = ("en", "de")

LEVEL_NAMES: Final = ("easy", "medium", "hard", "expert")
"""The computer levels a seat may name (the page's ``lv_*`` words), easiest first."""

HUMAN_WORDS: Final = ("human", "h", "me", "person")
"""What names a person's seat besides the catalogue's word for it (``tui.human``: human, Mensch)."""

_TEXTS: Final[dict[str, tuple[str, str]]] = {
}
"""Keys written here the old way (``"key": ("English", "Deutsch"),``) by a branch made before the
screen's words moved into the shared catalogue still work, but belong there as ``tui.KEY``:
``python tools/move_i18n_keys.py`` moves them (tests/tui/test_tui_german.py fails while any is left)."""


def tr(lang: str, key: str, **values: object) -> str:
    """The text ``key`` in ``lang`` with ``values`` filled in."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (en or de)")
    if key in _TEXTS:
        text = _TEXTS[key][LANGUAGES.index(lang)]
        return text.format(**values) if values else text
    own = f"tui.{key}"
    return catalogue.render(lang, own if catalogue.has(own) else key, values)  # type: ignore[arg-type]


def has_text(key: str) -> bool:
    """True when there is a text ``key`` (the screen's own, ``tui.KEY``, or the shared catalogue's)."""
    return key in _TEXTS or catalogue.has(f"tui.{key}") or catalogue.has(key)


def say(lang: str, phrase: Phrase | None, english: str, seat_name: SeatName) -> str:
    """What the engine, a bot or the server said, as the screen words it: in English its own line
    (with the screen's seat names and suit symbols, :func:`~spite.tui.render.on_screen`), in German
    its catalogue phrase (seats named as the screen names them); the English line when there is no
    phrase or the catalogue does not know it."""
    if lang == "en" or phrase is None or not catalogue.has(phrase.key):
        return on_screen(english, seat_name)
    return catalogue.word(lang, phrase, english, seat_name)


def say_all(lang: str, phrases: tuple[Phrase, ...] | list[Phrase], english: str, seat_name: SeatName) -> str:
    """A hint's why (several phrases) as :func:`say` words one."""
    if lang == "en" or not phrases or not all(catalogue.has(p.key) for p in phrases):
        return on_screen(english, seat_name)
    return catalogue.words(lang, phrases, english, seat_name)


def level_name(lang: str, level: str) -> str:
    """A computer level as the page names it (``expert``: "Experte"); any other bot spec as it is."""
    return tr(lang, f"lv_{level}") if catalogue.has(f"lv_{level}") else level


def preset_name(lang: str, preset: str) -> str:
    """A preset as the page names it (``short``: "kurz"); an unknown one as it is."""
    return tr(lang, f"preset.{preset}") if catalogue.has(f"preset.{preset}") else preset


def seat_word(word: str) -> str | None:
    """``human`` or the level a seat's word names, in either language (``Mittel`` → ``medium``);
    ``None`` for any other word (which may still be a bot spec)."""
    word = word.strip().lower()
    for lang in LANGUAGES:
        if word in (*HUMAN_WORDS, tr(lang, "human").lower()):
            return "human"
        for level in LEVEL_NAMES:
            if word == level_name(lang, level).lower():
                return level
    return None


def key_name(lang: str, key: str) -> str:
    """A key as a footer names it: ``Space``/``Leertaste``, ``Ctrl+S``/``Strg+S``, ``Esc``, ``?``, ``U``."""
    from textual.keys import format_key  # here: the rest of this module needs no Textual (session.py uses it)

    *modifiers, last = key.split("+")
    if has_text(f"keyname_{last}"):
        name = tr(lang, f"keyname_{last}")
    else:
        name = format_key(last)
        name = name.upper() if len(name) == 1 else name.capitalize() if name.isalpha() else name
    for modifier in reversed(modifiers):
        name = tr(lang, "keyname_ctrl", name=name) if modifier == "ctrl" else f"{modifier.capitalize()}+{name}"
    return name


def error_words(lang: str, error: SpiteError) -> str:
    """An error in the catalogue's words when it carries a phrase the catalogue knows, in English too
    (the catalogue's line for a person at a form); else its own line."""
    if error.phrase is None or not catalogue.has(error.phrase.key):
        return str(error)
    return catalogue.word(lang, error.phrase, str(error))
