"""``spite verify``: was a record's deal fair? (docs/fairness.md)

A record made at a fair table carries a ``fairness`` object (records.md §3): the table, the game's
number there, the commitment published before any card was seen, and (revealed at the end) the
secret and each seat's nonce. :func:`verify_record` checks, in this order, and stops at the first
thing that does not follow:

1. the commitment is SHA-256 of the secret, the table and the game number (:mod:`spite.fairness`), and
   of ``first`` where the rules chose who begins (scheme ``spite-fair/2``); a ``first`` is accepted only
   where the game's rules let a game begin without the cut (:meth:`spite.games.Game.starts_by_rule`: a
   match's later games), and a ``spite-fair/1`` record's ``first`` (written before the seat was bound)
   is named in the verdict as not bound;
2. the record's seed (if it has one) is the seed the secret and the nonces give;
3. the start deal is the one the game deals from that seed (:meth:`spite.games.Game.dealt`);
4. every chance entry (``{"shuffle": ...}``, ``{"deal": ...}``) is the one the engine makes from that
   seed at that point of the game: the record's moves are replayed without its chance entries, from
   the seed, and what the engine shuffles is compared entry by entry.

It looks the game up in the registry and never asks which game it is.

A record without ``fairness``, or with one that cannot be read, is unusable input
(:class:`~spite.errors.MalformedRecordError`); a record that follows the seed but whose moves do
not replay is too (``spite check`` says more).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

from spite.errors import MalformedRecordError, OptionsError, RecordMoveError
from spite.fairness import SCHEME, SCHEME_FIRST, commitment, game_seed, parse_hex, parse_nonce, parse_secret
from spite.games import GameState, Record, get_game

__all__ = ["FairProof", "Verdict", "is_chance_entry", "read_proof", "verify_dealt", "verify_record"]

_CHANCE_KEYS = ("shuffle", "deal")


def is_chance_entry(entry: Any) -> bool:
    """True for a chance entry of records.md §3 (``{"shuffle": [...]}`` or ``{"deal": {...}}``)."""
    return isinstance(entry, dict) and any(key in entry for key in _CHANCE_KEYS)


def _kind(entry: Any) -> str:
    return next(key for key in _CHANCE_KEYS if key in entry)


@dataclass(frozen=True)
class FairProof:
    """A record's ``fairness`` object, read and checked for shape."""

    table: str
    game: int
    commitment: str
    secret: bytes
    nonces: list[bytes | None]
    first: int | None = None
    """The seat the rules (not chance) let begin (a match's later game), if they did."""
    scheme: str = SCHEME
    """``spite-fair/2`` when the commitment binds ``first`` too."""

    def to_json(self) -> dict[str, Any]:
        """As records.md §3 writes it."""
        out: dict[str, Any] = {"scheme": self.scheme, "table": self.table, "game": self.game,
                               "commitment": self.commitment, "secret": self.secret.hex(),
                               "nonces": [None if n is None else n.hex() for n in self.nonces]}
        if self.first is not None:
            out["first"] = self.first
        return out

    @property
    def seed(self) -> str:
        """The seed the secret and the nonces give."""
        return game_seed(self.secret, self.table, self.game, self.nonces)


def read_proof(data: Any, seats: int) -> FairProof:
    """A record's ``fairness`` object as a :class:`FairProof`; one clear line
    (:class:`MalformedRecordError`) for anything missing or of the wrong shape."""
    if data is None:
        raise MalformedRecordError("the record has no fairness object: it was not dealt at a fair table")
    if not isinstance(data, dict):
        raise MalformedRecordError("fairness must be a JSON object")
    scheme = data.get("scheme")
    if scheme not in (SCHEME, SCHEME_FIRST):
        raise MalformedRecordError(f"fairness: scheme must be {SCHEME!r} or {SCHEME_FIRST!r}, not {scheme!r}")
    table, game, nonces, first = data.get("table"), data.get("game"), data.get("nonces"), data.get("first")
    if not isinstance(table, str) or not 1 <= len(table.encode("utf-8")) <= 255:
        raise MalformedRecordError("fairness: table must be the table's id (1 to 255 bytes)")
    if isinstance(game, bool) or not isinstance(game, int) or not 0 <= game < 2**32:
        raise MalformedRecordError("fairness: game must be the game's number at the table")
    if not isinstance(nonces, list) or len(nonces) != seats:
        raise MalformedRecordError(f"fairness: nonces must be a list of {seats} (one per seat, null for none)")
    if first is not None and (isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < seats):
        raise MalformedRecordError("fairness: first must be a seat number")
    if scheme == SCHEME_FIRST and first is None:
        raise MalformedRecordError(f"fairness: a {SCHEME_FIRST} record names the seat that began (first)")
    try:
        committed = parse_hex(data.get("commitment"), 32, "the commitment").hex()
        secret = parse_secret(data.get("secret"))
        read = [None if n is None else parse_nonce(n) for n in nonces]
    except ValueError as exc:
        raise MalformedRecordError(f"fairness: {exc}") from None
    return FairProof(table, game, committed, secret, read, first, str(scheme))


@dataclass(frozen=True)
class Verdict:
    """What :func:`verify_record` found: ``line`` says it in one line."""

    fair: bool
    line: str
    where: str | None = None
    """The first thing that does not follow (``commitment``, ``seed``, ``deal``, ``moves[N]``)."""
    chance: int = 0
    """Chance entries checked (all of them when fair)."""


