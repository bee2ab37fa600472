"""The table's lifecycle, one state machine: whatever a table does, from its first seat to its
last rematch, happens in :meth:`TableCore.step`.

Inputs go in (:mod:`spite.server.table.effects`: a connection's hello, request or leaving, a bot's
answer, a person taking a seat, time passing) with the time they happen at; effects come out (send,
close, store, think). The core does no I/O and reads no clock: the asyncio host
(:mod:`spite.server.host`) runs the effects and feeds the inputs, one at a time per table, and the
tests run it in memory with a fake clock (tests/server/test_table_core.py). A step is a generator:
when it yields :class:`~spite.server.table.effects.Store` it waits for the answer
(:class:`~spite.server.table.effects.Stored`) before it goes on, so nothing is acknowledged or shown
before it is stored, and nothing else happens at the table meanwhile. What a table shows is made in
:mod:`.view`, what it does by itself when time passes in :mod:`.clock`, and how one game follows
another (a match's next game, a rematch) in :mod:`.series`: parts of this one class, each in a
module of its own.

What the core keeps, and the rules it keeps (docs/protocol.md):

* **Seats and connections.** A seat's token opens it (``hello``); the first hello of every person
  seat makes the deal (the fair deal's nonces are in: :mod:`spite.server.table.fair`); a seat's
  person who leaves has ``grace_seconds`` to come back before a bot takes the seat (a table with one
  person seat is closed instead); a table no person is connected to for ``abandon_seconds`` is closed.
* **Clocks are deadlines, not tasks.** Every timer is a time kept in the state and looked at when
  time passes (:meth:`TableCore.deadline`): nothing can be left unarmed. A person seat with something
  to do is taken over by a bot when its clock runs out: in a turn game ``turn_seconds`` after its turn
  began (its moves in the turn do not wind it back, an undo neither); in a real-time game
  ``idle_seconds`` after its last move while it holds a playable card. Everyone is told
  ``turn_warning`` seconds before. The person takes the seat back by acting or coming back.
* **A move's path.** Checked, applied, stored, then acknowledged and shown to every connection,
  each its own view; a commit that fails puts the state back and tells the mover.
* **Games in a row.** A match's next game and a rematch begin in one place (:meth:`_begin_game`),
  dealt from the fair deal whose commitment went out when the game before ended.

The game itself is reached through :mod:`spite.games` and the table's
:class:`~spite.server.table.play.TablePlay`; the core never asks which game it is.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Callable, Generator, Mapping, Sequence
from typing import Any

from spite.errors import IllegalMoveError, Phrase
from spite.games import Event, GameState
from spite.rating import rating_group
from spite.server.config import ServerConfig
from spite.server.protocol import (
    HintRequest,
    LastMove,
    MoveMessage,
    NextGame,
    RematchRequest,
    SeatRating,
    Sync,
    UndoMessage,
    ack_text,
)
from spite.server.table.effects import (
    Close,
    ConnId,
    Counted,
    DeleteMoves,
    Effect,
    Finished,
    Hello,
    Hint,
    Input,
    InsertAbort,
    InsertGame,
    InsertMove,
    Join,
    Leave,
    Rename,
    Request,
    Retire,
    Row,
    Send,
    Shut,
    Store,
    Stored,
    Think,
    Thought,
    Tick,
    UpdateSeat,
    UpdateTable,
)
from spite.server.table.fair import FairDeal
from spite.server.table.play import Hints, Opening, ServerGame, TablePlay, Undo
from spite.server.table.seats import LobbyError, Seat, seat_for_token
from spite.server.table.series import TableSeries

__all__ = ["Step", "TableCore"]

log = logging.getLogger("spite.server.table")

Step = Generator[Effect, Any, Any]
"""A step of the core: yields effects; a :class:`Store` is answered with :class:`Stored`."""

_STORAGE_RETRY = 1.0
"""Seconds a bot waits before it tries again after the database refused its move."""


class TableCore(TableSeries):
    """One table's lifecycle (see the module's text). ``now`` is the core's clock in seconds (the
    host's monotonic clock; the tests' fake one); ``entropy`` gives the fair deals' secrets."""

    def __init__(self, *, table_id: str, game: str, server_game: ServerGame, opening: Opening, seats: list[Seat],
                 status: str, created_at: float, config: ServerConfig, now: float,
                 series: dict[str, Any] | None = None, game_id: int | None = None,
                 entropy: Callable[[int], bytes] = secrets.token_bytes, rated: bool = False) -> None:
        self.id = table_id
        self.game = game
        self.server_game = server_game
        self.config = config
        self.entropy = entropy
        self.title = server_game.title
        self.preset = opening.preset
        self.options = opening.options
        self.state: GameState = opening.state
        self.start: dict[str, Any] = dict(opening.start)
        """The row's ``start`` of the game in play (kept to store it again with the next game's fair deal)."""
        self.seats = seats
        self.status = status
        self.created_at = created_at
        """When the table was made, in the core's clock (for ``open_table_ttl``)."""
        self.version_base = opening.version_base
        self.version = opening.version
        self.rows = opening.rows
        """Move rows stored for the game in play."""
        self.entries = opening.entries
        """Record entries of the game in play stored so far."""
        self.game_id = game_id
        self.moves_played = 0
        self.rated = rated
        """The table was made rated: its games change its keyed players' ratings (docs/ratings.md)."""
        self.sides: tuple[tuple[int, ...], ...] = (
            rating_group(game, opening.preset, opening.options, len(seats)).sides if rated
            else tuple((s.seat,) for s in seats))
        """The table's sides (a rated table's rules group's: partners share one), each a tuple of seats."""
        self.moved: set[int] = set(range(len(seats))) if opening.rows else set()
        """Seats that made a move of the table's game themselves (a person's seat: its person, not a bot
        that took it over; a computer's seat: the computer). A rated game that ends before every side
        has moved is aborted, not lost (docs/ratings.md); a game restored with moves counts every seat."""
        self.taken: set[int] = set()
        """Person seats a bot took over at any point of the table's game (its statistics and ratings
        count it as taken over, even if its person came back)."""
        self.ended: dict[str, Any] | None = opening.start.get("forfeit")
        """A rated game lost by leaving: how it ended (``reason`` ``forfeit``, the seats that ``left``,
        the ``winners``); the game's state itself is not over."""
        self.fair = opening.fair
        """The fair deal of the game in play, or just over (docs/fairness.md)."""
        self.fair_next = opening.fair_next
        """After a game: the next game's fair deal (its commitment is out)."""
        answers = (series or {}).get("rematch") if status == "finished" else None
        self.series: dict[str, Any] = {k: v for k, v in (series or {}).items() if k != "rematch"} or \
            {"games": 0, "wins": [0] * len(seats), "gameIds": []}
        self.rematch_yes: set[int] = set((answers or {}).get("yes", []))
        """After the table's last game: the person seats that want another one (kept with the table)."""
        self.rematch_no: set[int] = set((answers or {}).get("no", []))
        self.ready: set[int] = set()
        """Between two games of a match: the seats that sent ``next``."""
        self.next_at: float | None = None
        """Between two games of a match: when the next one begins without waiting for everyone."""
        self.spectators: set[ConnId] = set()
        self.hello: dict[ConnId, int | None] = {}
        """Connections that said hello, and their seat (``None``: a spectator)."""
        self.greeted: set[int] = set()
        """Seats whose person said hello since this process holds the table (the deal waits for them)."""
        self.clock_since: dict[int, float] = {}
        """Person seats with something to do, and since when their clock runs."""
        self.warned: dict[int, float] = {}
        """Seat → the deadline its warning was told for."""
        self.thinking: tuple[int, int] | None = None
        """The seat and version a bot is thinking about (its answer comes as :class:`Thought`)."""
        self.bot_at = now
        """A bot may move from then on (``bot_delay`` after the last change, so people can follow)."""
        self.hold_until = now
        """After a refused commit: the timers wait until then."""
        self.fair_cache: tuple[Any, FairDeal, dict[str, Any]] | None = None
        """The ``fair`` field of the ``state`` messages as last made, and what it was made from."""
        self.quiet = False
        """The last look at the timers (since the last input) found none due: :attr:`quiet_until` holds."""
        self.quiet_until: float | None = None
        """Then: the earliest timer (``None``: none)."""
        self.deserted_since: float | None = None
        """Since when no person is connected to this playing table."""
        self.retired = False
        """Closed here: shut down or served by another worker; it does nothing more."""
        self.now = now
        self.t0: float | None = None
        """A real-time game: the core's time at game clock 0 (``None``: a turn game, or not begun)."""
        self.go = now
        """A real-time game: when play may begin (the end of its start countdown)."""
        self.shown_at_go = True
        """The countdown's end was shown to everyone (the state that turns the center cards up)."""
        self.told: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = []
        self.told_over = 0
        self.restored_log: list[dict[str, Any]] | None = opening.log
        """A restored game's steps, made by the replay that restored it (its play takes them)."""
        self.play: TablePlay = server_game.play(self, opening.extra)
        self.restored_log = None
        if self.fair is not None and self.fair_next is None and self.state.is_over and self._another_may_follow():
            # stored before the next game's fair deal was kept with the table: a new one, published now
            self.fair_next = self._draw(self.fair.game + 1, self.play.next_first() if self._between() else None)
        self.between = self._between()
        if self.status == "playing":
            self._enter_play(fresh=False)

    # ================================================================== the entry point
    def step(self, inp: Input, now: float) -> Step:
        """Handle ``inp`` at ``now`` (after whatever fell due before it); returns what the input asks
        for (:class:`Join`: the seat taken)."""
        if now > self.now:
            self.now = now
        if self.retired:
            return None
        yield from self._due()
        self.quiet = False  # the input may change any timer
        answer: Any = None
        if isinstance(inp, Hello):
            yield from self._hello(inp)
        elif isinstance(inp, Request):
            yield from self._request(inp.conn, inp.msg)
        elif isinstance(inp, Leave):
            yield from self._leave(inp.conn)
        elif isinstance(inp, Thought):
            yield from self._thought(inp)
        elif isinstance(inp, Join):
            answer = yield from self._join(inp)
        elif isinstance(inp, Retire):
            yield from self._retire(inp.code)
            return None
        elif isinstance(inp, Shut):
            if self.status in ("open", "playing"):
                yield from self._abandon("closed by the site's operator", None, "event.abandoned.closed")
        elif isinstance(inp, Rename):
            yield from self._rename(inp)
        elif not isinstance(inp, Tick):
            raise TypeError(f"not an input of a table: {inp!r}")
        yield from self._due()
        return answer

    def deadline(self) -> float | None:
        """When the table next has something to do by itself (``None``: only an input wakes it)."""
        if self.retired:
            return None
        # (the step just ended may have found nothing due and kept the earliest timer)
        earliest = self.quiet_until if self.quiet else min((at for at, _ in self._timers()), default=None)
        return max(earliest, self.hold_until) if earliest is not None else None

    # ================================================================== a real-time game's clock
    def _start_clock(self, fresh: bool) -> None:
        """A game begins now (``fresh``: dealt just now). A real-time game's clock is ms since it
        began: a new one begins with a countdown ("one, two, three, spit!") during which the clock
        stands at 0; a restored one goes on at its last stored time (the downtime does not count)."""
        if not self.state.game.realtime:
            return
        countdown = self.config.spit_countdown if fresh and self.state.now == 0 else 0.0
        self.go = self.now + countdown
        self.t0 = self.go - self.state.now / 1000
        self.shown_at_go = not countdown

    def game_ms(self, now: float) -> int:
        """The game clock (ms) at the core's time ``now`` (a turn game: 0)."""
        if self.t0 is None:
            return self.state.now
        # rounded, not cut: the clock at the core's time of a game time (core_time) is that game time again
        return max(self.state.now, round((now - self.t0) * 1000))

    def core_time(self, ms: int) -> float:
        """The core's time at game time ``ms``."""
        return (self.t0 if self.t0 is not None else self.now) + ms / 1000

    def live(self, now: float) -> bool:
        """Whether play may begin (a real-time game's countdown is over)."""
        return now >= self.go

    def _commit(self, rows: tuple[Row, ...]) -> Generator[Effect, Any, Stored]:
        """Store ``rows`` (the step waits for the answer). After a refused commit the table's timers
        wait :data:`_STORAGE_RETRY` seconds: the database is in trouble, do not hammer it."""
        result: Stored = yield Store(rows)
        if not result.ok:
            self.hold_until = self.now + _STORAGE_RETRY
        return result

    # ================================================================== connections
    def _hello(self, inp: Hello) -> Step:
        conn = inp.conn
        if conn in self.hello:
            yield self._error(conn, "already-hello", "this connection has already said hello")
            return
        if inp.spectate:
            self.hello[conn] = None
            self.spectators.add(conn)
            yield from self._welcome(conn, None)  # a spectator's nonce does not count
            return
        seat = seat_for_token(self.seats, inp.token or "")
        if seat is None:
            log.info("table %s: a hello with a wrong token", self.id)
            yield self._error(conn, "wrong-token", "that token is no seat's at this table")
            yield Close(conn, 1008)
            return
        self.hello[conn] = seat.seat
        self._take_nonce(seat.seat, inp.nonce)
        self.greeted.add(seat.seat)
        yield from self._deal_if_ready()  # the last hello: dealt before its welcome (the others get a state)
        first = not seat.conns
        seat.conns.add(conn)
        seat.away_since = None
        self.deserted_since = None
        yield from self._welcome(conn, seat.seat)
        if seat.kind == "person" and seat.controller == "bot" and self.status in ("playing", "finished"):
            yield from self._take_back(seat)  # (at a finished table: to answer the rematch question)
        elif first and seat.is_person:
            yield from self._tell("connected", seat.seat, f"{seat.player} is at seat {seat.seat}",
                                  name=seat.player or "", seat=seat.seat)

    def _leave(self, conn: ConnId) -> Step:
        """A connection went away; a person seat left with none starts its grace time."""
        self.spectators.discard(conn)
        seat_no = self.hello.pop(conn, None)
        if seat_no is None:
            return
        seat = self.seats[seat_no]
        seat.conns.discard(conn)
        if seat.conns or seat.kind != "person" or self.status in ("finished", "abandoned"):
            return
        if self.status == "playing":
            seat.away_since = self.now
            if self._nobody_here():
                self.deserted_since = self.now
        if seat.is_person:
            grace = self.config.grace_seconds
            end = self._rated_end()
            then = {None: f"a bot takes over in {grace:g} s", "loses": f"they lose the game unless back in {grace:g} s",
                    "aborts": f"the game is aborted unless they are back in {grace:g} s"}[end]
            yield from self._tell("disconnected", seat.seat, f"{seat.player} dropped from seat {seat.seat}; {then}",
                                  key=f"event.disconnected.{end}" if end else None,
                                  name=seat.player or "", seat=seat.seat, s=f"{grace:g}")

    def _nobody_here(self) -> bool:
        return not any(s.kind == "person" and s.conns for s in self.seats)

    def _take_back(self, seat: Seat) -> Step:
        """A person seat's player is back (reconnected, or acted after a takeover): the bot leaves and
        the seat's clock starts afresh."""
        result = yield from self._commit((UpdateSeat(seat.seat, {"controller": "person", "level": None}),))
        if not result.ok:
            return
        seat.controller = "person"
        seat.level = None
        self.play.seat_changed()
        log.info("table %s: %s is back at seat %d; the bot leaves", self.id, seat.player, seat.seat)
        yield from self._tell("returned", seat.seat, f"{seat.player} is back at seat {seat.seat}; the bot leaves",
                              name=seat.player or "", seat=seat.seat)
        self._changed(None)

    def _back_by_acting(self, conn: ConnId, seat: Seat) -> Step:
        """A person whose seat a bot plays acts from one of the seat's connections (a move, ``next``, a
        rematch answer): the seat is theirs again, as it would be on coming back."""
        if seat.kind == "person" and seat.controller == "bot" and conn in seat.conns \
                and self.status in ("playing", "finished"):
            yield from self._take_back(seat)

    def _take_over(self, seat: Seat, kind: str, text: str, seconds: float | None, key: str | None,
                   params: dict[str, str | int]) -> Step:
        """A bot plays ``seat`` from now on (its person left or did not act in time)."""
        level = self.config.replacement_level
        result = yield from self._commit((UpdateSeat(seat.seat, {"controller": "bot", "level": level}),))
        if not result.ok:
            return
        seat.controller = "bot"
        seat.level = level
        self.taken.add(seat.seat)
        self.play.seat_changed()
        log.info("table %s: seat %d (%s): %s", self.id, seat.seat, seat.player, text)
        yield from self._tell(kind, seat.seat, text, seconds=seconds, key=key, level=level, **params)
        self._changed(None)

    # ================================================================== leaving a rated game
    def _left_rated(self, seats: Sequence[Seat], why: str) -> Step:
        """At a rated table no computer plays for a person (docs/ratings.md): when the grace time or the
        turn clock of ``seats`` runs out (``why``: ``left`` or ``time``), the game is aborted while some
        side has not yet moved (nobody's rating moves; the abort counts against them), and otherwise
        ends at once, lost by their side."""
        if self._every_side_moved():
            yield from self._forfeit(seats, why)
            return
        names = ", ".join(s.shown_name() for s in seats)
        rows = tuple(InsertAbort(s.player_id) for s in seats if s.player_id)
        log.info("table %s: rated game aborted (%s: %s)", self.id, names, why)
        yield from self._abandon(f"{names} left before every side had moved: the game is aborted, nobody's rating "
                                 "changes", None, "event.abandoned.aborted", rows=rows, name=names)

    def _forfeit(self, seats: Sequence[Seat], why: str) -> Step:
        """A rated game lost by leaving: it ends now for everyone, stored as it stands (its record
        unfinished, marked ``forfeit``) and rated in the same commit, the sides of ``seats`` last and
        every other side a winner. Between two games of a match the next one is dealt first and lost."""
        if self.between:
            yield from self._next_game()
            if self.between:  # it could not be stored: the timers try again
                return
        left = frozenset(s.seat for s in seats)
        lost = {self._side_of(seat) for seat in left}
        winning = [i for i in range(len(self.sides)) if i not in lost]
        winners = [seat for i in winning for seat in self.sides[i]]
        result: dict[str, Any] = {"winner": None, "reason": "forfeit", "left": sorted(left), "winners": winners,
                                  "why": why}
        if len(winners) == 1:
            result["winner"] = winners[0]
        elif len(winning) == 1:
            result["team"] = winning[0]
        state = self.state
        record = state.to_record().to_json()
        record["forfeit"] = {"left": sorted(left), "why": why}
        if self.fair is not None:
            record["fairness"] = self.fair.proof()
        players = self._players(left)
        rating = rating_group(self.game, self.preset, self.options, len(self.seats))
        rows: list[Row] = [InsertGame(self.game, self.preset, record, state.plies, state.turns, players, finish=True,
                                      rating=rating, result=result)]
        series = {"games": self.series["games"] + 1,
                  "wins": [w + int(p["won"]) for w, p in zip(self.series["wins"], players, strict=True)],
                  "gameIds": list(self.series.get("gameIds", []))}
        start = {**self.start, "forfeit": result}
        fair_next = None
        if self.fair is not None:  # a rematch's commitment, as after any game
            fair_next = self._draw(self.fair.game + 1, None)
            start["fairNext"] = fair_next.stored()
        rows.append(UpdateTable({"series": json.dumps(series), "start": json.dumps(start)}, game_id_in=("series",)))
        stored = yield from self._commit(tuple(rows))
        if not stored.ok:
            log.error("table %s: the game lost by leaving could not be stored (%s); trying again", self.id,
                      stored.error)
            return
        self.ended = result
        self.start = start
        self._ended(stored.game_id, True, series, fair_next, stored.ratings)
        self.clock_since.clear()
        names = ", ".join(s.shown_name() for s in seats)
        log.info("table %s: %s lost the rated game by leaving (%s); game %s", self.id, names, why, self.game_id)
        self._changed(None)
        yield from self._broadcast(self.game_over())
        yield Finished()

    def _rename(self, inp: Rename) -> Step:
        """The operator renamed a seat's person (already stored): everyone is told the new name."""
        seat = self.seats[inp.seat] if 0 <= inp.seat < len(self.seats) else None
        if seat is None or seat.player == inp.name:
            return
        seat.player = inp.name
        if inp.forget:
            seat.player_id = None
            seat.address = None
        yield from self._tell("renamed", seat.seat, f"seat {seat.seat + 1} is called {inp.name} now", name=inp.name)

    def _retire(self, code: int) -> Step:
        self.retired = True
        for conn in self.connections():
            yield Close(conn, code)

    # ================================================================== fair deals
    def _draw(self, game: int, first: int | None) -> FairDeal:
        seats = self.fair.seats if self.fair is not None else len(self.seats)
        return FairDeal.draw(self.id, game, seats, first, entropy=self.entropy)

    def _take_nonce(self, seat: int, nonce: str | None) -> None:
        """``seat`` sent ``nonce``: it counts for the game not dealt yet (the next one after a game)."""
        fair = self.fair_next if self.game_ended and self.fair_next is not None else self.fair
        if fair is not None:
            fair.take_nonce(seat, nonce)

    def _deal_if_ready(self) -> Step:
        """Deal the game from its secret and the seats' nonces once it has begun and every person seat
        said hello (or a bot took it over): stored, then everyone gets the position."""
        fair = self.fair
        if fair is None or fair.dealt or self.status != "playing" or self.state.is_over:
            return
        if any(s.controller != "bot" and s.seat not in self.greeted for s in self.seats):
            return
        dealt = self.play.deal(fair.seed(), fair.first)
        fair.dealt = True
        start = {**dealt.start, "fair": fair.stored()}
        result = yield from self._commit((UpdateTable({"start": json.dumps(start)}),))
        if not result.ok:
            fair.dealt = False
            log.error("table %s: the deal could not be stored (%s); dealing at the next hello", self.id, result.error)
            return
        self.state, self.start, self.entries = dealt.state, start, dealt.entries
        log.info("table %s: dealt from the secret and %d nonces", self.id, len(fair.nonces))
        self._start_clock(fresh=True)
        yield from self._broadcast_state(None)
        self._changed(None)

    # ================================================================== requests
    def _request(self, conn: ConnId, msg: Any) -> Step:
        if conn not in self.hello:
            yield self._error(conn, "hello-first", "say hello (with your seat's token, or spectate) first")
            return
        seat = self.hello[conn]
        if isinstance(msg, Sync):
            yield self._send(conn, self.state_message(seat))
        elif isinstance(msg, MoveMessage):
            yield from self._player_move(conn, seat, msg.move, msg.stateVersion, msg.id)
        elif isinstance(msg, HintRequest):
            yield from self._hint(conn, seat, msg.id)
        elif isinstance(msg, UndoMessage):
            yield from self._undo(conn, seat, msg.stateVersion, msg.id)
        elif isinstance(msg, NextGame):
            yield from self._next(conn, seat, msg.id, msg.nonce)
        elif isinstance(msg, RematchRequest):
            yield from self._rematch(conn, seat, msg.accept, msg.id, msg.nonce)
        else:
            raise TypeError(f"not a table request: {msg!r}")

    def _refuse_act(self, conn: ConnId, seat: Seat, msg_id: str | None) -> Send | None:
        """Why ``seat`` may not act now (the table not started or over, a bot plays it), or ``None``."""
        if self.status == "open":
            return self._error(conn, "not-started", "the game starts when every seat is taken", msg_id)
        if not self.is_dealt:
            return self._error(conn, "not-started", "the cards are dealt once every player has said hello", msg_id)
        if self.status != "playing" or self.state.is_over:
            return self._error(conn, "game-over", "the game is over", msg_id)
        if not seat.is_person or conn not in seat.conns:
            return self._error(conn, "not-your-seat", "a bot plays this seat now", msg_id,
                               Phrase("error.not-your-seat.bot"))
        return None

    def _refuse_turn(self, conn: ConnId, seat_no: int | None, msg_id: str | None, spectators: str,
                     version: int | None = None, what: str = "move") -> Send | None:
        """Why ``seat_no`` may not play (``what``: a move, an undo) or ask for a hint now, or ``None``:
        a spectator, a seat that may not act, a real-time game's countdown, a turn game's position that
        changed since ``version``, another seat's turn."""
        if seat_no is None:
            return self._error(conn, "not-your-seat", f"spectators {spectators}", msg_id,
                               Phrase("error.not-your-seat.spectator"))
        refused = self._refuse_act(conn, self.seats[seat_no], msg_id)
        if refused is not None:
            return refused
        if (wait := self.go - self.now) > 0:  # a real-time game's countdown
            return self._error(conn, "not-started", f"the game starts in {wait:.1f} s", msg_id,
                               Phrase("error.not-started.in", {"s": f"{wait:.1f}"}))
        if version is not None and version != self.version and not self.state.game.realtime:  # (races: the engine)
            return self._error(conn, "stale", f"the position has changed (now version {self.version}, your {what} "
                               f"was for {version}); sync and choose again", msg_id)
        if seat_no not in (to_act := self.state.to_act()):
            note = ": only the seat to move may take back its own last move" if what == "undo" else ""
            return self._error(conn, "not-your-turn", f"it is seat {to_act[0]}'s turn{note}", msg_id,
                               Phrase("error.not-your-turn.seat", {"seat": to_act[0]}))
        return None

    def _player_move(self, conn: ConnId, seat_no: int | None, move: str, version: int, msg_id: str | None) -> Step:
        if seat_no is not None:
            yield from self._back_by_acting(conn, self.seats[seat_no])
        refused = self._refuse_turn(conn, seat_no, msg_id, "cannot move", version)
        if refused is not None:
            yield refused
        elif seat_no is not None:
            yield from self._apply(seat_no, move, conn=conn, msg_id=msg_id)

    def _hint(self, conn: ConnId, seat_no: int | None, msg_id: str | None) -> Step:
        play = self.play
        if not isinstance(play, Hints):
            yield self._lacking(conn, "hint", msg_id)
        elif (refused := self._refuse_turn(conn, seat_no, msg_id, "get no hints")) is not None:
            yield refused
        elif self.rated:  # no help at a rated table (docs/ratings.md)
            yield self._error(conn, "no-hints", "hints are off at rated tables", msg_id, Phrase("error.no-hint.rated"))
        elif seat_no is not None:
            yield Hint(conn, msg_id, self.version, self.config.hint_level, play.hint_view(seat_no),
                       f"{self.id}:hint:{self.version}")

    def _undo(self, conn: ConnId, seat_no: int | None, version: int, msg_id: str | None) -> Step:
        play = self.play
        if not isinstance(play, Undo):
            yield self._lacking(conn, "undo", msg_id)
        elif (refused := self._refuse_turn(conn, seat_no, msg_id, "cannot undo", version, "undo")) is not None:
            yield refused
        elif not play.can_undo(seat_no):
            yield self._error(conn, "nothing-to-undo", "nothing to undo: only build plays of this turn, until a hidden "
                              "card shows (a stock play, a refilled hand)", msg_id, Phrase("refuse.nothing-to-undo"))
        elif seat_no is not None:
            yield from self._take_back_move(play, conn, seat_no, msg_id)

    def _take_back_move(self, play: Undo, conn: ConnId, seat: int, msg_id: str | None) -> Step:
        """Undo the last move: its row deleted and ``version_base`` raised by 2 in one commit (so
        ``stateVersion`` still rises by one), then the undoer's ``ack`` and everyone's position."""
        text, entries = play.last_move()
        told = self.play.told(True), self.play.told(False)  # the card taken back, as the move told it
        base = self.version_base + 2
        result = yield from self._commit((DeleteMoves(self.rows - 1), UpdateTable({"version_base": base})))
        if not result.ok:
            log.error("table %s: the undo of %s could not be stored (%s)", self.id, text, result.error)
            yield self._error(conn, "storage", "the undo could not be saved; try again", msg_id)
            return
        play.take_back()
        self._keep_taken_back(seat, text, *told)
        self.version_base = base
        self.version += 1
        self.rows -= 1
        self.entries -= entries
        log.info("table %s: seat %d took back %s", self.id, seat, text)
        yield self._send(conn, ack_text(text, self.version, msg_id=msg_id, undone=True))
        self._changed(None)
        yield from self._broadcast_state(LastMove(seat=seat, move=text, undone=True), told=told)

    def _lacking(self, conn: ConnId, kind: str, msg_id: str | None) -> Send:
        """``kind`` at a table whose game has no such thing: one line to the asker alone."""
        has = {"hints": isinstance(self.play, Hints), "undo": isinstance(self.play, Undo),
               "matches": self._has_matches()}
        lacking = [noun for noun, there in has.items() if not there]
        what = ", ".join(lacking[:-1]) + (" or " if len(lacking) > 1 else "") + lacking[-1]
        return self._error(conn, "bad-message", f"{kind}: {self.title} tables have no {what}", msg_id,
                           Phrase(f"error.no-{kind}"))

    def _has_matches(self) -> bool:
        return self.play.plays_matches

    # ================================================================== the path of a move
    def _apply(self, seat: int | None, move: str | None, *, conn: ConnId | None = None, msg_id: str | None = None,
               by_bot: bool = False) -> Generator[Effect, Any, str]:
        """Let the game's time pass to now and play ``move`` for ``seat`` (``None``: only the time);
        store what happened, then acknowledge and show it. Returns ``ok``, ``refused``, ``storage`` or
        ``idle`` (nothing happened)."""
        state = self.state
        back = self.play.checkpoint()
        t = self.game_ms(self.now)
        events: list[Event] = list(state.advance(t))
        outcome, played, refused = "idle", move or "", None
        if seat is not None and move is not None:
            try:
                done = state.apply(seat, move, t)
            except IllegalMoveError as exc:
                outcome, refused = "refused", exc
            else:
                outcome = "ok"
                if not by_bot or self.seats[seat].kind == "bot":
                    self.moved.add(seat)
                if done and done[0].kind == "move":
                    played = done[0].text
                events.extend(done)
        if events:
            stored = yield from self._store_change(seat if outcome == "ok" else None, events, by_bot)
            if not stored:
                back()
                if conn is not None:
                    yield self._error(conn, "storage", "the move could not be saved; try again", msg_id)
                return "storage"
        if outcome == "ok":
            self.moves_played += 1
            yield Counted()
        if conn is not None:
            if outcome == "ok":
                yield self._send(conn, ack_text(played, self.version, msg_id=msg_id,
                                                t=t if self.state.game.realtime else None))
            elif refused is not None:
                yield self._error(conn, "too-late" if refused.lost_race else "illegal", str(refused), msg_id,
                                  refused.phrase or Phrase("error.illegal"))
        if not events:
            return outcome
        self._changed(seat if outcome == "ok" else None)
        last = LastMove(seat=seat, move=played, byBot=by_bot) if outcome == "ok" and seat is not None else None
        told = (self.play.told(True), self.play.told(False)) if last is not None else None
        yield from self._broadcast_state(last, events, told)
        if self.state.is_over:
            yield from self._broadcast(self.game_over())
            if self.status == "finished":
                log.info("table %s: game over after %d changes: %s (game %s)", self.id, self.version,
                         self.state.result, self.game_id)
                yield Finished()
        return outcome

    def _store_change(self, seat: int | None, events: Sequence[Event], by_bot: bool) -> Generator[Effect, Any, bool]:
        """Commit what the change added (and, at the end of a game, its record, the players' figures,
        a match's score, the series and the next game's fair deal, all in the same commit)."""
        state = self.state
        entries = self.play.entries(events)
        rows: list[Row] = [InsertMove(self.rows, seat if seat is not None else -1, entries)]
        ending = None
        series: dict[str, Any] | None = None
        fair_next: FairDeal | None = None
        if state.is_over:
            ending = self.play.ending()
            record = state.to_record().to_json()
            if self.fair is not None:
                record["fairness"] = self.fair.proof()
            players = self._players()
            rating = (rating_group(self.game, self.preset, self.options, len(self.seats))
                      if self.rated and ending.final else None)
            rows.append(InsertGame(self.game, self.preset, record, state.plies, state.turns, players,
                                   finish=ending.final, rating=rating))
            columns = dict(ending.columns)
            with_ids = [name for name in columns if name == "match"]
            if ending.final:  # the table's game (a match: the match) counts in the series
                old = self.series
                series = {"games": old["games"] + 1,
                          "wins": [w + int(p["won"]) for w, p in zip(old["wins"], players, strict=True)],
                          "gameIds": list(old.get("gameIds", []))}
                columns["series"] = json.dumps(series)
                with_ids.append("series")
            if self.fair is not None and self._another_may_follow(final=ending.final):
                # the next game's commitment (a match's next game, or a rematch) goes out with this game's
                # end, before any of its cards and before the nonces sent for it; kept with the table
                fair_next = self._draw(self.fair.game + 1, None if ending.final else ending.next_first)
                columns["start"] = json.dumps({**self.start, "fairNext": fair_next.stored()})
            if columns:
                rows.append(UpdateTable(columns, game_id_in=tuple(with_ids)))
        result = yield from self._commit(tuple(rows))
        if not result.ok:
            log.error("table %s: %d entries could not be stored (%s); taken back", self.id, len(entries), result.error)
            return False
        self.rows += 1
        self.entries += len(entries)
        self.version += 1
        self.play.stored(seat, by_bot, entries)
        if ending is not None:
            self._ended(result.game_id, ending.final, series, fair_next, result.ratings)
        return True

    def _another_may_follow(self, final: bool | None = None) -> bool:
        """Whether a game may follow the one just over: a match's next game, or a rematch (a table with
        a person seat)."""
        final = self.status == "finished" if final is None else final
        return not final or any(s.kind == "person" for s in self.seats)

    def _ended(self, game_id: int | None, final: bool, series: dict[str, Any] | None,
               fair_next: FairDeal | None, ratings: Mapping[str, SeatRating] | None = None) -> None:
        """The game's end is stored: the table is finished, or waits for a match's next game. A rated
        game's new ratings (``ratings``, by player id) stand beside its players' names from now on."""
        self.game_id = game_id
        self.told_over = len(self.told)  # what is told from now on belongs to the next game's log
        for seat in self.seats:
            if ratings and seat.player_id is not None and seat.player_id in ratings:
                seat.rating = ratings[seat.player_id]
        if game_id is not None:
            self.play.ended(game_id)
        if fair_next is not None:
            self.fair_next = fair_next
            self.start = {**self.start, "fairNext": fair_next.stored()}
        if final:
            self.status = "finished"
            if series is not None:
                self.series = {**series, "gameIds": [*series["gameIds"], *([game_id] if game_id is not None else [])]}
            self.rematch_yes, self.rematch_no = set(), set()
        else:
            self.between = True
            self.ready = set()
            people = any(s.is_person for s in self.seats)
            self.next_at = self.now + (self.config.next_game_seconds if people else self.config.bot_delay)
            log.info("table %s: game over: %s; the next game follows", self.id, self.state.result)

    def _players(self, left: frozenset[int] = frozenset()) -> list[dict[str, Any]]:
        """Each seat's row of the game's end: who won, their points, whether a bot took the seat over at
        any point of the game (``taken_over``: kept, marked, and left out of the person's figures).
        With ``left`` (a rated game lost by leaving) the sides of those seats lose and every other wins."""
        lost = {self._side_of(seat) for seat in left}
        out = []
        for s in self.seats:
            points = None if left else self.state.points(s.seat)
            won = self._side_of(s.seat) not in lost if left else points is not None
            out.append({"seat": s.seat, "player": s.player_name(), "player_id": s.player_id, "is_bot": s.kind == "bot",
                        "won": won, "points": points or 0,
                        "taken_over": s.kind == "person" and (s.controller == "bot" or s.seat in self.taken),
                        "left": s.seat in left})
        return out

    def _side_of(self, seat: int) -> int:
        """The side ``seat`` plays on (its index in :attr:`sides`)."""
        return next(i for i, side in enumerate(self.sides) if seat in side)

    def _every_side_moved(self) -> bool:
        """Every side of the table has made a move of its own (a rated game left before that is aborted)."""
        return all(any(seat in self.moved for seat in side) for side in self.sides)

    def _changed(self, mover: int | None) -> None:
        """The position or who plays a seat changed: the clocks follow, the bots may go on."""
        self.bot_at = self.now + self.config.bot_delay
        self.thinking = None
        self.play.changed()
        self._refresh_clocks(mover)

    # ================================================================== bots
    def _think(self, seat: int) -> Step:
        view = self.play.bot_view(seat)
        level = self.seats[seat].level or self.config.replacement_level
        self.thinking = (seat, self.version)
        yield Think(seat, self.version, level, view, f"{self.id}:{self.version}")

    def _thought(self, answer: Thought) -> Step:
        if self.thinking != (answer.seat, answer.version):
            return
        self.thinking = None
        seat = self.seats[answer.seat]
        if (answer.version != self.version or seat.controller != "bot" or self.status != "playing"
                or answer.seat not in self.state.to_act()):
            return
        outcome = "refused"
        if answer.move is not None:
            outcome = yield from self._apply(seat.seat, answer.move, by_bot=True)
            if outcome == "refused":
                log.error("table %s: the bot at seat %d chose an illegal move %r", self.id, seat.seat, answer.move)
        if outcome == "refused":  # never loop on a broken bot: the first legal move keeps the game going
            outcome = yield from self._apply(seat.seat, self.state.legal_moves(seat.seat)[0], by_bot=True)
        if outcome == "storage":
            self.bot_at = self.now + _STORAGE_RETRY  # the database is in trouble: do not hammer it

    # ================================================================== seats from the lobby
    def _join(self, inp: Join) -> Generator[Effect, Any, int]:
        """Take a free person seat; the game starts when none is left."""
        if self.status != "open":
            raise LobbyError(f"table {self.id} is {self.status}: no seat is free", 409, "lobby.not-open",
                             table=self.id, state=self.status)
        free = [s for s in self.seats if s.controller == "free"]
        if inp.seat is not None:
            free = [s for s in free if s.seat == inp.seat]
            if not free:
                raise LobbyError(f"seat {inp.seat} is not free", 409, "lobby.seat-taken", seat=inp.seat)
        if not free:
            raise LobbyError(f"table {self.id} has no free seat", 409, "lobby.table-full", table=self.id)
        if self.rated and inp.player_id is None:
            raise LobbyError("a rated table seats only players with a player key", 400, "lobby.rated-needs-key")
        if self.rated and any(s.player_id == inp.player_id for s in self.seats):
            raise LobbyError("you already sit at this rated table", 409, "lobby.rated-one-seat")
        seat = free[0]
        if self.rated and inp.address is not None and any(
                s.address == inp.address and self._side_of(s.seat) != self._side_of(seat.seat) for s in self.seats):
            # one person, one side: two keys from one address do not play each other rated
            raise LobbyError("someone from your address plays the other side of this rated table: play them "
                             "at a casual table", 409, "lobby.rated-one-address")
        starts = sum(1 for s in self.seats if s.controller == "free") == 1
        rows: list[Row] = [UpdateSeat(seat.seat, {"player": inp.name, "token_hash": inp.token_hash,
                                                  "controller": "person", "player_id": inp.player_id,
                                                  "address": inp.address})]
        if starts:
            rows.append(UpdateTable({"status": "playing"}))
        result = yield from self._commit(tuple(rows))
        if not result.ok:
            raise LobbyError("the seat could not be saved; try again", 503, "lobby.storage")
        seat.player, seat.token_hash, seat.player_id = inp.name, inp.token_hash, inp.player_id
        seat.address = inp.address
        seat.rating = inp.rating if self.rated else None
        seat.controller = "person"
        log.info("table %s: %s took seat %d", self.id, inp.name, seat.seat)
        yield from self._tell("joined", seat.seat, f"{inp.name} took seat {seat.seat}", name=inp.name, seat=seat.seat)
        if starts:
            self.status = "playing"
            log.info("table %s: every seat is taken; the game starts", self.id)
            yield from self._tell("started", None, "every seat is taken: the game starts")
            self._enter_play(fresh=True)
        return seat.seat

    def _enter_play(self, fresh: bool) -> None:
        """The table is in play (every seat taken, or restored): absent persons' grace times run, the
        clocks and the bots start."""
        for seat in self.seats:
            if seat.kind == "person" and not seat.conns and seat.controller != "free" and seat.away_since is None:
                seat.away_since = self.now
        if any(s.kind == "person" for s in self.seats) and self._nobody_here():
            self.deserted_since = self.now
        if self.between and self.next_at is None:  # restored between two games: the pause again
            people = any(s.is_person for s in self.seats)
            self.next_at = self.now + (self.config.next_game_seconds if people else self.config.bot_delay)
        if self.is_dealt and not self.state.is_over:
            self._start_clock(fresh)
        self._changed(None)
