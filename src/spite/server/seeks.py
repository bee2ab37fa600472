"""Play a person now: seeks, paired by rating with a window that widens as they wait
(docs/protocol.md, "Play a person").

A seek asks for a game of ``game`` and ``preset``, rated or casual. Seeks of the same pool (game,
preset, rated) are paired when their skills (``mu`` on the shown scale, :func:`skill`) are within
both seekers' windows: :attr:`SeekPolicy.window` points at once, :attr:`SeekPolicy.widen` more a
second, up to :attr:`SeekPolicy.max_window`. A seek that waited its ``computerAfter`` seconds is
seated with a computer of the level nearest its rating instead (marked as one at the table: a bot
seat). Both are told at once: every seek of the pairing is matched in the same pass, with its
table and its own seat's token.

The timing is pure: :func:`plan` and :func:`next_change` take the time as a number and hold no
clock (tests/server/test_seeks.py runs them with a fake one). The service around them
(:class:`SeekService`) keeps the seeks in memory when one process serves (SQLite), and in the
database's ``spite_seeks`` when several workers do (PostgreSQL): each worker's pass claims the
waiting seeks it can lock (``SELECT … FOR UPDATE SKIP LOCKED``), so two people whose requests reached
different workers are paired by whichever worker looks first, and never twice.

A seeker learns of a change at once: ``GET /api/seeks/{id}?wait=SECONDS`` (:meth:`SeekService.get`
with ``wait``) is answered as soon as the seek is no longer waiting. The worker that seats a pairing
or takes a cancel wakes its own waiting requests; under PostgreSQL it also sends ``NOTIFY
spite_seeks`` in the same transaction, which every worker listens for, so a request waiting at
another worker than the one that paired is answered as promptly.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from spite import rating
from spite.server import db
from spite.server.notify import Changes, listen
from spite.server.table.seats import LobbyError

__all__ = ["MAX_WAIT", "Computer", "Pairing", "Seek", "SeekPolicy", "SeekService", "apart", "next_change", "plan",
           "skill", "window"]

log = logging.getLogger("spite.server.seeks")


# ====================================================================== the pure part
@dataclass(frozen=True)
class SeekPolicy:
    """How near two ratings must be to pair, as time passes (points of the shown scale)."""

    window: float = 100.0
    """How far apart two skills may be at once."""
    widen: float = 10.0
    """Points more each second a seek waits."""
    max_window: float = 600.0
    """The widest the window gets."""
    ttl: float = 60.0
    """A waiting seek nobody asked about for this long is dropped (the page was closed)."""


@dataclass
class Seek:
    """One "play a person" request."""

    id: str
    player_id: str
    name: str
    game: str
    preset: str
    rated: bool
    group: str
    seats: int
    skill: float
    """``mu`` on the shown scale (:func:`skill`): what pairing compares."""
    since: float
    computer_after: float | None
    creator: str | None = None
    status: str = "waiting"
    """``waiting``, ``pairing`` (being seated), ``matched``, ``cancelled`` or ``expired``."""
    seen: float = 0.0
    """When its seeker last asked about it."""
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    computer: str | None = None
    """Matched with a computer of this level (``None``: with people)."""
    mu: float = 25.0
    shown: int = rating.BASE

    @property
    def pool(self) -> tuple[str, str, bool]:
        return (self.game, self.preset, self.rated)


@dataclass(frozen=True)
class Pairing:
    """Seeks to seat together at one new table, oldest first."""

    seeks: tuple[Seek, ...]


@dataclass(frozen=True)
class Computer:
    """A seek that waited its ``computerAfter``: seated with a computer instead."""

    seek: Seek


def skill(mu: float) -> float:
    """``mu`` on the shown scale, a newcomer at :data:`~spite.rating.BASE` (pairing compares
    best guesses, not the conservative numbers: two newcomers and an old hand of the same strength
    are near).

    >>> skill(25.0), skill(30.0)
    (1000.0, 1200.0)
    """
    return rating.BASE + rating.SCALE * (mu - 25.0)


def window(policy: SeekPolicy, waited: float) -> float:
    """How far a seek that waited ``waited`` seconds reaches.

    >>> window(SeekPolicy(), 0), window(SeekPolicy(), 12.5), window(SeekPolicy(), 3600)
    (100.0, 225.0, 600.0)
    """
    return min(policy.max_window, policy.window + policy.widen * max(0.0, waited))


def apart(a: Seek, b: Seek) -> bool:
    """Whether ``a`` and ``b`` may sit at one table: two keys, and at a rated one two addresses (one
    person does not play themselves rated from a second key)."""
    return a.player_id != b.player_id and not (a.rated and a.creator is not None and a.creator == b.creator)


def _near(a: Seek, b: Seek, now: float, policy: SeekPolicy) -> bool:
    gap = abs(a.skill - b.skill)
    return apart(a, b) and gap <= window(policy, now - a.since) and gap <= window(policy, now - b.since)


def plan(waiting: Iterable[Seek], now: float, policy: SeekPolicy) -> list[Pairing | Computer]:
    """What to do at ``now`` with the ``waiting`` seeks: the oldest seek of each pool takes the
    nearest others within everyone's windows until its table is full; a seek left that has waited
    its ``computerAfter`` gets a computer. No seek is in two answers."""
    left = sorted((s for s in waiting if s.status == "waiting"), key=lambda s: (s.since, s.id))
    out: list[Pairing | Computer] = []
    taken: set[str] = set()
    for seek in left:
        if seek.id in taken:
            continue
        group = [seek]
        others = sorted((s for s in left if s.id not in taken and s.id != seek.id and s.pool == seek.pool),
                        key=lambda s: (abs(s.skill - seek.skill), s.since))
        for other in others:
            if len(group) == seek.seats:
                break
            if all(_near(member, other, now, policy) for member in group):
                group.append(other)
        if len(group) == seek.seats:
            out.append(Pairing(tuple(group)))
            taken.update(s.id for s in group)
    for seek in left:
        if seek.id not in taken and seek.computer_after is not None and now - seek.since >= seek.computer_after:
            out.append(Computer(seek))
            taken.add(seek.id)
    return out


def next_change(waiting: Iterable[Seek], now: float, policy: SeekPolicy) -> float | None:
    """When :func:`plan` may next have something to do (a window wide enough for a pair, a computer
    due, a seek to expire): the time a pass should run, ``None`` when no seek waits."""
    left = [s for s in waiting if s.status == "waiting"]
    times: list[float] = []
    for i, a in enumerate(left):
        if a.computer_after is not None:
            times.append(a.since + a.computer_after)
        times.append(a.seen + policy.ttl)
        for b in left[i + 1:]:
            if b.pool != a.pool or not apart(a, b):
                continue
            gap = abs(a.skill - b.skill)
            if gap <= policy.max_window:  # the younger seek's window decides
                times.append(max(a.since, b.since) + max(0.0, gap - policy.window) / policy.widen)
    return max(now, min(times)) if times else None


def expired(seek: Seek, now: float, policy: SeekPolicy) -> bool:
    """A waiting seek nobody has asked about for :attr:`SeekPolicy.ttl` seconds."""
    return seek.status == "waiting" and now - seek.seen >= policy.ttl


# ====================================================================== the service
@dataclass
class _Memory:
    """The seeks of one process."""

    seeks: dict[str, Seek] = field(default_factory=dict)


class SeekService:
    """The seeks of this server: added, asked about, cancelled, and paired in passes (see the module's
    text). ``seat_people(seeks, level)`` makes a table for ``seeks`` (and a computer of ``level`` in
    every other seat when it is not ``None``) and answers each seek's table, seat and token."""

    def __init__(self, *, engine: sa.Engine | None, seat_people: Callable[[Sequence[Seek], str | None],
                 Awaitable[tuple[str, list[tuple[int, str]]]]], levels: Callable[[str], Sequence[str]],
                 policy: SeekPolicy | None = None, max_per_address: int = 4, poll: float = 1.0,
                 clock: Callable[[], float] = time.time, max_tables: int | None = None,
                 tables_of: Callable[[str], Awaitable[int]] | None = None) -> None:
        self.engine = engine
        """``None``: seeks in memory (one process); else in the database (several workers)."""
        self.seat_people = seat_people
        self.levels = levels
        self.policy = policy or SeekPolicy()
        self.max_per_address = max_per_address
        self.max_tables = max_tables
        """An address's live tables and waiting seeks together (each seek becomes a table) stay under this."""
        self.tables_of = tables_of
        """The live tables of an address (by its key: :func:`~spite.server.table.seats.address_key`)."""
        self.poll = poll
        self.clock = clock
        self.memory = _Memory()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()
        self.changes = Changes()
        """Requests waiting for a seek to stop waiting (``GET …?wait=``), woken when one may have."""

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._run(), name="spite-seeks")
        if self.engine is not None and self.engine.dialect.name == "postgresql":
            listening = listen(self.engine, CHANGED, self.changes.announce, poll=self.poll, what="seek changes")
            self._listener = loop.create_task(listening, name="spite-seeks-listen")

    async def close(self) -> None:
        for task in (self._task, self._listener):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task


    async def _run(self) -> None:
        """Pass after pass: in memory, sleeping until :func:`next_change` or a new seek; with several
        workers, every ``poll`` seconds too (another worker's seeks are not announced here)."""
        while True:
            try:
                await self.pass_once()
            except Exception:  # a pass that failed is tried again; the service must not die
                log.exception("a pass over the seeks failed")
            now = self.clock()
            wait = self.poll
            if self.engine is None:
                due = next_change(self.memory.seeks.values(), now, self.policy)
                wait = 3600.0 if due is None else max(0.05, due - now)
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def pass_once(self) -> None:
        """Pair what can be paired now, give computers to those who waited long enough, drop the
        abandoned."""
        async with self._lock:
            now = self.clock()
            actions = await self._claim(now)
            for action in actions:
                await self._seat(action, now)
        self.changes.announce()  # seated or expired here; with several workers, perhaps by another worker

    async def _claim(self, now: float) -> list[Pairing | Computer]:
        if self.engine is None:
            for seek in self.memory.seeks.values():
                if expired(seek, now, self.policy):
                    seek.status = "expired"
            self._forget_old(now)
            actions = plan(self.memory.seeks.values(), now, self.policy)
            for action in actions:
                for seek in action.seeks if isinstance(action, Pairing) else (action.seek,):
                    seek.status = "pairing"
            return actions
        engine = self.engine
        return await asyncio.to_thread(lambda: _claim_in_db(engine, now, self.policy))

    def _forget_old(self, now: float) -> None:
        """Seeks over for ten minutes leave memory (their seekers have long been told)."""
        for key in [k for k, s in self.memory.seeks.items()
                    if s.status not in ("waiting", "pairing") and now - s.seen > 600]:
            del self.memory.seeks[key]

    async def _seat(self, action: Pairing | Computer, now: float) -> None:
        seeks = action.seeks if isinstance(action, Pairing) else (action.seek,)
        level = None
        if isinstance(action, Computer):  # the measured level nearest the seeker (a rated seek has one: see add)
            levels = self.levels(action.seek.game)
            level = rating.nearest_level(action.seek.group, action.seek.mu, levels) or (levels[0] if levels else None)
        try:
            table, seats = await self.seat_people(seeks, level)
        except Exception:
            log.exception("seeks %s could not be seated; they wait again", ", ".join(s.id for s in seeks))
            await self._settle([replace(s, status="waiting") for s in seeks])
            return
        done = [replace(s, status="matched", table=table, seat=seat, token=token, computer=level)
                for s, (seat, token) in zip(seeks, seats, strict=True)]
        await self._settle(done)
        log.info("seeks %s: seated at table %s%s", ", ".join(s.id for s in seeks), table,
                 f" with a computer ({level})" if level else "")

    async def _settle(self, seeks: Sequence[Seek]) -> None:
        if self.engine is None:
            for seek in seeks:
                mine = self.memory.seeks.get(seek.id)
                if mine is not None:
                    for name in ("status", "table", "seat", "token", "computer"):
                        setattr(mine, name, getattr(seek, name))
            return
        engine = self.engine
        await asyncio.to_thread(lambda: _settle_in_db(engine, seeks, self.clock()))

    # ------------------------------------------------------------------ requests
    async def add(self, seek: Seek) -> Seek:
        """A new seek (409 with the waiting one's id when the key already has one; 429 over the
        address's cap); the next pass runs at once."""
        seek.seen = seek.since
        tables = 0
        if seek.creator is not None and self.tables_of is not None:
            tables = await self.tables_of(seek.creator)
        if self.engine is None:
            for other in self.memory.seeks.values():
                if other.player_id == seek.player_id and other.status in ("waiting", "pairing"):
                    raise _one_per_key(other.id)
            if seek.creator is not None:
                waiting = sum(1 for s in self.memory.seeks.values()
                              if s.creator == seek.creator and s.status in ("waiting", "pairing"))
                self._check_caps(waiting, tables)
            self.memory.seeks[seek.id] = seek
        else:
            engine = self.engine
            await asyncio.to_thread(lambda: _add_in_db(engine, seek, lambda waiting: self._check_caps(waiting, tables)))
        self._wake.set()
        return seek

    def _check_caps(self, waiting: int, tables: int) -> None:
        """Refuse a new seek of an address with ``waiting`` seeks waiting and ``tables`` live tables: at
        most ``max_per_address`` seeks, and tables and seeks together under ``max_tables`` (a seek
        becomes a table that counts against its address)."""
        if waiting >= self.max_per_address:
            raise _too_many(self.max_per_address)
        if self.max_tables is not None and waiting + tables >= self.max_tables:
            raise LobbyError(f"you already have {self.max_tables} open or playing tables and seeks: finish or leave "
                             "one first", 429, "lobby.too-many-tables", n=self.max_tables)

    async def get(self, seek_id: str, wait: float = 0.0) -> Seek:
        """A seek as it stands (asking keeps a waiting seek alive). With ``wait`` seconds, a waiting
        seek is answered as soon as it stops waiting (matched, cancelled, expired), at the latest
        after ``wait`` seconds as it stands then."""
        return await self.changes.until(lambda: self._read(seek_id),
                                        lambda seek: seek.status not in ("waiting", "pairing"), wait)

    async def _read(self, seek_id: str) -> Seek:
        now = self.clock()
        if self.engine is None:
            seek = self.memory.seeks.get(seek_id)
            if seek is None:
                raise _no_seek(seek_id)
            seek.seen = now
            return seek
        engine = self.engine
        found = await asyncio.to_thread(lambda: _get_in_db(engine, seek_id, now))
        if found is None:
            raise _no_seek(seek_id)
        return found

    async def cancel(self, seek_id: str) -> Seek:
        """Cancel a waiting seek (409 once it is matched: its seat is taken)."""
        if self.engine is None:
            seek = self.memory.seeks.get(seek_id)
            if seek is None:
                raise _no_seek(seek_id)
            if seek.status == "waiting":
                seek.status = "cancelled"
        else:
            engine = self.engine
            found = await asyncio.to_thread(lambda: _cancel_in_db(engine, seek_id, self.clock()))
            if found is None:
                raise _no_seek(seek_id)
            seek = found
        self.changes.announce()
        if seek.status in ("matched", "pairing"):
            raise LobbyError(f"seek {seek_id} is matched already: its table is {seek.table}", 409, "seek.matched",
                             table=seek.table or "")
        return seek


