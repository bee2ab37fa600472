"""The message catalogue: every word the page and the terminal app show, in English and German.

The shared words are one JSON file per language (``spite/web/static/messages/en.json``, ``de.json``);
each game family brings its own (``en.json``, ``de.json`` in the folder its registry ``words`` hook names,
say ``spite/malice/words/``): its rules, moves, refusals, presets and screens. :func:`catalogue` merges
the shared words with every registered family's (a family's key may not be a shared one's, nor another
family's); the terminal app and the server word with it, and the server serves the merged catalogue to the
page (``i18n.js``) at the shared files' address, ``/static/messages/{lang}.json``. A message is a key with parameters:
the engine and the server say what happened as a :class:`~spite.errors.Phrase`, and the user
interface words it here. ``i18n.js`` words the same way (keep the two in step).

A text's placeholders are ``{name}`` (the value as it is) or ``{name|form}``:

* ``card``: a card token (``QH``, ``10S``, ``X``, Skip-Bo ``7``) as a person reads it: ``Q♥``, ``D♥``;
* ``a``, ``acc``, ``none``: a rank token (``A 2 … 10 J Q K X``, Skip-Bo ``1 … 12 W``) with its
  article: "a King" / "ein König" (``acc``: "einen König"; ``none``: "no King", "keinen König");
* ``ranks``: rank tokens separated by spaces, as a list: "a 4, a 6 or a joker";
* ``seat``: a 0-based seat as people count it: "seat 2", "Platz 2";
* ``level``, ``bot``, ``player``: a computer level ("mittel"), a computer player ("Computer (mittel)"),
  a player's name (``bot:medium`` is worded as a computer player);
* ``preset``, ``status``: a preset's name ("klassisch"), a table's status ("beendet").

A text may be a plural, ``{"one": …, "other": …}``, chosen by the parameter ``n``.

>>> text("de", "refuse.needs.hand", rank="K", pile=1, need="2")
'ein König passt nicht auf Mittelstapel 1, er braucht eine 2'
>>> text("en", "refuse.spit.misfit", card="QH", center=2, top="5C", takes="4 6 X")
'Q♥ does not fit on center pile 2, which shows 5♣: it takes a 4, a 6 or a joker'
>>> text("de", "hint.reaches-stock", n=1, score="40")
'erreicht die Vorratskarte mit 1 Ausspiel (Wertung 40)'
>>> word("de", Phrase("event.connected", {"name": "Ben", "seat": 0}))
'Ben sitzt auf Platz 1'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

from spite.errors import Param, Phrase
from spite.games import game_names, has_hook, load_hook

__all__ = ["LANGUAGES", "PLACEHOLDER", "SeatName", "catalogue", "family_words", "has", "phrase_of", "placeholders",
           "render", "shared", "text", "word", "word_folders", "words"]

LANGUAGES: Final = ("en", "de")

PLACEHOLDER: Final = re.compile(r"\{(\w+)(?:\|(\w+))?\}")
"""``{name}`` or ``{name|form}`` in a text."""

Entry = str | dict[str, str]


def catalogue(lang: str) -> dict[str, Entry]:
    """The catalogue of ``lang``: the shared words and every registered game family's (read once)."""
    _check(lang)
    return _merged(lang, word_folders())


def shared(lang: str) -> dict[str, Entry]:
    """The shared words of ``lang`` alone (``spite/web/static/messages/{lang}.json``)."""
    _check(lang)
    return _shared(lang)


def word_folders() -> tuple[Path, ...]:
    """The folders of the registered game families' own words (each game's ``words`` hook; the games of one
    family name the same folder), in the registry's order."""
    return _folders(game_names())


def family_words(folder: Path, lang: str) -> dict[str, Entry]:
    """A family's own words in ``lang`` (``folder/{lang}.json``; none when the file is missing)."""
    _check(lang)
    return _family(folder, lang)


def _check(lang: str) -> None:
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r} (en or de)")


@cache
def _shared(lang: str) -> dict[str, Entry]:
    path = resources.files("spite").joinpath("web", "static", "messages", f"{lang}.json")
    data: dict[str, Entry] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def _family(folder: Path, lang: str) -> dict[str, Entry]:
    path = Path(folder) / f"{lang}.json"
    if not path.is_file():
        return {}
    data: dict[str, Entry] = json.loads(path.read_text(encoding="utf-8"))
    return data


@cache
def _folders(names: tuple[str, ...]) -> tuple[Path, ...]:
    found: list[Path] = []
    for name in names:
        if has_hook(name, "words") and (folder := Path(load_hook(name, "words")).resolve()) not in found:
            found.append(folder)
    return tuple(found)


@cache
def _merged(lang: str, folders: tuple[Path, ...]) -> dict[str, Entry]:
    merged = dict(_shared(lang))
    origin = dict.fromkeys(merged, "the shared catalogue")
    for folder in folders:
        for key, entry in _family(folder, lang).items():
            if key in origin:
                raise ValueError(f"{folder}/{lang}.json: {key!r} is already in {origin[key]}")
            merged[key] = entry
            origin[key] = f"{folder}/{lang}.json"
    return merged


