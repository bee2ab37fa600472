"""Simulated Spit and Speed: reflex bots playing in virtual time, and tournament games.

>>> from spite.sim import simulate
>>> res = simulate("speed", bots=("expert", "beginner"), seed=2)
>>> res.finished, res.rounds
(True, 1)
"""

from spite.sim.arena import SPIT_GAMES, check_spit_tournament, play_arena_game, run_spit_games
from spite.sim.core import MAX_MS, BotSpec, SimResult, Step, bot_rngs, simulate

__all__ = [
    "MAX_MS",
    "SPIT_GAMES",
    "BotSpec",
    "SimResult",
    "Step",
    "bot_rngs",
    "check_spit_tournament",
    "play_arena_game",
    "run_spit_games",
    "simulate",
]
