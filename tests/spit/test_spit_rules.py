"""Spit, one scenario per rule of docs/spit.md §2.2–2.3, from explicit deals."""

from __future__ import annotations

import pytest
from spit_helpers import cards, fingerprint, spit, spit_deal, tops

from spite.cards import parse_card
from spite.errors import IllegalMoveError, MalformedRecordError, MissingChanceError
from spite.spit import ClockError, SpitOptions, SpitState, fits, lay_out, new_game


def c(token: str) -> int:
    return parse_card(token)


# ---------------------------------------------------------------------- the deal (rule 1)
def test_seeded_deal_splits_the_deck_and_flips_at_once() -> None:
    state = new_game("spit", seed=42)
    assert [[len(p) for p in t] for t in state.tableaus] == [[1, 2, 3, 4, 5]] * 2
    assert [len(s) for s in state.spits] == [10, 10]  # 11 each, one flipped at the start
    assert [len(ct) for ct in state.centers] == [1, 1]
    assert state.round == 1 and state.now == 0
    again = new_game("spit", seed=42)
    assert again.full_view() == state.full_view() and again.spits == state.spits
    assert new_game("spit", seed=43).start_deal != state.start_deal


def test_jokers_join_the_deck() -> None:
    state = new_game("spit", "spit-jokers", seed=5)
    everything = [x for t in state.tableaus for p in t for x in p] + state.spits[0] + state.spits[1]
    everything += [x for ct in state.centers for x in ct]
    assert len(everything) == 54 and everything.count(c("X")) == 2
    assert [len(s) for s in state.spits] == [11, 11]  # 27 each: 15 in the tableau, 12 to spit


# ---------------------------------------------------------------------- playing (rule 3) and wrap (2.3)
@pytest.mark.parametrize(
    ("card", "top", "full", "bridge"),
    [
        ("5C", "4D", True, True),
        ("3C", "4D", True, True),
        ("6C", "4D", False, False),
        ("2S", "AH", True, False),
        ("KS", "AH", True, False),
        ("AS", "KH", True, True),
        ("AS", "2H", True, True),
        ("QS", "KH", True, True),
        ("KS", "2H", False, False),
        ("AS", "AH", False, False),
        ("X", "AH", True, True),
        ("7C", "X", True, True),
    ],
)
def test_which_card_fits(card: str, top: str, full: bool, bridge: bool) -> None:
    assert fits(c(card), c(top), "full") is full
    assert fits(c(card), c(top), "ace_bridge") is bridge


def test_a_play_turns_up_the_card_beneath() -> None:
    state = spit([["5C", "KD 6H"], ["9S"]], ["4D", "JC"])
    assert tops(state) == ["4D", "JC"]
    assert state.legal_moves(0) == ["T1-C1", "T2-T3", "T2-T4", "T2-T5"]
    events = state.apply(0, "T1-C1", 100)
    assert [(e.kind, e.seat, e.text) for e in events] == [("move", 0, "T1-C1")]
    state.apply(0, "t2-c1", 200)  # any case is read
    view = state.view(1)
    assert tops(state) == ["6H", "JC"]
    assert view.players[0].tableau[1].top == c("KD") and view.players[0].tableau[1].cards == 1
    assert view.players[0].tableau[0].top is None
    assert state.to_record_moves() == [{"t": 100, "p": 0, "m": "T1-C1"}, {"t": 200, "p": 0, "m": "T2-C1"}]


def test_a_card_that_does_not_fit_is_refused_with_what_the_pile_needs() -> None:
    state = spit([["9C", "5C"], ["9S"]], ["4D", "JC"])
    before = fingerprint(state)
    with pytest.raises(IllegalMoveError, match="9C does not fit on center 1, which shows 4D: it takes a 3 or a 5"):
        state.apply(0, "T1-C1", 10)
    assert fingerprint(state) == before


def test_full_wrap_joins_ace_king_and_two() -> None:
    state = spit([["2S", "KS"], ["9H"]], ["AD", "7C"])
    assert state.legal_moves(0)[:2] == ["T1-C1", "T2-C1"]


