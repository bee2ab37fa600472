"""What a seat (or a spectator) of a Spit or Speed table may know.

A view is the only thing that leaves the engine towards a bot, a client or a spectator: it holds
the face-up cards (tableau tops, center tops, the own Speed hand), the counts of every pile, the
clock facts a player sees (when play resumes after a slowpoke wait, who called spit), and the
seat's legal moves. It never holds a face-down card or another player's Speed hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spite.cards import format_card, format_cards

__all__ = ["PileView", "SpeedPlayerView", "SpeedView", "SpitPlayerView", "SpitView"]


@dataclass(frozen=True, slots=True)
class PileView:
    """A pile as everyone sees it: its face-up top card (None when empty) and its size."""

    top: int | None
    cards: int

    def to_json(self) -> dict[str, Any]:
        """``{"top": "5H", "cards": 3}``."""
        return {"top": None if self.top is None else format_card(self.top), "cards": self.cards}


@dataclass(frozen=True, slots=True)
class SpitPlayerView:
    """One Spit player: five tableau slots, the spit pile's size, all cards held, the spit call."""

    tableau: tuple[PileView, ...]
    spit: int
    cards: int
    called_spit: bool
    rounds_won: int

    def to_json(self) -> dict[str, Any]:
        """The records.md §5 player object."""
        return {
            "tableau": [p.to_json() for p in self.tableau],
            "spit": self.spit,
            "cards": self.cards,
            "called_spit": self.called_spit,
        }

    @property
    def hand(self) -> None:
        """Spit has no hand: every own card that can be played lies on the tableau."""
        return None

    @property
    def flip_pile(self) -> int:
        """The cards of the pile the next flip comes from: the spit pile."""
        return self.spit


@dataclass(frozen=True, slots=True)
class SpeedPlayerView:
    """One Speed player: the hand (None unless the viewer may see it), pile sizes, the spit call."""

    hand: tuple[int, ...] | None
    hand_size: int
    draw: int
    side: int
    cards: int
    called_spit: bool

    def to_json(self) -> dict[str, Any]:
        """The records.md §5 Speed player object."""
        return {
            "hand": None if self.hand is None else format_cards(self.hand),
            "draw": self.draw,
            "cards": self.cards,
            "called_spit": self.called_spit,
        }

    @property
    def tableau(self) -> tuple[PileView, ...]:
        """Speed has no tableau: every own card that can be played is in the hand."""
        return ()

    @property
    def flip_pile(self) -> int:
        """The cards of the pile the next flip comes from: the side pile."""
        return self.side


@dataclass(frozen=True, slots=True)
class _TableView:
    seat: int | None
    """The viewer (None: a spectator, or the whole table for :meth:`full_view`)."""
    t: int
    """The engine's clock (ms since the game began) when the view was taken."""
    round: int
    phase: str
    """``"play"``, ``"slap"`` (a round is won, the winner must slap) or ``"over"``."""
    stuck: bool
    play_from: int
    """No card may go to a center pile before this time (the slowpoke wait; 0 when none)."""
    round_winner: int | None
    result: dict[str, Any] | None
    centers: tuple[PileView, ...]
    legal: tuple[str, ...]
    """The viewer's legal moves, canonical (empty for a spectator)."""

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.phase == "over"

    def _head_json(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "stuck": self.stuck,
            "finished": self.finished,
            "result": None if self.result is None else dict(self.result),
            "centers": [c.to_json() for c in self.centers],
        }


@dataclass(frozen=True, slots=True)
class SpitView(_TableView):
    """A Spit table as one seat sees it."""

    players: tuple[SpitPlayerView, ...]

    @property
    def game(self) -> str:
        """The game: ``"spit"``."""
        return "spit"

    @property
    def rounds_won(self) -> tuple[int, ...]:
        """The rounds each seat has won so far."""
        return tuple(p.rounds_won for p in self.players)

    def to_json(self) -> dict[str, Any]:
        """Exactly the JSON of ``spite show --json`` (records.md §5)."""
        out = self._head_json()
        out["players"] = [p.to_json() for p in self.players]
        return out


@dataclass(frozen=True, slots=True)
class SpeedView(_TableView):
    """A Speed table as one seat sees it."""

    players: tuple[SpeedPlayerView, ...]

    @property
    def game(self) -> str:
        """The game: ``"speed"``."""
        return "speed"

    @property
    def rounds_won(self) -> None:
        """Speed is one round long: no rounds to count."""
        return None

    def to_json(self) -> dict[str, Any]:
        """Exactly the JSON of ``spite show --json`` for Speed (records.md §5)."""
        out = self._head_json()
        out["players"] = [p.to_json() for p in self.players]
        return out
