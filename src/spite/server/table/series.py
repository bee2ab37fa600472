"""Games in a row at one table (:class:`TableSeries`, a part the table's core holds): the table's
score over its games, the answers to the rematch question, and the pause between two games of a
match (who is ready, when the next game begins without waiting for everyone).

It keeps what the table's row keeps (the ``series`` column) and does nothing by itself: the core
begins the next game (:meth:`spite.server.table.core.TableCore.begin_game`, the one way a game
begins) when a match's seats are ready or every person said yes to a rematch.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from spite.server.protocol import RematchInfo, SeriesInfo
from spite.server.table.seats import Seat

__all__ = ["TableSeries"]


class TableSeries:
    """The games of a table of ``seats`` seats so far, from its stored ``series`` column (``None``: a
    new table); a ``finished`` table's stored rematch answers count."""

    def __init__(self, seats: int, stored: dict[str, Any] | None, finished: bool) -> None:
        stored = stored or {}
        answers = stored.get("rematch") if finished else None
        self.score: dict[str, Any] = {k: v for k, v in stored.items() if k != "rematch"} or \
            {"games": 0, "wins": [0] * seats, "gameIds": []}
        """Games finished (a match counts once), each seat's wins and the games' ids: the ``series`` column."""
        self.rematch_yes: set[int] = set((answers or {}).get("yes", []))
        """After the table's last game: the person seats that want another one (kept with the table)."""
        self.rematch_no: set[int] = set((answers or {}).get("no", []))
        self.between = False
        """A game is over and a match's next one follows."""
        self.ready: set[int] = set()
        """Between two games of a match: the seats that sent ``next``."""
        self.next_at: float | None = None
        """Between two games of a match: when the next one begins without waiting for everyone."""

    def info(self) -> SeriesInfo | None:
        """The series score (``None`` before the first game has ended)."""
        if not self.score["games"]:
            return None
        return SeriesInfo(games=self.score["games"], wins=list(self.score["wins"]),
                          gameIds=list(self.score.get("gameIds", [])))

    def rematch_info(self, seats: Sequence[Seat], finished: bool) -> RematchInfo | None:
        """Who wants another game (``None`` unless the table is ``finished`` and has a person seat). A bot
        seat says yes at once; a person's seat a bot took over waits for its person to come back and
        answer (no new game starts in an absent person's name)."""
        if not finished or not any(s.kind == "person" for s in seats):
            return None
        ready = [s.seat for s in seats if s.kind == "bot" or s.seat in self.rematch_yes]
        waiting = [s.seat for s in seats if s.seat not in ready and s.seat not in self.rematch_no]
        return RematchInfo(ready=ready, waiting=waiting, declined=sorted(self.rematch_no))

    def counted(self, players: Sequence[dict[str, Any]]) -> dict[str, Any]:
        """The score with the table's game just over counted (``players``: each seat's row, who won);
        stored with the game, kept by :meth:`ended`."""
        old = self.score
        wins = [w + int(p["won"]) for w, p in zip(old["wins"], players, strict=True)]
        return {"games": old["games"] + 1, "wins": wins, "gameIds": list(old.get("gameIds", []))}

    def answered(self, yes: set[int], no: set[int]) -> dict[str, Any]:
        """The ``series`` column with these rematch answers (a reload, a restart or another device sees them)."""
        return {**self.score, "rematch": {"yes": sorted(yes), "no": sorted(no)}}

    def ended(self, score: dict[str, Any] | None, game_id: int | None) -> None:
        """The table's last game is stored (``score``: :meth:`counted`, completed with its id)."""
        if score is not None:
            self.score = {**score, "gameIds": [*score["gameIds"], *([game_id] if game_id is not None else [])]}
        self.rematch_yes, self.rematch_no = set(), set()

    def pause(self, until: float) -> None:
        """A match's game is over: the next one begins at ``until``, or once every seat is ready."""
        self.between = True
        self.ready = set()
        self.next_at = until

    def all_ready(self, seats: Sequence[Seat]) -> bool:
        """Every seat a person plays sent ``next`` (a bot always is ready; no person: nobody to wait for)."""
        persons = [s for s in seats if s.is_person]
        return bool(persons) and all(s.seat in self.ready for s in persons)

    def begun(self) -> None:
        """A game begins: no pause, no question open."""
        self.between, self.ready, self.next_at = False, set(), None
        self.rematch_yes, self.rematch_no = set(), set()
