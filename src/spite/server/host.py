"""The table host: one table in play, whatever its game.

The host keeps what every game's table has: seats and their tokens, connections and spectators,
``stateVersion``, the lock, grace times and the bot that takes a dropped seat over, and the path of
a move: check, play it in the game, commit it to the database (awaiting the commit), and only then
acknowledge it and tell every connection. If the commit fails the move is taken back and the mover
is told; no one else ever saw it. At the end it stores the record and the players' statistics.

It drives the game only through :mod:`spite.games` (``apply``, ``advance``, ``view``, ``to_act``,
``legal_moves``, ``to_record``, ``result``) and never asks which game it is. What differs between
games is a small adapter, found in the registry (``spite.games.register(..., server=...)``): a
:class:`ServerGame` opens and restores a table's game, and a :class:`TablePlay` per table supplies
the bots, the clock of a real-time game and the extra fields of its messages. Requests only some
games know (``hint``, ``undo``, ``next``) are served when the table's play implements them
(:class:`Hints`, :class:`Undo`, :class:`Matches`); otherwise the host answers ``bad-message``.

``stateVersion`` rises with every stored change (how much is the adapter's: one per move in a turn
game, one per record entry in real time); ``version_base`` (stored with the table) carries what
undo and a match's next game added, so both survive restarts.

Rematch (``rematch``): once a table's last game is over, every seat a person plays is asked for
another game at the same table link; bots say yes at once. When every person seat has said yes (a
person whose seat a bot took over is asked when they come back), the table deals a new game from a
fresh seed with the same seats, game, preset and options (:meth:`ServerGame.open`, so a match table
starts a new match), stored in one commit, at one past the last ``stateVersion``. The table's series
(games, wins per seat, the games' ids) goes on across rematches and is stored with each game's
record, so a restart keeps it; a person whose finished table left memory (every page closed, a
restart) brings it back with their seat's token.

What a connection receives is built here and only here: the seat's (or a spectator's)
``state.view(seat).to_json()`` and the seat's legal moves (:meth:`TablePlay.view_for`), and in a
``welcome`` the game's steps so far as everyone was told them (:meth:`TablePlay.move_log`). Nothing
else of the state ever leaves the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel
from sqlalchemy.exc import IntegrityError

from spite.errors import IllegalMoveError, Phrase, SpiteError
from spite.games import Event, GameState, Record, get_game
from spite.server.bots import BotRunner
from spite.server.config import ServerConfig
from spite.server.connection import Connection
from spite.server.fair import FairDeal
from spite.server.protocol import (
    Ack,
    FairInfo,
    GameOver,
    LastMove,
    LoggedMove,
    RematchInfo,
    RematchState,
    SeatInfo,
    SeatRequest,
    SeriesInfo,
    StateMessage,
    TableEvent,
    TableInfo,
    TableMessage,
    Welcome,
    Words,
)
from spite.server.store import Store, StoredTable

__all__ = ["Conn", "Ending", "Hints", "LobbyError", "Matches", "Opening", "Seat", "ServerGame", "Services", "Table",
           "TablePlay", "Undo", "address_key", "hash_token", "new_token", "player_id"]

log = logging.getLogger("spite.server.table")

Conn = Connection["Table"]
"""A WebSocket connection at a table."""

MOVE_LOG_MAX = 200
"""The most steps of the game in play a ``welcome`` carries (its ``moveLog``): the newest ones."""


class LobbyError(SpiteError):
    """A lobby request that cannot be done; ``status`` is the HTTP status to answer with, ``key``
    and ``params`` the catalogue's message (sent as ``words`` next to ``detail``)."""

    def __init__(self, message: str, status: int = 400, key: str | None = None, **params: str | int) -> None:
        super().__init__(message, phrase=Phrase(key, params) if key is not None else None)
        self.status = status


def new_token() -> str:
    """A fresh secret seat token (192 random bits)."""
    return secrets.token_urlsafe(24)


def player_id(key: str) -> str:
    """The public player id of a secret player key: ``p-`` and 24 hex digits of its SHA-256 (the key
    itself is never stored; the id cannot be turned back into it).

    >>> player_id("a-secret-player-key-of-32-chars!")
    'p-d1db486dd84a995986b8bf06'
    """
    return "p-" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()[:24]


def hash_token(token: str) -> str:
    """What the database keeps of a token (never the token itself)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def address_key(address: str) -> str:
    """What the database keeps of a client address that created a table (with several workers, for
    ``max_open_tables``): a hash, never the address itself."""
    return hashlib.sha256(f"spite-creator:{address}".encode("utf-8", "replace")).hexdigest()[:32]


@dataclass
class Seat:
    """A seat at a table.

    ``kind`` is what the table was made with (``person`` or ``bot``); ``controller`` who plays it
    now: ``free`` (a person seat nobody took yet), ``person``, or ``bot`` (a bot seat, or a person's
    seat a bot took over after the grace time; ``level`` is then the bot's level).
    """

    seat: int
    kind: str
    level: str | None
    player: str | None
    token_hash: str | None
    controller: str
    conns: set[Conn] = field(default_factory=set)
    grace: asyncio.Task[None] | None = None
    player_id: str | None = None
    """Whose statistics the seat's games count for (from the player's secret key); ``None``: a guest's
    (counted under the name alone)."""

    def status(self) -> str:
        """free, connected, disconnected or bot."""
        if self.controller == "free":
            return "free"
        if self.controller == "bot":
            return "bot"
        return "connected" if self.conns else "disconnected"

    def info(self) -> SeatInfo:
        """The public face of this seat."""
        return SeatInfo(seat=self.seat, kind=self.kind, level=self.level if self.kind == "bot" else None,  # type: ignore[arg-type]
                        player=self.player, status=self.status(),  # type: ignore[arg-type]
                        botLevel=self.level if self.controller == "bot" else None)

    def player_name(self) -> str:
        """The name statistics count this seat under."""
        if self.kind == "bot":
            return f"bot:{self.level}"
        return self.player or "guest"


@dataclass
class Services:
    """What a table needs of the server around it (and nothing more: no table knows the manager)."""

    store: Store
    bots: BotRunner
    config: ServerConfig
    finished: Callable[[Table], None]
    """Called once a table's last game has ended and is stored."""
    counted: Callable[[], None]
    """Called for every move played (the server's move count)."""
    closed: Callable[[Table], None] = lambda table: None
    """Called once a table nobody plays at any more was closed (abandoned)."""
    may_write: Callable[[], bool] = lambda: True
    """Whether this process may still store moves (with several workers: its table leases surely hold)."""
    conflict: Callable[[Table], None] | None = None
    """With several workers: called when a move of the table could not be stored because another
    worker stored one at the same ply (it serves the table now)."""


