"""What a game adds to a table (:mod:`spite.server.table.core`): the adapter's side.

The core drives every game through :mod:`spite.games` (``apply``, ``advance``, ``view``, ``to_act``,
``legal_moves``, ``to_record``, ``result``, ``points``, ``turns``, ``face_down_view``) and never asks
which game it is. What differs between games is a small adapter, found in the registry
(``spite.games.register(..., server=...)``): a :class:`ServerGame` says how the lobby lists the game
(:class:`Listing`, with its thinking bots), deals and restores a table's game
(:meth:`ServerGame.open`: the one way a game is dealt, the table's first as a match's next or a
rematch) and makes each game's :class:`TablePlay`, which supplies the game's own part of its
messages (``game``: docs/protocol.md), its steps as each audience is told them, the bots' view or a
real-time game's own bots and timers, and a match's score. The surface is 16 methods (ServerGame 5,
TablePlay 9, Undo 2) and 3 attributes (:attr:`ServerGame.listing`, :attr:`TablePlay.table`,
:attr:`TablePlay.carried`). Requests
only some games know are capabilities: a game whose bots think off the event loop
(:attr:`Listing.bots`) answers ``hint`` from the same view; a play that is an :class:`Undo` takes a
move back; a game whose tables may play matches (:attr:`Listing.matches`) understands ``next``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from spite.errors import Phrase
from spite.games import Event, GameState, Record, get_game
from spite.server.table.fair import FairDeal

if TYPE_CHECKING:
    from spite.server.config import ServerConfig
    from spite.server.table.clock import TableClock
    from spite.server.table.effects import StoredTable
    from spite.server.table.seats import Seat
    from spite.server.table.series import TableSeries

__all__ = ["Action", "Change", "Ending", "Listing", "Opening", "ServerGame", "Table", "TablePlay", "Undo", "restored"]


@dataclass
class Opening:
    """A table's game as :meth:`ServerGame.open` deals it or :meth:`ServerGame.restore` restores it."""

    state: GameState
    preset: str
    """The preset's name as the table shows and stores it."""
    options: dict[str, Any]
    """The option overrides as the table shows and stores them."""
    start: dict[str, Any] = field(default_factory=dict)
    """The row's ``start`` of the game (the deal, the entries before the first move, its seed, its fair deal)."""
    columns: dict[str, Any] = field(default_factory=dict)
    """More columns of the table's row to store with the game's start (``game_data``: the adapter's own
    JSON, as a new match's score)."""
    version: int = 0
    version_base: int = 0
    rows: int = 0
    """Move rows stored for the game in play."""
    entries: int = 0
    """Record entries of the game stored so far (those of its start included)."""
    extra: Any = None
    """The adapter's own (a match's score, ...), handed to :meth:`ServerGame.play`."""
    fair: FairDeal | None = None
    """The fair deal of the game in play (``None``: a table stored before fair deals)."""
    fair_next: FairDeal | None = None
    """Stored between two games, or after the last: the next game's fair deal (its commitment is out)."""
    log: list[dict[str, Any]] | None = None
    """A restored game's steps so far (``moveLog``), made with the replay that restored it."""


@dataclass
class Ending:
    """What the end of a game means at a table (see :meth:`TablePlay.ending`)."""

    final: bool = True
    """The table is finished (False: a match goes on to its next game)."""
    columns: dict[str, Any] = field(default_factory=dict)
    """Columns of the table's row to store with the game's record (``game_data``: the adapter's own JSON,
    as a match's score)."""
    ids_in: tuple[str, ...] = ()
    """Those of :attr:`columns` that are JSON with a ``"gameIds"`` list: completed with the new game's
    id when the game is stored, in the same commit."""
    next_first: int | None = None
    """The seat the rules let begin the next game (bound by its commitment); ``None``: the cut."""
    stored: Callable[[int], None] | None = None
    """Called with the game's id once its record and :attr:`columns` are stored (the play takes on what
    it worked out for them: a match's score after this game); not called when the commit failed."""


@dataclass(frozen=True)
class Change:
    """A change of the game in play, just stored as one row (see :meth:`TablePlay.changed`)."""

    seat: int | None
    """The seat that moved (``None``: the time)."""
    by_bot: bool
    """A bot made the move."""
    entries: list[Any]
    """The record entries the row holds."""