def new_seek_id() -> str:
    """A seek's id: 128 random bits (whoever knows it may read its seat's token)."""
    return base64.urlsafe_b64encode(secrets.token_bytes(16)).decode().rstrip("=")


def _no_seek(seek_id: str) -> LobbyError:
    return LobbyError(f"there is no seek {seek_id}", 404, "seek.none", seek=seek_id)


def _one_per_key(existing: str) -> LobbyError:
    error = LobbyError("you already have a seek waiting: cancel it first", 409, "seek.one-per-key", seek=existing)
    error.code = "one-per-key"  # type: ignore[attr-defined]
    return error


def _too_many(cap: int) -> LobbyError:
    return LobbyError(f"your address already has {cap} seeks waiting", 429, "seek.too-many", n=cap)


# ====================================================================== the database (several workers)
MAX_WAIT = 25.0
"""The longest ``GET /api/seeks/{id}?wait=`` holds a request (well under a proxy's idle timeout)."""

CHANGED = "spite_seeks"
"""The PostgreSQL channel a worker notifies when it changes a seek (see :func:`spite.server.notify.listen`)."""

_STALE_PAIRING = 30.0
"""A seek ``pairing`` this long (its worker died while seating it) waits again."""


def _seek_of(row: Any) -> Seek:
    """A stored seek (its group and ``mu`` are worked out again from its game and skill)."""
    group = rating.rating_group(row["game"], row["preset"], {}, row["seats"]).name
    mu = (row["rating"] - rating.BASE) / rating.SCALE + 25.0
    return Seek(id=row["id"], player_id=row["player_id"], name=row["name"], game=row["game"], preset=row["preset"],
                rated=bool(row["rated"]), group=group, seats=row["seats"], skill=row["rating"], since=row["created_at"],
                computer_after=row["computer_after"], creator=row["creator"], status=row["status"],
                seen=row["updated_at"], table=row["table_id"], seat=row["seat"], token=row["token"],
                computer=row["computer"], mu=mu)