def has(key: str) -> bool:
    """True when the catalogue has a message ``key``."""
    return key in catalogue("en")


def placeholders(entry: Entry) -> set[str]:
    """The parameter names a text (or every form of a plural) uses."""
    forms = entry.values() if isinstance(entry, dict) else [entry]
    return {m.group(1) for f in forms for m in PLACEHOLDER.finditer(f)}


SeatName = Callable[[int], str]
"""How a user interface names a seat (``P2 (hard)``); the catalogue's ``seat.n`` when not given."""


def text(lang: str, key: str, /, **params: Param) -> str:
    """Message ``key`` in ``lang`` with ``params`` worded in; ``key`` itself when there is no such
    message."""
    return render(lang, key, params)


def render(lang: str, key: str, params: Mapping[str, Param], seat_name: SeatName | None = None) -> str:
    """:func:`text` with the parameters as a mapping, and seats named by ``seat_name`` if given."""
    entry = catalogue(lang).get(key)
    if entry is None:
        return key
    if isinstance(entry, dict):
        entry = entry["one"] if params.get("n") == 1 and "one" in entry else entry["other"]
    return PLACEHOLDER.sub(lambda m: _value(lang, params, m.group(1), m.group(2), seat_name), entry)


def word(lang: str, phrase: Phrase, english: str = "", seat_name: SeatName | None = None) -> str:
    """A phrase in ``lang``; ``english`` (the engine's or server's line) when the catalogue does not
    know its key (say a newer server's)."""
    if not has(phrase.key):
        return english or phrase.key
    return render(lang, phrase.key, phrase.params, seat_name)


def words(lang: str, phrases: tuple[Phrase, ...] | list[Phrase], english: str = "",
          seat_name: SeatName | None = None) -> str:
    """Several phrases (a hint's why) in ``lang``, joined by "; "; ``english`` when there are none or
    one is unknown."""
    if not phrases or not all(has(p.key) for p in phrases):
        return english
    return "; ".join(word(lang, p, seat_name=seat_name) for p in phrases)


def phrase_of(data: object) -> Phrase | None:
    """The :class:`Phrase` of a server message's ``words`` (``{"key": …, "params": {…}}``), if it is one."""
    if not isinstance(data, dict) or not isinstance(data.get("key"), str):
        return None
    params = data.get("params")
    if not isinstance(params, dict):
        params = {}
    return Phrase(data["key"], {str(k): v for k, v in params.items() if isinstance(v, str | int)})


def _value(lang: str, params: Mapping[str, Param], name: str, form: str | None, seat_name: SeatName | None) -> str:
    if name not in params:
        return "{" + name + "}"
    value = params[name]
    if form is None:
        return str(value)
    if form == "seat" and seat_name is not None and isinstance(value, int):
        return seat_name(value)
    return _FORMS[form](lang, str(value))


def _card(lang: str, token: str) -> str:
    if token == "X":
        return text(lang, "card.X")
    suit = token[-1:]
    if len(token) > 1 and suit in "SHDC":
        r = token[:-1]
        short = text(lang, f"rank.short.{r}") if has(f"rank.short.{r}") else r
        return short + text(lang, f"suit.{suit}")
    return token


def _ranks(lang: str, tokens: str) -> str:
    parts = [text(lang, f"rank.a.{tok}") for tok in tokens.split()]
    if len(parts) < 2:
        return "".join(parts)
    return ", ".join(parts[:-1]) + text(lang, "list.or") + parts[-1]


def _level(lang: str, level: str) -> str:
    return text(lang, f"lv_{level}") if has(f"lv_{level}") else level


def _player(lang: str, name: str) -> str:
    return text(lang, "bot", level=_level(lang, name[4:])) if name.startswith("bot:") else name


_FORMS: Final[dict[str, Callable[[str, str], str]]] = {
    "card": _card,
    "a": lambda lang, tok: text(lang, f"rank.a.{tok}"),
    "acc": lambda lang, tok: text(lang, f"rank.acc.{tok}"),
    "none": lambda lang, tok: text(lang, f"rank.none.{tok}"),
    "ranks": _ranks,
    "seat": lambda lang, seat: text(lang, "seat.n", n=int(seat) + 1) if seat.lstrip("-").isdigit() else seat,
    "level": _level,
    "bot": lambda lang, level: text(lang, "bot", level=_level(lang, level)),
    "player": _player,
    "preset": lambda lang, preset: text(lang, f"preset.{preset}") if has(f"preset.{preset}") else preset,
    "status": lambda lang, state: text(lang, f"table_status_{state}") if has(f"table_status_{state}") else state,
}
"""How each ``{name|form}`` is worded (i18n.js has the same forms)."""
