"""Table ownership between worker processes that share one PostgreSQL database.

With ``spite serve --workers N`` every table is served by exactly one worker at a time: the one
named in ``spite_tables.owner``, until ``lease_until`` (seconds since the epoch by the database's
own clock, so machines need not agree on the time). A worker

* renews the leases of the tables it holds every :data:`RENEW_EVERY` seconds (a lease lasts
  :data:`LEASE_SECONDS`), and stops writing for its tables once its last renewal is older than a
  lease less a margin (a worker that stalled must not write after another took over);
* takes a table it is asked for (a socket's ``hello``, a ``join``) when nobody holds it or its lease
  has run out, with ``SELECT … FOR UPDATE SKIP LOCKED`` so that two workers never both take it; when
  a live worker holds it, it writes its own name into ``wanted_by`` and waits: the holder sees that
  within :data:`WANT_POLL` seconds, closes the table's sockets (code 1012: reconnect) and names the
  asking worker the owner;
* takes, every :data:`SWEEP_EVERY` seconds, open and playing tables whose lease has run out (their
  worker died), so that bots-only tables and real-time clocks go on even when nobody reconnects.

A table's state is never handed over: every move is committed before its ``ack``, and the new
owner rebuilds the table from the database exactly as a restart does. The methods here are the
SQL; :class:`~spite.server.keeper.LeaseKeeper` decides when to call them.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import Connection, Engine

from spite.server import db
from spite.server.table.seats import LobbyError

__all__ = ["ACQUIRE_TIMEOUT", "LEASE_SECONDS", "RENEW_EVERY", "SWEEP_EVERY", "WANT_POLL", "Leases", "TableBusy"]

log = logging.getLogger("spite.server.leases")

LEASE_SECONDS = 8.0
"""How long a renewed lease lasts: a dead worker's tables are free this long after its last renewal."""

RENEW_EVERY = 1.5
"""Seconds between a worker's renewals (five tries before its leases run out: a worker starved of CPU
on a busy machine still renews in time)."""

SAFETY_MARGIN = 2.0
"""A worker stops writing this long before its leases run out by its own clock (a renewal's answer
may come late; the database's clock counts from when it committed)."""

WANT_POLL = 0.2
"""Seconds between a worker's looks for tables another worker asks it to hand over."""

SWEEP_EVERY = 1.0
"""Seconds between a worker's looks for live tables whose lease ran out (their worker died)."""

WORKER_GONE = 4 * LEASE_SECONDS
"""A worker whose heartbeat is this many seconds old is dead (a live one beats every renewal, well under
:data:`LEASE_SECONDS`): its row goes at the next sweep."""

FREE_GRACE = 5.0
"""A table nobody holds (a new one its creator let go of, for the worker its sockets reach) is left
this many seconds to that worker before a sweep takes it."""

ACQUIRE_TIMEOUT = LEASE_SECONDS + 6.0
"""The longest a worker waits to be handed a table (a live holder hands it over within a fraction
of a second; a dead one's lease runs out within :data:`LEASE_SECONDS`)."""

Claim = Literal["mine", "wait", "none"]


def _db_now() -> sa.ColumnElement[Any]:
    """The database's clock in seconds since the epoch (the time of the statement, not the transaction's)."""
    return sa.cast(sa.func.extract("epoch", sa.func.clock_timestamp()), sa.Float)


def lease_end() -> sa.ColumnElement[Any]:
    """When a lease taken or renewed now runs out."""
    return _db_now() + LEASE_SECONDS


def _renewal() -> sa.Select[Any]:
    """The renewal of one worker (``:me``) as one statement on the tables ``:ids`` (an array): it locks
    those still its own and not run out (skipping rows locked elsewhere), gives them a fresh lease,
    stamps its heartbeat, and selects those that are no longer its own or whose lease ran out."""
    t, w = db.tables, db.workers
    me, ids = sa.bindparam("me", type_=sa.String), sa.bindparam("ids", type_=postgresql.ARRAY(sa.String))
    mine = (sa.select(t.c.id).where(t.c.id == sa.func.any(ids), t.c.owner == me, t.c.lease_until >= _db_now())
            .with_for_update(skip_locked=True).cte("mine"))
    renewed = (sa.update(t).where(t.c.id.in_(sa.select(mine.c.id))).values(lease_until=lease_end())
               .returning(t.c.id).cte("renewed"))
    heartbeat = sa.update(w).where(w.c.id == me).values(heartbeat=_db_now()).returning(w.c.id).cte("heartbeat")
    # (every part sees the rows as they were when the statement began: a lease renewed just as it ran
    # out would look run out here, hence the renewed ones are left out by name)
    lost = sa.select(t.c.id).where(t.c.id == sa.func.any(ids), t.c.id.not_in(sa.select(renewed.c.id)),
                                   sa.or_(t.c.owner.is_(None), t.c.owner != me, t.c.lease_until < _db_now()))
    return lost.add_cte(heartbeat)  # (a data-changing part of a WITH always runs, read or not)


