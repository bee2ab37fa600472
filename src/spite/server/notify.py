"""Changes told across workers: PostgreSQL's ``LISTEN``/``NOTIFY`` (docs/scaling.md).

A service whose rows several workers change (seeks, the operator's actions, tournaments) sends
``NOTIFY channel`` in the transaction that changes them; every worker listens on its own connection
and wakes what waits here. A lost connection is made again after ``poll`` seconds; the services also
look every ``poll`` seconds, so nothing waits longer than that even while the connection is down.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import sqlalchemy as sa

__all__ = ["listen"]

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
