"""The engine's benchmarks: ``spite bench engine``, ``bench rl``, ``bench spit``; ``bench pairing`` (tournaments).

(``bench tournament`` is with the arena commands, ``bench server`` with the server's.)
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from spite.cli.common import EXIT_MALFORMED, check_count, check_seconds, fail, needs_extra, require_extra

__all__ = ["bench_bots", "bench_engine", "bench_pairing", "bench_rl", "bench_spit", "register"]


def bench_engine(
    seconds: Annotated[float, typer.Option(help="How long to play.")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
    baseline: Annotated[
        Path | None, typer.Option(help="Also run this bare_loop.py, interleaved, and report the ratio.")
    ] = None,
) -> None:
    """Measure the engine: random playouts, games/s and moves/s.

    Through the public API, classic rules, two players, one core; --baseline runs the bare loop beside it.
    """
    from spite.bench.engine import run_compared, run_engine_bench

    check_seconds("--seconds", seconds, above_zero=True)
    if baseline is not None and not baseline.is_file():
        fail(f"no such file: {baseline}", EXIT_MALFORMED)

    def measure(progress: Callable[[float], None] | None) -> dict[str, Any]:
        if baseline is not None:
            return run_compared(baseline, seconds, progress=progress)
        return run_engine_bench(seconds, progress=progress)

    if as_json:
        result = measure(None)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("random playouts", total=1.0)
            result = measure(lambda f: bar.update(task, completed=f))
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"engine: {result['games_per_s']} games/s, {result['moves_per_s']} moves/s "
               f"({result['games']} games in {result['seconds']} s)")
    if baseline is not None:
        bare = result["bare_loop"]
        typer.echo(f"bare loop: {bare['games_per_s']} games/s, {bare['moves_per_s']} moves/s; "
                   f"ratio {result['ratio_games']} (games/s), {result['ratio_moves']} (moves/s)")


def bench_bots(
    ctx: typer.Context,
    bots: Annotated[list[str], typer.Option("--bots", help="The bots: --bots A B (specs or levels, as for "
                                                           "spite tournament).")],
    games: Annotated[int, typer.Option(help="Games to play (seats rotated game by game).")] = 20,
    preset: Annotated[str, typer.Option(help="A preset of Spite and Malice.")] = "classic",
    seed: Annotated[int, typer.Option(help="Seed of the deals.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Measure the bots' CPU time per decision as they play each other.

    Milliseconds of CPU per decision: the mean, the 99th percentile and the most.
    """
    from spite.bench.bots import run_bots_bench
    from spite.bots import make_bot
    from spite.errors import OptionsError
    from spite.malice import Options

    stray = [a for a in ctx.args if a.startswith("-")]
    if stray:
        fail(f"unknown option {stray[0]!r}", EXIT_MALFORMED)
    bots = [*bots, *ctx.args]
    if games < 1:
        fail(f"--games must be at least 1, not {games}", EXIT_MALFORMED)
    try:
        Options.from_preset(preset)
        for spec in bots:
            make_bot(spec)
    except OptionsError as exc:
        fail(str(exc), EXIT_MALFORMED)
    if as_json:
        result = run_bots_bench(bots, games, preset, seed)
        typer.echo(json.dumps(result))
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("bots playing", total=1.0)
        result = run_bots_bench(bots, games, preset, seed, progress=lambda f: bar.update(task, completed=f))
    for row in result["bots"]:
        typer.echo(f"{row['bot']}: {row['ms_mean']} ms a decision (CPU; 99th percentile {row['ms_p99']}, "
                   f"most {row['ms_max']}) over {row['decisions']} decisions")


def bench_rl(
    seconds: Annotated[float, typer.Option(help="How long to measure.")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Measure the research environments' steps per second.

    PettingZoo steps/s with and without the text view, Gymnasium steps/s, OpenSpiel moves/s (with the
    openspiel extra) and encodings/s, each per CPU second.
    """
    check_seconds("--seconds", seconds, above_zero=True)
    with needs_extra("rl", "measure the research environments"):  # the environments import theirs late
        from spite.bench.rl import run_rl_bench

        result = run_rl_bench(seconds)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(", ".join(f"{k}: {v}" for k, v in result.items()))


def bench_spit(
    seconds: Annotated[float, typer.Option(help="How long to simulate.")] = 5.0,
    game: Annotated[str, typer.Option(help="A real-time game: spit or speed.")] = "spit",
    curve: Annotated[Path | None, typer.Option(help="Also measure win rate against the reaction-time gap and "
                                                    "plot it into this PNG.")] = None,
    deals: Annotated[int, typer.Option(help="Deals per point of the curve (each played twice).")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Measure simulated Spit or Speed games per second.

    Expert against expert; --curve also plots the win rate against the gap in reaction time.
    """
    from spite.bench.spit import reaction_gap_curve, run_spit_bench
    from spite.games import game_names, get_game

    realtime = [name for name in game_names() if get_game(name).realtime]
    if game not in realtime:
        fail(f"--game must be a real-time game ({' or '.join(realtime)}), not {game!r}", EXIT_MALFORMED)
    check_seconds("--seconds", seconds, above_zero=True)
    check_count("--deals", deals, 1)
    if curve is not None:
        require_extra("plot", "draw the curve")  # before the games, not after them
    result: dict[str, Any] = run_spit_bench(seconds, game=game)
    if curve is not None:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("reaction-gap curve", total=1.0)
            gap = reaction_gap_curve(deals=deals, game=game, png=str(curve),
                                     progress=lambda f: bar.update(task, completed=f))
        result["reaction_gap"] = {k: v for k, v in gap.items() if k in ("gap75_ms", "ratio75", "gap75_fit_ms")}
        result["plot"] = str(curve)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(", ".join(f"{k}: {v}" for k, v in result.items()))


def bench_pairing(
    entrants: Annotated[int, typer.Option(help="Entrants of the simulated Swiss.")] = 500,
    rounds: Annotated[int, typer.Option(help="Rounds to pair (1 to 15).")] = 9,
    seed: Annotated[int, typer.Option(help="Seed of the ratings and the results.")] = 1,
    window: Annotated[int | None, typer.Option(help="Entrants matched together (default: the pairing's own).")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Time the pairing of each round of a simulated Swiss.

    A whole Swiss of computer entrants with random (seeded) results: each round's pairing (a maximum-weight
    matching) timed alone, then with the standings the state reads first; the median and the most.
    """
    from spite.bench.pairing import run_pairing_bench
    from spite.tournament.swiss import DEFAULT_WINDOW

    check_count("--entrants", entrants, 2)
    check_count("--rounds", rounds, 1, 15)
    if window is not None:
        check_count("--window", window, 2)
    result = run_pairing_bench(entrants, rounds, seed, DEFAULT_WINDOW if window is None else window)
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"pairing {entrants} entrants: median {result['pairing_ms_median']} ms, most "
               f"{result['pairing_ms_max']} ms a round over {rounds} rounds (with the standings: median "
               f"{result['round_ms_median']} ms, most {result['round_ms_max']} ms); rematches "
               f"{result['rematches']}, largest seat difference {result['seat_difference_max']}")


def register(bench: typer.Typer) -> None:
    """Add ``engine``, ``bots``, ``rl``, ``spit`` and ``pairing`` to the ``bench`` group."""
    bench.command("engine")(bench_engine)
    bench.command("bots", context_settings={"allow_extra_args": True})(bench_bots)
    bench.command("rl")(bench_rl)
    bench.command("spit")(bench_spit)
    bench.command("pairing")(bench_pairing)
