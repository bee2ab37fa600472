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
from typing import TYPE_CHECKING, Generic, TypeVar

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
        self.table: T | None = None
        self.conn_id = next(_ids)
        """This connection's number (a table's core names connections by it)."""
        self.hello = False
        self.closing = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
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
        """Queue a message (a model or its JSON text)."""
        if self.closing:
            return
        self._queue.put_nowait(msg if isinstance(msg, str) else msg.model_dump_json())
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
                text = await self._queue.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(self.close_code)
                    return
                await self.ws.send_text(text)
        except Exception:  # the client went away; the receive loop notices too
            self.closing = True
