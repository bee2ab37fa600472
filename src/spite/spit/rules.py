"""Which card fits on which, and the move notation of Spit and Speed (records.md §2).

>>> from spite.cards import parse_card
>>> fits(parse_card("2S"), parse_card("AH"), "full"), fits(parse_card("2S"), parse_card("AH"), "ace_bridge")
(True, False)
>>> fits(parse_card("AS"), parse_card("KH"), "ace_bridge"), fits(parse_card("KS"), parse_card("AH"), "full")
(True, True)
>>> parse_move("t3-c1", "spit"), parse_move("SLAP  c2", "spit"), parse_move("h10-C2", "speed")
(('play', 3, 1), ('slap', 0, 2), ('hand', 10, 2))
>>> format_move(("slot", 2, 5))
'T2-T5'
"""

from __future__ import annotations

import re
from typing import Final

from spite.cards import RANK_TOKENS, RANKS, WILD_RANK, describe_rank
from spite.errors import refusal

__all__ = [
    "HAND",
    "PLAY",
    "SLAP",
    "SLOT",
    "SPIT",
    "SPIT_MOVE",
    "Move",
    "fits",
    "format_move",
    "needs",
    "parse_move",
]

PLAY: Final = "play"
"""``T3-C1``: (PLAY, tableau pile, center pile)."""
SLOT: Final = "slot"
"""``T2-T5``: (SLOT, source pile, empty slot)."""
SPIT: Final = "spit"
"""``spit``: (SPIT, 0, 0)."""
SPIT_MOVE: Final = "spit"
"""The text of the spit call, the move a stuck player sends (and finds in ``legal``)."""
SLAP: Final = "slap"
"""``slap C2``: (SLAP, 0, center pile)."""
HAND: Final = "hand"
"""Speed ``H7-C1``: (HAND, rank, center pile)."""

Move = tuple[str, int, int]
"""A parsed move: its kind and two numbers (pile numbers count from 1, ranks 1..13)."""

_TABLEAU_RE: Final = re.compile(r"T(\d{1,3})-([CT])(\d{1,3})")
_SLAP_RE: Final = re.compile(r"SLAP C(\d{1,3})")
_HAND_RE: Final = re.compile(r"H(A|[2-9]|10|T|J|Q|K)-C(\d{1,3})")
_RANK_OF: Final = {tok: r for r, tok in enumerate(RANK_TOKENS) if 1 <= r <= 13} | {"T": 10}


def fits(card: int, top: int, wrap: str) -> bool:
    """True when ``card`` may be played on a center pile showing ``top``.

    Ranks must differ by one. With ``wrap == "full"`` the Ace is next to both the 2 and the King;
    with ``"ace_bridge"`` (docs/spit.md §2.3) an Ace may go on a King or a 2, and nothing goes on an
    Ace. A joker goes on anything and takes anything.
    """
    rc = RANKS[card]
    rt = RANKS[top]
    if rc == WILD_RANK or rt == WILD_RANK:
        return True
    if wrap == "full":
        diff = (rc - rt) % 13
        return diff == 1 or diff == 12
    if rt == 1:
        return False
    if rc == 1:
        return rt == 2 or rt == 13
    return rc - rt == 1 or rt - rc == 1


def needed_ranks(top: int, wrap: str, jokers: bool) -> list[str]:
    """The rank tokens a center pile showing ``top`` takes (a message parameter, ``X`` a joker);
    empty when nothing but a joker goes there and the deck has none."""
    rt = RANKS[top]
    if rt == WILD_RANK:
        return [tok for tok in RANK_TOKENS if tok]
    if wrap == "full":
        wanted = [(rt - 2) % 13 + 1, rt % 13 + 1]
    elif rt == 1:
        wanted = []
    else:
        wanted = [r for r in (rt - 1, rt + 1) if 2 <= r <= 13] + ([1] if rt in (2, 13) else [])
    return [RANK_TOKENS[r] for r in sorted(set(wanted))] + (["X"] if jokers else [])


def needs(top: int, wrap: str, jokers: bool) -> str:
    """What a center pile showing ``top`` takes, as a player says it ("a 6 or an 8")."""
    rt = RANKS[top]
    if rt == WILD_RANK:
        return "any card (it shows a joker)"
    if wrap == "full":
        wanted = [(rt - 2) % 13 + 1, rt % 13 + 1]
    elif rt == 1:
        return "nothing: no card goes on an Ace" + (" but a joker" if jokers else "")
    else:
        wanted = [r for r in (rt - 1, rt + 1) if 2 <= r <= 13] + ([1] if rt in (2, 13) else [])
    words = [describe_rank(r) for r in sorted(set(wanted))]
    if jokers:
        words.append("a joker")
    return ", ".join(words[:-1]) + " or " + words[-1]


def parse_move(text: str, game: str) -> Move:
    """Read a move of ``game`` (``"spit"`` or ``"speed"``); lower case and extra spaces are fine.

    Raises :class:`IllegalMoveError` when the text is no move of this game (pile numbers are not
    checked here: the state knows how many there are).
    """
    if not isinstance(text, str):
        raise refusal(f"{text!r} is not a move", "refuse.no-move", move=repr(text))
    norm = " ".join(text.upper().split())
    if norm == "SPIT":
        return (SPIT, 0, 0)
    if game == "speed":
        m = _HAND_RE.fullmatch(norm)
        if m:
            return (HAND, _RANK_OF[m.group(1)], int(m.group(2)))
        raise refusal(f"{text!r} is not a Speed move (moves look like H7-C1, HK-C2, spit)", "refuse.speed.no-move",
                      move=text)
    m = _TABLEAU_RE.fullmatch(norm)
    if m:
        kind = PLAY if m.group(2) == "C" else SLOT
        return (kind, int(m.group(1)), int(m.group(3)))
    m = _SLAP_RE.fullmatch(norm)
    if m:
        return (SLAP, 0, int(m.group(1)))
    raise refusal(f"{text!r} is not a Spit move (moves look like T3-C1, T2-T5, spit, slap C2)", "refuse.spit.no-move",
                  move=text)


def format_move(move: Move) -> str:
    """The canonical text of a parsed move."""
    kind, a, b = move
    if kind == PLAY:
        return f"T{a}-C{b}"
    if kind == SLOT:
        return f"T{a}-T{b}"
    if kind == SLAP:
        return f"slap C{b}"
    if kind == HAND:
        return f"H{RANK_TOKENS[a]}-C{b}"
    return SPIT_MOVE
