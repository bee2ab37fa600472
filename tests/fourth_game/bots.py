"""Pebbles' ``bots`` hook: importing it registers its bot with :func:`spite.bots.register_bot`, as a
family's bots module does (``pebbles-random``: a random legal card, from the seat's view alone)."""

from __future__ import annotations

import random
from typing import Any

from fourth_game.game import NAME
from spite.bots import plain, register_bot


class RandomPebbles:
    """Lays a random card of those it may (its seat's view and legal moves: nothing hidden)."""

    def choose(self, seen: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = seen["legal"]
        return rng.choice(legal)


register_bot(f"{NAME}-random", plain(f"{NAME}-random", RandomPebbles))  # type: ignore[arg-type]
REGISTERED = True
