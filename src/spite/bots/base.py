"""The bot interface: a seat's view in, a move out.

A bot never sees a game's whole state: the arena, the server and the hint command hand it its
seat's view (what its seat may know; each family's bots take their own family's view), a seeded
random source, and an optional time budget in seconds. It answers one move at a time; a turn is several calls (build
plays, then the discard). A bot may keep a plan between the calls of one turn, but must check that
the view it gets is the one it planned for.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, NamedTuple

from spite.errors import Phrase

__all__ = ["Bot", "Decision"]


class Decision(NamedTuple):
    """A move and one line of why (for hints and logs). A named tuple: made once per move, it
    must cost next to nothing."""

    move: Any
    """The move, in the family's own move type."""
    why: str = ""
    why_phrases: tuple[Phrase, ...] = ()
    """The why as catalogue phrases (worded one after the other, joined by "; "), so that a hint
    can be shown in the player's language; empty when the bot gives none (``why`` is then shown)."""


class Bot(ABC):
    """Base of every bot of a turn game: one move at a time for the seat to move."""

    name: str = "bot"

    def start_game(self, opts: Any, seat: int) -> None:  # noqa: B027 - optional hook
        """Called once before a game (bots that keep state across turns reset it here)."""

    @abstractmethod
    def decide(self, view: Any, rng: random.Random, budget: float | None = None) -> Decision:
        """The move to play in ``view`` (``view.legal_moves`` is never empty when asked)."""

    def choose(self, view: Any, rng: random.Random, budget: float | None = None) -> Any:
        """Just the move of :meth:`decide`, without the why: what tournaments ask for.

        A bot whose why costs something to make (next to nothing else, like ``random``) overrides
        this with the same choice, so a tournament does not pay for reasons nobody reads.
        """
        return self.decide(view, rng, budget).move

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
