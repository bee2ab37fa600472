"""Spite and Malice's bots: the simple ones (``random``, ``uniform``, ``greedy``), the heuristics
(``heuristic``, ``casual``, ``heuristic-v1``), the learned value (``learned``, its shipped weights in
``learned_value*.json``), the determinized search (``search``), external programs (``cmd:``) and the
research layer's policy (``policy:WEIGHTS.npz``, :mod:`spite.malice.rl.policy`).

Importing this package registers every one with :func:`spite.bots.register_bot`; the registry imports
it through the ``bots`` hook of the game's :mod:`spite.games` entry, on the first
:func:`spite.bots.make_bot`.

>>> from spite.bots import make_bot
>>> make_bot("casual").name, make_bot("medium").name
('casual', 'casual')
"""

import importlib

from spite.bots import Bot, NeedsExtraError, plain, register_bot
from spite.malice.bots.simple import GreedyBot, RandomBot, UniformBot

__all__ = ["REGISTERED"]


def _policy(arg: str) -> Bot:
    """``policy:WEIGHTS.npz``: :class:`spite.malice.rl.policy.PolicyBot`, found on first use, since it needs
    numpy (the ``rl`` extra)."""
    try:
        policy = importlib.import_module("spite.malice.rl.policy")
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "numpy":
            raise
        raise NeedsExtraError("rl", "play the policy bot") from None
    bot: Bot = policy.PolicyBot.load(arg)
    return bot


register_bot("random", plain("random", RandomBot))
register_bot("uniform", plain("uniform", UniformBot))
register_bot("greedy", plain("greedy", GreedyBot))
register_bot("policy", _policy)
for _module in ("heuristic", "learned", "search", "external"):  # each registers its own bots on import
    importlib.import_module(f"spite.malice.bots.{_module}")

REGISTERED = ("random", "uniform", "greedy", "policy", "heuristic", "heuristic-v1", "casual", "learned", "search",
              "cmd")
"""The bots this package registers."""
