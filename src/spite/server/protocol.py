"""Every message of the server, as pydantic models (documented in ``docs/protocol.md``).

WebSocket messages are JSON objects with a ``type``. A client sends :data:`ClientMessage`
(``hello``, ``move``, ``sync``, ``ping``, ``rematch``; a game that has them also ``hint``, ``undo``
and ``next``); the server sends ``welcome``, ``state``, ``ack``, ``table``, ``gameOver``, ``rematch``,
``hint``, ``pong`` and ``error``. The REST lobby's requests and answers are the
``*Request``/``*Info`` models (they make the OpenAPI schema at ``/openapi.json``).

A ``view`` is always exactly ``State.view(seat).to_json()`` of the receiving seat (a spectator's
for spectators): the only game data a client ever receives. What a game adds to a message besides
(a match's score, whether a move may be taken back, a real-time game's clock and events) travels in
the message's ``game`` object, which the game's adapter fills
(:meth:`spite.server.table.play.TablePlay.fields`): the protocol names no game's field.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    model_serializer,
)
from pydantic_core import PydanticCustomError

from spite.errors import Phrase
from spite.games import DEFAULT_GAME, game_names

__all__ = [
    "Ack",
    "ClientMessage",
    "CreateTableRequest",
    "ErrorMessage",
    "FairInfo",
    "GameInfo",
    "GameOver",
    "GameType",
    "Hello",
    "HintMessage",
    "HintRequest",
    "JoinRequest",
    "JoinedInfo",
    "LastMove",
    "LoggedMove",
    "MoveMessage",
    "NextGame",
    "Ping",
    "Pong",
    "PresetInfo",
    "QuickPlayRequest",
    "RematchInfo",
    "RematchRequest",
    "RematchState",
    "SeatInfo",
    "SeatRating",
    "SeatRequest",
    "SeriesInfo",
    "StateMessage",
    "StatsInfo",
    "Sync",
    "TableEvent",
    "TableInfo",
    "TableMessage",
    "UndoMessage",
    "Welcome",
    "ack_text",
    "client_adapter",
    "error_text",
]

def clean_name(name: str) -> str:
    """A player's display name normalised (Unicode NFC, outer spaces trimmed); refused with error type
    ``bad-name`` when it has a control character, a bidi control (which could show a name reversed or
    run into the text after it) or an invisible zero-width character.

    >>> clean_name(" Jose\u0301 ")
    'José'
    >>> clean_name("Bot:random")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.PydanticCustomError: a name may not begin with bot: or p- ...
    >>> clean_name("ann\u202e")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.PydanticCustomError: a name may not hold control, bidi or zero-width ... (U+202E)
    """
    name = unicodedata.normalize("NFC", name).strip()
    for ch in name:
        # Cc: control; Cf: format (every bidi control, zero-width space/joiners, the BOM, soft hyphen);
        # Cs/Co/Cn: surrogates, private use, unassigned; Zl/Zp: line and paragraph separators
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise PydanticCustomError("bad-name", "a name may not hold control, bidi or zero-width characters "
                                      "({char})", {"char": f"U+{ord(ch):04X}"})
    if not name:
        raise PydanticCustomError("bad-name", "a name needs a visible character")
    if name.casefold().startswith(RESERVED_NAME_PREFIXES):
        # what statistics count under: bot:LEVEL is a computer player's name, p-… a keyed player's id
        raise PydanticCustomError("bad-name", "a name may not begin with {prefix} (the computer players' and the "
                                  "player ids' own)", {"prefix": " or ".join(RESERVED_NAME_PREFIXES)})
    return name


RESERVED_NAME_PREFIXES = ("bot:", "p-")
"""Names statistics keep for themselves: ``bot:LEVEL`` counts a computer player, ``p-…`` is a player id."""


def _registered_game(game: str) -> str:
    if game not in game_names():
        raise ValueError(f"unknown game {game!r} (one of {', '.join(game_names())})")
    return game


GAME_NAME = Annotated[str, Field(max_length=40), AfterValidator(_registered_game)]
"""A game of the registry (spite.games), checked there: the protocol keeps no list of games."""

NAME = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(clean_name)]
"""A player's display name: only a label (statistics are kept by :data:`PLAYER_KEY`'s player id)."""

PLAYER_KEY = Annotated[str, Field(min_length=22, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
"""A player's secret key, made once by the browser or terminal app and kept there; the server keeps
only the player id made from it (:func:`spite.server.table.seats.player_id`)."""
MSG_ID = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\x20-\x7e]+$",
                              description="Echoed in the answer: 1-64 printable ASCII characters.")]
"""A message's ``id``: printable ASCII only, so echoing it can never break a frame or a log line."""
VERSION = Annotated[int, Field(strict=True, ge=0, le=2**53)]
"""A ``stateVersion`` a client sends: a JSON integer (``"0"``, ``0.0`` or ``true`` are refused, not
coerced) that fits every database and JavaScript number."""
NONCE = Annotated[str, Field(strict=True, min_length=32, max_length=32, pattern=r"^[0-9a-f]{32}$",
                             description="16 random bytes as 32 lower-case hex digits (docs/fairness.md).")]
