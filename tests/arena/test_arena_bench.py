"""spite bench tournament runs and reports its figures (a smoke run: no timing is asserted)."""

from __future__ import annotations

from arena_helpers import spite

from spite.bench.tournament import run_tournament_bench


def test_the_tournament_benchmark_reports_throughput_and_speedup() -> None:
    result = run_tournament_bench(seconds=0.1, jobs=2)
    assert result["arena_moves_per_s"] > 0 and result["engine_moves_per_s"] > 0
    assert abs(result["ratio_moves"] - result["arena_moves_per_s"] / result["engine_moves_per_s"]) < 0.01
    assert result["speedup_games"] >= 40 and result["jobs1_s"] > 0 and result["jobs2_s"] > 0
    assert result["same_results"] is True  # one job and two play the same games


def test_bench_tournament_refuses_bad_flags() -> None:
    code, _, err = spite("bench", "tournament", "--jobs", "1")
    assert code == 2 and "--jobs must be at least 2" in err
    code, _, err = spite("bench", "tournament", "--seconds", "0")
    assert code == 2 and "--seconds must be more than 0" in err
