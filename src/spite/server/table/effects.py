"""What goes into a table's core and what comes out of it (:mod:`spite.server.table.core`).

Inputs are facts: a connection said hello, sent a request or went away, a bot answered, a person
took a seat, time passed. Effects are what the table wants done: send a text to a connection, close
one, store rows (the core waits for the answer: nothing is acknowledged before it is stored), let a
bot think, answer a hint. They are plain data, so that the asyncio host (:mod:`spite.server.host`)
runs them against sockets, the database and the bot workers, and the tests run them against lists
and dictionaries with a fake clock (tests/server/table_harness.py).

The rows to store are data too (:class:`InsertMove`, :class:`UpdateTable`, ...), and so is what a
restore reads back (:class:`StoredTable`):
:meth:`spite.server.store.Store.table_write` turns a :class:`Store` into SQL, the tests' memory store
applies them to a dictionary and can rebuild the table from it as a restart would.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spite.rating import RatingGroup
    from spite.server.protocol import SeatRating
    from spite.server.table.seats import Seat

__all__ = [
    "BotAsk",
    "Close",
    "ConnId",
    "Counted",
    "DeleteMoves",
    "Effect",
    "Finished",
    "Gone",
    "Hello",
    "Hint",
    "Input",
    "InsertAbort",
    "InsertGame",
    "InsertMove",
    "Join",
    "Leave",
    "NoShow",
    "Rename",
    "Request",
    "Retire",
    "Row",
    "Send",
    "Shut",
    "Store",
    "Stored",
    "StoredTable",
    "Think",
    "Thought",
    "Tick",
    "UpdateSeat",
    "UpdateTable",
]

ConnId = int
"""A connection at the table, as the host numbers them (the core never touches a socket)."""


# ====================================================================== inputs
@dataclass(frozen=True, slots=True)
class Hello:
    """A connection says hello: with a seat's ``token`` (and maybe its ``nonce`` for the deal), or as
    a spectator."""

    conn: ConnId
    token: str | None = None
    spectate: bool = False
    nonce: str | None = None


@dataclass(frozen=True, slots=True)
class Request:
    """A checked client message (``move``, ``sync``, ``hint``, ``undo``, ``next``, ``rematch``: the
    models of :mod:`spite.server.protocol`) from a connection that said hello."""

    conn: ConnId
    msg: Any


@dataclass(frozen=True, slots=True)
class Leave:
    """A connection went away."""

    conn: ConnId


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed: whatever fell due happens (the host sends one at :meth:`TableCore.deadline`)."""


@dataclass(frozen=True, slots=True)
class Thought:
    """A bot's answer for ``seat`` in the position of ``version`` (``move`` ``None``: it failed)."""

    seat: int
    version: int
    move: str | None


@dataclass(frozen=True, slots=True)
class Join:
    """A person takes a free seat (the lobby made the token; the core keeps only its hash). The step
    returns the seat taken, or raises :class:`~spite.server.table.core.LobbyError`."""

    name: str
    token_hash: str
    seat: int | None = None
    player_id: str | None = None
    address: str | None = None
    """A hash of the address the person sits down from (:func:`~spite.server.table.seats.address_key`):
    a rated table seats one address on one side only."""
    rating: SeatRating | None = None
    """At a rated table: the person's rating in its rules group (read by the lobby), shown beside
    their name."""


@dataclass(frozen=True, slots=True)
class Retire:
    """This process stops serving the table (shut down, or another worker serves it now): every
    connection is closed with ``code`` and nothing is started or stored any more."""

    code: int = 1001


@dataclass(frozen=True, slots=True)
class Shut:
    """The site's operator closed the table (``spite admin close``): it is abandoned, as one nobody
    plays at (the database says so already), and everyone at it is told."""


@dataclass(frozen=True, slots=True)
class NoShow:
    """The table's organiser says the time to come is over: person seats that never said hello lose
    the game not dealt yet (:meth:`~spite.server.table.core.TableCore.step`)."""


@dataclass(frozen=True, slots=True)
class Rename:
    """The site's operator gave the person at ``seat`` a new name (stored already); ``forget``: the
    player was deleted, their seat keeps no player id and no address."""

    seat: int
    name: str
    forget: bool = False


Input = Hello | Request | Leave | Tick | Thought | Join | Retire | Shut | Rename | NoShow


# ====================================================================== rows
@dataclass(frozen=True, slots=True)
class InsertMove:
    """One stored change of the game in play: its record entries, at row ``ply``."""

    ply: int
    seat: int
    entries: list[Any]


@dataclass(frozen=True, slots=True)
class UpdateTable:
    """Columns of the table's row (``status``, ``start`` as JSON, ``version_base``, ``game_data``, ...)."""

    values: dict[str, Any]
    game_id_in: tuple[str, ...] = ()
    """JSON columns among ``values`` whose ``gameIds`` list gets the id of the game inserted in the
    same commit (a match's score, the table's series): known only once it is inserted."""


