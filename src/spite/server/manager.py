"""One server process's parts, put together: the lobby (:mod:`spite.server.lobby`: the tables, how
they are made, joined and brought back), the socket dispatch (:mod:`spite.server.dispatch`) and, with
several workers, the lease keeper (:mod:`spite.server.keeper`). The app (:mod:`spite.server.app`)
talks to this one object.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from spite.games import get_game
from spite.server.bots import BotRunner
from spite.server.config import ServerConfig
from spite.server.dispatch import Dispatch
from spite.server.host import Conn, TableHost
from spite.server.keeper import LeaseKeeper
from spite.server.leases import Leases
from spite.server.lobby import Lobby, served_games, server_game, stored_info
from spite.server.moderation import BanBook, Moderation, ModerationError
from spite.server.pauses import installed_probe
from spite.server.protocol import SeatRequest, TableInfo
from spite.server.seeks import Seek, SeekPolicy, SeekService
from spite.server.store import Store
from spite.server.table.seats import LobbyError, address_key
from spite.server.tournaments import TournamentService

__all__ = ["LobbyError", "Manager", "served_games", "server_game", "stored_info"]


class Manager:
    """Every table this process serves, the store and the bots."""

    def __init__(self, config: ServerConfig, store: Store, bots: BotRunner, bans: BanBook | None = None) -> None:
        self.config = config
        self.store = store
        self.bots = bots
        self.lobby = Lobby(config, store, bots)
        self.moderation = Moderation(store.engine, self.lobby, config.moderation_poll)
        """The bans and the operator's actions (:mod:`spite.server.moderation`)."""
        if bans is not None:
            self.moderation.bans = bans
        self.dispatch = Dispatch(self.lobby, config, self.moderation.bans)
        self.keeper: LeaseKeeper | None = None
        """With several workers (``config.cluster``): this worker's table leases."""
        if config.cluster:
            self.keeper = LeaseKeeper(self.lobby, Leases(store.engine, config.process_name, config.address))
        self.seeks = SeekService(engine=store.engine if config.cluster else None, seat_people=self.seat_together,
                                 levels=lambda game: server_game(game).listing.levels, max_per_address=config.max_seeks,
                                 policy=SeekPolicy(ttl=config.seek_ttl), max_tables=config.max_open_tables,
                                 tables_of=self.lobby.tables_of)
        """Play a person now: the seeks (in memory, or in the database with several workers)."""
        self.tournaments = TournamentService(self, config, entropy=self.lobby.entropy)
        """Club tournaments (:mod:`spite.server.tournaments`), directed by whichever worker a change reaches."""

    @property
    def tables(self) -> dict[str, TableHost]:
        """The tables this process holds."""
        return self.lobby.tables

    @property
    def moves_played(self) -> int:
        return self.lobby.moves_played

    async def start(self) -> None:
        """Restore the live tables (one process) or start holding tables by lease (one of several
        workers: live tables come by sweep and request)."""
        await self.moderation.start()
        if self.keeper is None:
            await self.lobby.restore()
        else:
            await self.keeper.start()
        self.seeks.start()
        self.tournaments.start()

    def stop_waiting(self) -> None:
        """The server begins to shut down: long polls (seeks, tournaments) are answered at once."""
        self.seeks.changes.stop()
        self.tournaments.changes.stop()

    async def close(self) -> None:
        """Stop every table (all state is already in the database)."""
        await self.seeks.close()
        await self.tournaments.close()
        await self.moderation.close()
        for table in list(self.tables.values()):
            await table.close(1001 if self.keeper is None else 1012)
        if self.keeper is not None:
            await self.keeper.close()

    # ------------------------------------------------------------------ lobby
    def check_player(self, player_id: str | None) -> None:
        """Refuse (403, ``error.banned``) a banned player id."""
        if self.moderation.bans.player(player_id):
            raise ModerationError("you may not play on this server", 403, "error.banned")

    def live_tables_of(self, owner: str) -> int:
        return self.lobby.live_tables_of(owner)

    async def create(self, *, game: str, preset: str | None, options: dict[str, Any],
                     seats: list[SeatRequest] | None, name: str, join: bool, owner: str | None = None,
                     player_id: str | None = None, rated: bool = False) -> tuple[TableInfo, int | None, str | None]:
        """A new table (:meth:`Lobby.create`): its info as the creator sees it, and their seat and token."""
        self.check_player(player_id)
        table, seat, token = await self.lobby.create(game=game, preset=preset, options=options, seats=seats,
                                                     name=name, join=join, owner=owner, player_id=player_id,
                                                     rated=rated)
        info = table.info()
        if self.keeper is not None:
            await self.keeper.let_go_if_people(table)
        return info, seat, token

    async def seat_together(self, seeks: Sequence[Seek], level: str | None) -> tuple[str, list[tuple[int, str]]]:
        """A new table for paired seeks (:mod:`spite.server.seeks`), each at the seat of its place, and
        with ``level`` a computer of that level in every other seat; each seek's seat and token. The
        table counts against every seeker's address; with several workers it is let go of afterwards,
        like any new table people sit at."""
        first = seeks[0]
        count = get_game(first.game).seats(first.preset, {})
        requests = [SeatRequest(kind="person") for _ in seeks]
        requests += [SeatRequest(kind="bot", level=level) for _ in range(count - len(seeks))]
        table, seated = await self.lobby.create_for_seekers(
            game=first.game, preset=first.preset, seats=requests, rated=first.rated,
            seekers=[(seek.name, seek.player_id, seek.creator) for seek in seeks])
        if self.keeper is not None:
            await self.keeper.let_go_if_people(table)
        return table.id, seated

    async def join(self, table_id: str, name: str, seat_no: int | None,
                   player_id: str | None = None, address: str | None = None) -> tuple[TableInfo, int, str]:
        """Take a free person seat; the game starts when none is left. ``address``: the client address
        the person sits down from (a rated table seats one address on one side)."""
        self.check_player(player_id)
        table = await self.lobby.local(table_id)
        if table is None:
            raise LobbyError(f"there is no open table {table_id}", 404, "lobby.no-open-table", table=table_id)
        if table.status == "finished" and not table.connections():
            self.lobby.forget(table)  # taken in by a worker of several only to be refused below
        if table.core.rated and player_id is not None:
            await self.lobby.check_rated_player(player_id)
        seat, token = await self.lobby.join_here(table, name, seat_no, player_id,
                                                 address_key(address) if address is not None else None)
        return table.info(), seat, token

    async def listed_tables(self, status: str = "open", offset: int = 0,
                            limit: int | None = None) -> tuple[list[TableInfo], int]:
        return await self.lobby.listed_tables(status, offset, limit)

    def open_tables(self, status: str = "open", offset: int = 0,
                    limit: int | None = None) -> tuple[list[TableInfo], int]:
        return self.lobby.open_tables(status, offset, limit)

    # ------------------------------------------------------------------ sockets
    async def handle(self, conn: Conn, table_id: str, raw: str | bytes | None) -> None:
        await self.dispatch.handle(conn, table_id, raw)

    async def detach(self, conn: Conn) -> None:
        await self.dispatch.detach(conn)

    def health(self, gc: bool = False) -> dict[str, Any]:
        """Figures for ``/healthz`` (no host name or process id: they would tell strangers about the machine)."""
        playing = sum(1 for t in self.tables.values() if t.status == "playing")
        keeper = self.keeper
        cluster: dict[str, Any] = ({"takeovers": keeper.takeovers, "handovers": keeper.handovers}
                                   if keeper is not None else {})
        probe = installed_probe() if gc else None  # a bench or a diagnosis asked for the collector's pauses
        if probe is not None:
            cluster["gc"] = probe.figures()
        return {"ok": True, "tables": len(self.tables), "playing": playing, "moves": self.moves_played, **cluster,
                "db": self.store.dialect, "uptime": round(time.time() - self.lobby.started, 1),
                "commits": self.store.commits, "botDecisions": self.bots.decisions, "botFallbacks": self.bots.fallbacks}
