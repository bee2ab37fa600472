"""The tables of one server process: creating, joining, restoring after a restart, and the
WebSocket message loop's dispatch.

A restart (even after ``kill -9``) rebuilds every open or playing table from the database: its
record start and every stored move are replayed through the engine, seats get their tokens'
hashes and controllers back, each person seat gets a fresh grace time (nobody is connected yet),
and bots to move start thinking again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from spite.bots.reflex import make_reflex_bot
from spite.errors import OptionsError, SpiteError
from spite.malice import Match, Options, State
from spite.records import Record
from spite.records.malice import replay_malice
from spite.records.spit import record_from_state as spit_record_from_state
from spite.records.spit import replay_spit
from spite.server.bots import BotRunner
from spite.server.config import BOT_LEVELS, ServerConfig
from spite.server.protocol import (
    AnyClientMessage,
    Hello,
    HintRequest,
    MoveMessage,
    NextGame,
    Ping,
    Pong,
    SeatRequest,
    Sync,
    TableInfo,
    UndoMessage,
    client_adapter,
)
from spite.server.spit_tables import SpitTable
from spite.server.store import Store, StoredTable
from spite.server.tables import Connection, Seat, Table, hash_token, match_from_json, new_token, wants_match
from spite.spit import new_game as new_spit_game

__all__ = ["LobbyError", "Manager"]

log = logging.getLogger("spite.server")

_TYPES = ("hello", "move", "sync", "ping", "hint", "undo", "next")
REALTIME = ("spit", "speed")


class LobbyError(SpiteError):
    """A lobby request that cannot be done; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _one_line(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())[1:])
    return f"{where}: {err.get('msg', 'invalid')}" if where else str(err.get("msg", "invalid"))