# ====================================================================== the adapter's side
@dataclass
class Opening:
    """A table's game as a :class:`ServerGame` opens or restores it."""

    state: GameState
    preset: str
    """The preset's name as the table shows and stores it."""
    options: dict[str, Any]
    """The option overrides as the table shows and stores them."""
    start: dict[str, Any] = field(default_factory=dict)
    """A new table: its row's ``start`` (the deal, the record entries before the first move)."""
    columns: dict[str, Any] = field(default_factory=dict)
    """A new table: more columns of its row."""
    version: int = 0
    version_base: int = 0
    rows: int = 0
    """Move rows stored for the game in play."""
    entries: int = 0
    """Record entries of the game in play stored so far (those of its start included)."""
    extra: Any = None
    """The adapter's own (a match's score, ...), handed to :meth:`ServerGame.play`."""
    fair: FairDeal | None = None
    """The fair deal of the game in play (``None``: a table stored before fair deals)."""


@dataclass
class Ending:
    """What the end of a game means at a table (see :meth:`TablePlay.ending`)."""

    final: bool = True
    """The table is finished (False: a match goes on to its next game)."""
    write: Callable[[Any, int], None] | None = None
    """More to write in the same commit as the game's record (connection, the game's id)."""
    stored: Callable[[int], None] | None = None
    """Called with the game's id once the commit succeeded."""


