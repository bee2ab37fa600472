"""What a game adds to a table (:mod:`spite.server.table.core`): the adapter's side.

The core drives every game through :mod:`spite.games` (``apply``, ``advance``, ``view``, ``to_act``,
``legal_moves``, ``to_record``, ``result``, ``points``, ``turns``, ``face_down_view``) and never asks
which game it is. What differs between games is a small adapter, found in the registry
(``spite.games.register(..., server=...)``): a :class:`ServerGame` opens and restores a table's game
and makes each table's :class:`TablePlay`, which supplies the extra fields of a game's messages, the
clock of a real-time game and its own bots, and the deal of a match's next game. Requests only some
games know are capabilities: a play that has :class:`Hints` answers ``hint``, :class:`Undo` takes a
move back; a play whose games end with :attr:`Ending.final` false has a match's next game (``next``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from spite.games import Event, GameState, Record, get_game
from spite.server.table.fair import FairDeal

if TYPE_CHECKING:
    from spite.server.config import ServerConfig
    from spite.server.table.effects import StoredTable
    from spite.server.table.seats import Seat

__all__ = ["Action", "Dealt", "Ending", "Hints", "Opening", "ServerGame", "Table", "TablePlay", "Undo"]


@dataclass
class Dealt:
    """A game dealt from a seed: its state, the row's ``start`` (the deal, the record entries a deal
    makes before the first move, the game's own seed) and how many record entries that start holds."""

    state: GameState
    start: dict[str, Any]
    entries: int = 0


@dataclass
class Opening:
    """A table's game as a :class:`ServerGame` opens or restores it."""

    state: GameState
    preset: str
    """The preset's name as the table shows and stores it."""
    options: dict[str, Any]
    """The option overrides as the table shows and stores them."""
    start: dict[str, Any] = field(default_factory=dict)
    """The row's ``start`` of the game in play (the deal, the entries before the first move, its fair deal)."""
    columns: dict[str, Any] = field(default_factory=dict)
    """A new table: more columns of its row (a match's score)."""
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
    """Columns of the table's row to store with the game's record (a match's score); ``"gameIds"``
    inside a JSON column (named in :attr:`~spite.server.table.effects.UpdateTable.game_id_in`) is completed
    with the new game's id when the game is stored, in the same commit."""
    next_first: int | None = None
    """The seat the rules let begin the next game (bound by its commitment); ``None``: the cut."""


