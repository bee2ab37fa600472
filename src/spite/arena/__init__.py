"""Tournaments between bots: scheduling with seat rotation and duplicate deals, playing (here, in a
process pool, or on Ray), statistics (Wilson intervals, Elo) and the files they leave. It plays any registered game
through its ``arena_check`` and ``arena_play`` hooks (:mod:`spite.games`).

>>> from spite.arena import Tournament, run_tournament
>>> t = run_tournament(Tournament(["random", "greedy"], games=4, preset="short", seed=1))
>>> t.summary["games"], sorted(t.summary["bots"]), t.summary["bots"]["greedy"]["games"]
(4, ['greedy', 'random'], 4)
"""

from spite.arena.backends import BACKENDS, run_local, run_ray
from spite.arena.runner import GameResult, Setup, run_games
from spite.arena.schedule import GameSpec, bot_names, check_lineup, deal_seed, schedule
from spite.arena.stats import elo_ratings, pairwise, summarize, wilson
from spite.arena.tournament import Tournament, TournamentResult, run_tournament

__all__ = [
    "BACKENDS",
    "GameResult",
    "GameSpec",
    "Setup",
    "Tournament",
    "TournamentResult",
    "bot_names",
    "check_lineup",
    "deal_seed",
    "elo_ratings",
    "pairwise",
    "run_games",
    "run_local",
    "run_ray",
    "run_tournament",
    "schedule",
    "summarize",
    "wilson",
]