def _address_lock(creator: str) -> int:
    """The key of the advisory lock that lines up one address's new seeks (64 bits of a hash, named
    apart from the lock of the address's new tables in :meth:`~spite.server.store.Store.insert_table_capped`)."""
    return int.from_bytes(hashlib.sha256(b"spite-seeks:" + creator.encode()).digest()[:8], "big", signed=True)


def _add_in_db(engine: sa.Engine, seek: Seek, check: Callable[[int], None]) -> None:
    """Store a new seek unless ``check`` refuses its address's count of waiting seeks or its key has
    one. On PostgreSQL the count and the insert hold a transaction-scoped advisory lock on the address:
    two workers adding for one address at the same moment count one after the other (the second sees
    the first's committed row), so they cannot both slip past the cap. The key's one seek is the unique
    ``active_key``."""
    s = db.seeks
    with engine.begin() as conn:
        if seek.creator is not None:
            if conn.dialect.name == "postgresql":
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_address_lock(seek.creator))))
            check(conn.execute(sa.select(sa.func.count()).select_from(s).where(
                s.c.creator == seek.creator, s.c.status.in_(("waiting", "pairing")))).scalar_one())
        try:
            with conn.begin_nested():
                conn.execute(sa.insert(s).values(
                    id=seek.id, player_id=seek.player_id, active_key=seek.player_id, creator=seek.creator,
                    name=seek.name, game=seek.game, preset=seek.preset, rated=seek.rated, rating=seek.skill,
                    seats=seek.seats, created_at=seek.since, computer_after=seek.computer_after, status="waiting",
                    updated_at=seek.since))
        except IntegrityError:  # the unique active_key: this key has a seek waiting
            existing = conn.execute(sa.select(s.c.id).where(s.c.active_key == seek.player_id)).scalar()
            raise _one_per_key(str(existing)) from None


