"""Statistics against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from spite.arena import elo_ratings, pairwise, summarize, wilson
from spite.arena.runner import GameResult
from spite.malice import Options
from spite.malice.arena import outcomes

Z2 = 1.959963984540054**2  # z² for 95%


def test_wilson_interval_hand_values() -> None:
    # 7 of 10: p = .7, z = 1.96: centre (0.7 + 0.19208) / 1.38415 = 0.64450, half 0.24770
    lo, hi = wilson(7, 10)
    assert lo == pytest.approx(0.39678, abs=1e-4) and hi == pytest.approx(0.89221, abs=1e-4)
    # 0 of 10: [0, z² / (n + z²)] = [0, 3.84146 / 13.84146]
    assert wilson(0, 10) == (0.0, pytest.approx(Z2 / (10 + Z2), abs=1e-12))
    # 10 of 10 mirrors it; 1 of 2 is symmetric about one half
    assert wilson(10, 10)[0] == pytest.approx(1 - Z2 / (10 + Z2), abs=1e-12)
    lo, hi = wilson(1, 2)
    assert lo + hi == pytest.approx(1.0) and lo == pytest.approx(0.09453, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_elo_of_two_bots_is_the_log_odds_with_one_virtual_draw() -> None:
    # A won 3 of 4: with one virtual draw A scored 3.5 of 5, B 1.5: 400·log10(3.5/1.5) = 147.19, split ±73.6
    pairs = [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)]
    elo = elo_ratings(2, pairs)
    assert elo[0] == pytest.approx(73.595, abs=0.01) and elo[1] == pytest.approx(-73.595, abs=0.01)
    # a clean sweep stays finite: 10 of 10 → 400·log10(10.5/0.5) = 528.9
    elo = elo_ratings(2, [(0, 1, 1.0)] * 10)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(21), abs=0.01)
    # draws only: equal
    assert elo_ratings(2, [(0, 1, 0.5)] * 5) == {0: pytest.approx(0.0), 1: pytest.approx(0.0)}


def test_elo_of_three_bots() -> None:
    # a cycle A>B, B>C, C>A: everyone equal
    cyc = elo_ratings(3, [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0)])
    assert all(abs(v) < 1e-6 for v in cyc.values())
    # A beats B twice, B beats C twice, A and C never meet: by symmetry B is 0, A = -C, and the
    # likelihood equations for A: 2.5 = 3 · 1/(1 + 10^(-A/400)) → A = 400·log10(5) = 279.6
    elo = elo_ratings(3, [(0, 1, 1.0), (0, 1, 1.0), (1, 2, 1.0), (1, 2, 1.0)])
    assert elo[1] == pytest.approx(0, abs=1e-6)
    assert elo[0] == pytest.approx(400 * math.log10(5), abs=0.01) and elo[2] == pytest.approx(-elo[0], abs=1e-6)


def test_outcomes_per_bot() -> None:
    two, partners, party = Options(), Options.from_preset("partners"), Options.from_preset("party")
    assert outcomes(two, (1, 0), 0, None) == {1: 1.0, 0: 0.0}
    assert outcomes(two, (0, 1), None, None) == {0: 0.5, 1: 0.5}
    # partnerships: the winning team's bots win (bots 0 and 2 are partners in seats 0 and 2)
    assert outcomes(partners, (0, 1, 2, 3), 2, 0) == {0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0}
    assert outcomes(partners, (1, 0, 1, 0), 3, 1) == {1: 0.0, 0: 1.0}
    # forfeits: the offender's side loses; one side left wins, several draw
    assert outcomes(two, (0, 1), None, None, forfeit_seat=1) == {0: 1.0, 1: 0.0}
    assert outcomes(partners, (0, 1, 2, 3), None, None, forfeit_seat=3) == {0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0}
    assert outcomes(party, (2, 0, 1), None, None, forfeit_seat=0) == {2: 0.0, 0: 0.5, 1: 0.5}


def game(index: int, seats: tuple[int, ...], scores: dict[int, float], turns: int, *,
         think: tuple[float, ...] = (0.0, 0.0), decisions: tuple[int, ...] = (1, 1),
         forfeit: int | None = None) -> GameResult:
    return GameResult(index=index, deal=index // 2, rotation=index % 2, seed=1, seats=seats, winner=None, team=None,
                      reason="x", points=None, turns=turns, plies=10, scores=scores, think=think,
                      decisions=decisions, forfeit_seat=forfeit)


def test_pairwise_results_ignore_partners_and_fellow_losers() -> None:
    g = game(0, (0, 1, 2, 3), {0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0}, 5)
    assert sorted(pairwise([g])) == [(0, 1, 1.0), (0, 3, 1.0), (1, 2, 0.0), (2, 3, 1.0)]
    g = game(0, (0, 1, 2), {0: 0.0, 1: 0.5, 2: 0.5}, 5)
    assert sorted(pairwise([g])) == [(0, 1, 0.0), (0, 2, 0.0), (1, 2, 0.5)]


def test_summary_counts_wins_draws_turns_and_think_time() -> None:
    results = [
        game(0, (0, 1), {0: 1.0, 1: 0.0}, 10, think=(0.002, 0.001), decisions=(4, 2)),
        game(1, (1, 0), {1: 1.0, 0: 0.0}, 20, think=(0.004, 0.002), decisions=(4, 2)),
        game(2, (0, 1), {0: 0.5, 1: 0.5}, 30, think=(0.0, 0.0), decisions=(2, 2)),
        game(3, (1, 0), {1: 0.0, 0: 1.0}, 40, think=(0.0, 0.0), decisions=(2, 2), forfeit=0),
    ]
    s = summarize(["a", "b"], results)
    a, b = s["a"], s["b"]
    assert (a["games"], a["wins"], a["draws"], a["losses"]) == (4, 2, 1, 1)
    assert (b["games"], b["wins"], b["draws"], b["losses"]) == (4, 1, 1, 2)
    assert a["win_rate"] == 0.5 and a["score"] == 0.625
    assert a["ci95"] == [round(x, 4) for x in wilson(2, 4)]
    assert a["mean_turns"] == 25.0
    # a: 4 + 2 + 2 + 2 moves, 2 + 2 ms → 0.4 ms per move; b: 2 + 4 + 2 + 2 moves, 1 + 4 ms → 0.5 ms
    assert a["moves"] == 10 and a["mean_think_ms"] == pytest.approx(0.4)
    assert b["moves"] == 10 and b["mean_think_ms"] == pytest.approx(0.5)
    assert b["forfeits"] == 1 and a["forfeits"] == 0
    # Elo from the pairwise results: a scored 2.5 of 4, plus the virtual draw: 3 of 5
    assert a["elo"] == pytest.approx(200 * math.log10(3 / 2), abs=0.05) and b["elo"] == -a["elo"]
