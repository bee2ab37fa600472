"""The Spite and Malice family's own commands (the ``commands`` hook of ``spite-malice``, added to the
``spite`` command line by :mod:`spite.cli`): ``spite random-game``, ``demo``, ``train``, and the
benchmarks ``spite bench engine``, ``bots``, ``rl`` and ``tournament``.

Thin, as every command: each imports what it runs when it runs (the command line starts fast).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from spite.cli.common import (
    EXIT_MALFORMED,
    OptionOpt,
    check_count,
    check_seconds,
    fail,
    needs_extra,
    new_seed,
    parse_options,
    require_extra,
    write_output,
)
from spite.errors import SpiteError

__all__ = ["bench_bots", "bench_engine", "bench_rl", "bench_tournament", "demo", "random_game", "register",
           "split_pool", "train"]


def random_game(
    preset: Annotated[str, typer.Option(help="A Spite and Malice preset.")] = "classic",
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the random player.")] = None,
    policy: Annotated[str, typer.Option(help="uniform: any legal move; builds-first: build while possible.")]
    = "builds-first",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of standard output.")] = None,
) -> None:
    """Play random legal moves to a game's end and write its record."""
    from spite.malice import Options, State
    from spite.malice.record import record_from_state
    from spite.records import dump_record

    if policy not in ("uniform", "builds-first"):
        fail(f"policy must be uniform or builds-first, not {policy!r}", EXIT_MALFORMED)
    try:
        opts = Options.from_preset(preset, parse_options(option))
    except SpiteError as exc:
        fail(str(exc), EXIT_MALFORMED)
    s = new_seed(seed)
    state = State.new(opts, s)
    rng = random.Random(f"random-game/{s}")
    while not state.is_over:
        moves = state.build_moves() if policy == "builds-first" else state.legal_moves()
        state.play(rng.choice(moves or state.end_moves()))
    write_output(dump_record(record_from_state(state, preset)), out)


def demo(
    preset: Annotated[str, typer.Option(help="A Spite and Malice preset.")] = "classic",
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the players.")] = None,
    delay: Annotated[float, typer.Option(help="Seconds to pause after each turn.")] = 0.4,
    turns: Annotated[int | None, typer.Option(help="Stop after this many turns.")] = None,
) -> None:
    """Watch two random players play a game, turn by turn.

    Each turn is drawn as a table in the terminal (Rich), with --delay seconds between turns.
    """
    check_seconds("--delay", delay)
    check_count("--turns", turns, 1)
    from spite.malice import Options
    from spite.malice.tui.demo import run_demo

    try:
        opts = Options.from_preset(preset, parse_options(option))
    except SpiteError as exc:
        fail(str(exc), EXIT_MALFORMED)
    run_demo(opts, new_seed(seed), delay=delay, max_turns=turns)


def split_pool(text: str) -> list[str]:
    """The bot specs of a comma-separated pool, each with its settings: in ``learned:700,weights=v0.json,heuristic``
    the ``key=value`` after a spec is that spec's setting (a bot's name has no ``=``), so the pool is
    ``learned:700,weights=v0.json`` and ``heuristic``.

    >>> split_pool("learned:700,weights=v0.json, heuristic,search:iters=8,value=learned")
    ['learned:700,weights=v0.json', 'heuristic', 'search:iters=8,value=learned']
    """
    pool: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, eq, _ = part.partition("=")
        if eq and ":" not in key and pool:
            pool[-1] = f"{pool[-1]},{part}"
        else:
            pool.append(part)
    return pool


