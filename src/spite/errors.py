"""Exceptions shared by every layer.

Each carries a message written for a player or a user of the ``spite`` command: one line, no
jargon, saying what was wrong. The command-line front end turns them into exit codes
(``IllegalMoveError`` → 1, the others → 2).
"""

from __future__ import annotations


class SpiteError(Exception):
    """Base of every error the project raises on purpose."""


class OptionsError(SpiteError, ValueError):
    """An unknown preset or option, a bad option value, or options that do not make sense together."""


class CardError(SpiteError, ValueError):
    """A card token that names no card of the deck in play."""


class IllegalMoveError(SpiteError, ValueError):
    """A move that may not be made in the current position (or that names no move of this game)."""


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

    def __init__(self, ply: int, move: str, message: str) -> None:
        super().__init__(message)
        self.ply = ply
        self.move = move
        self.message = message


class DealError(MalformedRecordError):
    """An explicit start position that is not one of the game: wrong cards, wrong shape."""


class ChanceError(MalformedRecordError):
    """A given chance outcome that is not a permutation of exactly the cards being shuffled."""
