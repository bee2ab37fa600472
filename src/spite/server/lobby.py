"""The tables of one server process: creating, joining, listing, and bringing tables back from the
database (after a restart, for a person back at a finished table, from another worker).

A restart (even after ``kill -9``) rebuilds every open or playing table from the database: its
record start and every stored move are replayed through the engine (in a worker thread: a long real-time
game takes some 40 ms), seats get their tokens' hashes and controllers back, each person seat gets a
fresh grace time (nobody is connected yet), and bots to move start thinking again. A finished table
is brought back the same way when one of its persons says hello with their token (to answer the
rematch question).
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import math
import random
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from spite import rating
from spite.errors import OptionsError
from spite.games import game_names, get_game, has_hook, load_hook
from spite.server.bots import BotRunner
from spite.server.config import ServerConfig
from spite.server.host import Services, TableHost
from spite.server.protocol import SeatRating, SeatRequest, TableInfo
from spite.server.ratings import aborts_since, rating_of, seat_rating
from spite.server.store import Store
from spite.server.table.core import TableCore
from spite.server.table.effects import Join, StoredTable
from spite.server.table.fair import DealSource, FairDeal
from spite.server.table.play import Opening, ServerGame
from spite.server.table.seats import LobbyError, Seat, address_key, hash_token, new_token

__all__ = ["Lobby", "TablePlan", "check_requests", "plan_table", "restored_core", "served_games", "server_game",
           "stored_info", "table_rows"]

log = logging.getLogger("spite.server")

Created = tuple[TableHost, int | None, str | None]
"""A new table, and its creator's seat and token (``None`` when the creator did not sit down)."""


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


def check_requests(game: str, hook: ServerGame, requests: list[SeatRequest], preset: str, seats: int) -> None:
    """Raise :class:`LobbyError` unless ``requests`` seat a ``game`` table of ``seats`` seats."""
    if len(requests) != seats:
        raise LobbyError(f"{preset} with these options has {seats} seats, not {len(requests)}", 400,
                         "lobby.seat-count", preset=preset, seats=seats, n=len(requests))
    for r in requests:
        if r.kind == "bot":
            hook.check_bot(game, r.level)


def check_standard(game: str, preset: str, options: dict[str, Any], what: str) -> None:
    """Refuse (``lobby.rated-standard``) rated play of ``preset`` with ``options`` that change its rules
    (docs/ratings.md): a rated ``what`` (a table, a tournament) plays a preset as it is."""
    if not rating.standard(game, preset, options):
        changed = ", ".join(f"{k}={v}" for k, v in sorted(options.items()))
        raise LobbyError(f"rated {what}s play the presets as they are: {preset} without {changed} "
                         f"(or make the {what} casual)", 400, "lobby.rated-standard", preset=preset, options=changed)


@dataclass
class TablePlan:
    """A new table before it is stored: its game's adapter, its opening (dealt from the secret alone,
    which nobody sees), its seats and its status (``open``, or ``playing`` for bots alone)."""

    hook: ServerGame
    opening: Opening
    seats: list[Seat]
    status: str
    seed: int | str
    rated: bool = False
    deal_source: DealSource | None = None

    def core(self, table_id: str, game: str, config: ServerConfig, now: float,
             entropy: Callable[[int], bytes]) -> TableCore:
        """The new table's core, made at ``now`` (stored already)."""
        return TableCore(table_id=table_id, game=game, server_game=self.hook, opening=self.opening, seats=self.seats,
                         status=self.status, created_at=now, config=config, now=now, entropy=entropy,
                         rated=self.rated, deal_source=self.deal_source)