_RENEWAL = _renewal()
"""Built once: a statement built per renewal costs more CPU than running it (so are the two looks
below, five a second and one)."""

_WANTED = sa.select(db.tables.c.id, db.tables.c.wanted_by).where(
    db.tables.c.owner == sa.bindparam("me", type_=sa.String), db.tables.c.wanted_by.is_not(None),
    db.tables.c.wanted_by != sa.bindparam("me", type_=sa.String))
"""The tables of worker ``:me`` that another worker asked for (:meth:`Leases.wanted`)."""

_ORPHANS = (sa.select(db.tables.c.id)
            .where(db.tables.c.status.in_(("open", "playing")),
                   sa.or_(sa.and_(db.tables.c.owner.is_(None), db.tables.c.updated_at < _db_now() - FREE_GRACE),
                          sa.and_(db.tables.c.owner.is_not(None), db.tables.c.lease_until.is_(None)),
                          db.tables.c.lease_until < _db_now()))
            .order_by(db.tables.c.updated_at).limit(sa.bindparam("limit", type_=sa.Integer))
            .with_for_update(skip_locked=True))
"""Up to ``:limit`` live tables nobody holds, locked (:meth:`Leases.orphans`)."""


class TableBusy(LobbyError):
    """Another worker holds the table and did not hand it over in time (503: try again)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is moving between server processes: try again in a moment", 503)


class Leases:
    """The lease statements of one worker (named ``me``); each runs in a transaction of its own and is
    called from a worker thread (:meth:`Store.read`-like, not through the writer)."""

    def __init__(self, engine: Engine, me: str, address: str | None = None) -> None:
        if engine.dialect.name != "postgresql":
            raise ValueError("table leases need PostgreSQL (several workers share one database)")
        self.engine = engine
        self.me = me
        self.address = address
        self.valid_until = time.monotonic() + LEASE_SECONDS - SAFETY_MARGIN
        """Until when (``time.monotonic``) this worker's leases surely hold: it writes no move after."""
        self._local = threading.local()

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Connection]:
        """This thread's own connection (the claims' thread and the upkeep thread each keep one): a
        connection from the pool for every statement cost a checkout and a liveness ping, a round trip,
        each time, and the look for hand-over requests runs five times a second. A connection that
        failed is closed and the next statement opens a fresh one."""
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.invalidated:
            conn = self._local.conn = self.engine.connect()
        try:
            yield conn
            if conn.in_transaction():
                conn.commit()
        except BaseException:
            self._local.conn = None
            with contextlib.suppress(Exception):
                conn.close()
            raise

    def close(self) -> None:
        """Close this thread's connection (the others are closed with the engine)."""
        conn: Connection | None = getattr(self._local, "conn", None)
        self._local.conn = None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def holds(self) -> bool:
        """Whether this worker's leases surely still hold (its last renewal is recent enough)."""
        return time.monotonic() < self.valid_until

    # ------------------------------------------------------------------ the worker
    def register(self) -> None:
        """This worker's heartbeat row (and workers silent for :data:`WORKER_GONE` seconds are forgotten)."""
        w = db.workers
        with self._connection() as c:
            now = c.execute(sa.select(_db_now())).scalar_one()
            c.execute(sa.delete(w).where(sa.or_(w.c.id == self.me, w.c.heartbeat < now - WORKER_GONE)))
            c.execute(sa.insert(w).values(id=self.me, address=self.address, started_at=now, heartbeat=now))

    def unregister(self) -> None:
        """A clean stop: every table this worker holds is free at once, its heartbeat row gone."""
        t = db.tables
        with self._connection() as c:
            c.execute(sa.update(t).where(t.c.owner == self.me).values(owner=None, lease_until=None, wanted_by=None))
            c.execute(sa.delete(db.workers).where(db.workers.c.id == self.me))

    def renew(self, held: Iterable[str]) -> set[str]:
        """Renew the leases of ``held`` that are still this worker's and not run out, and this worker's
        heartbeat. Returns the held tables that are no longer this worker's (another took them after
        this worker's lease ran out). The leases of tables that left memory (finished, closed) are not
        renewed and simply run out: giving them up here could race with this worker taking one back at
        the same moment (and renewing every row the worker owns would renew, for ever, every finished
        table it ever served).

        One statement (:func:`_renewal`) whatever the number of tables, the ids as one array parameter:
        a thousand ids cost about as little as ten (not a thousand bound parameters, three statements
        and two transactions per thousand). Rows another transaction has locked (this worker's own writer
        changing a table's status, most likely) are skipped rather than waited for, so a renewal never
        deadlocks with the writer: a row skipped now is renewed 1.5 s later, long before its lease runs
        out, and is not lost (all parts of the statement see the rows as they were when it began)."""
        started = time.monotonic()
        with self._connection() as c:
            lost: set[str] = set(c.execute(_RENEWAL, {"me": self.me, "ids": list(held)}).scalars())
        self.valid_until = started + LEASE_SECONDS - SAFETY_MARGIN
        return lost

    # ------------------------------------------------------------------ taking and handing over
    def claim(self, ids: list[str]) -> dict[str, Claim]:
        """Try to take the tables ``ids`` (in one transaction, whatever their number): each is ``mine``
        (taken, or already this worker's), ``wait`` (another live worker holds it and is now asked for
        it, or another worker is taking it this instant) or ``none`` (there is no such table)."""
        t = db.tables
        out: dict[str, Claim] = {}
        with self._connection() as c:
            rows = c.execute(sa.select(t.c.id, t.c.owner, t.c.wanted_by, t.c.lease_until,
                                       (t.c.lease_until < _db_now()).label("expired"))
                             .where(t.c.id.in_(ids)).with_for_update(skip_locked=True)).all()
            take = [r.id for r in rows if r.owner in (self.me, None) or r.lease_until is None or r.expired]
            ask = [r.id for r in rows if r.id not in take and r.wanted_by != self.me]
            if take:
                c.execute(sa.update(t).where(t.c.id.in_(take)).values(owner=self.me, lease_until=lease_end(),
                                                                       wanted_by=None))
            if ask:
                c.execute(sa.update(t).where(t.c.id.in_(ask)).values(wanted_by=self.me))
            out.update({r.id: "wait" for r in rows})
            out.update({i: "mine" for i in take})
            missing = [i for i in ids if i not in out]
            if missing:  # locked by another transaction this instant, or not there at all
                there = set(c.execute(sa.select(t.c.id).where(t.c.id.in_(missing))).scalars())
                out.update({i: "wait" if i in there else "none" for i in missing})
        return out

    def let_go(self, table_id: str) -> Callable[[Connection], None]:
        """A write (for the store's writer, after the table's own writes) that leaves ``table_id`` to
        whichever worker asks for it first, if it is still this worker's (another worker may have
        been handed it meanwhile: that must stand)."""
        t = db.tables

        def write(c: Connection) -> None:
            c.execute(sa.update(t).where(t.c.id == table_id, t.c.owner == self.me)
                      .values(owner=None, lease_until=None, updated_at=time.time()))

        return write

    def wanted(self) -> list[tuple[str, str]]:
        """Tables this worker holds that another worker asked for: (table id, asking worker)."""
        with self._connection() as c:
            rows = c.execute(_WANTED, {"me": self.me}).all()
        return [(r.id, r.wanted_by) for r in rows]

    def hand_over(self, tables: list[tuple[str, str]]) -> None:
        """For each (table id, worker): name the worker its owner with a fresh lease (this worker has
        let go of the table)."""
        t = db.tables
        for table_id, to in tables:  # one transaction each: never holding one row while waiting for another
            with self._connection() as c:
                c.execute(sa.update(t).where(t.c.id == table_id, t.c.owner == self.me)
                          .values(owner=to, lease_until=lease_end(), wanted_by=None))

    def orphans(self, limit: int = 50) -> list[str]:
        """Take up to ``limit`` open or playing tables nobody holds: their worker died (lease run out), a
        single process served them before (no lease), or their creator let go of them more than
        :data:`FREE_GRACE` seconds ago and no socket came for them. Their ids, now this worker's."""
        t = db.tables
        with self._connection() as c:
            ids = list(c.execute(_ORPHANS, {"limit": limit}).scalars())
            if ids:
                c.execute(sa.update(t).where(t.c.id.in_(ids)).values(owner=self.me, lease_until=lease_end(),
                                                                     wanted_by=None))
            # a worker killed without a clean stop left its heartbeat row: gone once it is long silent
            c.execute(sa.delete(db.workers).where(db.workers.c.heartbeat < _db_now() - WORKER_GONE))
        return ids

    @staticmethod
    def workers(conn: Connection) -> list[dict[str, Any]]:
        """The workers' rows (id, address, start, heartbeat), for figures."""
        return [dict(r) for r in conn.execute(sa.select(db.workers).order_by(db.workers.c.id)).mappings()]
