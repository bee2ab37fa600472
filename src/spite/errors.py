"""Exceptions shared by every layer.

Each carries a message written for a player or a user of the ``spite`` command: one line, no
jargon, saying what was wrong. The command-line front end turns them into exit codes
(``IllegalMoveError`` → 1, the others → 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

Param = str | int
"""A parameter of a :class:`Phrase`: a number, a name, a card token or a rank token."""


class Phrase(NamedTuple):
    """What happened, as a key of the message catalogue (``spite/web/static/messages/*.json`` and each
    game family's ``words/*.json``, see :mod:`spite.catalogue`) and its parameters; the page and the
    terminal app word it in the player's language.

    Parameters are plain values; the catalogue's placeholders say how to word them
    (``{card|card}`` a card token, ``{need|a}`` a rank token with its article, ``{seat|seat}`` a
    0-based seat). See docs/protocol.md, "Words".
    """

    key: str
    params: Mapping[str, Param] = {}

    def as_json(self) -> dict[str, object]:
        """``{"key": …, "params": {…}}`` as the server sends it."""
        return {"key": self.key, "params": dict(self.params)}


class SpiteError(Exception):
    """Base of every error the project raises on purpose.

    ``phrase`` (optional) is the same message as a catalogue key with parameters, so that user
    interfaces can word it in the player's language; ``str(error)`` stays the English line.
    """

    def __init__(self, *args: object, phrase: Phrase | None = None) -> None:
        super().__init__(*args)
        self.phrase = phrase


def refusal(message: str, key: str, **params: Param) -> IllegalMoveError:
    """An :class:`IllegalMoveError` with its English ``message`` and catalogue ``key``/``params``."""
    return IllegalMoveError(message, phrase=Phrase(key, params))


def too_late(message: str, key: str, **params: Param) -> IllegalMoveError:
    """A :func:`refusal` of a move that lost a race in a real-time game (another move got there
    first): the server answers it ``too-late`` rather than ``illegal``."""
    error = refusal(message, key, **params)
    error.lost_race = True
    return error


class OptionsError(SpiteError, ValueError):
    """An unknown preset or option, a bad option value, or options that do not make sense together."""


class CardError(SpiteError, ValueError):
    """A card token that names no card of the deck in play."""


class IllegalMoveError(SpiteError, ValueError):
    """A move that may not be made in the current position (or that names no move of this game)."""

    lost_race: bool = False
    """The move would have been legal a moment ago: another move got there first (:func:`too_late`)."""


class MalformedRecordError(SpiteError, ValueError):
    """A game record that cannot be read: bad JSON, unknown option, bad card, a deal that does not
    match the deck, a missing or wrong chance entry."""


class MissingChanceError(MalformedRecordError):
    """The rules call for a shuffle, but the record gives no outcome and has no seed."""


class RecordMoveError(IllegalMoveError):
    """A move entry of a record that may not be played where it stands.

    ``ply`` is the 0-based index of the entry in the record's ``moves``; ``move`` its text as
    written (or its JSON for a Spit move object).
    """

    def __init__(self, ply: int, move: str, message: str, phrase: Phrase | None = None) -> None:
        super().__init__(message, phrase=phrase)
        self.ply = ply
        self.move = move
        self.message = message


class DealError(MalformedRecordError):
    """An explicit start position that is not one of the game: wrong cards, wrong shape."""


class ChanceError(MalformedRecordError):
    """A given chance outcome that is not a permutation of exactly the cards being shuffled."""
