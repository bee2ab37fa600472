"""Limits for a server on the open internet: token buckets per client address, and an ASGI
middleware that caps request bodies before anything parses them (docs/protocol.md, "Limits").

>>> rl = RateLimiter(rate=1.0, burst=2.0)
>>> rl.take("a", now=0.0), rl.take("a", now=0.0), rl.take("a", now=0.0)
(0.0, 0.0, 1.0)
>>> rl.take("b", now=0.0)  # another address has its own budget
0.0
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodyLimit", "RateLimiter", "client_address"]


def client_address(scope: Scope) -> str:
    """The peer's address (uvicorn has already put a trusted proxy's forwarded address here)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class RateLimiter:
    """One token bucket per key (a client address): ``rate`` tokens a second, at most ``burst``.

    Memory stays bounded without changing any answer: a bucket that has refilled to ``burst`` is the
    same as no bucket, so such buckets are dropped (the least recently used first, checked on every
    ``take``); and at most ``max_keys`` buckets are kept (beyond that the least recently used goes,
    which can only make the limit more lenient for an address that was idle longest)."""

    def __init__(self, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = max(1.0, burst)
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # key → (tokens, stamp)

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str, cost: float = 1.0, now: float | None = None) -> float:
        """Take ``cost`` tokens for ``key``: 0.0 when allowed, else the seconds until it would be."""
        now = time.monotonic() if now is None else now
        self._drop_idle(now)
        tokens, stamp = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        wait = 0.0
        if tokens >= cost:
            tokens -= cost
        else:
            wait = (cost - tokens) / self.rate if self.rate > 0 else float("inf")
        self._buckets[key] = (tokens, now)  # most recently used at the end
        while len(self._buckets) > self.max_keys:
            self._buckets.popitem(last=False)
        return wait

    def _drop_idle(self, now: float) -> None:
        # the front is the least recently used; stop at the first bucket that is not full yet
        for _ in range(8):  # a few per call: amortised O(1)
            if not self._buckets:
                return
            key, (tokens, stamp) = next(iter(self._buckets.items()))
            if tokens + (now - stamp) * self.rate < self.burst:
                return
            del self._buckets[key]


class BodyLimit:
    """Pure ASGI middleware: an HTTP request body longer than ``max_bytes`` is answered with 413
    before the app sees any of it — at once when ``Content-Length`` says so, else as soon as the
    streamed chunks add up to more (the rest is never read, so it never fills memory)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None:
            try:
                too_long = int(declared) > self.max_bytes
            except ValueError:
                await self._refuse(send, 400, "Content-Length is not a number")
                return
            if too_long:
                await self._refuse(send, 413, self._detail())
                return
        # read the whole body first (it is small by now), then hand it to the app in one piece
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send, 413, self._detail())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: wait for the disconnect, as the app expects

        await self.app(scope, replay, send)

    def _detail(self) -> str:
        return f"the request body is too long: at most {self.max_bytes} bytes"

    @staticmethod
    async def _refuse(send: Send, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        # Connection: close, so the client's unread rest of the body is not taken for a next request
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