def _notify(conn: sa.Connection) -> None:
    """Tell every worker's waiting requests that seeks changed (sent when the transaction commits)."""
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_notify(CHANGED, "")))


def _get_in_db(engine: sa.Engine, seek_id: str, now: float) -> Seek | None:
    s = db.seeks
    with engine.begin() as conn:
        # asked about: a waiting seek stays alive (one write every few seconds at most)
        conn.execute(sa.update(s).where(s.c.id == seek_id, s.c.status == "waiting", s.c.updated_at < now - 5)
                     .values(updated_at=now))
        row = conn.execute(sa.select(s).where(s.c.id == seek_id)).mappings().first()
    return None if row is None else _seek_of(row)


def _cancel_in_db(engine: sa.Engine, seek_id: str, now: float) -> Seek | None:
    s = db.seeks
    with engine.begin() as conn:
        conn.execute(sa.update(s).where(s.c.id == seek_id, s.c.status == "waiting")
                     .values(status="cancelled", active_key=None, updated_at=now))
        _notify(conn)
        row = conn.execute(sa.select(s).where(s.c.id == seek_id)).mappings().first()
    return None if row is None else _seek_of(row)


def _claim_in_db(engine: sa.Engine, now: float, policy: SeekPolicy) -> list[Pairing | Computer]:
    """One worker's claim: the waiting seeks it can lock (others' locked ones are skipped: that worker
    is pairing them), planned, and those it will seat marked ``pairing`` in the same transaction."""
    s = db.seeks
    with engine.begin() as conn:
        conn.execute(sa.update(s).where(s.c.status == "pairing", s.c.updated_at < now - _STALE_PAIRING)
                     .values(status="waiting", updated_at=now))
        if conn.execute(sa.update(s).where(s.c.status == "waiting", s.c.updated_at < now - policy.ttl)
                        .values(status="expired", active_key=None)).rowcount:
            _notify(conn)
        rows = conn.execute(sa.select(s).where(s.c.status == "waiting").order_by(s.c.created_at)
                            .with_for_update(skip_locked=True)).mappings().all()
        actions = plan([_seek_of(r) for r in rows], now, policy)
        claimed = [seek.id for a in actions for seek in (a.seeks if isinstance(a, Pairing) else (a.seek,))]
        if claimed:
            conn.execute(sa.update(s).where(s.c.id.in_(claimed)).values(status="pairing", updated_at=now))
    return actions


def _settle_in_db(engine: sa.Engine, seeks: Sequence[Seek], now: float) -> None:
    s = db.seeks
    with engine.begin() as conn:
        for seek in seeks:
            conn.execute(sa.update(s).where(s.c.id == seek.id).values(
                status=seek.status, table_id=seek.table, seat=seek.seat, token=seek.token, computer=seek.computer,
                active_key=seek.player_id if seek.status == "waiting" else None, updated_at=now))
        _notify(conn)
