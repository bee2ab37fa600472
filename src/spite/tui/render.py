"""How cards look in the terminal: rank and suit symbol, red suits in red, wild cards marked.

Colour is never the only sign: every suit has its own symbol (♠ ♥ ♦ ♣), a wild card carries a
star, and a build pile topped by a wild card says the value it stands for (``K♠=7``). Styles are
plain Rich colours that read on dark and light backgrounds alike.

>>> from spite.cards import parse_card
>>> card_label(parse_card("10H")), card_label(parse_card("X")), card_label(parse_card("7"))
('10♥', 'X★', '7')
>>> card_label(parse_card("KS"), wild=True)
'K♠★'
>>> on_screen("too late: seat 1 has won it; center 1 is now 7S, not 10H", lambda s: f"P{s + 1}")
'too late: P2 has won it; center 1 is now 7♠, not 10♥'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from rich.text import Text

from spite.cards import JOKER, SKIPBO_BASE, TOKENS

__all__ = ["SUIT_SYMBOLS", "card_label", "card_text", "on_screen"]

SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_RED: Final = "bold red"
_BLACK: Final = "bold"
_WILD: Final = "bold magenta"


def card_label(card: int, *, wild: bool = False) -> str:
    """A card as text: ``10♥``, ``Q♠``; ``X★`` for a joker or Skip-Bo wild; a star marks a wild King."""
    token = TOKENS[card]
    if card == JOKER:
        return "X★"
    if card > SKIPBO_BASE:
        return token
    label = token[:-1] + SUIT_SYMBOLS[token[-1]]
    return label + "★" if wild else label


def card_text(card: int | None, *, wild: bool = False, empty: str = "—") -> Text:
    """A card as styled Rich text (``None``: an empty place)."""
    if card is None:
        return Text(empty, style="dim")
    label = card_label(card, wild=wild)
    if wild or card == JOKER:
        style = _WILD
    elif card > SKIPBO_BASE:
        style = _BLACK
    else:
        style = _RED if TOKENS[card][-1] in "HD" else _BLACK
    return Text(label, style=style)


_CARD_CODE: Final = re.compile(r"\b(10|[2-9AJQK])([SHDC])\b")
_SEAT: Final = re.compile(r"\bseat (\d+)\b")


def on_screen(text: str, seat_name: Callable[[int], str]) -> str:
    """An engine's or bot's line as the screen words it: the screen's names for seats (``P2 (hard)``,
    not ``seat 1``) and suit symbols for the record's card codes (``7♠``, not ``7S``), so that the
    message line says what the cards beside it show. Move notation (``H7-B2``) stays."""
    text = _SEAT.sub(lambda m: seat_name(int(m.group(1))), text)
    return _CARD_CODE.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text)
