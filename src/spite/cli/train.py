"""``spite train``: fit the learned value to self-play outcomes (:mod:`spite.malice.bots.training`).

numpy fits the model and matplotlib draws its learning curve: both come with the ``plot`` extra,
checked before any game is played.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from spite.cli.common import EXIT_MALFORMED, fail, require_extra

__all__ = ["register", "split_pool", "train"]


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


def register(app: typer.Typer) -> None:
    """Add ``train`` to ``app``."""
    app.command("train")(train)
