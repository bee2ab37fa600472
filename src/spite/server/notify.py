"""Changes told across workers: PostgreSQL's ``LISTEN``/``NOTIFY`` (docs/scaling.md).

A service whose rows several workers change (seeks, the operator's actions, tournaments) sends
``NOTIFY channel`` in the transaction that changes them; every worker listens on its own connection
and wakes what waits here. A lost connection is made again after ``poll`` seconds; the services also
look every ``poll`` seconds, so nothing waits longer than that even while the connection is down.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import sqlalchemy as sa

__all__ = ["Changes", "listen"]

T = TypeVar("T")

log = logging.getLogger("spite.server.notify")


async def listen(engine: sa.Engine, channel: str, woken: Callable[[], None], *, poll: float, what: str) -> None:
    """Call ``woken`` on every ``NOTIFY channel`` (and once each time the connection is made: what
    changed while nobody listened), forever; ``what`` names the changes in the operator's log."""
    import psycopg  # the postgres extra: only a server on PostgreSQL gets here

    url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    while True:
        try:
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                await conn.execute(f"LISTEN {channel}")
                woken()
                async for _note in conn.notifies():
                    woken()
        except (psycopg.Error, OSError) as exc:
            log.warning("listening for %s failed (%s); trying again", what, exc)
        await asyncio.sleep(poll)


class Changes:
    """The requests of one service that wait for a change (long polls: ``GET …?wait=``).

    :meth:`announce` wakes them all, and each reads what it waits for again; :meth:`stop` (the server
    begins to shut down) answers every one at once as things stand, since the server waits for the
    requests under way before it stops and a poll would hold it for its whole wait."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()
        """Set, and replaced by a fresh one, at every change."""
        self.listening = 0
        """Requests waiting now (the gauge ``spite_long_polls``)."""
        self.stopping = False

    def announce(self) -> None:
        """Something may have changed: wake every waiting request."""
        self._changed.set()
        self._changed = asyncio.Event()

    def stop(self) -> None:
        """The server shuts down: answer every waiting request now, and every new one at once."""
        self.stopping = True
        self.announce()

    async def until(self, read: Callable[[], Awaitable[T]], done: Callable[[T], bool], wait: float) -> T:
        """``read()``, and again after each change, until ``done`` says so, ``wait`` seconds have passed
        or the server stops: the last thing read."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        changed = self._changed  # taken before the read: a change after it sets this one
        value = await read()
        if wait <= 0 or done(value):
            return value
        self.listening += 1
        try:
            while not done(value) and not self.stopping and (left := deadline - loop.time()) > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), timeout=left)
                changed = self._changed
                value = await read()
        finally:
            self.listening -= 1
        return value
