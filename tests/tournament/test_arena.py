"""Arena pairing and points: never the same opponent twice in a row, near in points, the last to come
free waits; a win 2, a draw 1, from the third win in a row 4."""

from __future__ import annotations

import itertools

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from spite.tournament.arena import ArenaPlayer, arena_points, pair_arena


@st.composite
def pools(draw: st.DrawFn, most: int = 16) -> list[ArenaPlayer]:
    n = draw(st.integers(0, most))
    names = [f"p{i}" for i in range(n)]
    out = []
    for i, name in enumerate(names):
        last = draw(st.sampled_from([None, *(f"p{j}" for j in range(n + 3) if j != i)]))
        out.append(ArenaPlayer(name, draw(st.integers(0, 30)), float(draw(st.integers(1000, 2000))), last,
                               float(draw(st.integers(0, 100)))))
    return out


def met_last(a: ArenaPlayer, b: ArenaPlayer) -> bool:
    return a.last_opponent == b.id or b.last_opponent == a.id


@settings(max_examples=150, deadline=None)
@given(pool=pools())
def test_never_the_same_opponent_twice_in_a_row_and_as_many_games_as_can_be(pool: list[ArenaPlayer]) -> None:
    made = pair_arena(pool)
    by_id = {p.id: p for p in pool}
    seated = [who for pair in made.pairs for who in pair]
    assert sorted(seated + list(made.waiting)) == sorted(by_id)  # everyone once: at a table or waiting
    for a, b in made.pairs:
        assert not met_last(by_id[a], by_id[b])
    graph = nx.Graph()
    graph.add_edges_from((a.id, b.id) for a, b in itertools.combinations(pool, 2) if not met_last(a, b))
    assert len(made.pairs) == len(nx.max_weight_matching(graph, maxcardinality=True))


def test_near_in_points_and_the_last_to_come_free_waits() -> None:
    pool = [ArenaPlayer("a", 20, waiting_since=1.0), ArenaPlayer("b", 2, waiting_since=2.0),
            ArenaPlayer("c", 18, waiting_since=3.0), ArenaPlayer("d", 0, waiting_since=4.0),
            ArenaPlayer("e", 10, waiting_since=9.0)]
    made = pair_arena(pool)
    assert sorted(tuple(sorted(p)) for p in made.pairs) == [("a", "c"), ("b", "d")]
    assert made.waiting == ("e",)


def test_two_who_just_met_wait_for_a_third() -> None:
    made = pair_arena([ArenaPlayer("a", 2, last_opponent="b"), ArenaPlayer("b", 0, last_opponent="a")])
    assert made.pairs == () and sorted(made.waiting) == ["a", "b"]


def test_a_large_pool_pairs_everyone_it_can() -> None:
    pool = [ArenaPlayer(f"p{i}", i % 7, last_opponent=f"p{i ^ 1}", waiting_since=float(i)) for i in range(200)]
    made = pair_arena(pool)
    assert len(made.pairs) == 100 and made.waiting == ()
    assert all(int(a[1:]) ^ 1 != int(b[1:]) for a, b in made.pairs)


def test_the_seat_goes_to_who_began_fewer_games() -> None:
    made = pair_arena([ArenaPlayer("a", 0, firsts=3, games=4), ArenaPlayer("b", 0, firsts=1, games=4)])
    assert made.pairs == (("b", "a"),)


def test_points_double_from_the_third_win_in_a_row_until_a_game_is_not_won() -> None:
    streak, got = 0, []
    for outcome in ("win", "win", "win", "win", "draw", "win", "win", "win", "loss", "win"):
        points, streak = arena_points(outcome, streak)
        got.append(points)
    assert got == [2, 2, 4, 4, 1, 2, 2, 4, 0, 2]
