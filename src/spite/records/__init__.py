"""Game records (``spite-record/1``, records.md §3): read, write, replay, for every game.

A record is JSON. :func:`parse_record` checks its outer shape and gives a :class:`Record`;
:func:`replay` looks the record's game up in the registry (:mod:`spite.games`) and lets that game
replay it (the family code lives with the family's engine, ``spite.<family>.record``): every entry
is played through the engine, giving a :class:`Replay`,
the position reached, or the first illegal move.

Errors: :class:`~spite.errors.MalformedRecordError` (the record cannot be read: exit code 2) and
:class:`~spite.errors.RecordMoveError` (a move that may not be made: exit code 1).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Protocol

from spite.errors import MalformedRecordError, OptionsError, RecordMoveError
from spite.games import DEFAULT_GAME, FORMAT, GameState, Record, game_names, get_game

__all__ = [
    "FORMAT",
    "Record",
    "Replay",
    "dump_record",
    "load_record",
    "parse_record",
    "replay",
    "replay_game",
]


class Replay(Protocol):
    """What replaying a record gives: the position reached, ready for the three commands."""

    plies: int
    state: Any
    """The position reached: the family's engine state."""

    def check(self) -> dict[str, Any]:
        """``spite check``'s JSON for a record whose every entry was legal."""

    def legal(self) -> list[str]:
        """``spite legal``'s lines: every legal move in the position reached, canonical, each once."""

    def show(self, seat: int | None = None) -> dict[str, Any]:
        """``spite show --json``: the whole table, or exactly what ``seat`` may know."""

    def show_text(self, seat: int | None = None) -> str:
        """``spite show``: the same position drawn for a person."""


def parse_record(text: str | bytes) -> Record:
    """Read a record from JSON text, checking its outer shape (not its moves)."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise MalformedRecordError(f"not valid JSON: {exc}") from None
    return record_from_json(data)


def record_from_json(data: object) -> Record:
    """A :class:`Record` from an already decoded JSON value."""
    if not isinstance(data, dict):
        raise MalformedRecordError("a record is a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise MalformedRecordError(f"format {fmt!r} is not {FORMAT!r}")
    known = {"format", "game", "preset", "options", "seed", "deal", "moves", "result", "fairness", "forfeit"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise MalformedRecordError(f"unknown record field {unknown[0]!r}")
    game = data.get("game", DEFAULT_GAME)
    if not isinstance(game, str) or game not in game_names():
        raise MalformedRecordError(f"unknown game {game!r} (one of {', '.join(game_names())})")
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise MalformedRecordError("preset must be a string")
    options = data.get("options", {})
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise MalformedRecordError("options must be a JSON object")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int | str)):
        raise MalformedRecordError("seed must be an integer")
    deal = data.get("deal")
    if deal is not None and not isinstance(deal, dict):
        raise MalformedRecordError("deal must be a JSON object")
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise MalformedRecordError("moves must be a list")
    result = data.get("result")
    fairness = data.get("fairness")
    if fairness is not None and not isinstance(fairness, dict):
        raise MalformedRecordError("fairness must be a JSON object")
    forfeit = data.get("forfeit")
    if forfeit is not None and not isinstance(forfeit, dict):
        raise MalformedRecordError("forfeit must be a JSON object")
    return Record(
        game=game,
        preset=preset,
        options=options,
        seed=seed,
        deal=deal,
        moves=moves,
        result=result if isinstance(result, dict) else None,
        fairness=fairness,
        forfeit=forfeit,
    )


def load_record(path: str | Path) -> Record:
    """Read a record file (``-`` is not special here; the CLI handles standard input)."""
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise MalformedRecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    return parse_record(raw)


def dump_record(record: Record, indent: int | None = 1) -> str:
    """The record as JSON text (UTF-8 safe, ends with a newline)."""
    return json.dumps(record.to_json(), indent=indent, ensure_ascii=False) + "\n"


def _game_of(record: Record) -> Any:
    try:
        return get_game(record.game)
    except OptionsError as exc:
        raise MalformedRecordError(str(exc)) from None


def replay(record: Record) -> Replay:
    """Replay every entry of ``record`` for the record commands; raises on a malformed record or an
    illegal move."""
    result: Replay = _game_of(record).replay(record)
    return result


def replay_game(record: Record) -> GameState:
    """Replay every entry of ``record`` into a :class:`~spite.games.GameState` that play can go on from."""
    state: GameState = _game_of(record).from_record(record)
    return state


_ = RecordMoveError  # re-exported for callers that catch it from here
