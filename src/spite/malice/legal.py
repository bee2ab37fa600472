"""Move generation from what the player to move can see.

Every legal move depends only on cards the player to move sees: its hand, its stock's top card,
its discard piles and the build piles. So one set of functions serves the :class:`~spite.malice.State`
(with the whole table) and the :class:`~spite.malice.SeatView` (with one seat's knowledge), and a
bot's legal moves come from its view alone, computed only when it asks.

The move rows are interned per set of options (:func:`move_tables`), so generating moves allocates
only the list that holds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from spite.cards import JOKER, KING, N_CODES, RANKS, WILD_RANK, describe_rank, format_card
from spite.malice.moves import DISCARD_PILE, HAND, STOCK, Move, build_move, discard_move, pass_move
from spite.malice.options import Options

__all__ = ["MoveTables", "blocking_play", "build_moves", "end_moves", "move_tables"]


class MoveTables(NamedTuple):
    """What move generation needs of a set of options, computed once per options."""

    value: list[int]
    """``value[card]``: the value a card is played as (1..12), 0 for a wild, 13 for a dead King."""
    stock_rows: list[Move]
    """``stock_rows[b]``: stock top to build pile ``b``."""
    pile_rows: list[list[Move]]
    """``pile_rows[j][b]``: discard pile ``j`` to build pile ``b``."""
    hand_rows: list[list[Move]]
    """``hand_rows[rank][b]``: a card of ``rank`` from the hand to build pile ``b``."""
    discard_rows: list[list[Move]]
    """``discard_rows[rank]``: the discards of a card of ``rank`` (none for aces when not allowed)."""
    pass_move: Move
    no_blocking: bool
    skipbo: bool


_TABLES: dict[Options, MoveTables] = {}


_last: tuple[Options | None, MoveTables | None] = (None, None)
"""The options asked for last and their tables: hashing an :class:`Options` costs more than
generating the moves, and a game asks for the same options object move after move."""


def move_tables(opts: Options) -> MoveTables:
    """The value table and interned move rows of ``opts`` (shared by every state and view)."""
    global _last
    last = _last
    if last[0] is opts:
        assert last[1] is not None
        return last[1]
    tables = _TABLES.get(opts)
    if tables is None:
        sk = opts.skipbo
        nb = opts.build_piles
        tables = _TABLES[opts] = MoveTables(
            _value_table(opts),
            [build_move(STOCK, b, skipbo=sk) for b in range(nb)],
            [[build_move(DISCARD_PILE, b, pile=j, skipbo=sk) for b in range(nb)] for j in range(opts.discard_piles)],
            [[build_move(HAND, b, rank=r, skipbo=sk) for b in range(nb)] for r in range(WILD_RANK + 1)],
            [[] if (r == 1 and not opts.discard_aces) or r == 0 else
             [discard_move(r, d, skipbo=sk) for d in range(opts.discard_piles)]
             for r in range(WILD_RANK + 1)],
            pass_move(sk),
            opts.no_blocking,
            sk,
        )
    _last = (opts, tables)
    return tables


def _value_table(opts: Options) -> list[int]:
    table = [KING] * N_CODES
    for code in range(N_CODES):
        r = RANKS[code]
        if r == WILD_RANK:
            table[code] = 0
        elif r == KING and code < JOKER:
            table[code] = 0 if opts.kings_wild else KING
        else:
            table[code] = r
    return table


def build_moves(tables: MoveTables, hand: Sequence[int], stock_top: int | None,
                discard_piles: Sequence[Sequence[int]], builds: Sequence[Sequence[int]]) -> list[Move]:
    """Every legal build play: stock top first, then the hand (one per rank, in hand order), then the
    discard piles; each to every build pile it fits."""
    value = tables.value
    needs = [len(p) + 1 for p in builds]
    moves: list[Move] = []
    if stock_top is not None:
        v = value[stock_top]
        row = tables.stock_rows
        if v == 0:
            moves.extend(row)
        elif v in needs:
            for b, need in enumerate(needs):
                if need == v:
                    moves.append(row[b])
    if hand:
        seen = 0
        rows = tables.hand_rows
        for card in hand:
            r = RANKS[card]
            bit = 1 << r
            if seen & bit:
                continue
            seen |= bit
            v = value[card]
            if v == 0:
                moves.extend(rows[r])
            elif v in needs:
                row = rows[r]
                for b, need in enumerate(needs):
                    if need == v:
                        moves.append(row[b])
    for j, pile in enumerate(discard_piles):
        if pile:
            v = value[pile[-1]]
            if v == 0:
                moves.extend(tables.pile_rows[j])
            elif v in needs:
                row = tables.pile_rows[j]
                for b, need in enumerate(needs):
                    if need == v:
                        moves.append(row[b])
    return moves


def end_moves(tables: MoveTables, hand: Sequence[int], stock_top: int | None,
              discard_piles: Sequence[Sequence[int]], builds: Sequence[Sequence[int]]) -> list[Move]:
    """Every legal turn-ending move: the discards (one per rank in hand order, to every pile), or
    ``pass`` when no card may be discarded; none while ``no_blocking`` forbids ending the turn."""
    if tables.no_blocking and blocking_play(tables, hand, stock_top, discard_piles, builds) is not None:
        return []
    moves: list[Move] = []
    seen = 0
    rows = tables.discard_rows
    for card in hand:
        r = RANKS[card]
        bit = 1 << r
        if not seen & bit:
            seen |= bit
            moves.extend(rows[r])
    if not moves:
        moves.append(tables.pass_move)
    return moves


def blocking_play(tables: MoveTables, hand: Sequence[int], stock_top: int | None,
                  discard_piles: Sequence[Sequence[int]], builds: Sequence[Sequence[int]]) -> str | None:
    """A legal build play of a non-wild card, said for a player (``no_blocking`` forbids ending the
    turn while there is one); ``None`` if there is none."""
    value = tables.value
    needs = {len(p) + 1 for p in builds}
    if stock_top is not None and value[stock_top] in needs:
        return f"your stock card {format_card(stock_top)} can be played"
    for card in hand:
        if value[card] in needs:
            return f"{describe_rank(RANKS[card], tables.skipbo)} from your hand can be played"
    for j, pile in enumerate(discard_piles):
        if pile and value[pile[-1]] in needs:
            return f"the {format_card(pile[-1])} on your discard pile {j + 1} can be played"
    return None