def plan_table(table_id: str, game: str, preset: str | None, options: dict[str, Any],
               seats: list[SeatRequest] | None, join: bool,
               entropy: Callable[[int], bytes] = secrets.token_bytes,
               deal_source: DealSource | None = None) -> TablePlan:
    """A new table of ``game`` (checked: :class:`LobbyError` for what cannot be): the secret of its
    first game comes first (docs/fairness.md); until the persons' nonces are in, the table holds the deal
    without nonces, which nobody sees (a bots-only table keeps it: no nonce comes). With
    ``deal_source`` its games are dealt as the source says (no secret drawn, no nonce counts)."""
    hook = server_game(game)
    preset = preset or get_game(game).default_preset
    try:
        count = get_game(game).seats(preset, options)
        requests = seats if seats is not None else [SeatRequest(kind="person") for _ in range(count)]
        check_requests(game, hook, requests, preset, count)
        fair = (FairDeal.given(table_id, 1, count, deal_source(1)) if deal_source is not None
                else FairDeal.draw(table_id, 1, count, entropy=entropy))
        seed = fair.seed()
        opening = hook.open(game, preset, options, seed)
    except OptionsError as exc:
        raise LobbyError.of(exc) from None
    if join and not any(r.kind == "person" for r in requests):
        raise LobbyError("there is no person seat to join (set join to false for a bots-only table)", 400,
                         "lobby.no-person-seat")
    fair.dealt = all(r.kind == "bot" for r in requests)
    opening.fair = fair
    opening.start = {**opening.start, "fair": fair.stored()}
    seat_list = [Seat(seat=i, kind=r.kind, level=r.level if r.kind == "bot" else None, player=None,
                      token_hash=None, controller="bot" if r.kind == "bot" else "free")
                 for i, r in enumerate(requests)]
    status = "playing" if all(s.controller == "bot" for s in seat_list) else "open"
    return TablePlan(hook, opening, seat_list, status, seed, deal_source=deal_source)


def restored_core(st: StoredTable, opening: Opening, config: ServerConfig, now: float, created_at: float,
                  game_id: int | None, entropy: Callable[[int], bytes],
                  deal_source: DealSource | None = None) -> TableCore:
    """The core of a stored table (its game restored: :meth:`ServerGame.restore`), in play again at
    ``now``; nobody is connected yet."""
    seats = [replace(s, conns=set(), away_since=None) for s in st.seats]
    return TableCore(table_id=st.id, game=st.game, server_game=server_game(st.game), opening=opening, seats=seats,
                     status=st.status, created_at=created_at, config=config, now=now, series=st.series,
                     game_id=game_id, entropy=entropy, rated=st.rated, deal_source=deal_source)


