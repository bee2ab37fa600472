"""A table's seats, the secrets that open them, and the lobby's refusals.

Nothing here knows a socket or a clock: a :class:`Seat` names its connections by the numbers the
host gave them, and remembers since when its person is away (in the core's clock).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from spite.errors import Phrase, SpiteError
from spite.server.protocol import SeatInfo, SeatRating

__all__ = ["PLAYER_ID", "LobbyError", "Seat", "address_key", "hash_token", "new_token", "player_id", "seat_for_token"]

PLAYER_ID = re.compile(r"p-[0-9a-f]{24}")
"""What a player id looks like (:func:`player_id`)."""


class LobbyError(SpiteError):
    """A lobby request that cannot be done; ``status`` is the HTTP status to answer with, ``key``
    and ``params`` the catalogue's message (sent as ``words`` next to ``detail``)."""

    def __init__(self, message: str, status: int = 400, key: str | None = None, **params: str | int) -> None:
        super().__init__(message, phrase=Phrase(key, params) if key is not None else None)
        self.status = status

    @classmethod
    def of(cls, error: SpiteError, status: int = 400) -> LobbyError:
        """A refusal that says what ``error`` (e.g. the engine's bad options) says, words and all."""
        refusal = cls(str(error), status)
        refusal.phrase = error.phrase
        return refusal


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
    seat a bot took over; ``level`` is then the bot's level).
    """

    seat: int
    kind: str
    level: str | None
    player: str | None
    token_hash: str | None
    controller: str
    player_id: str | None = None
    """Whose statistics the seat's games count for (from the player's secret key); ``None``: a guest's
    (counted under the name alone)."""
    conns: set[int] = field(default_factory=set)
    """The connections of this seat's person (a page and a terminal at once are allowed)."""
    away_since: float | None = None
    """Since when this person seat, taken and in play, has had no connection (its grace time runs)."""
    address: str | None = None
    """A hash of the address its person sat down from (:func:`address_key`): at a rated table one
    address plays one side only."""
    rating: SeatRating | None = None
    """At a rated table: its person's rating in the table's rules group (``None``: a guest, a
    computer, a casual table)."""

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
                        botLevel=self.level if self.controller == "bot" else None,
                        rating=self.rating if self.player_id is not None else None)

    def player_name(self) -> str:
        """The name statistics count this seat under."""
        if self.kind == "bot":
            return f"bot:{self.level}"
        return self.player or "guest"

    def shown_name(self) -> str:
        """The name the table's events show."""
        return self.player or self.player_name()

    @property
    def is_person(self) -> bool:
        """A seat a person plays now (not a bot, not free)."""
        return self.controller == "person"


def seat_for_token(seats: Iterable[Seat], token: str) -> Seat | None:
    """The seat whose token this is, or ``None`` (compared in constant time)."""
    digest = hash_token(token)
    for s in seats:
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
            return s
    return None
