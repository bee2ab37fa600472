"""Regenerate the golden records (run only after a deliberate rule change, then review the diff).

Each game is played by a fixed random player from a fixed seed. ``NAME.json`` is its complete record;
``NAME.expected.json`` holds what ``spite check`` reports, and the legal moves and whole table a third
of the way in (the record cut there is rebuilt by the test). Like OpenSpiel's playthroughs, any change
in how the engine plays shows up as a diff of these files.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from spite.malice import Options, State
from spite.malice.record import record_from_state
from spite.records import Record, dump_record, replay

HERE = Path(__file__).resolve().parent

GAMES: list[tuple[str, str, dict[str, object], int]] = [
    (f"{preset}-{seed}", preset, {}, seed)
    for preset in ("classic", "cat-and-mouse", "match", "skip-bo", "short", "kings-only", "no-blocking",
                   "open-stock", "party", "partners")
    for seed in (1, 2)
] + [
    ("party4-1", "party", {"players": 4}, 1),
    ("set-aside-1", "classic", {"completed": "set_aside", "hand_size": 7}, 1),
    ("no-refill-1", "short", {"refill_empty_hand": False, "discard_aces": True}, 1),
    ("kings-not-wild-1", "classic", {"kings_wild": False, "turn_limit": 300}, 1),
]


def play(preset: str, options: dict[str, object], seed: int) -> State:
    state = State.new(Options.from_preset(preset, options), seed)
    rng = random.Random(seed)
    while not state.is_over:
        moves = state.legal_moves()
        builds = [m for m in moves if not m.ends_turn]
        state.play(rng.choice(builds if builds and rng.random() < 0.85 else moves))
    return state


def cut(record: Record) -> Record:
    """The record cut about a third of the way in, after a move (never between a move and its shuffles)."""
    n = len(record.moves) // 3
    while n < len(record.moves) and isinstance(record.moves[n], dict):
        n += 1
    return Record(record.game, record.preset, record.options, record.seed, record.deal, record.moves[:n])


def expected_for(record: Record) -> dict[str, object]:
    mid = replay(cut(record))
    return {"check_full": replay(record).check(), "mid": {"plies": mid.plies, "legal": mid.legal(),
                                                          "show": mid.show(None)}}


def main() -> None:
    for name, preset, options, seed in GAMES:
        record = record_from_state(play(preset, options, seed), preset)
        (HERE / f"{name}.json").write_text(dump_record(record))
        (HERE / f"{name}.expected.json").write_text(json.dumps(expected_for(record), indent=1) + "\n")
        print(name, len(record.moves), record.result, file=sys.stderr)


if __name__ == "__main__":
    main()
