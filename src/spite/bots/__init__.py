"""Computer opponents: the :class:`Bot` interface, the registry of bots by name, the levels.

Each game family brings its bots in its own package and registers them here (:func:`register_bot`);
the registry finds them through the ``bots`` hook of each game's :mod:`spite.games` entry, imported on
the first :func:`make_bot`, so this package names no game.

>>> from spite.bots import make_bot
>>> make_bot("greedy").name
'greedy'
>>> make_bot("medium").name
'casual'
>>> make_bot("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
spite.errors.OptionsError: unknown bot 'chess' (one of random, uniform, greedy, ...)
>>> make_bot("greedy:2")
Traceback (most recent call last):
...
spite.errors.OptionsError: the greedy bot takes no settings, not ':2'
"""

from __future__ import annotations

from collections.abc import Callable

from spite.bots.base import Bot, Decision
from spite.errors import OptionsError
from spite.games import game_names, has_hook, load_hook

__all__ = ["BOTS", "LEVELS", "Bot", "Decision", "NeedsExtraError", "make_bot", "plain", "register_bot"]


class NeedsExtraError(OptionsError):
    """A bot that needs an optional extra which is not installed; the message says which one:
    ``install spite[rl] to play the policy bot``. (Every level, and every bot but ``policy``,
    plays with the core install alone.)

    >>> str(NeedsExtraError("rl", "play the policy bot"))
    'install spite[rl] to play the policy bot'
    """

    def __init__(self, extra: str, purpose: str) -> None:
        super().__init__(f"install spite[{extra}] to {purpose}")
        self.extra = extra
        self.purpose = purpose

    def __reduce__(self) -> tuple[type[NeedsExtraError], tuple[str, str]]:
        # a bot worker process sends it back to the server: rebuilt from the extra and the purpose
        return type(self), (self.extra, self.purpose)


def plain(name: str, make: Callable[[], Bot]) -> Callable[[str], Bot]:
    """The factory of a bot that takes no settings: ``name:ANYTHING`` is refused, not ignored."""

    def factory(arg: str) -> Bot:
        if arg:
            raise OptionsError(f"the {name} bot takes no settings, not ':{arg}'")
        return make()

    return factory


BOTS: dict[str, Callable[[str], Bot]] = {}
"""Bot factories by name; the text after ``:`` in a spec (``search:0.5``) is passed to the factory."""

LEVELS: dict[str, str] = {
    "easy": "greedy",
    "medium": "casual",
    "hard": "learned",
    "expert": "search:1.0,value=turn",
}
"""Difficulty levels and the bot spec each stands for: ``medium`` and ``hard`` each beat the level
below in most games (the README's strength table); ``expert`` is ``hard`` with the rest of each turn
sampled where a card is still to turn up (``value=turn``). Against ``heuristic-v1`` ``hard`` won 77.7 %
of 1,000 games and ``expert`` 81.3 % of 1,000 (on ``skip-bo`` 82.0 % and 83.2 % of 400; on ``match``
74.7 % of 1,000 and 80.5 % of 400); on the same deals ``expert`` scored 2.2 ± 2.0 points more than
``hard`` (docs/bots.md, "Levels")."""


def register_bot(name: str, factory: Callable[[str], Bot]) -> None:
    """Make ``name`` (or ``name:ARG``) available to :func:`make_bot`."""
    BOTS[name] = factory


def make_bot(spec: str) -> Bot:
    """A bot from a spec: a name (``heuristic``), a name with an argument (``search:0.5``), a level
    (``easy`` … ``expert``) or an external program (``cmd:python mybot.py``)."""
    spec = LEVELS.get(spec, spec)
    name, _, arg = spec.partition(":")
    _load_builtin()
    factory = BOTS.get(name)
    if factory is None:
        known = ", ".join([*BOTS, *LEVELS])
        raise OptionsError(f"unknown bot {spec!r} (one of {known}, or cmd:PROGRAM)")
    return factory(arg)


_LOADED: list[str] = []
"""The games whose ``bots`` hook has been imported (a tournament makes two bots a game, and importing,
even of a module already loaded, costs more than the bot)."""


def _load_builtin() -> None:
    """Import each game's bots (its ``bots`` hook in :mod:`spite.games`: the import registers them). Each
    needs the core install only: ``policy``, which needs numpy, is imported by its factory."""
    if len(_LOADED) == len(game_names()):
        return
    for game in game_names():
        if game not in _LOADED:
            if has_hook(game, "bots"):
                load_hook(game, "bots")
            _LOADED.append(game)
