"""A table's clocks (:class:`TableClock`, a part the table's core holds): the game clock of a
real-time game and the turn clocks of the person seats. Both are times kept in the state and looked
at when time passes, never tasks: nothing can be left unarmed, and the tests run them with a fake
clock. The clock reads no clock itself and knows no seat but by number: the core tells it the time,
who has something to do, and who moved.

* The game clock (a real-time game): ms since the game began. A new game begins with a countdown
  (``ServerConfig.start_countdown``) during which it stands at 0; a restored game goes on at its last
  stored time (the downtime does not count). A turn game has none: its clock stands at the game's own.
* The turn clock: a person seat with something to do is taken over by a bot (at a rated table: loses
  or aborts) when its time is up. A turn game's runs from the start of the seat's turn (its own moves
  in the turn do not wind it back, an undo neither); a real-time game's from the seat's last move,
  while it holds a move it could make. Everyone is warned ``turn_warning`` seconds before.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["TableClock"]


class TableClock:
    """The clocks of one table (see the module's text). ``now`` is the core's time when it is made."""

    def __init__(self, now: float) -> None:
        self.t0: float | None = None
        """A real-time game: the core's time at game clock 0 (``None``: a turn game, or not begun)."""
        self.go = now
        """A real-time game: when play may begin (the end of its start countdown)."""
        self.shown_at_go = True
        """The countdown's end was shown to everyone (the state that turns the center cards up)."""
        self.since: dict[int, float] = {}
        """Person seats with something to do, and since when their turn clock runs."""
        self.warned: dict[int, float] = {}
        """Seat → the deadline its warning was told for."""

    # ------------------------------------------------------------------ the game clock
    def start(self, now: float, game_ms: int, countdown: float) -> None:
        """A real-time game begins at ``now``, its clock at ``game_ms`` (a restored game's last stored
        time), after ``countdown`` seconds (0: at once)."""
        self.go = now + countdown
        self.t0 = self.go - game_ms / 1000
        self.shown_at_go = not countdown

    def game_ms(self, now: float, floor: int) -> int:
        """The game clock (ms) at the core's time ``now``; never before ``floor`` (the game's own time:
        a turn game's clock stands there)."""
        if self.t0 is None:
            return floor
        # rounded, not cut: the clock at the core's time of a game time (core_time) is that game time again
        return max(floor, round((now - self.t0) * 1000))

    def core_time(self, ms: int, now: float) -> float:
        """The core's time at game time ``ms`` (a turn game: ``ms`` after ``now``)."""
        return (self.t0 if self.t0 is not None else now) + ms / 1000

    def live(self, now: float) -> bool:
        """Whether play may begin (a real-time game's countdown is over)."""
        return now >= self.go

    # ------------------------------------------------------------------ the turn clocks
    def refresh(self, busy: Iterable[int], now: float, rewound: int | None) -> None:
        """``busy``: the person seats with something to do now. A seat's clock starts when it becomes
        busy and runs on while it stays so; ``rewound`` (a real-time game's mover) starts afresh."""
        busy = set(busy)
        for seat in [s for s in self.since if s not in busy]:
            del self.since[seat]
            self.warned.pop(seat, None)
        for seat in busy:
            if seat not in self.since or seat == rewound:
                self.since[seat] = now

    def deadlines(self, limit: float, warning: float) -> list[tuple[float, float, int]]:
        """(warn at, time up at, seat) for every seat whose clock runs (none when ``limit`` is 0)."""
        if limit <= 0:
            return []
        warning = min(max(0.0, warning), limit)
        return [(since + limit - warning, since + limit, seat) for seat, since in self.since.items()]

    def stop(self) -> None:
        """No seat's clock runs any more (the game ended)."""
        self.since.clear()
        self.warned.clear()