@dataclass(frozen=True)
class Listing:
    """How the lobby lists a game's tables (``GameType``) and names them."""

    title: str
    """How messages name the game's tables, for people (its family's own name)."""
    levels: tuple[str, ...]
    """The bot levels the lobby offers for this game's seats."""
    default_level: str = "medium"
    """The bots' level when a request names none (quick play)."""
    web: Path | None = None
    """The game's folder of page modules (its family's ``web/``, shipped as package data): the server
    serves it as ``/static/games/GAME/``, so the page's shared modules are two folders up from it.
    ``None``: the page has no screen for this game."""
    page: str = ""
    """The page module in :attr:`web` that draws this game's tables and replays (it exports ``openGame``:
    the page's games.js); beside it ``replay-board.js`` (its replay board, ``ReplayBoard``) and the optional
    ``rules-text.js``, its rules."""
    rules: str = ""
    """The rules page (``/rules/RULES``) of this game."""
    options: tuple[str, ...] = ()
    """Options the lobby's forms let a person set (``stock_size``)."""
    quick_preset: str | None = None
    """The preset the lobby plays at one click, a quick game (``None``: the game's default preset)."""
    matches: bool = False
    """Whether the game's tables may play matches: ``next`` is understood (and refused at a table of
    one game: :meth:`TablePlay.match_game` is ``None`` there); otherwise it is answered as a request
    the game does not have."""
    bots: str | None = None
    """``"module:attribute"`` of the game's thinking bots (a :class:`spite.server.bots.Thinker`, run in
    the bot workers): they choose a bot seat's moves one at a time from its view
    (:meth:`TablePlay.bot_view`) and answer hints. ``None``: the play moves its bots itself
    (:meth:`TablePlay.due`), and the game has no hints."""
    pictures: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    """Per game name, a small picture of a table for the lobby's tile: rows of cards from the far side
    of the table to the near one, each a card token (records.md §1), ``#`` a card's back or ``""`` an
    empty place. No court cards: each court figure is a file the browser would fetch for the lobby
    alone. None: the tile shows the felt."""


Action = tuple[Any, ...]
"""What a real-time play wants done now (:meth:`TablePlay.due`): ``("advance",)`` the game's own
timers fire, ``("move", seat, move)`` a bot's move."""


def stored_record(st: StoredTable) -> Record:
    """The record of a stored table's game in play: its start and its stored moves."""
    flat: list[Any] = list(st.start.get("leading", []))
    for entries in st.moves:
        flat.extend(entries)
    # a game of a fair table or a match has its own seed (derived from the table's), kept with its start
    return Record(game=st.game, preset=st.preset, options=st.options, seed=st.start.get("seed", st.seed),
                  deal=st.start["deal"], moves=flat)


def restored(st: StoredTable, state: GameState, log: list[dict[str, Any]] | None = None,
             extra: Any = None) -> Opening:
    """A stored table's game, replayed to ``state`` (with its steps ``log`` if the replay made them),
    and the adapter's own ``extra``, as :meth:`ServerGame.restore` answers."""
    seats = state.seats
    fair = FairDeal.from_stored(st.id, seats, st.start["fair"]) if "fair" in st.start else None
    fair_next = FairDeal.from_stored(st.id, seats, st.start["fairNext"]) if "fairNext" in st.start else None
    # stateVersion rose by one with every stored change: undo and the games before are in the base
    return Opening(state, st.preset, st.options, dict(st.start), version=st.version_base + len(st.moves),
                   version_base=st.version_base, rows=len(st.moves),
                   entries=len(st.start.get("leading", [])) + sum(len(entries) for entries in st.moves),
                   extra=extra, fair=fair, fair_next=fair_next, log=log)


