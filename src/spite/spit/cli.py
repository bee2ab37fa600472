"""Spit's and Speed's own commands (the ``commands`` hook of ``spit`` and ``speed``, added to the
``spite`` command line by :mod:`spite.cli`): ``spite bench spit``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from spite.cli.common import EXIT_MALFORMED, check_count, check_seconds, fail, require_extra

__all__ = ["bench_spit", "register"]


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
    from spite.games import game_names, get_game
    from spite.spit.bench import reaction_gap_curve, run_spit_bench

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


def register(app: typer.Typer, bench: typer.Typer) -> None:
    """Add ``spit`` to the ``bench`` group."""
    bench.command("spit")(bench_spit)
