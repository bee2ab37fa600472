"""Persistence for the server: every write goes through one writer that commits in groups.

Each accepted move is handed to :meth:`Store.write` and acknowledged to its player only after the
transaction holding it has committed. The writer takes every write waiting at that moment into one
transaction (group commit), so 200 busy tables cost one commit per batch rather than one per move;
if a batch fails, its writes are retried one by one so that only the broken one fails. SQLite at
``synchronous=NORMAL`` commits on the event loop's thread (no fsync: a fraction of a millisecond),
with checkpoints in a worker thread; with ``FULL`` or PostgreSQL each batch commits in a worker
thread (see :meth:`Store._inline_connection`).

Reads (lobby lists, records, statistics) run on their own connections in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from spite.server import db
from spite.server.figures import FIGURES
from spite.server.protocol import SeatRating
from spite.server.ratings import rate_game, seat_rating
from spite.server.table.effects import (
    DeleteMoves,
    InsertAbort,
    InsertMove,
    Row,
    Stored,
    StoredTable,
    UpdateSeat,
    UpdateTable,
)
from spite.server.table.seats import PLAYER_ID, Seat

__all__ = ["Store", "StoredTable"]

log = logging.getLogger("spite.server.store")

Write = Callable[[Connection], Any]

class _MoveInsert:
    """The write of one accepted move (:meth:`Store.insert_move`): callable like any write, and its row
    is there so that the writer can insert a run of moves with one ``executemany``."""

    __slots__ = ("row",)

    def __init__(self, row: dict[str, Any]) -> None:
        self.row = row

    def __call__(self, conn: Connection) -> None:
        _insert_moves(conn, [self])


def _insert_moves(conn: Connection, inserts: Sequence[_MoveInsert]) -> None:
    """Move rows as one ``executemany`` on the driver's own cursor: SQLAlchemy's statement execution
    around it cost more CPU than the insert itself (tens of µs a batch, one batch every move or two at a
    human pace). A refused row (the ply taken: another worker stored it) raises SQLAlchemy's
    ``IntegrityError`` as ever."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    sql = _MOVE_SQL.get(mark)
    if sql is None:
        sql = _MOVE_SQL[mark] = (f"INSERT INTO {db.moves.name} (table_id, ply, seat, entries, created_at) "
                                 f"VALUES ({', '.join([mark] * 5)})")
    now = time.time()
    rows = [(r["table_id"], r["ply"], r["seat"], r["entries"], now) for r in (f.row for f in inserts)]
    driver = conn.connection.dbapi_connection
    assert driver is not None
    cursor = driver.cursor()
    try:
        cursor.executemany(sql, rows)
    except conn.dialect.loaded_dbapi.IntegrityError as exc:
        raise sa.exc.IntegrityError(sql, rows, exc) from exc
    finally:
        cursor.close()


_MOVE_SQL: dict[str, str] = {}


