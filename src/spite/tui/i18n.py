"""The words of the terminal app in English and German.

Every word comes from the message catalogue the app shares with the browser page
(:mod:`spite.catalogue`, ``spite/web/static/messages/*.json``): the screen's own words (prompts,
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
"""

from __future__ import annotations

from typing import Final

from spite import catalogue
from spite.catalogue import SeatName
from spite.errors import Phrase
from spite.tui.render import on_screen

__all__ = ["LANGUAGES", "has_text", "say", "say_all", "tr"]

LANGUAGES: Final = ("en", "de")

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
