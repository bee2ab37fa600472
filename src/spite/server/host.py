"""The table host: a table's core (:mod:`spite.server.table.core`) run against this process's
sockets, database and bot workers.

The host holds no rule of its own. It feeds the core one input at a time (a lock per table, so a
table's steps never interleave), runs the effects each step yields, and sleeps until the core's
next deadline:

* ``Send``/``Close`` go to the connection's own outgoing queue (:mod:`spite.server.connection`);
* ``Store`` is committed by the store's writer and its answer handed back to the step before
  anything else happens at the table (commit before acknowledge); a process that no longer holds
  the table (shut down, or another worker serves it now) answers it as failed;
* ``Think`` and ``Hint`` go to the bot workers (:class:`~spite.server.bots.BotRunner`), off the event
  loop; a bot's answer comes back as a ``Thought`` input, a hint goes to its asker;
* the time is the event loop's monotonic clock, and one timer per table wakes the core at its
  deadline with a ``Tick``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from spite.errors import Phrase
from spite.games import GameState
from spite.server.bots import BotRunner
from spite.server.config import ServerConfig
from spite.server.connection import Connection
from spite.server.protocol import HintMessage, TableInfo, Words
from spite.server.store import Store
from spite.server.table.core import TableCore
from spite.server.table.effects import (
    Close,
    Counted,
    Effect,
    Finished,
    Gone,
    Hint,
    Input,
    Leave,
    Retire,
    Send,
    Stored,
    Think,
    Thought,
    Tick,
)
from spite.server.table.effects import (
    Store as StoreRows,
)
from spite.server.table.fair import FairDeal
from spite.server.table.seats import Seat

__all__ = ["Conn", "Services", "TableHost"]

log = logging.getLogger("spite.server.table")

Conn = Connection["TableHost"]
"""A WebSocket connection at a table."""

@dataclass
class Services:
    """What a table needs of the server around it (and nothing more: no table knows the lobby)."""

    store: Store
    bots: BotRunner
    config: ServerConfig
    finished: Callable[[TableHost], None]
    """Called once a table's last game has ended and is stored."""
    counted: Callable[[], None]
    """Called for every move played (the server's move count)."""
    closed: Callable[[TableHost], None] = lambda table: None
    """Called once a table nobody plays at any more was closed (abandoned)."""
    may_write: Callable[[], bool] = lambda: True
    """Whether this process may still store moves (with several workers: its table leases surely hold)."""
    conflict: Callable[[TableHost], None] | None = None
    """With several workers: called when a move of the table could not be stored because another
    worker stored one at the same ply (it serves the table now)."""


