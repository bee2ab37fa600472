"""The public conformance examples (records made by an independent implementation of the specs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spite.records import load_record, replay

HERE = Path(__file__).resolve().parent.parent / "conformance"
NAMES = sorted(p.name[: -len(".expected.json")] for p in HERE.glob("*.expected.json"))


def _ranks(hand: list[str] | None) -> list[str] | None:
    return None if hand is None else sorted(card[:-1] if card != "X" and not card.isdigit() else card
                                            for card in hand)


def _compare(actual: Any, expected: Any, path: str) -> list[str]:
    """Differences, comparing only the keys ``expected`` has (and hands by rank)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: {actual!r} is not an object"]
        return [d for k, v in expected.items() for d in _compare(actual.get(k), v, f"{path}.{k}")]
    if path.endswith(".hand"):
        return [] if _ranks(actual) == _ranks(expected) else [f"{path}: {actual} != {expected}"]
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: {actual!r} != {expected!r}"]
        return [d for i, (a, e) in enumerate(zip(actual, expected, strict=True))
                for d in _compare(a, e, f"{path}[{i}]")]
    return [] if actual == expected else [f"{path}: {actual!r} != {expected!r}"]


def test_the_examples_are_here() -> None:
    assert len(NAMES) >= 6


@pytest.mark.parametrize("name", NAMES)
def test_full_game_checks_as_expected(name: str) -> None:
    expected = json.loads((HERE / f"{name}.expected.json").read_text())
    got = replay(load_record(HERE / f"{name}.json")).check()
    assert _compare(got, expected["check_full"], "check") == []


@pytest.mark.parametrize("name", NAMES)
def test_mid_game_legal_moves_are_exactly_the_expected_set(name: str) -> None:
    expected = json.loads((HERE / f"{name}.expected.json").read_text())
    got = replay(load_record(HERE / f"{name}-mid.json")).legal()
    assert got == sorted(set(got))
    assert set(got) == set(expected["mid"]["legal"])


@pytest.mark.parametrize("name", NAMES)
def test_mid_game_table_is_as_expected(name: str) -> None:
    expected = json.loads((HERE / f"{name}.expected.json").read_text())
    got = replay(load_record(HERE / f"{name}-mid.json")).show(None)
    assert _compare(got, expected["mid"]["show"], "show") == []


def test_the_comparison_would_notice_a_difference() -> None:
    expected = json.loads((HERE / f"{NAMES[0]}.expected.json").read_text())["mid"]["show"]
    got = replay(load_record(HERE / f"{NAMES[0]}-mid.json")).show(None)
    got["builds"][0]["value"] += 1
    assert _compare(got, expected, "show") != []
