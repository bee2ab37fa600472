"""spite bench tournament runs and reports its figures (a smoke run: no timing is asserted)."""

from __future__ import annotations

from arena_helpers import spite

from spite.malice.bench.tournament import run_tournament_bench


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


def test_random_bots_drawing_from_one_source_play_the_engines_random_playout_move_for_move() -> None:
    """What the benchmark compares: the arena's `random` bots are the engine's random player, so the
    same deal and one random source give the same game, and the ratio is the arena's cost alone."""
    import random

    from spite.arena.runner import Setup
    from spite.arena.schedule import schedule
    from spite.malice import Options
    from spite.malice.arena import play_game
    from spite.malice.bench.engine import play_random_game
    from spite.malice.record import record_from_state
    from spite.records import parse_record

    opts = Options.from_preset("classic")
    setup = Setup(specs=("random", "random"), seed=4, records=True)
    for game in schedule(2, players=2, games=6, seed=4):
        engine = play_random_game(opts, game.seed, random.Random(game.index))
        arena = play_game(game, setup, opts, rngs=[random.Random(game.index)] * 2)
        assert arena.record is not None and arena.plies == len(engine.history) > 0
        assert parse_record(arena.record).moves == record_from_state(engine).moves
