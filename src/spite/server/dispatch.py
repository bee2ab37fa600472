"""The WebSocket messages of a connection: checked, then handed to the table they are for.

A message is refused in one line when it is not JSON, too long, of an unknown type or not the
model of its type (:mod:`spite.server.protocol`); ``ping`` is answered here; ``hello`` finds the
table (brought back from the database for a person back at a finished table, taken from another
worker by lease) and the rest go to the table the connection said hello to, as inputs of its core.
"""

from __future__ import annotations

import json
import logging
import re
from time import perf_counter
from typing import Any

from pydantic import ValidationError

from spite.errors import Phrase
from spite.server.accounts import seat_token
from spite.server.config import ServerConfig
from spite.server.figures import FIGURES
from spite.server.host import Conn, TableHost
from spite.server.leases import TableBusy
from spite.server.lobby import Lobby
from spite.server.moderation import BanBook
from spite.server.protocol import AnyClientMessage, Hello, MoveMessage, Ping, Pong, client_adapter
from spite.server.store import Store
from spite.server.table.effects import Hello as HelloInput
from spite.server.table.effects import Leave, Request
from spite.server.table.seats import seat_for_token

__all__ = ["Dispatch"]

log = logging.getLogger("spite.server")

_TYPES = ("hello", "move", "sync", "ping", "hint", "undo", "next", "rematch")


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())[1:])
    return f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid"))


_SANE_ID = re.compile(r"[\x20-\x7e]{1,64}")


def _id_of(data: dict[str, Any]) -> str | None:
    """The ``id`` of a refused message, echoed only when it is one a client may send (MSG_ID)."""
    value = data.get("id")
    return value if isinstance(value, str) and _SANE_ID.fullmatch(value) else None


class Dispatch:
    """Routes each connection's messages to its table."""

    def __init__(self, lobby: Lobby, config: ServerConfig, bans: BanBook | None = None) -> None:
        self.lobby = lobby
        self.config = config
        self.bans = bans or BanBook()

    async def handle(self, conn: Conn, table_id: str, raw: str | bytes | None) -> None:
        """One incoming WebSocket message (within its address's budget: the app's WebSocket loop
        refused a flood before), checked, then dispatched. Never raises."""
        arrived = perf_counter() if FIGURES.on else 0.0
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
            if FIGURES.on and isinstance(msg, MoveMessage) and conn.table is not None \
                    and conn.table.version != version:  # accepted: acknowledged once committed
                FIGURES.move_acked(perf_counter() - arrived)
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
        await table.submit(Request(conn.conn_id, msg))

    async def _hello(self, conn: Conn, table_id: str, msg: Hello) -> None:
        if conn.hello:
            conn.error("already-hello", "this connection has already said hello")
            return
        lobby = self.lobby
        if msg.account and msg.token is None and not msg.spectate:  # the signed-in account's seat
            token = await seat_token(lobby.store, conn.session, table_id)
            if token is None:
                conn.error("wrong-token", "you are not signed in, or your account has no seat at this table",
                           phrase=Phrase("error.wrong-token.account"))
                return
            msg = msg.model_copy(update={"token": token})
        if self.bans.address(conn.ip):
            self._banned(conn)
            return
        try:
            table = await lobby.local(table_id)
        except TableBusy:
            conn.close(1013)  # try again later: the clients reconnect by themselves
            return
        if table is not None and lobby.shared and table.status == "finished" and not table.connections() \
                and (msg.spectate or seat_for_token(table.seats, msg.token or "") is None):
            lobby.forget(table)  # taken in for a person back for a rematch, but this hello is not one
            table = None
        if table is None and not lobby.shared and not msg.spectate and msg.token:
            # a person back at a finished table (a reload at the game-over view): the rematch question
            back = await lobby.bring_back(table_id)
            if back is not None and seat_for_token(back.seats, msg.token) is not None:
                table = back
            elif back is not None and not back.connections():
                lobby.forget(back)
        if table is None:
            found = await lobby.store.read(lambda c: Store.table_summary(c, table_id))
            if found is not None and found["game_id"] is not None:
                conn.error("no-table", f"table {table_id} has finished; its record is "
                           f"/api/games/{found['game_id']}/record",
                           phrase=Phrase("error.no-table.finished", {"table": table_id}))
            else:
                conn.error("no-table", f"there is no table {table_id} being played",
                           phrase=Phrase("error.no-table.id", {"table": table_id}))
            conn.close(1008)
            return
        if table.retired:  # handed to another worker while this hello waited: reconnect to it
            conn.close(1012)
            return
        if self.bans.players and msg.token:
            seat = seat_for_token(table.seats, msg.token)
            if seat is not None and self.bans.player(seat.player_id):
                self._banned(conn)
                return
        conn.hello = True
        number = table.attach(conn)
        await table.submit(HelloInput(number, msg.token, bool(msg.spectate), msg.nonce))

    @staticmethod
    def _banned(conn: Conn) -> None:
        conn.error("banned", "you may not play on this server", phrase=Phrase("error.banned"))
        conn.close(1008)

    async def detach(self, conn: Conn) -> None:
        """A connection closed."""
        table: TableHost | None = conn.table
        if table is None:
            return
        await table.submit(Leave(conn.conn_id))
        if table.status in ("finished", "abandoned") and not table.connections():
            self.lobby.forget(table)
