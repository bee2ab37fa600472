"""Standings: match points (games won; a bye one), the duplicate tiebreak on a hand-checked example,
Buchholz, shared ranks, no-shows; the arena's points in the order games ended."""

from __future__ import annotations

import pytest

from spite.tournament.standings import ArenaGame, GameResult, SwissGames, arena_standings, swiss_standings

W0, W1, DRAW = GameResult(winner=0), GameResult(winner=1), GameResult()


def test_a_hand_checked_swiss_of_four_over_two_rounds() -> None:
    """Round 1 (deal 1): a–b 1–1 (each won at seat 0), c–d 2–0; round 2 (deal 2): c–a, b–d.

    Deal 1 at seat 0: a 1, b 1, c 1, d 0 (mean ¾); at seat 1: b 0, a 0, d 0, c 1 (mean ¼).
    Deal 2: game 1 c (seat 0) beat a; game 2 a (seat 0) drew with c; b (seat 0) lost to d, then d (seat 0)
    lost to b. Seat 0 on deal 2: c 1, a ½, b 0, d 0 (mean ⅜); seat 1: a 0, c ½, d 1, b 1 (mean ⅝).
    """
    rounds = [SwissGames(1, ("a", "b"), (W0, W0)), SwissGames(1, ("c", "d"), (W0, W1)),
              SwissGames(2, ("c", "a"), (W0, DRAW)), SwissGames(2, ("b", "d"), (W1, W1))]
    rows = {s.entrant: s for s in swiss_standings(["a", "b", "c", "d"], rounds)}
    assert {k: r.points for k, r in rows.items()} == {"a": 1.5, "b": 2.0, "c": 3.5, "d": 1.0}
    # a: deal 1 (1 − ¾) + (0 − ¼); deal 2 (0 − ⅝) at seat 1 in game 1, (½ − ⅜) at seat 0 in game 2
    assert rows["a"].tiebreak == pytest.approx(0.25 - 0.25 - 0.625 + 0.125)
    # b: deal 1 (1 − ¾) + (0 − ¼); deal 2 (0 − ⅜) + (1 − ⅝)
    assert rows["b"].tiebreak == pytest.approx(0.25 - 0.25 - 0.375 + 0.375)
    assert rows["c"].tiebreak == pytest.approx((1 - 0.75) + (1 - 0.25) + (1 - 0.375) + (0.5 - 0.625))
    assert rows["d"].buchholz == 3.5 + 2.0 and rows["c"].buchholz == 1.0 + 1.5
    assert [(r.rank, r.entrant) for r in swiss_standings(["a", "b", "c", "d"], rounds)] == [
        (1, "c"), (2, "b"), (3, "a"), (4, "d")]
    assert sum(r.points for r in rows.values()) == 2 * len(rounds)  # two games' worth a pairing


def test_the_duplicate_tiebreak_rewards_doing_better_than_the_field_with_the_same_cards() -> None:
    """Everyone won one game of two on deal 1; e won its game at seat 1 by 40 points where the others
    at seat 1 scored 5 or nothing, f won at seat 0 by 10 as everyone else at seat 0 did."""
    rounds = [SwissGames(1, ("e", "x"), (GameResult(1, (0, 5)), GameResult(1, (0, 40)))),
              SwissGames(1, ("f", "y"), (GameResult(0, (10, 0)), GameResult(0, (10, 0)))),
              SwissGames(1, ("z", "w"), (GameResult(0, (10, 0)), GameResult(0, (10, 0))))]
    table = swiss_standings(["f", "e", "x", "y", "z", "w"], rounds)
    rows = {s.entrant: s for s in table}
    assert {r.points for r in table} == {1.0}
    # seat 0: e 0, f 10, z 10, x 0, y 10, w 10 (mean 40/6); seat 1: x 5, y 0, w 0, e 40, f 0, z 0 (mean 45/6)
    assert rows["e"].tiebreak == pytest.approx((0 - 40 / 6) + (40 - 45 / 6))
    assert rows["f"].tiebreak == pytest.approx((10 - 40 / 6) + (0 - 45 / 6))
    assert table[0].entrant == "e" and table[-1].entrant == "x"


