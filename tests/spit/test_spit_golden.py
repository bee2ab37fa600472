"""Golden Spit and Speed records (tests/spit/golden/): replayed, and played again, unchanged."""

from __future__ import annotations

import json

import pytest
from spit_golden import GAMES, GOLDEN, make_record

from spite.records import dump_record, load_record, replay

NAMES = sorted(GAMES)


def test_every_golden_game_has_its_files() -> None:
    for name in NAMES:
        for suffix in (".json", "-mid.json", ".expected.json"):
            assert (GOLDEN / f"{name}{suffix}").is_file(), name + suffix
    reasons = {json.loads((GOLDEN / f"{n}.json").read_text())["result"]["reason"] for n in NAMES}
    assert reasons == {"out-of-cards", "rounds", "time"}


@pytest.mark.parametrize("name", NAMES)
def test_golden_record_replays_to_its_answers(name: str) -> None:
    answers = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    record = load_record(GOLDEN / f"{name}.json")
    full = replay(record)
    assert full.check() == answers["check"]
    assert full.check()["result"] == record.result
    assert full.show() == answers["show"]
    assert full.legal() == []
    record.seed = None  # the record holds every chance entry: no seed needed
    assert replay(record).show() == answers["show"]
    mid = replay(load_record(GOLDEN / f"{name}-mid.json"))
    assert mid.plies == answers["mid"]["plies"]
    assert mid.legal() == answers["mid"]["legal"]
    assert mid.show() == answers["mid"]["show"]
    assert mid.show(0) == answers["mid"]["show_0"]


@pytest.mark.parametrize("name", NAMES)
def test_golden_game_is_still_played_the_same(name: str) -> None:
    assert dump_record(make_record(GAMES[name])) == (GOLDEN / f"{name}.json").read_text(encoding="utf-8")
