"""A tournament's deals, fixed in advance: the commitment and every deal's seed (scheme ``spite-tournament/1``).

When a tournament is created the server draws one 32-byte *secret* S (never here: this module draws
nothing) and publishes its commitment before round 1::

    commitment = SHA-256( "spite-tournament/1" (18 ASCII bytes) ‖ S
                        ‖ len(id) (1 byte) ‖ id (UTF-8) )

Every deal of the tournament comes from S. Deal ``n`` (Swiss: the round number, the same deal at every
table of the round, both games, seats swapped; arena: the n-th pairing made) is played from::

    seed(n)    = SHA-256( "spite-tourney/1" (15 ASCII bytes) ‖ S ‖ len(id) ‖ id ‖ n (4 bytes, big-endian) )
    seed(n, k) = SHA-256( "spite-tourney/1" ‖ S ‖ len(id) ‖ id ‖ n (4) ‖ k (4) )     for k ≥ 2

written as 64 lower-case hex digits (the game's ``seed``, records.md §3); ``k`` numbers the later games
of a match preset at the same table. No player can know a deal before it is played (S is secret until
the tournament ends), and the server cannot pick one deal for one table: the commitment fixed them all.
A tournament game's record carries ``fairness`` = ``{"scheme": "spite-tournament/1", "tournament": ID,
"deal": n, "commitment": C, "secret": hex or null}`` (with ``"game": k`` for k ≥ 2); :func:`verify` checks
it against the revealed secret.

Only :mod:`hashlib`: no I/O, no clock, no randomness.

>>> secret = bytes(range(32))                      # 00 01 02 ... 1f
>>> commitment(secret, "t1")
'3c8ff99ab421f87e9a8e0b04ed44f8948055a8d10e78986bb62195040eebcb21'
>>> deal_seed(secret, "t1", 1)
'dffc2fa34f657e4af62526e2997a3ddd38662fcea193a19ba98359a2dbf93732'
>>> deal_seed(secret, "t1", 1, game=2)
'279c98a3ae8459b65d690ae3947f6a0e3b5c3183301f8e7d011df79ff93a69b4'
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "COMMIT_TAG",
    "SCHEME",
    "SECRET_BYTES",
    "SEED_TAG",
    "DealVerdict",
    "commitment",
    "deal_seed",
    "fairness",
    "parse_secret",
    "verify",
]

SCHEME = "spite-tournament/1"
"""The scheme's name, written in every tournament game's record (``fairness.scheme``)."""
COMMIT_TAG = b"spite-tournament/1"
"""What the commitment's hash input begins with."""
SEED_TAG = b"spite-tourney/1"
"""What a deal seed's hash input begins with (so that it is never a commitment's input)."""
SECRET_BYTES = 32
"""Length of the tournament's secret."""

_HEX = re.compile(r"[0-9a-f]*")


def _check_secret(secret: bytes) -> None:
    if len(secret) != SECRET_BYTES:
        raise ValueError(f"a tournament secret has {SECRET_BYTES} bytes, not {len(secret)}")


def _tournament(tournament_id: str) -> bytes:
    raw = tournament_id.encode("utf-8")
    if not 1 <= len(raw) <= 255:
        raise ValueError(f"a tournament id has 1 to 255 bytes, not {len(raw)}")
    return bytes([len(raw)]) + raw


def _u32(value: int, what: str) -> bytes:
    if not 0 <= value < 2**32:
        raise ValueError(f"{what} is 0 to 2^32-1, not {value}")
    return value.to_bytes(4, "big")


def commitment(secret: bytes, tournament_id: str) -> str:
    """The commitment (64 hex digits) to the tournament's ``secret``, published from creation.

    >>> commitment(bytes(32), "abc") == hashlib.sha256(b"spite-tournament/1" + bytes(32) + b"\\x03abc").hexdigest()
    True
    """
    _check_secret(secret)
    return hashlib.sha256(COMMIT_TAG + secret + _tournament(tournament_id)).hexdigest()


def deal_seed(secret: bytes, tournament_id: str, n: int, game: int = 1) -> str:
    """The seed (64 hex digits) of deal ``n`` (1, 2, ...); ``game`` ≥ 2 for a match preset's later games
    at the same table (4 more bytes), game 1 has none.

    >>> deal_seed(bytes(32), "abc", 3) == hashlib.sha256(
    ...     b"spite-tourney/1" + bytes(32) + b"\\x03abc" + b"\\x00\\x00\\x00\\x03").hexdigest()
    True
    """
    _check_secret(secret)
    if n < 1:
        raise ValueError(f"a deal number is 1 or more, not {n}")
    if game < 1:
        raise ValueError(f"a game number is 1 or more, not {game}")
    tail = _u32(n, "a deal number") + (_u32(game, "a game number") if game >= 2 else b"")
    return hashlib.sha256(SEED_TAG + secret + _tournament(tournament_id) + tail).hexdigest()