@dataclass(frozen=True, slots=True)
class UpdateSeat:
    """Columns of a seat's row (``controller``, ``level``, ``player``, ``token_hash``, ``player_id``,
    ``address``)."""

    seat: int
    values: dict[str, Any]


@dataclass(frozen=True, slots=True)
class DeleteMoves:
    """Forget the stored changes from row ``from_ply`` on (an undone move; a finished game's rows)."""

    from_ply: int = 0


@dataclass(frozen=True, slots=True)
class InsertGame:
    """A finished game's record and its players; the table is marked finished unless ``finish`` is
    false (a match going on to its next game). Its answer is the game's id."""

    game: str
    preset: str
    record: dict[str, Any]
    plies: int
    turns: int
    players: list[dict[str, Any]]
    finish: bool = True
    rating: RatingGroup | None = None
    """A rated table's last game: the ratings group and sides it is rated in (``None``: not rated)."""
    result: dict[str, Any] | None = None
    """How the game ended when its record does not say (a rated game lost by leaving: ``reason``
    ``forfeit``); ``None``: the record's own result."""


@dataclass(frozen=True, slots=True)
class InsertAbort:
    """A rated game aborted by ``player_id`` (they left before every side had moved): counted, so
    that repeated aborts pause their rated play (docs/ratings.md)."""

    player_id: str


Row = InsertMove | UpdateTable | UpdateSeat | DeleteMoves | InsertGame | InsertAbort


# ====================================================================== what a restore reads back
@dataclass
class StoredTable:
    """A table as stored, with its moves (each a list of record entries)."""

    id: str
    game: str
    preset: str
    options: dict[str, Any]
    seed: int | str
    start: dict[str, Any]
    status: str
    created_at: float
    seats: list[Seat]
    """Its seats as stored (nobody connected: a restored table's core takes copies)."""
    moves: list[list[Any]]
    version_base: int = 0
    """``stateVersion`` is this plus the number of moves (undo and a match's next game raise it)."""
    game_data: dict[str, Any] | None = None
    """What the game's adapter keeps with the table (JSON: a match's score, ...), else ``None``."""
    series: dict[str, Any] | None = None
    """The games played at the table across rematches (JSON), ``None`` before the first ended."""
    rated: bool = False
    """The table was made rated (docs/ratings.md)."""


# ====================================================================== effects
@dataclass(frozen=True, slots=True)
class Send:
    """Queue ``text`` (a JSON message) for a connection."""

    conn: ConnId
    text: str


@dataclass(frozen=True, slots=True)
class Close:
    """Close a connection after what is queued (1000 normal, 1008 refused, 1012 served elsewhere)."""

    conn: ConnId
    code: int = 1000


@dataclass(frozen=True, slots=True)
class Store:
    """Commit ``rows`` in one transaction. The core waits: the host answers with :class:`Stored`
    before anything else happens at the table (commit before acknowledge)."""

    rows: tuple[Row, ...]


@dataclass(frozen=True, slots=True)
class Stored:
    """The answer to :class:`Store`: committed or not, the id of an inserted game, and the new
    ratings a rated game gave its keyed players (by player id)."""

    ok: bool
    game_id: int | None = None
    error: str = ""
    ratings: dict[str, SeatRating] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BotAsk:
    """What a bot is asked about a seat, as it travels to a bot worker: the game's thinking bots
    (``bots``: a :class:`~spite.server.bots.Thinker` by name), the seat, its legal moves (the first is
    played when the bot fails) and the seat's view alone, as the game's play packed it (picklable)."""

    bots: str
    seat: int
    legal: tuple[str, ...]
    view: Any


@dataclass(frozen=True, slots=True)
class Think:
    """Let the bot of ``level`` choose ``seat``'s move (``ask``: from the seat's view alone) off the
    event loop; its answer comes back as :class:`Thought`."""

    seat: int
    version: int
    level: str
    ask: BotAsk
    key: str


@dataclass(frozen=True, slots=True)
class Hint:
    """Answer a ``hint`` to one connection: what the bot of ``level`` would play (``ask``: from the
    asking seat's view alone), thought out off the event loop."""

    conn: ConnId
    msg_id: str | None
    version: int
    level: str
    ask: BotAsk
    key: str


@dataclass(frozen=True, slots=True)
class Counted:
    """A move was played (the server's move count)."""


@dataclass(frozen=True, slots=True)
class Finished:
    """The table's last game ended and is stored (its bots may be forgotten)."""


@dataclass(frozen=True, slots=True)
class Gone:
    """The table was closed (abandoned): it leaves the server's memory."""

    reason: str = field(default="")


Effect = Send | Close | Store | Think | Hint | Counted | Finished | Gone
