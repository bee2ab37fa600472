"""A Spit or Speed table in real time: the server's clock drives the engine.

Each playing table has one timer task. The game clock is ms since the game began, read from the
event loop's monotonic clock. A new game begins with a countdown ("one, two, three — spit!",
``ServerConfig.spit_countdown`` seconds after the last seat was taken): the clock stands at 0
until it ends, ``clock.startsIn`` says how long is left, and moves sent before then are refused
(``not-started``). After a restart the clock resumes at the time of the last stored entry (the
downtime does not count: nobody could move). The timer task
sleeps until the first of: the engine's next automatic event (``next_event_time()``: automatic
spit call, automatic slap, the time limit) and each bot's intended move (the reflex bots'
``plan``); a person's move wakes it so the bots re-plan at once.

Everything that changes the table happens under :attr:`Table.lock`, in arrival order: a move is
played at the clock's ``now`` (``advance(now)`` first, so what fell due before it happens first),
so two moves racing for one pile are decided by which reached the server first; the loser gets a
``too-late`` error with the engine's reason ("too late: center 1 is now 7S"). The new record
entries (moves with their ``t``, automatic moves, chance entries, the time-limit tick) are
committed before anything is acknowledged or broadcast; if the commit fails, the engine state is
put back. ``stateVersion`` is the number of record entries stored, so it survives restarts, and a
restart replays the stored entries (the record's own replayer) to the same state.

The reflex bots are cheap (microseconds per plan) and run on the event loop; each sees only its
seat's view, like any client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from typing import TYPE_CHECKING, Any

from spite.bots.reflex import ReflexBot, make_reflex_bot
from spite.errors import IllegalMoveError
from spite.records.spit import record_from_state
from spite.server.protocol import Ack, Clock, GameEvent, GameOver, LastMove, StateMessage, Welcome
from spite.server.store import Store
from spite.server.tables import Connection, Seat, Table
from spite.spit import AnyState, Event, SpitView

if TYPE_CHECKING:
    from spite.server.manager import Manager

__all__ = ["SPIT_LEVEL_FOR", "SpitTable", "spit_level"]

log = logging.getLogger("spite.server.spit")

SPIT_LEVEL_FOR = {"random": "beginner", "easy": "beginner", "medium": "club", "hard": "expert", "expert": "expert"}
"""The reflex bot that takes a dropped Spit seat, for the server's (Spite and Malice) replacement level."""


def spit_level(level: str | None) -> str:
    """A reflex bot spec for ``level`` (a Spit level as it is, a Spite and Malice level mapped)."""
    if level is None:
        return "club"
    return SPIT_LEVEL_FOR.get(level, level)


