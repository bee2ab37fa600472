"""The operator's REST endpoints (``/api/admin/…``, behind the operator's token), a player's reports
and a player's own data (``/api/reports``, ``/api/players/me/…``), and the gate that keeps banned
addresses out (docs/protocol.md, "Moderation").

Every change is one function of :mod:`spite.server.moderation` run by the store's writer, so an
action here and the same one by ``spite admin --db`` are the same; the process that took it applies
it at once, the others when they see its audit row (at once under PostgreSQL: ``NOTIFY``).
"""

from __future__ import annotations

import hmac
import json
import logging
import re
from typing import TYPE_CHECKING, Any, Literal

from fastapi import FastAPI, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from spite.server import accounts, moderation
from spite.server.limits import client_address
from spite.server.protocol import NAME, PLAYER_KEY
from spite.server.table.seats import address_key, player_id

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from spite.server.config import ServerConfig
    from spite.server.manager import Manager

__all__ = ["BanGate", "install"]

log = logging.getLogger("spite.server.admin")

_OPERATOR_NAME = re.compile(r"[^\w.@:+-]")


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class BanRequest(_Body):
    target: str = Field(min_length=1, max_length=64, description="A player id, or an address or CIDR range.")
    reason: str = Field("", max_length=200)


class RenameRequest(_Body):
    target: str = Field(min_length=1, max_length=64, description="A player id, or the name to change.")
    name: NAME


class ReportRequest(_Body):
    kind: Literal["name", "table"]
    table: str | None = Field(None, max_length=32)
    seat: int | None = Field(None, ge=0, le=64)
    name: NAME | None = None
    reason: str = Field("", max_length=200)
    playerKey: PLAYER_KEY | None = None


class KeyRequest(_Body):
    playerKey: PLAYER_KEY


class BanGate:
    """Pure ASGI middleware: a request to ``/api/…`` (the operator's own endpoints aside) from an address
    in a banned range is answered ``403`` (code ``banned``, catalogue key ``error.banned``) before
    routing. The page itself still loads; a banned address's WebSocket is refused at its ``hello``."""

    BODY = json.dumps({"detail": "you may not play on this server", "code": "banned",
                       "words": {"key": "error.banned", "params": {}}}).encode()

    def __init__(self, app: ASGIApp, bans: moderation.BanBook) -> None:
        self.app = app
        self.bans = bans

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and self.bans.networks and scope["path"].startswith("/api/") \
                and not scope["path"].startswith("/api/admin/"):
            client = scope.get("client")
            if client and self.bans.address(str(client[0])):
                await send({"type": "http.response.start", "status": 403,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(self.BODY)).encode())]})
                await send({"type": "http.response.body", "body": self.BODY})
                return
        await self.app(scope, receive, send)