def train(
    games: Annotated[int, typer.Option(help="Self-play games to learn from.")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the games, the held-out split and so of the weights.")] = 1,
    out: Annotated[Path, typer.Option(help="The weights file to write (JSON).")] = Path("learned_value.json"),
    plot: Annotated[Path | None, typer.Option(help="The learning curve's PNG (default: beside --out, .png).")]
    = None,
    preset: Annotated[str, typer.Option(help="A preset of Spite and Malice to play.")] = "classic",
    epochs: Annotated[int, typer.Option(help="Passes of gradient descent over the positions.")] = 300,
    bots: Annotated[str, typer.Option(help="The self-play pool, comma-separated (two drawn per game); a bot's "
                                           "settings follow it: learned:700,weights=PATH.")]
    = "heuristic,heuristic,heuristic-v1,casual",
    jobs: Annotated[int, typer.Option(help="Processes playing the games (the result does not depend on it).")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line (the summary).")] = False,
) -> None:
    """Train the learned bot's value on self-play games.

    Fits the chance of winning from a seat's view to the games' outcomes; writes its weights and a plot
    of its learning curve.
    The same --games, --seed, --preset, --epochs and --bots give the same weights.
    """
    from spite.errors import OptionsError

    if games < 1 or epochs < 1 or jobs < 1:
        fail("--games, --epochs and --jobs must be at least 1", EXIT_MALFORMED)
    pool = split_pool(bots)
    try:
        from spite.bots import make_bot
        from spite.malice import Options

        Options.from_preset(preset)
        for spec in pool:
            make_bot(spec)
    except OptionsError as exc:
        fail(str(exc), EXIT_MALFORMED)
    if not pool:
        fail("--bots names no bot", EXIT_MALFORMED)
    require_extra("plot", "train the learned value and plot its learning curve")
    curve = plot if plot is not None else out.with_suffix(".png")
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from spite.malice.bots.training import plot_curve, write_weights
    from spite.malice.bots.training import train as run_training

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        playing = bar.add_task("self-play games", total=games)
        fitting = bar.add_task("fitting (epochs)", total=epochs)
        result = run_training(games, seed, preset=preset, epochs=epochs, pool=pool, jobs=jobs,
                              on_games=lambda n: bar.update(playing, completed=n),
                              on_epochs=lambda n: bar.update(fitting, completed=n))
    try:
        write_weights(result.fit.model, out)
        plot_curve(result, curve)
    except OSError as exc:
        fail(f"cannot write {exc.filename}: {exc.strerror or exc}", EXIT_MALFORMED)
    summary = {"out": str(out), "plot": str(curve), "games": result.games, "positions": result.positions,
               "holdout_games": result.holdout_games,
               "train_log_loss": round(result.fit.train_loss[-1], 5),
               "holdout_log_loss": result.fit.model.meta.get("holdout_log_loss"),
               "holdout_accuracy": result.fit.model.meta.get("holdout_accuracy")}
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(f"trained on {result.positions:,} positions of {result.games:,} games: log-loss "
                   f"{summary['train_log_loss']} (training), {summary['holdout_log_loss']} (held out), "
                   f"held-out accuracy {summary['holdout_accuracy']}; weights {out}, curve {curve}")


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
    from spite.malice.bench.engine import run_compared, run_engine_bench

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
    from spite.bots import make_bot
    from spite.errors import OptionsError
    from spite.malice import Options
    from spite.malice.bench.bots import run_bots_bench

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
        from spite.malice.bench.rl import run_rl_bench

        result = run_rl_bench(seconds)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(", ".join(f"{k}: {v}" for k, v in result.items()))


def bench_tournament(
    seconds: Annotated[float, typer.Option(help="How long to measure each part.")] = 5.0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Jobs for the speed-up part.")] = 2,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Measure tournament throughput and the --jobs speed-up.

    Random against random on the same games both ways, then the same games with 1 job and with --jobs.
    """
    from spite.malice.bench.tournament import run_tournament_bench

    check_seconds("--seconds", seconds, above_zero=True)
    if jobs < 2:
        fail("--jobs must be at least 2 (the speed-up compares it with 1 job)", EXIT_MALFORMED)
    if as_json:
        result = run_tournament_bench(seconds, jobs)
        typer.echo(json.dumps(result))
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("tournament bench", total=1.0)
        result = run_tournament_bench(seconds, jobs, progress=lambda f: bar.update(task, completed=f))
    typer.echo(f"arena: {result['arena_moves_per_s']} moves/s per core, engine playouts "
               f"{result['engine_moves_per_s']} moves/s: ratio {result['ratio_moves']}")
    typer.echo(f"{result['speedup_games']} games: 1 job {result['jobs1_s']} s, {jobs} jobs "
               f"{result[f'jobs{jobs}_s']} s: speed-up {result['speedup']}× on {result['cpus']} cpus "
               f"(CPU time ×{result['cpu_overhead']}, load average {result['load_avg']})")


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add ``random-game``, ``demo`` and ``train`` to ``app``; ``engine``, ``bots``, ``rl`` and
    ``tournament`` to its ``bench`` group."""
    app.command("random-game")(random_game)
    app.command("demo")(demo)
    app.command("train")(train)
    bench.command("engine")(bench_engine)
    bench.command("bots", context_settings={"allow_extra_args": True})(bench_bots)
    bench.command("rl")(bench_rl)
    bench.command("tournament")(bench_tournament)