def test_ace_bridge_makes_an_ace_a_dead_pile() -> None:
    state = spit([["2S", "KS"], ["9H"]], ["AD", "7C"], wrap="ace_bridge")
    assert [m for m in state.legal_moves(0) if "-C" in m] == []
    with pytest.raises(IllegalMoveError, match="it takes nothing: no card goes on an Ace"):
        state.apply(0, "T1-C1", 5)
    onto_king = spit([["AS", "QS"], ["9H"]], ["KD", "2C"], wrap="ace_bridge")
    assert onto_king.legal_moves(0) == ["T1-C1", "T1-C2", "T2-C1"]


def test_a_joker_goes_on_anything_and_takes_anything() -> None:
    state = spit([["X", "3D"], ["9H"]], ["7S", "QC"], jokers=2)
    assert state.legal_moves(0) == ["T1-C1", "T1-C2"]
    state.apply(0, "T1-C1", 1)
    state.apply(0, "T2-C1", 2)
    assert tops(state) == ["3D", "QC"]


def test_an_empty_center_takes_no_card() -> None:
    state = spit([["5C"], ["9S"]], ["", "4D"], rest="spit1")
    assert tops(state) == [None, "4D"]
    with pytest.raises(IllegalMoveError, match="center 1 is empty: it takes no card until a spit flip"):
        state.apply(0, "T1-C1", 1)
    assert state.legal_moves(0) == ["T1-C2"]


def test_moves_naming_missing_piles_are_refused() -> None:
    state = spit([["5C"], ["9S"]], ["4D", "JC"])
    with pytest.raises(IllegalMoveError, match="there is no tableau pile 6"):
        state.apply(0, "T6-C1", 1)
    with pytest.raises(IllegalMoveError, match="there is no center pile 3"):
        state.apply(0, "T1-C3", 1)
    with pytest.raises(IllegalMoveError, match="your tableau pile 2 is empty"):
        state.apply(0, "T2-C1", 1)
    with pytest.raises(IllegalMoveError, match="is not a Spit move"):
        state.apply(0, "H7-C1", 1)
    with pytest.raises(IllegalMoveError, match="there is no seat 2"):
        state.apply(2, "T1-C1", 1)


# ---------------------------------------------------------------------- empty slots (rule 4)
def test_a_card_with_a_card_beneath_may_move_to_an_empty_slot() -> None:
    state = spit([["5C", "KD 9H"], ["9S"]], ["4D", "JC"])
    with pytest.raises(IllegalMoveError, match="5C is the last card of pile 1: only a card with a card beneath"):
        state.apply(0, "T1-T3", 1)
    with pytest.raises(IllegalMoveError, match=r"tableau slot 1 is not empty \(it shows 5C\)"):
        state.apply(0, "T2-T1", 1)
    state.apply(0, "T2-T5", 2)
    view = state.view(0)
    assert [(p.top, p.cards) for p in view.players[0].tableau] == [
        (c("5C"), 1),
        (c("KD"), 1),
        (None, 0),
        (None, 0),
        (c("9H"), 1),
    ]


def test_a_slot_move_can_unstick_the_table() -> None:
    state = spit([["9C", "5C 9D"], ["9S"]], ["AD 4D", "2C JC"])
    assert state.stuck  # 5C, which would fit on 4D, is face down
    assert state.legal_moves(0) == ["T2-T3", "T2-T4", "T2-T5", "spit"]
    state.apply(0, "spit", 10)
    assert state.called == [True, False]
    state.apply(0, "T2-T3", 20)  # reveals 5C, which fits on 4D
    assert not state.stuck and state.called == [False, False]
    with pytest.raises(IllegalMoveError, match="the table is not stuck: seat 0 can play 5C \\(T2\\) on center 1"):
        state.apply(1, "spit", 30)


