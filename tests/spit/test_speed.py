"""Speed (docs/spit.md §3): hands refilled from the draw pile, side piles for the flips."""

from __future__ import annotations

import pytest
from spit_helpers import cards, fingerprint, speed, tops, total_cards

from spite.cards import format_cards
from spite.errors import IllegalMoveError, MalformedRecordError, MissingChanceError
from spite.spit import SpeedState, new_game


def test_seeded_speed_deals_hand_draw_and_side_piles() -> None:
    state = new_game("speed", seed=9)
    assert [len(h) for h in state.hands] == [5, 5]
    assert [len(d) for d in state.draws] == [15, 15]
    assert [len(s) for s in state.sides] == [5, 5]  # 6 each, one flipped at the start
    assert [len(ct) for ct in state.centers] == [1, 1]
    assert sum(total_cards(state).values()) == 52 and len(total_cards(state)) == 52


def test_a_hand_card_is_played_and_the_hand_refilled_at_once() -> None:
    state = speed(["7C 7H 2D 3S 9C", "KD KH KS KC QD"], ["4H 5H", "JD"], ["6S", "10C"])
    assert tops(state) == ["6S", "10C"]
    assert state.legal_moves(0) == ["H7-C1", "H9-C2"] and state.legal_moves(1) == []
    state.apply(0, "h7-c1", 100)
    assert state.hands[0] == cards("7H 2D 3S 9C 5H")  # the first 7 in hand order went; 5H drawn
    assert state.draws[0] == cards("4H")
    assert state.to_record_moves() == [{"t": 100, "p": 0, "m": "H7-C1"}]
    with pytest.raises(IllegalMoveError, match="you have no 8 in your hand"):
        state.apply(0, "H8-C1", 200)
    with pytest.raises(IllegalMoveError, match="3S does not fit on center 1, which shows 7C: it takes a 6 or an 8"):
        state.apply(0, "H3-C1", 200)
    with pytest.raises(IllegalMoveError, match="is not a Speed move"):
        state.apply(0, "T1-C1", 200)


def test_stuck_speed_table_flips_from_the_side_piles() -> None:
    state = speed(["2C 2D 2S 2H 3C", "8C 8D 8S 8H 10C"], ["", ""], ["JS 6S", "QC 5C"])
    assert state.stuck and state.legal_moves(0) == ["spit"] and state.legal_moves(1) == ["spit"]
    state.apply(0, "spit", 100)
    assert state.view(1).players[0].called_spit
    events = state.apply(1, "spit", 200)
    assert [(e.kind, e.text) for e in events] == [("move", "spit"), ("flip", "C1 JS, C2 QC")]
    assert tops(state) == ["JS", "QC"] and not state.stuck
    assert state.legal_moves(1) == ["H10-C1"]


STUCK_HANDS = ["2C 2D 2S 2H 3C", "8C 8D 8S 8H 9C"]


def test_empty_side_piles_are_rebuilt_from_the_centers() -> None:
    state = speed(STUCK_HANDS, ["", ""], ["6S", "5C"])
    # stuck at once and no side cards: the center cards under the tops became the side piles
    under = 52 - 10 - 2
    assert [len(s) for s in state.sides] == [(under + 1) // 2, under // 2]
    assert [len(ct) for ct in state.centers] == [1, 1] and tops(state) == ["6S", "5C"]
    assert list(state.to_record_moves()[0]) == ["shuffle"]
    assert state.legal_moves(0) == ["spit"]
    assert sum(total_cards(state).values()) == 52


def test_a_shuffle_entry_gives_the_new_side_piles() -> None:
    def position(seed: int | None) -> SpeedState:
        state = speed(STUCK_HANDS, ["", ""], ["JS 6S", "QC 5C"], seed=seed)
        state.apply(0, "spit", 10)  # seat 1's call flips JS and QC: still stuck, no side cards left
        return state

    state = position(1)
    under = [x for ct in state.centers for x in ct]  # after the flip, these lie under JS and QC
    entry = {"shuffle": format_cards(sorted(under, reverse=True))}
    before = fingerprint(state)
    state.supply_chance({"shuffle": entry["shuffle"][:-1]})
    with pytest.raises(MalformedRecordError, match="side piles reshuffle 1: the shuffle holds"):
        state.apply(1, "spit", 20)
    assert fingerprint(state) == before
    state = position(None)
    before = fingerprint(state)
    with pytest.raises(MissingChanceError, match="side piles reshuffle 1 is due"):
        state.apply(1, "spit", 20)
    assert fingerprint(state) == before
    state.supply_chance(entry)
    events = state.apply(1, "spit", 20)
    assert [e.kind for e in events] == ["move", "flip", "shuffle"]
    order = sorted(under, reverse=True)
    half = (len(order) + 1) // 2
    assert state.sides == [order[:half], order[half:]]
    assert tops(state) == ["JS", "QC"]
    assert state.to_record_moves()[-1] == entry


def test_a_dead_table_ends_speed_fewer_cards_win() -> None:
    state = speed(STUCK_HANDS, ["", ""], ["", ""], ["6S", "5C"], rest="draw1")
    assert state.result == {"winner": 0, "reason": "out-of-cards"}


def test_emptying_hand_and_draw_wins_speed() -> None:
    state = speed(["7C", "KD KH KS KC QD"], ["", "JD"], ["6S", "10C"])
    events = state.apply(0, "H7-C1", 100)
    assert state.result == {"winner": 0, "reason": "out-of-cards"}
    assert events[-1].kind == "game-over"
    assert state.legal_moves(0) == [] and state.legal_moves(1) == []


def test_speed_views_hide_the_other_hand() -> None:
    state = new_game("speed", seed=4)
    mine = state.view(0).to_json()
    assert mine["players"][0]["hand"] is not None and mine["players"][1]["hand"] is None
    assert set(mine["players"][0]) == {"hand", "draw", "cards", "called_spit"}
    assert state.view(None).to_json()["players"][0]["hand"] is None
    assert all(p["hand"] is not None for p in state.full_view().to_json()["players"])
    assert mine["players"][0]["cards"] == 20 and mine["round"] == 1