def install(app: FastAPI, config: ServerConfig) -> None:
    """Add the endpoints of the module's text to ``app``."""

    def manager_of(request: Request) -> Manager:
        return request.app.state.manager  # type: ignore[no-any-return]

    def operator(request: Request) -> str:
        """Who the operator is (their name and address, for the audit), else a refusal: 404 when this
        server has no operator token, 401 without the right one."""
        token = config.operator_token
        if not token:
            raise moderation.ModerationError("this server has no operator: start it with SPITE_OPERATOR_TOKEN set",
                                             404, "admin.no-operator")
        given = request.headers.get("authorization", "")
        if not given.startswith("Bearer ") or not hmac.compare_digest(given[7:].strip().encode(), token.encode()):
            raise moderation.ModerationError("the operator's token is missing or wrong", 401, "admin.operator-token")
        name = _OPERATOR_NAME.sub("", request.headers.get("x-spite-operator", ""))[:64] or "operator"
        return f"{name}@{client_address(request.scope)}"

    async def act(request: Request, fn: Any) -> Any:
        manager = manager_of(request)
        answer = await manager.store.transact(fn)
        await manager.moderation.follow()  # applied here at once (the other workers: NOTIFY, or their poll)
        return answer

    @app.get("/api/admin/tables")
    async def admin_tables(request: Request, status: Literal["open", "playing"] = "playing",
                           limit: int = Query(200, ge=1, le=1000)) -> list[dict[str, Any]]:
        """The open or playing tables, with their seats' names and player ids (operator)."""
        operator(request)
        return await manager_of(request).store.read(  # type: ignore[no-any-return]
            lambda c: moderation.list_tables(c, status, limit))

    @app.get("/api/admin/players")
    async def admin_players(request: Request, name: str | None = Query(None, max_length=64),
                            limit: int = Query(200, ge=1, le=1000)) -> list[dict[str, Any]]:
        """Keyed players, the name they go by, their games, when they last played (operator)."""
        operator(request)
        return await manager_of(request).store.read(  # type: ignore[no-any-return]
            lambda c: moderation.list_players(c, name, limit))

    @app.post("/api/admin/tables/{table_id}/close")
    async def admin_close(request: Request, table_id: str = Path(max_length=32)) -> dict[str, Any]:
        """Close a table now (operator)."""
        who = operator(request)
        return await act(request, lambda c: moderation.close_table(c, who, table_id))  # type: ignore[no-any-return]

    @app.post("/api/admin/rename")
    async def admin_rename(request: Request, body: RenameRequest) -> dict[str, Any]:
        """Rename a player id, or everyone shown under a name (operator)."""
        who = operator(request)
        return await act(request, lambda c: moderation.rename(c, who, body.target, body.name))  # type: ignore[no-any-return]

    @app.get("/api/admin/bans")
    async def admin_bans(request: Request) -> list[dict[str, Any]]:
        """The bans in force (operator)."""
        operator(request)
        return await manager_of(request).store.read(moderation.list_bans)  # type: ignore[no-any-return]

    @app.post("/api/admin/bans")
    async def admin_ban(request: Request, body: BanRequest) -> dict[str, Any]:
        """Ban a player id or an address range (operator)."""
        who = operator(request)
        return await act(request, lambda c: moderation.ban(c, who, body.target, body.reason))  # type: ignore[no-any-return]

    @app.delete("/api/admin/bans/{ban_id}")
    async def admin_lift(request: Request, ban_id: int = Path(ge=1, le=2**63 - 1)) -> dict[str, Any]:
        """Lift a ban (operator)."""
        who = operator(request)
        return await act(request, lambda c: moderation.lift(c, who, ban_id))  # type: ignore[no-any-return]

    @app.get("/api/admin/reports")
    async def admin_reports(request: Request, everything: bool = Query(False, alias="all")) -> list[dict[str, Any]]:
        """The reports waiting (``all``: cleared ones too) (operator)."""
        operator(request)
        return await manager_of(request).store.read(  # type: ignore[no-any-return]
            lambda c: moderation.list_reports(c, everything))

    @app.post("/api/admin/reports/{report_id}/clear")
    async def admin_clear(request: Request, report_id: int = Path(ge=1, le=2**63 - 1)) -> dict[str, Any]:
        """Take a report off the queue (operator)."""
        who = operator(request)
        return await act(request, lambda c: moderation.clear_report(c, who, report_id))  # type: ignore[no-any-return]

    @app.get("/api/admin/audit")
    async def admin_audit(request: Request, limit: int = Query(100, ge=1, le=1000)) -> list[dict[str, Any]]:
        """The newest operator actions (operator)."""
        operator(request)
        return await manager_of(request).store.read(  # type: ignore[no-any-return]
            lambda c: moderation.list_audit(c, limit))

    @app.get("/api/admin/players/{player}/export")
    async def admin_export(request: Request, player: str = Path(max_length=32)) -> dict[str, Any]:
        """Everything stored about a player id (operator)."""
        who = operator(request)
        return await manager_of(request).store.transact(  # type: ignore[no-any-return]
            lambda c: moderation.export_for_operator(c, who, player))

    @app.delete("/api/admin/players/{player}")
    async def admin_delete(request: Request, player: str = Path(max_length=32)) -> dict[str, Any]:
        """Delete a player id: their games stay for the others, anonymised (operator)."""
        who = operator(request)
        return await act(request, lambda c: moderation.delete_player(c, who, player))  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ players
    @app.post("/api/reports")
    async def report(request: Request, body: ReportRequest) -> dict[str, Any]:
        """Report a name (by its table and seat, or the name) or a table to the site's operator."""
        pid = player_id(body.playerKey) if body.playerKey else None
        manager_of(request).check_player(pid)
        reporter = address_key(client_address(request.scope))
        return await manager_of(request).store.transact(  # type: ignore[no-any-return]
            lambda c: moderation.add_report(c, body.kind, table_id=body.table, seat=body.seat, name=body.name,
                                            reason=body.reason, reporter=reporter, reporter_id=pid))

    @app.post("/api/players/me/export")
    async def my_export(request: Request, body: KeyRequest) -> dict[str, Any]:
        """Everything stored about the player of this key (the key itself is never stored), or of the
        signed-in account (docs/accounts.md), with the account."""
        pid = await accounts.player_for(request, config, body.playerKey)
        assert pid is not None

        def read(c: Any) -> dict[str, Any]:
            return {**moderation.export_player(c, pid), **accounts.export_account(c, pid)}

        return await manager_of(request).store.read(read)  # type: ignore[no-any-return]

    @app.post("/api/players/me/delete")
    async def my_delete(request: Request, body: KeyRequest) -> dict[str, Any]:
        """Delete the player of this key: their games stay for the others, anonymised; their ratings
        leave the leaderboard. The account that owns the player goes too (its passkeys and sessions)."""
        pid = await accounts.player_for(request, config, body.playerKey)
        assert pid is not None

        def delete(c: Any) -> dict[str, Any]:
            had = accounts.delete_account(c, pid)
            try:
                return {**moderation.delete_player(c, f"{pid} (themself)", pid), "account": had}
            except moderation.ModerationError:
                if not had:
                    raise
                return {"playerId": pid, "deleted": True, "account": True}  # an account that never played

        return await act(request, delete)  # type: ignore[no-any-return]
