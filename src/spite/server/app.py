"""The ASGI application: the REST lobby, the WebSocket play endpoint and ``/healthz``.

>>> from spite.server import ServerConfig, create_app
>>> app = create_app(ServerConfig(db_url="sqlite://", bot_workers=0))
>>> sorted(r.path for r in app.routes if "healthz" in r.path or "ws" in r.path)
['/healthz', '/ws/{table_id}']
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import AsyncIterator
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.middleware.gzip import GZipMiddleware

from spite import rating
from spite.catalogue import catalogue
from spite.errors import OptionsError, Phrase, SpiteError
from spite.games import get_game, has_hook
from spite.records import record_from_json
from spite.server import accounts, admin, db, ratings
from spite.server.bots import BotRunner
from spite.server.collector import Collector
from spite.server.config import ServerConfig
from spite.server.connection import Connection
from spite.server.host import TableHost
from spite.server.limits import (
    STOP_READING,
    BodyLimit,
    RateLimiter,
    RefusalLogFilter,
    SocketBook,
    SocketGate,
    WriteLimit,
    client_address,
)
from spite.server.manager import LobbyError, Manager, served_games, server_game, stored_info
from spite.server.moderation import BanBook
from spite.server.protocol import (
    CreateTableRequest,
    CreateTournamentRequest,
    GameInfo,
    GameType,
    JoinedInfo,
    JoinRequest,
    PositionsInfo,
    PresetInfo,
    QuickPlayRequest,
    SeatRequest,
    SeekInfo,
    SeekMatch,
    SeekRequest,
    StatsInfo,
    TableInfo,
    TournamentJoinRequest,
    TournamentKeyRequest,
)
from spite.server.review import ReviewRefused, ReviewRunner
from spite.server.seeks import MAX_WAIT, Seek, SeekPolicy, new_seek_id, skill, window
from spite.server.store import Store
from spite.server.table.seats import address_key
from spite.server.tournaments import MAX_WAIT as TOURNAMENT_WAIT
from spite.web import GAMES_URL, index_response, wants_html
from spite.web import install as install_web

__all__ = ["create_app"]

log = logging.getLogger("spite.server")

_REFUSAL_LOGGERS = ("uvicorn.access", "uvicorn.error", "spite.server")
"""The loggers whose lines about refused requests :class:`RefusalLogFilter` thins out."""


_DB_INT = 2**63 - 1
"""The largest id or offset a database integer holds: larger numbers are refused (422), not sent to
the database to overflow there (500)."""


_CODES = ("bad-name",)
"""Validation errors that answer with a ``code`` beside the ``detail``."""


class RefusalJSON(JSONResponse):
    """A refusal's answer, which may name what the client sent (an option's name, a preset): a lone
    surrogate in it is not UTF-8, so it is written as ``?`` rather than failing the answer (a 500)."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode(
            "utf-8", "replace")


def _joined(table_info: TableInfo, seat: int, token: str, player: str | None = None) -> JoinedInfo:
    return JoinedInfo(table=table_info, seat=seat, token=token, ws=f"/ws/{table_info.id}", playerId=player)


