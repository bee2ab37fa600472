"""With several workers (``spite serve --workers N``): which tables this worker holds, and when it
takes or hands over one (the SQL is :class:`~spite.server.leases.Leases`; docs/scaling.md).

The keeper renews this worker's leases, hands a table over when another worker asks for it (its
sockets close with 1012: reconnect, and reach that worker), takes the live tables of a worker that
died, and takes a table this worker is asked for (a socket's ``hello``, a ``join``) from the worker
that holds it. A table is never handed over in memory: the new holder rebuilds it from the
database, where every acknowledged change already is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from spite.server.host import TableHost
from spite.server.leases import ACQUIRE_TIMEOUT, RENEW_EVERY, SWEEP_EVERY, WANT_POLL, Claim, Leases, TableBusy
from spite.server.lobby import Lobby
from spite.server.store import Store
from spite.server.table.effects import StoredTable

__all__ = ["LeaseKeeper"]

log = logging.getLogger("spite.server")

_T = TypeVar("_T")


class LeaseKeeper:
    """This worker's table leases, kept while the server runs."""

    def __init__(self, lobby: Lobby, leases: Leases) -> None:
        self.lobby = lobby
        self.leases = leases
        self.store = lobby.store
        self.takeovers = 0
        """Tables this worker took from a dead worker (lease run out) since it started."""
        self.handovers = 0
        """Tables this worker handed to another that asked for them."""
        self._acquiring: dict[str, asyncio.Future[TableHost | None]] = {}  # table id → its acquisition under way
        self._tasks: list[asyncio.Task[None]] = []
        self._claim_thread = ThreadPoolExecutor(1, thread_name_prefix="spite-lease-claims")
        self._upkeep_thread = ThreadPoolExecutor(1, thread_name_prefix="spite-lease-upkeep")
        self._claims: dict[str, asyncio.Future[Claim]] = {}  # table id → its claim in the next round
        self._claims_waiting = asyncio.Event()
        self._loading: set[str] = set()
        self._jobs: set[asyncio.Task[None]] = set()
        lobby.shared = True
        lobby.acquire = self.local
        lobby.services.may_write = leases.holds
        lobby.services.conflict = self._conflict

    async def start(self) -> None:
        """Register this worker and start renewing, handing over and sweeping."""
        await self._call(self.leases.register, upkeep=True)
        self._tasks = [asyncio.create_task(self._renew(), name="spite-lease-renewal"),
                       asyncio.create_task(self._hand_over_wanted(), name="spite-lease-handover"),
                       asyncio.create_task(self._take_orphans(), name="spite-lease-sweep"),
                       asyncio.create_task(self._claimer(), name="spite-lease-claims")]

    async def close(self) -> None:
        """Stop the keeping and give up the leases (the others may take this worker's tables at once)."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        try:
            await self.store.write(lambda c: None)  # every queued write committed first
            await self._call(self.leases.unregister, upkeep=True)
        except Exception as exc:
            log.warning("the leases could not be given up (%s); they run out by themselves", exc)
        for pool in (self._claim_thread, self._upkeep_thread):  # each thread's own connection
            with contextlib.suppress(Exception):
                await asyncio.get_running_loop().run_in_executor(pool, self.leases.close)
        self._claim_thread.shutdown(wait=False)
        self._upkeep_thread.shutdown(wait=False)

    # ------------------------------------------------------------------ taking a table asked for here
    async def local(self, table_id: str) -> TableHost | None:
        """``table_id`` taken by lease and rebuilt here (waiting for its holder to hand it over, or for
        a dead holder's lease to run out): ``None`` when there is no such table."""
        table = self.lobby.tables.get(table_id)
        if table is not None:
            return table
        pending = self._acquiring.get(table_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._acquiring[table_id] = pending
            try:
                pending.set_result(await self._acquire(table_id))
            except TableBusy as exc:
                pending.set_exception(exc)
            except Exception as exc:
                log.error("table %s could not be taken over: %s", table_id, exc)
                pending.set_exception(TableBusy(table_id))
            finally:
                del self._acquiring[table_id]
        return await asyncio.shield(pending)

    async def _call(self, fn: Callable[..., _T], *args: Any, upkeep: bool = False) -> _T:
        """A lease statement on a thread of the leases' own (many tables waiting to be handed over must
        not take the shared thread pool from the reads and the commits), the renewals and hand-overs
        (``upkeep``) on another: they must never wait behind claims."""
        pool = self._upkeep_thread if upkeep else self._claim_thread
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)

    async def _claim(self, table_id: str) -> Claim:
        """Claim ``table_id`` in the next round of :meth:`_claimer` (one statement for all waiting)."""
        fut = self._claims.get(table_id)
        if fut is None:
            fut = asyncio.get_running_loop().create_future()
            self._claims[table_id] = fut
            self._claims_waiting.set()
        return await asyncio.shield(fut)

    async def _claimer(self) -> None:
        """Claim every table asked for meanwhile in one transaction, at most every 50 ms."""
        while True:
            await self._claims_waiting.wait()
            self._claims_waiting.clear()
            batch, self._claims = self._claims, {}
            try:
                results = await self._call(self.leases.claim, list(batch))
            except Exception as exc:
                log.warning("tables could not be claimed (%s)", str(exc).splitlines()[0])
                results = {}
            for table_id, fut in batch.items():
                if not fut.done():
                    fut.set_result(results.get(table_id, "wait"))
            await asyncio.sleep(0.05)

    async def _acquire(self, table_id: str) -> TableHost | None:
        t0 = time.monotonic()
        while True:
            claim = await self._claim(table_id)
            if claim == "none":
                return None
            if claim == "mine":
                break
            if time.monotonic() - t0 > ACQUIRE_TIMEOUT:
                log.warning("table %s: not handed over within %.0f s", table_id, ACQUIRE_TIMEOUT)
                raise TableBusy(table_id)
            await asyncio.sleep(0.1)
            if table_id in self.lobby.tables:
                return self.lobby.tables[table_id]
        tables = await self._take_in([table_id], finished_too=True)
        if not tables:
            return None
        log.info("table %s: taken over on request in %.2f s", table_id, time.monotonic() - t0)
        return tables[0]

    async def _take_in(self, ids: list[str], *, finished_too: bool = False) -> list[TableHost]:
        """Rebuild tables this worker has just taken by lease from the database and put them in play."""
        def read(c: Any) -> list[tuple[StoredTable, int | None]]:
            out = []
            for st in self.store.load_tables(c, ids, finished_too=finished_too):
                found = Store.table_summary(c, st.id) if st.status == "finished" else None
                out.append((st, found["game_id"] if found is not None else None))
            return out

        self._loading.update(ids)  # claimed, not in memory yet: not to be handed over meanwhile
        try:
            stored = await self.store.read(read)
            hosts = await self.lobby.rebuild(stored)
        finally:
            self._loading.difference_update(ids)
        taken = []
        for host in hosts:
            host = self.lobby.tables.setdefault(host.id, host)
            host.start()
            taken.append(host)
        return taken

    # ------------------------------------------------------------------ letting tables go
    async def retire(self, table: TableHost) -> None:
        """Stop serving ``table`` here (another worker serves it now): its sockets close with 1012
        (reconnect), its timers stop; nothing is saved, as every change is stored already."""
        self.lobby.forget(table)
        await table.close(1012)
        self.lobby.bots.forget(table.id)

    async def let_go_if_people(self, table: TableHost) -> None:
        """A new table people will sit at is let go of at once: the worker their sockets and joins reach
        (by the table id's hash) takes it when they come, with no hand-over (a bots-only table stays:
        it plays now)."""
        if not any(s.kind == "person" for s in table.seats):
            return
        self.lobby.forget(table)
        await table.close(1012)
        await self.store.write(self.leases.let_go(table.id))
        self.lobby.bots.forget(table.id)

    def _conflict(self, table: TableHost) -> None:
        """Another worker stored a move of ``table`` first (the ``(table_id, ply)`` key refused ours): it
        serves the table now; this copy is closed (its clients reconnect to that worker)."""
        log.warning("table %s: another worker stored its moves; closed here", table.id)
        self._spawn(self.retire(table))

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    # ------------------------------------------------------------------ the keeping
    async def _renew(self) -> None:
        """Every ``RENEW_EVERY`` s: renew the leases of the tables here, give up those that left memory,
        and retire those another worker holds now (this worker stalled past its lease)."""
        while True:
            await asyncio.sleep(RENEW_EVERY)
            snapshot = dict(self.lobby.tables)
            t0 = time.monotonic()
            try:
                lost = await self._call(self.leases.renew, set(snapshot), upkeep=True)
            except Exception as exc:
                log.warning("the table leases could not be renewed (%s)", str(exc).splitlines()[0])
                continue
            took = time.monotonic() - t0
            if took > RENEW_EVERY:
                log.warning("renewing %d table leases took %.1f s", len(snapshot), took)
            for table_id in lost:
                table = self.lobby.tables.get(table_id)
                if table is not None and table is snapshot[table_id]:  # (not one taken back meanwhile)
                    log.warning("table %s: its lease ran out and another worker holds it; closed here", table_id)
                    self._spawn(self.retire(table))  # (not awaited: the renewals must never wait for a table)

    async def _hand_over_wanted(self) -> None:
        """Hand the tables other workers ask for over to them (within ``WANT_POLL`` s)."""
        leases = self.leases
        while True:
            await asyncio.sleep(WANT_POLL)
            try:
                wanted = await self._call(leases.wanted, upkeep=True)
                if not wanted:
                    continue
                # a table this worker is loading after claiming it waits for the next look (handing it
                # over now, before it is in memory, would leave it served here and there)
                wanted = [(t, to) for t, to in wanted if t not in self._loading and t not in self._acquiring]
                for table_id, to in wanted:
                    table = self.lobby.tables.get(table_id)
                    if table is not None:
                        await self.retire(table)
                        self.handovers += 1
                        log.info("table %s: handed over to %s", table_id, to)
                await self.store.write(lambda c: None)  # every write queued before is committed
                await self._call(leases.hand_over, wanted)  # (it may wait for a row: not on the renewals' thread)
            except Exception as exc:
                log.warning("tables could not be handed over (%s)", exc)

    async def _take_orphans(self) -> None:
        """Take the live tables whose worker died (lease run out) so their bots and clocks go on."""
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                ids = await self._call(self.leases.orphans, upkeep=True)
                if ids:
                    taken = await self._take_in(ids)
                    self.takeovers += len(taken)
                    log.info("took over %d tables whose worker stopped", len(taken))
            except Exception as exc:
                log.warning("tables without a live worker could not be taken (%s)", exc)
