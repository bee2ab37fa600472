"""The table's lifecycle, one state machine: whatever a table does, from its first seat to its
last rematch, happens in :meth:`TableCore.step`.

Inputs go in (:mod:`spite.server.table.effects`: a connection's hello, request or leaving, a bot's
answer, a person taking a seat, time passing) with the time they happen at; effects come out (send,
close, store, think). The core does no I/O and reads no clock: the asyncio host
(:mod:`spite.server.host`) runs the effects and feeds the inputs, one at a time per table, and the
tests run it in memory with a fake clock (tests/server/test_table_core.py). A step is a generator:
when it yields :class:`~spite.server.table.effects.Store` it waits for the answer
(:class:`~spite.server.table.effects.Stored`) before it goes on, so nothing is acknowledged or shown
before it is stored, and nothing else happens at the table meanwhile.

The core holds its parts, each with a plain interface and none calling back into it: the clocks
(:class:`~spite.server.table.clock.TableClock`), the games in a row
(:class:`~spite.server.table.series.TableSeries`), what the table shows
(:class:`~spite.server.table.view.TableView`, which reads the table), the seats
(:mod:`spite.server.table.seats`), the fair deals (:mod:`spite.server.table.fair`) and the game's play
(:class:`~spite.server.table.play.TablePlay`). What the table does, it does here.

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
* **One way to begin a game.** The game in play once every person is here, a match's next game and
  a rematch all begin in :meth:`TableCore.begin_game`: dealt by the game's adapter
  (:meth:`~spite.server.table.play.ServerGame.open`) from the fair deal's seed, stored in one commit.
* **Every secret from the injected entropy** (``entropy``): the fair deals' secrets, and a seed where
  a table stored before fair deals has none. A table given a deal source (``deal_source``) draws no
  secret: each of its games is dealt as the source says (:class:`~spite.server.table.fair.FixedDeal`),
  it has no rematch (its source fixes its games, no more), and when told (:class:`NoShow`) its
  person seats that never came lose the game as a forfeit.

The game itself is reached through :mod:`spite.games` and the table's
:class:`~spite.server.table.play.TablePlay`; the core never asks which game it is.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Generator, Mapping, Sequence
from functools import partial
from typing import Any

from spite.catalogue import word
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
    RematchState,
    SeatRating,
    Sync,
    TableInfo,
    UndoMessage,
    ack_text,
)
from spite.server.table.clock import TableClock
from spite.server.table.effects import (
    BotAsk,
    Close,
    ConnId,
    Counted,
    DeleteMoves,
    Effect,
    Finished,
    Gone,
    Hello,
    Hint,
    Input,
    InsertAbort,
    InsertGame,
    InsertMove,
    Join,
    Leave,
    NoShow,
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
from spite.server.table.fair import DealSource, FairDeal
from spite.server.table.play import Change, Ending, Opening, ServerGame, TablePlay, Undo
from spite.server.table.seats import LobbyError, Seat, seat_for_token
from spite.server.table.series import TableSeries
from spite.server.table.view import TableView

__all__ = ["Step", "TableCore"]

log = logging.getLogger("spite.server.table")

Step = Generator[Effect, Any, Any]
"""A step of the core: yields effects; a :class:`Store` is answered with :class:`Stored`."""

Timer = tuple[float, Callable[[], Step]]
"""A pending timer: when, and what then."""

_STORAGE_RETRY = 1.0
"""Seconds a bot, or a next game, waits before it tries again after the database refused a commit."""


class TableCore:
    """One table's lifecycle (see the module's text). ``now`` is the core's clock in seconds (the
    host's monotonic clock; the tests' fake one); ``entropy`` gives every secret the table draws."""

    def __init__(self, *, table_id: str, game: str, server_game: ServerGame, opening: Opening, seats: list[Seat],
                 status: str, created_at: float, config: ServerConfig, now: float,
                 entropy: Callable[[int], bytes], series: dict[str, Any] | None = None,
                 game_id: int | None = None, rated: bool = False, deal_source: DealSource | None = None) -> None:
        self.id = table_id
        self.deal_source = deal_source
        """The table's deals come from outside (game number → its fixed deal); ``None``: drawn here."""
        self.game = game
        self.server_game = server_game
        self.config = config
        self.entropy = entropy
        self.title = server_game.listing.title
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
        self.series = TableSeries(len(seats), series, status == "finished")
        self.spectators: set[ConnId] = set()
        self.hello: dict[ConnId, int | None] = {}
        """Connections that said hello, and their seat (``None``: a spectator)."""
        self.greeted: set[int] = set()
        """Seats whose person said hello since this process holds the table (the deal waits for them)."""
        self.thinking: tuple[int, int] | None = None
        """The seat and version a bot is thinking about (its answer comes as :class:`Thought`)."""
        self.bot_at = now
        """A bot may move from then on (``bot_delay`` after the last change, so people can follow)."""
        self.hold_until = now
        """After a refused commit: the timers wait until then."""
        self.quiet = False
        """The last look at the timers (since the last input) found none due: :attr:`quiet_until` holds."""
        self.quiet_until: float | None = None
        """Then: the earliest timer (``None``: none)."""
        self.deserted_since: float | None = None
        """Since when no person is connected to this playing table."""
        self.retired = False
        """Closed here: shut down or served by another worker; it does nothing more."""
        self.now = now
        self.clock = TableClock(now)
        self.view = TableView(self)
        self.restored_log: list[dict[str, Any]] | None = opening.log
        """A restored game's steps, made by the replay that restored it (its play takes them)."""
        self.play: TablePlay = server_game.play(self, opening.extra)
        self.restored_log = None
        self.series.between = self.status == "playing" and self.state.is_over
        if self.fair is not None and self.fair_next is None and self.state.is_over and self._another_may_follow():
            # stored before the next game's fair deal was kept with the table: a new one, published now
            # (the cut decides who begins: who the rules chose is not known here)
            self.fair_next = self._draw(self.fair.game + 1, None)
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
        elif isinstance(inp, NoShow):
            yield from self._no_show()
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

    # ================================================================== what the table is
    def info(self) -> TableInfo:
        """The table as the lobby shows it."""
        return self.view.info()

    @property
    def is_dealt(self) -> bool:
        """The game in play is dealt from its final seed (always, at a table without a fair deal)."""
        return self.fair is None or self.fair.dealt

    @property
    def game_ended(self) -> bool:
        """The game in play is over: by its rules, or lost by leaving (a rated table's forfeit)."""
        return self.state.is_over or self.ended is not None

    def game_ms(self, now: float) -> int:
        """The game clock (ms) at the core's time ``now`` (a turn game: the game's own)."""
        return self.clock.game_ms(now, self.state.now)

    def core_time(self, ms: int) -> float:
        """The core's time at game time ``ms``."""
        return self.clock.core_time(ms, self.now)

    def live(self, now: float) -> bool:
        """Whether play may begin (a real-time game's countdown is over)."""
        return self.clock.live(now)

    def _commit(self, rows: tuple[Row, ...]) -> Generator[Effect, Any, Stored]:
        """Store ``rows`` (the step waits for the answer). After a refused commit the table's timers
        wait :data:`_STORAGE_RETRY` seconds: the database is in trouble, do not hammer it."""
        result: Stored = yield Store(rows)
        if not result.ok:
            self.hold_until = self.now + _STORAGE_RETRY
        return result

    def _error(self, conn: ConnId, code: str, message: str, msg_id: str | None = None,
               phrase: Phrase | None = None) -> Send:
        return self.view.error(conn, code, message, msg_id, phrase)

    # ================================================================== connections
    def _hello(self, inp: Hello) -> Step:
        conn = inp.conn
        if conn in self.hello:
            yield self._error(conn, "already-hello", "this connection has already said hello")
            return
        if inp.spectate:
            self.hello[conn] = None
            self.spectators.add(conn)
            yield from self.view.welcome(conn, None)  # a spectator's nonce does not count
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
        yield from self._deal_when_ready()  # the last hello: dealt before its welcome (the others get a state)
        first = not seat.conns
        seat.conns.add(conn)
        seat.away_since = None
        self.deserted_since = None
        yield from self.view.welcome(conn, seat.seat)
        if seat.kind == "person" and seat.controller == "bot" and self.status in ("playing", "finished"):
            yield from self._take_back(seat)  # (at a finished table: to answer the rematch question)
        elif first and seat.is_person:
            yield from self.view.tell("connected", seat.seat, f"{seat.player} is at seat {seat.seat}",
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
            yield from self.view.tell("disconnected", seat.seat, f"{seat.player} dropped from seat {seat.seat}; {then}",
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
        log.info("table %s: %s is back at seat %d; the bot leaves", self.id, seat.player, seat.seat)
        yield from self.view.tell("returned", seat.seat, f"{seat.player} is back at seat {seat.seat}; the bot leaves",
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
        log.info("table %s: seat %d (%s): %s", self.id, seat.seat, seat.player, text)
        yield from self.view.tell(kind, seat.seat, text, seconds=seconds, key=key, level=level, **params)
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
        if self.series.between:
            yield from self._next_game()
            if self.series.between:  # it could not be stored: the timers try again
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
        rating = (rating_group(self.game, self.preset, self.options, len(self.seats))
                  if self.rated and why != "no-show" else None)
        rows: list[Row] = [InsertGame(self.game, self.preset, record, state.plies, state.turns, players, finish=True,
                                      rating=rating, result=result)]
        series = self.series.counted(players)
        start = {**self.start, "forfeit": result}
        fair_next = None
        if self.fair is not None and self._another_may_follow(final=True):  # a rematch's commitment, as after any game
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
        self.clock.stop()
        names = ", ".join(s.shown_name() for s in seats)
        log.info("table %s: %s lost the rated game by leaving (%s); game %s", self.id, names, why, self.game_id)
        self._changed(None)
        yield from self.view.broadcast(self.view.game_over())
        yield Finished()

    def _no_show(self) -> Step:
        """The table's organiser says the time to come is over: while the game is not dealt yet (some
        person seat never said hello), the person seats that never did lose it as a forfeit (``why``
        ``no-show``; no rating moves: nobody played)."""
        if self.status != "playing" or self.is_dealt or self.game_ended:
            return
        absent = [s for s in self.seats if s.kind == "person" and s.controller != "bot" and s.seat not in self.greeted]
        if absent:
            yield from self._forfeit(absent, "no-show")

    def _rename(self, inp: Rename) -> Step:
        """The operator renamed a seat's person (already stored): everyone is told the new name."""
        seat = self.seats[inp.seat] if 0 <= inp.seat < len(self.seats) else None
        if seat is None or seat.player == inp.name:
            return
        seat.player = inp.name
        if inp.forget:
            seat.player_id = None
            seat.address = None
        yield from self.view.tell("renamed", seat.seat, f"seat {seat.seat + 1} is called {inp.name} now", name=inp.name)

    def _retire(self, code: int) -> Step:
        self.retired = True
        for conn in self.view.connections():
            yield Close(conn, code)

    # ================================================================== fair deals, and how every game begins
    def _draw(self, game: int, first: int | None) -> FairDeal:
        seats = self.fair.seats if self.fair is not None else len(self.seats)
        if self.deal_source is not None:
            return FairDeal.given(self.id, game, seats, self.deal_source(game), first)
        return FairDeal.draw(self.id, game, seats, first, entropy=self.entropy)

    def _take_nonce(self, seat: int, nonce: str | None) -> None:
        """``seat`` sent ``nonce``: it counts for the game not dealt yet (the next one after a game)."""
        fair = self.fair_next if self.game_ended and self.fair_next is not None else self.fair
        if fair is not None:
            fair.take_nonce(seat, nonce)

    def _deal_when_ready(self) -> Step:
        """Deal the game in play from its secret and the seats' nonces once it has begun and every
        person seat said hello (or a bot took it over): stored, then everyone gets the position."""
        fair = self.fair
        if fair is None or fair.dealt or self.status != "playing" or self.state.is_over:
            return
        if any(s.controller != "bot" and s.seat not in self.greeted for s in self.seats):
            return
        began = yield from self.begin_game("deal")
        if not began:
            log.error("table %s: the deal could not be stored; dealing at the next hello", self.id)
            return
        log.info("table %s: dealt from the secret and %d nonces", self.id, len(fair.nonces))
        yield from self.view.broadcast_state(None)

    def begin_game(self, why: str) -> Generator[Effect, Any, bool]:
        """A game begins at this table, the one way every game does (``why``: ``deal``, the game in play
        once every person is here; ``next``, a match's next game; ``rematch``, a new game of the same
        seats, game, preset and options): dealt by the game's adapter from its fair deal's seed (the
        deal's, or the one whose commitment went out when the game before ended), stored in one commit
        (the finished game's rows go, the new start comes), then in play; after a game that ended, at
        one past the last ``stateVersion``. A rematch's game is a game of its own (its seats' moves
        and takeovers count afresh; a match table starts a new match); a match's next game carries on
        what the play carries (:attr:`TablePlay.carried`). False when it could not be stored (nothing
        changed)."""
        fair = self.fair if why == "deal" else self.fair_next
        if fair is None and why == "rematch" and self.fair is not None:
            fair = self._draw(self.fair.game + 1, None)
        # a table stored before fair deals has no secret: a seed of its own, from the injected entropy
        seed = fair.seed() if fair is not None else self.entropy(32).hex()
        carried = None if why == "rematch" else self.play.carried
        opening = self.server_game.open(self.game, self.preset, dict(self.options), seed,
                                        fair.first if fair is not None else None, carried)
        start = dict(opening.start)
        if fair is not None:
            fair.dealt = True
            start["fair"] = fair.stored()
        base = self.version + 1 if self.game_ended else self.version
        values = {"status": "playing", "start": json.dumps(start), "version_base": base, "plies": 0,
                  **opening.columns}
        if why == "rematch":
            values["seed"] = json.dumps(seed)
        result = yield from self._commit((DeleteMoves(0), UpdateTable(values)))
        if not result.ok:
            if fair is not None:
                fair.dealt = False
            log.error("table %s: the game (%s) could not be stored (%s)", self.id, why, result.error)
            return False
        if why != "deal":
            self.fair, self.fair_next = fair, None
            self.view.next_game()
        self.state, self.start = opening.state, start
        self.version_base = self.version = base
        self.rows, self.entries = 0, opening.entries
        self.game_id = None
        self.ended = None
        self.status = "playing"
        self.series.begun()
        if why == "rematch":
            self.moved, self.taken = set(), set()
        self.play = self.server_game.play(self, opening.extra)
        self._enter_play(fresh=True)  # a person who left meanwhile gets their grace time, as at the start
        return True

    # ================================================================== requests
    def _request(self, conn: ConnId, msg: Any) -> Step:
        if conn not in self.hello:
            yield self._error(conn, "hello-first", "say hello (with your seat's token, or spectate) first")
            return
        seat = self.hello[conn]
        if isinstance(msg, Sync):
            yield self.view.send(conn, self.view.state_message(seat))
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
        if (wait := self.clock.go - self.now) > 0:  # a real-time game's countdown
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
        if self.server_game.listing.bots is None:
            yield self._lacking(conn, "hint", msg_id)
        elif (refused := self._refuse_turn(conn, seat_no, msg_id, "get no hints")) is not None:
            yield refused
        elif self.rated:  # no help at a rated table (docs/ratings.md)
            yield self._error(conn, "no-hints", "hints are off at rated tables", msg_id, Phrase("error.no-hint.rated"))
        elif seat_no is not None:
            yield Hint(conn, msg_id, self.version, self.config.hint_level, self._ask(seat_no),
                       f"{self.id}:hint:{self.version}")

    def _undo(self, conn: ConnId, seat_no: int | None, version: int, msg_id: str | None) -> Step:
        play = self.play
        if not isinstance(play, Undo):
            yield self._lacking(conn, "undo", msg_id)
        elif (refused := self._refuse_turn(conn, seat_no, msg_id, "cannot undo", version, "undo")) is not None:
            yield refused
        elif seat_no is None:
            yield self._error(conn, "nothing-to-undo", "nothing to undo", msg_id)
        elif isinstance(last := play.undoable(seat_no), Phrase):  # why not, in the game's own words
            yield self._error(conn, "nothing-to-undo", word("en", last, "nothing to undo"), msg_id, last)
        else:
            yield from self._take_back_move(play, conn, seat_no, msg_id, *last)

    def _take_back_move(self, play: Undo, conn: ConnId, seat: int, msg_id: str | None, text: str,
                        entries: int) -> Step:
        """Undo the last move: its row deleted and ``version_base`` raised by 2 in one commit (so
        ``stateVersion`` still rises by one), then the undoer's ``ack`` and everyone's position."""
        told = self._told(seat)  # the card taken back, as the move told it
        base = self.version_base + 2
        result = yield from self._commit((DeleteMoves(self.rows - 1), UpdateTable({"version_base": base})))
        if not result.ok:
            log.error("table %s: the undo of %s could not be stored (%s)", self.id, text, result.error)
            yield self._error(conn, "storage", "the undo could not be saved; try again", msg_id)
            return
        play.take_back()
        self.view.taken_back(seat, text, *told)
        self.version_base = base
        self.version += 1
        self.rows -= 1
        self.entries -= entries
        log.info("table %s: seat %d took back %s", self.id, seat, text)
        yield self.view.send(conn, ack_text(text, self.version, msg_id=msg_id, undone=True))
        self._changed(None)
        yield from self.view.broadcast_state(LastMove(seat=seat, move=text, undone=True), told=told)

    def _told(self, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """What the move ``seat`` just made tells besides its seat (its step of the game's log): to the
        seat's own connections, and to everyone else."""
        (own,), (public,) = self.play.move_log(seat, newest=1), self.play.move_log(None, newest=1)
        return ({k: v for k, v in own.items() if k != "seat"}, {k: v for k, v in public.items() if k != "seat"})

    def _lacking(self, conn: ConnId, kind: str, msg_id: str | None) -> Send:
        """``kind`` at a table whose game has no such thing: one line to the asker alone."""
        has = {"hints": self.server_game.listing.bots is not None, "undo": isinstance(self.play, Undo),
               "matches": self.server_game.listing.matches}
        lacking = [noun for noun, there in has.items() if not there]
        what = ", ".join(lacking[:-1]) + (" or " if len(lacking) > 1 else "") + lacking[-1]
        return self._error(conn, "bad-message", f"{kind}: {self.title} tables have no {what}", msg_id,
                           Phrase(f"error.no-{kind}"))

    # ================================================================== the path of a move
    def _apply(self, seat: int | None, move: str | None, *, conn: ConnId | None = None, msg_id: str | None = None,
               by_bot: bool = False) -> Generator[Effect, Any, str]:
        """Let the game's time pass to now and play ``move`` for ``seat`` (``None``: only the time);
        store what happened, then acknowledge and show it. Returns ``ok``, ``refused``, ``storage`` or
        ``idle`` (nothing happened)."""
        state = self.state
        before = state.copy()  # what a refused commit puts back (a copy costs microseconds)
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
        stored: Change | None = None
        if events:
            stored = yield from self._store_change(seat if outcome == "ok" else None, events, by_bot)
            if stored is None:
                self.state = before
                if conn is not None:
                    yield self._error(conn, "storage", "the move could not be saved; try again", msg_id)
                return "storage"
        if outcome == "ok":
            self.moves_played += 1
            yield Counted()
        if conn is not None:
            if outcome == "ok":
                # a real-time game's ack says when the move landed (in the game's own part)
                yield self.view.send(conn, ack_text(played, self.version, msg_id=msg_id,
                                                    game={"t": t} if self.state.game.realtime else None))
            elif refused is not None:
                yield self._error(conn, "too-late" if refused.lost_race else "illegal", str(refused), msg_id,
                                  refused.phrase or Phrase("error.illegal"))
        if not events:
            return outcome
        self._changed(seat if outcome == "ok" else None, stored)
        last = LastMove(seat=seat, move=played, byBot=by_bot) if outcome == "ok" and seat is not None else None
        told = self._told(seat) if last is not None and seat is not None else None
        yield from self.view.broadcast_state(last, events, told)
        if self.state.is_over:
            yield from self.view.broadcast(self.view.game_over())
            if self.status == "finished":
                log.info("table %s: game over after %d changes: %s (game %s)", self.id, self.version,
                         self.state.result, self.game_id)
                yield Finished()
        return outcome

    def _store_change(self, seat: int | None, events: Sequence[Event],
                      by_bot: bool) -> Generator[Effect, Any, Change | None]:
        """Commit what the change added (and, at the end of a game, its record, the players' figures,
        a match's score, the series and the next game's fair deal, all in the same commit); the change
        stored, or ``None`` when it could not be."""
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
            with_ids = list(ending.ids_in)
            if ending.final:  # the table's game (a match: the match) counts in the series
                series = self.series.counted(players)
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
            return None
        self.rows += 1
        self.entries += len(entries)
        self.version += 1
        if ending is not None:
            self._ended(result.game_id, ending.final, series, fair_next, result.ratings, ending)
        return Change(seat, by_bot, entries)

    def _another_may_follow(self, final: bool | None = None) -> bool:
        """Whether a game may follow the one just over: a match's next game, or a rematch (a table with
        a person seat; not at a table whose deals come from outside)."""
        final = self.status == "finished" if final is None else final
        return not final or (self.deal_source is None and any(s.kind == "person" for s in self.seats))

    def _ended(self, game_id: int | None, final: bool, series: dict[str, Any] | None,
               fair_next: FairDeal | None, ratings: Mapping[str, SeatRating] | None = None,
               ending: Ending | None = None) -> None:
        """The game's end is stored: the table is finished, or waits for a match's next game. A rated
        game's new ratings (``ratings``, by player id) stand beside its players' names from now on."""
        self.game_id = game_id
        self.view.game_told_over()
        for seat in self.seats:
            if ratings and seat.player_id is not None and seat.player_id in ratings:
                seat.rating = ratings[seat.player_id]
        if game_id is not None and ending is not None and ending.stored is not None:
            ending.stored(game_id)
        if fair_next is not None:
            self.fair_next = fair_next
            self.start = {**self.start, "fairNext": fair_next.stored()}
        if final:
            self.status = "finished"
            self.series.ended(series, game_id)
        else:
            self.series.pause(self.now + self._pause())
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

    def _changed(self, mover: int | None, stored: Change | None = None) -> None:
        """The position or who plays a seat changed (``stored``: the game's change just stored): the
        clocks follow, the bots may go on."""
        self.bot_at = self.now + self.config.bot_delay
        self.thinking = None
        self.play.changed(stored)
        self._refresh_clocks(mover)

    # ================================================================== bots
    def _ask(self, seat: int) -> BotAsk:
        """What the game's thinking bots are asked about ``seat``: its view alone, and its legal moves."""
        bots = self.server_game.listing.bots
        assert bots is not None
        return BotAsk(bots, seat, tuple(self.state.legal_moves(seat)), self.play.bot_view(seat))

    def _think(self, seat: int) -> Step:
        level = self.seats[seat].level or self.config.replacement_level
        self.thinking = (seat, self.version)
        yield Think(seat, self.version, level, self._ask(seat), f"{self.id}:{self.version}")

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
        yield from self.view.tell("joined", seat.seat, f"{inp.name} took seat {seat.seat}", name=inp.name,
                                  seat=seat.seat)
        if starts:
            self.status = "playing"
            log.info("table %s: every seat is taken; the game starts", self.id)
            yield from self.view.tell("started", None, "every seat is taken: the game starts")
            self._enter_play(fresh=True)
        return seat.seat

    def _enter_play(self, fresh: bool) -> None:
        """The table is in play (every seat taken, or restored): absent persons' grace times run, the
        clocks and the bots start."""
        for seat in self.seats:
            if seat.kind == "person" and not seat.conns and seat.controller != "free" and seat.away_since is None:
                seat.away_since = self.now
        if any(s.kind == "person" for s in self.seats) and self._nobody_here() and self.deserted_since is None:
            self.deserted_since = self.now
        if self.series.between and self.series.next_at is None:  # restored between two games: the pause again
            self.series.next_at = self.now + self._pause()
        if self.is_dealt and not self.state.is_over:
            self._start_clock(fresh)
        self._changed(None)

    # ================================================================== the clocks
    def _start_clock(self, fresh: bool) -> None:
        """A game begins now (``fresh``: dealt just now). A real-time game's clock is ms since it
        began: a new one begins with its start countdown, during which the clock stands at 0; a
        restored one goes on at its last stored time (the downtime does not count)."""
        if not self.state.game.realtime:
            return
        countdown = self.config.start_countdown if fresh and self.state.now == 0 else 0.0
        self.clock.start(self.now, self.state.now, countdown)

    def _clock_limit(self) -> float:
        return self.config.idle_seconds if self.state.game.realtime else self.config.turn_seconds

    def _refresh_clocks(self, mover: int | None = None) -> None:
        """Which person seats have something to do now. A turn game's clock runs from the moment the
        seat's turn began (its own moves do not wind it back); a real-time game's from the seat's last
        move, while it holds a move it could make."""
        realtime = self.state.game.realtime
        live = (self.status == "playing" and self.is_dealt and not self.state.is_over and not self.series.between
                and self.live(self.now))
        acting = set(self.state.to_act()) if live else set()
        busy = [s.seat for s in self.seats
                if s.seat in acting and s.is_person and (not realtime or bool(self.state.legal_moves(s.seat)))]
        self.clock.refresh(busy, self.now, mover if realtime else None)

    def _pause(self) -> float:
        """How long a match's finished game stays on show before the next one begins without waiting."""
        return self.config.next_game_seconds if any(s.is_person for s in self.seats) else self.config.bot_delay

    # ================================================================== what falls due
    def _timers(self) -> list[Timer]:
        """Every pending timer: when, and what then."""
        out: list[Timer] = []
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
                out.append((self.now, self._deal_when_ready))  # everyone is here: the deal's commit failed
            return out
        if self.series.between:
            if self.series.next_at is not None:  # at once when every seat a person plays is ready (a bot always is)
                ready = self.series.all_ready(self.seats)
                out.append((self.now if ready else self.series.next_at, self._next_game))
            return out
        if self.state.is_over:
            return out
        if not self.clock.shown_at_go:
            out.append((self.clock.go, self._at_go))
        _, wake = self.play.due(self.now)
        if wake is not None:
            out.append((wake, self._play_due))
        for warn_at, over_at, n in self.clock.deadlines(self._clock_limit(), self.config.turn_warning):
            seat = self.seats[n]
            if self.clock.warned.get(n) != over_at:
                out.append((warn_at, partial(self._warn, seat, over_at)))
            out.append((over_at, partial(self._clock_out, seat)))
        if self.thinking is None and self.live(self.now):
            for n in self.state.to_act():
                if self.seats[n].controller == "bot" and self.server_game.listing.bots is not None:
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
        self.clock.shown_at_go = True
        yield from self.view.broadcast_state(None)
        self._changed(None)

    def _play_due(self) -> Step:
        actions, _ = self.play.due(self.now)
        for action in actions:
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
        self.clock.warned[seat.seat] = over_at
        left = round(max(0.0, over_at - self.now), 1)
        end = self._rated_end()
        then = {None: "then a bot plays it", "loses": f"then {seat.player} loses the game",
                "aborts": "then the game is aborted"}[end]
        yield from self.view.tell("turn-clock", seat.seat,
                                  f"{seat.player}: {left:g} s left to move at seat {seat.seat}, {then}", seconds=left,
                                  key=f"event.turn-clock.{end}" if end else None,
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
            yield from self._deal_when_ready()

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
        self.clock.stop()
        log.info("table %s: abandoned (%s)", self.id, text)
        yield from self.view.tell("abandoned", None, text, seconds=seconds, key=key, **params)
        for conn in self.view.connections():
            yield Close(conn, 1000)
        yield Gone(text)

    # ================================================================== games in a row
    def _next(self, conn: ConnId, seat_no: int | None, msg_id: str | None, nonce: str | None) -> Step:
        """``next``: a seat is ready for the match's next game; it begins when every person seat is."""
        if not self.server_game.listing.matches:
            yield self._lacking(conn, "next", msg_id)
            return
        if seat_no is None:
            yield self._error(conn, "not-your-seat", "spectators do not start games", msg_id,
                              Phrase("error.not-your-seat.spectator"))
            return
        self._take_nonce(seat_no, nonce)  # for the next game's deal, before it is dealt
        if not self.series.between:
            why = "match-over" if self.status != "playing" else "in-play"
            what = {"match-over": "the match is over", "in-play": "a game is in play"}[why]
            if self.play.match_game() is None:
                why, what = "single", "this table plays a single game"
            yield self._error(conn, "no-next-game", f"there is no next game to start: {what}", msg_id,
                              Phrase(f"error.no-next-game.{why}"))
            return
        seat = self.seats[seat_no]
        yield from self._back_by_acting(conn, seat)
        if not seat.is_person or conn not in seat.conns:
            yield self._error(conn, "not-your-seat", "a bot plays this seat now", msg_id,
                              Phrase("error.not-your-seat.bot"))
            return
        if seat_no in self.series.ready:
            return
        self.series.ready.add(seat_no)
        if all(not s.is_person or s.seat in self.series.ready for s in self.seats):
            self.series.next_at = self.now  # everyone is ready: it begins at once
        else:
            yield from self.view.tell("ready", seat_no, f"{seat.player} is ready for the next game",
                                      name=seat.player or "", seat=seat_no)

    def _next_game(self) -> Step:
        """A match's next game begins (from the fair deal published when the game before ended)."""
        began = yield from self.begin_game("next")
        if not began:
            self.series.next_at = self.now + _STORAGE_RETRY
            return
        starter = self.state.to_act()[0] if self.state.to_act() else 0
        name = self.seats[starter].shown_name()
        number = self.play.match_game() or 1
        log.info("table %s: game %d of the match begins (seat %d first)", self.id, number, starter)
        yield from self.view.tell("next-game", starter, f"game {number} of the match begins: {name} (seat {starter}) "
                                      "plays first", game=number, name=name, seat=starter)
        yield from self.view.broadcast_state(None)

    def _rematch(self, conn: ConnId, seat_no: int | None, accept: bool, msg_id: str | None,
                 nonce: str | None) -> Step:
        """``rematch`` after the table's last game: yes or no. When every seat a person plays has said
        yes, the new game begins."""
        if seat_no is None:
            yield self._error(conn, "not-your-seat", "spectators do not start games", msg_id)
            return
        if self.status != "finished":
            what = "the table has not started" if self.status == "open" else \
                "the game is still in play" if self.status == "playing" else f"the table is {self.status}"
            yield self._error(conn, "no-rematch", f"no rematch now: {what}", msg_id)
            return
        seat = self.seats[seat_no]
        yield from self._back_by_acting(conn, seat)
        if not seat.is_person or conn not in seat.conns:
            yield self._error(conn, "not-your-seat", "a bot plays this seat now", msg_id)
            return
        name = seat.player or seat.player_name()
        if accept:
            self._take_nonce(seat_no, nonce)  # for the rematch's deal: its commitment is out
        if seat_no in (self.series.rematch_yes if accept else self.series.rematch_no):
            return
        yes, no = set(self.series.rematch_yes), set(self.series.rematch_no)
        (yes if accept else no).add(seat_no)
        (no if accept else yes).discard(seat_no)
        persons = [s for s in self.seats if s.kind == "person"]
        if accept and all(s.seat in yes for s in persons):
            self.series.rematch_yes, self.series.rematch_no = yes, no
            yield from self._rematch_game()
            return
        # the answer is kept with the table: a reload, a restart or another device sees it too
        result = yield from self._commit((UpdateTable({"series": json.dumps(self.series.answered(yes, no))}),))
        if not result.ok:
            yield self._error(conn, "storage", "your answer could not be saved; try again", msg_id)
            return
        self.series.rematch_yes, self.series.rematch_no = yes, no
        if accept:
            yield from self.view.tell("rematch-yes", seat_no, f"{name} wants a rematch", name=name, seat=seat_no)
        else:
            yield from self.view.tell("rematch-no", seat_no, f"{name} does not want a rematch", name=name, seat=seat_no)
        info = self.view.rematch_info()
        assert info is not None
        yield from self.view.broadcast(RematchState(rematch=info, series=self.series.info()))

    def _rematch_game(self) -> Step:
        """Every person wants another game: it begins (a game of its own, from the fair deal published
        at the end of the last game)."""
        began = yield from self.begin_game("rematch")
        if not began:
            self.series.rematch_yes = set()
            for conn in self.view.connections():
                if self.hello.get(conn) is not None:
                    yield self._error(conn, "storage", "the rematch could not be saved; try again")
            return
        number = self.series.score["games"] + 1
        log.info("table %s: rematch, game %d of the series begins", self.id, number)
        yield from self.view.tell("rematch", None, f"everyone wants a rematch: game {number} at this table begins",
                                      n=number)
        yield from self.view.broadcast_state(None)
