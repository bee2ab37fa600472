"""A tournament from start to finish: check the entrants, schedule, play, sum up, write the files."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spite.arena.backends import BACKENDS, run_local, run_ray
from spite.arena.output import GameWriter
from spite.arena.runner import GameResult, Setup
from spite.arena.schedule import GameSpec, bot_names, check_lineup, schedule
from spite.arena.stats import summarize
from spite.bots import make_bot
from spite.errors import OptionsError

__all__ = ["Tournament", "TournamentResult", "check_bots", "run_tournament"]


def check_bots(specs: Sequence[str]) -> None:
    """Raise :class:`OptionsError` for a spec that names no bot (external programs are not started)."""
    for spec in specs:
        bot = make_bot(spec)
        close = getattr(bot, "close", None)
        if close is not None:
            close()


@dataclass
class Tournament:
    """A tournament's settings (what ``spite tournament`` takes)."""

    bots: list[str]
    games: int = 100
    preset: str = "classic"
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    jobs: int = 1
    backend: str = "local"
    seconds: float | None = None
    """Budget per move, in seconds."""
    out: Path | None = None
    game: str = "spite-malice"
    """``spite-malice``, ``spit`` or ``speed`` (the real-time games are played in virtual time)."""

    def check(self) -> tuple[Setup, list[GameSpec]]:
        """Check every setting (one clear :class:`OptionsError` if wrong) and make the schedule."""
        if self.backend not in BACKENDS:
            raise OptionsError(f"unknown backend {self.backend!r} (one of {', '.join(BACKENDS)})")
        if self.backend == "ray" and importlib.util.find_spec("ray") is None:
            raise OptionsError("the ray backend needs Ray: pip install 'spite[ray]' (or pip install ray)")
        if self.jobs < 1:
            raise OptionsError(f"--jobs must be at least 1, not {self.jobs}")
        if self.seconds is not None and not self.seconds > 0:
            raise OptionsError(f"--seconds must be more than 0, not {self.seconds}")
        if self.games < 1:
            raise OptionsError(f"--games must be at least 1, not {self.games}")
        setup = Setup(specs=tuple(self.bots), preset=self.preset, options=dict(self.options), seed=self.seed,
                      budget=self.seconds, records=self.out is not None, game=self.game)
        if self.out is not None and self.out.exists() and not self.out.is_dir():
            raise OptionsError(f"--out {self.out} is a file, not a folder")
        if self.game in ("spit", "speed"):
            from spite.sim import check_spit_tournament

            check_spit_tournament(self.bots, self.game, self.preset, self.options)
            return setup, schedule(len(self.bots), players=2, games=self.games, seed=self.seed)
        if self.game != "spite-malice":
            raise OptionsError(f"unknown game {self.game!r} (one of spite-malice, spit, speed)")
        opts = setup.opts()
        check_lineup(len(self.bots), opts.players)
        check_bots(self.bots)
        if self.out is not None and self.out.exists() and not self.out.is_dir():
            raise OptionsError(f"--out {self.out} is a file, not a folder")
        return setup, schedule(len(self.bots), players=opts.players, games=self.games, seed=self.seed)


@dataclass
class TournamentResult:
    """The games played (in schedule order) and the summary (the ``--json`` object)."""

    games: list[GameResult]
    summary: dict[str, Any]


def run_tournament(t: Tournament, progress: Callable[[int, int], None] | None = None) -> TournamentResult:
    """Play a tournament; ``progress(done, total)`` is called after each game."""
    setup, games = t.check()
    names = bot_names(t.bots)
    players, sides = 2, 2
    if t.game == "spite-malice":
        opts = setup.opts()
        players, sides = opts.players, (2 if opts.partnerships else len(names))
    writer = None
    if t.out is not None:
        t.out.mkdir(parents=True, exist_ok=True)
        writer = GameWriter(t.out, names, len(games))
    done = 0

    def on_done(res: GameResult) -> None:
        nonlocal done
        done += 1
        if writer is not None:
            writer.add(res)
        if progress is not None:
            progress(done, len(games))

    start = time.perf_counter()
    runner = run_local if t.backend == "local" else run_ray
    results = runner(setup, games, t.jobs, on_done)
    elapsed = time.perf_counter() - start
    plies = sum(r.plies for r in results)
    forfeits = [{"game": r.index + 1, "error": r.error} for r in results if r.forfeit_seat is not None]
    summary: dict[str, Any] = {
        "bots": summarize(names, results),
        "games": len(results),
        "deals": len(results) // len(names),
        "game": t.game,
        "preset": t.preset,
        "options": dict(t.options),
        "players": players,
        "sides": sides,
        "seed": t.seed,
        "seconds_per_move": t.seconds,
        "backend": t.backend,
        "jobs": t.jobs,
        "elapsed_s": round(elapsed, 3),
        "moves": plies,
        "moves_per_s": round(plies / elapsed) if elapsed > 0 else None,
        "forfeits": forfeits,
    }
    if t.out is not None:
        summary["out"] = str(t.out)
    if writer is not None:
        writer.close(summary)
    return TournamentResult(results, summary)
