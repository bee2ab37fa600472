"""When a table acts by itself (:class:`TableClocks`, a part of
:class:`~spite.server.table.core.TableCore`): its timers are deadlines kept in its state, not tasks,
so none can be left unarmed and the tests can run them with a fake clock.

* the turn clock: a person seat with something to do is taken over by a bot when its time is up (a
  turn game: ``turn_seconds`` from the start of its turn; real time: ``idle_seconds`` from its last
  move while it holds a move it could make), warned ``turn_warning`` seconds before;
* the grace time of a person who left, and the desertion of a table no person is at;
* an open table nobody filled; a match's pause between games; the bots' turn to think; the end of a
  real-time game's start countdown, and its own timers and bots (its play's ``wake``/``due``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from functools import partial
from typing import TYPE_CHECKING, Any

from spite.server.config import ServerConfig
from spite.server.table.effects import Close, Effect, Gone, Row, Stored, UpdateTable
from spite.server.table.seats import Seat
from spite.server.table.view import TableView

__all__ = ["TableClocks"]

log = logging.getLogger("spite.server.table")

Step = Generator[Effect, Any, Any]


class TableClocks(TableView):
    """The table's timers (the state and the moves are :class:`~spite.server.table.core.TableCore`'s)."""

    config: ServerConfig
    now: float
    created_at: float
    clock_since: dict[int, float]
    warned: dict[int, float]
    deserted_since: float | None
    next_at: float | None
    thinking: tuple[int, int] | None
    bot_at: float
    hold_until: float
    quiet: bool
    quiet_until: float | None
    retired: bool
    greeted: set[int]
    ready: set[int]
    go: float
    shown_at_go: bool

    if TYPE_CHECKING:  # what the core does when a timer fires
        def _apply(self, seat: int | None, move: str | None, *, conn: int | None = None, msg_id: str | None = None,
                   by_bot: bool = False) -> Generator[Effect, Any, str]: ...
        def _take_over(self, seat: Seat, kind: str, text: str, seconds: float | None, key: str | None,
                       params: dict[str, str | int]) -> Step: ...
        def _next_game(self) -> Step: ...
        def _think(self, seat: int) -> Step: ...
        def _deal_if_ready(self) -> Step: ...
        def _changed(self, mover: int | None) -> None: ...
        def live(self, now: float) -> bool: ...
        def _commit(self, rows: tuple[Row, ...]) -> Generator[Effect, Any, Stored]: ...
        def _left_rated(self, seats: list[Seat], why: str) -> Step: ...
        def _every_side_moved(self) -> bool: ...

    rated: bool

    def _clock_limit(self) -> float:
        return self.config.idle_seconds if self.state.game.realtime else self.config.turn_seconds

    def _refresh_clocks(self, mover: int | None = None) -> None:
        """Which person seats have something to do, and since when. A turn game's clock runs from the
        moment the seat's turn began; a real-time game's from the seat's last move, while it holds a
        move it could make."""
        realtime = self.state.game.realtime
        live = (self.status == "playing" and self.is_dealt and not self.state.is_over and not self.between
                and self.live(self.now))
        acting = set(self.state.to_act()) if live else set()
        for seat in self.seats:
            n = seat.seat
            busy = n in acting and seat.is_person and (not realtime or bool(self.state.legal_moves(n)))
            if not busy:
                self.clock_since.pop(n, None)
                self.warned.pop(n, None)
            elif n not in self.clock_since or (realtime and n == mover):
                self.clock_since[n] = self.now

    def _clock_deadlines(self) -> list[tuple[float, float, Seat]]:
        """(warn at, take over at, seat) for every person seat whose clock runs."""
        limit = self._clock_limit()
        if limit <= 0:
            return []
        warning = min(max(0.0, self.config.turn_warning), limit)
        return [(since + limit - warning, since + limit, self.seats[n]) for n, since in self.clock_since.items()]

    # ================================================================== what falls due
    def _timers(self) -> list[tuple[float, Callable[[], Step]]]:
        """Every pending timer: when, and what then."""
        out: list[tuple[float, Callable[[], Step]]] = []
        config = self.config
        if self.status == "open":
            out.append((self.created_at + config.open_table_ttl, self._unfilled))
            return out
        if self.status != "playing":
            return out
        people = [s for s in self.seats if s.kind == "person"]
        for seat in people:
            if seat.away_since is not None:
                out.append((seat.away_since + config.grace_seconds, partial(self._grace_over, seat)))
        if people and self.deserted_since is not None and config.abandon_seconds > 0:
            out.append((self.deserted_since + config.abandon_seconds, self._deserted))
        if not self.is_dealt:
            if not self.state.is_over and all(s.controller == "bot" or s.seat in self.greeted for s in self.seats):
                out.append((self.now, self._deal_if_ready))  # everyone is here: the deal's commit failed
            return out
        if self.between:
            if self.next_at is not None:  # at once when every seat a person plays is ready (a bot always is)
                persons = [s for s in self.seats if s.is_person]
                ready = bool(persons) and all(s.seat in self.ready for s in persons)
                out.append((self.now if ready else self.next_at, self._next_game))
            return out
        if self.state.is_over:
            return out
        if not self.shown_at_go:
            out.append((self.go, self._at_go))
        wake = self.play.wake()
        if wake is not None:
            out.append((wake, self._play_due))
        for warn_at, over_at, seat in self._clock_deadlines():
            if self.warned.get(seat.seat) != over_at:
                out.append((warn_at, partial(self._warn, seat, over_at)))
            out.append((over_at, partial(self._clock_out, seat)))
        if self.thinking is None and self.live(self.now):
            for n in self.state.to_act():
                if self.seats[n].controller == "bot" and self.play.thinking_bots:
                    out.append((self.bot_at, partial(self._think, n)))
                    break
        return out

    def _due(self) -> Step:
        """Whatever fell due by now, the earliest first (each may change what else is due).

        When nothing is due, the earliest timer is kept (:attr:`quiet_until`) until the next input
        changes the table: the next step's first look and :meth:`deadline` then need not list every
        timer again (three times a move otherwise)."""
        if self.quiet and (self.quiet_until is None or self.now < self.quiet_until):
            return
        for _ in range(10_000):
            if self.now < self.hold_until:
                self.quiet = False
                return
            timers = self._timers()
            due = [(at, run) for at, run in timers if at <= self.now]
            if not due or self.retired:
                self.quiet = not due
                self.quiet_until = min((at for at, _ in timers), default=None)
                return
            self.quiet = False
            _, run = min(due, key=lambda item: item[0])
            yield from run()
        log.error("table %s: timers kept falling due; left for the next tick", self.id)

    def _at_go(self) -> Step:
        """A real-time game's countdown is over: everyone gets the position at the same moment (the
        center cards turned up, the legal moves)."""
        self.shown_at_go = True
        yield from self._broadcast_state(None)
        self._changed(None)

    def _play_due(self) -> Step:
        for action in self.play.due(self.now):
            if self.status != "playing" or self.state.is_over:
                return
            if action[0] == "advance":
                yield from self._apply(None, None)
            else:
                _, seat, move = action
                if self.seats[seat].controller == "bot":
                    yield from self._apply(seat, move, by_bot=True)
        self.play.changed()

    def _rated_end(self) -> str | None:
        """At a rated table, what a person's running out of time does now: ``aborts`` the game (some side
        has not moved yet) or ``loses`` it; ``None``: a casual table (a bot takes the seat)."""
        if not self.rated:
            return None
        return "loses" if self._every_side_moved() else "aborts"

    def _warn(self, seat: Seat, over_at: float) -> Step:
        self.warned[seat.seat] = over_at
        left = round(max(0.0, over_at - self.now), 1)
        end = self._rated_end()
        then = {None: "then a bot plays it", "loses": f"then {seat.player} loses the game",
                "aborts": "then the game is aborted"}[end]
        yield from self._tell("turn-clock", seat.seat, f"{seat.player}: {left:g} s left to move at seat {seat.seat}, "
                              f"{then}", seconds=left, key=f"event.turn-clock.{end}" if end else None,
                              name=seat.player or "", seat=seat.seat, s=f"{left:g}")

    def _clock_out(self, seat: Seat) -> Step:
        total = self._clock_limit()
        if self.rated:
            yield from self._left_rated([seat], "time")
            return
        yield from self._take_over(seat, "idle-takeover", f"{seat.player} did not move within {total:g} s: a "
                                   f"{self.config.replacement_level} bot plays seat {seat.seat} until "
                                   f"{seat.player} moves again", total, None,
                                   {"name": seat.player or "", "seat": seat.seat, "s": f"{total:g}"})

    def _grace_over(self, seat: Seat) -> Step:
        grace = self.config.grace_seconds
        others = [s for s in self.seats if s.kind == "person" and s is not seat]
        if not self.rated and (not others or (not self.spectators and not any(s.is_person or s.conns for s in others))):
            # a quick-play table (one person seat), or everyone left and nobody watches: nobody is left
            # to play for, and computers do not play a table out for nobody; close it
            yield from self._abandon(f"{seat.player} did not come back within {grace:g} s: the table is closed",
                                     grace, "event.abandoned.gone", name=seat.player or "", s=f"{grace:g}")
            return
        if not seat.is_person:  # a bot plays it already (its person did not act in time)
            seat.away_since = None
            return
        if self.rated:
            yield from self._left_rated([seat], "left")
            return
        yield from self._take_over(seat, "takeover", f"{seat.player} did not come back within {grace:g} s: a "
                                   f"{self.config.replacement_level} bot plays seat {seat.seat}", None, None,
                                   {"name": seat.player or "", "seat": seat.seat, "s": f"{grace:g}"})
        if not seat.is_person:
            seat.away_since = None
            yield from self._deal_if_ready()

    def _deserted(self) -> Step:
        wait = self.config.abandon_seconds
        if self.rated:  # everyone left a rated game: they lose it (or it is aborted), as each grace time would say
            yield from self._left_rated([s for s in self.seats if s.kind == "person"], "left")
            return
        yield from self._abandon(f"no player was at the table for {wait:g} s: the table is closed", wait,
                                 "event.abandoned.deserted", s=f"{wait:g}")

    def _unfilled(self) -> Step:
        yield from self._abandon("nobody took the free seats in time; the table is closed", None, None)

    def _abandon(self, text: str, seconds: float | None, key: str | None, rows: tuple[Row, ...] = (),
                 **params: str | int) -> Step:
        """Close a table nobody plays at: stored as ``abandoned`` (no game record, no statistics; with
        ``rows`` in the same commit), everyone still watching told and let go."""
        result = yield from self._commit((UpdateTable({"status": "abandoned"}), *rows))
        if not result.ok:
            log.error("table %s: could not be stored as abandoned (%s); trying again", self.id, result.error)
            return
        self.status = "abandoned"
        self.clock_since.clear()
        log.info("table %s: abandoned (%s)", self.id, text)
        yield from self._tell("abandoned", None, text, seconds=seconds, key=key, **params)
        for conn in self.connections():
            yield Close(conn, 1000)
        yield Gone(text)

