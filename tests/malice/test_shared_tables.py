"""What every game in a process shares: interned moves and the move tables. Nothing a bot gets can
change them, and a server making tables with many options keeps few of them."""

from __future__ import annotations

import pickle

import pytest

from spite.malice import Options, State
from spite.malice.legal import TABLES_KEPT, move_tables
from spite.malice.moves import HAND, STOCK, build_move, parse_move


def test_a_move_cannot_be_changed_and_stays_one_object_per_text() -> None:
    move = parse_move("S-B1")
    with pytest.raises(AttributeError):
        move.target = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del move.text
    assert move.target == 0 and move.text == "S-B1"
    assert parse_move("s-b1") is move is build_move(STOCK, 0)
    assert parse_move("h10-b2") is parse_move("HT-B2") is build_move(HAND, 1, rank=10)
    assert pickle.loads(pickle.dumps(move)) is move
    # a game's moves are the interned ones
    state = State.new(Options(), seed=2)
    assert all(parse_move(m.text) is m for m in state.legal_moves())


def test_options_differing_only_outside_move_generation_share_one_table() -> None:
    base = Options()
    tables = move_tables(base)
    for other in (base.with_options(turn_limit=77), base.with_options(scoring="payoff"),
                  base.with_options(stock_size=13, hand_size=6), base.with_options(turn_limit=5000)):
        assert move_tables(other) is tables
    assert move_tables(base.with_options(build_piles=3)) is not tables
    assert move_tables(base.with_options(kings_wild=False)).value != tables.value


def test_the_table_cache_is_bounded() -> None:
    base = Options()
    first = move_tables(base)
    for piles in range(1, 13):
        for discard_piles in range(1, 13):
            move_tables(base.with_options(build_piles=piles, discard_piles=discard_piles))
    from spite.malice.legal import _tables_for

    assert _tables_for.cache_info().currsize <= TABLES_KEPT
    again = move_tables(base)  # made again after being dropped: the same moves, equal tables
    assert again == first


def test_the_shared_tables_cannot_be_changed_through_a_view() -> None:
    state = State.new(Options(), seed=5)
    view = state.view(state.to_move)
    moves = view.legal_moves
    tables = move_tables(view.opts)
    with pytest.raises(TypeError):
        tables.value[0] = 5  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        tables.stock_rows.append(parse_move("D1-B1"))  # type: ignore[attr-defined]
    with pytest.raises(TypeError):
        tables.hand_rows[1][0] = parse_move("D1-B1")  # type: ignore[index]
    with pytest.raises(AttributeError):
        tables.pass_move = parse_move("D1-B1")  # type: ignore[misc]
    with pytest.raises((TypeError, AttributeError)):
        view.legal_moves[0] = parse_move("D1-B1")  # type: ignore[index]
    # what a bot does with the lists it is given does not reach the engine
    builds = view.build_moves()
    builds.clear()
    assert view.legal_moves == moves == tuple(state.legal_moves())