Action = tuple[Any, ...]
"""What a real-time play wants done now (:meth:`TablePlay.due`): ``("advance",)`` the game's own
timers fire, ``("move", seat, move)`` a bot's move."""


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
    """The page module (``web/static/PAGE.js``) that draws this game's tables and replays."""
    rules: str = ""
    """The rules page (``/rules/RULES``) of this game."""
    lobby_options: tuple[str, ...] = ()
    """Options the lobby's forms let a person set (``stock_size``)."""

    def lobby_picture(self, game: str) -> tuple[tuple[str, ...], ...]:
        """A small picture of a ``game`` table for the lobby's tile (``GameType.picture``): rows of
        cards from the far side of the table to the near one, each a card token (records.md §1),
        ``#`` a card's back or ``""`` an empty place. No court cards: each court figure is a file
        the browser would fetch for the lobby alone. By default none (the tile shows the felt)."""
        return ()

    @abstractmethod
    def check_bot(self, game: str, level: str | None) -> None:
        """Raise :class:`~spite.server.table.seats.LobbyError` unless a bot seat of ``level`` may sit at
        a ``game`` table."""

    def open(self, game: str, preset: str, options: dict[str, Any], seed: int | str) -> Opening:
        """A new game dealt from ``seed`` (options already checked); raises
        :class:`~spite.errors.OptionsError`."""
        state = get_game(game).new(preset, options, seed=seed)
        record = state.to_record()
        start: dict[str, Any] = {"deal": record.deal}
        if record.moves:
            start["leading"] = list(record.moves)
        return Opening(state, record.preset or preset, dict(record.options), start, entries=len(record.moves))

    def restore(self, st: StoredTable) -> Opening:
        """A stored table's game: the record of its start and stored moves replayed (slow for a long
        game: the host calls it off the event loop)."""
        flat: list[Any] = list(st.start.get("leading", []))
        for entries in st.moves:
            flat.extend(entries)
        # a game of a match has its own seed (derived from the table's), kept with its start
        record = Record(game=st.game, preset=st.preset, options=st.options, seed=st.start.get("seed", st.seed),
                        deal=st.start["deal"], moves=flat)
        state, log = self.replayed(record)
        seats = state.seats
        fair = FairDeal.from_stored(st.id, seats, st.start["fair"]) if "fair" in st.start else None
        fair_next = FairDeal.from_stored(st.id, seats, st.start["fairNext"]) if "fairNext" in st.start else None
        # stateVersion rose by one with every stored change: undo and the games before are in the base
        return Opening(state, st.preset, st.options, dict(st.start), version=st.version_base + len(st.moves),
                       version_base=st.version_base, rows=len(st.moves), entries=len(flat),
                       extra=self.restored_extra(st, state), fair=fair, fair_next=fair_next, log=log)

    def replayed(self, record: Record) -> tuple[GameState, list[dict[str, Any]] | None]:
        """``record`` replayed, and its steps for the ``moveLog`` if the replay makes them (``None``:
        the play works them out itself)."""
        return get_game(record.game).from_record(record), None

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


class Table(Protocol):
    """What a game's play reads of its table (the table's core, which alone changes it): the game in
    play, the seats, where the table stands, and its clock."""

    id: str
    game: str
    preset: str
    options: dict[str, Any]
    config: ServerConfig
    server_game: ServerGame
    state: GameState
    seats: list[Seat]
    status: str
    version: int
    entries: int
    """Record entries of the game in play stored so far."""
    now: float
    go: float
    between: bool
    ready: set[int]
    next_at: float | None
    game_id: int | None
    fair: FairDeal | None
    restored_log: list[dict[str, Any]] | None

    @property
    def is_dealt(self) -> bool: ...

    def game_ms(self, now: float) -> int: ...

    def core_time(self, ms: int) -> float: ...

    def live(self, now: float) -> bool: ...


