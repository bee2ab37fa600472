"""The tables of one server process: creating, joining, restoring after a restart, and the
WebSocket message loop's dispatch.

A restart (even after ``kill -9``) rebuilds every open or playing table from the database: its
record start and every stored move are replayed through the engine, seats get their tokens'
hashes and controllers back, each person seat gets a fresh grace time (nobody is connected yet),
and bots to move start thinking again. A finished table is brought back the same way when one of
its persons says hello with their token (to answer the rematch question).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pydantic import ValidationError

from spite.errors import OptionsError, Phrase
from spite.games import game_names, get_game, has_hook, load_hook
from spite.server.bots import BotRunner
from spite.server.config import ServerConfig
from spite.server.fair import FairDeal
from spite.server.host import (
    Conn,
    LobbyError,
    Seat,
    ServerGame,
    Services,
    Table,
    address_key,
    check_requests,
    hash_token,
    new_token,
)
from spite.server.leases import ACQUIRE_TIMEOUT, RENEW_EVERY, SWEEP_EVERY, WANT_POLL, Claim, Leases, lease_end
from spite.server.protocol import (
    AnyClientMessage,
    Hello,
    HintRequest,
    MoveMessage,
    NextGame,
    Ping,
    Pong,
    RematchRequest,
    SeatRequest,
    Sync,
    TableInfo,
    UndoMessage,
    client_adapter,
)
from spite.server.store import Store, StoredTable

_T = TypeVar("_T")

__all__ = ["LobbyError", "Manager", "served_games", "stored_info"]

log = logging.getLogger("spite.server")

_TYPES = ("hello", "move", "sync", "ping", "hint", "undo", "next", "rematch")


def served_games() -> tuple[str, ...]:
    """The registered games that have a ``server`` hook: the tables this server can hold."""
    return tuple(name for name in game_names() if has_hook(name, "server"))


def server_game(game: str) -> ServerGame:
    """The ``server`` hook of ``game`` (:class:`LobbyError` 501 when it has none)."""
    try:
        hook = load_hook(game, "server")
    except OptionsError:
        raise LobbyError(f"{game} tables are not served ({', '.join(served_games())})", 501, "lobby.not-served",
                         game=game) from None
    assert isinstance(hook, ServerGame)
    return hook


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())[1:])
    return f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid"))


class TableBusy(LobbyError):
    """Another worker holds the table and did not hand it over in time (503: try again)."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id} is moving between server processes: try again in a moment", 503)