class Manager:
    """Every table this process serves, the store and the bots."""

    def __init__(self, config: ServerConfig, store: Store, bots: BotRunner) -> None:
        self.config = config
        self.store = store
        self.bots = bots
        self.tables: dict[str, Table] = {}
        self.moves_played = 0
        self.started = time.time()
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Restore the live tables and start the sweeper."""
        await self.restore()
        self._sweeper = asyncio.create_task(self._sweep(), name="spite-sweeper")

    async def close(self) -> None:
        """Stop every table's tasks (all state is already in the database)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in list(self.tables.values()):
            await table.close()

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

    def _rebuild(self, st: StoredTable) -> Table:
        if st.game in REALTIME:
            return self._rebuild_spit(st)
        if st.game != "spite-malice":
            raise ValueError(f"game {st.game!r} is not served by this version")
        flat: list[Any] = list(st.start.get("leading", []))
        for entries in st.moves:
            flat.extend(entries)
        # a match's game has its own seed (derived from the table's)
        record = Record(game=st.game, preset=st.preset, options=st.options, seed=st.start.get("seed", st.seed),
                        deal=st.start["deal"], moves=flat)
        state = replay_malice(record).state
        seats = [Seat(seat=s.seat, kind=s.kind, level=s.level, player=s.player, token_hash=s.token_hash,
                      controller=s.controller) for s in st.seats]
        match: Match | None = None
        game_ids: list[int] = []
        if st.match is not None:
            match, game_ids = match_from_json(state.opts, st.seed, st.match)
        return Table(self, table_id=st.id, preset=st.preset, options=st.options, seed=st.seed, state=state,
                     seats=seats, status=st.status, created_at=st.created_at, version_base=st.version_base,
                     match=match, game_ids=game_ids)

    def _rebuild_spit(self, st: StoredTable) -> SpitTable:
        flat: list[Any] = []
        for entries in st.moves:
            flat.extend(entries)
        record = Record(game=st.game, preset=st.preset, options=st.options, seed=st.seed, deal=st.start["deal"],
                        moves=flat)
        state = replay_spit(record).state
        seats = [Seat(seat=s.seat, kind=s.kind, level=s.level, player=s.player, token_hash=s.token_hash,
                      controller=s.controller) for s in st.seats]
        return SpitTable(self, table_id=st.id, game=st.game, preset=st.preset, options=st.options, seed=st.seed,
                         state=state, stored=len(flat), rows=len(st.moves), seats=seats, status=st.status,
                         created_at=st.created_at)

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

    def finished(self, table: Table) -> None:
        """A game ended: its bots are forgotten; the table leaves memory when its last client goes."""
        self.bots.forget(table.id)
        if not table.connections():
            self.tables.pop(table.id, None)

    # ------------------------------------------------------------------ lobby
    async def create(self, *, game: str, preset: str | None, options: dict[str, Any],
                     seats: list[SeatRequest] | None, name: str, join: bool) -> tuple[Table, int | None, str | None]:
        """A new table (and the creator's seat and token when ``join``)."""
        if game in REALTIME:
            return await self._create_spit(game=game, preset=preset, options=options, seats=seats, name=name,
                                           join=join)
        if game != "spite-malice":
            raise LobbyError(f"{game} tables are not served (spite-malice, spit, speed)", 501)
        preset = preset or "classic"
        try:
            opts = Options.from_preset(preset, options)
        except OptionsError as exc:
            raise LobbyError(str(exc)) from None
        requests = seats if seats is not None else [SeatRequest(kind="person") for _ in range(opts.players)]
        if len(requests) != opts.players:
            raise LobbyError(f"{preset} with these options has {opts.players} seats, not {len(requests)}")
        for r in requests:
            if r.kind == "bot" and r.level not in BOT_LEVELS:
                raise LobbyError(f"a bot seat needs a level ({', '.join(BOT_LEVELS)})")
        seed = secrets.randbits(62)
        overrides = opts.overrides_from(preset)
        match = Match(opts, seed) if wants_match(opts, overrides) else None
        state = match.start_game() if match is not None else State.new(opts, seed)
        leading = [entry for entry in state.record_moves() if isinstance(entry, dict)]
        start: dict[str, Any] = {"deal": state.deal_json(), "leading": leading}
        extra: dict[str, Any] = {}
        if match is not None:
            start["seed"] = state.seed  # the game's own seed (the table's is the match's)
            extra["match"] = json.dumps({"scores": match.scores, "starters": [], "results": [], "gameIds": []})
        return await self._open_table(
            game, preset, overrides, seed, start, requests, name, join,
            lambda table_id, seats, status, now: Table(self, table_id=table_id, preset=preset, options=overrides,
                                                       seed=seed, state=state, seats=seats, status=status,
                                                       created_at=now, match=match), extra)

    async def _create_spit(self, *, game: str, preset: str | None, options: dict[str, Any],
                           seats: list[SeatRequest] | None, name: str,
                           join: bool) -> tuple[Table, int | None, str | None]:
        """A new Spit or Speed table (two seats; bots are reflex bots)."""
        seed = secrets.randbits(62)
        try:
            state = new_spit_game(game, preset, options, seed=seed)
        except OptionsError as exc:
            raise LobbyError(str(exc)) from None
        requests = seats if seats is not None else [SeatRequest(kind="person") for _ in range(2)]
        if len(requests) != 2:
            raise LobbyError(f"{game} is a game for 2 seats, not {len(requests)}")
        for r in requests:
            if r.kind == "bot":
                if r.level is None or (r.level in BOT_LEVELS and r.level != "expert"):
                    raise LobbyError(f"a {game} bot seat needs a level (beginner, club, expert or reflex:MS)")
                try:
                    make_reflex_bot(r.level)
                except OptionsError as exc:
                    raise LobbyError(str(exc)) from None
        record = spit_record_from_state(state)
        preset_name = state.preset
        overrides = record.options
        return await self._open_table(
            game, preset_name, overrides, seed, {"deal": record.deal}, requests, name, join,
            lambda table_id, seats, status, now: SpitTable(self, table_id=table_id, game=game, preset=preset_name,
                                                           options=overrides, seed=seed, state=state, stored=0,
                                                           rows=0, seats=seats, status=status, created_at=now))

    async def _open_table(self, game: str, preset: str, overrides: dict[str, Any], seed: int,
                          start: dict[str, Any], requests: list[SeatRequest], name: str, join: bool,
                          make: Callable[[str, list[Seat], str, float], Table],
                          extra: dict[str, Any] | None = None) -> tuple[Table, int | None, str | None]:
        """Store a new table and its seats, put it in play (bots-only tables start at once) and, with
        ``join``, seat its creator. ``make(table_id, seats, status, now)`` builds the table object;
        ``extra`` are more columns of its row (a match's score)."""
        if join and not any(r.kind == "person" for r in requests):
            raise LobbyError("there is no person seat to join (set join to false for a bots-only table)")
        table_id = secrets.token_urlsafe(9)
        now = time.time()
        seat_list = [Seat(seat=i, kind=r.kind, level=r.level if r.kind == "bot" else None, player=None,
                          token_hash=None, controller="bot" if r.kind == "bot" else "free")
                     for i, r in enumerate(requests)]
        all_bots = all(s.controller == "bot" for s in seat_list)
        status = "playing" if all_bots else "open"
        row = {"id": table_id, "game": game, "preset": preset, "options": json.dumps(overrides),
               "seed": json.dumps(seed), "start": json.dumps(start),
               "status": status, "plies": 0, "owner": self.config.process_name, "created_at": now, "updated_at": now,
               **(extra or {})}
        seat_rows = [{"seat": s.seat, "kind": s.kind, "level": s.level, "player": None, "token_hash": None,
                      "controller": s.controller} for s in seat_list]
        await self.store.write(Store.insert_table(row, seat_rows))
        table = make(table_id, seat_list, status, now)
        self.tables[table_id] = table
        log.info("table %s: created (%s, %s, seats %s)", table_id, game, preset,
                 ", ".join(s.kind if s.kind == "person" else f"bot:{s.level}" for s in seat_list))
        if all_bots:
            table.schedule_bot()
        if not join:
            return table, None, None
        seat, token = await self.join(table_id, name, None)
        return table, seat, token

    async def join(self, table_id: str, name: str, seat_no: int | None) -> tuple[int, str]:
        """Take a free person seat; the game starts when none is left."""
        table = self.tables.get(table_id)
        if table is None:
            raise LobbyError(f"there is no open table {table_id}", 404)
        async with table.lock:
            if table.status != "open":
                raise LobbyError(f"table {table_id} is {table.status}: no seat is free", 409)
            free = [s for s in table.seats if s.controller == "free"]
            if seat_no is not None:
                free = [s for s in free if s.seat == seat_no]
                if not free:
                    raise LobbyError(f"seat {seat_no} is not free", 409)
            if not free:
                raise LobbyError(f"table {table_id} has no free seat", 409)
            seat = free[0]
            token = new_token()
            digest = hash_token(token)
            starts = len([s for s in table.seats if s.controller == "free"]) == 1
            write = Store.update_seat(table.id, seat.seat, player=name, token_hash=digest, controller="person")
            if starts:
                start = Store.update_table(table.id, status="playing")

                def both(c: Any) -> None:
                    write(c)
                    start(c)

                await self.store.write(both)
            else:
                await self.store.write(write)
            seat.player, seat.token_hash, seat.controller = name, digest, "person"
            log.info("table %s: %s took seat %d", table.id, name, seat.seat)
            table.tell("joined", seat.seat, f"{name} took seat {seat.seat}")
            if starts:
                table.status = "playing"
                log.info("table %s: every seat is taken; the game starts", table.id)
                table.tell("started", None, "every seat is taken: the game starts")
                table.start_grace_timers()
        table.schedule_bot()
        return seat.seat, token

    def open_tables(self, status: str = "open") -> list[TableInfo]:
        """Tables with free seats (or, with ``status="playing"``, games to watch)."""
        return [t.info() for t in sorted(self.tables.values(), key=lambda t: t.created_at) if t.status == status]

    # ------------------------------------------------------------------ WebSocket messages
    async def handle(self, conn: Connection, table_id: str, raw: str | bytes | None) -> None:
        """One incoming WebSocket message: checked, then dispatched. Never raises."""
        version = conn.table.version if conn.table is not None else None
        if not conn.allow():
            if conn.should_tell_flood():
                conn.error("flood", f"too many messages: at most {self.config.rate:g} a second", version=version)
            if conn.flooded > 20 * self.config.burst:
                log.warning("table %s: closing a connection that keeps flooding", table_id)
                conn.close(1008)
            return
        if raw is None or isinstance(raw, bytes):
            conn.error("bad-message", "messages are JSON text frames", version=version)
            return
        if len(raw) > self.config.max_message:
            conn.error("too-long", f"a message may have at most {self.config.max_message} bytes", version=version)
            return
        try:
            data = json.loads(raw)
        except ValueError:
            conn.error("bad-json", "the message is not valid JSON", version=version)
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

    async def _dispatch(self, conn: Connection, table_id: str, msg: AnyClientMessage) -> None:
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
        # the table answers what its game has (a Spit table refuses hints, undo and ``next`` itself)
        if isinstance(msg, HintRequest):
            await table.player_hint(conn, msg.id)
        elif isinstance(msg, UndoMessage):
            await table.player_undo(conn, msg.stateVersion, msg.id)
        elif isinstance(msg, NextGame):
            await table.player_next(conn, msg.id)

    async def _hello(self, conn: Connection, table_id: str, msg: Hello) -> None:
        if conn.hello:
            conn.error("already-hello", "this connection has already said hello")
            return
        table = self.tables.get(table_id)
        if table is None:
            found = await self.store.read(lambda c: Store.table_summary(c, table_id))
            if found is not None and found["game_id"] is not None:
                conn.error("no-table", f"table {table_id} has finished; its record is "
                           f"/api/games/{found['game_id']}/record")
            else:
                conn.error("no-table", f"there is no table {table_id} being played")
            conn.close(1008)
            return
        if msg.spectate:
            await table.attach(conn, None)
            return
        seat = table.seat_for_token(msg.token or "")
        if seat is None:
            log.info("table %s: a hello with a wrong token", table_id)
            conn.error("wrong-token", "that token is no seat's at this table", version=table.version)
            conn.close(1008)
            return
        await table.attach(conn, seat)

    async def detach(self, conn: Connection) -> None:
        """A connection closed."""
        table = conn.table
        if table is None:
            return
        await table.detach(conn)
        if table.status in ("finished", "abandoned") and not table.connections():
            self.tables.pop(table.id, None)

    def health(self) -> dict[str, Any]:
        """Figures for ``/healthz``."""
        playing = sum(1 for t in self.tables.values() if t.status == "playing")
        return {"ok": True, "tables": len(self.tables), "playing": playing, "moves": self.moves_played,
                "db": self.store.dialect, "uptime": round(time.time() - self.started, 1),
                "commits": self.store.commits, "botDecisions": self.bots.decisions, "botFallbacks": self.bots.fallbacks,
                "process": self.config.process_name}


def _id_of(data: dict[str, Any]) -> str | None:
    value = data.get("id")
    return value[:64] if isinstance(value, str) else None
