"""Moves of the Spite and Malice family and their notation (records.md §2).

Moves are interned: there is exactly one :class:`Move` object per move text and deck kind, so
``legal_moves()`` allocates nothing and moves compare by identity. Every game in the process shares
these objects, so they are immutable: assigning to a field raises :class:`AttributeError`.

>>> m = parse_move("h10-b3")
>>> m.text, m.kind == BUILD, m.source == HAND, m.rank, m.target
('H10-B3', True, True, 10, 2)
>>> str(parse_move("S-B1")), str(parse_move("D3-B1")), str(parse_move("HQ-D2")), str(parse_move("pass"))
('S-B1', 'D3-B1', 'HQ-D2', 'pass')
>>> parse_move("H12-B1", skipbo=True).text
'H12-B1'
>>> parse_move("H12-B1")
Traceback (most recent call last):
...
spite.errors.IllegalMoveError: 'H12-B1' is no move of this game

A hand move may name the very card instead of its rank (``H7H-B4``): the same move for every rule
as its rank form (:attr:`Move.rank_form`), but that card is the one that leaves the hand.

>>> from spite.cards import parse_card
>>> m = parse_move("h10c-d2")
>>> m.text, m.card == parse_card("10C"), m.rank, m.rank_form.text, m.rank_form.card
('H10C-D2', True, 10, 'H10-D2', -1)
>>> parse_move("HXS-B1")
Traceback (most recent call last):
...
spite.errors.IllegalMoveError: 'HXS-B1' is no move of this game
"""

from __future__ import annotations

import re
from typing import Final

from spite.cards import RANK_TOKENS, RANKS, SUITS, TOKENS, WILD_RANK, standard_card
from spite.errors import refusal

__all__ = [
    "BUILD",
    "DISCARD",
    "DISCARD_PILE",
    "HAND",
    "PASS",
    "STOCK",
    "Move",
    "build_move",
    "discard_move",
    "parse_move",
    "pass_move",
    "rank_token",
    "with_card",
]

BUILD: Final = 0
"""A card onto a build pile (the turn goes on)."""
DISCARD: Final = 1
"""A hand card onto an own discard pile (ends the turn)."""
PASS: Final = 2
"""End the turn without a discard (only when no card may be discarded)."""

STOCK: Final = 0
HAND: Final = 1
DISCARD_PILE: Final = 2

MAX_PILES: Final = 12


def rank_token(rank: int, skipbo: bool) -> str:
    """How a hand card's rank is written in a move: ``A``, ``10``, ``K``, ``X``; Skip-Bo ``1``..``12``."""
    if rank == WILD_RANK:
        return "X"
    return str(rank) if skipbo else RANK_TOKENS[rank]


class Move:
    """One move. Use :func:`parse_move` or the constructors below; never instantiate directly.

    ``kind`` is :data:`BUILD`, :data:`DISCARD` or :data:`PASS`. For a build play ``source`` is
    :data:`STOCK`, :data:`HAND` or :data:`DISCARD_PILE`; ``rank`` names the hand card (its rank
    number, 14 for ``X``); ``pile`` is the 0-based discard pile a card comes from; ``target`` the
    0-based build or discard pile it goes to. ``card`` is the hand card a move names (its code), or
    -1 for a move that names none (a hand card named by its rank: the first of that rank in the hand);
    ``rank_form`` is the move written with the rank alone (the move itself when it names no card):
    the move the rules, the legal moves and the bots know.

    Immutable (one object serves every game in the process): the fields are set once, by
    :func:`_intern`, and assigning or deleting one raises :class:`AttributeError`. Reading them is
    a plain slot read: only writes go through :meth:`__setattr__`.
    """

    __slots__ = ("card", "kind", "pile", "rank", "rank_form", "skipbo", "source", "target", "text")

    kind: int
    source: int
    rank: int
    pile: int
    target: int
    skipbo: bool
    text: str
    card: int
    rank_form: Move

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Move is immutable (one object per move, shared by every game): cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a Move is immutable (one object per move, shared by every game): cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __reduce__(self) -> tuple[object, tuple[str, bool]]:
        return (parse_move, (self.text, self.skipbo))

    @property
    def ends_turn(self) -> bool:
        """True for a discard or a pass."""
        return self.kind != BUILD


_CACHE: dict[tuple[bool, int, int, int, int, int, int], Move] = {}


def _intern(skipbo: bool, kind: int, source: int, rank: int, pile: int, target: int, card: int = -1) -> Move:
    key = (skipbo, kind, source, rank, pile, target, card)
    move = _CACHE.get(key)
    if move is None:
        hand = TOKENS[card] if card >= 0 else rank_token(rank, skipbo)
        if kind == PASS:
            text = "pass"
        elif kind == DISCARD:
            text = f"H{hand}-D{target + 1}"
        elif source == STOCK:
            text = f"S-B{target + 1}"
        elif source == HAND:
            text = f"H{hand}-B{target + 1}"
        else:
            text = f"D{pile + 1}-B{target + 1}"
        move = object.__new__(Move)
        plain = move if card < 0 else _intern(skipbo, kind, source, rank, pile, target)
        for name, value in (("kind", kind), ("source", source), ("rank", rank), ("pile", pile),
                            ("target", target), ("skipbo", skipbo), ("text", text), ("card", card),
                            ("rank_form", plain)):
            object.__setattr__(move, name, value)  # Move.__setattr__ refuses: this is the one place that sets
        _CACHE[key] = move
    return move


