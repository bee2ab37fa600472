"""Races: two events for one center pile (or one table) at the same moment. The first applied
wins; the second is refused with a reason a player understands, and nothing else changes."""

from __future__ import annotations

import pytest
from spit_helpers import fingerprint, speed, spit, tops

from spite.errors import IllegalMoveError


def test_two_plays_on_one_center_the_first_wins() -> None:
    state = spit([["5C"], ["5H"]], ["4D", "JC"])
    assert "T1-C1" in state.legal_moves(0) and "T1-C1" in state.legal_moves(1)
    state.apply(0, "T1-C1", 1000)
    after_first = fingerprint(state)
    with pytest.raises(IllegalMoveError, match=r"^too late: center 1 is now 5C$"):
        state.apply(1, "T1-C1", 1000)
    assert fingerprint(state) == after_first
    assert tops(state) == ["5C", "JC"]
    assert state.view(1).players[1].tableau[0].top is not None  # seat 1 keeps its 5H


def test_the_same_race_the_other_way_round() -> None:
    state = spit([["5C"], ["5H"]], ["4D", "JC"])
    state.apply(1, "T1-C1", 1000)
    with pytest.raises(IllegalMoveError, match="too late: center 1 is now 5H"):
        state.apply(0, "T1-C1", 1000)
    assert tops(state) == ["5H", "JC"] and state.last_center_player == 1


def test_a_second_card_that_still_fits_goes_on_top() -> None:
    state = spit([["5C"], ["6H"]], ["4D", "JC"])
    state.apply(0, "T1-C1", 1000)
    state.apply(1, "T1-C1", 1000)  # 6H fits on the 5C that won the race
    assert tops(state) == ["6H", "JC"]
    assert [m["p"] for m in state.to_record_moves()] == [0, 1]


def test_a_play_racing_the_round_end_is_too_late() -> None:
    state = spit([["5C"], ["6H", "KS 9D"]], ["", "4D"], rest="spit1")
    state.apply(0, "T1-C2", 700)
    before = fingerprint(state)
    with pytest.raises(IllegalMoveError, match="too late: the round is over; seat 0 has won it"):
        state.apply(1, "T1-C2", 700)
    with pytest.raises(IllegalMoveError, match="too late: the round is over"):
        state.apply(1, "T2-T3", 700)
    assert fingerprint(state) == before


def test_a_spit_call_racing_a_flip_is_refused() -> None:
    state = spit([["9C"], ["2H"]], ["10S 4D", "KS JC"])
    state.apply(0, "spit", 500)
    state.apply(1, "spit", 600)  # the flip: 10S on C1 takes 9C
    before = fingerprint(state)
    with pytest.raises(IllegalMoveError, match="the table is not stuck: seat 0 can play 9C \\(T1\\) on center 1"):
        state.apply(0, "spit", 600)
    assert fingerprint(state) == before


def test_a_spit_call_racing_a_slot_move_that_unsticks_is_refused() -> None:
    state = spit([["9C", "5C 9D"], ["9S"]], ["AD 4D", "2C JC"])
    state.apply(1, "spit", 100)
    state.apply(0, "T2-T3", 100)  # turns up 5C: the table is no longer stuck, seat 1's call lapses
    before = fingerprint(state)
    with pytest.raises(IllegalMoveError, match="the table is not stuck"):
        state.apply(0, "spit", 100)
    assert fingerprint(state) == before and state.called == [False, False]


def test_speed_race_on_a_center() -> None:
    state = speed(["7C 2D 2S 3S 3D", "7H 2H 2C 3H 3C"], ["", ""], ["6S", "JD"])
    state.apply(0, "H7-C1", 250)
    before = fingerprint(state)
    with pytest.raises(IllegalMoveError, match="too late: center 1 is now 7C"):
        state.apply(1, "H7-C1", 250)
    assert fingerprint(state) == before