class ServerGame(ABC):
    """A game's ``server`` hook in the registry: how the lobby lists it; deals and restores its tables'
    games and makes each game's :class:`TablePlay`."""

    listing: Listing

    @abstractmethod
    def check_bot(self, game: str, level: str | None) -> None:
        """Raise :class:`~spite.server.table.seats.LobbyError` unless a bot seat of ``level`` may sit at
        a ``game`` table."""

    def open(self, game: str, preset: str, options: dict[str, Any], seed: str, first: int | None = None,
             carried: Any = None) -> Opening:
        """A game dealt from ``seed`` (options already checked; raises :class:`~spite.errors.OptionsError`),
        ``first`` the seat the rules let begin (bound by the fair deal's commitment; ``None``: the cut).
        ``carried`` is what the game before carries on (:attr:`TablePlay.carried`: a match going on);
        ``None``: a new table or a rematch. The one way every game at a table is dealt."""
        state = get_game(game).dealt(preset, options, seed, first=first)
        record = state.to_record()
        start: dict[str, Any] = {"deal": record.deal, "seed": seed}
        if record.moves:
            start["leading"] = list(record.moves)
        return Opening(state, record.preset or preset, dict(record.options), start, entries=len(record.moves),
                       extra=carried)

    def restore(self, st: StoredTable) -> Opening:
        """A stored table's game: the record of its start and stored moves replayed (slow for a long
        game: the host calls it off the event loop)."""
        return restored(st, get_game(st.game).from_record(stored_record(st)))

    @abstractmethod
    def play(self, table: Table, extra: Any) -> TablePlay:
        """The per-game part of this game at ``table`` (``extra``: :attr:`Opening.extra`)."""

    @abstractmethod
    def positions(self, record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """A finished game's record replayed for the replay viewer: its steps (moves) and the whole
        table before the first and after each (``/api/games/{id}/positions``)."""


class Table(Protocol):
    """What a game's play and the core's parts read of the table (the core, which alone changes it):
    the game in play, the seats, where the table stands, its clocks and its series."""

    id: str
    game: str
    preset: str
    options: dict[str, Any]
    config: ServerConfig
    server_game: ServerGame
    state: GameState
    play: TablePlay
    seats: list[Seat]
    spectators: set[int]
    status: str
    rated: bool
    version: int
    entries: int
    """Record entries of the game in play stored so far."""
    now: float
    game_id: int | None
    fair: FairDeal | None
    fair_next: FairDeal | None
    ended: dict[str, Any] | None
    clock: TableClock
    series: TableSeries
    restored_log: list[dict[str, Any]] | None

    @property
    def is_dealt(self) -> bool: ...

    @property
    def game_ended(self) -> bool: ...

    def game_ms(self, now: float) -> int: ...

    def core_time(self, ms: int) -> float: ...

    def live(self, now: float) -> bool: ...


class TablePlay:
    """What a game does at one table, one game of it, besides what the core does. The defaults fit a
    turn game with no extra message fields; an adapter overrides what its game has. It reads the
    table (``self.table``) and answers; the core changes the table."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def carried(self) -> Any:
        """What the table's next game carries on from this one (:meth:`ServerGame.open`: a match going
        on); ``None``: the next game is a game of its own."""
        return None

    # ------------------------------------------------------------------ what clients see
    def views(self, seats: Sequence[int | None]) -> dict[int | None, tuple[dict[str, Any], list[str]]]:
        """The view JSON of each of ``seats`` (``None``: the spectators) and its legal moves, all of one
        position: all a client gets. A play whose seats see the same table but their own hands makes
        what they share once."""
        state = self.table.state
        return {seat: (state.view(seat).to_json(), state.legal_moves(seat) if seat is not None else [])
                for seat in seats}

    def fields(self, seat: int | None, events: Sequence[Event] | None = None) -> dict[str, Any]:
        """The game's own part (``game``, JSON) of the messages for ``seat`` (``None``: everyone): a
        match's score, whether the seat may undo, a real-time game's clock; with ``events`` (a ``state``
        message of a change: what happened, in order) what the game tells of them. Empty: the messages
        carry no ``game``."""
        return {}

    def move_log(self, seat: int | None = None, newest: int | None = None) -> list[dict[str, Any]]:
        """The steps of the game in play so far, oldest first, as ``seat`` (``None``: a spectator) was
        told them, never a hidden card or a chance entry: each ``{"seat", "move", "game"?}``, the move as
        it is told (``move``) and what the game tells of it besides (``game``). All of them make a
        ``welcome``'s ``moveLog``; the newest (``newest=1``) is the move just made, as its ``state``'s
        ``last`` tells it to ``seat`` (the seat that made it) and to everyone else (``None``)."""
        steps, _ = self.table.server_game.positions(self.table.state.to_record())
        return steps if newest is None else steps[-newest:]

    # ------------------------------------------------------------------ moves
    def entries(self, events: Sequence[Event]) -> list[Any]:
        """The record entries the move (and the time) just added, to store as one row."""
        return list(self.table.state.to_record().moves[self.table.entries:])

    def changed(self, stored: Change | None = None) -> None:
        """The position changed, or who plays a seat (a bot took it over, its person is back); with
        ``stored``, the game's own change that was just stored (a move, the time)."""

    # ------------------------------------------------------------------ a match
    def match_game(self) -> int | None:
        """At a match table, the number of the game in play (or just over) in its match; ``None``: the
        table plays single games."""
        return None

    def ending(self) -> Ending:
        """The game is over: is the table (and what else to store with the record, and what to do once
        it is stored: :attr:`Ending.stored`)?"""
        return Ending()

    # ------------------------------------------------------------------ what goes on by itself
    def bot_view(self, seat: int) -> Any:
        """What the game's thinking bots (:attr:`Listing.bots`) playing ``seat``, or giving its person a
        hint, think from: its seat's view (nothing more leaves the game), picklable (it goes to a bot
        worker process)."""
        return self.table.state.view(seat)

    def due(self, now: float) -> tuple[list[Action], float | None]:
        """What the play wants done by itself at ``now`` (see :data:`Action`), and when it next will
        (core time; ``None``: not unless something changes). Asking changes nothing: the core does
        the actions, then tells the play (:meth:`changed`)."""
        return [], None


@runtime_checkable
class Undo(Protocol):
    """A table play that takes moves back (``undo``): the core stores the undo (the move's row goes)
    and then takes it back."""

    def undoable(self, seat: int | None) -> tuple[str, int] | Phrase:
        """The move ``seat`` may take back now, and how many record entries it made; or why it may take
        none back (the game's own rule, in its words: a phrase of the catalogue)."""

    def take_back(self) -> None:
        """Take the last move back (it is stored so already)."""
