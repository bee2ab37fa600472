"""Limits for a server on the open internet: token buckets per client address, and raw ASGI
middlewares that refuse before anything routes or parses a request (docs/protocol.md, "Limits"):
REST writes over their address's budget (:class:`WriteLimit`), request bodies that are too long
(:class:`BodyLimit`) and WebSocket handshakes from an address that has too many sockets open or is
cooling down after a message flood (:class:`SocketGate`). A refusal there costs a few dict look-ups
and one small answer, not a route, a dependency or a model.

>>> rl = RateLimiter(rate=1.0, burst=2.0)
>>> rl.take("a", now=0.0), rl.take("a", now=0.0), rl.take("a", now=0.0)
(0.0, 0.0, 1.0)
>>> rl.take("b", now=0.0)  # another address has its own budget
0.0
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import time
from collections import OrderedDict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["STOP_READING", "BodyLimit", "RateLimiter", "RefusalLogFilter", "SocketBook", "SocketGate", "WriteLimit",
           "client_address"]


def client_address(scope: Scope) -> str:
    """The peer's address as the limits count it (uvicorn has already put a trusted proxy's
    forwarded address here): an IPv4 address as it is, an IPv6 address as its /64 network, since one
    subscriber usually holds a whole /64 and could take a fresh address from it for every request."""
    client = scope.get("client")
    return limit_key(str(client[0])) if client else "unknown"


def limit_key(address: str) -> str:
    """What the limits count ``address`` under: IPv4 as it is, IPv6 by its /64 (an IPv4-mapped IPv6
    address as the IPv4 address it maps).

    >>> limit_key("203.0.113.7"), limit_key("2001:db8:1:2:aaaa::1"), limit_key("::ffff:203.0.113.7")
    ('203.0.113.7', '2001:db8:1:2::/64', '203.0.113.7')
    >>> limit_key("unix-socket")
    'unix-socket'
    """
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # (a zone index, fe80::1%eth0, is no part of it)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


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


def _json_answer(status: int, detail: str, code: str | None = None,
                 retry_after: float | None = None, close: bool = False) -> tuple[list[tuple[bytes, bytes]], bytes]:
    """The headers and body of a small JSON refusal (``Retry-After`` in whole seconds, at least 1)."""
    body = json.dumps({"detail": detail, **({"code": code} if code else {})}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(max(1, int(retry_after + 0.999))).encode()))
    if close:
        headers.append((b"connection", b"close"))
    return headers, body


WRITE_PATHS = re.compile(r"/api/(?:tables|quickplay|seeks|tables/[^/]+/join|tournaments|tournaments/[^/]+/join|reports|"
                         r"players/me/(?:export|delete))/?")
"""The REST writes that take a token of their address's budget (``POST`` only)."""

THROTTLED = "too many requests from your address: wait a moment and try again"