class TablePlay:
    """What a game does at one table besides what the core does. The defaults fit a turn game with
    no extra message fields, whose bots think off the event loop; an adapter overrides what its game
    has. It reads the table (``self.table``) and answers; the core changes the table."""

    plays_matches: bool = False
    """Whether this game's tables may play matches: ``next`` is understood (and refused at a table of
    one game); otherwise it is answered as a request the game does not have."""

    def __init__(self, table: Table) -> None:
        self.table = table

    @property
    def state(self) -> GameState:
        """The game in play."""
        return self.table.state

    # ------------------------------------------------------------------ what clients see
    def view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The view JSON of ``seat`` (``None``: spectator) and its legal moves: all a client gets."""
        state = self.state
        return state.view(seat).to_json(), state.legal_moves(seat) if seat is not None else []

    def views(self, seats: Sequence[int | None]) -> dict[int | None, tuple[dict[str, Any], list[str]]]:
        """:meth:`view` of each of ``seats`` (``None``: the spectators), all of one position: a play
        whose seats see the same table but their own hands makes what they share once."""
        return {seat: self.view(seat) for seat in seats}

    def fields(self, seat: int | None) -> dict[str, Any]:
        """Extra fields (models) of the ``welcome`` and ``state`` messages for ``seat`` (a match's
        score, whether the seat may undo, a real-time game's clock)."""
        return {}

    def score_fields(self) -> dict[str, Any]:
        """Extra fields (models) of ``table`` and ``gameOver`` messages (a match's score)."""
        return {}

    def move_log(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The steps of the game in play so far, oldest first, as ``seat`` (``None``: a spectator) was
        told them (the ``welcome``'s ``moveLog``), never a hidden card or a chance entry: each step as
        :meth:`told` said it with its move."""
        steps, _ = self.table.server_game.positions(self.state.to_record())
        return steps

    def step_count(self) -> int:
        """How many steps :meth:`move_log` holds now (the table's events are placed after them)."""
        return len(self.move_log())

    def told(self, own: bool) -> dict[str, Any]:
        """What is told of the move just made besides its notation (the ``state``'s ``last``: Spite and
        Malice's ``card``, ``wildAs``, ``completed``; a ``move`` here is how the move is told instead
        of as it was made), to the connections of the seat that made it (``own``) or to everyone else;
        the same as :meth:`move_log` keeps for its step. Nothing the audience may not see."""
        return {}

    # ------------------------------------------------------------------ moves
    def checkpoint(self) -> Callable[[], None]:
        """Before a move: what puts the state back if its commit fails."""
        table = self.table
        before = table.state.copy()

        def back() -> None:
            table.state = before

        return back

    def entries(self, events: Sequence[Event]) -> list[Any]:
        """The record entries the move (and the time) just added, to store as one row."""
        return list(self.state.to_record().moves[self.table.entries:])

    def stored(self, seat: int | None, by_bot: bool, entries: list[Any]) -> None:
        """After a change of ``seat`` (``None``: the time) was stored."""

    def seat_changed(self) -> None:
        """A bot took a seat over or its person came back."""

    def match_game(self) -> int | None:
        """At a match table, the number of the game in play (or just over) in its match; ``None``: the
        table plays single games."""
        return None

    def ending(self) -> Ending:
        """The game is over: is the table (and what else to store with the record)?"""
        return Ending()

    def ended(self, game_id: int) -> None:
        """The game's record (and :attr:`Ending.columns`) is stored as game ``game_id``."""

    def next_first(self) -> int | None:
        """After a game: the seat the rules let begin the next one (``None``: the cut decides)."""
        return None

    def deal(self, seed: str, first: int | None) -> Dealt:
        """The game to play now (the game in play before any card was seen, or a match's next game)
        dealt from ``seed``; ``first`` the seat the rules let begin (bound by the commitment)."""
        table = self.table
        state = get_game(table.game).dealt(table.preset, table.options, seed, first=first)
        record = state.to_record()
        start: dict[str, Any] = {"deal": record.deal, "seed": seed}
        if record.moves:
            start["leading"] = list(record.moves)
        return Dealt(state, start, len(record.moves))

    # ------------------------------------------------------------------ what goes on by itself
    thinking_bots: bool = True
    """Whether this game's bots think off the event loop, one decision at a time from their seat's view
    (:meth:`bot_view`); otherwise the play moves its bots itself (:meth:`wake`, :meth:`due`)."""

    def bot_view(self, seat: int) -> Any:
        """What the bot playing ``seat`` thinks from: its seat's view (nothing more leaves the game)."""
        return self.state.view(seat)

    def wake(self) -> float | None:
        """When the play next has something to do by itself (core time), if ever."""
        return None

    def due(self, now: float) -> list[Action]:
        """What the play wants done now (see :data:`Action`)."""
        return []

    def changed(self) -> None:
        """The position changed, or who plays a seat (a real-time play plans its bots again)."""


@runtime_checkable
class Hints(Protocol):
    """A table play that answers ``hint``: the view its hint bot thinks from."""

    def hint_view(self, seat: int) -> Any: ...


@runtime_checkable
class Undo(Protocol):
    """A table play that takes moves back (``undo``): the core stores the undo (the move's row goes)
    and then takes it back."""

    def can_undo(self, seat: int | None) -> bool: ...

    def last_move(self) -> tuple[str, int]: ...

    def take_back(self) -> None: ...
