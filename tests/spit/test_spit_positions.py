"""``spite.spit.record.positions``: a Spit or Speed record stepped entry by entry for the replay viewer."""

from __future__ import annotations

from typing import Any

import pytest
from spit_helpers import play_out

from spite.cards import standard_deck
from spite.records import Record, replay
from spite.spit import SpitState
from spite.spit.record import positions, record_from_state, replay_spit, whole_table

# what positions add to ``spite show --json`` of the whole table
EXTRA_TOP = {"t", "phase", "play_from", "round_winner"}
EXTRA_PLAYER = {"tableau_cards", "spit_cards", "rounds_won", "draw_cards", "side_cards", "side"}


def shown_part(position: dict[str, Any]) -> dict[str, Any]:
    """A position without the keys positions adds: exactly ``show --json`` of the whole table."""
    out = {k: v for k, v in position.items() if k not in EXTRA_TOP}
    out["players"] = [{k: v for k, v in p.items() if k not in EXTRA_PLAYER} for p in position["players"]]
    return out


@pytest.mark.parametrize(("game", "options", "lazy"), [
    ("spit", {"auto_spit_ms": 300, "auto_slap_ms": 300}, (False, True)),
    ("spit", {"rounds_in_a_row": 2, "auto_spit_ms": 200, "auto_slap_ms": 200}, (False, False)),
    ("spit", {"time_limit_s": 20, "auto_spit_ms": 200, "auto_slap_ms": 200}, (True, True)),
    ("speed", {"auto_spit_ms": 300}, (False, True)),
])
def test_positions_step_through_a_whole_game(game: str, options: dict[str, Any], lazy: tuple[bool, bool]) -> None:
    state = play_out(game, 21, options, lazy=lazy)
    record = record_from_state(state)
    steps, shown = positions(record)
    entries = [e for e in record.moves if "t" in e]  # move and time entries; chance entries join their step
    assert len(shown) == len(steps) + 1 == len(entries) + 1
    assert [(s["seat"], s["move"], s["t"]) for s in steps] == [(e.get("p"), e.get("m"), e["t"]) for e in entries]
    # the last position is the replayed end; without the additions it is exactly ``show --json``
    assert shown[-1] == whole_table(replay_spit(record).state)
    assert {**shown[-1], "t": 0} == {**whole_table(state), "t": 0}  # play_out's clock may run past the end
    assert shown_part(shown[-1]) == replay(record).show() == state.full_view().to_json()
    assert shown[-1]["finished"] and shown[-1]["result"] == state.result
    assert shown[-1]["phase"] == "over" and shown[-1]["t"] == steps[-1]["t"]
    assert [p["t"] for p in shown[1:]] == [s["t"] for s in steps]
    assert steps[-1]["events"][-1]["kind"] == "game-over"
    assert not shown[0]["finished"] and shown[0]["t"] == 0
    for position in shown:
        # every card of the deck, face down or up, lies somewhere in each position
        held: list[str] = [c["top"] for c in position["centers"] if c["top"]]
        for p in position["players"]:
            if game == "spit":
                assert [pile[-1] if pile else None for pile in p["tableau_cards"]] == [t["top"] for t in p["tableau"]]
                assert len(p["spit_cards"]) == p["spit"]
                assert p["cards"] == p["spit"] + sum(len(pile) for pile in p["tableau_cards"])
            else:
                assert len(p["draw_cards"]) == p["draw"] and len(p["side_cards"]) == p["side"]
                assert p["cards"] == len(p["hand"]) + p["draw"]
        total = sum(c["cards"] for c in position["centers"]) + sum(p["cards"] for p in position["players"])
        if game == "speed":
            total += sum(p["side"] for p in position["players"])
        assert total == len(standard_deck()) and len(held) <= len(position["centers"])


def test_steps_tell_flips_rounds_and_time() -> None:
    options = {"rounds_in_a_row": 2, "auto_spit_ms": 200, "auto_slap_ms": 200}
    state = play_out("spit", 21, options)
    assert isinstance(state, SpitState) and state.round > 1
    steps, shown = positions(record_from_state(state))
    kinds = [e["kind"] for s in steps for e in s["events"]]
    assert "flip" in kinds and "round-won" in kinds and "deal" in kinds
    # a slap ends a round: the next position is the new round's deal
    k = next(i for i, s in enumerate(steps) if s["move"].startswith("slap"))
    assert shown[k]["phase"] == "slap" and shown[k]["round_winner"] == steps[k]["seat"]
    if not shown[k + 1]["finished"]:
        assert shown[k + 1]["round"] == shown[k]["round"] + 1 and shown[k + 1]["phase"] == "play"
        assert any(e["kind"] == "deal" for e in steps[k]["events"])
    # a step's own move is not among its events
    assert all(not (e["kind"] == "move" and e["seat"] == s["seat"]) for s in steps for e in s["events"])
    # the times never decrease
    assert [s["t"] for s in steps] == sorted(s["t"] for s in steps)


def test_the_time_limit_is_a_step_of_its_own() -> None:
    state = play_out("spit", 21, {"time_limit_s": 5, "auto_spit_ms": 0, "auto_slap_ms": 0}, step_ms=(900, 1300))
    assert state.result is not None and state.result["reason"] == "time"
    steps, shown = positions(record_from_state(state))
    assert steps[-1]["seat"] is None and steps[-1]["move"] is None and steps[-1]["t"] == 5000
    assert [e["kind"] for e in steps[-1]["events"]] == ["game-over"]
    assert not shown[-2]["finished"] and shown[-1]["finished"]


def test_a_record_without_moves_has_one_position() -> None:
    record = Record(game="speed", seed=4, moves=[])
    steps, shown = positions(record)
    assert steps == [] and len(shown) == 1 and shown[0]["players"][0]["hand"]
