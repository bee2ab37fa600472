"""How cards look in the terminal: rank and suit symbol, red suits in red, wild cards marked.

Colour is never the only sign: every suit has its own symbol (♠ ♥ ♦ ♣), a wild card carries a
star, and a build pile topped by a wild card says the value it stands for (``K♠=7``). Styles are
plain Rich colours that read on dark and light backgrounds alike.

>>> from spite.cards import parse_card
>>> card_label(parse_card("10H")), card_label(parse_card("X")), card_label(parse_card("7"))
('10♥', 'X★', '7')
>>> card_label(parse_card("KS"), wild=True)
'K♠★'
"""

from __future__ import annotations

from typing import Final

from rich.text import Text

from spite.cards import JOKER, KING, RANKS, SKIPBO_BASE, TOKENS
from spite.malice import Options

__all__ = ["SUIT_SYMBOLS", "card_label", "card_text", "is_wild"]

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


def is_wild(card: int, opts: Options) -> bool:
    """True for a card that is wild in this Spite and Malice game (jokers, Skip-Bo wilds, wild Kings)."""
    return card == JOKER or (opts.kings_wild and not opts.skipbo and RANKS[card] == KING and card < JOKER)