def fairness(tournament_id: str, n: int, commitment_hex: str, secret: bytes | None, game: int = 1) -> dict[str, Any]:
    """The ``fairness`` object of a tournament game's record (the secret ``None`` until the tournament ends)."""
    out: dict[str, Any] = {"scheme": SCHEME, "tournament": tournament_id, "deal": n,
                           "commitment": commitment_hex, "secret": None if secret is None else secret.hex()}
    if game >= 2:
        out["game"] = game
    return out


def parse_secret(text: object) -> bytes:
    """A secret written as 64 lower-case hex digits; :class:`ValueError` with one line otherwise."""
    if not isinstance(text, str) or len(text) != 2 * SECRET_BYTES or not _HEX.fullmatch(text):
        raise ValueError(f"the tournament's secret must be {2 * SECRET_BYTES} lower-case hex digits")
    return bytes.fromhex(text)


@dataclass(frozen=True)
class DealVerdict:
    """What :func:`verify` found; ``line`` says it in one line, ``seed`` is the deal's seed when it follows."""

    fair: bool
    line: str
    where: str | None = None
    """What does not follow: ``commitment`` or ``seed``."""
    seed: str | None = None


def verify(data: Mapping[str, Any] | None, record_seed: object, secret: bytes | None = None) -> DealVerdict:
    """Check a record's ``fairness`` object of scheme ``spite-tournament/1`` against the revealed secret
    (``secret``, else the one the object carries): the commitment is the secret's, and the record's seed
    (``record_seed``) is the seed of the deal it names. Raises :class:`ValueError` (one line) for an
    object that cannot be read, or when no secret is known yet.

    >>> s = bytes(range(32))
    >>> f = fairness("t1", 2, commitment(s, "t1"), s)
    >>> verify(f, deal_seed(s, "t1", 2)).line
    'fair: the commitment and the seed of deal 2 follow from the revealed secret (tournament t1)'
    >>> verify(f, deal_seed(s, "t1", 3)).where
    'seed'
    """
    if data is None:
        raise ValueError("the record has no fairness object: it was not dealt in a tournament")
    if not isinstance(data, Mapping) or data.get("scheme") != SCHEME:
        raise ValueError(f"fairness: scheme must be {SCHEME!r}")
    tournament, n, game = data.get("tournament"), data.get("deal"), data.get("game", 1)
    if not isinstance(tournament, str) or not 1 <= len(tournament.encode("utf-8")) <= 255:
        raise ValueError("fairness: tournament must be the tournament's id (1 to 255 bytes)")
    for value, what in ((n, "deal"), (game, "game")):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < 2**32:
            raise ValueError(f"fairness: {what} must be a number from 1")
    assert isinstance(n, int) and isinstance(game, int)
    committed = data.get("commitment")
    if not isinstance(committed, str) or len(committed) != 64 or not _HEX.fullmatch(committed):
        raise ValueError("fairness: the commitment must be 64 lower-case hex digits")
    if secret is None:
        if data.get("secret") is None:
            raise ValueError("the tournament's secret is not revealed yet (it is, once the tournament is finished): "
                             "give it with --secret HEX")
        secret = parse_secret(data.get("secret"))
    elif data.get("secret") is not None and parse_secret(data.get("secret")) != secret:
        return DealVerdict(False, "not fair: the record reveals another secret than the one given", "commitment")
    _check_secret(secret)
    if commitment(secret, tournament) != committed:
        return DealVerdict(False, f"not fair: the commitment {committed[:12]}… is not the one of the revealed secret "
                           f"(tournament {tournament})", "commitment")
    seed = deal_seed(secret, tournament, n, game)
    if record_seed is not None and str(record_seed) != seed:
        return DealVerdict(False, f"not fair: the record's seed is not the seed of deal {n} (tournament {tournament})",
                           "seed")
    which = f"deal {n}" if game == 1 else f"deal {n}, game {game}"
    return DealVerdict(True, f"fair: the commitment and the seed of {which} follow from the revealed secret "
                       f"(tournament {tournament})", None, seed)