# ---------------------------------------------------------------------- stuck and the spit flip (rules 2, 5)
def test_stuck_table_flips_when_every_player_with_spit_cards_called() -> None:
    state = spit([["9C"], ["2H"]], ["10S 4D", "KS JC"])
    assert state.stuck
    assert state.view(0).to_json()["stuck"] is True
    assert state.legal_moves(0) == ["spit"] and state.legal_moves(1) == ["spit"]
    assert state.apply(0, "spit", 100)[-1].kind == "move"
    with pytest.raises(IllegalMoveError, match="you have already called spit; waiting for seat 1"):
        state.apply(0, "spit", 150)
    assert state.view(None).to_json()["players"][0]["called_spit"] is True
    events = state.apply(1, "spit", 200)
    assert [e.kind for e in events] == ["move", "flip"]
    assert events[1].text == "C1 10S, C2 KS"
    assert tops(state) == ["10S", "KS"] and not state.stuck
    assert state.called == [False, False]
    assert state.legal_moves(0) == ["T1-C1"]


def test_a_player_without_spit_cards_is_skipped() -> None:
    state = spit([["9C"], ["2H"]], ["", "QD KS 4D"], rest="centers", center_cards=["7C", ""])
    assert tops(state) == ["7C", "4D"] and state.stuck
    assert state.legal_moves(0) == []
    events = state.apply(1, "spit", 100)
    assert [e.kind for e in events] == ["move", "flip"]
    assert tops(state) == ["7C", "KS"]


def test_three_centers_feed_the_third_pile_in_turn() -> None:
    state = spit([["9S"], ["9H"]], ["2C 3C 4C", "2D 3D 4D 5D"], centers=3, rest="centers")
    assert tops(state)[0] == "4C" and tops(state)[1] == "5D" and tops(state)[2] == "3C"  # seat 0 feeds C3 first
    state.apply(0, "spit", 10)
    state.apply(1, "spit", 20)
    assert tops(state) == ["2C", "4D", "3D"]  # then seat 1
    assert state.spits == [[], [c("2D")]]
    events = state.apply(1, "spit", 30)  # seat 0 has nothing left: seat 1 flips alone, C3 gets nothing
    assert events[1].text == "C2 2D"
    assert [len(p) for p in state.centers][2] == 2


def test_three_centers_skip_a_seat_without_cards_for_the_third_pile() -> None:
    state = spit([["9S"], ["9H"]], ["4C", "2D 3D 5D"], centers=3, rest="centers")
    assert tops(state) == ["4C", "5D", "3D"]  # seat 0's only card went to C1, seat 1 fed C3


def test_stuck_without_spit_cards_ends_the_round_fewer_tableau_cards_win() -> None:
    state = spit([["9S", "9D"], ["9H"]], ["", ""], center_cards=["4C", "4D"], rest="centers")
    assert state.phase == "slap" and state.round_winner == 1
    assert state.legal_moves(1) == ["slap C1", "slap C2"] and state.legal_moves(0) == []


def test_stuck_without_spit_cards_goes_on_while_a_slot_move_turns_up_a_card() -> None:
    # rule 2.2.5: 3C lies face down under 9D; moving 9D into an empty slot turns it up, and it fits
    state = spit([["9S", "3C 9D"], ["9H"]], ["", ""], center_cards=["4C", "4D"], rest="centers")
    assert state.phase == "play" and state.stuck and state.round_winner is None
    assert state.legal_moves(0) == ["T2-T3", "T2-T4", "T2-T5"] and state.legal_moves(1) == []
    assert state.next_event_time() is None  # nothing fires by itself: the player's slot move decides
    events = state.apply(0, "T2-T3", 100)
    assert [(e.kind, e.text) for e in events] == [("move", "T2-T3")]
    assert not state.stuck and state.legal_moves(0) == ["T2-C1", "T2-C2"]
    state.apply(0, "T2-C1", 200)  # the turned-up 3C plays; 9S, 9D and 9H fit nowhere: now the round ends
    assert state.phase == "slap" and state.round_winner == 1


def test_stuck_without_spit_cards_ends_once_the_card_turned_up_does_not_fit() -> None:
    state = spit([["9S", "8C 9D"], ["9H"]], ["", ""], center_cards=["4C", "4D"], rest="centers")
    assert state.phase == "play" and state.stuck
    events = state.apply(0, "T2-T3", 100)  # 8C turns up and fits nowhere; no face-down card is left
    assert [(e.kind, e.seat, e.text) for e in events] == [("move", 0, "T2-T3"), ("round-won", 1, "stuck")]
    assert state.phase == "slap" and state.round_winner == 1


