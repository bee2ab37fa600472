"""The transport: one WebSocket of a client, with its outgoing queue and its rate limit.

A connection knows nothing of games. A table host (:mod:`spite.server.host`) puts itself and the
seat the connection speaks for on it (:attr:`Connection.table`, :attr:`Connection.seat`) when the
client says hello; the type of that table is a parameter, so this module imports no table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING, Generic, TypeVar

from pydantic import BaseModel

from spite.errors import Phrase
from spite.server.protocol import ErrorMessage, Words

if TYPE_CHECKING:
    from starlette.websockets import WebSocket

    from spite.server.limits import RateLimiter

__all__ = ["Connection"]

log = logging.getLogger("spite.server.table")

T = TypeVar("T")


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
        self.seat: int | None = None
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
        """Queue an error message (text a client sent, echoed in it, cannot break the frame: a lone
        surrogate is no UTF-8 and would make the JSON unsendable, so it becomes "?"). ``phrase`` is
        the message as a catalogue key and parameters (``error.CODE`` when not given)."""
        phrase = phrase or Phrase(f"error.{code}")
        params = {k: _utf8(v) if isinstance(v, str) else v for k, v in phrase.params.items()}
        self.send(ErrorMessage(code=code, message=_utf8(message), id=None if msg_id is None else _utf8(msg_id),  # type: ignore[arg-type]
                               stateVersion=version, words=Words(key=phrase.key, params=params)))

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


def _utf8(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")