class TableHost:
    """One table served by this process: its core, its connections, its timer."""

    def __init__(self, core: TableCore, services: Services) -> None:
        self.core = core
        self.services = services
        self.lock = asyncio.Lock()
        self.conns: dict[int, Conn] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._jobs: set[asyncio.Task[None]] = set()
        self.retired = False

    # ------------------------------------------------------------------ what the lobby reads
    @property
    def id(self) -> str:
        return self.core.id

    @property
    def status(self) -> str:
        return self.core.status

    @property
    def version(self) -> int:
        return self.core.version

    @property
    def state(self) -> GameState:
        return self.core.state

    @property
    def seats(self) -> list[Seat]:
        return self.core.seats

    @property
    def fair(self) -> FairDeal | None:
        return self.core.fair

    @property
    def created_at(self) -> float:
        return self.core.created_at

    @property
    def game_id(self) -> int | None:
        return self.core.game_id

    def info(self) -> TableInfo:
        return self.core.info()

    def connections(self) -> list[Conn]:
        """Every connection at this table."""
        return list(self.conns.values())

    @staticmethod
    def now() -> float:
        """The core's clock: the event loop's monotonic time."""
        return asyncio.get_running_loop().time()

    # ------------------------------------------------------------------ inputs
    def attach(self, conn: Conn) -> int:
        """A connection about to say hello here: its number at the table."""
        conn.table = self
        self.conns[conn.conn_id] = conn
        return conn.conn_id

    async def submit(self, inp: Input, at: float | None = None) -> Any:
        """Hand ``inp`` to the core and run what it does; returns the step's answer (and raises what
        the step raises, e.g. a refused join). ``at``: a tick's deadline (the loop may wake a timer a
        hair early: the core takes the tick as happening at its deadline)."""
        async with self.lock:
            if self.retired and not isinstance(inp, Retire):
                return None
            now = self.now() if at is None else max(self.now(), at)
            try:
                return await self._run(self.core.step(inp, now))
            finally:
                if isinstance(inp, Leave):
                    self.conns.pop(inp.conn, None)
                self._arm()

    async def _run(self, step: Any) -> Any:
        answer: Any = None
        while True:
            try:
                effect = step.send(answer)
            except StopIteration as done:
                return done.value
            answer = await self._perform(effect)

    async def _perform(self, effect: Effect) -> Any:
        if isinstance(effect, Send):
            conn = self.conns.get(effect.conn)
            if conn is not None:
                conn.send(effect.text)
        elif isinstance(effect, Close):
            conn = self.conns.get(effect.conn)
            if conn is not None:
                conn.close(effect.code)
        elif isinstance(effect, StoreRows):
            return await self._store(effect)
        elif isinstance(effect, Think):
            self._spawn(self._think(effect))
        elif isinstance(effect, Hint):
            self._spawn(self._hint(effect))
        elif isinstance(effect, Counted):
            self.services.counted()
        elif isinstance(effect, Finished):
            self.services.finished(self)
        elif isinstance(effect, Gone):
            self.services.closed(self)
        return None

    async def _store(self, effect: StoreRows) -> Stored:
        if self.retired or not self.services.may_write():  # shut down, or another worker serves it now
            log.info("table %s: a change after this process let go of the table; not stored", self.id)
            return Stored(False, error="this process no longer holds the table")
        try:
            answer = await self.services.store.write(Store.table_write(self.id, effect.rows))
        except Exception as exc:
            if isinstance(exc, IntegrityError) and self.services.conflict is not None:
                self.services.conflict(self)
            return Stored(False, error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        return answer if isinstance(answer, Stored) else Stored(True)

    # ------------------------------------------------------------------ time
    def _arm(self) -> None:
        """Wake the core at its next deadline (one timer per table)."""
        at = None if self.retired else self.core.deadline()
        if at == self._timer_at and (at is None or self._timer is not None):
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = at
        if at is not None:
            self._timer = asyncio.get_running_loop().call_at(at, self._tick)

    def _tick(self) -> None:
        at = self._timer_at
        self._timer, self._timer_at = None, None
        self._spawn(self._submit_quietly(Tick(), at))

    async def _submit_quietly(self, inp: Input, at: float | None = None) -> None:
        try:
            await self.submit(inp, at)
        except Exception:
            log.exception("table %s: a %s failed", self.id, type(inp).__name__)

    def start(self) -> None:
        """Let the table's timers run (after it was made or restored)."""
        self._arm()

    # ------------------------------------------------------------------ bots
    def _spawn(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _think(self, effect: Think) -> None:
        bots = self.services.bots
        if not effect.ask.legal:
            move = None
        else:
            move, _fallback = await bots.decide(self.id, effect.level, effect.ask, effect.key)
        await self._submit_quietly(Thought(effect.seat, effect.version, move))

    async def _hint(self, effect: Hint) -> None:
        conn = self.conns.get(effect.conn)
        try:
            move, why, phrases = await self.services.bots.hint(self.id, effect.level, effect.ask, effect.key)
        except Exception as exc:
            log.warning("table %s: no hint (%s)", self.id, exc.__class__.__name__)
            if conn is not None:
                conn.error("internal", "no hint this time: the bot did not answer", msg_id=effect.msg_id,
                           version=self.version, phrase=Phrase("error.no-hint-answer"))
            return
        if conn is not None:
            conn.send(HintMessage(move=move, why=why, stateVersion=effect.version, id=effect.msg_id,
                                  whyWords=[Words(key=p.key, params=dict(p.params)) for p in phrases]))

    # ------------------------------------------------------------------ the end
    async def close(self, code: int = 1001) -> None:
        """Stop this table here and close its sockets with ``code`` (1001: server shutdown; 1012:
        another worker serves the table now, reconnect); everything is already stored."""
        await self.submit(Retire(code))
        self.retired = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for task in list(self._jobs):
            if task is not asyncio.current_task():
                task.cancel()
        for conn in self.connections():
            conn.close(code)