def test_stuck_without_spit_cards_tie_goes_to_the_last_center_play() -> None:
    state = spit([["9S", "9D"], ["9H", "9C", "7H"]], ["", ""], center_cards=["4C", "8D"], rest="centers")
    assert state.phase == "play"
    events = state.apply(1, "T3-C2", 100)
    assert [(e.kind, e.seat, e.text) for e in events[-1:]] == [("round-won", 1, "stuck")]
    assert state.round_winner == 1


# ---------------------------------------------------------------------- round end, slap, next round (6–8)
def round_won_by_seat0() -> SpitState:
    state = spit([["5C"], ["9H"]], ["", "4D"], rest="spit1")
    events = state.apply(0, "T1-C2", 100)
    assert [(e.kind, e.seat) for e in events] == [("move", 0), ("round-won", 0)]
    return state


def test_emptying_tableau_and_spit_pile_wins_the_round_and_stops_play() -> None:
    state = round_won_by_seat0()
    assert state.phase == "slap" and state.view(1).round_winner == 0
    assert state.legal_moves(0) == ["slap C1", "slap C2"] and state.legal_moves(1) == []
    with pytest.raises(IllegalMoveError, match="too late: the round is over; seat 0 has won it"):
        state.apply(1, "spit", 200)
    with pytest.raises(IllegalMoveError, match="only the round winner, seat 0, may slap"):
        state.apply(1, "slap C1", 200)


def test_slapping_an_empty_pile_with_nothing_left_wins_the_game() -> None:
    state = round_won_by_seat0()
    events = state.apply(0, "slap C1", 300)
    assert state.finished and state.result == {"winner": 0, "reason": "out-of-cards"}
    assert events[-1].kind == "game-over" and events[-1].seat == 0
    assert state.cards_held(0) == 0 and state.cards_held(1) == 52
    assert state.legal_moves(0) == [] and state.legal_moves(1) == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply(1, "T1-C1", 400)


def test_the_slap_splits_the_centers_and_lays_out_a_new_round_from_the_seed() -> None:
    state = round_won_by_seat0()
    events = state.apply(0, "slap C2", 300)
    assert [e.kind for e in events] == ["move", "deal", "flip"]
    assert state.round == 2 and state.phase == "play"
    # seat 0 took C2 (4D, 5C): 2 cards → a pile of 1 and a spit pile of 1, flipped at once
    assert [len(p) for p in state.tableaus[0]] == [1, 0, 0, 0, 0] and state.spits[0] == []
    assert sorted([state.tableaus[0][0][0], state.centers[0][0]]) == sorted(cards("4D 5C"))
    assert [len(p) for p in state.tableaus[1]] == [1, 2, 3, 4, 5] and len(state.spits[1]) == 50 - 15 - 1
    moves = state.to_record_moves()
    assert moves[-1]["deal"]["tableaus"][0][0] in (["4D"], ["5C"])


def test_the_next_round_may_come_from_a_deal_entry() -> None:
    state = round_won_by_seat0()
    collected_1 = sorted(x for x in range(52) if x not in cards("4D 5C"))
    deal = spit_deal([["5C"], ["9H"]], ["4D", ""], rest="spit1")
    assert sorted(x for p in deal["spits"][1] for x in cards(p)) == sorted(set(collected_1) - {c("9H")})
    wrong = spit_deal([["5C"], ["9H"]], ["4D", ""], rest="spit1")
    wrong["spits"][0], wrong["spits"][1][0] = [wrong["spits"][1][0]], "4D"  # seat 0 lays out a card of seat 1
    before = fingerprint(state)
    state.supply_chance({"deal": wrong})
    with pytest.raises(MalformedRecordError, match="seat 0 must lay out exactly their own cards"):
        state.apply(0, "slap C2", 300)
    assert fingerprint(state) == before
    state = round_won_by_seat0()
    state.supply_chance({"deal": deal})
    state.apply(0, "slap C2", 300)
    assert tops(state)[0] == "4D" and state.tableaus[0][0] == cards("5C")
    assert state.pending_chance == 0
    padded = [tab + [[]] * (5 - len(tab)) for tab in deal["tableaus"]]
    assert state.to_record_moves()[-1] == {"deal": {**deal, "tableaus": padded}}


