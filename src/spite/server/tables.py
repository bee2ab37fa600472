"""A table in play: its engine state, seats, connections, bots and grace timers.

Everything that changes a table happens under its :attr:`Table.lock`, in this order: check, play
the move in the engine, commit it to the database (awaiting the commit), and only then acknowledge
it and tell every connection. If the commit fails the move is undone and the mover is told; no
one else ever saw it. ``stateVersion`` is ``version_base`` plus the moves of the game in play (both
survive restarts): it rises by one with every move, every undo (the undone move's row is deleted and
``version_base`` grows by 2) and at a match table's next game (which starts one past the last
version of the game before). Without undo or a match it is the number of moves played.

Undo (``undo``): a person takes back their seat's last move while it is a build play of this turn
that showed no hidden card (the terminal app's rule): not a stock play (the next stock card shows),
not a play that refilled the hand, not a discard or pass (the turn ended); a bot's move never. The
limit is :attr:`Table.undo_floor`, the ply after the last move that may not be taken back.

Match tables (the ``match`` preset, payoff scoring, or an explicit ``match_target``) play games
with :class:`~spite.malice.Match` until a side reaches the target; each game is stored as its own
record. Between two games the finished one stays on show until every person seat sent ``next`` (bots
are always ready) or ``next_game_seconds`` pass; then the next game is dealt (the loser begins).

What a connection receives is built here and only here: :meth:`Table.view_for` is
``state.view(seat).to_json()`` for its seat (a spectator's for spectators) and the seat's own legal
moves. Nothing else of the state ever leaves the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from spite.cards import format_cards
from spite.errors import IllegalMoveError
from spite.malice import BUILD, STOCK, Match, Options, Result, State
from spite.records.malice import record_from_state
from spite.server.protocol import (
    Ack,
    ErrorMessage,
    GameOver,
    HintMessage,
    LastMove,
    MatchInfo,
    SeatInfo,
    StateMessage,
    TableEvent,
    TableInfo,
    TableMessage,
    Welcome,
)
from spite.server.store import Store

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from spite.server.manager import Manager

__all__ = ["Connection", "Seat", "Table", "hash_token", "match_from_json", "match_json", "new_token", "undo_floor_of",
           "wants_match"]

log = logging.getLogger("spite.server.table")


def _reveals(entry: tuple[Any, ...]) -> bool:
    """Whether a history entry of :class:`State` showed a hidden card or ended the turn: a stock play,
    a build play that refilled (or tried to refill) the hand, a discard or pass. ``entry[5]`` is the
    move's draw (``None`` when it drew nothing)."""
    move = entry[0]
    return bool(move.kind != BUILD or move.source == STOCK or entry[5] is not None)


def undo_floor_of(state: State) -> int:
    """The ply after the last move that may not be taken back (see the module's text); the whole game
    once it is over. Used after a restart, when it is not known which moves a bot made: a move of the
    seat's own turn is taken for the seat's."""
    if state.result is not None:
        return state.plies
    history = state.history
    for ply in range(len(history) - 1, -1, -1):
        if _reveals(history[ply]):
            return ply + 1
    return 0


def wants_match(opts: Options, overrides: dict[str, Any]) -> bool:
    """A table plays a match when its games score (``scoring: payoff``, as the ``match`` preset) or
    its options name a ``match_target``."""
    return opts.scoring == "payoff" or "match_target" in overrides


def match_json(match: Match, game_ids: list[int]) -> dict[str, Any]:
    """What the database keeps of a match: its scores, who began and how each game ended, their ids."""
    return {"scores": list(match.scores), "starters": list(match.starters),
            "results": [r.to_json() for r in match.results], "gameIds": list(game_ids)}


def match_from_json(opts: Options, seed: int | str, data: dict[str, Any]) -> tuple[Match, list[int]]:
    """A match back from :func:`match_json` (and its games' ids)."""
    results = [Result(winner=r.get("winner"), reason=str(r.get("reason")), points=r.get("points"), team=r.get("team"))
               for r in data.get("results", [])]
    match = Match(opts, seed, scores=[int(x) for x in data["scores"]], results=results,
                  starters=[int(x) for x in data.get("starters", [])])
    return match, [int(x) for x in data.get("gameIds", [])]


