"""Golden records: full games per preset, committed, replayed and diffed (see make_golden.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from make_golden import GAMES, cut, expected_for, play

from spite.malice.record import record_from_state
from spite.records import load_record

HERE = Path(__file__).resolve().parent


@pytest.mark.parametrize(("name", "preset", "options", "seed"), GAMES, ids=[g[0] for g in GAMES])
def test_golden_record_replays_to_the_committed_answers(name: str, preset: str, options: dict[str, object],
                                                        seed: int) -> None:
    record = load_record(HERE / f"{name}.json")
    expected = json.loads((HERE / f"{name}.expected.json").read_text())
    assert expected_for(record) == expected
    assert expected["check_full"]["finished"] is True
    assert cut(record).moves and expected["mid"]["legal"]


@pytest.mark.parametrize(("name", "preset", "options", "seed"), GAMES[::4], ids=[g[0] for g in GAMES[::4]])
def test_the_same_seed_plays_the_same_game_again(name: str, preset: str, options: dict[str, object],
                                                 seed: int) -> None:
    fresh = record_from_state(play(preset, options, seed), preset)
    committed = load_record(HERE / f"{name}.json")
    assert fresh.deal == committed.deal
    assert fresh.moves == committed.moves