class Manager:
    """Every table this process serves, the store and the bots."""

    def __init__(self, config: ServerConfig, store: Store, bots: BotRunner) -> None:
        self.config = config
        self.store = store
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self.moves_played = 0
        self.services = Services(store, bots, config, self.finished, self._counted, self.closed)
        self.started = time.time()
        self._sweeper: asyncio.Task[None] | None = None
        self._owners: dict[str, str] = {}  # table id → the client address that created it
        self._creating: Counter[str] = Counter()  # creations under way per address (not in tables yet)
        self.leases: Leases | None = None
        """With several workers (``config.cluster``): this worker's table leases."""
        self._acquiring: dict[str, asyncio.Future[Table | None]] = {}  # table id → its acquisition under way
        self._lease_tasks: list[asyncio.Task[None]] = []
        self.takeovers = 0
        """Tables this worker took from a dead worker (lease run out) since it started."""
        self.handovers = 0
        """Tables this worker handed to another that asked for them."""
        self._lease_threads = ThreadPoolExecutor(1, thread_name_prefix="spite-lease-claims")
        self._upkeep_thread = ThreadPoolExecutor(1, thread_name_prefix="spite-lease-upkeep")
        self._claims: dict[str, asyncio.Future[Claim]] = {}  # table id → its claim in the next round
        self._claims_waiting = asyncio.Event()
        self._loading: set[str] = set()
        self._jobs: set[asyncio.Task[None]] = set()
        if config.cluster:
            self.leases = Leases(store.engine, config.process_name, config.address)
            self.services.may_write = self.leases.holds
            self.services.conflict = self._conflict

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Restore the live tables (one process) or start holding tables by lease (one of several
        workers: live tables come by sweep and request), and start the sweeper."""
        if self.leases is None:
            await self.restore()
        else:
            await self._lease_call(self.leases.register, upkeep=True)
            self._lease_tasks = [asyncio.create_task(self._renew_leases(), name="spite-lease-renewal"),
                                 asyncio.create_task(self._hand_over_wanted(), name="spite-lease-handover"),
                                 asyncio.create_task(self._take_orphans(), name="spite-lease-sweep"),
                                 asyncio.create_task(self._claimer(), name="spite-lease-claims")]
        self._sweeper = asyncio.create_task(self._sweep(), name="spite-sweeper")

    async def close(self) -> None:
        """Stop every table's tasks (all state is already in the database)."""
        for task in [*self._lease_tasks, *([self._sweeper] if self._sweeper is not None else [])]:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for table in list(self.tables.values()):
            await table.close(1001 if self.leases is None else 1012)
        if self.leases is not None:  # the others may take this worker's tables at once
            try:
                await self.store.write(lambda c: None)  # every queued write committed first
                await self._lease_call(self.leases.unregister, upkeep=True)
            except Exception as exc:
                log.warning("the leases could not be given up (%s); they run out by themselves", exc)
        self._lease_threads.shutdown(wait=False)
        self._upkeep_thread.shutdown(wait=False)

    async def restore(self) -> None:
        """Rebuild every open or playing table from the database."""
        t0 = time.perf_counter()
        stored: list[StoredTable] = await self.store.read(self.store.load_live)
        moves = 0
        for st in stored:
            try:
                table = self._rebuild(st)
            except Exception as exc:
                log.error("table %s cannot be restored (%s); left as it is in the database", st.id, exc)
                continue
            self.tables[table.id] = table
            moves += len(st.moves)
        for table in self.tables.values():
            if table.status == "playing":
                table.start_grace_timers()
                table.schedule_bot()
        if stored:
            log.info("restored %d tables (%d moves) in %.2f s", len(self.tables), moves, time.perf_counter() - t0)

    # ------------------------------------------------------------------ several workers: leases
    async def local(self, table_id: str) -> Table | None:
        """The table in this process; with several workers, taken over first when another worker
        holds it (or held it and died): ``None`` when there is no such table or it could not be had."""
        table = self.tables.get(table_id)
        if table is not None or self.leases is None:
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

    async def _lease_call(self, fn: Callable[..., _T], *args: Any, upkeep: bool = False) -> _T:
        """A lease statement on a thread of the leases' own (many tables waiting to be handed over must
        not take the shared thread pool from the reads and the commits), the renewals and hand-overs
        (``upkeep``) on another: they must never wait behind claims."""
        pool = self._upkeep_thread if upkeep else self._lease_threads
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
        assert self.leases is not None
        while True:
            await self._claims_waiting.wait()
            self._claims_waiting.clear()
            batch, self._claims = self._claims, {}
            try:
                results = await self._lease_call(self.leases.claim, list(batch))
            except Exception as exc:
                log.warning("tables could not be claimed (%s)", str(exc).splitlines()[0])
                results = {}
            for table_id, fut in batch.items():
                if not fut.done():
                    fut.set_result(results.get(table_id, "wait"))
            await asyncio.sleep(0.05)

    async def _acquire(self, table_id: str) -> Table | None:
        """Take ``table_id`` by lease and rebuild it here (waiting for its holder to hand it over, or
        for a dead holder's lease to run out)."""
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
            if table_id in self.tables:
                return self.tables[table_id]
        tables = await self._take_in([table_id], finished_too=True)
        if not tables:
            return None
        log.info("table %s: taken over on request in %.2f s", table_id, time.monotonic() - t0)
        return tables[0]

    async def _take_in(self, ids: list[str], *, finished_too: bool = False) -> list[Table]:
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
        finally:
            self._loading.difference_update(ids)
        taken: list[Table] = []
        for st, game_id in stored:
            if st.id in self.tables:
                taken.append(self.tables[st.id])
                continue
            try:
                table = self._rebuild(st)
            except Exception as exc:
                log.error("table %s cannot be restored (%s); left as it is in the database", st.id, exc)
                continue
            table.game_id = game_id
            self.tables[table.id] = table
            if table.status == "playing":
                table.start_grace_timers()
                table.schedule_bot()
            taken.append(table)
        return taken

    async def _retire(self, table: Table) -> None:
        """Stop serving ``table`` here (another worker serves it now): its sockets close with 1012
        (reconnect), its tasks stop; nothing is saved, as every change is stored already."""
        async with table.lock:
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
            await table.close(1012)
        self.bots.forget(table.id)

    def _conflict(self, table: Table) -> None:
        """Another worker stored a move of ``table`` first (the ``(table_id, ply)`` key refused ours): it
        serves the table now; this copy is closed (its clients reconnect to that worker)."""
        log.warning("table %s: another worker stored its moves; closed here", table.id)
        self._spawn(self._retire(table))

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` on its own (kept referenced until it is done)."""
        task = asyncio.get_running_loop().create_task(job)
        self._jobs.add(task)
        task.add_done_callback(self._jobs.discard)

    async def _renew_leases(self) -> None:
        """Every ``RENEW_EVERY`` s: renew the leases of the tables here, give up those that left memory,
        and retire those another worker holds now (this worker stalled past its lease)."""
        assert self.leases is not None
        while True:
            await asyncio.sleep(RENEW_EVERY)
            snapshot = dict(self.tables)
            held = set(snapshot)
            t0 = time.monotonic()
            try:
                lost = await self._lease_call(self.leases.renew, held, upkeep=True)
            except Exception as exc:
                log.warning("the table leases could not be renewed (%s)", str(exc).splitlines()[0])
                continue
            took = time.monotonic() - t0
            if took > RENEW_EVERY:
                log.warning("renewing %d table leases took %.1f s", len(held), took)
            for table_id in lost:
                table = self.tables.get(table_id)
                if table is not None and table is snapshot[table_id]:  # (not one taken back meanwhile)
                    log.warning("table %s: its lease ran out and another worker holds it; closed here", table_id)
                    self._spawn(self._retire(table))  # (not awaited: the renewals must never wait for a table)

    async def _hand_over_wanted(self) -> None:
        """Hand the tables other workers ask for over to them (within ``WANT_POLL`` s)."""
        assert self.leases is not None
        leases = self.leases
        while True:
            await asyncio.sleep(WANT_POLL)
            try:
                wanted = await self._lease_call(leases.wanted, upkeep=True)
                if not wanted:
                    continue
                # a table this worker is loading after claiming it waits for the next look (handing it
                # over now, before it is in memory, would leave it served here and there)
                wanted = [(t, to) for t, to in wanted if t not in self._loading and t not in self._acquiring]
                for table_id, to in wanted:
                    table = self.tables.get(table_id)
                    if table is not None:
                        await self._retire(table)
                        self.handovers += 1
                        log.info("table %s: handed over to %s", table_id, to)
                await self.store.write(lambda c: None)  # every write queued before is committed
                await self._lease_call(leases.hand_over, wanted)  # (it may wait for a row: not on the renewals' thread)
            except Exception as exc:
                log.warning("tables could not be handed over (%s)", exc)

    async def _take_orphans(self) -> None:
        """Take the live tables whose worker died (lease run out) so their bots and clocks go on."""
        assert self.leases is not None
        leases = self.leases
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                ids = await self._lease_call(leases.orphans, upkeep=True)
                if ids:
                    taken = await self._take_in(ids)
                    self.takeovers += len(taken)
                    log.info("took over %d tables whose worker stopped", len(taken))
            except Exception as exc:
                log.warning("tables without a live worker could not be taken (%s)", exc)

    def _seats(self, st: StoredTable) -> list[Seat]:
        return [Seat(seat=s.seat, kind=s.kind, level=s.level, player=s.player, token_hash=s.token_hash,
                     player_id=s.player_id,
                     controller=s.controller) for s in st.seats]

    def _rebuild(self, st: StoredTable) -> Table:
        """A stored table back in play: its game's adapter replays the record of its start and moves."""
        if not has_hook(st.game, "server"):
            raise ValueError(f"game {st.game!r} is not served by this version")
        hook = server_game(st.game)
        return Table(self.services, hook, hook.restore(st), table_id=st.id, game=st.game, seed=st.seed,
                     seats=self._seats(st), status=st.status, created_at=st.created_at, series=st.series)

    async def _bring_back(self, table_id: str) -> Table | None:
        """A finished table no longer in memory, rebuilt from the database (``None``: there is none)."""
        def read(c: Any) -> tuple[StoredTable | None, int | None]:
            found = Store.table_summary(c, table_id)
            return self.store.load_finished(c, table_id), found["game_id"] if found is not None else None

        st, game_id = await self.store.read(read)
        if st is None or not has_hook(st.game, "server"):
            return None
        if table_id in self.tables:  # another hello brought it back meanwhile
            return self.tables[table_id]
        try:
            table = self._rebuild(st)
        except Exception as exc:
            log.error("table %s cannot be brought back (%s)", table_id, exc)
            return None
        table.game_id = game_id
        self.tables[table_id] = table
        log.info("table %s: finished, back in memory for its players", table_id)
        return table

    async def _sweep(self) -> None:
        """Abandon open tables nobody filled within ``open_table_ttl``."""
        period = max(0.5, min(60.0, self.config.open_table_ttl / 4))
        while True:
            await asyncio.sleep(period)
            now = time.time()
            for table in list(self.tables.values()):
                if table.status == "open" and now - table.created_at > self.config.open_table_ttl:
                    async with table.lock:
                        if table.status != "open":
                            continue
                        await self.store.write(Store.update_table(table.id, status="abandoned"))
                        table.status = "abandoned"
                    log.info("table %s: abandoned (open for %.0f s without all players)", table.id,
                             now - table.created_at)
                    table.tell("abandoned", None, "nobody took the free seats in time; the table is closed")
                    for conn in table.connections():
                        conn.close(1000)
                    self.tables.pop(table.id, None)

    def _counted(self) -> None:
        self.moves_played += 1

    def _forget(self, table: Table) -> None:
        """``table`` leaves memory (unless another object of the same id, taken over since, is there)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    def closed(self, table: Table) -> None:
        """A table nobody played at was closed: it leaves memory, its bots are forgotten."""
        self.bots.forget(table.id)
        self._forget(table)

    def finished(self, table: Table) -> None:
        """A game ended: its bots are forgotten; the table leaves memory when its last client goes."""
        self.bots.forget(table.id)
        if not table.connections():
            self._forget(table)

    # ------------------------------------------------------------------ lobby
    def live_tables_of(self, owner: str) -> int:
        """Open or playing tables created from the client address ``owner`` (and creations under way) in
        this process (one of several workers counts in the database instead, as it creates)."""
        for table_id in [t for t in self._owners if t not in self.tables]:
            del self._owners[table_id]  # gone from memory: finished, abandoned
        live = sum(1 for t, o in self._owners.items() if o == owner and self.tables[t].status in ("open", "playing"))
        return live + self._creating[owner]

    async def create(self, *, game: str, preset: str | None, options: dict[str, Any],
                     seats: list[SeatRequest] | None, name: str, join: bool,
                     owner: str | None = None, player_id: str | None = None) -> tuple[Table, int | None, str | None]:
        """A new table (and the creator's seat and token when ``join``): stored with its seats, put in
        play (bots-only tables start at once) and, with ``join``, its creator seated. ``owner`` (the
        client address) may have at most ``max_open_tables`` open or playing tables (429): counted in
        memory by one process, in the database by one of several workers (the address's tables may be
        on any of them)."""
        if owner is None or self.leases is not None:
            created = await self._create(game=game, preset=preset, options=options, seats=seats, name=name,
                                         join=join, player_id=player_id,
                                         creator=address_key(owner) if owner is not None else None)
            await self._let_go_if_people(created[0])
            return created
        cap = self.config.max_open_tables
        if self.live_tables_of(owner) >= cap:
            raise self._too_many_tables()
        self._creating[owner] += 1  # counted while the table is being stored, so parallel requests cannot pass the cap
        try:
            created = await self._create(game=game, preset=preset, options=options, seats=seats, name=name, join=join,
                                      player_id=player_id)
            self._owners[created[0].id] = owner
        finally:
            self._creating[owner] -= 1
            if not self._creating[owner]:
                del self._creating[owner]
        await self._let_go_if_people(created[0])
        return created

    def _too_many_tables(self) -> LobbyError:
        cap = self.config.max_open_tables
        return LobbyError(f"you already have {cap} open or playing tables: finish or leave one first", 429,
                          "lobby.too-many-tables", n=cap)

    async def _let_go_if_people(self, table: Table) -> None:
        """With several workers, a new table people will sit at is let go of at once: the worker their
        sockets and joins reach (by the table id's hash) takes it when they come, with no hand-over
        (a bots-only table stays: it plays now)."""
        if self.leases is None or not any(s.kind == "person" for s in table.seats):
            return
        async with table.lock:
            self._forget(table)
            await table.close(1012)
            await self.store.write(self.leases.let_go(table.id))
        self.bots.forget(table.id)

    async def _create(self, *, game: str, preset: str | None, options: dict[str, Any],
                      seats: list[SeatRequest] | None, name: str, join: bool,
                      player_id: str | None = None, creator: str | None = None) -> tuple[Table, int | None, str | None]:
        """The table made and stored (see :meth:`create`); with ``creator`` (an address's key) it is
        stored only while that address has fewer than ``max_open_tables`` live tables in the database."""
        hook = server_game(game)
        preset = preset or get_game(game).default_preset
        table_id = secrets.token_urlsafe(9)
        try:
            count = get_game(game).seats(preset, options)
            requests = seats if seats is not None else [SeatRequest(kind="person") for _ in range(count)]
            check_requests(game, hook, requests, preset, count)
            # the secret comes first (docs/fairness.md); until the persons' nonces are in, the table
            # holds the deal without nonces, which nobody sees (a bots-only table keeps it: no nonce comes)
            fair = FairDeal.draw(table_id, 1, count)
            seed = fair.seed()
            opening = hook.open(game, preset, options, seed)
        except OptionsError as exc:
            raise LobbyError(str(exc)) from None
        if join and not any(r.kind == "person" for r in requests):
            raise LobbyError("there is no person seat to join (set join to false for a bots-only table)", 400,
                             "lobby.no-person-seat")
        fair.dealt = all(r.kind == "bot" for r in requests)
        opening.fair = fair
        opening.start = {**opening.start, "fair": fair.stored()}
        now = time.time()
        seat_list = [Seat(seat=i, kind=r.kind, level=r.level if r.kind == "bot" else None, player=None,
                          token_hash=None, controller="bot" if r.kind == "bot" else "free")
                     for i, r in enumerate(requests)]
        all_bots = all(s.controller == "bot" for s in seat_list)
        status = "playing" if all_bots else "open"
        row = {"id": table_id, "game": game, "preset": opening.preset, "options": json.dumps(opening.options),
               "seed": json.dumps(seed), "start": json.dumps(opening.start),
               "status": status, "plies": 0, "owner": self.config.process_name, "created_at": now, "updated_at": now,
               **opening.columns}
        if self.leases is not None:  # the creator holds it until the worker its sockets reach asks for it
            row["lease_until"] = lease_end()
        seat_rows = [{"seat": s.seat, "kind": s.kind, "level": s.level, "player": None, "token_hash": None,
                      "controller": s.controller} for s in seat_list]
        if creator is None:
            await self.store.write(Store.insert_table(row, seat_rows))
        elif not await self.store.write(Store.insert_table_capped({**row, "creator": creator}, seat_rows,
                                                                  self.config.max_open_tables)):
            raise self._too_many_tables()
        table = Table(self.services, hook, opening, table_id=table_id, game=game, seed=seed, seats=seat_list,
                      status=status, created_at=now)
        self.tables[table_id] = table
        log.info("table %s: created (%s, %s, seats %s)", table_id, game, opening.preset,
                 ", ".join(s.kind if s.kind == "person" else f"bot:{s.level}" for s in seat_list))
        if all_bots:
            table.schedule_bot()
        if not join:
            return table, None, None
        seat, token = await self.join(table_id, name, None, player_id)
        return table, seat, token

    async def join(self, table_id: str, name: str, seat_no: int | None,
                   player_id: str | None = None) -> tuple[int, str]:
        """Take a free person seat (its games count for ``player_id``); the game starts when none is left."""
        table = await self.local(table_id)
        if table is None:
            raise LobbyError(f"there is no open table {table_id}", 404, "lobby.no-open-table", table=table_id)
        if table.status == "finished" and not table.connections():
            self._forget(table)  # taken in by a worker of several only to be refused below
        async with table.lock:
            if table.status != "open":
                raise LobbyError(f"table {table_id} is {table.status}: no seat is free", 409, "lobby.not-open",
                                 table=table_id, state=table.status)
            free = [s for s in table.seats if s.controller == "free"]
            if seat_no is not None:
                free = [s for s in free if s.seat == seat_no]
                if not free:
                    raise LobbyError(f"seat {seat_no} is not free", 409, "lobby.seat-taken", seat=seat_no)
            if not free:
                raise LobbyError(f"table {table_id} has no free seat", 409, "lobby.table-full", table=table_id)
            seat = free[0]
            token = new_token()
            digest = hash_token(token)
            starts = len([s for s in table.seats if s.controller == "free"]) == 1
            write = Store.update_seat(table.id, seat.seat, player=name, token_hash=digest, controller="person",
                                      player_id=player_id)
            if starts:
                await self.store.write(Store.together(write, Store.update_table(table.id, status="playing")))
            else:
                await self.store.write(write)
            seat.player, seat.token_hash, seat.controller, seat.player_id = name, digest, "person", player_id
            log.info("table %s: %s took seat %d", table.id, name, seat.seat)
            table.tell("joined", seat.seat, f"{name} took seat {seat.seat}", name=name, seat=seat.seat)
            if starts:
                table.status = "playing"
                log.info("table %s: every seat is taken; the game starts", table.id)
                table.tell("started", None, "every seat is taken: the game starts")
                table.start_grace_timers()
        table.schedule_bot()
        return seat.seat, token

    async def listed_tables(self, status: str = "open", offset: int = 0,
                            limit: int | None = None) -> tuple[list[TableInfo], int]:
        """:meth:`open_tables`; with several workers, from the database (each holds only some tables)."""
        if self.leases is None:
            return self.open_tables(status, offset, limit)
        found, total = await self.store.read(lambda c: Store.list_tables(c, status, offset, limit))
        return [stored_info(f) for f in found], total

    def open_tables(self, status: str = "open", offset: int = 0,
                    limit: int | None = None) -> tuple[list[TableInfo], int]:
        """A page of the tables with free seats (or, with ``status="playing"``, games to watch), oldest
        first, and how many there are in all."""
        found = sorted((t for t in self.tables.values() if t.status == status), key=lambda t: t.created_at)
        page = found[offset:] if limit is None else found[offset:offset + limit]
        return [t.info() for t in page], len(found)

    # ------------------------------------------------------------------ WebSocket messages
    async def handle(self, conn: Conn, table_id: str, raw: str | bytes | None) -> None:
        """One incoming WebSocket message (within its address's budget: the app's WebSocket loop
        refused a flood before), checked, then dispatched. Never raises."""
        version = conn.table.version if conn.table is not None else None
        if raw is None or isinstance(raw, bytes):
            conn.error("bad-message", "messages are JSON text frames", version=version)
            return
        if len(raw) > self.config.max_message:
            conn.error("too-long", f"a message may have at most {self.config.max_message} bytes", version=version,
                       phrase=Phrase("error.too-long.max", {"n": self.config.max_message}))
            return
        try:
            data = json.loads(raw)
        except ValueError:
            conn.error("bad-json", "the message is not valid JSON", version=version)
            return
        except RecursionError:  # e.g. 2,000 nested arrays in a 4 KB frame
            conn.error("bad-message", "the message is nested too deeply", version=version)
            return
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            conn.error("bad-message", "a message is a JSON object with a \"type\"", version=version)
            return
        if data["type"] not in _TYPES:
            conn.error("unknown-message", f"unknown message type {data['type'][:40]!r} (one of {', '.join(_TYPES)})",
                       version=version)
            return
        try:
            msg = client_adapter.validate_python(data)
        except ValidationError as exc:
            conn.error("bad-message", f"{data['type']}: {_one_line(exc)}", msg_id=_id_of(data), version=version)
            return
        try:
            await self._dispatch(conn, table_id, msg)
        except Exception:
            log.exception("table %s: a %s message failed", table_id, data["type"])
            conn.error("internal", "the server could not handle that message", version=version)

    async def _dispatch(self, conn: Conn, table_id: str, msg: AnyClientMessage) -> None:
        if isinstance(msg, Ping):
            conn.send(Pong(id=msg.id))
            return
        if isinstance(msg, Hello):
            await self._hello(conn, table_id, msg)
            return
        table = conn.table
        if not conn.hello or table is None:
            conn.error("hello-first", "say hello (with your seat's token, or spectate) first")
            return
        if isinstance(msg, Sync):
            conn.send(table.state_message(conn.seat))
            return
        if isinstance(msg, MoveMessage):
            await table.player_move(conn, msg.move, msg.stateVersion, msg.id)
            return
        # the table serves what its game has, and answers the rest with one line
        if isinstance(msg, HintRequest):
            await table.player_request("hint", conn, msg.id)
        elif isinstance(msg, NextGame) and conn.seat is not None:
            table.take_nonce(conn.seat, msg.nonce)  # for the next game's deal, before it is dealt
            await table.player_request("next", conn, msg.id)
        elif isinstance(msg, UndoMessage):
            await table.player_request("undo", conn, msg.id, msg.stateVersion)
        elif isinstance(msg, NextGame):
            await table.player_request("next", conn, msg.id)
        elif isinstance(msg, RematchRequest):
            await table.rematch(conn, msg.accept, msg.id, msg.nonce)

    async def _hello(self, conn: Conn, table_id: str, msg: Hello) -> None:
        if conn.hello:
            conn.error("already-hello", "this connection has already said hello")
            return
        try:
            table = await self.local(table_id)
        except TableBusy:
            conn.close(1013)  # try again later: the clients reconnect by themselves
            return
        if table is not None and self.leases is not None and table.status == "finished" and not table.connections() \
                and (msg.spectate or table.seat_for_token(msg.token or "") is None):
            self._forget(table)  # taken in for a person back for a rematch, but this hello is not one
            table = None
        if table is None and self.leases is None and not msg.spectate and msg.token:
            # a person back at a finished table (a reload at the game-over view): the rematch question
            back = await self._bring_back(table_id)
            if back is not None and back.seat_for_token(msg.token) is not None:
                table = back
            elif back is not None and not back.connections():
                self.tables.pop(table_id, None)
        if table is None:
            found = await self.store.read(lambda c: Store.table_summary(c, table_id))
            if found is not None and found["game_id"] is not None:
                conn.error("no-table", f"table {table_id} has finished; its record is "
                           f"/api/games/{found['game_id']}/record",
                           phrase=Phrase("error.no-table.finished", {"table": table_id}))
            else:
                conn.error("no-table", f"there is no table {table_id} being played",
                           phrase=Phrase("error.no-table.id", {"table": table_id}))
            conn.close(1008)
            return
        if msg.spectate:
            await table.attach(conn, None)  # a spectator's nonce does not count
            return
        seat = table.seat_for_token(msg.token or "")
        if seat is None:
            log.info("table %s: a hello with a wrong token", table_id)
            conn.error("wrong-token", "that token is no seat's at this table", version=table.version)
            conn.close(1008)
            return
        await table.attach(conn, seat, msg.nonce)

    async def detach(self, conn: Conn) -> None:
        """A connection closed."""
        table = conn.table
        if table is None:
            return
        await table.detach(conn)
        if table.status in ("finished", "abandoned") and not table.connections():
            self._forget(table)

    def health(self) -> dict[str, Any]:
        """Figures for ``/healthz`` (no host name or process id: they would tell strangers about the machine)."""
        playing = sum(1 for t in self.tables.values() if t.status == "playing")
        cluster = {"takeovers": self.takeovers, "handovers": self.handovers} if self.leases is not None else {}
        return {"ok": True, "tables": len(self.tables), "playing": playing, "moves": self.moves_played, **cluster,
                "db": self.store.dialect, "uptime": round(time.time() - self.started, 1),
                "commits": self.store.commits, "botDecisions": self.bots.decisions, "botFallbacks": self.bots.fallbacks}


def stored_info(found: dict[str, Any]) -> TableInfo:
    """A table as the lobby shows it, from its stored row and seats (:meth:`Store.table_summary`): for
    tables this process does not hold (a person seat shows ``disconnected``: who is connected only the
    holding process knows)."""
    row = found["row"]
    seats = [{"seat": s["seat"], "kind": s["kind"], "level": s["level"] if s["kind"] == "bot" else None,
              "player": s["player"], "status": "bot" if s["controller"] == "bot" else
              ("free" if s["controller"] == "free" else "disconnected"),
              "botLevel": s["level"] if s["controller"] == "bot" else None} for s in found["seats"]]
    return TableInfo.model_validate({
        "id": row["id"], "game": row["game"], "preset": row["preset"], "options": json.loads(row["options"]),
        "status": row["status"], "seats": seats, "stateVersion": row["plies"] + (row.get("version_base") or 0),
        "link": f"/t/{row['id']}",
        "gameId": found["game_id"], "series": json.loads(row["series"]) if row.get("series") else None,
        "fair": _stored_fair(row, len(seats))})


def _stored_fair(row: dict[str, Any], seats: int) -> dict[str, Any] | None:
    """The public part of a stored table's fair deal (the commitment; never the secret: a finished
    game's is in its record)."""
    start = json.loads(row["start"]) if row.get("start") else {}
    if "fair" not in start:
        return None
    return FairDeal.from_stored(row["id"], seats, start["fair"]).info(revealed=False).model_dump()


_SANE_ID = re.compile(r"[\x20-\x7e]{1,64}")


def _id_of(data: dict[str, Any]) -> str | None:
    """The ``id`` of a refused message, echoed only when it is one a client may send (MSG_ID)."""
    value = data.get("id")
    return value if isinstance(value, str) and _SANE_ID.fullmatch(value) else None
