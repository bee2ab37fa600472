"""Spit and Speed at a server table, in real time: the server's clock drives the game.

Registered as the ``server`` hook of ``spit`` and ``speed`` (:data:`SERVER`); the table host
(:mod:`spite.server.host`) does the rest. Each playing table has one timer task. The game clock is
ms since the game began, read from the event loop's monotonic clock. A new game begins with a
countdown ("one, two, three — spit!", ``ServerConfig.spit_countdown`` seconds after the last seat was
taken): the clock stands at 0 until it ends, ``clock.startsIn`` says how long is left, and moves
sent before then are refused (``not-started``); until then every view shows the center piles face
down (sizes only) with no legal moves, and a ``state`` at the end turns them up for everyone at
once. After a restart the clock resumes at the time of
the last stored entry (the downtime does not count: nobody could move). The timer task sleeps until
the first of: the game's next automatic event (``next_event_time()``: automatic spit call,
automatic slap, the time limit) and each bot's intended move (the reflex bots' ``plan``); a
person's move wakes it so the bots re-plan at once.

A move is played at the clock's ``now`` (the host lets the time pass to it first, so what fell due
before it happens first), in arrival order under the table's lock, so two moves racing for one pile
are decided by which reached the server first; the loser gets a ``too-late`` error with the
engine's reason ("too late: center 1 is now 7S"). ``stateVersion`` is not checked (in real time the
engine decides races) and is the number of record entries stored, so it survives restarts.

The reflex bots are cheap (microseconds per plan) and run on the event loop; each sees only its
seat's view, like any client. Spit and Speed tables have no hints, undo or matches: this play
implements none of them, and the host says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Sequence
from typing import Any

from spite.bots.reflex import ReflexBot, make_reflex_bot
from spite.errors import OptionsError, Phrase
from spite.games import Event, GameState, Record
from spite.server.config import BOT_LEVELS
from spite.server.host import Conn, LobbyError, Seat, ServerGame, Table, TablePlay
from spite.server.protocol import Clock, GameEvent
from spite.server.store import StoredTable
from spite.spit import AnyState
from spite.spit.record import positions, steps

__all__ = ["SERVER", "SPIT_LEVEL_FOR", "SpitPlay", "SpitServer", "spit_level"]

log = logging.getLogger("spite.server.spit")

SPIT_LEVEL_FOR = {"random": "beginner", "easy": "beginner", "medium": "club", "hard": "expert", "expert": "expert"}
"""The reflex bot that takes a dropped Spit seat, for the server's (Spite and Malice) replacement level."""


def spit_level(level: str | None) -> str:
    """A reflex bot spec for ``level`` (a Spit level as it is, a Spite and Malice level mapped)."""
    if level is None:
        return "club"
    return SPIT_LEVEL_FOR.get(level, level)