def test_without_seed_or_deal_entry_the_next_round_is_missing() -> None:
    state = spit([["5C"], ["9H"]], ["", "4D"], rest="spit1", seed=None)
    state.apply(0, "T1-C2", 100)
    before = fingerprint(state)
    with pytest.raises(MissingChanceError, match="round 2 needs a new layout"):
        state.apply(0, "slap C2", 200)
    assert fingerprint(state) == before


@pytest.mark.parametrize(
    ("n", "piles", "spit_cards"),
    [
        (26, [1, 2, 3, 4, 5], 11),
        (15, [1, 2, 3, 4, 5], 0),
        (14, [1, 2, 3, 4, 0], 4),
        (9, [1, 2, 3, 0, 0], 3),
        (2, [1, 0, 0, 0, 0], 1),
        (1, [1, 0, 0, 0, 0], 0),
        (40, [1, 2, 3, 4, 5], 25),
    ],
)
def test_fewer_cards_lay_out_fewer_piles(n: int, piles: list[int], spit_cards: int) -> None:
    laid, rest = lay_out(list(range(n)))
    assert [len(p) for p in laid] == piles and len(rest) == spit_cards


def test_winning_rounds_in_a_row_wins_the_game() -> None:
    state = spit([["5C"], ["9H"]], ["", "4D"], rest="spit1", rounds_in_a_row=2)
    state.apply(0, "T1-C2", 100)
    state.supply_chance({"deal": spit_deal([["5C"], ["9H"]], ["4D", ""], rest="spit1")})
    state.apply(0, "slap C2", 200)
    assert state.phase == "play" and state.streak == 1
    state.apply(0, "T1-C1", 300)
    assert state.phase == "slap" and state.streak == 2
    state.apply(0, "slap C1", 400)
    assert state.result == {"winner": 0, "reason": "rounds"}
    assert state.view(0).players[0].rounds_won == 2


# ---------------------------------------------------------------------- time (the caller's clock)
def test_the_time_limit_ends_the_game_fewer_cards_win() -> None:
    state = spit([["9C"], ["2H"]], ["10S 4D", "KS JC"], rest="spit1", time_limit_s=10)
    assert state.next_event_time() == 10_000
    assert state.advance(9_999) == []
    events = state.advance(12_000)
    assert [(e.kind, e.seat, e.text, e.t) for e in events] == [("game-over", 0, "time", 10_000)]
    assert state.result == {"winner": 0, "reason": "time"} and state.now == 12_000
    assert state.to_record_moves() == [{"t": 10_000}]


def test_a_move_at_the_time_limit_is_too_late() -> None:
    state = spit([["5C"], ["2H"]], ["4D", "KS"], time_limit_s=10)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.apply(0, "T1-C1", 10_000)
    assert not state.finished and state.now == 0  # refused: nothing changed, not even the clock
    state.apply(0, "T1-C1", 9_999)


def test_time_limit_tie_goes_to_the_last_round_winner_else_nobody() -> None:
    state = spit([["9C"], ["2H"]], ["4D", "JC"], time_limit_s=1)
    assert state.cards_held(0) == state.cards_held(1)
    state.copy().advance(1000)
    tied = state.copy()
    tied.advance(1000)
    assert tied.result == {"winner": None, "reason": "time"}
    state.last_round_winner = 1
    state.advance(1000)
    assert state.result == {"winner": 1, "reason": "time"}


def test_time_must_not_go_backwards() -> None:
    state = spit([["5C"], ["2H"]], ["4D", "KS"])
    state.advance(500)
    before = fingerprint(state)
    with pytest.raises(ClockError, match="time goes backwards: 400 ms is before 500 ms"):
        state.apply(0, "T1-C1", 400)
    with pytest.raises(ClockError):
        state.advance(499)
    assert fingerprint(state) == before


