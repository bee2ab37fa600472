"""The computer levels rated on the people's scale (``spite rate-levels``; docs/ratings.md): the
arena's part, neighbouring levels of a game playing each other on duplicate deals (every deal in every
seat rotation: :func:`spite.arena.run_tournament`). The fit is :mod:`spite.rating.fit`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spite.errors import OptionsError
from spite.rating.fit import LevelRun

__all__ = ["measure_levels"]


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