class WriteLimit:
    """Pure ASGI middleware: a REST write (:data:`WRITE_PATHS`) over its address's budget is answered
    ``429`` with ``Retry-After`` at once, before routing, before its body is read or parsed.

    The connection is kept open (uvicorn drops the unread body once the answer is out and then
    reads the next request): closing it would only make the client's next request cost a new TCP
    connection here too. (Measured with ``examples/refusal_cost.py`` on a loaded machine, closing
    bought no fewer refusals a second and cost the server a little more per refusal.)"""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and WRITE_PATHS.fullmatch(scope["path"]):
            wait = self.limiter.take(client_address(scope))
            if wait > 0:
                headers, body = _json_answer(429, THROTTLED, retry_after=wait)
                await send({"type": "http.response.start", "status": 429, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


class SocketBook:
    """Which addresses may open a WebSocket: how many each has open (:attr:`open`, counted by
    :class:`SocketGate` from the handshake to the end of the socket) and which are cooling down
    after a message flood (:meth:`cool_down`). Memory stays bounded: a cool-down that has ended is
    forgotten, and at most ``max_keys`` addresses are cooling down at once (the oldest go first)."""

    def __init__(self, max_sockets: int, cooldown: float, max_keys: int = 100_000) -> None:
        self.max_sockets = max_sockets
        self.cooldown = cooldown
        self.max_keys = max_keys
        self.open: dict[str, int] = {}
        self._cooling: OrderedDict[str, float] = OrderedDict()  # address → until (monotonic), oldest first

    def cool_down(self, address: str, now: float | None = None) -> None:
        """Refuse new sockets from ``address`` for the next ``cooldown`` seconds (0: never)."""
        if self.cooldown <= 0:
            return
        now = time.monotonic() if now is None else now
        self._cooling.pop(address, None)
        self._cooling[address] = now + self.cooldown
        # every cool-down is as long: the front ends first
        while self._cooling and (len(self._cooling) > self.max_keys or next(iter(self._cooling.values())) <= now):
            self._cooling.popitem(last=False)

    def cooling(self, address: str, now: float | None = None) -> float:
        """Seconds ``address`` is still cooling down (0.0: it is not)."""
        until = self._cooling.get(address)
        if until is None:
            return 0.0
        left = until - (time.monotonic() if now is None else now)
        if left <= 0:
            del self._cooling[address]
            return 0.0
        return left

    def refusal(self, address: str) -> tuple[str, str, float] | None:
        """Why a new socket from ``address`` is refused now (code, one line, seconds to wait), or ``None``."""
        left = self.cooling(address)
        if left > 0:
            return "flood", f"your address sent too many messages: no new connections for {left:.0f} s", left
        if self.open.get(address, 0) >= self.max_sockets:
            return "too-many-sockets", f"at most {self.max_sockets} open connections from one address", 1.0
        return None


STOP_READING = "spite.stop_reading"
"""The key of a WebSocket scope whose value, when there, stops reading from the connection and
closes it soon (see :func:`_stop_reading`)."""

CLOSE_GRACE = 1.0
"""Seconds a flooding socket's client has to read its error and close frames before its TCP
connection is closed."""


def _stop_reading(receive: Receive) -> Callable[[], None] | None:
    """What stops reading a WebSocket's TCP connection and closes it soon, if the server lets us
    find it.

    A socket closed for flooding must cost nothing more, but after the close frame the server goes
    on reading: it parses (and drops) every frame the flooder had already sent, up to its answer to
    the close, for up to 10 s (uvicorn). uvicorn hands the app its protocol's own bound ``receive``,
    whose ``transport`` can stop reading: the frames written (the error, the close) still go out,
    what the flooder sends meanwhile waits unparsed in the kernel's buffers (TCP's flow control stops
    it), and after :data:`CLOSE_GRACE` the connection is closed. (Closed at once it would be reset
    with the flooder's frames unread, and the flooder might lose its error frame too.) Any other
    server: ``None``, and the polite close it is."""
    transport = getattr(getattr(receive, "__self__", None), "transport", None)
    pause, close = getattr(transport, "pause_reading", None), getattr(transport, "close", None)
    if not callable(pause) or not callable(close):
        return None

    def stop() -> None:
        pause()
        asyncio.get_running_loop().call_later(CLOSE_GRACE, close)

    return stop


class SocketGate:
    """Pure ASGI middleware: a WebSocket handshake that :meth:`SocketBook.refusal` refuses is
    answered with an HTTP ``429`` (``Retry-After``; a JSON body with ``detail`` and ``code``) before
    the app sees it: no socket is accepted, nothing waits for a ``hello``. (A server without the ASGI
    ``websocket.http.response`` extension refuses with a plain close, which the client sees as 403.)
    Every other socket is counted in :attr:`SocketBook.open` while the app serves it, and its scope
    gets :data:`STOP_READING` where the server allows it."""

    def __init__(self, app: ASGIApp, book: SocketBook, log_filter: RefusalLogFilter | None = None) -> None:
        self.app = app
        self.book = book
        self.log_filter = log_filter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        refused = self.book.refusal(address)
        if refused is not None:
            await self._refuse(scope, send, *refused)
            if self.log_filter is not None:
                self.log_filter.handshake_refused()
            return
        stop_reading = _stop_reading(receive)
        if stop_reading is not None:
            scope[STOP_READING] = stop_reading
        counts = self.book.open
        counts[address] = counts.get(address, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            counts[address] -= 1
            if not counts[address]:
                del counts[address]

    @staticmethod
    async def _refuse(scope: Scope, send: Send, code: str, detail: str, retry_after: float) -> None:
        if "websocket.http.response" not in (scope.get("extensions") or {}):
            await send({"type": "websocket.close", "code": 1008})
            return
        headers, body = _json_answer(429, detail, code, retry_after)
        await send({"type": "websocket.http.response.start", "status": 429, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})


class RefusalLogFilter(logging.Filter):
    """Keeps a flood out of the operator's log: of the log lines that say a request was refused
    (uvicorn's access line with status 429 or 413, its ``"WebSocket …" 429`` line of a refused
    handshake, and our own ``spite.server`` refusal warnings, marked ``extra={"refusal": True}``), one
    a ``period`` passes, followed by how many were left out since the last one."""

    SPURIOUS = "ASGI callable returned without completing handshake."
    """What uvicorn's ``websockets-sansio`` WebSocket logs (as an error!) after every refused
    handshake, though the refusal went out as it should (uvicorn PR #3138, open)."""

    def __init__(self, period: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.period = period
        self._clock = clock
        self._last = -float("inf")
        self._left_out = 0
        self._spurious = False

    def handshake_refused(self) -> None:
        """A handshake was just refused: uvicorn's error line that comes next (synchronously, as the
        app returns, so it is that handshake's) is not one."""
        self._spurious = True

    @staticmethod
    def is_refusal(record: logging.LogRecord) -> bool:
        if getattr(record, "refusal", False):
            return True
        args = record.args if isinstance(record.args, tuple) else ()
        if record.name == "uvicorn.access" and len(args) >= 5:
            return args[4] in (429, 413)
        return record.name == "uvicorn.error" and "WebSocket" in str(record.msg) and bool(args) and args[-1] == 429

    def filter(self, record: logging.LogRecord) -> bool:
        if self._spurious and record.name == "uvicorn.error" and record.msg == self.SPURIOUS:
            self._spurious = False
            return False
        if not self.is_refusal(record):
            return True
        now = self._clock()
        if now - self._last < self.period:
            self._left_out += 1
            return False
        if self._left_out:
            record.msg = f"{record.msg} (and {self._left_out} more refusals left out of the log since the last one)"
        self._last, self._left_out = now, 0
        return True