def table_rows(table_id: str, game: str, plan: TablePlan, now: float,
               owner: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The rows that store a new table: its row and its seats' rows."""
    opening = plan.opening
    row = {"id": table_id, "game": game, "preset": opening.preset, "options": json.dumps(opening.options),
           "seed": json.dumps(plan.seed), "start": json.dumps(opening.start), "status": plan.status, "plies": 0,
           "owner": owner, "created_at": now, "updated_at": now, "rated": plan.rated, **opening.columns}
    seats = [{"seat": s.seat, "kind": s.kind, "level": s.level, "player": None, "token_hash": None,
              "controller": s.controller} for s in plan.seats]
    return row, seats


class Lobby:
    """Every table this process serves, and how they are made, found and let go of."""

    def __init__(self, config: ServerConfig, store: Store, bots: BotRunner) -> None:
        self.config = config
        self.store = store
        self.bots = bots
        self.tables: dict[str, TableHost] = {}
        self.moves_played = 0
        self.services = Services(store, bots, config, self.finished, self._counted, self.closed)
        self.started = time.time()
        self._owners: dict[str, frozenset[str]] = {}
        """Table id → the keys of the client addresses it counts against (its creator; each seeker's)."""
        self._creating: Counter[str] = Counter()  # creations under way per address key (not in tables yet)
        self.shared = False
        """One of several workers: tables are held by lease, and counted and listed in the database."""
        self.entropy: Callable[[int], bytes] = secrets.token_bytes
        """Where table ids and the fair deals' secrets come from."""
        if config.deal_seed is not None:  # tests only (ServerConfig.deal_seed)
            log.warning("PREDICTABLE DEALS (seed %d): every secret can be known; this server is for tests only",
                        config.deal_seed)
            self.entropy = random.Random(config.deal_seed).randbytes
        self.acquire: Callable[[str], Awaitable[TableHost | None]] | None = None
        """With several workers: takes a table another worker holds (or held and died) by lease."""
        self.deal_sources: Callable[[dict[str, Any]], DealSource | None] | None = None
        """A stored table dealt from outside (its fair deal's public part) → its deal source again (in a
        worker thread: it may read the database); ``None``: such tables are restored without one."""
        self.game_ends: list[Callable[[TableHost, bool], None]] = []
        """Told when a table's last game has ended and is stored (``True``) or the table was closed
        unplayed (``False``), on the worker where it happens."""

    async def local(self, table_id: str) -> TableHost | None:
        """The table in this process; with several workers, taken over first when another worker
        holds it: ``None`` when there is no such table or it could not be had (may raise
        :class:`~spite.server.leases.TableBusy`)."""
        table = self.tables.get(table_id)
        if table is not None or self.acquire is None:
            return table
        return await self.acquire(table_id)

    # ------------------------------------------------------------------ bringing tables back
    async def restore(self) -> None:
        """Rebuild every open or playing table from the database."""
        t0 = time.perf_counter()
        stored: list[StoredTable] = await self.store.read(self.store.load_live)
        hosts = await self.rebuild([(st, None) for st in stored])
        for host in hosts:
            self.tables[host.id] = host
            host.start()
        if stored:
            log.info("restored %d tables (%d moves) in %.2f s", len(hosts), sum(len(st.moves) for st in stored),
                     time.perf_counter() - t0)

    async def rebuild(self, stored: list[tuple[StoredTable, int | None]]) -> list[TableHost]:
        """Stored tables back in play: each game's adapter replays the record of its start and moves,
        in a worker thread (a replay takes the CPU for a while; the event loop must not wait for it).
        A table that cannot be restored is left as it is in the database."""
        def replay() -> list[tuple[StoredTable, int | None, Any]]:
            out = []
            for st, game_id in stored:
                try:
                    if not has_hook(st.game, "server"):
                        raise ValueError(f"game {st.game!r} is not served by this version")
                    opening = server_game(st.game).restore(st)
                    source = None
                    fair = opening.fair or opening.fair_next
                    if fair is not None and fair.fixed is not None and self.deal_sources is not None:
                        source = self.deal_sources(fair.fixed.public)
                    out.append((st, game_id, (opening, source)))
                except Exception as exc:
                    log.error("table %s cannot be restored (%s); left as it is in the database", st.id, exc)
            return out

        hosts = []
        for st, game_id, (opening, source) in await asyncio.to_thread(replay):
            if st.id in self.tables:
                hosts.append(self.tables[st.id])
                continue
            now = asyncio.get_running_loop().time()
            try:
                core = restored_core(st, opening, self.config, now, now - max(0.0, time.time() - st.created_at),
                                     game_id, self.entropy, source)
            except Exception as exc:
                log.error("table %s cannot be restored (%s); left as it is in the database", st.id, exc)
                continue
            hosts.append(TableHost(core, self.services))
        try:
            await self.read_ratings([host.core for host in hosts])
        except Exception as exc:  # a rating beside a name is not worth a table: it plays on without
            log.error("the ratings of restored tables could not be read (%s)", exc)
        return hosts

    async def bring_back(self, table_id: str) -> TableHost | None:
        """A finished table no longer in memory, rebuilt from the database (``None``: there is none)."""
        def read(c: Any) -> tuple[StoredTable | None, int | None]:
            found = Store.table_summary(c, table_id)
            return self.store.load_finished(c, table_id), found["game_id"] if found is not None else None

        st, game_id = await self.store.read(read)
        if st is None or not has_hook(st.game, "server"):
            return None
        if table_id in self.tables:  # another hello brought it back meanwhile
            return self.tables[table_id]
        hosts = await self.rebuild([(st, game_id)])
        if not hosts:
            return None
        host = self.tables.setdefault(table_id, hosts[0])
        host.start()
        log.info("table %s: finished, back in memory for its players", table_id)
        return host

    # ------------------------------------------------------------------ letting tables go
    def forget(self, table: TableHost) -> None:
        """``table`` leaves memory (unless another object of the same id, taken over since, is there)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    def closed(self, table: TableHost) -> None:
        """A table nobody played at was closed: it leaves memory, its bots are forgotten."""
        self.bots.forget(table.id)
        self.forget(table)
        self._tell_end(table, False)

    def finished(self, table: TableHost) -> None:
        """A game ended: its bots are forgotten; the table leaves memory when its last client goes."""
        self.bots.forget(table.id)
        if not table.connections():
            self.forget(table)
        self._tell_end(table, True)

    def _tell_end(self, table: TableHost, played: bool) -> None:
        for hook in self.game_ends:
            try:
                hook(table, played)
            except Exception:  # one listener's trouble is not the table's
                log.exception("table %s: a listener of its end failed", table.id)

    def _counted(self) -> None:
        self.moves_played += 1

    # ------------------------------------------------------------------ lobby
    def live_tables_of(self, owner: str) -> int:
        """Open or playing tables the client address ``owner`` created or was seated at by a seek (and
        creations under way) in this process (one of several workers counts in the database instead)."""
        return self._live_of(address_key(owner))

    def _live_of(self, key: str) -> int:
        for table_id in [t for t in self._owners if t not in self.tables]:
            del self._owners[table_id]  # gone from memory: finished, abandoned
        live = sum(1 for t, keys in self._owners.items()
                   if key in keys and self.tables[t].status in ("open", "playing"))
        return live + self._creating[key]

    async def tables_of(self, key: str) -> int:
        """The live tables of the address whose key is ``key`` (:func:`address_key`), as
        :meth:`live_tables_of` counts them; over every worker when there are several (in the database)."""
        if not self.shared:
            return self._live_of(key)
        return int(await self.store.read(lambda c: Store.live_tables_of(c, key)))

    async def create(self, *, game: str, preset: str | None, options: dict[str, Any],
                     seats: list[SeatRequest] | None, name: str, join: bool,
                     owner: str | None = None, player_id: str | None = None, rated: bool = False) -> Created:
        """A new table (and the creator's seat and token when ``join``): stored with its seats, put in
        play (bots-only tables start at once) and, with ``join``, its creator seated. ``owner`` (the
        client address) may have at most ``max_open_tables`` open or playing tables (429): counted in
        memory by one process, in the database by one of several workers (the address's tables may be
        on any of them)."""
        key = address_key(owner) if owner is not None else None
        if key is None or self.shared:
            return await self._create(game=game, preset=preset, options=options, seats=seats, name=name, join=join,
                                      player_id=player_id, rated=rated, creator=key)
        cap = self.config.max_open_tables
        if self._live_of(key) >= cap:
            raise self.too_many_tables()
        self._creating[key] += 1  # counted while the table is being stored, so parallel requests cannot pass the cap
        try:
            created = await self._create(game=game, preset=preset, options=options, seats=seats, name=name, join=join,
                                         player_id=player_id, rated=rated, address=key)
            self._owners[created[0].id] = frozenset({key})
        finally:
            self._creating[key] -= 1
            if not self._creating[key]:
                del self._creating[key]
        return created

    async def create_for_seekers(self, *, game: str, preset: str, seats: list[SeatRequest], rated: bool,
                                 seekers: list[tuple[str, str, str | None]]) -> tuple[TableHost, list[tuple[int, str]]]:
        """A new table for paired seeks, each seeker ``(name, player id, address key)`` seated in turn
        (a computer in the other seats ``seats`` names). It counts against every seeker's address as a
        table they made (their seeks were counted against ``max_open_tables`` when they were made)."""
        name, pid, key = seekers[0]
        host, seat, token = await self._create(game=game, preset=preset, options={}, seats=seats, name=name,
                                               join=True, player_id=pid, rated=rated, address=key)
        assert seat is not None and token is not None
        self._owners[host.id] = frozenset(k for _, _, k in seekers if k is not None)
        seated = [(seat, token)]
        for name, pid, key in seekers[1:]:
            seated.append(await self.join_here(host, name, None, pid, key))
        return host, seated

    async def create_seated(self, *, table_id: str, game: str, preset: str, options: dict[str, Any],
                            seats: list[SeatRequest], people: dict[int, tuple[str, str, str | None]], rated: bool,
                            deal_source: DealSource | None) -> TableHost | None:
        """A table made with its people already seated, in one insert (an organiser's table: a
        tournament's, of its preset with its options): ``people`` maps a person seat to (name, token hash,
        player id); it is in play at once, its deal made when every person has said hello. ``table_id`` is
        chosen by the caller, so that making it twice makes it once: ``None`` when a table of that id
        exists already."""
        plan = plan_table(table_id, game, preset, options, seats, False, entropy=self.entropy,
                          deal_source=deal_source)
        plan.rated = rated
        if rated:
            self.check_rated(plan, game)
        for seat in plan.seats:
            if seat.seat in people:
                seat.player, seat.token_hash, seat.player_id = people[seat.seat]
                seat.controller = "person"
        plan.status = "playing"
        now = time.time()
        row, seat_rows = table_rows(table_id, game, plan, now, self.config.process_name)
        for seat_row, seat in zip(seat_rows, plan.seats, strict=True):
            seat_row.update(player=seat.player, token_hash=seat.token_hash, player_id=seat.player_id,
                            controller=seat.controller)
        if self.shared:
            from spite.server.leases import lease_end

            row["lease_until"] = lease_end()
        try:
            await self.store.write(Store.insert_table(row, seat_rows))
        except IntegrityError:
            return None
        host = TableHost(plan.core(table_id, game, self.config, asyncio.get_running_loop().time(), self.entropy),
                         self.services)
        await self.read_ratings([host.core])
        self.tables[table_id] = host
        host.start()
        log.info("table %s: made seated (%s, %s, seats %s)", table_id, game, plan.opening.preset,
                 ", ".join(s.player or "" if s.kind == "person" else f"bot:{s.level}" for s in plan.seats))
        return host

    def too_many_tables(self) -> LobbyError:
        """The refusal of a table over ``max_open_tables``."""
        cap = self.config.max_open_tables
        return LobbyError(f"you already have {cap} open or playing tables: finish or leave one first", 429,
                          "lobby.too-many-tables", n=cap)

    async def check_rated_player(self, player_id: str) -> None:
        """Refuse (429, with when to try again) a player whose rated play is paused: they aborted
        ``abort_limit`` rated games within ``abort_window`` seconds (docs/ratings.md)."""
        limit, window = self.config.abort_limit, self.config.abort_window
        if limit <= 0:
            return
        now = time.time()
        aborts = await self.store.read(lambda c: aborts_since(c, player_id, now - window))
        until = rating.paused_until(aborts, limit, window)
        if until is not None and until > now:
            minutes = max(1, math.ceil((until - now) / 60))
            error = LobbyError(f"you left {limit} rated games before they began within {window / 60:g} minutes: "
                               f"rated play is paused for {minutes} more minutes (casual tables are open)", 429,
                               "rated.paused", n=limit, m=minutes)
            error.retry_after = until - now  # type: ignore[attr-defined]
            raise error

    def check_rated(self, plan: TablePlan, game: str) -> None:
        """A rated table plays standard rules (a preset as it is) and the computer only at a measured
        level (docs/ratings.md): anything else is refused, to be made casual."""
        opening = plan.opening
        check_standard(game, opening.preset, opening.options, "table")
        group = rating.rating_group(game, opening.preset, opening.options, len(plan.seats)).name
        levels = {s.level for s in plan.seats if s.kind == "bot"}
        unmeasured = sorted(lv or "" for lv in levels if not rating.measured(group, lv))
        if unmeasured:
            known = ", ".join(sorted(rating.level_table().get(group, {})))
            raise LobbyError(f"rated games against the computer are at its measured levels ({known}), not "
                             f"{', '.join(unmeasured)} (or make the table casual)", 400, "lobby.rated-level",
                             levels=known, level=", ".join(unmeasured))

    async def _create(self, *, game: str, preset: str | None, options: dict[str, Any],
                      seats: list[SeatRequest] | None, name: str, join: bool,
                      player_id: str | None = None, creator: str | None = None, rated: bool = False,
                      address: str | None = None, table_id: str | None = None,
                      deal_source: DealSource | None = None) -> Created:
        """The table made and stored (see :meth:`create`); with ``creator`` (an address's key) it is
        stored only while that address has fewer than ``max_open_tables`` live tables in the database.
        ``address``: the key of the address its creator sits down from (``creator`` when given)."""
        table_id = table_id or base64.urlsafe_b64encode(self.entropy(9)).decode()
        plan = plan_table(table_id, game, preset, options, seats, join, entropy=self.entropy, deal_source=deal_source)
        plan.rated = rated
        if rated:
            if join and player_id is None:
                raise LobbyError("a rated table seats only players with a player key", 400, "lobby.rated-needs-key")
            self.check_rated(plan, game)
            if join and player_id is not None:
                await self.check_rated_player(player_id)
        now = time.time()
        row, seat_rows = table_rows(table_id, game, plan, now, self.config.process_name)
        if self.shared:  # the creator holds it until the worker its sockets reach asks for it
            from spite.server.leases import lease_end

            row["lease_until"] = lease_end()
        if creator is None:
            await self.store.write(Store.insert_table(row, seat_rows))
        elif not await self.store.write(Store.insert_table_capped({**row, "creator": creator}, seat_rows,
                                                                  self.config.max_open_tables)):
            raise self.too_many_tables()
        host = TableHost(plan.core(table_id, game, self.config, asyncio.get_running_loop().time(), self.entropy),
                         self.services)
        self.tables[table_id] = host
        host.start()
        log.info("table %s: created (%s, %s, seats %s)", table_id, game, plan.opening.preset,
                 ", ".join(s.kind if s.kind == "person" else f"bot:{s.level}" for s in plan.seats))
        if not join:
            return host, None, None
        seat, token = await self.join_here(host, name, None, player_id, address or creator)
        return host, seat, token

    async def join_here(self, host: TableHost, name: str, seat_no: int | None,
                        player_id: str | None = None, address: str | None = None) -> tuple[int, str]:
        """Take a free person seat of ``host`` (its games count for ``player_id``; ``address``: the key
        of the address the person sits down from); the game starts when none is left. Returns the seat
        and its token (the table keeps only the token's hash)."""
        token = new_token()
        rating = None
        if host.core.rated and player_id is not None:  # shown beside their name at the table
            group = self.rating_group_of(host.core)
            rating = seat_rating(await self.store.read(lambda c: rating_of(c, player_id, group)))
        seat: int = await host.submit(Join(name, hash_token(token), seat_no, player_id, address, rating))
        return seat, token

    @staticmethod
    def rating_group_of(core: TableCore) -> str:
        """The rules group a rated table's games are rated in (the game's hook says)."""
        return rating.rating_group(core.game, core.preset, core.options, len(core.seats)).name

    async def read_ratings(self, cores: list[TableCore]) -> None:
        """The ratings of the keyed players at the rated tables among ``cores`` (tables brought back
        from the database), shown beside their names as at a table made here."""
        wanted = [(seat, self.rating_group_of(core)) for core in cores if core.rated
                  for seat in core.seats if seat.player_id is not None]
        if not wanted:
            return

        def read(c: Any) -> list[SeatRating]:
            return [seat_rating(rating_of(c, str(seat.player_id), group)) for seat, group in wanted]

        for (seat, _), shown in zip(wanted, await self.store.read(read), strict=True):
            seat.rating = shown

    async def listed_tables(self, status: str = "open", offset: int = 0,
                            limit: int | None = None) -> tuple[list[TableInfo], int]:
        """:meth:`open_tables`; with several workers, from the database (each holds only some tables)."""
        if not self.shared:
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
        "gameId": found["game_id"], "series": _series(row),
        "fair": _stored_fair(row, len(seats)), "rated": bool(row.get("rated"))})


def _series(row: dict[str, Any]) -> dict[str, Any] | None:
    """A stored table's series (the rematch answers kept with it are the table core's own)."""
    if not row.get("series"):
        return None
    return {k: v for k, v in json.loads(row["series"]).items() if k != "rematch"}


def _stored_fair(row: dict[str, Any], seats: int) -> dict[str, Any] | None:
    """The public part of a stored table's fair deal (the commitment; never the secret: a finished
    game's is in its record)."""
    start = json.loads(row["start"]) if row.get("start") else {}
    if "fair" not in start:
        return None
    return FairDeal.from_stored(row["id"], seats, start["fair"]).info(revealed=False).model_dump()