class Store:
    """The database of one server process."""

    def __init__(self, engine: Engine, batch: int = 512) -> None:
        self.engine = engine
        self.batch = batch
        self._queue: asyncio.Queue[tuple[Write, asyncio.Future[Any]]] | None = None
        self._task: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        self._conn: Connection | None = None
        """SQLite without an fsync per commit: the writer's own connection, used on the event loop's thread."""
        self.commits = 0
        self.writes = 0
        self._commits = ThreadPoolExecutor(1, thread_name_prefix="spite-db-writer")
        self._thread_conn: Connection | None = None
        """The writer thread's own connection (PostgreSQL, or SQLite with fsync)."""
        """The thread that commits batches when they are not committed on the event loop's."""

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    # ------------------------------------------------------------------ the writer
    async def start(self) -> None:
        """Start the writer task (in the running loop)."""
        self._queue = asyncio.Queue()
        self._conn = await asyncio.to_thread(self._inline_connection)
        self._task = asyncio.create_task(self._writer(), name="spite-db-writer")
        if self._conn is not None:
            self._checkpointer = asyncio.create_task(self._checkpoints(), name="spite-db-checkpoints")

    def _inline_connection(self) -> Connection | None:
        """SQLite in WAL mode with ``synchronous`` NORMAL or OFF commits without an fsync, in a fraction
        of a millisecond: then the writer commits on the event loop's own thread, on a connection of its
        own (a hop to a worker thread and back costs more than the commit, and the two threads then
        fight over the GIL), and checkpoints (which do fsync) run in a worker thread now and then
        (:meth:`_checkpoints`) instead of inside a commit. Otherwise (FULL, PostgreSQL) ``None``: each
        batch is committed in a worker thread."""
        if self.engine.dialect.name != "sqlite":
            return None
        conn = self.engine.connect()
        try:
            journal = str(conn.exec_driver_sql("PRAGMA journal_mode").scalar()).lower()
            sync = int(conn.exec_driver_sql("PRAGMA synchronous").scalar() or 0)
            conn.commit()
            if journal != "wal" or sync > 1:
                conn.close()
                return None
            # the checkpoints of _checkpoints keep the log short; this only bounds it if they fall behind
            conn.exec_driver_sql("PRAGMA wal_autocheckpoint=10000")
            conn.commit()
        except Exception:
            conn.close()
            raise
        return conn

    async def _checkpoints(self, every: float = 1.0) -> None:
        """Copy the write-ahead log into the database file now and then, off the event loop (a passive
        checkpoint never blocks the writer)."""
        done = self.commits
        while True:
            await asyncio.sleep(every)
            if self.commits != done:
                done = self.commits
                try:
                    await asyncio.to_thread(self._checkpoint)
                except Exception as exc:  # the next one tries again; SQLite's own checkpoint is the fallback
                    log.warning("a checkpoint failed: %s", exc)

    def _checkpoint(self) -> None:
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    async def close(self) -> None:
        """Finish the writes already queued, stop the writer, close the engine."""
        if self._queue is not None and self._task is not None:
            await self._queue.join()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._thread_conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.get_running_loop().run_in_executor(self._commits, self._thread_conn.close)
            self._thread_conn = None
        self._commits.shutdown(wait=False)
        await asyncio.to_thread(self.engine.dispose)

    async def write(self, fn: Write) -> Any:
        """Run ``fn(conn)`` inside a committed transaction; returns once it is committed."""
        if self._queue is None:
            raise RuntimeError("the store is not started")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((fn, fut))
        return await fut

    async def _writer(self) -> None:
        assert self._queue is not None
        queue = self._queue
        while True:
            first = await queue.get()
            items = [first]
            while len(items) < self.batch and not queue.empty():
                items.append(queue.get_nowait())
            try:
                outcomes = await self._run_commit([fn for fn, _ in items])
            except Exception as exc:  # the whole batch failed: one by one
                log.warning("a batch of %d writes failed (%s); retrying them one by one", len(items), exc)
                outcomes = []
                for fn, _ in items:
                    try:
                        outcomes.append((True, (await self._run_commit([fn]))[0][1]))
                    except Exception as one:
                        log.error("a write failed: %s", one)
                        outcomes.append((False, one))
            for (_, fut), (ok, value) in zip(items, outcomes, strict=True):
                if not fut.done():
                    if ok:
                        fut.set_result(value)
                    else:
                        fut.set_exception(value)
                queue.task_done()

    async def _run_commit(self, fns: list[Write]) -> list[tuple[bool, Any]]:
        """Commit ``fns`` in one transaction: here (SQLite without fsync, see :meth:`_inline_connection`)
        or in a worker thread."""
        conn = self._conn
        if conn is None:  # on the writer's own thread: never queued behind reads in the shared pool
            return await asyncio.get_running_loop().run_in_executor(self._commits, self._commit, fns)
        began = time.perf_counter() if FIGURES.on else 0.0
        try:
            with conn.begin():
                out = self._writes(conn, fns)
        except Exception:
            if conn.invalidated or conn.closed:  # a broken connection: the next batch gets a fresh one
                with contextlib.suppress(Exception):
                    conn.close()
                self._conn = await asyncio.to_thread(self._inline_connection)
            raise
        if FIGURES.on:
            FIGURES.commit.observe(time.perf_counter() - began)
        self.commits += 1
        self.writes += len(fns)
        return out

    def _commit(self, fns: list[Write]) -> list[tuple[bool, Any]]:
        """One transaction of its own (in the writer's thread), on the thread's own connection: a
        connection from the pool for every batch cost a checkout and its liveness ping (a round trip)
        each time, a batch every move or two at a human pace. A connection that failed is dropped and
        the next batch opens a fresh one."""
        conn = self._thread_conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._thread_conn = self.engine.connect()
        began = time.perf_counter() if FIGURES.on else 0.0
        try:
            with conn.begin():
                out = self._writes(conn, fns)
        except Exception:
            self._thread_conn = None
            with contextlib.suppress(Exception):
                conn.close()
            raise
        if FIGURES.on:
            FIGURES.commit.observe(time.perf_counter() - began)
        self.commits += 1
        self.writes += len(fns)
        return out

    @staticmethod
    def _writes(conn: Connection, fns: list[Write]) -> list[tuple[bool, Any]]:
        """The writes in order, each run of consecutive move inserts as one ``executemany``."""
        out: list[tuple[bool, Any]] = []
        i, n = 0, len(fns)
        while i < n:
            j = i
            while j < n and isinstance(fns[j], _MoveInsert):
                j += 1
            if j - i > 1:
                _insert_moves(conn, fns[i:j])  # type: ignore[arg-type]
                out.extend((True, None) for _ in range(i, j))
                i = j
            else:
                out.append((True, fns[i](conn)))
                i += 1
        return out

    async def transact(self, fn: Callable[[Connection], Any]) -> Any:
        """Run ``fn(conn)`` in a transaction of its own on a connection of its own, in a worker thread:
        for the rare writes that may refuse (an operator's action, a report), which must not fail a
        batch of moves with them."""

        def run() -> Any:
            with self.engine.begin() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    async def read(self, fn: Callable[[Connection], Any]) -> Any:
        """Run ``fn(conn)`` on a reading connection in a worker thread."""

        def run() -> Any:
            with self.engine.connect() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    # ------------------------------------------------------------------ writes (run in the writer)
    @staticmethod
    def together(*writes: Write) -> Write:
        """Several writes as one: they go into the same commit, all or none."""

        def fn(conn: Connection) -> None:
            for write in writes:
                write(conn)

        return fn

    @staticmethod
    def insert_table(row: dict[str, Any], seat_rows: list[dict[str, Any]]) -> Write:
        """A new table and its seats."""

        def fn(conn: Connection) -> None:
            conn.execute(sa.insert(db.tables).values(**row))
            if seat_rows:
                conn.execute(sa.insert(db.seats), [{"table_id": row["id"], **s} for s in seat_rows])

        return fn

    @staticmethod
    def insert_table_capped(row: dict[str, Any], seat_rows: list[dict[str, Any]], cap: int) -> Write:
        """A new table and its seats, only if the address that creates it (``row["creator"]``, a hash)
        has fewer than ``cap`` open or playing tables in the database; the write returns whether it
        inserted. On PostgreSQL the count and the insert hold a transaction-scoped advisory lock on
        the address, so that two workers creating for one address at the same moment count one after
        the other (the second sees the first's committed row) and cannot both pass the cap."""
        creator = row["creator"]

        def fn(conn: Connection) -> bool:
            if conn.dialect.name == "postgresql":
                key = int.from_bytes(hashlib.sha256(creator.encode()).digest()[:8], "big", signed=True)
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(key)))
            if Store.live_tables_of(conn, creator) >= cap:
                return False
            Store.insert_table(row, seat_rows)(conn)
            return True

        return fn

    @staticmethod
    def live_tables_of(conn: Connection, creator: str) -> int:
        """The open or playing tables the address whose key is ``creator`` created, or was seated at by
        a seek (a seekers' table has no creator; each seeker's seat keeps their address's key)."""
        t, s = db.tables, db.seats
        seated = sa.select(s.c.table_id).where(s.c.address == creator)
        return int(conn.execute(sa.select(sa.func.count()).select_from(t).where(
            t.c.status.in_(("open", "playing")),
            sa.or_(t.c.creator == creator, sa.and_(t.c.creator.is_(None), t.c.id.in_(seated))))).scalar_one())

    @staticmethod
    def insert_move(table_id: str, ply: int, seat: int, entries: list[Any]) -> Write:
        """An accepted move (with the shuffles it caused)."""
        # the table row's ``plies`` is brought up to date at status changes and at the end
        return _MoveInsert({"table_id": table_id, "ply": ply, "seat": seat,
                            "entries": json.dumps(entries, separators=(",", ":"))})

    @staticmethod
    def update_seat(table_id: str, seat: int, **values: Any) -> Write:
        """Change a seat (a player joined, a bot took over, the player came back)."""

        def fn(conn: Connection) -> None:
            conn.execute(sa.update(db.seats).where(db.seats.c.table_id == table_id, db.seats.c.seat == seat)
                         .values(**values))

        return fn

    @staticmethod
    def update_table(table_id: str, **values: Any) -> Write:
        """Change a table's status or owner."""

        def fn(conn: Connection) -> None:
            conn.execute(sa.update(db.tables).where(db.tables.c.id == table_id)
                         .values(updated_at=time.time(), **values))

        return fn

    @staticmethod
    def insert_game(table_id: str, game: str, preset: str, record: dict[str, Any], plies: int, turns: int,
                    players: list[dict[str, Any]], *, finish: bool = True,
                    result: dict[str, Any] | None = None) -> Write:
        """A finished game's record and its players; the table is marked finished (unless ``finish`` is
        false: a match table going on to its next game). ``result``: how it ended when the record does
        not say (a rated game lost by leaving)."""

        def fn(conn: Connection) -> int:
            now = time.time()
            outcome = result if result is not None else record.get("result") or {}
            res = conn.execute(sa.insert(db.games).values(
                table_id=table_id, game=game, preset=preset, record=json.dumps(record),
                result=json.dumps(outcome), plies=plies, turns=turns, finished_at=now))
            key = res.inserted_primary_key
            assert key is not None
            game_id = int(key[0])
            if players:
                conn.execute(sa.insert(db.game_players), [{"game_id": game_id, **p} for p in players])
            if finish:
                conn.execute(sa.update(db.tables).where(db.tables.c.id == table_id)
                             .values(status="finished", plies=plies, updated_at=now))
            return game_id

        return fn

    @staticmethod
    def table_write(table_id: str, rows: Sequence[Row]) -> Write:
        """The rows a table's core asks to store (:mod:`spite.server.table.effects`) as one write; its
        answer is the core's :class:`Stored`: the id of the game it inserts, if any, and the ratings a
        rated game gave (a move alone answers ``None``: stored, nothing more). A move alone is a
        :class:`_MoveInsert`, so that the writer inserts a run of them with one ``executemany``."""
        if len(rows) == 1 and isinstance(rows[0], InsertMove):
            row = rows[0]
            return Store.insert_move(table_id, row.ply, row.seat, row.entries)

        def fn(conn: Connection) -> Stored:
            game_id: int | None = None
            rated: dict[str, SeatRating] = {}
            for row in rows:
                if isinstance(row, InsertMove):
                    Store.insert_move(table_id, row.ply, row.seat, row.entries)(conn)
                elif isinstance(row, UpdateTable):
                    values = dict(row.values)
                    for name in row.game_id_in:  # the game inserted above, in this same commit
                        data = json.loads(values[name])
                        data["gameIds"] = [*data.get("gameIds", []), *([game_id] if game_id is not None else [])]
                        values[name] = json.dumps(data)
                    Store.update_table(table_id, **values)(conn)
                elif isinstance(row, UpdateSeat):
                    Store.update_seat(table_id, row.seat, **row.values)(conn)
                elif isinstance(row, DeleteMoves):
                    Store.delete_moves(table_id, row.from_ply)(conn)
                elif isinstance(row, InsertAbort):
                    conn.execute(sa.insert(db.aborts).values(player_id=row.player_id, table_id=table_id,
                                                             at=time.time()))
                else:
                    game_id = Store.insert_game(table_id, row.game, row.preset, row.record, row.plies, row.turns,
                                                row.players, finish=row.finish, result=row.result)(conn)
                    if row.rating is not None:  # a rated table's last game: rated in the same commit
                        new = rate_game(conn, game_id, row.rating, row.players)
                        rated = {pid: seat_rating(r) for pid, r in new.items()}
            return Stored(True, game_id, ratings=rated)

        return fn

    @staticmethod
    def delete_moves(table_id: str, from_ply: int = 0) -> Write:
        """Forget the stored moves from ``from_ply`` on (an undone move; a match's finished game)."""

        def fn(conn: Connection) -> None:
            conn.execute(sa.delete(db.moves).where(db.moves.c.table_id == table_id, db.moves.c.ply >= from_ply))

        return fn

    # ------------------------------------------------------------------ reads
    def load_live(self, conn: Connection, owner: str | None = None) -> list[StoredTable]:
        """Every table still open or playing (of ``owner``, or of any process), with seats and moves."""
        q = sa.select(db.tables).where(db.tables.c.status.in_(("open", "playing")))
        if owner is not None:
            q = q.where(db.tables.c.owner == owner)
        return [self._stored(conn, row) for row in conn.execute(q.order_by(db.tables.c.created_at)).mappings()]

    def load_tables(self, conn: Connection, ids: list[str], *, finished_too: bool = False) -> list[StoredTable]:
        """The tables ``ids`` that are open or playing (or finished, with ``finished_too``), with seats
        and moves (a worker of several that has just taken them by lease)."""
        statuses = ("open", "playing", "finished") if finished_too else ("open", "playing")
        q = sa.select(db.tables).where(db.tables.c.id.in_(ids), db.tables.c.status.in_(statuses))
        return [self._stored(conn, row) for row in conn.execute(q.order_by(db.tables.c.created_at)).mappings()]

    @staticmethod
    def list_tables(conn: Connection, status: str, offset: int = 0,
                    limit: int | None = None) -> tuple[list[dict[str, Any]], int]:
        """A page of the tables of ``status``, oldest first, as :meth:`table_summary` gives them, and how
        many there are in all (the lobby of several workers)."""
        t = db.tables
        total = int(conn.execute(sa.select(sa.func.count()).select_from(t).where(t.c.status == status)).scalar() or 0)
        q = sa.select(t).where(t.c.status == status).order_by(t.c.created_at, t.c.id).offset(offset)
        rows = conn.execute(q if limit is None else q.limit(limit)).mappings().all()
        ids = [r["id"] for r in rows]
        seat_rows: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        if ids:
            for s in conn.execute(sa.select(db.seats).where(db.seats.c.table_id.in_(ids))
                                  .order_by(db.seats.c.table_id, db.seats.c.seat)).mappings():
                seat_rows[s["table_id"]].append(dict(s))
        return [{"row": dict(r), "seats": seat_rows[r["id"]], "game_id": None} for r in rows], total

    def load_finished(self, conn: Connection, table_id: str) -> StoredTable | None:
        """A finished table with its last game's moves (a person back for a rematch), or ``None``."""
        row = conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id, db.tables.c.status == "finished")
                           ).mappings().first()
        return None if row is None else self._stored(conn, row)

    @staticmethod
    def _stored(conn: Connection, row: Any) -> StoredTable:
        """A table's row with its seats and moves."""
        seat_rows = conn.execute(sa.select(db.seats).where(db.seats.c.table_id == row["id"])
                                 .order_by(db.seats.c.seat)).mappings()
        move_rows = conn.execute(sa.select(db.moves.c.ply, db.moves.c.entries)
                                 .where(db.moves.c.table_id == row["id"]).order_by(db.moves.c.ply)).all()
        stored = StoredTable(
            id=row["id"], game=row["game"], preset=row["preset"], options=json.loads(row["options"]),
            seed=json.loads(row["seed"]), start=json.loads(row["start"]), status=row["status"],
            created_at=row["created_at"],
            seats=[Seat(seat=s["seat"], kind=s["kind"], level=s["level"], player=s["player"],
                              token_hash=s["token_hash"], controller=s["controller"],
                              player_id=s["player_id"], address=s["address"]) for s in seat_rows],
            moves=[json.loads(m.entries) for m in move_rows],
            version_base=int(row["version_base"] or 0),
            game_data=json.loads(row["game_data"]) if row["game_data"] else None,
            series=json.loads(row["series"]) if row["series"] else None,
            rated=bool(row["rated"]),
        )
        plies = [m.ply for m in move_rows]
        if plies != list(range(len(plies))):
            raise RuntimeError(f"table {row['id']}: stored moves are not 0..{len(plies) - 1}")
        return stored

    @staticmethod
    def table_summary(conn: Connection, table_id: str) -> dict[str, Any] | None:
        """A table's row and seats (for tables that are not in memory), or ``None``."""
        row = conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id)).mappings().first()
        if row is None:
            return None
        seat_rows = conn.execute(sa.select(db.seats).where(db.seats.c.table_id == table_id)
                                 .order_by(db.seats.c.seat)).mappings().all()
        game_id = conn.execute(sa.select(db.games.c.id).where(db.games.c.table_id == table_id)
                               .order_by(db.games.c.id.desc()).limit(1)).scalar()  # a match's last game
        return {"row": dict(row), "seats": [dict(s) for s in seat_rows], "game_id": game_id}

    @staticmethod
    def games_of(conn: Connection, player: str, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        """Finished games a player sat at, newest first (``player``: see :meth:`player_is`)."""
        g, gp = db.games, db.game_players
        ids = sa.select(gp.c.game_id).where(Store.player_is(player))
        rows = conn.execute(sa.select(g.c.id, g.c.table_id, g.c.game, g.c.preset, g.c.result, g.c.plies, g.c.turns,
                                      g.c.finished_at).where(g.c.id.in_(ids)).order_by(g.c.id.desc())
                            .limit(limit).offset(offset)).mappings().all()
        out = []
        for r in rows:
            players = conn.execute(sa.select(gp).where(gp.c.game_id == r["id"]).order_by(gp.c.seat)).mappings().all()
            out.append({**dict(r), "result": json.loads(r["result"]), "players": [dict(p) for p in players]})
        return out

    @staticmethod
    def rated_in_play(conn: Connection, game_id: int) -> bool:
        """Whether game ``game_id`` is one of a rated table still in play (a rated match's earlier game):
        no review helps a player before the match is over."""
        g, t = db.games, db.tables
        found = conn.execute(sa.select(t.c.id).select_from(g.join(t, t.c.id == g.c.table_id)).where(
            g.c.id == game_id, t.c.rated, t.c.status.in_(("open", "playing")))).first()
        return found is not None

    @staticmethod
    def record_of(conn: Connection, game_id: int) -> dict[str, Any] | None:
        """A finished game's record, or ``None``."""
        text = conn.execute(sa.select(db.games.c.record).where(db.games.c.id == game_id)).scalar()
        return json.loads(text) if text is not None else None

    @staticmethod
    def player_is(player: str) -> sa.ColumnElement[bool]:
        """Which ``spite_game_players`` rows are ``player``'s: a player id (``p-`` and 24 hex digits)
        owns its games; a name stands only for games played without a player id (and the bots,
        ``bot:LEVEL``), so nobody adds games to another's statistics by taking their name."""
        gp = db.game_players
        if PLAYER_ID.fullmatch(player):
            return gp.c.player_id == player
        return sa.and_(gp.c.player == player, gp.c.player_id.is_(None))

    @staticmethod
    def stats_of(conn: Connection, player: str) -> list[dict[str, Any]]:
        """Per preset: games, wins, points and mean length (turns, plies) of the games a player played to
        the end; ``takenOver`` counts the games a takeover bot played in their name or that they lost by
        leaving (left out of the other figures)."""
        g, gp = db.games, db.game_players
        gone = sa.or_(gp.c.taken_over, gp.c.left)  # not played to the end by the player
        q = (sa.select(g.c.game, g.c.preset,
                       sa.func.sum(sa.case((gone, 0), else_=1)).label("games"),
                       sa.func.sum(sa.case((gone, 1), else_=0)).label("taken_over"),
                       sa.func.sum(sa.case((sa.and_(gp.c.won, sa.not_(gone)), 1), else_=0)).label("wins"),
                       sa.func.sum(sa.case((gone, 0), else_=gp.c.points)).label("points"),
                       sa.func.avg(sa.case((gone, None), else_=g.c.turns)).label("mean_turns"),
                       sa.func.avg(sa.case((gone, None), else_=g.c.plies)).label("mean_plies"))
             .select_from(gp.join(g, gp.c.game_id == g.c.id))
             .where(Store.player_is(player))
             .group_by(g.c.game, g.c.preset).order_by(g.c.game, g.c.preset))
        return [{"game": r.game, "preset": r.preset, "games": int(r.games or 0), "wins": int(r.wins or 0),
                 "points": int(r.points or 0), "mean_turns": float(r.mean_turns or 0),
                 "mean_plies": float(r.mean_plies or 0), "takenOver": int(r.taken_over or 0)}
                for r in conn.execute(q)]
