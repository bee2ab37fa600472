"""The computer levels on the people's scale (docs/ratings.md, "The computer levels on the same scale"):
the games between levels (and, if asked, people's rated games against them) fed, in a seeded order, to
the same openskill model that rates people (:func:`spite.rating.model`), and the figures kept in
``spite/rating/levels.json``. Openskill measures only differences, so the figures are anchored: the
game's default level (``medium``, ``club``) is set at a newcomer's ``mu`` (25): a newcomer is taken to
play like it until their games say otherwise.

The games come from above: the arena plays the levels against each other
(:func:`spite.arena.level_ratings.measure_levels`), the server reads people's rated games from its
database (:func:`spite.server.ratings.people_runs`); ``spite rate-levels`` puts them together.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spite.errors import OptionsError

__all__ = ["LevelRun", "fit_levels", "write_figures"]


@dataclass
class LevelRun:
    """The games between two levels of one game and preset."""

    game: str
    preset: str
    levels: tuple[str, ...]
    games: list[tuple[tuple[int, ...], dict[int, float]]]
    """Each game's seats (level numbers) and score per level number (1 won, 0.5 drew, 0 lost)."""


def fit_levels(runs: Sequence[LevelRun], anchor: str, seed: int = 0) -> dict[str, tuple[float, float, int]]:
    """``mu``, ``sigma`` and games of each level, from every run's games (one sequential pass of the
    Plackett-Luce model in a seeded order), shifted so that ``anchor`` has ``mu`` 25."""
    from spite.rating import model

    m = model()
    ratings: dict[str, Any] = {}
    counts: dict[str, int] = {}
    games = [(run.levels, seats, scores) for run in runs for seats, scores in run.games]
    random.Random(seed).shuffle(games)
    for levels, seats, scores in games:
        sides = sorted(set(seats))  # a level's seats are one side (partners: the two seats of a team)
        names = [levels[i] for i in sides]
        teams = [[ratings.get(n) or m.rating(name=n)] for n in names]
        ranks = [1.0 - scores.get(i, 0.0) for i in sides]
        for name, (after,) in zip(names, m.rate(teams, ranks=ranks), strict=True):
            ratings[name] = after
            counts[name] = counts.get(name, 0) + 1
    if anchor not in ratings:
        raise OptionsError(f"the anchor level {anchor} played no game")
    shift = 25.0 - float(ratings[anchor].mu)
    return {n: (round(float(r.mu) + shift, 3), round(float(r.sigma), 3), counts[n]) for n, r in ratings.items()}


def write_figures(path: Path, group: str, figures: dict[str, tuple[float, float, int]], note: str) -> None:
    """Put ``group``'s figures into ``spite/rating/levels.json`` (the other groups' stay)."""
    data = json.loads(path.read_text("utf-8")) if path.exists() else {"groups": {}}
    data.setdefault("groups", {})[group] = {level: [mu, sigma] for level, (mu, sigma, _n) in figures.items()}
    data.setdefault("made", {})[group] = note
    data.pop("note", None)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