class SpitServer(ServerGame):
    """Opens and restores Spit and Speed tables (the host's defaults: a deal, then replay)."""

    title = "Spit and Speed"
    default_level = "club"
    levels = ("beginner", "club", "expert")
    page = "spit"
    rules = "spit"

    def check_bot(self, game: str, level: str | None) -> None:
        if level is None or (level in BOT_LEVELS and level != "expert"):
            raise LobbyError(f"a {game} bot seat needs a level (beginner, club, expert or reflex:MS)", 400,
                             "lobby.reflex-level", game=game)
        try:
            make_reflex_bot(level)
        except OptionsError as exc:
            raise LobbyError(str(exc)) from None

    def restored_version(self, st: StoredTable, state: GameState) -> int:
        # version_base: a rematch's game goes on from one past the last version of the game before
        return st.version_base + sum(len(entries) for entries in st.moves)

    def play(self, table: Table, extra: Any) -> SpitPlay:
        return SpitPlay(table)

    def positions(self, record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return positions(record)


SERVER = SpitServer()
"""The ``server`` hook of ``spit`` and ``speed``."""


class SpitPlay(TablePlay):
    """Spit or Speed at one table: the clock, the countdown and the reflex bots."""

    turn_clock = False  # no turns: the game's own timers (the slowpoke rule, the time limit) keep it going

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self._t0: float | None = None
        self._go: float = 0.0  # the loop time at which play may begin (the end of the countdown)
        self._countdown = 0.0  # the countdown this game began with (s; 0: none, e.g. after a restart)
        self._wake = asyncio.Event()
        self._timer: asyncio.Task[None] | None = None
        self._bots: dict[int, tuple[str, ReflexBot, random.Random]] = {}
        self._intents: dict[int, tuple[int, str]] = {}
        self._shown_at_go = False  # the state that turns the center cards up has gone out
        self._log: tuple[GameState, int, list[dict[str, Any]]] | None = None  # move_log's last answer

    # ------------------------------------------------------------------ the clock
    def now_ms(self) -> int:
        """The game clock (ms); starts on first use, at the state's own time (0, or the stored time).

        A game that has not begun yet (nothing stored) starts after the countdown; until then the
        clock stands at 0."""
        state = self.table.state
        loop = asyncio.get_running_loop()
        if self._t0 is None:
            countdown = self.table.config.spit_countdown if self.table.entries == 0 and state.now == 0 else 0.0
            self._countdown = countdown
            self._go = loop.time() + countdown
            self._t0 = self._go - state.now / 1000
        return max(state.now, int((loop.time() - self._t0) * 1000))

    def starts_in_ms(self) -> int:
        """Milliseconds left of the countdown before play begins (0 once it has)."""
        if self._t0 is None:
            self.now_ms()
        return max(0, int((self._go - asyncio.get_running_loop().time()) * 1000))

    def _clock(self) -> Clock:
        table = self.table
        state = table.state
        engine: AnyState = state.engine  # a Spit or Speed table's engine state
        view = engine.view(None)
        now = self.now_ms() if table.status == "playing" else state.now
        starts_in = self.starts_in_ms() if table.status == "playing" else 0
        rounds = view.rounds_won  # None: Speed has no rounds
        return Clock(now=now, phase=view.phase, playFrom=view.play_from, roundWinner=view.round_winner,  # type: ignore[arg-type]
                     nextEvent=state.next_event_time(), startsIn=starts_in or None,
                     roundsWon=list(rounds) if rounds is not None else None)

    # ------------------------------------------------------------------ what clients see
    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        view = self.table.state.view(seat)
        out = view.to_json()
        if self.table.status == "playing" and self.starts_in_ms():
            # the countdown: the center cards are still face down (only their sizes show) and
            # nothing is legal yet, so nobody can plan a move before "go" (the state at go shows them)
            out["centers"] = [{"top": None, "cards": c["cards"]} for c in out["centers"]]
            out["stuck"] = False
            return out, []
        return out, list(view.legal)  # type: ignore[attr-defined]

    def undealt_view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        out = self.table.state.view(None).to_json()
        # before the deal (docs/fairness.md) every card lies face down: only the piles' sizes show
        out["centers"] = [{"top": None, "cards": c["cards"]} for c in out["centers"]]
        for player in out["players"]:
            if "tableau" in player:
                player["tableau"] = [{"top": None, "cards": t["cards"]} for t in player["tableau"]]
        out["stuck"] = False
        return out, []

    def fields(self, seat: int | None) -> dict[str, Any]:
        return {"clock": self._clock()}

    def move_log(self) -> list[dict[str, Any]]:
        # the record replayed (a long game's takes some 40 ms), once per change: every page that
        # comes back after a restart asks for the same
        table = self.table
        if self._log is None or self._log[0] is not table.state or self._log[1] != table.entries:
            self._log = (table.state, table.entries, steps(table.state.to_record()))
        return self._log[2]

    def shared_fields(self, events: Sequence[Event]) -> dict[str, Any]:
        evs = [GameEvent(t=e.t, kind=e.kind, seat=e.seat, text=e.text,  # type: ignore[arg-type]
                         auto=getattr(e, "auto", False)).model_dump() for e in events]
        return {"events": evs, "clock": self._clock().model_dump()}

    # ------------------------------------------------------------------ moves
    def may_move(self, conn: Conn, version: int, msg_id: str | None) -> bool:
        """Any time once the countdown is over (``version`` is not checked: the engine decides races)."""
        wait = self.starts_in_ms() if self.table.status == "playing" else 0
        if wait:
            conn.error("not-started", f"the game starts in {wait / 1000:.1f} s", msg_id=msg_id,
                       version=self.table.version, phrase=Phrase("error.not-started.in", {"s": f"{wait / 1000:.1f}"}))
            return False
        return True

    def dealt(self) -> None:
        # the game begins now: its countdown starts with the deal (a clock read before is forgotten)
        self._t0 = None
        self._shown_at_go = False

    def ack_time(self, now: int) -> int | None:
        return now  # when the move landed: the client's measure of the race

    def entries(self, events: Sequence[Event]) -> tuple[list[Any], int]:
        new = self.table.state.engine.to_record_moves()[self.table.entries:]
        return new, len(new)

    def turns(self) -> int:
        return int(getattr(self.table.state.engine, "round", 1))

    # ------------------------------------------------------------------ the timer and the bots
    def schedule(self) -> None:
        """Start the table's timer task (it drives the game's timeouts and the bots)."""
        table = self.table
        if table.status != "playing" or table.state.is_over:
            return
        if self._timer is None or self._timer.done():
            self._timer = asyncio.create_task(self._timer_loop(), name=f"clock-{table.id}")
        self._wake.set()

    def poke(self) -> None:
        self._wake.set()

    def finished(self) -> None:
        self._wake.set()

    def tasks(self) -> list[asyncio.Task[Any]]:
        return [self._timer] if self._timer is not None else []

    def _bot(self, seat: Seat) -> tuple[ReflexBot, random.Random]:
        spec = spit_level(seat.level or self.table.config.replacement_level)
        have = self._bots.get(seat.seat)
        if have is None or have[0] != spec:
            bot = make_reflex_bot(spec)
            bot.start_game(self.table.state.engine.options, seat.seat)
            have = (spec, bot, random.Random(f"{self.table.id}:{seat.seat}:{self.table.version}"))
            self._bots[seat.seat] = have
        return have[1], have[2]

    def _replan(self, now: int) -> None:
        self._intents.clear()
        for s in self.table.seats:
            if s.controller != "bot":
                self._bots.pop(s.seat, None)
                continue
            bot, rng = self._bot(s)
            plan = bot.plan(self.table.state.view(s.seat), now, rng)  # type: ignore[arg-type]
            if plan is not None:
                self._intents[s.seat] = (max(plan[0], now), plan[1])

    async def _timer_loop(self) -> None:
        table = self.table
        try:
            while True:
                async with table.lock:
                    if table.status != "playing" or table.state.is_over:
                        return
                    self._wake.clear()
                    now = self.now_ms()
                    if not self._shown_at_go and not self.starts_in_ms():
                        # "go": everyone gets the center cards and their legal moves at the same moment
                        self._shown_at_go = True
                        if self._countdown and table.entries == 0:
                            table.broadcast_state(None)
                    due = [(t, seat, move) for seat, (t, move) in self._intents.items() if t <= now]
                    nxt = table.state.next_event_time()
                    if nxt is not None and nxt <= now:
                        await table.apply(None, None)
                    for _t, seat, move in sorted(due):
                        if table.status != "playing" or table.seats[seat].controller != "bot":
                            continue
                        bot, _rng = self._bot(table.seats[seat])
                        outcome, reason = await table.apply(seat, move, by_bot=True)
                        bot.outcome(move, outcome == "ok", reason, table.state.now)
                        if outcome == "storage":
                            await asyncio.sleep(1.0)  # the database is in trouble: do not hammer it
                    if table.status != "playing" or table.state.is_over:
                        return
                    now = self.now_ms()
                    self._replan(now)
                    times = [t for t, _ in self._intents.values()]
                    nxt = table.state.next_event_time()
                    if nxt is not None:
                        times.append(nxt)
                    delay = max(0.001, (min(times) - now) / 1000) if times else None
                    wait = self.starts_in_ms() / 1000
                    if wait:  # the countdown: nothing happens before it ends, and at its end the
                        delay = wait  # state that turns the center cards up goes out (then re-plan)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), delay)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the clock task failed", table.id)