def _nonce_words(proof: FairProof) -> str:
    sent = [str(i) for i, n in enumerate(proof.nonces) if n is not None]
    if not sent:
        return "the secret (no seat sent a nonce)"
    which = sent[0] if len(sent) == 1 else ", ".join(sent[:-1]) + " and " + sent[-1]
    return f"the secret and the nonce{'s' if len(sent) > 1 else ''} of seat{'s' if len(sent) > 1 else ''} {which}"


def _normal_deal(record: Record) -> dict[str, Any] | None:
    """The record's start deal as the game writes it (so that spelling, e.g. ``10h`` or ``TH``, does not count)."""
    if record.deal is None:
        return None
    state = get_game(record.game).new(record.preset, record.options, seed=record.seed, deal=record.deal)
    return state.to_record().deal


def _entries(record: Record) -> list[Any]:
    state: GameState = get_game(record.game).from_record(record)
    return list(state.to_record().moves)


def verify_dealt(record: Record, seed: str, *, first: int | None = None,
                 source: str = "the secret and the nonces") -> tuple[Verdict | None, int]:
    """Steps 3 and 4 of the module's text for a record whose ``seed`` is known to be fair: the start deal
    and every chance entry are the ones the game makes from ``seed`` (``first``: the seat the rules let
    begin). Returns (the verdict where something does not follow, else ``None``; the chance entries checked);
    ``source`` names where the seed came from in the verdict. Raises :class:`MalformedRecordError` for
    moves that do not replay."""
    try:
        game = get_game(record.game)
        start = game.dealt(record.preset, record.options, seed, first=first).to_record()
    except OptionsError as exc:
        raise MalformedRecordError(str(exc)) from None
    if record.deal is not None and _normal_deal(record) != start.deal:
        return Verdict(False, f"not fair: the deal does not follow from {source}", "deal"), 0
    # the moves without their chance entries, from the seed: the engine shuffles as the seed says
    keep = [i for i, entry in enumerate(record.moves) if not is_chance_entry(entry)]
    bare = replace(start, moves=[record.moves[i] for i in keep], result=None, fairness=None)
    try:
        made = _entries(bare)
        stuck: RecordMoveError | None = None
    except RecordMoveError as exc:  # a move the seeded game does not allow: compare up to it
        stuck = exc
        made = _entries(replace(bare, moves=bare.moves[:exc.ply]))
    chance = 0
    for i in range(max(len(record.moves), len(made))):
        have = record.moves[i] if i < len(record.moves) else None
        want = made[i] if i < len(made) else None
        if stuck is not None and i >= len(made):
            break
        if is_chance_entry(have) or is_chance_entry(want):
            chance += 1
            if have == want:
                continue
            what = _kind(have) if is_chance_entry(have) else _kind(want)
            if not is_chance_entry(have):
                why = f"the {what} the seed makes here is missing"
            elif not is_chance_entry(want):
                why = f"a {what} entry where the seed makes none"
            else:
                why = f"the {what} does not follow from {source}"
            return Verdict(False, f"not fair: moves[{i}], chance entry {chance}: {why}", f"moves[{i}]",
                           chance - 1), chance - 1
        if json.dumps(have, sort_keys=True) != json.dumps(want, sort_keys=True) and stuck is None:
            raise MalformedRecordError(f"moves[{i}]: the record's move {json.dumps(have)} does not replay as written")
    if stuck is not None:
        where = keep[stuck.ply]
        raise MalformedRecordError(f"the record does not replay: moves[{where}] {stuck.move}: {stuck.message}")
    return None, chance


def verify_record(record: Record) -> Verdict:
    """Check that ``record``'s deal and every chance entry follow from its revealed secret and nonces
    (see the module's text). Raises :class:`MalformedRecordError` for unusable input."""
    try:
        game = get_game(record.game)
        seats = game.seats(record.preset, record.options)
    except OptionsError as exc:
        raise MalformedRecordError(str(exc)) from None
    proof = read_proof(record.fairness, seats)
    bound = proof.first if proof.scheme == SCHEME_FIRST else None
    if commitment(proof.secret, proof.table, proof.game, bound) != proof.commitment:
        what = "secret" if bound is None else f"secret and first player (seat {bound})"
        return Verdict(False, f"not fair: the commitment {proof.commitment[:12]}… is not the one of the revealed "
                       f"{what} (table {proof.table}, game {proof.game})", "commitment")
    if proof.first is not None and not game.starts_by_rule(record.preset, record.options):
        return Verdict(False, f"not fair: the record says seat {proof.first} began by the rules, but in a game "
                       "of these rules the cut decides who begins", "first")
    seed = proof.seed
    if record.seed is not None and str(record.seed) != seed:
        return Verdict(False, "not fair: the record's seed is not the one the secret and the nonces give", "seed")
    failed, chance = verify_dealt(record, seed, first=proof.first)
    if failed is not None:
        return failed
    unbound = (f"; who began (seat {proof.first}) is not bound by this {SCHEME} commitment: check it against "
               "the game before" if proof.first is not None and bound is None else "")
    return Verdict(True, f"fair: the commitment, the deal and {chance} chance "
                   f"entr{'y' if chance == 1 else 'ies'} follow from {_nonce_words(proof)} "
                   f"(table {proof.table}, game {proof.game}){unbound}", None, chance)
