"""Spite and Malice's bots: the simple ones (``random``, ``uniform``, ``greedy``), the heuristics
(``heuristic``, ``casual``, ``heuristic-v1``), the learned value (``learned``, its shipped weights in
``learned_value*.json``), the determinized search (``search``) and external programs (``cmd:``).

Importing this package registers every one with :func:`spite.bots.register_bot`; the registry imports
it through the ``bots`` hook of the game's :mod:`spite.games` entry, on the first
:func:`spite.bots.make_bot`.

>>> from spite.bots import make_bot
>>> make_bot("casual").name, make_bot("medium").name
('casual', 'casual')
"""

from spite.bots import plain, register_bot
from spite.malice.bots import external, heuristic, learned, search
from spite.malice.bots.simple import GreedyBot, RandomBot, UniformBot

register_bot("random", plain("random", RandomBot))
register_bot("uniform", plain("uniform", UniformBot))
register_bot("greedy", plain("greedy", GreedyBot))

REGISTERED = ("random", "uniform", "greedy", "heuristic", "heuristic-v1", "casual", "learned", "search", "cmd")
"""The bots this package registers (the modules imported above register theirs on import)."""

__all__ = ["REGISTERED", "external", "heuristic", "learned", "search"]