def test_auto_spit_calls_for_players_who_did_not() -> None:
    state = spit([["9C"], ["2H"]], ["10S 4D", "KS JC"], auto_spit_ms=3000)
    assert state.stuck and state.next_event_time() == 3001
    state.apply(0, "spit", 1000)
    assert state.advance(3000) == []  # due at 3000, fires once that instant has passed
    events = state.advance(3500)
    assert [(e.kind, e.seat, e.auto, e.t) for e in events] == [("move", 1, True, 3000), ("flip", None, False, 3000)]
    assert tops(state) == ["10S", "KS"]
    assert state.to_record_moves() == [{"t": 1000, "p": 0, "m": "spit"}, {"t": 3000, "p": 1, "m": "spit"}]


def test_a_spit_call_at_the_deadline_is_the_players_own() -> None:
    state = spit([["9C"], ["2H"]], ["10S 4D", "KS JC"], auto_spit_ms=3000)
    events = state.apply(0, "spit", 3000)
    assert [(e.seat, e.auto) for e in events] == [(0, False)]
    events = state.advance(3001)
    assert [(e.kind, e.seat, e.auto) for e in events] == [("move", 1, True), ("flip", None, False)]


def test_auto_slap_takes_the_smaller_pile() -> None:
    state = spit([["5C"], ["9H"]], ["", "4D"], rest="spit1", auto_slap_ms=5000)
    state.apply(0, "T1-C2", 100)
    assert state.next_event_time() == 5101
    events = state.advance(6000)
    assert [(e.kind, e.text, e.auto) for e in events] == [
        ("move", "slap C1", True),  # C1 is empty, C2 holds 4D 5C
        ("game-over", "out-of-cards", False),
    ]
    assert state.result == {"winner": 0, "reason": "out-of-cards"}
    assert state.to_record_moves()[-1] == {"t": 5100, "p": 0, "m": "slap C1"}


def test_slowpoke_holds_every_center_play_after_a_flip() -> None:
    state = spit([["5C", "KD 9H"], ["2H"]], ["10S 4D", "KS JC"], slowpoke_ms=2000)
    assert state.play_from == 2000
    assert state.legal_moves(0) == ["T2-T3", "T2-T4", "T2-T5"]
    with pytest.raises(IllegalMoveError, match="wait: after the spit flip nobody may play before 2000 ms"):
        state.apply(0, "T1-C1", 1999)
    state.apply(0, "T2-T3", 500)  # moving into an empty slot is not a play
    state.apply(0, "T1-C1", 2000)
    assert tops(state)[0] == "5C"


def test_copy_is_independent() -> None:
    state = spit([["5C", "KD 6H"], ["9S"]], ["4D", "JC"])
    other = state.copy()
    other.apply(0, "T1-C1", 10)
    assert tops(state) == ["4D", "JC"] and tops(other) == ["5C", "JC"]
    assert state.to_record_moves() == [] and len(other.to_record_moves()) == 1
    assert state.tableaus[0][0] == cards("5C")


def test_options_object_is_kept() -> None:
    state = spit([["5C"], ["9S"]], ["4D", "JC"], centers=3)
    assert state.options == SpitOptions.from_preset("three-piles", {"auto_spit_ms": 0, "auto_slap_ms": 0})


def test_an_automatic_spit_due_just_before_the_time_limit_still_happens() -> None:
    state = spit([["9C"], ["2H"]], ["10S 4D", "KS JC"], auto_spit_ms=2999, time_limit_s=3)
    events = state.advance(5000)
    assert [(e.kind, e.t) for e in events] == [("move", 2999), ("move", 2999), ("flip", 2999), ("game-over", 3000)]
    same = spit([["9C"], ["2H"]], ["10S 4D", "KS JC"], auto_spit_ms=3000, time_limit_s=3)
    assert [e.kind for e in same.advance(5000)] == ["game-over"]  # due at the limit: the game is over first
