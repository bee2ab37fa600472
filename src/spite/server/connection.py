"""The transport: one WebSocket of a client, with its outgoing queue and its rate limit.

A connection knows nothing of games. A table host (:mod:`spite.server.host`) puts itself and the
seat the connection speaks for on it (:attr:`Connection.table`, :attr:`Connection.seat`) when the
client says hello; the type of that table is a parameter, so this module imports no table.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel

from spite.errors import Phrase
from spite.server.protocol import error_text

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from spite.server.limits import RateLimiter

__all__ = ["Connection"]

log = logging.getLogger("spite.server.table")

T = TypeVar("T")

_ids = itertools.count(1)


class Connection(Generic[T]):
    """One WebSocket: an outgoing queue drained by its own task (a slow client stalls nobody), a
    token bucket against floods (its own, or with ``limiter`` the one its client address shares
    with all of that address's sockets, so opening more sockets buys no more messages), and which
    table (a ``T``) and seat it speaks for."""

    MAX_QUEUE = 512

    def __init__(self, ws: WebSocket, rate: float, burst: float, *, limiter: RateLimiter | None = None,
                 address: str = "") -> None:
        self.ws = ws
        self._limiter = limiter
        self.address = address
        self.ip = ""
        """The client's own IP address (``address`` is what the limits count it under): for the bans."""
        self.table: T | None = None
        self.conn_id = next(_ids)
        """This connection's number (a table's core names connections by it)."""
        self.hello = False
        self.session: Any = None
        """The signed-in account's session the WebSocket was opened with (spite.server.accounts), or None."""
        self.closing = False
        self._queue: asyncio.Queue[str | _Unfinished | None] = asyncio.Queue()
        self._busy = False
        """The sender task is writing a message: later ones queue behind it."""
        self._rate = rate
        self._burst = burst
        self._tokens = burst
        self._stamp = time.monotonic()
        self.close_code = 1000

    def allow(self) -> bool:
        """Take a token for one incoming message; ``False`` when the client floods."""
        if self._limiter is not None:
            return self._limiter.take(self.address) == 0.0
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def send(self, msg: BaseModel | str) -> None:
        """Send a message (a model or its JSON text) now if the socket takes it at once, else queue it.

        Sent now: with nothing queued before it, the frame is written into the socket's buffer here
        (the transport's send runs to its end without waiting unless the client reads too slowly),
        which spares a wake-up of the sender task and two queue operations a message, three messages a
        move. Should the send have to wait (the socket's buffer is full), the sender task finishes it,
        and every later message queues behind it: the order never changes."""
        if self.closing:
            return
        text = msg if isinstance(msg, str) else msg.model_dump_json()
        if not self._busy and self._queue.empty():
            sending = self.ws.send_text(text)
            try:
                waiting = sending.send(None)
            except StopIteration:
                return
            except Exception:  # the client went away; the receive loop notices too
                self.closing = True
                self._queue.put_nowait(None)
                return
            self._queue.put_nowait(_Unfinished(sending, waiting))
            return
        self._queue.put_nowait(text)
        if self._queue.qsize() > self.MAX_QUEUE:
            log.warning("a client reads too slowly (%d messages waiting); closing it", self._queue.qsize())
            self.close(1008)

    def error(self, code: str, message: str, *, msg_id: str | None = None, version: int | None = None,
              phrase: Phrase | None = None) -> None:
        """Queue an error message (:func:`spite.server.protocol.error_text`)."""
        self.send(error_text(code, message, msg_id=msg_id, version=version, phrase=phrase))

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
                item = await self._queue.get()
                if item is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(self.close_code)
                    return
                self._busy = True
                if isinstance(item, _Unfinished):
                    await item.finish()
                else:
                    await self.ws.send_text(item)
                self._busy = False
        except Exception:  # the client went away; the receive loop notices too
            self.closing = True


class _Unfinished:
    """A send begun in :meth:`Connection.send` that had to wait (for ``waiting``, what it awaited):
    the sender task runs it to its end."""

    __slots__ = ("sending", "waiting")

    def __init__(self, sending: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.sending = sending
        self.waiting = waiting

    async def finish(self) -> None:
        waiting = self.waiting
        try:
            while True:
                if isinstance(waiting, asyncio.Future):
                    with contextlib.suppress(Exception):  # (what it raised is raised in the send, resumed)
                        await waiting
                else:  # a bare yield: one turn of the loop
                    await asyncio.sleep(0)
                try:
                    waiting = self.sending.send(None)
                except StopIteration:
                    return
        finally:
            self.sending.close()
