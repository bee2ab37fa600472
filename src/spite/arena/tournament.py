"""A tournament from start to finish: check the entrants, schedule, play, sum up, write the files."""

from __future__ import annotations

import importlib.util
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spite.arena.backends import BACKENDS, run_local, run_ray
from spite.arena.output import GAMES_FILE, SETTINGS_FILE, GameWriter, load_games
from spite.arena.runner import GameResult, Lineup, Setup, check_bots, check_entrants
from spite.arena.schedule import GameSpec, bot_names, schedule
from spite.arena.stats import summarize
from spite.errors import OptionsError
from spite.games import DEFAULT_GAME

__all__ = ["Tournament", "TournamentResult", "check_bots", "run_tournament", "saved_settings"]


@dataclass
class Tournament:
    """A tournament's settings (what ``spite tournament`` takes)."""

    bots: list[str]
    games: int = 100
    preset: str | None = None
    """A preset of ``game`` (``None``: the game's own default, e.g. ``classic``, ``spit``)."""
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    jobs: int = 1
    backend: str = "local"
    seconds: float | None = None
    """Budget per move, in seconds."""
    out: Path | None = None
    game: str = DEFAULT_GAME
    """A registered game (:func:`spite.games.game_names`); Spit and Speed are played in virtual time."""
    resume: bool = False
    """Go on with the tournament kept in ``out`` (same settings; ``games`` may be more): play only the
    games it does not hold yet."""

    def __post_init__(self) -> None:
        if self.preset is None:
            from spite.games import get_game

            self.preset = get_game(self.game).default_preset

    def settings(self) -> dict[str, Any]:
        """What fixes the games (kept in ``out/tournament.json``; ``--resume`` must match it)."""
        settings: dict[str, Any] = json.loads(json.dumps({  # as it reads back from the file
            "game": self.game, "bots": list(self.bots), "preset": self.preset, "options": dict(self.options),
            "seed": self.seed, "seconds": self.seconds}))
        return settings

    def _check_out(self) -> None:
        out = self.out
        if out is None:
            if self.resume:
                raise OptionsError("--resume needs --out: the folder of the tournament to go on with")
            return
        if out.exists() and not out.is_dir():
            raise OptionsError(f"--out {out} is a file, not a folder")
        saved = saved_settings(out)
        if saved is None:
            if (out / GAMES_FILE).exists():
                raise OptionsError(f"{out} holds games but no {SETTINGS_FILE}; choose another folder")
            return
        if not self.resume:
            raise OptionsError(f"{out} already holds a tournament; add --resume to go on with it, "
                               f"or choose another folder")
        mine = self.settings()
        for key, value in saved.items():
            if mine.get(key) != value:
                raise OptionsError(f"{out} holds another tournament: its {key} is {json.dumps(value)}, "
                                   f"not {json.dumps(mine.get(key))}")

    def check(self) -> tuple[Setup, list[GameSpec]]:
        """Check every setting (one clear :class:`OptionsError` if wrong) and make the schedule."""
        setup, games, _ = self._checked()
        return setup, games

    def _checked(self) -> tuple[Setup, list[GameSpec], Lineup]:
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
        assert self.preset is not None  # the game's default is filled in on construction
        setup = Setup(specs=tuple(self.bots), preset=self.preset, options=dict(self.options), seed=self.seed,
                      budget=self.seconds, records=self.out is not None, game=self.game)
        self._check_out()
        lineup = check_entrants(self.bots, self.game, self.preset, self.options)
        return setup, schedule(len(self.bots), players=lineup.players, games=self.games, seed=self.seed), lineup


@dataclass
class TournamentResult:
    """The games played (in schedule order) and the summary (the ``--json`` object)."""

    games: list[GameResult]
    summary: dict[str, Any]


def run_tournament(t: Tournament, progress: Callable[[int, int], None] | None = None) -> TournamentResult:
    """Play a tournament; ``progress(done, total)`` is called after each game."""
    setup, games, (players, sides) = t._checked()
    names = bot_names(t.bots)
    writer = None
    finished: list[GameResult] = []
    if t.out is not None:
        kept = _finished_games(t.out, games) if t.resume else []
        finished = [res for res, _ in kept]
        t.out.mkdir(parents=True, exist_ok=True)
        (t.out / SETTINGS_FILE).write_text(json.dumps(t.settings(), indent=1) + "\n", encoding="utf-8")
        writer = GameWriter(t.out, names, len(games), kept)
    played = {res.index for res in finished}
    todo = [g for g in games if g.index not in played]
    done = len(finished)
    if progress is not None and done:
        progress(done, len(games))

    def on_done(res: GameResult) -> None:
        nonlocal done
        done += 1
        if writer is not None:
            writer.add(res)
        if progress is not None:
            progress(done, len(games))

    start = time.perf_counter()
    runner = run_local if t.backend == "local" else run_ray
    new = runner(setup, todo, t.jobs, on_done) if todo else []
    elapsed = time.perf_counter() - start
    results = sorted(finished + new, key=lambda r: r.index)
    plies = sum(r.plies for r in results)
    new_plies = sum(r.plies for r in new)
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
        # with --resume, elapsed_s is the time of the games played now (games - resumed_games):
        # their moves go with it
        "new_moves": new_plies,
        "moves_per_s": round(new_plies / elapsed) if elapsed > 0 and new else None,
        "resumed_games": len(finished),
        "forfeits": forfeits,
    }
    if t.out is not None:
        summary["out"] = str(t.out)
    if writer is not None:
        writer.close(summary)
    return TournamentResult(results, summary)


def saved_settings(out: Path) -> dict[str, Any] | None:
    """The settings of the tournament kept in ``out`` (``None`` if there is none)."""
    path = out / SETTINGS_FILE
    if not path.is_file():
        return None
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise OptionsError(f"{path} is damaged; cannot go on with this tournament") from None
    if not isinstance(saved, dict):
        raise OptionsError(f"{path} is damaged; cannot go on with this tournament")
    return saved


def _finished_games(out: Path, games: Sequence[GameSpec]) -> list[tuple[GameResult, str]]:
    """The games of this schedule already played in ``out`` (games past ``--games`` stay in the file
    but are left out); each must be the very game the schedule says."""
    kept = []
    seen: set[int] = set()
    for res, record in load_games(out):
        if res.index >= len(games) or res.index in seen:
            continue
        seen.add(res.index)
        spec = games[res.index]
        if (res.deal, res.rotation, res.seed, tuple(res.seats)) != (spec.deal, spec.rotation, spec.seed, spec.seats):
            raise OptionsError(f"game {res.index + 1} in {out / GAMES_FILE} is not the one this tournament "
                               f"schedules; cannot go on with it")
        kept.append((res, record))
    return kept
