"""The golden Spit and Speed records: which games, and how to (re)make them.

Each game is played by :func:`spit_helpers.play_out` (a simple deterministic policy, the seats
acting at different rhythms so that they race). ``NAME.json`` is the full record,
``NAME-mid.json`` the same record cut about a third of the way in, and ``NAME.expected.json`` the
answers: ``check`` and ``show`` of the full record, ``legal``, ``show`` and ``show_0`` of the cut.

Remake them (only when a rule change is intended, and say so in the commit):
``PYTHONPATH=src python3 tests/spit/spit_golden.py``
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from spit_helpers import play_out

from spite.records import Record, dump_record, replay
from spite.spit.record import record_from_state

GOLDEN = Path(__file__).parent / "golden"

GAMES: dict[str, dict[str, Any]] = {
    "spit-1": {"game": "spit", "seed": 3, "options": {}},
    "spit-2": {"game": "spit", "seed": 4, "options": {}},
    "three-piles-1": {"game": "spit", "seed": 3, "options": {"centers": 3}},
    "jokers-1": {"game": "spit", "seed": 2, "options": {"jokers": 2}},
    "ace-bridge-1": {"game": "spit", "seed": 3, "options": {"wrap": "ace_bridge"}},
    "slowpoke-1": {"game": "spit", "seed": 1, "options": {"slowpoke_ms": 2000}},
    "rounds-1": {"game": "spit", "seed": 4, "options": {"rounds_in_a_row": 3}},
    "timed-1": {"game": "spit", "seed": 1, "options": {"time_limit_s": 120}},
    "auto-1": {"game": "spit", "seed": 2, "options": {}, "lazy": [False, True]},
    "speed-1": {"game": "speed", "seed": 16, "options": {}, "lazy": [True, False]},
    "speed-reshuffle-1": {"game": "speed", "seed": 14, "options": {}},
    "speed-2": {"game": "speed", "seed": 5, "options": {"wrap": "ace_bridge"}},
}


def make_record(spec: dict[str, Any]) -> Record:
    """Play the game ``spec`` describes and write its record."""
    lazy = tuple(spec.get("lazy", (False, False)))
    state = play_out(spec["game"], spec["seed"], spec["options"], lazy=(bool(lazy[0]), bool(lazy[1])))
    return record_from_state(state)


def cut(record: Record) -> Record:
    """The record cut about a third of the way in, at a move entry (its chance entries kept)."""
    moves = record.moves
    k = len(moves) // 3
    while k < len(moves) and ("deal" in moves[k] or "shuffle" in moves[k]):
        k += 1
    return Record(record.game, record.preset, dict(record.options), record.seed, record.deal, moves[:k], None)


def expected(record: Record) -> dict[str, Any]:
    """What the three commands must answer for the record and for its cut."""
    full = replay(record)
    mid = replay(cut(record))
    return {
        "check": full.check(),
        "show": full.show(),
        "mid": {"plies": mid.plies, "legal": mid.legal(), "show": mid.show(), "show_0": mid.show(0)},
    }


def main() -> None:
    """Write every golden file."""
    GOLDEN.mkdir(exist_ok=True)
    for name, spec in GAMES.items():
        record = make_record(spec)
        (GOLDEN / f"{name}.json").write_text(dump_record(record), encoding="utf-8")
        (GOLDEN / f"{name}-mid.json").write_text(dump_record(cut(record)), encoding="utf-8")
        answers = {"made_by": spec, **expected(record)}
        (GOLDEN / f"{name}.expected.json").write_text(json.dumps(answers, indent=1) + "\n", encoding="utf-8")
        print(name, len(record.moves), "entries", record.result)


if __name__ == "__main__":
    main()
