"""Move generation from what the player to move can see.

Every legal move depends only on cards the player to move sees: its hand, its stock's top card,
its discard piles and the build piles. So one set of functions serves the :class:`~spite.malice.State`
(with the whole table) and the :class:`~spite.malice.SeatView` (with one seat's knowledge), and a
bot's legal moves come from its view alone, computed only when it asks.

The move rows are interned per set of the options that shape them (:func:`move_tables`), so
generating moves allocates only the list that holds them. The tables are shared by every game in the
process and reach bots through their views, so they are tuples: nothing can change them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from spite.cards import JOKER, KING, N_CODES, RANKS, WILD_RANK, describe_rank, format_card, rank_param
from spite.errors import Phrase
from spite.malice.moves import DISCARD_PILE, HAND, STOCK, Move, build_move, discard_move, pass_move
from spite.malice.options import Options

__all__ = ["MoveKey", "MoveTables", "blocking_play", "build_moves", "end_moves", "move_key", "move_tables"]


class MoveTables(NamedTuple):
    """What move generation needs of a set of options, computed once per :func:`move_key` and
    shared by every state and view of those options: immutable, every row a tuple."""

    value: tuple[int, ...]
    """``value[card]``: the value a card is played as (1..12), 0 for a wild, 13 for a dead King."""
    stock_rows: tuple[Move, ...]
    """``stock_rows[b]``: stock top to build pile ``b``."""
    pile_rows: tuple[tuple[Move, ...], ...]
    """``pile_rows[j][b]``: discard pile ``j`` to build pile ``b``."""
    hand_rows: tuple[tuple[Move, ...], ...]
    """``hand_rows[rank][b]``: a card of ``rank`` from the hand to build pile ``b``."""
    discard_rows: tuple[tuple[Move, ...], ...]
    """``discard_rows[rank]``: the discards of a card of ``rank`` (none for aces when not allowed)."""
    pass_move: Move
    no_blocking: bool
    skipbo: bool


MoveKey = tuple[bool, bool, int, int, bool, bool]
"""The options that shape move generation: deck kind (Skip-Bo), kings wild, build piles, discard
piles, aces may be discarded, no blocking."""

TABLES_KEPT = 64
"""How many sets of move tables are kept (least recently used dropped): a server holds tables of
many options, but only a few differ in what shapes the moves; the rest (turn limits, scoring, stock
and hand sizes...) share one set."""


def move_key(opts: Options) -> MoveKey:
    """What of ``opts`` the move tables depend on; options equal here share one set of tables."""
    return (opts.skipbo, opts.kings_wild, opts.build_piles, opts.discard_piles, opts.discard_aces, opts.no_blocking)


_last: tuple[Options | None, MoveTables | None] = (None, None)
"""The options asked for last and their tables: making the key costs more than generating the
moves, and a game asks for the same options object move after move."""


def move_tables(opts: Options) -> MoveTables:
    """The value table and interned move rows of ``opts`` (shared by every state and view)."""
    global _last
    last = _last
    if last[0] is opts:
        assert last[1] is not None
        return last[1]
    tables = _tables_for(move_key(opts))
    _last = (opts, tables)
    return tables


@lru_cache(maxsize=TABLES_KEPT)
def _tables_for(key: MoveKey) -> MoveTables:
    sk, kings_wild, nb, nd, discard_aces, no_blocking = key
    return MoveTables(
        _value_table(kings_wild),
        tuple([build_move(STOCK, b, skipbo=sk) for b in range(nb)]),
        tuple([tuple([build_move(DISCARD_PILE, b, pile=j, skipbo=sk) for b in range(nb)]) for j in range(nd)]),
        tuple([tuple([build_move(HAND, b, rank=r, skipbo=sk) for b in range(nb)]) for r in range(WILD_RANK + 1)]),
        tuple([() if (r == 1 and not discard_aces) or r == 0 else
               tuple([discard_move(r, d, skipbo=sk) for d in range(nd)])
               for r in range(WILD_RANK + 1)]),
        pass_move(sk),
        no_blocking,
        sk,
    )


def _value_table(kings_wild: bool) -> tuple[int, ...]:
    table = [KING] * N_CODES
    for code in range(N_CODES):
        r = RANKS[code]
        if r == WILD_RANK:
            table[code] = 0
        elif r == KING and code < JOKER:
            table[code] = 0 if kings_wild else KING
        else:
            table[code] = r
    return tuple(table)


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
                  discard_piles: Sequence[Sequence[int]], builds: Sequence[Sequence[int]]) -> tuple[str, Phrase] | None:
    """A legal build play of a non-wild card, said for a player (``no_blocking`` forbids ending the
    turn while there is one), in English and as the refusal's catalogue phrase (the whole "no
    blocking: …" sentence); ``None`` if there is none."""
    value = tables.value
    needs = {len(p) + 1 for p in builds}
    if stock_top is not None and value[stock_top] in needs:
        return (f"your stock card {format_card(stock_top)} can be played",
                Phrase("refuse.no-blocking.stock", {"card": format_card(stock_top)}))
    for card in hand:
        if value[card] in needs:
            return (f"{describe_rank(RANKS[card], tables.skipbo)} from your hand can be played",
                    Phrase("refuse.no-blocking.hand", {"rank": rank_param(RANKS[card], tables.skipbo)}))
    for j, pile in enumerate(discard_piles):
        if pile and value[pile[-1]] in needs:
            return (f"the {format_card(pile[-1])} on your discard pile {j + 1} can be played",
                    Phrase("refuse.no-blocking.discard", {"card": format_card(pile[-1]), "pile": j + 1}))
    return None