def test_without_game_scores_the_comparison_follows_the_points_and_buchholz_decides() -> None:
    """Won/lost alone, each entrant's two games on a deal sum to points − 1 against the field (the
    seats' means add up to one game), so equal points stay equal and Buchholz separates them."""
    rounds = [SwissGames(1, ("a", "b"), (W0, W1)), SwissGames(1, ("c", "d"), (W0, W0)),
              SwissGames(2, ("a", "c"), (W1, W0)), SwissGames(2, ("b", "d"), (W1, W0))]
    table = swiss_standings(["a", "b", "d", "c"], rounds)
    rows = {s.entrant: s for s in table}
    for r in rows.values():
        assert r.tiebreak == pytest.approx(r.points - 2)
    assert rows["c"].points == rows["d"].points == 3.0
    assert rows["c"].buchholz == 3.0 + 2.0 and rows["d"].buchholz == 3.0 + 0.0  # c met a (2), d met b (0)
    assert [(r.rank, r.entrant) for r in table] == [(1, "c"), (2, "d"), (3, "a"), (4, "b")]


def test_byes_noshows_and_shared_ranks() -> None:
    absent0 = GameResult(noshow=(0,))
    both_absent = GameResult(noshow=(0, 1))
    assert absent0.winner == 1 and absent0.match_points(0) == 0.0 and absent0.match_points(1) == 1.0
    rounds = [SwissGames(1, ("a", "b"), (absent0, both_absent)), SwissGames(1, ("c",))]
    rows = {s.entrant: s for s in swiss_standings(["a", "b", "c"], rounds)}
    assert (rows["a"].points, rows["b"].points, rows["c"].points) == (0.0, 1.0, 1.0)
    assert rows["a"].games == rows["b"].games == 0  # games not played do not count as played ...
    assert rows["a"].tiebreak == rows["b"].tiebreak == 0.0  # ... nor in the duplicate comparison
    assert rows["b"].rank == rows["c"].rank == 1 and rows["a"].rank == 3
    with pytest.raises(ValueError):
        GameResult(winner=0, noshow=(0,))


def test_game_scores_are_compared_where_the_game_gives_them() -> None:
    rounds = [SwissGames(1, ("a", "b"), (GameResult(0, (30.0, 10.0)), GameResult(0, (25.0, 5.0))))]
    rows = {s.entrant: s for s in swiss_standings(["a", "b"], rounds)}
    # seat 0 on deal 1: a 30, b 25 (mean 27.5); seat 1: b 10, a 5 (mean 7.5)
    assert rows["a"].tiebreak == pytest.approx(2.5 - 2.5) and rows["a"].points == rows["b"].points == 1.0


def test_a_draw_on_a_scored_deal_scores_nothing_beside_the_scores() -> None:
    rounds = [SwissGames(1, ("a", "b"), (GameResult(0, (30.0, 0.0)), DRAW)),
              SwissGames(1, ("c", "d"), (GameResult(0, (10.0, 0.0)), GameResult(1, (0.0, 20.0))))]
    rows = {s.entrant: s for s in swiss_standings(["a", "b", "c", "d"], rounds)}
    # seat 0 on deal 1: a 30, b 0 (the draw), c 10, d 0 (mean 10); seat 1: b 0, a 0, d 0, c 20 (mean 5)
    assert rows["a"].tiebreak == pytest.approx((30 - 10) + (0 - 5))
    assert rows["b"].tiebreak == pytest.approx((0 - 10) + (0 - 5))
    assert rows["a"].points == 1.5 and rows["c"].points == 2.0


def test_arena_standings_count_streaks_in_the_order_games_ended() -> None:
    games = [ArenaGame(("a", "b"), W0), ArenaGame(("c", "a"), W1), ArenaGame(("a", "d"), W0),
             ArenaGame(("b", "a"), DRAW), ArenaGame(("a", "c"), W0)]
    rows, per_game = arena_standings(["a", "b", "c", "d"], games)
    assert [g["a"] for g in per_game] == [2, 2, 4, 1, 2]
    top = rows[0]
    assert (top.entrant, top.points, top.games, top.wins, top.streak) == ("a", 11.0, 5, 4, 1)
    assert {r.entrant: r.points for r in rows} == {"a": 11.0, "b": 1.0, "c": 0.0, "d": 0.0}
    assert [(r.rank, r.entrant) for r in rows] == [(1, "a"), (2, "b"), (3, "d"), (4, "c")]  # d: fewer games