class SpitTable(Table):
    """A Spit or Speed table served by this process (see the module's text)."""

    def __init__(self, manager: Manager, *, table_id: str, game: str, preset: str, options: dict[str, Any],
                 seed: int | str, state: AnyState, stored: int, rows: int, seats: list[Seat], status: str,
                 created_at: float) -> None:
        super().__init__(manager, table_id=table_id, preset=preset, options=options, seed=seed, state=state,
                         seats=seats, status=status, created_at=created_at, game=game, version=stored)
        self.rt: AnyState = state
        self._stored = stored
        self._rows = rows
        self._t0: float | None = None
        self._go: float = 0.0  # the loop time at which play may begin (the end of the countdown)
        self._wake = asyncio.Event()
        self._timer: asyncio.Task[None] | None = None
        self._bots: dict[int, tuple[str, ReflexBot, random.Random]] = {}
        self._intents: dict[int, tuple[int, str]] = {}

    # ------------------------------------------------------------------ the clock
    def now_ms(self) -> int:
        """The game clock (ms); starts on first use, at the state's own time (0, or the stored time).

        A game that has not begun yet (nothing stored) starts after the countdown; until then the
        clock stands at 0."""
        loop = asyncio.get_running_loop()
        if self._t0 is None:
            countdown = self.manager.config.spit_countdown if self._stored == 0 and self.rt.now == 0 else 0.0
            self._go = loop.time() + countdown
            self._t0 = self._go - self.rt.now / 1000
        return max(self.rt.now, int((loop.time() - self._t0) * 1000))

    def starts_in_ms(self) -> int:
        """Milliseconds left of the countdown before play begins (0 once it has)."""
        if self._t0 is None:
            self.now_ms()
        return max(0, int((self._go - asyncio.get_running_loop().time()) * 1000))

    def _clock(self) -> Clock:
        view = self.rt.view(None)
        now = self.now_ms() if self.status == "playing" else self.rt.now
        starts_in = self.starts_in_ms() if self.status == "playing" else 0
        rounds = [p.rounds_won for p in view.players] if isinstance(view, SpitView) else None
        return Clock(now=now, phase=view.phase, playFrom=view.play_from, roundWinner=view.round_winner,  # type: ignore[arg-type]
                     nextEvent=self.rt.next_event_time(), startsIn=starts_in or None, roundsWon=rounds)

    # ------------------------------------------------------------------ what clients see
    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The view JSON of ``seat`` (``None``: spectator) and its legal moves."""
        view = self.rt.view(seat)
        return view.to_json(), list(view.legal)

    def state_message(self, seat: int | None, last: LastMove | None = None) -> StateMessage:
        """A ``state`` message for ``seat`` (with the clock)."""
        view, legal = self.view_for(seat)
        return StateMessage(stateVersion=self.version, view=view, legal=legal, last=last, clock=self._clock())

    def _welcome(self, conn: Connection, seat: int | None) -> None:
        view, legal = self.view_for(seat)
        conn.send(Welcome(table=self.info(), seat=seat, stateVersion=self.version, view=view, legal=legal,
                          clock=self._clock()))
        if self.status == "finished" and self.rt.result is not None:
            conn.send(self._game_over())

    def _broadcast_events(self, events: list[Event], last: LastMove | None) -> None:
        evs = [GameEvent(t=e.t, kind=e.kind, seat=e.seat, text=e.text, auto=e.auto).model_dump()  # type: ignore[arg-type]
               for e in events]
        clock = self._clock().model_dump()
        head = {"type": "state", "stateVersion": self.version}
        tail = {"last": last.model_dump() if last is not None else None, "events": evs, "clock": clock}

        def text(seat: int | None) -> str:
            view, legal = self.view_for(seat)
            return json.dumps({**head, "view": view, "legal": legal, **tail}, separators=(",", ":"))

        for s in self.seats:
            if s.conns:
                msg = text(s.seat)
                for conn in s.conns:
                    conn.send(msg)
        if self.spectators:
            msg = text(None)
            for conn in self.spectators:
                conn.send(msg)

    def _game_over(self) -> GameOver:
        result = self.rt.result
        assert result is not None
        url = f"/api/games/{self.game_id}/record" if self.game_id is not None else None
        return GameOver(stateVersion=self.version, result=dict(result), gameId=self.game_id, recordUrl=url)

    # ------------------------------------------------------------------ moves
    async def player_move(self, conn: Connection, move: str, version: int, msg_id: str | None) -> None:
        """A person's move: played at the moment it arrives (``stateVersion`` is not checked: in
        real time the engine decides races, and a refused move is told why)."""
        if conn.seat is None:
            conn.error("not-your-seat", "spectators cannot move", msg_id=msg_id, version=self.version)
            return
        async with self.lock:
            if not self._refuse_move(conn, msg_id, over=self.rt.result is not None):
                wait = self.starts_in_ms() if self.status == "playing" else 0
                if wait:
                    conn.error("not-started", f"the game starts in {wait / 1000:.1f} s", msg_id=msg_id,
                               version=self.version)
                else:
                    await self._play(conn.seat, move, conn=conn, msg_id=msg_id)
        self._wake.set()

    async def _play(self, seat: int | None, move: str | None, *, conn: Connection | None = None,
                    msg_id: str | None = None, by_bot: bool = False) -> tuple[str, str]:
        """Let the time pass to now and play ``move`` for ``seat`` (``None``: only the time), store
        what happened, then acknowledge and broadcast (the lock is held). Returns (``ok`` |
        ``refused`` | ``storage`` | ``idle``, the reason of a refusal)."""
        before = self.rt.copy()
        now = self.now_ms()
        events = self.rt.advance(now)
        outcome, reason = "idle", ""
        if seat is not None and move is not None:
            try:
                events.extend(self.rt.apply(seat, move, now))
                outcome = "ok"
            except IllegalMoveError as exc:
                outcome, reason = "refused", str(exc)
        if events:
            entries = self.rt.to_record_moves()[self._stored:]
            try:
                game_id = await self.store.write(self._write(seat if seat is not None else -1, entries))
            except Exception as exc:
                self.rt = before
                log.error("table %s: %d entries could not be stored (%s); taken back", self.id, len(entries), exc)
                if conn is not None:
                    conn.error("storage", "the move could not be saved; try again", msg_id=msg_id,
                               version=self.version)
                return "storage", ""
            self._stored += len(entries)
            self._rows += 1
            self.version = self._stored
            if self.rt.result is not None:
                self.game_id = game_id
        if outcome == "ok":
            self.moves_played += 1
            self.manager.moves_played += 1
        if conn is not None:
            if outcome == "ok":
                conn.send(Ack(id=msg_id, move=move or "", stateVersion=self.version, t=now))
            elif outcome == "refused":
                code = "too-late" if reason.startswith("too late") else "illegal"
                conn.error(code, reason, msg_id=msg_id, version=self.version)
        if events:
            last = LastMove(seat=seat, move=move, byBot=by_bot) if outcome == "ok" and seat is not None and move \
                else None
            self._broadcast_events(events, last)
            if self.rt.result is not None:
                self.status = "finished"
                self._finish()
        return outcome, reason

    # ------------------------------------------------------------------ what only a turn game has
    # Table's hints, undo and match play are about turns, plies and whole games in a row; a real-time
    # table has none of them, and says so here rather than running the inherited code on a SpitState.
    def _no_turn_play(self, conn: Connection, what: str, msg_id: str | None) -> None:
        conn.error("bad-message", f"{what}: Spit and Speed tables have no hints, undo or matches", msg_id=msg_id,
                   version=self.version)

    async def player_hint(self, conn: Connection, msg_id: str | None) -> None:
        """Refused: no hints in real time."""
        self._no_turn_play(conn, "hint", msg_id)

    async def player_undo(self, conn: Connection, version: int, msg_id: str | None) -> None:
        """Refused: a card played in real time stays played."""
        self._no_turn_play(conn, "undo", msg_id)

    async def player_next(self, conn: Connection, msg_id: str | None) -> None:
        """Refused: a Spit table plays one game."""
        self._no_turn_play(conn, "next", msg_id)

    def can_undo(self, seat: int | None) -> bool:
        return False

    def between_games(self) -> bool:
        return False

    def _seat_changed_hands(self) -> None:
        """Nothing to do: there is no undo to limit (the reflex bot of a seat is made afresh from its
        level when the timer re-plans)."""

    def _write(self, seat: int, entries: list[Any]) -> Any:
        insert = Store.insert_move(self.id, self._rows, seat, entries)
        if self.rt.result is None:
            return insert
        record = record_from_state(self.rt).to_json()
        plies = sum(1 for e in record["moves"] if "p" in e)
        rounds = getattr(self.rt, "round", 1)
        finish = Store.insert_game(self.id, self.game, self.preset, record, plies, rounds,
                                   self._players(record.get("result") or {}))

        def both(c: Any) -> Any:
            insert(c)
            return finish(c)

        return both

    def _players(self, result: dict[str, Any]) -> list[dict[str, Any]]:
        winner = result.get("winner")
        return [{"seat": s.seat, "player": s.player_name(), "is_bot": s.kind == "bot", "won": s.seat == winner,
                 "points": 1 if s.seat == winner else 0} for s in self.seats]

    def _finish(self) -> None:
        assert self.rt.result is not None
        log.info("table %s: game over at %d ms after %d entries: %s (game %s)", self.id, self.rt.now,
                 self.version, self.rt.result, self.game_id)
        self.broadcast(self._game_over())
        for s in self.seats:
            if s.grace is not None:
                s.grace.cancel()
                s.grace = None
        self._wake.set()
        self.manager.finished(self)

    # ------------------------------------------------------------------ the timer and the bots
    def schedule_bot(self) -> None:
        """Start the table's timer task (it drives the engine's timeouts and the bots)."""
        if self.status != "playing" or self.rt.result is not None:
            return
        if self._timer is None or self._timer.done():
            self._timer = asyncio.create_task(self._timer_loop(), name=f"clock-{self.id}")
        self._wake.set()

    def _bot(self, seat: Seat) -> tuple[ReflexBot, random.Random]:
        spec = spit_level(seat.level or self.manager.config.replacement_level)
        have = self._bots.get(seat.seat)
        if have is None or have[0] != spec:
            bot = make_reflex_bot(spec)
            bot.start_game(self.rt.options, seat.seat)
            have = (spec, bot, random.Random(f"{self.id}:{seat.seat}:{self.version}"))
            self._bots[seat.seat] = have
        return have[1], have[2]

    def _replan(self, now: int) -> None:
        self._intents.clear()
        for s in self.seats:
            if s.controller != "bot":
                self._bots.pop(s.seat, None)
                continue
            bot, rng = self._bot(s)
            plan = bot.plan(self.rt.view(s.seat), now, rng)
            if plan is not None:
                self._intents[s.seat] = (max(plan[0], now), plan[1])

    async def _timer_loop(self) -> None:
        try:
            while True:
                async with self.lock:
                    if self.status != "playing" or self.rt.result is not None:
                        return
                    self._wake.clear()
                    now = self.now_ms()
                    due = [(t, seat, move) for seat, (t, move) in self._intents.items() if t <= now]
                    nxt = self.rt.next_event_time()
                    if nxt is not None and nxt <= now:
                        await self._play(None, None)
                    for _t, seat, move in sorted(due):
                        if self.status != "playing" or self.seats[seat].controller != "bot":
                            continue
                        bot, _rng = self._bot(self.seats[seat])
                        outcome, reason = await self._play(seat, move, by_bot=True)
                        bot.outcome(move, outcome == "ok", reason, self.rt.now)
                        if outcome == "storage":
                            await asyncio.sleep(1.0)  # the database is in trouble: do not hammer it
                    if self.status != "playing" or self.rt.result is not None:
                        return
                    now = self.now_ms()
                    self._replan(now)
                    times = [t for t, _ in self._intents.values()]
                    nxt = self.rt.next_event_time()
                    if nxt is not None:
                        times.append(nxt)
                    delay = max(0.001, (min(times) - now) / 1000) if times else None
                    wait = self.starts_in_ms() / 1000
                    if wait:  # the countdown: nothing happens before it ends
                        delay = max(delay or 0.0, wait)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the clock task failed", self.id)

    async def close(self) -> None:
        """Stop this table's tasks (server shutdown; everything is already stored)."""
        tasks = [t for t in (self._timer, *(s.grace for s in self.seats)) if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for conn in self.connections():
            conn.close(1001)
