"""Provably fair deals: the commitment to a game's secret and the seed its deal comes from.

A server that deals a game draws a random 32-byte *secret* first and publishes its commitment,
before any card is seen::

    commitment = SHA-256( secret (32 bytes)
                        ‖ len(table) (1 byte) ‖ table (UTF-8)
                        ‖ game (4 bytes, unsigned big-endian) )

``table`` is the table's id and ``game`` the number of the game at that table (1, 2, ... for the
games of a match). Where the rules, not the cut, say who begins (a match's later games: the loser of
the game before), that seat is known when the secret is drawn and is bound by the commitment too
(scheme ``spite-fair/2``): one more byte, the seat, at the end of the hashed input. Every seat's client
may send a random 16-byte *nonce*; the deal is made from::

    seed = SHA-256( "spite-seed/1" (12 ASCII bytes) ‖ secret
                  ‖ len(table) (1 byte) ‖ table (UTF-8) ‖ game (4 bytes, big-endian)
                  ‖ seats (1 byte)
                  ‖ for each seat in seat order: 0x00 (no nonce) or 0x01 ‖ nonce (16 bytes) )

written as 64 lower-case hex digits: that text is the game's ``seed`` (records.md §3), from which the
engine makes the deal and every later shuffle. The server cannot choose the deal (the secret is fixed
by the commitment before any nonce is known) and no player can (the secret is unknown to them until
the game is over). After the game the secret and the nonces are revealed: anyone can recompute the
commitment, the seed, and with the engine every chance outcome (``spite verify``, docs/fairness.md).

Only :mod:`hashlib`: no I/O, no clock, no randomness (the server draws the secret with
:mod:`secrets`).

>>> secret = bytes(range(32))                      # 00 01 02 ... 1f
>>> commitment(secret, "T1", 1)
'1513902869df6614a2210d689e57ccd1b6b085723db5c34d24a07e5f18469586'
>>> game_seed(secret, "T1", 1, [bytes(range(16)), None])   # seat 0 sent 00 01 ... 0f, seat 1 none
'0dc36417c4a3cbb01562a2fb5d11e292e262beec0c441aacfaf807fadf357f7b'
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

__all__ = [
    "NONCE_BYTES",
    "SCHEME",
    "SCHEME_FIRST",
    "SECRET_BYTES",
    "SEED_TAG",
    "commitment",
    "fingerprint",
    "game_seed",
    "parse_hex",
    "parse_nonce",
    "parse_secret",
    "scheme_of",
    "seed_input",
]

SCHEME = "spite-fair/1"
"""The name of this scheme, written in every record it made (records.md §3 ``fairness``)."""
SCHEME_FIRST = "spite-fair/2"
"""The scheme of a game whose first player the rules chose: its commitment binds that seat too."""
SECRET_BYTES = 32
"""Length of the server's secret."""
NONCE_BYTES = 16
"""Length of a seat's nonce (sent as 32 lower-case hex digits)."""
SEED_TAG = b"spite-seed/1"
"""What the seed's hash input begins with, so that it can never be a commitment's input."""

_HEX = re.compile(r"[0-9a-f]*")


def _table_game(table: str, game: int) -> bytes:
    raw = table.encode("utf-8")
    if not 1 <= len(raw) <= 255:
        raise ValueError(f"a table id has 1 to 255 bytes, not {len(raw)}")
    if not 0 <= game < 2**32:
        raise ValueError(f"a game number is 0 to 2^32-1, not {game}")
    return bytes([len(raw)]) + raw + game.to_bytes(4, "big")


def _check_secret(secret: bytes) -> None:
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a secret has {SECRET_BYTES} bytes, not {len(secret)}")


def scheme_of(first: int | None) -> str:
    """The scheme of a deal: ``spite-fair/2`` when the rules chose the first player, else ``spite-fair/1``."""
    return SCHEME if first is None else SCHEME_FIRST


def commitment(secret: bytes, table: str, game: int, first: int | None = None) -> str:
    """The commitment to ``secret`` for game ``game`` of table ``table`` (64 hex digits); with ``first``
    (the seat the rules let begin, scheme ``spite-fair/2``) that seat as one more byte.

    >>> commitment(bytes(32), "abc", 1)
    '07a1c9eb934f7091ac7e5f69c84eae3d880fd44ab17deae255646e1660178f35'
    >>> commitment(bytes(32), "abc", 2, first=1)
    'c86c71112768aa5b49751f3ecbc59fd985389eed19560f4175170018938eb147'
    """
    _check_secret(secret)
    tail = b""
    if first is not None:
        if not 0 <= first < 255:
            raise ValueError(f"a first seat is 0 to 254, not {first}")
        tail = bytes([first])
    return hashlib.sha256(secret + _table_game(table, game) + tail).hexdigest()


def seed_input(secret: bytes, table: str, game: int, nonces: Sequence[bytes | None]) -> bytes:
    """The bytes :func:`game_seed` hashes (the layout of the module's text)."""
    _check_secret(secret)
    if not 1 <= len(nonces) <= 255:
        raise ValueError(f"a game has 1 to 255 seats, not {len(nonces)}")
    out = bytearray(SEED_TAG + secret + _table_game(table, game) + bytes([len(nonces)]))
    for nonce in nonces:
        if nonce is None:
            out.append(0)
        elif len(nonce) != NONCE_BYTES:
            raise ValueError(f"a nonce has {NONCE_BYTES} bytes, not {len(nonce)}")
        else:
            out.append(1)
            out += nonce
    return bytes(out)


def game_seed(secret: bytes, table: str, game: int, nonces: Sequence[bytes | None]) -> str:
    """The seed (64 hex digits) of game ``game`` of ``table`` from the secret and each seat's nonce
    (``None``: the seat sent none), in seat order."""
    return hashlib.sha256(seed_input(secret, table, game, nonces)).hexdigest()


def fingerprint(commitment_hex: str) -> str:
    """The short form of a commitment people compare by eye: its first 12 hex digits in groups of 4.

    >>> fingerprint("0123456789abcdef" * 4)
    '0123-4567-89ab'
    """
    head = commitment_hex[:12]
    return "-".join(head[i:i + 4] for i in range(0, len(head), 4))


def parse_hex(text: object, size: int, what: str) -> bytes:
    """``text`` as exactly ``size`` bytes written as ``2 * size`` lower-case hex digits; raises
    :class:`ValueError` with one line naming ``what`` otherwise."""
    if not isinstance(text, str) or len(text) != 2 * size or not _HEX.fullmatch(text):
        raise ValueError(f"{what} must be {2 * size} lower-case hex digits")
    return bytes.fromhex(text)


def parse_secret(text: object) -> bytes:
    """A secret as records and messages write it (64 lower-case hex digits)."""
    return parse_hex(text, SECRET_BYTES, "the secret")


def parse_nonce(text: object) -> bytes:
    """A nonce as a client sends it (32 lower-case hex digits)."""
    return parse_hex(text, NONCE_BYTES, "a nonce")
