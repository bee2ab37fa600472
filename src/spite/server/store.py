"""Persistence for the server: every write goes through one writer that commits in groups.

Each accepted move is handed to :meth:`Store.write` and acknowledged to its player only after the
transaction holding it has committed. The writer takes every write waiting at that moment into one
transaction (group commit), so 200 busy tables cost one commit per batch rather than one per move;
if a batch fails, its writes are retried one by one so that only the broken one fails.

Reads (lobby lists, records, statistics) run on their own connections in a worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from spite.server import db

__all__ = ["Store", "StoredSeat", "StoredTable"]

log = logging.getLogger("spite.server.store")

Write = Callable[[Connection], Any]


@dataclass
class StoredSeat:
    """A seat as stored."""

    seat: int
    kind: str
    level: str | None
    player: str | None
    token_hash: str | None
    controller: str


@dataclass
class StoredTable:
    """A table as stored, with its moves (each a list of record entries)."""

    id: str
    game: str
    preset: str
    options: dict[str, Any]
    seed: int | str
    start: dict[str, Any]
    status: str
    created_at: float
    seats: list[StoredSeat]
    moves: list[list[Any]]


class Store:
    """The database of one server process."""

    def __init__(self, engine: Engine, batch: int = 512) -> None:
        self.engine = engine
        self.batch = batch
        self._queue: asyncio.Queue[tuple[Write, asyncio.Future[Any]]] | None = None
        self._task: asyncio.Task[None] | None = None
        self.commits = 0
        self.writes = 0

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    # ------------------------------------------------------------------ the writer
    async def start(self) -> None:
        """Start the writer task (in the running loop)."""
        self._queue = asyncio.Queue()
        self._task = asyncio.create_task(self._writer(), name="spite-db-writer")

    async def close(self) -> None:
        """Finish the writes already queued, stop the writer, close the engine."""
        if self._queue is not None and self._task is not None:
            await self._queue.join()
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
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
                outcomes = await asyncio.to_thread(self._commit, [fn for fn, _ in items])
            except Exception as exc:  # the whole batch failed: one by one
                log.warning("a batch of %d writes failed (%s); retrying them one by one", len(items), exc)
                outcomes = []
                for fn, _ in items:
                    try:
                        outcomes.append((True, (await asyncio.to_thread(self._commit, [fn]))[0][1]))
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

    def _commit(self, fns: list[Write]) -> list[tuple[bool, Any]]:
        with self.engine.begin() as conn:
            out = [(True, fn(conn)) for fn in fns]
        self.commits += 1
        self.writes += len(fns)
        return out

    async def read(self, fn: Callable[[Connection], Any]) -> Any:
        """Run ``fn(conn)`` on a reading connection in a worker thread."""

        def run() -> Any:
            with self.engine.connect() as conn:
                return fn(conn)

        return await asyncio.to_thread(run)

    # ------------------------------------------------------------------ writes (run in the writer)
    @staticmethod
    def insert_table(row: dict[str, Any], seat_rows: list[dict[str, Any]]) -> Write:
        """A new table and its seats."""

        def fn(conn: Connection) -> None:
            conn.execute(sa.insert(db.tables).values(**row))
            if seat_rows:
                conn.execute(sa.insert(db.seats), [{"table_id": row["id"], **s} for s in seat_rows])

        return fn

    @staticmethod
    def insert_move(table_id: str, ply: int, seat: int, entries: list[Any]) -> Write:
        """An accepted move (with the shuffles it caused)."""
        text = json.dumps(entries, separators=(",", ":"))

        def fn(conn: Connection) -> None:
            # the table row's ``plies`` is brought up to date at status changes and at the end
            conn.execute(sa.insert(db.moves).values(table_id=table_id, ply=ply, seat=seat, entries=text,
                                                    created_at=time.time()))

        return fn

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
                    players: list[dict[str, Any]]) -> Write:
        """A finished game's record and its players; the table is marked finished."""

        def fn(conn: Connection) -> int:
            now = time.time()
            result = record.get("result") or {}
            res = conn.execute(sa.insert(db.games).values(
                table_id=table_id, game=game, preset=preset, record=json.dumps(record),
                result=json.dumps(result), plies=plies, turns=turns, finished_at=now))
            key = res.inserted_primary_key
            assert key is not None
            game_id = int(key[0])
            if players:
                conn.execute(sa.insert(db.game_players), [{"game_id": game_id, **p} for p in players])
            conn.execute(sa.update(db.tables).where(db.tables.c.id == table_id)
                         .values(status="finished", plies=plies, updated_at=now))
            return game_id

        return fn

    # ------------------------------------------------------------------ reads
    def load_live(self, conn: Connection, owner: str | None = None) -> list[StoredTable]:
        """Every table still open or playing (of ``owner``, or of any process), with seats and moves."""
        q = sa.select(db.tables).where(db.tables.c.status.in_(("open", "playing")))
        if owner is not None:
            q = q.where(db.tables.c.owner == owner)
        out = []
        for row in conn.execute(q.order_by(db.tables.c.created_at)).mappings():
            seat_rows = conn.execute(sa.select(db.seats).where(db.seats.c.table_id == row["id"])
                                     .order_by(db.seats.c.seat)).mappings()
            move_rows = conn.execute(sa.select(db.moves.c.ply, db.moves.c.entries)
                                     .where(db.moves.c.table_id == row["id"]).order_by(db.moves.c.ply)).all()
            out.append(StoredTable(
                id=row["id"], game=row["game"], preset=row["preset"], options=json.loads(row["options"]),
                seed=json.loads(row["seed"]), start=json.loads(row["start"]), status=row["status"],
                created_at=row["created_at"],
                seats=[StoredSeat(seat=s["seat"], kind=s["kind"], level=s["level"], player=s["player"],
                                  token_hash=s["token_hash"], controller=s["controller"]) for s in seat_rows],
                moves=[json.loads(m.entries) for m in move_rows],
            ))
            plies = [m.ply for m in move_rows]
            if plies != list(range(len(plies))):
                raise RuntimeError(f"table {row['id']}: stored moves are not 0..{len(plies) - 1}")
        return out

    @staticmethod
    def table_summary(conn: Connection, table_id: str) -> dict[str, Any] | None:
        """A table's row and seats (for tables that are not in memory), or ``None``."""
        row = conn.execute(sa.select(db.tables).where(db.tables.c.id == table_id)).mappings().first()
        if row is None:
            return None
        seat_rows = conn.execute(sa.select(db.seats).where(db.seats.c.table_id == table_id)
                                 .order_by(db.seats.c.seat)).mappings().all()
        game_id = conn.execute(sa.select(db.games.c.id).where(db.games.c.table_id == table_id)).scalar()
        return {"row": dict(row), "seats": [dict(s) for s in seat_rows], "game_id": game_id}

    @staticmethod
    def games_of(conn: Connection, player: str, limit: int = 100, offset: int = 0) -> list[dict[str, Any]]:
        """Finished games a player sat at, newest first."""
        g, gp = db.games, db.game_players
        ids = sa.select(gp.c.game_id).where(gp.c.player == player)
        rows = conn.execute(sa.select(g.c.id, g.c.table_id, g.c.game, g.c.preset, g.c.result, g.c.plies, g.c.turns,
                                      g.c.finished_at).where(g.c.id.in_(ids)).order_by(g.c.id.desc())
                            .limit(limit).offset(offset)).mappings().all()
        out = []
        for r in rows:
            players = conn.execute(sa.select(gp).where(gp.c.game_id == r["id"]).order_by(gp.c.seat)).mappings().all()
            out.append({**dict(r), "result": json.loads(r["result"]), "players": [dict(p) for p in players]})
        return out

    @staticmethod
    def record_of(conn: Connection, game_id: int) -> dict[str, Any] | None:
        """A finished game's record, or ``None``."""
        text = conn.execute(sa.select(db.games.c.record).where(db.games.c.id == game_id)).scalar()
        return json.loads(text) if text is not None else None

    @staticmethod
    def stats_of(conn: Connection, player: str) -> list[dict[str, Any]]:
        """Per preset: games, wins, points and mean length (turns, plies) of a player's finished games."""
        g, gp = db.games, db.game_players
        q = (sa.select(g.c.game, g.c.preset, sa.func.count().label("games"),
                       sa.func.sum(sa.case((gp.c.won, 1), else_=0)).label("wins"),
                       sa.func.sum(gp.c.points).label("points"),
                       sa.func.avg(g.c.turns).label("mean_turns"),
                       sa.func.avg(g.c.plies).label("mean_plies"))
             .select_from(gp.join(g, gp.c.game_id == g.c.id))
             .where(gp.c.player == player)
             .group_by(g.c.game, g.c.preset).order_by(g.c.game, g.c.preset))
        return [{"game": r.game, "preset": r.preset, "games": int(r.games), "wins": int(r.wins or 0),
                 "points": int(r.points or 0), "mean_turns": float(r.mean_turns or 0),
                 "mean_plies": float(r.mean_plies or 0)} for r in conn.execute(q)]