def new_token() -> str:
    """A fresh secret seat token (192 random bits)."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What the database keeps of a token (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Connection:
    """One WebSocket: an outgoing queue drained by its own task (a slow client stalls nobody), a
    token bucket against floods, and which table and seat it speaks for."""

    MAX_QUEUE = 512

    def __init__(self, ws: WebSocket, rate: float, burst: float) -> None:
        self.ws = ws
        self.table: Table | None = None
        self.seat: int | None = None
        self.hello = False
        self.closing = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._stamp = time.monotonic()
        self.flooded = 0
        self._flood_told = 0.0
        self.close_code = 1000

    def allow(self) -> bool:
        """Take a token for one incoming message; ``False`` when the client floods."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        self.flooded += 1
        return False

    def should_tell_flood(self) -> bool:
        """At most one flood error a second."""
        now = time.monotonic()
        if now - self._flood_told >= 1.0:
            self._flood_told = now
            return True
        return False

    def send(self, msg: BaseModel | str) -> None:
        """Queue a message (a model or its JSON text)."""
        if self.closing:
            return
        self._queue.put_nowait(msg if isinstance(msg, str) else msg.model_dump_json())
        if self._queue.qsize() > self.MAX_QUEUE:
            log.warning("a client reads too slowly (%d messages waiting); closing it", self._queue.qsize())
            self.close(1008)

    def error(self, code: str, message: str, *, msg_id: str | None = None, version: int | None = None) -> None:
        """Queue an error message."""
        self.send(ErrorMessage(code=code, message=message, id=msg_id, stateVersion=version))  # type: ignore[arg-type]

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close."""
        if not self.closing:
            self.close_code = code
            self._queue.put_nowait(None)
            self.closing = True

    async def run_sender(self) -> None:
        """Drain the queue into the socket until closed."""
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(self.close_code)
                    return
                await self.ws.send_text(text)
        except Exception:  # the client went away; the receive loop notices too
            self.closing = True


@dataclass
class Seat:
    """A seat at a table.

    ``kind`` is what the table was made with (``person`` or ``bot``); ``controller`` who plays it
    now: ``free`` (a person seat nobody took yet), ``person``, or ``bot`` (a bot seat, or a person's
    seat a bot took over after the grace time; ``level`` is then the bot's level).
    """

    seat: int
    kind: str
    level: str | None
    player: str | None
    token_hash: str | None
    controller: str
    conns: set[Connection] = field(default_factory=set)
    grace: asyncio.Task[None] | None = None

    def status(self) -> str:
        """free, connected, disconnected or bot."""
        if self.controller == "free":
            return "free"
        if self.controller == "bot":
            return "bot"
        return "connected" if self.conns else "disconnected"

    def info(self) -> SeatInfo:
        """The public face of this seat."""
        return SeatInfo(seat=self.seat, kind=self.kind, level=self.level if self.kind == "bot" else None,  # type: ignore[arg-type]
                        player=self.player, status=self.status(),  # type: ignore[arg-type]
                        botLevel=self.level if self.controller == "bot" else None)

    def player_name(self) -> str:
        """The name statistics count this seat under."""
        if self.kind == "bot":
            return f"bot:{self.level}"
        return self.player or "guest"


class Table:
    """A Spite and Malice table served by this process.

    Seats, tokens, connections, grace times and takeovers serve any game; the turn, undo (through
    :meth:`_seat_changed_hands` in the shared seat handling), hints (:meth:`player_hint`) and match
    play (:meth:`player_next`) are Spite and Malice's. A table of another game overrides every one
    of those (:class:`~spite.server.spit_tables.SpitTable` refuses hints, undo and ``next``).
    """

    def __init__(self, manager: Manager, *, table_id: str, preset: str, options: dict[str, Any], seed: int | str,
                 state: Any, seats: list[Seat], status: str, created_at: float, game: str = "spite-malice",
                 version: int | None = None, version_base: int = 0, match: Match | None = None,
                 game_ids: list[int] | None = None) -> None:
        self.manager = manager
        self.id = table_id
        self.game = game
        self.preset = preset
        self.options = options
        self.seed = seed
        self.state: State = state
        self.seats = seats
        self.status = status
        self.created_at = created_at
        self.version_base = version_base
        self.version = version_base + state.plies if version is None else version
        self.lock = asyncio.Lock()
        self.spectators: set[Connection] = set()
        self.game_id: int | None = None
        self._bot_task: asyncio.Task[None] | None = None
        self.moves_played = 0
        self.undo_floor = undo_floor_of(state) if isinstance(state, State) else 0
        """No move at or below this ply may be taken back."""
        self.match = match
        self.game_ids: list[int] = list(game_ids or [])
        """A match table: the ids of its finished games, in order."""
        if match is not None and self.game_ids and state.result is not None:
            self.game_id = self.game_ids[-1]  # restored between two games
        self.ready: set[int] = set()
        """Between two games of a match: the seats that sent ``next``."""
        self._next_tasks: set[asyncio.Task[None]] = set()
        self._next_at: float | None = None

    # ------------------------------------------------------------------ what clients see
    @property
    def store(self) -> Store:
        """The manager's store."""
        return self.manager.store

    def info(self) -> TableInfo:
        """The table as the lobby shows it."""
        return TableInfo(id=self.id, game=self.game, preset=self.preset, options=self.options,
                         status=self.status, seats=[s.info() for s in self.seats],  # type: ignore[arg-type]
                         stateVersion=self.version, link=f"/t/{self.id}", gameId=self.game_id)

    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The view JSON of ``seat`` (``None``: spectator) and its legal moves: all a client gets."""
        view = self.state.view(seat)
        return view.to_json(), [m.text for m in view.legal_moves]

    def state_message(self, seat: int | None, last: LastMove | None = None) -> StateMessage:
        """A ``state`` message for ``seat``."""
        view, legal = self.view_for(seat)
        return StateMessage(stateVersion=self.version, view=view, legal=legal, last=last, canUndo=self.can_undo(seat),
                            match=self.match_info())

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back its last move now (its turn, a person plays it, and a move of
        this turn that showed nothing hidden is there to take back)."""
        state = self.state
        return (seat is not None and self.status == "playing" and state.result is None and state.to_move == seat
                and self.seats[seat].controller == "person" and state.plies > self.undo_floor)

    def between_games(self) -> bool:
        """A match table whose game is over while the match goes on: waiting for the next game."""
        return (self.match is not None and self.status == "playing" and self.state.result is not None
                and not self.match.is_over)

    def match_info(self) -> MatchInfo | None:
        """The score of a match table (``None`` for a table of one game)."""
        match = self.match
        if match is None:
            return None
        between = self.between_games()
        game = len(match.results) + (0 if self.state.result is not None else 1)
        ready: list[int] = []
        next_in = None
        if between:
            ready = [s.seat for s in self.seats if s.seat in self.ready or s.controller == "bot"]
            if self._next_at is not None:
                next_in = round(max(0.0, self._next_at - time.monotonic()), 1)
        return MatchInfo(scores=list(match.scores), target=match.target, game=max(game, 1), over=match.is_over,
                         winner=match.winner, betweenGames=between, ready=ready, nextIn=next_in)

    def connections(self) -> list[Connection]:
        """Every connection at this table."""
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.conns)
        return out

    def _state_text(self, seat: int | None, last: dict[str, Any] | None, match: dict[str, Any] | None = None) -> str:
        """A :class:`StateMessage` as JSON text, built directly (the hot path of every move); ``last`` and
        ``match`` are the models' ``model_dump()``, made once for all the receivers."""
        view, legal = self.view_for(seat)
        msg = {"type": "state", "stateVersion": self.version, "view": view, "legal": legal, "last": last,
               "canUndo": self.can_undo(seat)}
        if match is not None:
            msg["match"] = match
        return json.dumps(msg, separators=(",", ":"))

    def _broadcast_state(self, last_move: LastMove | None) -> None:
        info = self.match_info()
        match = info.model_dump() if info is not None else None
        last = last_move.model_dump() if last_move is not None else None
        for s in self.seats:
            if s.conns:
                text = self._state_text(s.seat, last, match)
                for conn in s.conns:
                    conn.send(text)
        if self.spectators:
            text = self._state_text(None, last, match)
            for conn in self.spectators:
                conn.send(text)

    def broadcast(self, msg: BaseModel) -> None:
        """Send the same message to everyone at the table."""
        text = msg.model_dump_json()
        for conn in self.connections():
            conn.send(text)

    def tell(self, kind: str, seat: int | None, text: str) -> None:
        """Tell everyone what changed at the table (with the table as it is now; a match's score too)."""
        self.broadcast(TableMessage(table=self.info(), event=TableEvent(kind=kind, seat=seat, text=text),  # type: ignore[arg-type]
                                    match=self.match_info()))

    # ------------------------------------------------------------------ connections
    def seat_for_token(self, token: str) -> Seat | None:
        """The seat whose token this is, or ``None``."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s
        return None

    async def attach(self, conn: Connection, seat: Seat | None) -> None:
        """A connection says hello: as a seat's player (with its token) or as a spectator."""
        async with self.lock:
            conn.table = self
            conn.hello = True
            if seat is None:
                conn.seat = None
                self.spectators.add(conn)
                self._welcome(conn, None)
                return
            conn.seat = seat.seat
            first = not seat.conns
            seat.conns.add(conn)
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
            self._welcome(conn, seat.seat)
            if seat.controller == "bot" and seat.kind == "person":
                await self.store.write(Store.update_seat(self.id, seat.seat, controller="person", level=None))
                seat.controller = "person"
                seat.level = None
                self._seat_changed_hands()  # the bot's moves are not the person's to take back
                log.info("table %s: %s is back at seat %d; the bot leaves", self.id, seat.player, seat.seat)
                self.tell("returned", seat.seat, f"{seat.player} is back at seat {seat.seat}; the bot leaves")
            elif first:
                self.tell("connected", seat.seat, f"{seat.player} is at seat {seat.seat}")

    def _seat_changed_hands(self) -> None:
        """A bot took a seat over or its person came back (the lock is held): nothing played so far is
        the new player's to take back. The only place the shared seat handling touches undo, so that a
        table of another game (:class:`~spite.server.spit_tables.SpitTable`) can say it has none."""
        self.undo_floor = self.state.plies

    def _welcome(self, conn: Connection, seat: int | None) -> None:
        view, legal = self.view_for(seat)
        conn.send(Welcome(table=self.info(), seat=seat, stateVersion=self.version, view=view, legal=legal,
                          canUndo=self.can_undo(seat), match=self.match_info()))
        if self.state.result is not None and (self.status == "finished" or self.between_games()):
            conn.send(self._game_over())

    async def detach(self, conn: Connection) -> None:
        """A connection went away. A seat left with no connection starts its grace time."""
        async with self.lock:
            if conn in self.spectators:
                self.spectators.discard(conn)
                return
            if conn.seat is None:
                return
            seat = self.seats[conn.seat]
            seat.conns.discard(conn)
            if seat.conns or seat.controller != "person" or self.status in ("finished", "abandoned"):
                return
            grace = self.manager.config.grace_seconds
            self.tell("disconnected", seat.seat,
                      f"{seat.player} dropped from seat {seat.seat}; a bot takes over in {grace:g} s")
            if self.status == "playing":
                self._start_grace(seat)

    def _start_grace(self, seat: Seat) -> None:
        if seat.grace is None or seat.grace.done():
            seat.grace = asyncio.create_task(self._grace(seat), name=f"grace-{self.id}-{seat.seat}")

    def start_grace_timers(self) -> None:
        """Every person seat with no connection gets its grace time (at the start, after a restart)."""
        for s in self.seats:
            if s.controller == "person" and not s.conns:
                self._start_grace(s)

    async def _grace(self, seat: Seat) -> None:
        grace = self.manager.config.grace_seconds
        await asyncio.sleep(grace)
        async with self.lock:
            if seat.conns or seat.controller != "person" or self.status != "playing":
                return
            level = self.manager.config.replacement_level
            await self.store.write(Store.update_seat(self.id, seat.seat, controller="bot", level=level))
            seat.controller = "bot"
            seat.level = level
            seat.grace = None
            self._seat_changed_hands()
            log.info("table %s: seat %d (%s) gone for %g s; a %s bot takes it", self.id, seat.seat, seat.player,
                     grace, level)
            self.tell("takeover", seat.seat,
                      f"{seat.player} did not come back within {grace:g} s: a {level} bot plays seat {seat.seat}")
        self.schedule_bot()

    # ------------------------------------------------------------------ moves
    async def player_move(self, conn: Connection, move: str, version: int, msg_id: str | None) -> None:
        """A move sent by a seat's connection: checked, played, stored, acknowledged, broadcast."""
        if conn.seat is None:
            conn.error("not-your-seat", "spectators cannot move", msg_id=msg_id, version=self.version)
            return
        async with self.lock:
            if self._refuse_move(conn, msg_id, over=self.state.result is not None):
                pass
            elif version != self.version:
                conn.error("stale", f"the position has changed (now version {self.version}, your move was for "
                           f"{version}); sync and choose again", msg_id=msg_id, version=self.version)
            elif self.state.to_move != conn.seat:
                conn.error("not-your-turn", f"it is seat {self.state.to_move}'s turn", msg_id=msg_id,
                           version=self.version)
            else:
                await self._apply(conn.seat, move, conn=conn, msg_id=msg_id)

    def _refuse_move(self, conn: Connection, msg_id: str | None, *, over: bool) -> bool:
        """Tell ``conn`` why its seat may not move now (the table not started or over, or the seat not
        its to play); False when nothing stands in the way. The lock is held."""
        assert conn.seat is not None
        seat = self.seats[conn.seat]
        if self.status == "open":
            conn.error("not-started", "the game starts when every seat is taken", msg_id=msg_id,
                       version=self.version)
        elif self.status != "playing" or over:
            conn.error("game-over", "the game is over", msg_id=msg_id, version=self.version)
        elif seat.controller != "person" or conn not in seat.conns:
            conn.error("not-your-seat", "a bot plays this seat now", msg_id=msg_id, version=self.version)
        else:
            return False
        return True

    async def _apply(self, seat: int, text: str, *, conn: Connection | None = None, msg_id: str | None = None,
                     by_bot: bool = False) -> str:
        """Play, store, acknowledge and broadcast one move (the lock is held): ``ok``, ``illegal`` or
        ``storage`` (the database refused; the move was taken back)."""
        state = self.state
        try:
            state.play(text)
        except IllegalMoveError as exc:
            if conn is not None:
                conn.error("illegal", str(exc), msg_id=msg_id, version=self.version)
            else:
                log.error("table %s: the bot at seat %d chose an illegal move %r: %s", self.id, seat, text, exc)
            return "illegal"
        ply = len(state.history) - 1
        played = state.history[-1][0].text
        log_ = state.chance_log
        k = len(log_)
        while k and log_[k - 1][0] == ply:
            k -= 1
        shuffles = log_[k:]
        entries: list[Any] = [played, *({"shuffle": format_cards(cards)} for _, cards in shuffles)]
        insert = Store.insert_move(self.id, ply, seat, entries)
        write = insert
        over = state.result is not None
        match_after: Match | None = None
        if over:
            record = record_from_state(state, self.preset).to_json()
            match_data: dict[str, Any] | None = None
            if self.match is not None:
                match_after = self._match_with(state)
                match_data = match_json(match_after, self.game_ids)
            finish = Store.insert_game(self.id, self.game, self.preset, record, state.plies, state.turn,
                                       self._players(record.get("result") or {}),
                                       finish=match_after is None or match_after.is_over)
            table_id = self.id

            def both(c: Any) -> Any:
                insert(c)
                game_id = finish(c)
                if match_data is not None:  # the match's score, with this game, in the same commit
                    Store.update_table(table_id, match=json.dumps({**match_data,
                                                                   "gameIds": [*match_data["gameIds"], game_id]}))(c)
                return game_id

            write = both
        try:
            game_id = await self.store.write(write)
        except Exception as exc:
            state.undo()
            log.error("table %s: move %s could not be stored (%s); taken back", self.id, played, exc)
            if conn is not None:
                conn.error("storage", "the move could not be saved; try again", msg_id=msg_id, version=self.version)
            return "storage"
        self.version = self.version_base + state.plies
        self.moves_played += 1
        self.manager.moves_played += 1
        if by_bot or over or _reveals(state.history[-1]):
            self.undo_floor = state.plies
        if over:
            self.game_id = game_id
            if match_after is not None:
                self.match = match_after
                self.game_ids.append(game_id)
            if match_after is None or match_after.is_over:
                self.status = "finished"
        if conn is not None:
            conn.send(Ack(id=msg_id, move=played, stateVersion=self.version))
        self._broadcast_state(LastMove(seat=seat, move=played, byBot=by_bot))
        if over and self.status == "finished":
            self._finish()
        elif over:
            self._game_between()
        else:
            self.schedule_bot()
        return "ok"

    def _match_with(self, state: State) -> Match:
        """A copy of the match with the finished game ``state`` counted (the match itself changes only
        once that is stored)."""
        match = self.match
        assert match is not None
        after = Match(match.opts, match.seed, scores=list(match.scores), results=list(match.results),
                      starters=list(match.starters))
        after.finish_game(state)
        return after

    # ------------------------------------------------------------------ undo and hints
    async def player_undo(self, conn: Connection, version: int, msg_id: str | None) -> None:
        """``undo`` from a seat's connection: take back its last move if the rules allow (the module's text)."""
        if conn.seat is None:
            conn.error("not-your-seat", "spectators cannot undo", msg_id=msg_id, version=self.version)
            return
        async with self.lock:
            if self._refuse_move(conn, msg_id, over=self.state.result is not None):
                return
            if version != self.version:
                conn.error("stale", f"the position has changed (now version {self.version}, your undo was for "
                           f"{version}); sync and choose again", msg_id=msg_id, version=self.version)
            elif self.state.to_move != conn.seat:
                conn.error("not-your-turn", f"it is seat {self.state.to_move}'s turn: only the seat to move may take "
                           "back its own last move", msg_id=msg_id, version=self.version)
            elif not self.can_undo(conn.seat):
                conn.error("nothing-to-undo", "nothing to undo: only build plays of this turn, until a hidden card "
                           "shows (a stock play, a refilled hand)", msg_id=msg_id, version=self.version)
            else:
                await self._undo(conn.seat, conn, msg_id)

    async def _undo(self, seat: int, conn: Connection, msg_id: str | None) -> None:
        """Take back the last move (the lock is held): its row is deleted and ``version_base`` raised in
        one commit, then the mover gets ``ack`` (``undone``) and everyone the position before it."""
        state = self.state
        ply = state.plies - 1
        text = state.history[-1][0].text
        base = self.version_base + 2
        delete = Store.delete_moves(self.id, ply)
        bump = Store.update_table(self.id, version_base=base)

        def both(c: Any) -> None:
            delete(c)
            bump(c)

        try:
            await self.store.write(both)
        except Exception as exc:
            log.error("table %s: the undo of %s could not be stored (%s)", self.id, text, exc)
            conn.error("storage", "the undo could not be saved; try again", msg_id=msg_id, version=self.version)
            return
        state.undo()
        self.version_base = base
        self.version = base + state.plies
        log.info("table %s: seat %d took back %s", self.id, seat, text)
        conn.send(Ack(id=msg_id, move=text, stateVersion=self.version, undone=True))
        self._broadcast_state(LastMove(seat=seat, move=text, undone=True))

    async def player_hint(self, conn: Connection, msg_id: str | None) -> None:
        """``hint`` from a seat's connection: what the hint bot would play (thought out in a worker,
        from this seat's view only), answered to this connection alone."""
        if conn.seat is None:
            conn.error("not-your-seat", "spectators get no hints", msg_id=msg_id, version=self.version)
            return
        async with self.lock:
            if self._refuse_move(conn, msg_id, over=self.state.result is not None):
                return
            if self.state.to_move != conn.seat:
                conn.error("not-your-turn", f"it is seat {self.state.to_move}'s turn", msg_id=msg_id,
                           version=self.version)
                return
            view = self.state.view(conn.seat)
            version = self.version
        level = self.manager.config.hint_level
        try:
            move, why = await self.manager.bots.hint(self.id, level, view, f"{self.id}:hint:{version}")
        except Exception as exc:
            log.warning("table %s: no hint for seat %d (%s)", self.id, conn.seat, exc.__class__.__name__)
            conn.error("internal", "no hint this time: the bot did not answer", msg_id=msg_id, version=self.version)
            return
        conn.send(HintMessage(move=move, why=why, stateVersion=version, id=msg_id))

    # ------------------------------------------------------------------ match play
    def _game_between(self) -> None:
        """A game of a match ended and the match goes on: show it, then wait for ``next``."""
        assert self.state.result is not None and self.match is not None
        log.info("table %s: game %d over: %s; match %s to %d", self.id, len(self.match.results),
                 self.state.result.to_json(), "-".join(map(str, self.match.scores)), self.match.target)
        self.ready = set()
        self._next_at = None
        self.schedule_bot()  # the pause before the next game
        self.broadcast(self._game_over())

    async def player_next(self, conn: Connection, msg_id: str | None) -> None:
        """``next``: a seat is ready for the match's next game; it begins when every person seat is."""
        if conn.seat is None:
            conn.error("not-your-seat", "spectators do not start games", msg_id=msg_id, version=self.version)
            return
        async with self.lock:
            if not self.between_games():
                what = ("this table plays a single game" if self.match is None else
                        "the match is over" if self.match.is_over or self.status != "playing" else
                        "a game is in play")
                conn.error("no-next-game", f"there is no next game to start: {what}", msg_id=msg_id,
                           version=self.version)
                return
            seat = self.seats[conn.seat]
            if seat.controller != "person" or conn not in seat.conns:
                conn.error("not-your-seat", "a bot plays this seat now", msg_id=msg_id, version=self.version)
                return
            if seat.seat in self.ready:
                return
            self.ready.add(seat.seat)
            if self._everyone_ready():
                await self._next_game()
            else:
                self.tell("ready", seat.seat, f"{seat.player} is ready for the next game")

    def _everyone_ready(self) -> bool:
        return all(s.controller != "person" or s.seat in self.ready for s in self.seats)

    def _schedule_next(self, delay: float | None = None) -> None:
        """Between games: the next game begins after the pause, or at once when everyone is ready (a
        timer already running is never cancelled from here: only under the lock, in :meth:`_next_game`)."""
        assert self.match is not None
        ready = self._everyone_ready()
        if delay is None:
            if self._next_tasks and not ready:
                return
            config = self.manager.config
            people = any(s.controller == "person" for s in self.seats)
            delay = config.next_game_seconds if people and not ready else config.bot_delay
            self._next_at = time.monotonic() + delay
        task = asyncio.create_task(self._next_after(delay, len(self.match.results)), name=f"next-game-{self.id}")
        self._next_tasks.add(task)
        task.add_done_callback(self._next_tasks.discard)

    async def _next_after(self, delay: float, finished: int) -> None:
        """After ``delay``: the next game, if the table still waits after game ``finished``."""
        await asyncio.sleep(delay)
        async with self.lock:
            if self.match is None or len(self.match.results) != finished:
                return
            try:
                await self._next_game()
            except Exception:
                log.exception("table %s: the next game could not begin", self.id)

    async def _next_game(self) -> None:
        """Deal the match's next game (the lock is held): stored first (the finished game's moves go,
        the new start comes), then everyone gets the new position at the next ``stateVersion``."""
        if not self.between_games():
            return
        match = self.match
        assert match is not None
        # as Match.start_game deals it (without touching the match: a failed commit leaves it as it was)
        state = State.new(match.opts, match.game_seed(len(match.results)), first=match.next_starter())
        leading = [entry for entry in state.record_moves() if isinstance(entry, dict)]
        start = {"deal": state.deal_json(), "leading": leading, "seed": state.seed}
        base = self.version + 1
        forget = Store.delete_moves(self.id)
        begin = Store.update_table(self.id, start=json.dumps(start), version_base=base, plies=0)

        def both(c: Any) -> None:
            forget(c)
            begin(c)

        try:
            await self.store.write(both)
        except Exception as exc:
            log.error("table %s: the next game could not be stored (%s); trying again", self.id, exc)
            self._next_at = time.monotonic() + 2.0
            self._schedule_next(2.0)
            return
        me = asyncio.current_task()
        for task in list(self._next_tasks):  # other timers sleep or wait for the lock: safe to stop
            if task is not me:
                task.cancel()
        self._next_at = None
        self.state = state
        self.version_base = base
        self.version = base
        self.undo_floor = 0
        self.ready = set()
        self.game_id = None
        game = len(match.results) + 1
        starter = self.seats[state.to_move]
        log.info("table %s: game %d of the match begins (seat %d first)", self.id, game, state.to_move)
        self.tell("next-game", state.to_move, f"game {game} of the match begins: "
                  f"{starter.player or starter.player_name()} (seat {state.to_move}) plays first")
        self._broadcast_state(None)
        self.schedule_bot()

    def _players(self, result: dict[str, Any]) -> list[dict[str, Any]]:
        winner = result.get("winner")
        team = result.get("team")
        points = result.get("points") or 0
        partners = self.state.opts.partnerships
        out = []
        for s in self.seats:
            won = winner is not None and (s.seat % 2 == team if partners and team is not None else s.seat == winner)
            out.append({"seat": s.seat, "player": s.player_name(), "is_bot": s.kind == "bot", "won": won,
                        "points": points if won else 0})
        return out

    def _game_over(self) -> GameOver:
        result = self.state.result
        assert result is not None
        url = f"/api/games/{self.game_id}/record" if self.game_id is not None else None
        return GameOver(stateVersion=self.version, result=result.to_json(), gameId=self.game_id, recordUrl=url,
                        match=self.match_info())

    def _finish(self) -> None:
        assert self.state.result is not None
        log.info("table %s: game over after %d moves: %s (game %s)", self.id, self.version,
                 self.state.result.to_json(), self.game_id)
        self.broadcast(self._game_over())
        for s in self.seats:
            if s.grace is not None:
                s.grace.cancel()
                s.grace = None
        self.manager.finished(self)

    # ------------------------------------------------------------------ bots
    def schedule_bot(self) -> None:
        """Start the bot loop if a bot is to move and none is thinking (between a match's games: the
        pause before the next one)."""
        if self.between_games():
            self._schedule_next()
            return
        if self.status != "playing" or self.state.result is not None:
            return
        if self.seats[self.state.to_move].controller != "bot":
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.create_task(self._bot_loop(), name=f"bots-{self.id}")

    async def _bot_loop(self) -> None:
        """Play bot moves while a bot is to move (each decision off the event loop)."""
        try:
            await self._bot_moves()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot loop failed", self.id)

    async def _bot_moves(self) -> None:
        config = self.manager.config
        while True:
            async with self.lock:
                if self.status != "playing" or self.state.result is not None:
                    return
                seat = self.seats[self.state.to_move]
                if seat.controller != "bot":
                    return
                version = self.version
                view = self.state.view(seat.seat)
                level = seat.level or config.replacement_level
            if config.bot_delay > 0:
                await asyncio.sleep(config.bot_delay)
            text, _fallback = await self.manager.bots.decide(self.id, level, view, f"{self.id}:{version}")
            async with self.lock:
                if self.version != version or self.seats[seat.seat].controller != "bot" or self.status != "playing":
                    continue
                outcome = await self._apply(seat.seat, text, by_bot=True)
                if outcome == "illegal":
                    # never loop on a broken bot: the first legal move keeps the game going
                    outcome = await self._apply(seat.seat, self.state.legal_moves()[0].text, by_bot=True)
            if outcome == "storage":
                await asyncio.sleep(1.0)  # the database is in trouble: do not hammer it

    async def close(self) -> None:
        """Stop this table's tasks (server shutdown; everything is already stored)."""
        tasks = [t for t in (self._bot_task, *self._next_tasks, *(s.grace for s in self.seats)) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for conn in self.connections():
            conn.close(1001)
