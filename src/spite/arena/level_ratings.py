"""The computer levels rated on the people's scale (``spite rate-levels``; docs/ratings.md).

Neighbouring levels of a game play each other on duplicate deals (every deal in every seat
rotation: :func:`spite.arena.run_tournament`), and every game is fed, in a seeded order, to the same
openskill model that rates people (:func:`spite.rating.model`). Openskill measures only
differences, so the figures are anchored: the game's default level (``medium``, ``club``) is set at
a newcomer's ``mu`` (25): a newcomer is taken to play like it until their games say otherwise. The
server seats a computer at a rated game with its level's figure, so that beating or losing to it
moves a person's rating as beating or losing to a person of that strength would.

People's rated games against the computer can join the fit (``spite rate-levels --people DB_URL``,
:func:`people_runs`): every rated game of the group in a server's database with a computer seat,
each person entering the same pass as a player of their own (by player id), so a level that people
beat more often than its figure says comes out weaker. Only groups whose every seat is a side of
its own (duels, parties) are read: a partnership of a person and a computer is not one player.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spite.errors import OptionsError

__all__ = ["LevelRun", "fit_levels", "measure_levels", "people_runs"]


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


def people_runs(url: str, game: str, group: str) -> list[LevelRun]:
    """The rated games of ``game`` in rules group ``group`` that people played against the computer, from
    the server database at ``url``: one run a game, its entrants the levels (``bot:LEVEL`` seats) and the
    people (their player ids), scored 1 for a win, 0 for a loss, a half each when nobody won."""
    import sqlalchemy as sa

    from spite.games import get_game
    from spite.rating import rating_group
    from spite.server import db

    g, gp, h = db.games, db.game_players, db.rating_history
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table(h.name):
                raise OptionsError(f"{url} holds no rated games (is it a spite server's database?)")
            rated = sa.select(h.c.game_id).where(h.c.group == group, h.c.game_id.is_not(None)).distinct()
            rows = conn.execute(sa.select(g.c.id, g.c.preset, gp.c.seat, gp.c.player, gp.c.player_id, gp.c.is_bot,
                                          gp.c.won).join(gp, gp.c.game_id == g.c.id)
                                .where(g.c.game == game, g.c.id.in_(rated)).order_by(g.c.id, gp.c.seat)).all()
    except sa.exc.SQLAlchemyError as exc:
        raise OptionsError(f"cannot read the server database {url}: {exc.__class__.__name__}") from None
    finally:
        engine.dispose()
    by_game: dict[int, list[Any]] = {}
    for row in rows:
        by_game.setdefault(row.id, []).append(row)
    runs = []
    for seats in by_game.values():
        preset = seats[0].preset
        sides = rating_group(game, preset, {}, get_game(game).seats(preset, {})).sides
        if any(len(side) > 1 for side in sides) or not any(s.is_bot for s in seats):
            continue
        if not all(s.is_bot or s.player_id for s in seats):
            continue
        names = tuple(str(s.player).removeprefix("bot:") if s.is_bot else str(s.player_id) for s in seats)
        won = [bool(s.won) for s in seats]
        scores = {i: (1.0 if won[i] else 0.0) if any(won) else 0.5 for i in range(len(seats))}
        runs.append(LevelRun(game, preset, names, [(tuple(range(len(seats))), scores)]))
    return runs


def measure_levels(game: str, preset: str, levels: Sequence[str], games: int, seed: int, jobs: int = 1,
                   progress: Callable[[str], None] | None = None) -> list[LevelRun]:
    """Each run of neighbouring ``levels`` (as many as share the game's seats evenly) plays ``games``
    games (whole duplicate deals) of ``game`` and ``preset``."""
    from spite.arena import Tournament, run_tournament
    from spite.games import get_game

    players = get_game(game).seats(preset, {})
    # as few levels a game as share its seats evenly: two for duels and partners, three for a party of 3
    size = min(k for k in range(2, players + 1) if players % k == 0)
    if len(levels) < size:
        raise OptionsError(f"give at least {size} levels")
    runs = []
    for i in range(len(levels) - size + 1):
        lineup = tuple(levels[i:i + size])
        if progress is not None:
            progress(f"{game} {preset}: {' against '.join(lineup)}")
        t = Tournament(bots=list(lineup), games=games, preset=preset, game=game, seed=seed + i, jobs=jobs)
        result = run_tournament(t)
        runs.append(LevelRun(game, preset, lineup,
                             [(r.seats, dict(r.scores)) for r in result.games if r.forfeit_seat is None]))
    return runs


def write_figures(path: Path, group: str, figures: dict[str, tuple[float, float, int]], note: str) -> None:
    """Put ``group``'s figures into ``spite/rating/levels.json`` (the other groups' stay)."""
    data = json.loads(path.read_text("utf-8")) if path.exists() else {"groups": {}}
    data.setdefault("groups", {})[group] = {level: [mu, sigma] for level, (mu, sigma, _n) in figures.items()}
    data.setdefault("made", {})[group] = note
    data.pop("note", None)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