def _named(rank: int, card: int | None, skipbo: bool) -> int:
    """The card a hand move names (-1: none, the rank form). Only a card with a suit is named: a
    joker or a Skip-Bo card is named by its rank alone."""
    if card is None or card < 0 or skipbo or RANKS[card] == WILD_RANK:
        return -1
    if RANKS[card] != rank:
        raise ValueError(f"{TOKENS[card]} is no card of rank {rank_token(rank, skipbo)}")
    return card


def build_move(source: int, target: int, *, rank: int = 0, pile: int = 0, skipbo: bool = False,
               card: int | None = None) -> Move:
    """A build play: ``source`` STOCK, HAND (with ``rank``, and the very ``card`` when it names one) or
    DISCARD_PILE (with ``pile``) onto ``target``."""
    if source == HAND:
        return _intern(skipbo, BUILD, HAND, rank, 0, target, _named(rank, card, skipbo))
    if source == DISCARD_PILE:
        return _intern(skipbo, BUILD, DISCARD_PILE, 0, pile, target)
    return _intern(skipbo, BUILD, STOCK, 0, 0, target)


def discard_move(rank: int, target: int, *, skipbo: bool = False, card: int | None = None) -> Move:
    """A hand card of ``rank`` (the very ``card`` when it names one) onto own discard pile ``target`` (0-based)."""
    return _intern(skipbo, DISCARD, HAND, rank, 0, target, _named(rank, card, skipbo))


def with_card(move: Move, card: int) -> Move:
    """``move`` (a hand move) naming ``card``, the card of its rank a player picked: ``H7-B4`` with
    7♥ is ``H7H-B4``. A card without a suit (a joker, a Skip-Bo card) keeps the rank form; a move
    that is not from the hand is returned as it is.

    >>> from spite.cards import parse_card
    >>> with_card(parse_move("HK-D1"), parse_card("KD")).text, with_card(parse_move("HX-B2"), 52).text
    ('HKD-D1', 'HX-B2')
    """
    if move.source != HAND or move.kind == PASS:
        return move
    return _intern(move.skipbo, move.kind, HAND, move.rank, 0, move.target, _named(move.rank, card, move.skipbo))


def pass_move(skipbo: bool = False) -> Move:
    """The move that ends a turn without a discard."""
    return _intern(skipbo, PASS, 0, 0, 0, 0)


_MOVE_RE: Final = re.compile(r"^(S|D(\d{1,2})|H(10|1[0-2]|[2-9]|[AJQKXT1])([SHDC])?)-([BD])(\d{1,2})$")
_STD_RANKS: Final = {tok: r for r, tok in enumerate(RANK_TOKENS) if tok} | {"T": 10}
_SKIPBO_RANKS: Final = {str(n): n for n in range(1, 13)} | {"X": WILD_RANK}


def parse_move(text: str, skipbo: bool = False) -> Move:
    """The move a text names (upper or lower case; ``T`` for ``10``); :class:`IllegalMoveError` if none."""
    if not isinstance(text, str):
        raise refusal(f"{text!r} is no move of this game", "refuse.no-move", move=str(text))
    norm = text.strip().upper()
    if norm == "PASS":
        return pass_move(skipbo)
    m = _MOVE_RE.match(norm)
    if m is None:
        raise refusal(f"{text!r} is no move of this game", "refuse.no-move", move=str(text))
    src, pile_s, rank_s, suit_s, dst_kind, dst_s = m.groups()
    target = int(dst_s) - 1
    if not 0 <= target < MAX_PILES:
        raise refusal(f"{text!r} is no move of this game", "refuse.no-move", move=str(text))
    if src.startswith("H"):
        table = _SKIPBO_RANKS if skipbo else _STD_RANKS
        rank = table.get(rank_s)
        card = -1
        if suit_s is not None:  # the very card: only cards with a suit are named so
            if rank is None or skipbo or rank == WILD_RANK:
                raise refusal(f"{text!r} is no move of this game", "refuse.no-move", move=str(text))
            card = standard_card(rank, SUITS.index(suit_s))
        if rank is None:
            raise refusal(f"{text!r} is no move of this game", "refuse.no-move", move=str(text))
        if dst_kind == "D":
            return _intern(skipbo, DISCARD, HAND, rank, 0, target, card)
        return _intern(skipbo, BUILD, HAND, rank, 0, target, card)
    if dst_kind == "D":
        raise refusal(f"{text!r} is no move of this game: only hand cards go onto discard piles",
                      "refuse.discard-from-hand", move=text)
    if src == "S":
        return build_move(STOCK, target, skipbo=skipbo)
    pile = int(pile_s) - 1
    if not 0 <= pile < MAX_PILES:
        raise refusal(f"{text!r} is no move of this game", "refuse.no-move", move=str(text))
    return build_move(DISCARD_PILE, target, pile=pile, skipbo=skipbo)