def _forfeit_result(raw: dict[str, Any], players: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How a stored game lost by leaving ended (its record's ``forfeit``: the seats that left; the
    winners are the players' rows), or ``None`` for any other game without a result."""
    forfeit = raw.get("forfeit")
    if not isinstance(forfeit, dict):
        return None
    winners = [p["seat"] for p in players if p["won"]]
    return {"winner": winners[0] if len(winners) == 1 else None, "reason": "forfeit",
            "left": list(forfeit.get("left", [])), "winners": winners, "why": forfeit.get("why")}


def create_app(config: ServerConfig | None = None) -> FastAPI:
    """The server as an ASGI app; the database is opened (and migrated) when it starts."""
    config = config or ServerConfig()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = config.resolved_db_url()
        engine = db.make_engine(url, sqlite_synchronous=config.sqlite_synchronous)
        if config.migrate:
            await asyncio.to_thread(db.migrate, engine)
        store = Store(engine)
        await store.start()
        bots = BotRunner(config.bot_workers, config.bot_budget)
        bots.start()
        app.state.reviews = reviews = ReviewRunner(1 if config.bot_workers is None else config.bot_workers,
                                                   config.review_budget, queue=config.review_queue,
                                                   rate=config.review_rate, burst=config.review_burst)
        manager = Manager(config, store, bots, bans)
        await manager.start()
        app.state.manager = manager
        for name in _REFUSAL_LOGGERS:  # a flood of refusals is one log line a period, not one each
            logging.getLogger(name).addFilter(refusal_log)
        log.info("serving on database %s (%s)", engine.url.render_as_string(hide_password=True), store.dialect)
        collector: Collector | None = getattr(app.state, "collector", None)  # a server process's own (run.serve)
        if collector is not None:  # what start-up and the restored tables made lives long: frozen
            collector.start(asyncio.get_running_loop())
        metrics = None
        if config.metrics_port is not None:  # on a loopback port of its own (spite.server.metrics)
            from spite.server.metrics import serve_metrics

            metrics = serve_metrics(config.metrics_port, manager, collector, reviews)
        try:
            yield
        finally:
            if metrics is not None:
                metrics.shutdown()
            if collector is not None:
                collector.stop()
            for name in _REFUSAL_LOGGERS:
                logging.getLogger(name).removeFilter(refusal_log)
            await manager.close()
            bots.close()
            reviews.close()
            await store.close()
            log.info("stopped")

    app = FastAPI(title="spite server", version="1", lifespan=lifespan,
                  description="Card tables of every registered game over WebSockets; see docs/protocol.md.")
    writes = RateLimiter(config.write_rate, config.write_burst)  # REST writes, per client address
    messages = RateLimiter(config.rate, config.burst)  # WebSocket messages, per address over all its sockets
    sockets = SocketBook(config.max_sockets, config.flood_cooldown)  # open WebSockets per address, cool-downs
    refusal_log = RefusalLogFilter()
    # Refusals come first and cheap (docs/protocol.md, "Limits"): the last added middleware is the
    # outermost, so a write over budget and a WebSocket handshake of an address with too many
    # sockets or in its flood cool-down are answered 429 before the body limit, compression, routing,
    # dependencies or models; bodies are capped before any route parses them.
    app.add_middleware(GZipMiddleware, minimum_size=1000)  # HTTP responses only: WebSockets pass through untouched
    app.add_middleware(BodyLimit, max_bytes=config.max_body)
    app.add_middleware(WriteLimit, limiter=writes)
    app.add_middleware(SocketGate, book=sockets, log_filter=refusal_log)
    bans = BanBook()  # the bans in force (spite.server.moderation), kept in step by the manager
    app.add_middleware(admin.BanGate, bans=bans)
    seek_policy = SeekPolicy(ttl=config.seek_ttl)
    app.state.limiters = {"writes": writes, "messages": messages, "sockets": sockets.open, "socket_book": sockets}

    def manager_of(request: Request | WebSocket) -> Manager:
        return request.app.state.manager  # type: ignore[no-any-return]

    @app.exception_handler(LobbyError)
    async def lobby_error(_request: Request, exc: LobbyError) -> JSONResponse:
        code = getattr(exc, "code", None)  # a refusal that names its reason for the page (a review's)
        words = {"words": exc.phrase.as_json()} if exc.phrase is not None else {}
        retry = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(max(1, math.ceil(retry)))} if retry is not None else None
        return RefusalJSON({"detail": str(exc), **({"code": code} if code else {}), **words}, status_code=exc.status,
                           headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # one line, like every refusal; and never the client's own input echoed back (a lone
        # surrogate in a field's name is written as RefusalJSON writes it)
        err = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in err.get("loc", ())[1:]) or "request"
        answer = {"detail": f"{where}: {err.get('msg', 'invalid')}"}
        if err.get("type") in _CODES:  # a refusal of ours with a code (docs/protocol.md)
            answer["code"] = str(err["type"])
        return RefusalJSON(answer, status_code=422)

    @app.get("/healthz")
    async def healthz(request: Request, gc: bool = False) -> dict[str, Any]:
        """The server is up: table and move counts, the database kind (``gc``: with the collector's
        pauses too, in a process started with ``SPITE_GC_PROBE``: a bench asks once, HAProxy's checks
        every second must not pay for it)."""
        return manager_of(request).health(gc=gc)

    game_types = [
        GameType(name=name, realtime=get_game(name).realtime,
                 defaultPreset=get_game(name).default_preset,
                 quickPreset=facts.quick_preset or get_game(name).default_preset,
                 presets=[PresetInfo(name=p, seats=get_game(name).seats(p)) for p in get_game(name).presets],
                 levels=list(facts.levels), defaultLevel=facts.default_level,
                 page=f"{GAMES_URL}/{name}/{facts.page}" if facts.web is not None else "", rules=facts.rules,
                 lobbyOptions=list(facts.options), picture=[list(row) for row in facts.pictures.get(name, ())])
        for name in served_games() for facts in [server_game(name).listing]]

    @app.get("/api/game-types", response_model=list[GameType])
    async def list_game_types() -> list[GameType]:
        """The games this server holds tables of: presets, computer levels, the page module that draws
        them. The page builds its lobby from this and opens a table's screen by its ``page``."""
        return game_types

    @app.get("/api/tables", response_model=list[TableInfo])
    async def list_tables(request: Request, response: Response, status: str = "open",
                          limit: int = Query(config.lobby_page, ge=1, le=config.lobby_page_max),
                          offset: int = Query(0, ge=0, le=_DB_INT)) -> list[TableInfo]:
        """A page of the open tables (free seats to join), or ``?status=playing`` for games to watch,
        oldest first; ``X-Total-Count`` says how many there are in all."""
        if status not in ("open", "playing"):
            raise LobbyError("status is open or playing", 400, "lobby.bad-status")
        page, total = await manager_of(request).listed_tables(status, offset, limit)
        response.headers["X-Total-Count"] = str(total)
        return page

    @app.post("/api/tables", response_model=JoinedInfo | TableInfo)
    async def create_table(request: Request, body: CreateTableRequest) -> JoinedInfo | TableInfo:
        """Create a table; the creator takes the first person seat (and gets its token).
        (Writes are rate-limited per address before routing: :class:`~spite.server.limits.WriteLimit`.)"""
        address = client_address(request.scope)
        info, seat, token = await manager_of(request).create(
            game=body.game, preset=body.preset, options=body.options, seats=body.seats, name=body.name, join=body.join,
            owner=address, player_id=(pid := await accounts.player_for(request, config, body.playerKey)),
            rated=body.rated)
        if seat is None or token is None:
            return info
        await accounts.remember_seat(request, info.id, seat, token)
        return _joined(info, seat, token, pid)

    async def _table_info(request: Request, table_id: str) -> TableInfo:
        manager = manager_of(request)
        table = manager.tables.get(table_id)
        if table is not None:
            return table.info()
        found = await manager.store.read(lambda c: Store.table_summary(c, table_id))
        if found is None:
            raise LobbyError(f"there is no table {table_id}", 404, "lobby.no-table", table=table_id)
        return stored_info(found)

    @app.get("/api/tables/{table_id}", response_model=TableInfo)
    async def get_table(request: Request, table_id: str) -> TableInfo:
        """One table (also finished ones, with the id of their game record)."""
        return await _table_info(request, table_id)

    @app.get("/t/{table_id}", response_model=TableInfo)
    async def join_link(request: Request, table_id: str) -> TableInfo | Response:
        """The link to share: the table (a browser gets the page); POST ``/api/tables/{id}/join`` takes a seat."""
        if wants_html(request):
            return index_response()
        return await _table_info(request, table_id)

    @app.post("/api/tables/{table_id}/join", response_model=JoinedInfo)
    async def join_table(request: Request, table_id: str, body: JoinRequest) -> JoinedInfo:
        """Take a free seat; the answer holds the seat's secret token."""
        pid = await accounts.player_for(request, config, body.playerKey)
        info, seat, token = await manager_of(request).join(table_id, body.name, body.seat, pid,
                                                           client_address(request.scope))
        await accounts.remember_seat(request, info.id, seat, token)
        return _joined(info, seat, token, pid)

    @app.post("/api/quickplay", response_model=JoinedInfo)
    async def quick_play(request: Request, body: QuickPlayRequest) -> JoinedInfo:
        """A game against bots of ``level`` (every seat but the first), started at once: any game and
        preset of the registry (a 3-player party gets two bots, partners three)."""
        address = client_address(request.scope)
        game = get_game(body.game)
        preset = body.preset or game.default_preset
        try:
            count = game.seats(preset, body.options)
        except OptionsError as exc:
            raise LobbyError.of(exc) from None
        level = body.level or server_game(body.game).listing.default_level
        seats = [SeatRequest(kind="person"), *(SeatRequest(kind="bot", level=level) for _ in range(count - 1))]
        info, seat, token = await manager_of(request).create(
            game=body.game, preset=preset, options=body.options, seats=seats, name=body.name, join=True,
            owner=address, player_id=(pid := await accounts.player_for(request, config, body.playerKey)),
            rated=body.rated)
        assert seat is not None and token is not None
        await accounts.remember_seat(request, info.id, seat, token)
        return _joined(info, seat, token, pid)

    @app.get("/api/players/{player}/games", response_model=list[GameInfo])
    async def player_games(request: Request, player: str, limit: int = 100,
                           offset: int = Query(0, le=_DB_INT)) -> list[GameInfo]:
        """A player's finished games, newest first."""
        limit = max(1, min(limit, 500))
        rows = await manager_of(request).store.read(lambda c: Store.games_of(c, player, limit, max(0, offset)))
        return [GameInfo(id=r["id"], tableId=r["table_id"], game=r["game"], preset=r["preset"], result=r["result"],
                         plies=r["plies"], turns=r["turns"], finishedAt=r["finished_at"],
                         players=[{"seat": p["seat"], "player": p["player"], "playerId": p.get("player_id"),
                                   "isBot": p["is_bot"], "won": p["won"],
                                   "points": p["points"], "takenOver": bool(p["taken_over"])} for p in r["players"]],
                         recordUrl=f"/api/games/{r['id']}/record") for r in rows]

    @app.get("/api/players/{player}/stats", response_model=StatsInfo)
    async def player_stats(request: Request, player: str) -> StatsInfo:
        """Games, wins, points and mean length per game and preset, of the games the player played to
        the end; ``takenOver``: the games a takeover bot finished in their name (not in the figures)."""
        rows = await manager_of(request).store.read(lambda c: Store.stats_of(c, player))
        return StatsInfo(player=player, presets=rows)

    def seek_info(seek: Seek) -> SeekInfo:
        now = time.time()
        state = "waiting" if seek.status == "pairing" else seek.status
        matched = (SeekMatch(table=seek.table, seat=seek.seat, token=seek.token, ws=f"/ws/{seek.table}",
                             computer=seek.computer)
                   if seek.status == "matched" and seek.table and seek.seat is not None and seek.token else None)
        return SeekInfo(id=seek.id, state=state, game=seek.game, preset=seek.preset,  # type: ignore[arg-type]
                        rated=seek.rated, group=seek.group, rating=seek.shown, waited=round(now - seek.since, 1),
                        window=round(window(seek_policy, now - seek.since), 1), computerAfter=seek.computer_after,
                        matched=matched)

    @app.post("/api/seeks", response_model=SeekInfo)
    async def create_seek(request: Request, body: SeekRequest) -> SeekInfo:
        """Play a person now: a seek waits for someone near your rating (docs/protocol.md)."""
        manager = manager_of(request)
        game = get_game(body.game)
        preset = body.preset or game.default_preset
        try:
            seats = game.seats(preset, {})
            group = rating.rating_group(body.game, preset, {}, seats)
        except OptionsError as exc:
            raise LobbyError.of(exc) from None
        floor = config.seek_computer_floor
        if body.computerAfter is not None and body.computerAfter < floor:
            raise LobbyError(f"computerAfter is at least {floor:g} seconds (or null: never)", 400,
                             "seek.computer-floor", s=f"{floor:g}")
        pid = await accounts.player_for(request, config, body.playerKey)
        assert pid is not None  # (a seek's playerKey is required)
        manager.check_player(pid)
        computer_after = body.computerAfter
        if body.rated:
            await manager.lobby.check_rated_player(pid)
            if not rating.level_table().get(group.name):  # no measured computer to be rated against
                computer_after = None
        current = await manager.store.read(lambda c: ratings.rating_of(c, pid, group.name))
        now = time.time()
        seek = Seek(id=new_seek_id(), player_id=pid, name=body.name, game=body.game, preset=preset, rated=body.rated,
                    group=group.name, seats=seats, skill=skill(current.mu), since=now,
                    computer_after=computer_after, creator=address_key(client_address(request.scope)),
                    mu=current.mu, shown=current.shown)
        return seek_info(await manager.seeks.add(seek))

    @app.get("/api/seeks/{seek_id}", response_model=SeekInfo)
    async def get_seek(request: Request, seek_id: str = Path(max_length=40),
                       wait: float = Query(0.0, ge=0.0, le=MAX_WAIT)) -> SeekInfo:
        """A seek's state; once paired, ``matched`` holds its table and this seat's token. With
        ``wait`` seconds, a waiting seek is answered as soon as it stops waiting (a long poll)."""
        seek = await manager_of(request).seeks.get(seek_id, wait)
        if seek.status == "matched" and seek.table and seek.seat is not None and seek.token:  # the account's seat
            await accounts.remember_seek_seat(request, config, seek.player_id, seek.table, seek.seat, seek.token)
        return seek_info(seek)

    @app.delete("/api/seeks/{seek_id}", response_model=SeekInfo)
    async def cancel_seek(request: Request, seek_id: str = Path(max_length=40)) -> SeekInfo:
        """Cancel a waiting seek (409 once it is matched)."""
        return seek_info(await manager_of(request).seeks.cancel(seek_id))

    @app.get("/api/ratings")
    async def leaderboard(request: Request, response: Response, group: str | None = None,
                          limit: int = Query(50, ge=1, le=200),
                          offset: int = Query(0, ge=0, le=_DB_INT)) -> dict[str, Any]:
        """The leaderboard of a rules group (docs/ratings.md): established ratings first, best first;
        ``X-Total-Count`` says how many players the group has. No group named: the first of the
        registry (the first registered game's first group)."""
        group = group or rating.groups()[0]
        if group not in rating.groups():
            raise LobbyError(f"group is one of {', '.join(rating.groups())}", 400, "ratings.bad-group",
                             groups=", ".join(rating.groups()))
        rows, total = await manager_of(request).store.read(lambda c: ratings.leaderboard(c, group, limit, offset))
        response.headers["X-Total-Count"] = str(total)
        return {"group": group, "groups": list(rating.groups()), "total": total, "players": rows}

    @app.get("/api/players/{player}/ratings")
    async def player_ratings(request: Request, player: str = Path(max_length=64)) -> dict[str, Any]:
        """A player's ratings per group with their history (the chart), by player id or by the name they
        were last rated under; and their last games (links to replays)."""
        def read(c: Any) -> dict[str, Any] | None:
            found = ratings.resolve_player(c, player)
            if found is None:
                return None
            handle = c.execute(sa.select(db.accounts.c.handle).where(db.accounts.c.player_id == found)).scalar()
            return {"playerId": found, "handle": handle, "groups": ratings.ratings_of(c, found),
                    "games": [{"id": r["id"], "tableId": r["table_id"], "game": r["game"], "preset": r["preset"],
                               "finishedAt": r["finished_at"],
                               "players": [{"seat": p["seat"], "player": p["player"], "playerId": p.get("player_id"),
                                            "isBot": p["is_bot"], "won": p["won"],
                                            "takenOver": bool(p["taken_over"])} for p in r["players"]]}
                              for r in Store.games_of(c, found, 20, 0)]}

        found: dict[str, Any] | None = await manager_of(request).store.read(read)
        if found is None:
            raise LobbyError(f"there is no rated player {player}", 404, "ratings.no-player", player=player)
        return found

    # ------------------------------------------------------------------ tournaments (docs/protocol.md)
    @app.post("/api/tournaments", response_model=None)
    async def create_tournament(request: Request, body: CreateTournamentRequest) -> dict[str, Any]:
        """A new tournament, open for entrants (its creator is who sent ``playerKey``)."""
        manager = manager_of(request)
        pid = await accounts.player_for(request, config, body.playerKey)
        assert pid is not None
        manager.check_player(pid)
        return await manager.tournaments.create(
            game=body.game, preset=body.preset, options=body.options, system=body.system, rounds=body.rounds,
            minutes=body.minutes, rated=body.rated, grace=body.grace, player_id=pid, name=body.name,
            address=address_key(client_address(request.scope)))

    @app.get("/api/tournaments", response_model=None)
    async def list_tournaments(request: Request,
                               state: str | None = Query(None, pattern="^(open|playing|finished)$")) -> dict[str, Any]:
        """The tournaments (of ``state``), newest first, without their rounds."""
        return {"tournaments": await manager_of(request).tournaments.listed(state)}

    @app.get("/api/tournaments/{tid}", response_model=None)
    async def get_tournament(request: Request, tid: str = Path(max_length=32), since: int | None = Query(None, ge=0),
                             wait: float = Query(0.0, ge=0.0, le=TOURNAMENT_WAIT)) -> dict[str, Any]:
        """A tournament; with ``since`` and ``wait``, answered as soon as its version is above ``since``."""
        return await manager_of(request).tournaments.info(tid, since, wait)

    @app.post("/api/tournaments/{tid}/join", response_model=None)
    async def join_tournament(request: Request, body: TournamentJoinRequest,
                              tid: str = Path(max_length=32)) -> dict[str, Any]:
        """Enter a tournament; or, by its creator, enter a computer (``computer``: its level)."""
        manager = manager_of(request)
        pid = await accounts.player_for(request, config, body.playerKey)
        assert pid is not None
        manager.check_player(pid)
        if body.computer is None and (await manager.tournaments.info(tid))["rated"]:
            await manager.lobby.check_rated_player(pid)
        entrant, info = await manager.tournaments.join(tid, player_id=pid, name=body.name, computer=body.computer)
        return {"entrant": entrant, "tournament": info}

    @app.post("/api/tournaments/{tid}/leave", response_model=None)
    async def leave_tournament(request: Request, body: TournamentKeyRequest,
                               tid: str = Path(max_length=32)) -> dict[str, Any]:
        """Withdraw from a tournament (no more pairings)."""
        pid = await accounts.player_for(request, config, body.playerKey)
        assert pid is not None
        return await manager_of(request).tournaments.leave(tid, pid)

    @app.post("/api/tournaments/{tid}/start", response_model=None)
    async def start_tournament(request: Request, body: TournamentKeyRequest,
                               tid: str = Path(max_length=32)) -> dict[str, Any]:
        """Its creator starts the tournament."""
        pid = await accounts.player_for(request, config, body.playerKey)
        assert pid is not None
        return await manager_of(request).tournaments.begin(tid, pid)

    @app.get("/api/tournaments/{tid}/next", response_model=None)
    async def next_tournament_table(request: Request, tid: str = Path(max_length=32),
                                    playerKey: str = Query(min_length=22, max_length=64, pattern=r"^[A-Za-z0-9_-]+$"),
                                    wait: float = Query(0.0, ge=0.0, le=TOURNAMENT_WAIT)) -> dict[str, Any]:
        """The asker's current or next table and their seat's token (a long poll with ``wait``)."""
        pid = await accounts.player_for(request, config, playerKey)
        assert pid is not None
        return await manager_of(request).tournaments.next_table(tid, pid, wait)

    async def tournament_gate(manager: Manager, game_id: int) -> dict[str, Any] | None:
        """A tournament game's record waits until its deal is played everywhere (409 ``tournament-in-play``);
        once the tournament is finished, its secret."""
        gate: dict[str, Any] | None = await manager.store.read(lambda c: manager.tournaments.record_check(c, game_id))
        return gate

    @app.get("/api/games/{game_id}/record")
    async def game_record(request: Request, game_id: int = Path(ge=0, le=_DB_INT)) -> Response:
        """A finished game's record (spite-record/1), as a file."""
        record = await manager_of(request).store.read(lambda c: Store.record_of(c, game_id))
        if record is None:
            raise LobbyError(f"there is no finished game {game_id}", 404, "lobby.no-game", game=game_id)
        gate = await tournament_gate(manager_of(request), game_id)
        if gate is not None and isinstance(record.get("fairness"), dict):
            record["fairness"]["secret"] = gate["secret"]
        return Response(json.dumps(record, indent=1) + "\n", media_type="application/json",
                        headers={"Content-Disposition": f'attachment; filename="spite-game-{game_id}.json"'})

    @app.get("/api/games/{game_id}/positions", response_model=PositionsInfo)
    async def game_positions(request: Request, game_id: int = Path(ge=0, le=_DB_INT)) -> PositionsInfo:
        """A finished game replayed for the replay viewer: every move and the whole table after each
        (each game's adapter replays its own records)."""

        def read(c: Any) -> tuple[dict[str, Any], list[dict[str, Any]], str] | None:
            record = Store.record_of(c, game_id)
            if record is None:
                return None
            table_id = c.execute(sa.select(db.games.c.table_id).where(db.games.c.id == game_id)).scalar()
            gp = db.game_players
            rows = c.execute(sa.select(gp).where(gp.c.game_id == game_id).order_by(gp.c.seat)).mappings().all()
            return record, [{"seat": r["seat"], "player": r["player"], "isBot": r["is_bot"], "won": r["won"],
                             "points": r["points"]} for r in rows], table_id

        found = await manager_of(request).store.read(read)
        if found is None:
            raise LobbyError(f"there is no finished game {game_id}", 404, "lobby.no-game", game=game_id)
        await tournament_gate(manager_of(request), game_id)
        raw, players, table_id = found
        record = record_from_json(raw)
        ended = record.result or _forfeit_result(raw, players)  # a rated game lost by leaving ends unfinished
        if not ended:
            raise LobbyError(f"game {game_id} is not finished", 409, "lobby.game-not-finished", game=game_id)
        moves, shown = await asyncio.to_thread(server_game(record.game).positions, record)
        preset = record.preset or get_game(record.game).default_preset
        return PositionsInfo(gameId=game_id, tableId=table_id, game=record.game, preset=preset,
                             options=record.options, players=players, moves=moves, positions=shown,
                             result=ended)

    @app.get("/api/games/{game_id}/review", response_model=None)
    async def game_review(request: Request, game_id: int = Path(ge=0, le=_DB_INT),
                          seat: int | None = Query(None, ge=0, le=7),
                          wait: bool = True) -> dict[str, Any] | JSONResponse:
        """A finished turn-based game reviewed turn by turn (``spite review --json``, docs/bots.md "Game
        review"): for ``seat``, or every seat. Made off the event loop on first asking, then kept; with
        ``wait=false`` answered at once, 202 with the review's place in the queue until it is made;
        refusals carry a ``code``: 404 ``no-game``, 409 ``not-finished``, 422 ``not-turn-based``,
        ``no-seat`` or ``bad-record``."""
        raw = await manager_of(request).store.read(lambda c: Store.record_of(c, game_id))
        if raw is None:
            raise ReviewRefused(f"there is no finished game {game_id}", 404, "no-game")
        await tournament_gate(manager_of(request), game_id)
        if await manager_of(request).store.read(lambda c: Store.rated_in_play(c, game_id)):  # no help in play
            raise ReviewRefused(f"game {game_id} belongs to a rated match still in play: its review opens when the "
                                "match is over", 409, "rated-in-play")
        try:
            record = record_from_json(raw)
            game = get_game(record.game)
            if not record.result:
                raise ReviewRefused(f"game {game_id} is not finished", 409, "not-finished")
            if not has_hook(record.game, "review"):
                raise ReviewRefused(f"{record.game} is played in real time: a review is for turn-based games"
                                    if game.realtime else f"{record.game} games cannot be reviewed", 422,
                                    "not-turn-based")
            seats = game.seats(record.preset, record.options)
            if seat is not None and seat >= seats:
                raise ReviewRefused(f"there is no seat {seat} (seats 0 to {seats - 1})", 422, "no-seat")
            reviews: ReviewRunner = request.app.state.reviews
            address = client_address(request.scope)
            if not wait:  # answered at once: the review, what is made of it, or its place in the queue
                reviews.start(game_id, raw, seat, address)
                place = reviews.place(game_id, seat)
                partial = reviews.partial(game_id, seat)
                if place != 0 and partial is not None:
                    return JSONResponse({"status": "partial", "place": place, **partial}, status_code=202)
                if place != 0:
                    return JSONResponse({"status": "queued", "place": place}, status_code=202)
            return await reviews.review(game_id, raw, seat, address)
        except ReviewRefused:
            raise
        except SpiteError as exc:
            raise ReviewRefused(str(exc), 422, "bad-record") from None

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        """Play or watch a table: send ``hello`` first (docs/protocol.md)."""
        # an address over its socket cap or cooling down after a flood never gets here: the
        # SocketGate middleware refused its handshake (429) before anything was accepted
        manager = manager_of(websocket)
        await websocket.accept()
        address = client_address(websocket.scope)
        conn: Connection[TableHost] = Connection(websocket, config.rate, config.burst, limiter=messages,
                                                 address=address)
        conn.ip = str(websocket.scope["client"][0]) if websocket.scope.get("client") else ""
        conn.session = await accounts.session_of(websocket, config, writing=True)  # hello's ``account``
        sender = asyncio.create_task(conn.run_sender(), name="ws-sender")
        flooded = False
        hello_by = asyncio.get_running_loop().time() + config.hello_timeout
        try:
            while not conn.closing:
                if conn.hello:
                    message = await websocket.receive()
                else:
                    left = hello_by - asyncio.get_running_loop().time()
                    try:
                        message = await asyncio.wait_for(websocket.receive(), max(0.0, left))
                    except TimeoutError:
                        conn.error("hello-timeout", f"say hello within {config.hello_timeout:g} s of connecting",
                                   phrase=Phrase("error.hello-timeout.in", {"s": f"{config.hello_timeout:g}"}))
                        conn.close(1008)
                        break
                if message["type"] == "websocket.disconnect":
                    break
                if not conn.allow():
                    # over the address's budget: one error, the socket closed at once, and no new
                    # socket from the address during the cool-down (docs/protocol.md, "Limits")
                    conn.error("flood", f"too many messages from your address: at most {config.rate:g} a second",
                               version=conn.table.version if conn.table is not None else None,
                               phrase=Phrase("error.flood.rate", {"n": f"{config.rate:g}"}))
                    conn.close(1008)
                    flooded = True
                    sockets.cool_down(address)
                    log.warning("closed a flooding connection of %s; no new ones from it for %g s", address,
                                config.flood_cooldown, extra={"refusal": True})
                    break
                await manager.handle(conn, table_id, message.get("text") if message.get("text") is not None
                                     else message.get("bytes"))
        except Exception as exc:  # a broken socket: the connection is simply gone
            log.debug("table %s: connection ended: %s", table_id, exc)
        finally:
            await manager.detach(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 2.0)
            stop_reading = websocket.scope.get(STOP_READING)
            if flooded and stop_reading is not None:  # the error and the close frame are out: read no more
                stop_reading()

    accounts.install(app, config)  # /api/account/…: passkeys, sessions, device link codes (docs/accounts.md)
    admin.install(app, config)  # the operator's /api/admin/…, reports, a player's own data
    # the browser page: /, /replay/{id}, /static/… (and /t/{id} above for browsers), each served game's own
    # page folder (its family's) as /static/games/GAME/
    install_web(app, {name: folder for name in served_games() if (folder := server_game(name).listing.web)},
                catalogue)  # the page's words: the shared catalogue and every family's, merged
    return app
