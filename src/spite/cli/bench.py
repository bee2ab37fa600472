"""The shared benchmarks of tournaments: ``spite bench pairing`` (a Swiss round's pairing) and ``bench club``
(a whole club tournament of computers on one server process). A game's own benchmarks come with its family
(its ``commands`` hook); ``bench server`` is with the server's commands.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from spite.cli.common import EXIT_MALFORMED, check_count, fail, require_extra

__all__ = ["bench_club", "bench_pairing", "register"]


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



def bench_club(
    system: Annotated[str, typer.Option(help="swiss or arena.")] = "swiss",
    entrants: Annotated[int, typer.Option(help="How many computer entrants.")] = 64,
    rounds: Annotated[int, typer.Option(help="With swiss: how many rounds.")] = 3,
    minutes: Annotated[float, typer.Option(help="With arena: its minutes (each lasts --time-scale of a minute).")]
    = 2.0,
    time_scale: Annotated[float, typer.Option(help="How much of its real length each tournament minute lasts.")]
    = 0.05,
    level: Annotated[str, typer.Option(help="The computers' level.")] = "random",
    game: Annotated[str | None, typer.Option(help="The game (default: the first registered).")] = None,
    preset: Annotated[str | None, typer.Option(help="The preset played (default: the game's quick-play one).")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Play a whole club tournament of computers on one server.

    On one server process (docs/tournaments.md): its wall time, games, moves, and the errors and bot fallbacks
    the server counted.
    """
    require_extra("server", "run a club tournament")
    if system not in ("swiss", "arena"):
        fail("--system is swiss or arena", EXIT_MALFORMED)
    if not 2 <= entrants <= 1000:
        fail("--entrants is 2 to 1000", EXIT_MALFORMED)
    from spite.bench.club import run_club_bench

    figures = run_club_bench(system, entrants, rounds=rounds, minutes=minutes, level=level, game=game,
                             preset=preset, time_scale=time_scale)
    if as_json:
        typer.echo(json.dumps(figures))
        return
    typer.echo(f"{system} of {entrants} computers ({figures['game']}, {figures['preset']}, {figures['level']}): "
               f"{figures['rounds']} rounds, {figures['games']} games on {figures['tables']} tables, "
               f"{figures['moves']} moves in {figures['wall_s']} s ({figures['games_per_s']} games/s); "
               f"errors {figures['errors']}, bot fallbacks {figures['botFallbacks']}; first: {figures['winner']}")


def register(bench: typer.Typer) -> None:
    """Add ``pairing`` and ``club`` to the ``bench`` group."""
    bench.command("pairing")(bench_pairing)
    bench.command("club")(bench_club)
