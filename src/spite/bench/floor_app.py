"""The floor of ``spite bench server --baseline``: the least a server on this stack can do per move.

This is **not** a game server. It is what the real one (:mod:`spite.server`) is measured against: the
same stack (FastAPI on uvicorn with the same WebSocket settings, JSON text frames, one row inserted
per move into the same database, committed before the ``ack``, in groups as the real store does)
doing nothing but acknowledging a move and broadcasting it to the table's two seats. It speaks just
enough of the protocol for the bench's clients (docs/protocol.md): ``POST /api/tables`` and
``POST /api/tables/{id}/join`` give a token, ``/ws/{id}`` answers ``hello`` with a ``welcome``, and
a ``move`` with an ``ack`` to the mover and a ``state`` to both seats (whose ``legal`` lets the
other seat move next). There is no game, no view, no rule, no check, no limit: the server's CPU a
move divided by this floor's (measured in the same run with the same clients) is how much the game,
its views and its safety cost over the bare transport and commit.

Run by the bench as ``python -m spite.bench.floor_app --port P --db URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import time
from typing import Any

from fastapi import FastAPI, Request, WebSocket

__all__ = ["create_floor_app", "main"]

_MOVES = "spite_floor_moves"
"""The floor's one table: a move per row (its own name, so that it never meets the server's schema)."""

_LEGAL = ["move"]
"""The one 'legal move' the floor offers the seat to move (the clients send back whatever is offered)."""


class _Writer:
    """One row per move, committed before the move is acknowledged: every insert waiting when a
    commit starts goes into the same transaction (as the real store's writer does). SQLite commits
    on the loop's thread (WAL, no fsync, as the real store does with ``synchronous=NORMAL``);
    PostgreSQL in a worker thread."""

    def __init__(self, url: str) -> None:
        import sqlalchemy as sa

        from spite.server.db import make_engine

        self.engine = make_engine(url)
        self.inline = self.engine.dialect.name == "sqlite"
        with self.engine.begin() as conn:
            conn.execute(sa.text(f"DROP TABLE IF EXISTS {_MOVES}"))
            conn.execute(sa.text(f"CREATE TABLE {_MOVES} (table_id VARCHAR(32) NOT NULL, ply INTEGER NOT NULL, "
                                 "seat INTEGER NOT NULL, move TEXT NOT NULL, created_at FLOAT NOT NULL, "
                                 "PRIMARY KEY (table_id, ply))"))
        self.insert = sa.text(f"INSERT INTO {_MOVES} (table_id, ply, seat, move, created_at) "
                              "VALUES (:table_id, :ply, :seat, :move, :created_at)")
        self.conn = self.engine.connect()
        self.queue: asyncio.Queue[tuple[dict[str, Any], asyncio.Future[None]]] = asyncio.Queue()

    async def write(self, row: dict[str, Any]) -> None:
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((row, fut))
        await fut

    def _commit(self, rows: list[dict[str, Any]]) -> None:
        with self.conn.begin():
            self.conn.execute(self.insert, rows)

    async def run(self) -> None:
        while True:
            items = [await self.queue.get()]
            while not self.queue.empty():
                items.append(self.queue.get_nowait())
            now = time.time()
            rows = [{**row, "created_at": now} for row, _ in items]
            try:
                if self.inline:
                    self._commit(rows)
                else:
                    await asyncio.to_thread(self._commit, rows)
            except Exception as exc:
                for _, fut in items:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            for _, fut in items:
                if not fut.done():
                    fut.set_result(None)


class _Table:
    __slots__ = ("conns", "ply", "tokens")

    def __init__(self) -> None:
        self.tokens: dict[str, int] = {}
        self.conns: dict[int, Any] = {}
        self.ply = 0


def create_floor_app(db_url: str) -> Any:
    """The floor's FastAPI app (see the module's text)."""
    from contextlib import asynccontextmanager

    from spite.server.collector import Collector
    from spite.server.pauses import installed_probe

    tables: dict[str, _Table] = {}
    writer: list[_Writer] = []

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> Any:
        writer.append(await asyncio.to_thread(_Writer, db_url))
        task = asyncio.create_task(writer[0].run())
        collector = Collector().start(asyncio.get_running_loop())  # the real server's policy
        yield
        collector.stop()
        task.cancel()

    app = FastAPI(lifespan=lifespan, openapi_url=None, docs_url=None, redoc_url=None)

    def seat_token(table: _Table, seat: int) -> str:
        token = secrets.token_urlsafe(16)
        table.tokens[token] = seat
        return token

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        probe = installed_probe()
        return {"ok": True, "tables": len(tables), **({"gc": probe.figures()} if probe is not None else {})}

    @app.post("/api/tables")
    async def create(request: Request) -> dict[str, Any]:
        await request.json()
        table_id = secrets.token_hex(6)
        tables[table_id] = table = _Table()
        return {"table": {"id": table_id}, "seat": 0, "token": seat_token(table, 0)}

    @app.post("/api/tables/{table_id}/join")
    async def join(table_id: str, request: Request) -> dict[str, Any]:
        await request.json()
        return {"table": {"id": table_id}, "seat": 1, "token": seat_token(tables[table_id], 1)}

    def state_text(table: _Table, seat: int, kind: str = "state") -> str:
        to_move = table.ply % 2
        return json.dumps({"type": kind, "stateVersion": table.ply, "view": {"finished": False},
                           "legal": _LEGAL if seat == to_move else []}, separators=(",", ":"))

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        table = tables[table_id]
        seat: int | None = None
        try:
            while True:
                message = json.loads(await ws.receive_text())
                if message["type"] == "hello":
                    seat = table.tokens[message["token"]]
                    table.conns[seat] = ws
                    await ws.send_text(state_text(table, seat, "welcome"))
                elif message["type"] == "move" and seat is not None and seat == table.ply % 2:
                    await writer[0].write({"table_id": table_id, "ply": table.ply, "seat": seat,
                                           "move": message["move"]})
                    table.ply += 1
                    await ws.send_text(json.dumps({"type": "ack", "move": message["move"],
                                                   "stateVersion": table.ply}, separators=(",", ":")))
                    for other, sock in list(table.conns.items()):
                        await sock.send_text(state_text(table, other))
        except Exception:  # the client went away
            pass
        finally:
            if seat is not None:
                table.conns.pop(seat, None)
            if not table.conns and table.ply:
                tables.pop(table_id, None)

    return app


def main(argv: list[str] | None = None) -> None:
    """``python -m spite.bench.floor_app --port P --db URL``: serve the floor on 127.0.0.1."""
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--db", required=True)
    args = parser.parse_args(argv)
    app = create_floor_app(args.db)
    from spite.server.pauses import installed_probe

    installed_probe()
    # the real server's WebSocket settings (spite.server.run.serve)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning", ws_max_size=1024 * 1024,
                ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False, lifespan="on")


if __name__ == "__main__":
    main()
