"""A table's fair deal (docs/fairness.md): the secret, the commitment, the seats' nonces, the reveal.

Each game at a table has a :class:`FairDeal`. It is drawn (a 32-byte secret from the table's entropy) before
any card of the game is seen: when the table is created for its first game, when the game before
ends for a match's later games. Its commitment goes out at once in ``welcome`` and ``state`` (the
``fair`` field); the secret stays in the database until the game is over. While the deal is not made,
each seat's nonce (sent with ``hello``, or with ``next`` between two games of a match) counts, the
last one a seat sent; bot seats and spectators add none. The deal is made from the secret and the
nonces (:func:`spite.fairness.game_seed`) once every person seat has said hello (or a bot took it
over); from then on nothing changes it. When the game is over the secret and the nonces go into the
record (``fairness``, records.md §3) and, in ``gameOver`` and every later ``state``, to everyone.

This module knows no game and draws no secret of its own: the table's core calls it with the
entropy it was given (the server's is :mod:`secrets`; the tests' a seeded one), and the game's adapter
deals from the seed (:meth:`spite.server.table.play.ServerGame.open`).

A table may instead be given its deals from outside (a :data:`DealSource`: game number → a
:class:`FixedDeal`): the seed is fixed before the table exists (the same deal may be played at other
tables), so no secret is drawn and no nonce counts; its public part (``public``: the scheme, the
commitment that fixed it, and whatever the source names) is the table's ``fair`` field and the
record's ``fairness``. The source's secret is revealed by the source, not by the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from spite.fairness import SECRET_BYTES, commitment, game_seed, parse_nonce, parse_secret, scheme_of
from spite.server.protocol import FairInfo

__all__ = ["DealSource", "FairDeal", "FixedDeal"]


@dataclass(frozen=True)
class FixedDeal:
    """A game's deal fixed outside the table: its seed (never shown before the source reveals it)
    and its public proof (``scheme``, ``commitment``, ``secret`` ``None`` until revealed, and what the
    source names)."""

    seed: str
    public: dict[str, Any]


DealSource = Callable[[int], FixedDeal]
"""The deals of a table fixed from outside: the game number at the table (1, 2, ...) → its deal."""


@dataclass
class FairDeal:
    """The secret of game ``game`` at table ``table`` and what the seats sent for it."""

    table: str
    game: int
    secret: bytes
    seats: int
    nonces: dict[int, bytes] = field(default_factory=dict)
    """Seat → the nonce that counts (the last one it sent before the deal)."""
    dealt: bool = False
    """The deal is made: no nonce counts any more."""
    first: int | None = None
    """The seat the rules (not chance) let begin (a match's later games: the loser of the game before),
    known when the secret is drawn and bound by the commitment (``spite-fair/2``); ``None``: the cut."""
    fixed: FixedDeal | None = None
    """The deal came from outside (:class:`FixedDeal`): its seed, no secret of the table's, no nonces."""

    @classmethod
    def draw(cls, table: str, game: int, seats: int, first: int | None = None, *,
             entropy: Callable[[int], bytes]) -> FairDeal:
        """A fresh secret for game ``game`` of ``table`` (from ``entropy``: the server's is :mod:`secrets`)."""
        return cls(table, game, entropy(SECRET_BYTES), seats, first=first)

    @classmethod
    def given(cls, table: str, game: int, seats: int, deal: FixedDeal, first: int | None = None) -> FairDeal:
        """Game ``game`` of ``table`` dealt from ``deal`` (a deal source's): nothing drawn, no nonce counts."""
        return cls(table, game, b"", seats, first=first, fixed=deal)

    @cached_property
    def commitment(self) -> str:
        """SHA-256 of the secret, the table, the game number and ``first`` (public from the start;
        worked out once: every message of the game names it); a fixed deal's is its source's."""
        if self.fixed is not None:
            return str(self.fixed.public["commitment"])
        return commitment(self.secret, self.table, self.game, self.first)

    def seed(self) -> str:
        """The game's seed: from the secret and the nonces that count now (a fixed deal's own)."""
        if self.fixed is not None:
            return self.fixed.seed
        return game_seed(self.secret, self.table, self.game, [self.nonces.get(s) for s in range(self.seats)])

    def take_nonce(self, seat: int, nonce: str | None) -> None:
        """Seat ``seat`` sent ``nonce`` (checked by the protocol): it counts unless the deal is made."""
        if nonce is not None and not self.dealt and self.fixed is None and 0 <= seat < self.seats:
            self.nonces[seat] = parse_nonce(nonce)

    def info(self, revealed: bool) -> FairInfo:
        """What every seat and spectator may know: the commitment, whether the deal is made and which
        seats' nonces count; with ``revealed`` (the game is over) the secret and the nonces too."""
        sent = [s in self.nonces for s in range(self.seats)]
        if self.fixed is not None:  # the source reveals its secret itself (in the record, when it may)
            extra = {k: v for k, v in self.fixed.public.items() if k in ("tournament", "deal")}
            return FairInfo(game=self.game, commitment=self.commitment, dealt=self.dealt, sent=sent,
                            scheme=self.fixed.public["scheme"], first=self.first, **extra)
        info = FairInfo(game=self.game, commitment=self.commitment, dealt=self.dealt, sent=sent,
                        scheme=scheme_of(self.first), first=self.first)  # type: ignore[arg-type]
        if revealed:
            info.secret, info.nonces = self.secret.hex(), self.nonce_texts()
        return info

    def nonce_texts(self) -> list[str | None]:
        """The nonces in seat order (``None``: the seat sent none)."""
        return [n.hex() if (n := self.nonces.get(s)) is not None else None for s in range(self.seats)]

    def proof(self) -> dict[str, Any]:
        """The record's ``fairness`` object (records.md §3; a fixed deal: its source's public proof)."""
        if self.fixed is not None:
            return dict(self.fixed.public)
        out: dict[str, Any] = {"scheme": scheme_of(self.first), "table": self.table, "game": self.game,
                               "commitment": self.commitment, "secret": self.secret.hex(),
                               "nonces": self.nonce_texts()}
        if self.first is not None:
            out["first"] = self.first
        return out

    def stored(self) -> dict[str, Any]:
        """What the table's row keeps (``start["fair"]``): never sent to a client before the end."""
        if self.fixed is not None:
            return {"game": self.game, "fixed": {"seed": self.fixed.seed, "public": self.fixed.public},
                    "dealt": self.dealt, "first": self.first}
        return {"game": self.game, "secret": self.secret.hex(), "nonces": self.nonce_texts(), "dealt": self.dealt,
                "first": self.first}

    @classmethod
    def from_stored(cls, table: str, seats: int, data: dict[str, Any]) -> FairDeal:
        """A stored deal back (:meth:`stored`)."""
        if data.get("fixed"):
            fixed = FixedDeal(str(data["fixed"]["seed"]), dict(data["fixed"]["public"]))
            return cls(table, int(data["game"]), b"", seats, {}, bool(data.get("dealt")), data.get("first"), fixed)
        nonces = {s: parse_nonce(n) for s, n in enumerate(data.get("nonces") or []) if n is not None}
        return cls(table, int(data["game"]), parse_secret(data["secret"]), seats, nonces, bool(data.get("dealt")),
                   data.get("first"))
