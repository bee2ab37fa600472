"""How a game of the Spite and Malice family ended (records.md §4): below the state and its views,
which both name it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Result"]


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended (records.md §4)."""

    winner: int | None
    reason: str
    points: int | None = None
    team: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The result as records.md §4 writes it."""
        out: dict[str, Any] = {"winner": self.winner, "reason": self.reason}
        if self.team is not None:
            out["team"] = self.team
        if self.points is not None:
            out["points"] = self.points
        return out