"""A seat's nonce: exactly 32 lower-case hex digits, anything else is refused."""
HEX64 = Annotated[str, Field(min_length=64, max_length=64, pattern=r"^[0-9a-f]{64}$")]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid")


_OPTIONAL = ("game", "undone", "fair", "series", "rematch", "moveLogStart")
"""Fields left out of a message when they are ``None``: the game's own part (``game``) of a game that
adds nothing, an undo's ``undone``, a table's ``series`` and ``rematch`` before its first rematch
question, a ``welcome``'s ``moveLogStart`` when its ``moveLog`` leaves nothing out."""

GAME_PART = "The game's own part of the message, as its adapter fills it (absent: the game adds nothing here)."
"""The description of every message's ``game`` field (docs/protocol.md, "A game's own part")."""


class _OutMsg(_Msg):
    """A server message whose optional fields (:data:`_OPTIONAL`) are left out when empty, so messages
    that do not use them stay short."""

    def _omit(self) -> set[str] | None:
        return {k for k in _OPTIONAL if k in type(self).model_fields and getattr(self, k) is None} or None

    def model_dump_json(self, **kwargs: Any) -> str:
        if "exclude" not in kwargs:
            kwargs["exclude"] = self._omit()
        return super().model_dump_json(**kwargs)

    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        if "exclude" not in kwargs:
            kwargs["exclude"] = self._omit()
        return super().model_dump(**kwargs)


# ====================================================================== client → server
class Hello(_Msg):
    """The first message on a connection: a seat's token, or ``spectate``."""

    type: Literal["hello"]
    token: str | None = Field(None, max_length=200, description="The seat's secret token (absent when spectating).")
    spectate: bool = Field(False, strict=True, description="Watch with the spectator's view (no token needed).")
    account: bool = Field(False, strict=True, description="Take the seat the signed-in account holds at this "
                          "table (the session this WebSocket was opened with: cookie or bearer), no token "
                          "needed (docs/accounts.md).")
    nonce: NONCE | None = Field(None, description="A seat's random nonce for the deal (docs/fairness.md): it "
                                "counts while the game is not dealt yet; a spectator's is ignored.")


class MoveMessage(_Msg):
    """A move for the seat this connection holds, made in the position ``stateVersion``."""

    type: Literal["move"]
    move: str = Field(max_length=32, pattern=r"^[\x20-\x7e]*$",
                      description="records.md §2 notation, e.g. 'H7-B2' or 'pass'.")
    stateVersion: VERSION = Field(description="The version the move was chosen in; a stale one is refused.")
    id: MSG_ID | None = Field(None, description="Echoed in the ack or error.")


class Sync(_Msg):
    """Ask for the current position (after a gap in ``stateVersion``)."""

    type: Literal["sync"]


class Ping(_Msg):
    """Keep-alive; answered with ``pong``."""

    type: Literal["ping"]
    id: MSG_ID | None = None


class HintRequest(_Msg):
    """A game with thinking bots: ask what a bot would play for your seat now (your turn only); answered with
    ``hint``. The bot sees only your seat's view."""

    type: Literal["hint"]
    id: MSG_ID | None = Field(None, description="Echoed in the hint or error.")


class UndoMessage(_Msg):
    """A game that takes moves back: take back your seat's last move, if the game lets you now (its
    part of the messages says so)."""

    type: Literal["undo"]
    stateVersion: VERSION = Field(description="The version you saw; a stale one is refused.")
    id: MSG_ID | None = Field(None, description="Echoed in the ack or error.")


class NextGame(_Msg):
    """A match table between two games: you are ready for the next game."""

    type: Literal["next"]
    id: MSG_ID | None = Field(None, description="Echoed in an error.")
    nonce: NONCE | None = Field(None, description="Your random nonce for the next game's deal (docs/fairness.md).")