class ServerGame(ABC):
    """A game's ``server`` hook in the registry: opens and restores its tables' games and makes
    each table's :class:`TablePlay`."""

    title: str
    """How error messages name the game's tables (``Spit and Speed``)."""
    default_level: str = "medium"
    """The bots' level when a request names none (quick play)."""
    levels: tuple[str, ...] = ()
    """The bot levels the lobby offers for this game's seats."""
    page: str = "table"
    """The page module (``web/static/PAGE.js``) that draws this game's tables and replays: the page
    opens a table by this name, never by the game's."""
    rules: str = ""
    """The rules page (``/rules/RULES``) of this game."""
    lobby_options: tuple[str, ...] = ()
    """Options the lobby's forms let a person set (``stock_size``)."""

    @abstractmethod
    def check_bot(self, game: str, level: str | None) -> None:
        """Raise :class:`LobbyError` unless a bot seat of ``level`` may sit at a ``game`` table."""

    def open(self, game: str, preset: str, options: dict[str, Any], seed: int | str) -> Opening:
        """A new game dealt from ``seed`` (options already checked); raises
        :class:`~spite.errors.OptionsError`. The record entries a deal makes before the first move
        (a Spite and Malice deal's shuffles) go to ``start`` with the deal."""
        state = get_game(game).new(preset, options, seed=seed)
        record = state.to_record()
        start: dict[str, Any] = {"deal": record.deal}
        if record.moves:
            start["leading"] = list(record.moves)
        return Opening(state, record.preset or preset, dict(record.options), start, entries=len(record.moves))

    def restore(self, st: StoredTable) -> Opening:
        """A stored table's game: the record of its start and stored moves replayed."""
        flat: list[Any] = list(st.start.get("leading", []))
        for entries in st.moves:
            flat.extend(entries)
        # a game of a match has its own seed (derived from the table's), kept with its start
        record = Record(game=st.game, preset=st.preset, options=st.options, seed=st.start.get("seed", st.seed),
                        deal=st.start["deal"], moves=flat)
        state = get_game(st.game).from_record(record)
        fair = FairDeal.from_stored(st.id, state.seats, st.start["fair"]) if "fair" in st.start else None
        return Opening(state, st.preset, st.options, version=self.restored_version(st, state),
                       version_base=st.version_base, rows=len(st.moves), entries=len(flat),
                       extra=self.restored_extra(st, state), fair=fair)

    def deal(self, table: Table, seed: str) -> Opening:
        """The game of ``table`` dealt from ``seed`` once the seats' nonces are in (docs/fairness.md):
        its state and the row's new ``start`` (the deal, the entries before the first move, the seed).
        The seat that begins by the rules, if any, is the one the commitment bound (``table.fair.first``)."""
        state = get_game(table.game).dealt(table.preset, table.options, seed)
        record = state.to_record()
        start: dict[str, Any] = {"deal": record.deal, "seed": seed}
        if record.moves:
            start["leading"] = list(record.moves)
        return Opening(state, table.preset, table.options, start, entries=len(record.moves))

    @abstractmethod
    def restored_version(self, st: StoredTable, state: GameState) -> int:
        """``stateVersion`` of a restored table (what :meth:`TablePlay.entries` counted, plus the base)."""

    def restored_extra(self, st: StoredTable, state: GameState) -> Any:
        """The adapter's own state of a restored table (:attr:`Opening.extra`)."""
        return None

    @abstractmethod
    def play(self, table: Table, extra: Any) -> TablePlay:
        """The per-table part of this game at ``table``."""

    @abstractmethod
    def positions(self, record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """A finished game's record replayed for the replay viewer: its steps (moves) and the whole
        table before the first and after each (``/api/games/{id}/positions``)."""


class TablePlay:
    """What a game does at one table besides what the host does. The defaults fit a game with no
    clock, no bots and no extra message fields; an adapter overrides what its game has."""

    turn_clock: bool = True
    """Whether a connected seat that does not act within the server's ``turn_seconds`` is taken over
    by a bot (a turn game). A real-time game with its own timers says False."""

    def __init__(self, table: Table) -> None:
        self.table = table

    # what clients see
    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The view JSON of ``seat`` (``None``: spectator) and its legal moves: all a client gets."""
        state = self.table.state
        return state.view(seat).to_json(), state.legal_moves(seat) if seat is not None else []

    def move_log(self) -> list[dict[str, Any]]:
        """The steps of the game in play so far, oldest first, as every seat was told them (the
        ``welcome``'s ``moveLog``): the moves of :meth:`ServerGame.positions` (``{seat, move}``,
        and in a real-time game ``t`` and ``events``), never a hidden card or a chance entry. This
        default replays the game's record; an adapter that keeps its moves answers faster."""
        steps, _ = self.table.server_game.positions(self.table.state.to_record())
        return steps

    def undealt_view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """What ``seat`` sees before the deal is made (docs/fairness.md): the spectator's view of the
        table as it would be without nonces, and no legal move."""
        return self.table.state.view(None).to_json(), []

    def fields(self, seat: int | None) -> dict[str, Any]:
        """Extra fields (models) of the ``welcome`` and ``state`` messages for ``seat``."""
        return {}

    def shared_fields(self, events: Sequence[Event]) -> dict[str, Any]:
        """Extra fields (JSON) of a broadcast ``state`` message, the same for every receiver."""
        return {}

    def seat_fields(self, seat: int | None) -> dict[str, Any]:
        """Extra fields (JSON) of a broadcast ``state`` message for ``seat`` alone."""
        return {}

    def score_fields(self) -> dict[str, Any]:
        """Extra fields (models) of ``table`` and ``gameOver`` messages (a match's score)."""
        return {}

    # moves
    def now_ms(self) -> int:
        """The game clock at this moment (a turn game: 0)."""
        return 0

    def ack_time(self, now: int) -> int | None:
        """The game clock an ``ack`` reports (``None``: none, as in a turn game)."""
        return None

    def may_move(self, conn: Conn, version: int, msg_id: str | None) -> bool:
        """Whether a person's move sent for ``version`` may be tried now; otherwise ``conn`` is told
        why. The default (a turn game): only in the position it was chosen in."""
        table = self.table
        if version != table.version:
            conn.error("stale", f"the position has changed (now version {table.version}, your move was for "
                       f"{version}); sync and choose again", msg_id=msg_id, version=table.version)
            return False
        return True

    def checkpoint(self) -> Callable[[], None]:
        """Before a move: what puts the state back if its commit fails."""
        table = self.table
        before = table.state.copy()

        def back() -> None:
            table.state = before

        return back

    def entries(self, events: Sequence[Event]) -> tuple[list[Any], int]:
        """The record entries the move (and the time) just added, to store as one row, and how much
        ``stateVersion`` rises with them."""
        record = self.table.state.to_record()
        new = list(record.moves[self.table.entries:])
        return new, len(new)

    def stored(self, seat: int | None, by_bot: bool) -> None:
        """After a move of ``seat`` was stored (the lock is held)."""

    def dealt(self) -> None:
        """The game was dealt anew from the seats' nonces (the lock is held): nothing was played yet."""

    def ending(self) -> Ending:
        """The game is over: is the table (and what else to store with the record)?"""
        return Ending()

    def next_first(self) -> int | None:
        """Between two games: the seat the rules let begin the next one (``None``: the cut decides).
        Known when the next game's secret is drawn, and bound by its commitment (docs/fairness.md)."""
        return None

    def turns(self) -> int:
        """The finished game's length in turns (rounds) for the statistics."""
        return 1

    def won(self, result: dict[str, Any], seat: int) -> int | None:
        """The points ``seat`` won by ``result``, or ``None`` when it did not win."""
        return 1 if result.get("winner") == seat else None

    # what goes on by itself
    def schedule(self) -> None:
        """Let the bots (and a real-time game's clock) go on if there is anything for them to do."""

    def poke(self) -> None:
        """A person sent a move (played or not; the lock is free again)."""

    def after_move(self) -> None:
        """A move was stored and told (the lock is held)."""

    def seat_changed(self) -> None:
        """A bot took a seat over or its person came back (the lock is held)."""

    def between_games(self) -> bool:
        """A game is over and another one follows at this table."""
        return False

    def game_between(self) -> None:
        """A game ended and another follows (:attr:`Ending.final` was False)."""

    def finished(self) -> None:
        """The table's last game ended."""

    def tasks(self) -> list[asyncio.Task[Any]]:
        """The play's running tasks (stopped when the server shuts down)."""
        return []


@runtime_checkable
class Hints(Protocol):
    """A table play that answers ``hint``."""

    async def hint(self, conn: Conn, msg_id: str | None) -> None: ...


@runtime_checkable
class Undo(Protocol):
    """A table play that takes moves back (``undo``)."""

    async def undo(self, conn: Conn, version: int, msg_id: str | None) -> None: ...


@runtime_checkable
class Matches(Protocol):
    """A table play with games in a row (``next``)."""

    async def next_game(self, conn: Conn, msg_id: str | None) -> None: ...


_REQUESTS: tuple[tuple[str, str, type], ...] = (("hint", "hints", Hints), ("undo", "undo", Undo),
                                                ("next", "matches", Matches))


# ====================================================================== the host
class Table:
    """A table served by this process (see the module's text)."""

    def __init__(self, services: Services, server_game: ServerGame, opening: Opening, *, table_id: str, game: str,
                 seed: int | str, seats: list[Seat], status: str, created_at: float,
                 series: dict[str, Any] | None = None) -> None:
        self.services = services
        self.id = table_id
        self.game = game
        self.preset = opening.preset
        self.options = opening.options
        self.seed = seed
        self.state: GameState = opening.state
        self.seats = seats
        self.status = status
        self.created_at = created_at
        self.version_base = opening.version_base
        self.version = opening.version
        self.rows = opening.rows
        """Move rows stored for the game in play."""
        self.entries = opening.entries
        """Record entries of the game in play stored so far (for :meth:`TablePlay.entries`)."""
        self.lock = asyncio.Lock()
        self.spectators: set[Conn] = set()
        self.game_id: int | None = None
        self.moves_played = 0
        self.title = server_game.title
        self.server_game = server_game
        self.fair = opening.fair
        """The fair deal of the game in play, or just over (docs/fairness.md)."""
        self.fair_next: FairDeal | None = None
        """Between two games of a match: the next game's fair deal (its commitment is out)."""
        self.greeted: set[int] = set()
        """Seats whose person said hello since this process holds the table."""
        self.series: dict[str, Any] = series or {"games": 0, "wins": [0] * len(seats), "gameIds": []}
        """The games played at this table across rematches (:class:`SeriesInfo` as JSON)."""
        self.rematch_yes: set[int] = set()
        """After the last game: the person seats that want another one."""
        self.rematch_no: set[int] = set()
        """After the last game: the person seats that said no."""
        self.play = server_game.play(self, opening.extra)
        if self.fair is not None and self.state.is_over and (self.play.between_games() or status == "finished"):
            self.fair_next = FairDeal.draw(self.id, self.fair.game + 1, self.fair.seats, self.play.next_first())
        self._clock: asyncio.Task[None] | None = None
        self._clock_key: tuple[int, tuple[int, ...]] | None = None
        self._deserted: asyncio.Task[None] | None = None
        self.retired = False
        """Closed: handed to another worker or shut down; it starts nothing and stores nothing more."""

    @property
    def store(self) -> Store:
        """Where the table is stored."""
        return self.services.store

    @property
    def config(self) -> ServerConfig:
        """The server's settings."""
        return self.services.config

    # ------------------------------------------------------------------ what clients see
    def info(self) -> TableInfo:
        """The table as the lobby shows it."""
        return TableInfo(id=self.id, game=self.game, preset=self.preset, options=self.options,
                         status=self.status, seats=[s.info() for s in self.seats],  # type: ignore[arg-type]
                         stateVersion=self.version, link=f"/t/{self.id}", gameId=self.game_id,
                         series=self.series_info(), fair=self.fair_info())

    def series_info(self) -> SeriesInfo | None:
        """The series score (``None`` before the first game has ended)."""
        if not self.series["games"]:
            return None
        return SeriesInfo(games=self.series["games"], wins=list(self.series["wins"]),
                          gameIds=list(self.series.get("gameIds", [])))

    def rematch_info(self) -> RematchInfo | None:
        """Who wants another game (``None`` unless the table is finished and has a person seat). A bot
        seat says yes at once; a person's seat a bot took over waits for its person to come back and
        answer (no new game starts in an absent person's name)."""
        if self.status != "finished" or not any(s.kind == "person" for s in self.seats):
            return None
        ready = [s.seat for s in self.seats if s.kind == "bot" or s.seat in self.rematch_yes]
        waiting = [s.seat for s in self.seats if s.seat not in ready and s.seat not in self.rematch_no]
        return RematchInfo(ready=ready, waiting=waiting, declined=sorted(self.rematch_no))

    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The view JSON of ``seat`` (``None``: spectator) and its legal moves: all a client gets.
        Before the deal is made nobody sees a card of it (:meth:`TablePlay.undealt_view`)."""
        if not self.is_dealt:
            return self.play.undealt_view(seat)
        return self.play.view_for(seat)

    @property
    def is_dealt(self) -> bool:
        """The game in play is dealt from its final seed (always, at a table without a fair deal)."""
        return self.fair is None or self.fair.dealt

    def fair_info(self) -> FairInfo | None:
        """The ``fair`` field: the commitment; the secret and nonces once the game is over."""
        fair = self.fair
        if fair is None:
            return None
        info = fair.info(revealed=fair.dealt and self.state.is_over)
        if self.fair_next is not None:
            info.next = self.fair_next.commitment
        return info

    def state_message(self, seat: int | None, last: LastMove | None = None) -> StateMessage:
        """A ``state`` message for ``seat`` (the answer to ``sync``)."""
        view, legal = self.view_for(seat)
        return StateMessage(stateVersion=self.version, view=view, legal=legal, last=last, fair=self.fair_info(),
                            **self.play.fields(seat))

    def connections(self) -> list[Conn]:
        """Every connection at this table."""
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.conns)
        return out

    def broadcast_state(self, last_move: LastMove | None, events: Sequence[Event] = ()) -> None:
        """Tell every connection the new position, each its own view (built directly as JSON text:
        the hot path of every move; what is the same for all is made once)."""
        head = {"type": "state", "stateVersion": self.version}
        tail = {"last": last_move.model_dump() if last_move is not None else None,
                **self.play.shared_fields(events)}
        fair = self.fair_info()
        if fair is not None:
            tail["fair"] = fair.model_dump()
        play = self.play

        def text(seat: int | None) -> str:
            view, legal = self.view_for(seat)
            return json.dumps({**head, "view": view, "legal": legal, **play.seat_fields(seat), **tail},
                              separators=(",", ":"))

        for s in self.seats:
            if s.conns:
                msg = text(s.seat)
                for conn in s.conns:
                    conn.send(msg)
        if self.spectators:
            msg = text(None)
            for conn in self.spectators:
                conn.send(msg)

    def broadcast(self, msg: BaseModel) -> None:
        """Send the same message to everyone at the table."""
        text = msg.model_dump_json()
        for conn in self.connections():
            conn.send(text)

    def tell(self, kind: str, seat: int | None, text: str, /, seconds: float | None = None, key: str | None = None,
             **params: str | int) -> None:
        """Tell everyone what changed at the table (with the table as it is now; a match's score too):
        ``text`` in English; ``key`` (default ``event.KIND``) and ``params`` the catalogue's words for it."""
        words = Words(key=key or f"event.{kind}", params=params)
        event = TableEvent(kind=kind, seat=seat, text=text, words=words, seconds=seconds)  # type: ignore[arg-type]
        # a table closed before its game was dealt shows its secret (nothing was played from it); a dealt
        # game's secret would show every hidden card of a game nobody finished, so it is never revealed
        fair = (self.fair.info(revealed=True) if kind == "abandoned" and self.fair is not None and not self.fair.dealt
                else None)
        self.broadcast(TableMessage(table=self.info(), event=event, fair=fair, **self.play.score_fields()))

    def game_over(self) -> GameOver:
        """The ``gameOver`` message of the game just ended."""
        result = self.state.result
        assert result is not None
        url = f"/api/games/{self.game_id}/record" if self.game_id is not None else None
        return GameOver(stateVersion=self.version, result=dict(result), gameId=self.game_id, recordUrl=url,
                        fair=self.fair_info(), series=self.series_info(), rematch=self.rematch_info(),
                        **self.play.score_fields())

    # ------------------------------------------------------------------ connections
    def seat_for_token(self, token: str) -> Seat | None:
        """The seat whose token this is, or ``None``."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
                return s
        return None

    def _welcome(self, conn: Conn, seat: int | None) -> None:
        view, legal = self.view_for(seat)
        # the game so far, as everyone was told it, so that a page opened now can show its log
        steps = self.play.move_log() if self.is_dealt else []
        start = max(0, len(steps) - MOVE_LOG_MAX)
        conn.send(Welcome(table=self.info(), seat=seat, stateVersion=self.version, view=view, legal=legal,
                          fair=self.fair_info(), moveLog=[LoggedMove.of(step) for step in steps[start:]],
                          moveLogStart=start or None, **self.play.fields(seat)))
        if self.state.is_over and (self.status == "finished" or self.play.between_games()):
            conn.send(self.game_over())

    async def attach(self, conn: Conn, seat: Seat | None, nonce: str | None = None) -> None:
        """A connection says hello: as a seat's player (with its token and maybe a nonce for the deal)
        or as a spectator."""
        async with self.lock:
            if self.retired:  # handed to another worker while this hello waited: reconnect to it
                conn.close(1012)
                return
            conn.table = self
            conn.hello = True
            if seat is None:
                conn.seat = None
                self.spectators.add(conn)
                self._welcome(conn, None)
                return
            conn.seat = seat.seat
            self.take_nonce(seat.seat, nonce)
            self.greeted.add(seat.seat)
            await self.deal_if_ready()  # the last hello: dealt before its welcome (the others get a state)
            first = not seat.conns
            seat.conns.add(conn)
            if self._deserted is not None:
                self._deserted.cancel()
                self._deserted = None
            if seat.grace is not None:
                seat.grace.cancel()
                seat.grace = None
            self._welcome(conn, seat.seat)
            if seat.controller == "bot" and seat.kind == "person":
                await self._take_back(seat)
            elif first:
                self.tell("connected", seat.seat, f"{seat.player} is at seat {seat.seat}", name=seat.player or "",
                          seat=seat.seat)
        self.schedule_bot()

    async def _take_back(self, seat: Seat) -> None:
        """A person seat's player is back (reconnected, or acted after an idle takeover): the bot
        leaves (the lock is held)."""
        await self.store.write(Store.update_seat(self.id, seat.seat, controller="person", level=None))
        seat.controller = "person"
        seat.level = None
        self.play.seat_changed()
        log.info("table %s: %s is back at seat %d; the bot leaves", self.id, seat.player, seat.seat)
        self.tell("returned", seat.seat, f"{seat.player} is back at seat {seat.seat}; the bot leaves",
                  name=seat.player or "", seat=seat.seat)

    def take_nonce(self, seat: int, nonce: str | None) -> None:
        """``seat`` sent ``nonce``: it counts for the game not dealt yet (the next one between two games)."""
        fair = self.fair_next or self.fair
        if fair is not None:
            fair.take_nonce(seat, nonce)

    async def deal_if_ready(self) -> None:
        """Deal the game from its secret and the seats' nonces once it has begun and every person seat
        said hello (or a bot took it over): stored, then everyone gets the position (the lock is held).
        docs/fairness.md says why not before."""
        fair = self.fair
        if fair is None or fair.dealt or self.status != "playing" or self.state.is_over:
            return
        if any(s.controller != "bot" and s.seat not in self.greeted for s in self.seats):
            return
        seed = fair.seed()
        opening = self.server_game.deal(self, seed)
        fair.dealt = True
        start = {**opening.start, "fair": fair.stored()}
        try:
            await self.store.write(Store.update_table(self.id, start=json.dumps(start)))
        except Exception as exc:
            fair.dealt = False
            log.error("table %s: the deal could not be stored (%s); dealing at the next hello", self.id, exc)
            return
        self.state = opening.state
        self.entries = opening.entries
        log.info("table %s: dealt from the secret and %d nonces", self.id, len(fair.nonces))
        self.play.dealt()
        self.broadcast_state(None)

    async def detach(self, conn: Conn) -> None:
        """A connection went away. A seat left with no connection starts its grace time."""
        async with self.lock:
            if conn in self.spectators:
                self.spectators.discard(conn)
                return
            if conn.seat is None or self.retired:
                return
            seat = self.seats[conn.seat]
            seat.conns.discard(conn)
            if seat.conns or seat.controller != "person" or self.status in ("finished", "abandoned"):
                return
            grace = self.config.grace_seconds
            self.tell("disconnected", seat.seat,
                      f"{seat.player} dropped from seat {seat.seat}; a bot takes over in {grace:g} s",
                      name=seat.player or "", seat=seat.seat, s=f"{grace:g}")
            if self.status == "playing":
                self._start_grace(seat)
                self._watch_desertion()

    def _start_grace(self, seat: Seat) -> None:
        if self.retired:
            return
        if seat.grace is None or seat.grace.done():
            seat.grace = asyncio.create_task(self._grace(seat), name=f"grace-{self.id}-{seat.seat}")

    def start_grace_timers(self) -> None:
        """Every person seat with no connection gets its grace time (at the start, after a restart)."""
        for s in self.seats:
            if s.controller == "person" and not s.conns:
                self._start_grace(s)
        self._watch_desertion()

    async def _grace(self, seat: Seat) -> None:
        grace = self.config.grace_seconds
        await asyncio.sleep(grace)
        async with self.lock:
            if seat.conns or seat.controller != "person" or self.status != "playing":
                return
            if sum(1 for s in self.seats if s.kind == "person") == 1:
                # a quick-play table (one person seat): no one is left to play for; close it
                seat.grace = None
                await self._abandon(f"{seat.player} did not come back within {grace:g} s: the table is closed",
                                    grace, "event.abandoned.gone", name=seat.player or "", s=f"{grace:g}")
                return
            level = self.config.replacement_level
            await self.store.write(Store.update_seat(self.id, seat.seat, controller="bot", level=level))
            seat.controller = "bot"
            seat.level = level
            seat.grace = None
            self.play.seat_changed()
            log.info("table %s: seat %d (%s) gone for %g s; a %s bot takes it", self.id, seat.seat, seat.player,
                     grace, level)
            self.tell("takeover", seat.seat,
                      f"{seat.player} did not come back within {grace:g} s: a {level} bot plays seat {seat.seat}",
                      name=seat.player or "", seat=seat.seat, s=f"{grace:g}", level=level)
            await self.deal_if_ready()
        self.schedule_bot()

    # ------------------------------------------------------------------ tables nobody plays at
    def _people_here(self) -> bool:
        return any(s.kind == "person" and s.conns for s in self.seats)

    def _watch_desertion(self) -> None:
        """No person is connected to this playing table: if none comes within ``abandon_seconds``, it
        is closed rather than played out by bots for nobody."""
        wait = self.config.abandon_seconds
        if (wait <= 0 or self.status != "playing" or self._people_here()
                or not any(s.kind == "person" for s in self.seats)):
            return
        if self._deserted is None or self._deserted.done():
            self._deserted = asyncio.create_task(self._desertion(wait), name=f"deserted-{self.id}")

    async def _desertion(self, wait: float) -> None:
        await asyncio.sleep(wait)
        async with self.lock:
            if self.status == "playing" and not self._people_here():
                self._deserted = None
                await self._abandon(f"no player was at the table for {wait:g} s: the table is closed", wait,
                                    "event.abandoned.deserted", s=f"{wait:g}")

    async def _abandon(self, text: str, seconds: float, key: str, **params: str | int) -> None:
        """Close a table nobody plays at (the lock is held): stored as ``abandoned`` (no game record,
        no statistics), its bots and timers stopped, everyone still watching told and let go."""
        await self.store.write(Store.update_table(self.id, status="abandoned"))
        self.status = "abandoned"
        me = asyncio.current_task()
        for task in (*self.play.tasks(), *(s.grace for s in self.seats), self._deserted):
            if task is not None and task is not me:
                task.cancel()
        for s in self.seats:
            s.grace = None
        self._deserted = None
        self._stop_clock()
        log.info("table %s: abandoned (%s)", self.id, text)
        self.tell("abandoned", None, text, seconds=seconds, key=key, **params)
        for conn in self.connections():
            conn.close(1000)
        self.services.closed(self)

    # ------------------------------------------------------------------ the turn clock
    def arm_turn_clock(self) -> None:
        """(Re)start the turn clock for the seats to act now, unless it already runs for this very
        position (a spectator arriving does not give an idle seat more time). A connected person seat
        that does not act within ``turn_seconds`` is warned ``turn_warning`` seconds before the end
        (``turn-clock``) and then taken over by a bot (``idle-takeover``), as a dropped seat is."""
        total = self.config.turn_seconds
        if not self.play.turn_clock or total <= 0 or self.status != "playing" or self.state.is_over:
            self._stop_clock()
            return
        key = (self.version, tuple(self.state.to_act()))
        if key == self._clock_key and self._clock is not None and not self._clock.done():
            return
        self._stop_clock()
        if not any(self._idle_candidate(self.seats[n]) for n in key[1]):
            return
        self._clock_key = key
        self._clock = asyncio.create_task(self._turn_clock(key), name=f"turn-clock-{self.id}")

    def _stop_clock(self) -> None:
        if self._clock is not None and self._clock is not asyncio.current_task():
            self._clock.cancel()
        self._clock, self._clock_key = None, None

    def _idle_candidate(self, seat: Seat) -> bool:
        return seat.controller == "person" and bool(seat.conns)

    async def _turn_clock(self, key: tuple[int, tuple[int, ...]]) -> None:
        total = self.config.turn_seconds
        warning = min(max(0.0, self.config.turn_warning), total)
        version, seats = key

        def idle() -> list[Seat]:
            if self.version != version or self.status != "playing" or self.state.is_over:
                return []
            return [self.seats[n] for n in seats if self._idle_candidate(self.seats[n])]

        await asyncio.sleep(total - warning)
        if warning > 0:
            async with self.lock:
                for seat in idle():
                    self.tell("turn-clock", seat.seat, f"{seat.player}: {warning:g} s left to move at seat "
                              f"{seat.seat}, then a bot plays it", seconds=warning, name=seat.player or "",
                              seat=seat.seat, s=f"{warning:g}")
            await asyncio.sleep(warning)
        async with self.lock:
            gone = idle()
            level = self.config.replacement_level
            for seat in gone:
                await self.store.write(Store.update_seat(self.id, seat.seat, controller="bot", level=level))
                seat.controller = "bot"
                seat.level = level
                log.info("table %s: seat %d (%s) did not move for %g s; a %s bot takes it", self.id, seat.seat,
                         seat.player, total, level)
                self.tell("idle-takeover", seat.seat, f"{seat.player} did not move within {total:g} s: a {level} "
                          f"bot plays seat {seat.seat} until {seat.player} moves again", seconds=total,
                          name=seat.player or "", seat=seat.seat, s=f"{total:g}", level=level)
            if gone:
                self.play.seat_changed()
        if gone:
            self.play.schedule()

    # ------------------------------------------------------------------ requests
    async def player_move(self, conn: Conn, move: str, version: int, msg_id: str | None) -> None:
        """A move sent by a seat's connection: checked, played, stored, acknowledged, broadcast."""
        if conn.seat is None:
            conn.error("not-your-seat", "spectators cannot move", msg_id=msg_id, version=self.version,
                       phrase=Phrase("error.not-your-seat.spectator"))
            return
        async with self.lock:
            seat = self.seats[conn.seat]
            if (seat.kind == "person" and seat.controller == "bot" and conn in seat.conns
                    and self.status == "playing"):
                await self._take_back(seat)  # taken over while idle: acting takes the seat back
            if self.refuse_move(conn, msg_id) or not self.play.may_move(conn, version, msg_id):
                pass
            elif conn.seat not in (to_act := self.state.to_act()):
                conn.error("not-your-turn", f"it is seat {to_act[0]}'s turn", msg_id=msg_id, version=self.version,
                           phrase=Phrase("error.not-your-turn.seat", {"seat": to_act[0]}))
            else:
                await self.apply(conn.seat, move, conn=conn, msg_id=msg_id)
        self.play.poke()

    def refuse_move(self, conn: Conn, msg_id: str | None) -> bool:
        """Tell ``conn`` why its seat may not act now (the table not started or over, or the seat not
        its to play); False when nothing stands in the way. The lock is held."""
        assert conn.seat is not None
        seat = self.seats[conn.seat]
        if self.status == "open":
            conn.error("not-started", "the game starts when every seat is taken", msg_id=msg_id,
                       version=self.version)
        elif not self.is_dealt:
            conn.error("not-started", "the cards are dealt once every player has said hello", msg_id=msg_id,
                       version=self.version)
        elif self.status != "playing" or self.state.is_over:
            conn.error("game-over", "the game is over", msg_id=msg_id, version=self.version)
        elif seat.controller != "person" or conn not in seat.conns:
            conn.error("not-your-seat", "a bot plays this seat now", msg_id=msg_id, version=self.version,
                       phrase=Phrase("error.not-your-seat.bot"))
        else:
            return False
        return True

    async def player_request(self, kind: str, conn: Conn, msg_id: str | None, version: int | None = None) -> None:
        """``hint``, ``undo`` or ``next``: served by the table's play when its game has it, else
        refused in one line to the asker alone."""
        play = self.play
        if kind == "hint" and isinstance(play, Hints):
            await play.hint(conn, msg_id)
        elif kind == "undo" and isinstance(play, Undo):
            await play.undo(conn, version if version is not None else -1, msg_id)
        elif kind == "next" and isinstance(play, Matches):
            await play.next_game(conn, msg_id)
        else:
            lacking = [noun for _, noun, proto in _REQUESTS if not isinstance(play, proto)]
            what = ", ".join(lacking[:-1]) + (" or " if len(lacking) > 1 else "") + lacking[-1]
            conn.error("bad-message", f"{kind}: {self.title} tables have no {what}", msg_id=msg_id,
                       version=self.version, phrase=Phrase(f"error.no-{kind}"))

    # ------------------------------------------------------------------ rematch
    async def rematch(self, conn: Conn, accept: bool, msg_id: str | None, nonce: str | None = None) -> None:
        """``rematch`` from a seat's connection after the table's last game: yes or no. When every seat
        a person plays has said yes, the new game begins (see the module's text)."""
        if conn.seat is None:
            conn.error("not-your-seat", "spectators do not start games", msg_id=msg_id, version=self.version)
            return
        async with self.lock:
            if self.status != "finished":
                what = "the table has not started" if self.status == "open" else \
                    "the game is still in play" if self.status == "playing" else f"the table is {self.status}"
                conn.error("no-rematch", f"no rematch now: {what}", msg_id=msg_id, version=self.version)
                return
            seat = self.seats[conn.seat]
            if seat.controller != "person" or conn not in seat.conns:
                conn.error("not-your-seat", "a bot plays this seat now", msg_id=msg_id, version=self.version)
                return
            name = seat.player or seat.player_name()
            if accept:
                self.take_nonce(seat.seat, nonce)  # for the rematch's deal (fair_next: its commitment is out)
                if seat.seat in self.rematch_yes:
                    return
                self.rematch_yes.add(seat.seat)
                self.rematch_no.discard(seat.seat)
                info = self.rematch_info()
                assert info is not None
                if not info.waiting and not info.declined:
                    await self._new_game()
                    return
                self.tell("rematch-yes", seat.seat, f"{name} wants a rematch", name=name, seat=seat.seat)
            else:
                if seat.seat in self.rematch_no:
                    return
                self.rematch_no.add(seat.seat)
                self.rematch_yes.discard(seat.seat)
                self.tell("rematch-no", seat.seat, f"{name} does not want a rematch", name=name, seat=seat.seat)
            info = self.rematch_info()
            assert info is not None
            self.broadcast(RematchState(rematch=info, series=self.series_info()))

    async def _new_game(self) -> None:
        """Deal the rematch (the lock is held): the same seats, game, preset and options, a fresh seed;
        stored in one commit (the finished game's moves go, the new start comes), then everyone gets
        the new position at one past the last ``stateVersion``."""
        fair = self.fair_next
        if fair is None and self.fair is not None:
            fair = FairDeal.draw(self.id, self.fair.game + 1, self.fair.seats)
        # every person agreed and is here: the nonces sent with rematch are in, so the deal is made now
        seed: int | str = fair.seed() if fair is not None else secrets.randbits(62)
        opening = self.server_game.open(self.game, self.preset, dict(self.options), seed)
        if fair is not None:
            fair.dealt = True
            opening.start = {**opening.start, "fair": fair.stored()}
        base = self.version + 1
        forget = Store.delete_moves(self.id)
        begin = Store.update_table(self.id, status="playing", seed=json.dumps(seed), start=json.dumps(opening.start),
                                   version_base=base, plies=0, **opening.columns)

        try:
            await self.store.write(Store.together(forget, begin))
        except Exception as exc:
            log.error("table %s: the rematch could not be stored (%s)", self.id, exc)
            for s in self.seats:
                for conn in s.conns:
                    conn.error("storage", "the rematch could not be saved; try again", version=self.version)
            self.rematch_yes = set()
            return
        old = self.play
        me = asyncio.current_task()
        for task in old.tasks():  # the finished game's bots and clock have nothing left to do
            if task is not me and not task.done():
                task.cancel()
        self.seed = seed
        if fair is not None:
            self.fair, self.fair_next = fair, None
        self.state = opening.state
        self.version_base = base
        self.version = base
        self.rows = 0
        self.entries = opening.entries
        self.game_id = None
        self.status = "playing"
        self.rematch_yes, self.rematch_no = set(), set()
        self.play = self.server_game.play(self, opening.extra)
        number = self.series["games"] + 1
        log.info("table %s: rematch, game %d of the series begins", self.id, number)
        self.tell("rematch", None, f"everyone wants a rematch: game {number} at this table begins", n=number)
        self.broadcast_state(None)
        self.start_grace_timers()
        self.schedule_bot()

    # ------------------------------------------------------------------ the path of a move
    async def apply(self, seat: int | None, move: str | None, *, conn: Conn | None = None, msg_id: str | None = None,
                    by_bot: bool = False) -> tuple[str, str]:
        """Let the time pass to now and play ``move`` for ``seat`` (``None``: only the time); store what
        happened, then acknowledge and broadcast (the lock is held). Returns (``ok``, ``refused``,
        ``storage`` or ``idle``; the reason of a refusal). A refused move is told to ``conn``."""
        state = self.state
        back = self.play.checkpoint()
        now = self.play.now_ms()
        events: list[Event] = list(state.advance(now))
        outcome, reason, played = "idle", "", move or ""
        refused: Phrase | None = None
        if seat is not None and move is not None:
            try:
                done = state.apply(seat, move, now)
            except IllegalMoveError as exc:
                outcome, reason, refused = "refused", str(exc), exc.phrase
            else:
                outcome = "ok"
                if done and done[0].kind == "move":
                    played = done[0].text
                events.extend(done)
        if events:
            result = await self._store(seat, events, back, conn, msg_id)
            if result is None:
                return "storage", ""
        if outcome == "ok":
            self.moves_played += 1
            self.services.counted()
            self.play.stored(seat, by_bot)
        if conn is not None:
            if outcome == "ok":
                conn.send(Ack(id=msg_id, move=played, stateVersion=self.version, t=self.play.ack_time(now)))
            elif outcome == "refused":
                conn.error("too-late" if reason.startswith("too late") else "illegal", reason, msg_id=msg_id,
                           version=self.version, phrase=refused or Phrase("error.illegal"))
        if not events:
            return outcome, reason
        last = LastMove(seat=seat, move=played, byBot=by_bot) if outcome == "ok" and seat is not None else None
        self.broadcast_state(last, events)
        if self.state.is_over:
            if self.status == "finished":
                self._finish()
            else:
                self.play.game_between()
        else:
            self.play.after_move()
        self.arm_turn_clock()
        return outcome, reason

    async def _store(self, seat: int | None, events: Sequence[Event], back: Callable[[], None], conn: Conn | None,
                     msg_id: str | None) -> bool | None:
        """Commit what the move added (and, at the end, the game's record and statistics); ``None``
        when the commit failed (the state was put back and the mover told)."""
        state = self.state
        entries, rise = self.play.entries(events)
        insert = Store.insert_move(self.id, self.rows, seat if seat is not None else -1, entries)
        write: Callable[[Any], Any] = insert
        ending: Ending | None = None
        series: dict[str, Any] | None = None
        if state.is_over:
            ending = self.play.ending()
            record = state.to_record().to_json()
            if self.fair is not None:
                record["fairness"] = self.fair.proof()
            players = self._players(record.get("result") or {})
            finish = Store.insert_game(self.id, self.game, self.preset, record, state.plies, self.play.turns(),
                                       players, finish=ending.final)
            more = ending.write
            if ending.final:  # the table's game (a match: the match) counts in the series
                old = self.series
                series = {"games": old["games"] + 1,
                          "wins": [w + int(p["won"]) for w, p in zip(old["wins"], players, strict=True)],
                          "gameIds": list(old.get("gameIds", []))}
            table_id = self.id

            def both(c: Any) -> Any:
                insert(c)
                game_id = finish(c)
                if more is not None:  # e.g. a match's score, with this game, in the same commit
                    more(c, game_id)
                if series is not None:
                    Store.update_table(table_id, series=json.dumps({**series, "gameIds": [*series["gameIds"],
                                                                                          game_id]}))(c)
                return game_id

            write = both
        if self.retired or not self.services.may_write():  # shut down, or another worker serves it now
            back()
            log.info("table %s: a move after this process let go of the table; not stored", self.id)
            if conn is not None:
                conn.error("storage", "the move could not be saved; try again", msg_id=msg_id, version=self.version)
            return None
        try:
            game_id = await self.store.write(write)
        except Exception as exc:
            if isinstance(exc, IntegrityError) and self.services.conflict is not None:
                self.services.conflict(self)
            back()
            log.error("table %s: %d entries could not be stored (%s); taken back", self.id, len(entries), exc)
            if conn is not None:
                conn.error("storage", "the move could not be saved; try again", msg_id=msg_id, version=self.version)
            return None
        self.rows += 1
        self.entries += len(entries)
        self.version += rise
        if ending is not None:
            self.game_id = game_id
            if ending.stored is not None:
                ending.stored(game_id)
            if ending.final:
                self.status = "finished"
                if series is not None:
                    self.series = {**series, "gameIds": [*series["gameIds"], game_id]}
                self.rematch_yes, self.rematch_no = set(), set()
            if self.fair is not None and (not ending.final or any(s.kind == "person" for s in self.seats)):
                # the next game's commitment (a match's next game, or a rematch) goes out before any of
                # its cards, and before the nonces sent for it (with next or rematch)
                first = None if ending.final else self.play.next_first()  # a rematch begins with the cut
                self.fair_next = FairDeal.draw(self.id, self.fair.game + 1, self.fair.seats, first)
        return True

    def _players(self, result: dict[str, Any]) -> list[dict[str, Any]]:
        out = []
        for s in self.seats:
            points = self.play.won(result, s.seat)
            # a person's game a takeover bot finished is kept, marked, and left out of their figures
            out.append({"seat": s.seat, "player": s.player_name(), "player_id": s.player_id, "is_bot": s.kind == "bot",
                        "won": points is not None, "points": points or 0,
                        "taken_over": s.kind == "person" and s.controller == "bot"})
        return out

    def _finish(self) -> None:
        log.info("table %s: game over after %d changes: %s (game %s)", self.id, self.version, self.state.result,
                 self.game_id)
        self.broadcast(self.game_over())
        for s in self.seats:
            if s.grace is not None:
                s.grace.cancel()
                s.grace = None
        self._stop_clock()
        if self._deserted is not None:
            self._deserted.cancel()
            self._deserted = None
        self.play.finished()
        self.services.finished(self)

    # ------------------------------------------------------------------ life cycle
    def schedule_bot(self) -> None:
        """Let the bots, the clock and the turn clock go on: at the start, after a restart, after a
        takeover (once the game is dealt)."""
        if self.is_dealt:
            self.play.schedule()
            self.arm_turn_clock()

    async def close(self, code: int = 1001) -> None:
        """Stop this table's tasks and close its sockets with ``code`` (1001: server shutdown; 1012:
        another worker serves the table now, reconnect); everything is already stored."""
        self.retired = True
        tasks = [t for t in (*self.play.tasks(), *(s.grace for s in self.seats), self._clock, self._deserted)
                 if t is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        for conn in self.connections():
            conn.close(code)


def check_requests(game: str, server_game: ServerGame, requests: list[SeatRequest], preset: str, seats: int) -> None:
    """Raise :class:`LobbyError` unless ``requests`` seat a ``game`` table of ``seats`` seats."""
    if len(requests) != seats:
        raise LobbyError(f"{preset} with these options has {seats} seats, not {len(requests)}", 400,
                         "lobby.seat-count", preset=preset, seats=seats, n=len(requests))
    for r in requests:
        if r.kind == "bot":
            server_game.check_bot(game, r.level)