class RematchRequest(_Msg):
    """The game is over (the table finished): you want another game at this table (``accept``), or
    not. It begins when every seat a person plays has said yes (bots say yes at once): same seats,
    same preset, a new deal; the series score goes on."""

    type: Literal["rematch"]
    accept: bool = Field(True, strict=True, description="false: you do not want another game (the others are told).")
    id: MSG_ID | None = Field(None, description="Echoed in an error.")
    nonce: NONCE | None = Field(None, description="Your random nonce for the rematch's deal (docs/fairness.md).")


AnyClientMessage = Hello | MoveMessage | Sync | Ping | HintRequest | UndoMessage | NextGame | RematchRequest
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
client_adapter: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)

# ====================================================================== shared pieces
SeatStatus = Literal["free", "connected", "disconnected", "bot"]


class SeatRating(_Msg):
    """A person's rating as a rated table shows it beside their name (docs/ratings.md)."""

    rating: int = Field(description="The shown, conservative number (a newcomer's is 1000).")
    provisional: bool = Field(description="Still provisional: too few games to be sure of it.")
    games: int = Field(description="Rated games played in the table's rules group.")


class SeatInfo(_Msg):
    """A seat as everyone may see it (never its token)."""

    seat: int
    kind: Literal["person", "bot"] = Field(description="What the table was created with.")
    level: str | None = Field(None, description="The bot level of a bot seat.")
    player: str | None = Field(None, description="The name of the person who took the seat.")
    status: SeatStatus = Field(description="free, connected, disconnected (grace time running) or bot.")
    botLevel: str | None = Field(None, description="The level of the bot playing this seat now, if any.")
    rating: SeatRating | None = Field(None, description="At a rated table: the rating of the person at this "
                                      "seat (with a player key) in the table's rules group, as it stands "
                                      "before the game in play; left out elsewhere (docs/ratings.md).")

    @model_serializer(mode="wrap")
    def _leave_out_rating(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        if out.get("rating") is None:
            out.pop("rating", None)
        return out


class SeriesInfo(_Msg):
    """The games played at one table link, across rematches: how many, and the wins of each seat
    (with partnerships both partners of the winning team count a win; a draw counts for nobody)."""

    games: int = Field(description="Games finished at this table (each game of a match counts as its match).")
    wins: list[int] = Field(description="Wins per seat.")
    gameIds: list[int] = Field(default_factory=list, description="The finished games' ids, oldest first.")


class RematchInfo(_Msg):
    """The question "another game at this table?" after the table's last game."""

    ready: list[int] = Field(description="Seats that said yes (bots at once).")
    waiting: list[int] = Field(description="Seats whose person has not answered yet.")
    declined: list[int] = Field(default_factory=list, description="Seats whose person said no (they may yet say yes).")


class PresetInfo(_Msg):
    """A preset of a game and how many seats its tables have."""

    name: str
    seats: int


class GameType(_Msg):
    """A game this server holds tables of (``GET /api/game-types``): what the lobby offers and which
    page module draws its tables. The page looks a table's game up here, never by its name."""

    name: str = Field(description="The registered name (spite.games), as in TableInfo.game and records.")
    realtime: bool = Field(description="Played in real time (every seat may move at any time), not turn by turn.")
    defaultPreset: str
    quickPreset: str = Field(description="The preset the lobby plays at one click (a quick game): the game's "
                             "server hook says it (ServerGame.listing.quick_preset), else defaultPreset.")
    presets: list[PresetInfo]
    levels: list[str] = Field(description="The computer levels a bot seat may have.")
    defaultLevel: str
    page: str = Field(description="The URL of the page module that draws the game's tables and replays, in the "
                      "game's own folder (/static/games/GAME/FILE, served from its family's package); empty: no "
                      "page for this game.")
    rules: str = Field(description="The rules page: /rules/RULES.")
    lobbyOptions: list[str] = Field(description="Options the lobby's forms offer (stock_size).")
    picture: list[list[str]] = Field(default_factory=list, description="A small picture of a table for the "
                                     "lobby's tile: rows of card tokens from the far side to the near one, "
                                     "'#' a card's back, '' an empty place.")


class TableInfo(_Msg):
    """A table in the lobby."""

    id: str
    game: str
    preset: str
    options: dict[str, Any]
    status: Literal["open", "playing", "finished", "abandoned"]
    seats: list[SeatInfo]
    stateVersion: int
    link: str = Field(description="Path to share: GET it for this table, POST …/join to take a seat.")
    gameId: int | None = Field(None, description="The finished game's id (its record is downloadable).")
    series: SeriesInfo | None = Field(None, description="The score of the games at this table (after the first).")
    fair: FairInfo | None = Field(None, description="The fair deal of the game in play or to be dealt: its "
                                  "commitment, published before any nonce is taken (docs/fairness.md); a client "
                                  "pins it and sends its nonce only after seeing it.")
    rated: bool = Field(False, description="A rated table (docs/ratings.md).")


def _leave_out(out: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    for key in keys:
        if out.get(key) is None:
            out.pop(key, None)
    return out


class LastMove(_Msg):
    """The move that led to this position; with ``undone`` the move that was taken back (the
    position is the one before it). The game may tell more of it (``game``: what the move laid face
    up, ...): the log says it in words, and a reload's ``moveLog`` says the same."""

    seat: int
    move: str
    byBot: bool = False
    undone: bool | None = Field(default=None, description="True: the seat took this move back (absent otherwise).")
    game: dict[str, Any] | None = Field(default=None, description="What the game told of the move besides its "
                                        "notation, as its adapter says it (absent: nothing); never a card the "
                                        "audience may not see.")

    @model_serializer(mode="wrap")
    def _leave_out_undone(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _leave_out(handler(self), ("undone", "game"))


class GameEvent(_Msg):
    """One thing a real-time game's engine did (:class:`spite.games.Event`: a move, and what its game
    fires by itself), at the game clock's ``t`` (ms)."""

    t: int
    kind: str = Field(max_length=40, description="What happened: ``move``, or one of the game's own kinds.")
    seat: int | None = None
    text: str = ""
    auto: bool = Field(False, description="A move the engine made for the seat by itself.")


class Words(_Msg):
    """A message for a person as a key of the message catalogue (``/static/messages/en.json``,
    ``de.json``) and its parameters: clients word it in the player's language (docs/protocol.md,
    "Words"). The English ``text``/``message``/``why`` next to it stays for logs and old clients."""

    key: str = Field(description="A key of the message catalogue, e.g. 'refuse.needs.hand'.")
    params: dict[str, str | int] = Field(default_factory=dict,
                                         description="The values of the message's placeholders.")


class FairInfo(_Msg):
    """The fair deal of the game in play (docs/fairness.md): the commitment from the start, the secret
    and the nonces once the game is over."""

    game: int = Field(description="The number of the game at this table (a match's games count 1, 2, ...).")
    commitment: HEX64 = Field(description="SHA-256 of the secret, the table id and the game number (and, scheme "
                              "spite-fair/2, the seat that begins by the rules).")
    scheme: Literal["spite-fair/1", "spite-fair/2", "spite-tournament/1"] = Field(
        "spite-fair/1", description="spite-fair/2 when the commitment binds first too (docs/fairness.md); "
        "spite-tournament/1: a tournament's deal, fixed by the tournament's commitment (docs/tournaments.md).")
    tournament: str | None = Field(default=None, description="spite-tournament/1: the tournament.")
    deal: int | None = Field(default=None, description="spite-tournament/1: the tournament's deal number.")
    first: int | None = Field(default=None, description="The seat the rules let begin (a match's later games), "
                              "bound by the commitment; null: the cut decides.")
    dealt: bool = Field(description="The deal is made: the nonces that count are fixed.")
    sent: list[bool] = Field(description="Per seat: its nonce counts (false: the seat sent none, or is a bot).")
    secret: HEX64 | None = Field(default=None, description="Revealed once the game is over.")
    nonces: list[str | None] | None = Field(default=None,
                                            description="Revealed once the game is over: each seat's nonce.")
    next: HEX64 | None = Field(default=None, description="A match between two games: the next game's commitment (send "
                               "your nonce with next).")

    @model_serializer(mode="wrap")
    def _leave_out_unrevealed(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)
        for key in ("secret", "nonces", "next", "tournament", "deal"):
            if out.get(key) is None:
                out.pop(key, None)
        return out


class TableEvent(_Msg):
    """What changed at a table."""

    kind: Literal["joined", "started", "connected", "disconnected", "takeover", "returned", "abandoned", "ready",
                  "next-game", "rematch-yes", "rematch-no", "rematch", "turn-clock", "idle-takeover", "renamed"]
    seat: int | None = None
    text: str
    words: Words | None = Field(default=None, description="``text`` as a catalogue key (event.KIND) and parameters.")
    seconds: float | None = Field(default=None, description="turn-clock: seconds left to move; idle-takeover: the "
                                  "turn time the seat let pass; abandoned: how long the table waited for a player.")

    @model_serializer(mode="wrap")
    def _leave_out_seconds(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        out: dict[str, Any] = handler(self)  # events without a time stay exactly as they were
        if out.get("seconds") is None:
            out.pop("seconds", None)
        return out


# ====================================================================== server → client
class LoggedMove(_Msg):
    """One entry of the game in play as every seat was told it (the ``welcome``'s ``moveLog``), in the
    order it was told: a move (records.md §2, as the `state`'s `last` named it) with what its game told
    of it besides (``game``: as the move's `last` said it; a real-time game's step time and what else
    happened with it); a move taken back (``undone``, after the move itself); or a table event
    (``event``: a seat taken, a player gone or back, ...) where it happened. Never a hidden card: no
    draw, no shuffle or deal (chance entries), no hand."""

    seat: int | None = Field(description="The seat that moved (null: the game's own time ended it here; an "
                             "event's seat, if it names one).")
    move: str | None = Field(description="The move as the `state`'s `last` named it (null with a null seat, and for "
                             "an event).")
    game: dict[str, Any] | None = Field(default=None, description="What the game told of the step besides its "
                                        "notation, as its adapter says it (absent: nothing).")
    undone: bool | None = Field(default=None, description="True: the seat took this move back here (the move "
                                "itself is the entry before, as it was told).")
    event: TableEvent | None = Field(default=None, description="A table event (the `table` message's `event`) in "
                                     "its place among the moves.")

    @model_serializer(mode="wrap")
    def _leave_out_absent(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # a plain step is just {seat, move}, with what its game told besides
        return _leave_out(handler(self), ("game", "undone", "event"))

    @classmethod
    def of(cls, step: dict[str, Any]) -> LoggedMove:
        """A step as the game's adapter gives it, or an entry the table kept (an event, a move taken back)."""
        return cls(seat=step["seat"], move=step["move"], game=step.get("game"), undone=step.get("undone"),
                   event=step.get("event"))


class Welcome(_OutMsg):
    """The answer to ``hello``: who you are at this table and the position."""

    type: Literal["welcome"] = "welcome"
    table: TableInfo
    seat: int | None = Field(description="Your seat; null for a spectator.")
    stateVersion: int
    view: dict[str, Any]
    legal: list[str] = Field(description="Your legal moves (empty unless you are to move).")
    game: dict[str, Any] | None = Field(default=None, description=GAME_PART)
    fair: FairInfo | None = Field(default=None, description="The deal's commitment (docs/fairness.md).")
    moveLog: list[LoggedMove] = Field(default_factory=list, description="The game in play so far as every seat "
                                      "was told it, oldest first: its newest entries (at most 200).")
    moveLogStart: int | None = Field(default=None, description="How many older entries of the game the moveLog "
                                     "leaves out (absent: none).")


class StateMessage(_OutMsg):
    """The position after a change (or in answer to ``sync``)."""

    type: Literal["state"] = "state"
    stateVersion: int
    view: dict[str, Any]
    legal: list[str]
    last: LastMove | None = None
    game: dict[str, Any] | None = Field(default=None, description=GAME_PART + " A real-time game's part of a "
                                        "change tells what happened, in order (``events``).")
    fair: FairInfo | None = Field(default=None, description="The deal's commitment (docs/fairness.md).")


class Ack(_OutMsg):
    """Your move was accepted and stored."""

    type: Literal["ack"] = "ack"
    id: str | None = None
    move: str
    stateVersion: int = Field(description="The version after the move.")
    undone: bool | None = Field(default=None, description="True: the answer to undo; ``move`` was taken back.")
    game: dict[str, Any] | None = Field(default=None, description=GAME_PART + " A real-time game's: the game "
                                        "clock (ms) at which the move landed (``t``).")


class TableMessage(_OutMsg):
    """Seats or status changed (a join, a drop, a bot taking over, a return, the start; at a match
    table a seat ready for the next game, or the next game's start)."""

    type: Literal["table"] = "table"
    table: TableInfo
    event: TableEvent
    game: dict[str, Any] | None = Field(default=None, description=GAME_PART)
    fair: FairInfo | None = Field(default=None, description="A table abandoned before its game was dealt: the "
                                  "game's secret, revealed (docs/fairness.md).")


class GameOver(_OutMsg):
    """The game has ended; its record is at ``recordUrl``."""

    type: Literal["gameOver"] = "gameOver"
    stateVersion: int
    result: dict[str, Any]
    gameId: int | None
    recordUrl: str | None
    final: bool = Field(default=True, description="The table's last game: none follows but a rematch (false: the "
                        "table's games go on, as a match's next game).")
    game: dict[str, Any] | None = Field(default=None, description=GAME_PART)
    fair: FairInfo | None = Field(default=None, description="The game's secret and nonces, revealed.")
    series: SeriesInfo | None = Field(default=None, description="The score of the games at this table so far.")
    rematch: RematchInfo | None = Field(default=None, description="The table is finished: who wants another game.")


class RematchState(_OutMsg):
    """Someone answered the rematch question (``rematch``): who is ready, who is still asked."""

    type: Literal["rematch"] = "rematch"
    rematch: RematchInfo
    series: SeriesInfo | None = None


class HintMessage(_Msg):
    """The answer to ``hint``: what a bot would play for your seat in the position ``stateVersion``."""

    type: Literal["hint"] = "hint"
    move: str = Field(description="A legal move of your seat, in the notation.")
    why: str = Field(description="One line on why.")
    stateVersion: int = Field(description="The position the hint is for (it may have changed since).")
    id: str | None = None
    whyWords: list[Words] = Field(default_factory=list,
                                  description="``why`` as catalogue phrases, worded in order and joined by '; ' "
                                  "(empty when the bot gives none: show ``why``).")


class Pong(_Msg):
    """The answer to ``ping``."""

    type: Literal["pong"] = "pong"
    id: str | None = None


ErrorCode = Literal[
    "bad-json", "unknown-message", "bad-message", "too-long", "flood", "hello-first", "already-hello",
    "wrong-token", "no-table", "not-your-seat", "not-your-turn", "not-started", "game-over", "stale",
    "illegal", "too-late", "storage", "internal", "nothing-to-undo", "no-next-game", "hello-timeout",
    "too-many-sockets", "no-rematch", "no-hints", "banned",
]


class ErrorMessage(_Msg):
    """Something was refused. The game is unchanged."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str = Field(description="One line for a person.")
    id: str | None = None
    stateVersion: int | None = None
    words: Words | None = Field(default=None, description="``message`` as a catalogue key and parameters: a "
                                "refusal's reason (refuse.…) or error.CODE.")


def error_text(code: str, message: str, *, msg_id: str | None = None, version: int | None = None,
               phrase: Phrase | None = None) -> str:
    """An ``error`` message as JSON text. Text a client sent, echoed in it, cannot break the frame: a
    lone surrogate is no UTF-8 and would make the JSON unsendable, so it becomes "?". ``phrase`` is the
    message as a catalogue key and parameters (``error.CODE`` when not given)."""
    phrase = phrase or Phrase(f"error.{code}")
    params = {k: _utf8(v) if isinstance(v, str) else v for k, v in phrase.params.items()}
    return ErrorMessage(code=code, message=_utf8(message), id=None if msg_id is None else _utf8(msg_id),  # type: ignore[arg-type]
                        stateVersion=version, words=Words(key=phrase.key, params=params)).model_dump_json()


def ack_text(move: str, version: int, *, msg_id: str | None = None, undone: bool | None = None,
             game: dict[str, Any] | None = None) -> str:
    """An ``ack`` message as JSON text: the same text as :class:`Ack`'s ``model_dump_json``, made
    without building the model (one goes out with every move)."""
    out: dict[str, Any] = {"type": "ack", "id": None if msg_id is None else _utf8(msg_id), "move": move,
                           "stateVersion": version}
    if undone is not None:
        out["undone"] = undone
    if game:
        out["game"] = game
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False)


def _utf8(text: str) -> str:
    return text.encode("utf-8", "replace").decode("utf-8")


# ====================================================================== REST
BOT_LEVEL = Annotated[str, Field(pattern=r"^[a-z]{1,20}(:[0-9]{1,5})?$")]
"""A bot level as a request names it: a word, maybe with a number (``reflex:250``). Which levels a
game's seats take, its adapter says (``GameType.levels``; a level it has not is refused, 400)."""


class SeatRequest(_Msg):
    """One seat of a new table: a person (who joins by the link) or a bot of a level (one of the game's
    ``GameType.levels``; a game may take more, as ``reflex:MS`` at real-time tables)."""

    kind: Literal["person", "bot"]
    level: BOT_LEVEL | None = None


class CreateTableRequest(_Msg):
    """Create a table. The creator takes the first person seat unless ``join`` is false."""

    game: GAME_NAME = Field(DEFAULT_GAME, description="A registered game (spite.games); default: the first registered.")
    preset: str | None = Field(None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatRequest] | None = Field(None, description="One per player; default: all persons.")
    name: NAME = "guest"
    playerKey: PLAYER_KEY | None = Field(None, description="Your secret player key: the games of this seat count "
                                          "for the player id made from it (returned as playerId).")
    join: bool = Field(True, strict=True)
    rated: bool = Field(False, strict=True, description="A rated table: its games change the ratings of its "
                        "players, who all need a player key (docs/ratings.md).")


class JoinRequest(_Msg):
    """Take a free person seat (the first one, or ``seat``)."""

    name: NAME = "guest"
    playerKey: PLAYER_KEY | None = Field(None, description="Your secret player key: the games of this seat count "
                                          "for the player id made from it (returned as playerId).")
    seat: int | None = Field(None, ge=0, le=64)


class QuickPlayRequest(_Msg):
    """A game against bots, started at once: you take seat 0, bots of ``level`` every other seat
    (as many as the game's preset has: two for a 3-player party, three for partners)."""

    name: NAME = "guest"
    game: GAME_NAME = Field(DEFAULT_GAME, description="A registered game (spite.games); default: the first registered.")
    playerKey: PLAYER_KEY | None = Field(None, description="Your secret player key: the games of this seat count "
                                          "for the player id made from it (returned as playerId).")
    level: BOT_LEVEL | None = Field(None, description="The bots' level (default: the game's own, "
                                    "GameType.defaultLevel).")
    preset: str | None = Field(None, max_length=40, description="Default: the game's default preset.")
    options: dict[str, Any] = Field(default_factory=dict)
    rated: bool = Field(False, strict=True, description="Rated: the computer plays at its level's rating "
                        "(docs/ratings.md); needs a player key.")


class SeekRequest(_Msg):
    """Play a person now: wait for someone near your rating who wants the same game (docs/protocol.md,
    "Play a person")."""

    game: GAME_NAME = Field(DEFAULT_GAME, description="A registered game (spite.games); default: the first registered.")
    preset: str | None = Field(None, max_length=40, description="Default: the game's default preset.")
    rated: bool = Field(True, strict=True,
                        description="Rated (docs/ratings.md) or casual: the two are never paired.")
    name: NAME = "guest"
    playerKey: PLAYER_KEY = Field(description="Your secret player key: one seek per key; the rating it pairs by.")
    computerAfter: float | None = Field(30.0, ge=0, le=3600, description="Seconds to wait for a person before "
                                        "a computer near your rating takes the other seat; null: never.")


class SeekMatch(_Msg):
    """Where a paired seek sits: its table, its seat and the seat's secret token."""

    table: str
    seat: int
    token: str
    ws: str
    computer: str | None = Field(None, description="Paired with a computer of this level (null: with people).")


class SeekInfo(_Msg):
    """A seek as it stands."""

    id: str = Field(description="The seek's id (secret: whoever knows it gets its seat's token).")
    state: Literal["waiting", "matched", "cancelled", "expired"]
    game: str
    preset: str
    rated: bool
    group: str = Field(description="The rules group it is rated in (docs/ratings.md).")
    rating: int = Field(description="The seeker's shown rating in that group.")
    waited: float = Field(description="Seconds since the seek was made.")
    window: float = Field(description="How far (shown points) from the seeker's skill a partner may be now.")
    computerAfter: float | None
    matched: SeekMatch | None = None


class JoinedInfo(_Msg):
    """Your seat and its secret token (keep it: it is the only way to act for this seat)."""

    table: TableInfo
    seat: int
    token: str
    ws: str = Field(description="WebSocket path; send hello with the token first.")
    playerId: str | None = Field(None, description="The player id the seat's games count for (from playerKey).")


class GameInfo(_Msg):
    """A finished game."""

    id: int
    tableId: str
    game: str
    preset: str
    result: dict[str, Any]
    plies: int
    turns: int
    finishedAt: float
    players: list[dict[str, Any]]
    recordUrl: str


class StatsInfo(_Msg):
    """A player's statistics per game and preset (bots are players named ``bot:LEVEL``): only the games
    they played to the end; ``takenOver`` per preset counts those a takeover bot finished for them."""

    player: str
    presets: list[dict[str, Any]]


class PositionsInfo(_Msg):
    """A finished game replayed: the whole table before the first move and after each.

    ``moves`` are the game's steps ``{seat, move}`` and what its replay adds to them (a real-time
    game: the step's time ``t`` and ``events``, ``seat`` and ``move`` null where the game's own time
    ended it), positions ``show --json`` of the whole table (a real-time game's with its clock); the
    game's adapter makes both (``ServerGame.positions``, docs/protocol.md).
    """

    gameId: int
    tableId: str
    game: str
    preset: str
    options: dict[str, Any]
    players: list[dict[str, Any]] = Field(description="Per seat: seat, player, isBot, won, points.")
    moves: list[dict[str, Any]] = Field(
        description="Each move: {seat, move} in the notation and what the game's replay adds.")
    positions: list[dict[str, Any]] = Field(
        description="len(moves) + 1 positions (``show --json`` of the whole table, every card shown).")
    result: dict[str, Any]


# ====================================================================== tournaments (docs/protocol.md, "Tournaments")
class CreateTournamentRequest(_Msg):
    """A new club tournament (docs/tournaments.md): Swiss (``rounds``) or arena (``minutes``)."""

    game: GAME_NAME = Field(DEFAULT_GAME, description="A registered two-player game.")
    preset: str | None = Field(None, max_length=40, description="Default: the game's default preset.")
    options: dict[str, Any] = Field(default_factory=dict, description="The game's options every table of the "
                                    "tournament plays with, as a table takes them (e.g. {\"stock_size\": 5}); "
                                    "a rated tournament plays the preset as it is.")
    system: Literal["swiss", "arena"] = "swiss"
    rounds: int = Field(3, ge=1, le=15, description="Swiss: how many rounds.")
    minutes: float = Field(30, ge=1, le=240, description="Arena: how long it runs.")
    rated: bool = Field(False, strict=True, description="Each game rated as any rated game (docs/ratings.md).")
    playerKey: PLAYER_KEY = Field(description="The creator's secret player key: only they start it and add computers.")
    name: NAME = "guest"
    grace: float = Field(60, ge=10, le=600, description="Seconds a person has to come to their table before "
                         "losing that game.")


class TournamentJoinRequest(_Msg):
    """Enter a tournament: a person with their key, or (its creator) a computer of ``computer``'s level."""

    playerKey: PLAYER_KEY
    name: NAME | None = None
    computer: BOT_LEVEL | None = Field(None, description="The creator enters a computer of this level.")


class TournamentKeyRequest(_Msg):
    """A request that only names who asks (start, leave)."""

    playerKey: PLAYER_KEY


class TournamentEntrant(_Msg):
    id: str
    name: str
    computer: str | None = Field(description="A computer entrant's level (null: a person).")
    withdrawn: bool = False


class TournamentStanding(_Msg):
    rank: int = Field(description="Equal on points and tiebreaks: the same rank (1, 2, 2, 4, ...).")
    entrant: str
    name: str
    points: float = Field(description="Swiss: match points (games won, a draw a half, a bye 1); arena: points.")
    games: int
    wins: int
    tiebreak: float | None = Field(description="Swiss: the duplicate comparison on the same deals (null: arena).")
    buchholz: float | None = Field(description="Swiss: the opponents' match points (null: arena).")
    streak: int | None = Field(description="Arena: wins in a row now (null: Swiss).")
    withdrawn: bool


class TournamentPairing(_Msg):
    number: int = Field(description="1, 2, ... over the tournament (an arena's deal number).")
    deal: int
    entrants: list[str] = Field(description="Two entrant ids (game 1: the first at seat 0), or one: a bye.")
    tables: list[str]
    games: list[int]
    points: dict[str, float] | None = Field(description="Each entrant's points of the pairing (null while it plays).")


class TournamentRound(_Msg):
    number: int = Field(description="The Swiss round (an arena's pairings are all round 0).")
    deal: int | None = Field(description="Swiss: the round's deal, played at every table (null: arena).")
    pairings: list[TournamentPairing]


class TournamentFair(_Msg):
    scheme: Literal["spite-tournament/1"] = "spite-tournament/1"
    commitment: HEX64
    secret: HEX64 | None = Field(description="Revealed once the tournament is finished.")


class TournamentInfo(_Msg):
    """A tournament as everyone sees it (``rounds`` left out of lists)."""

    id: str
    game: str
    preset: str | None
    options: dict[str, Any] = Field(description="The game's options its tables play with ({}: the preset as it is).")
    system: Literal["swiss", "arena"]
    roundCount: int | None = Field(description="Swiss: how many rounds it has (null: an arena).")
    minutes: float | None
    rated: bool
    grace: float
    creator: str
    state: Literal["open", "playing", "finished"]
    version: int
    round: int
    startedAt: float | None
    endsAt: float | None
    nextRoundAt: float | None
    now: float
    entrants: list[TournamentEntrant]
    standings: list[TournamentStanding]
    rounds: list[TournamentRound] | None = Field(None, description="Every round so far (left out of lists).")
    fair: TournamentFair


class TournamentJoined(_Msg):
    entrant: TournamentEntrant
    tournament: TournamentInfo


class NextTable(_Msg):
    """A person's current or next table in a tournament (``GET /api/tournaments/{id}/next``)."""

    state: Literal["waiting", "seated", "finished", "withdrawn", "bye"]
    round: int
    table: str | None = None
    seat: int | None = None
    token: str | None = None
    ws: str | None = None
    game: int | None = Field(None, description="Which game of the pairing (1 or 2).")
