"""A hand move that names its card (records.md §2: ``H7H-B4``): the card named is the one that leaves
the hand; for every rule it is the same move as its rank form."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from helpers import cards, hand_text, position
from spite.cards import RANKS, TOKENS, format_cards, parse_card
from spite.errors import IllegalMoveError, RecordMoveError
from spite.malice import HAND, Options, State, parse_move
from spite.malice.moves import with_card
from spite.malice.record import record_from_state
from spite.records import parse_record, replay


def _state() -> State:
    """Seat 0 holds three 7s and two 5s; build pile 1 needs a 5, build pile 2 a 7."""
    return position(stocks=["9C", "9D"], hands=["7H 5D 7S 5S 7C", "4H"],
                    builds=["AS 2S 3S 4S", "AH 2H 3H 4H 5H 6H", "", ""])


def test_a_named_build_play_takes_that_card_and_the_rank_form_the_first() -> None:
    state = _state()
    state.play("H7S-B2")
    assert format_cards(state.builds[1])[-1] == "7S"
    assert hand_text(state, 0) == ["7H", "5D", "5S", "7C"]
    state.play("H5S-B1")
    assert format_cards(state.builds[0])[-1] == "5S"
    state.play("H7-D1")
    assert format_cards(state.discards[0][0]) == ["7H"]


@pytest.mark.parametrize("card", ["7H", "7S", "7C"])
def test_a_named_discard_puts_the_very_card_where_every_seat_sees_it(card: str) -> None:
    state = _state()
    state.play(f"H{card}-D3")
    assert format_cards(state.discards[0][2]) == [card]
    assert state.view(1).discards[0][2] == (parse_card(card),)
    assert sorted(hand_text(state, 0)) == sorted({"7H", "7S", "7C", "5D", "5S"} - {card})


def test_a_card_named_that_is_not_in_the_hand_is_refused_and_nothing_changes() -> None:
    state = _state()
    before = state.show_json(everything=True)
    for move, why in (("H7D-B2", "you hold no 7D"), ("H5H-D1", "you hold no 5H")):
        with pytest.raises(IllegalMoveError) as err:
            state.play(move)
        assert str(err.value) == why
        assert err.value.phrase is not None and err.value.phrase.key == "refuse.not-in-hand.card"
        assert not state.is_legal(move)
    assert state.show_json(everything=True) == before


def test_a_named_move_is_legal_exactly_when_its_rank_form_is_and_refused_with_its_reason() -> None:
    state = _state()
    with pytest.raises(IllegalMoveError, match="a 7 cannot go on build pile 1, it needs a 5") as named:
        state.play("H7H-B1")
    with pytest.raises(IllegalMoveError) as plain:
        state.play("H7-B1")
    assert str(named.value) == str(plain.value)
    assert named.value.phrase == plain.value.phrase


def test_legal_lists_the_rank_forms_only() -> None:
    texts = [m.text for m in _state().legal_moves()]
    assert "H7-B2" in texts and "H5-B1" in texts and "H7-D1" in texts
    assert all(parse_move(t).card == -1 and parse_move(t).rank_form is parse_move(t) for t in texts)


@pytest.mark.parametrize("text, skipbo", [("HXS-B1", False), ("H7H-B1", True), ("H1S-B1", False),
                                          ("H12H-B1", True), ("S7H-B1", False), ("D1H-B1", False)])
def test_cards_without_a_suit_and_other_sources_name_no_card(text: str, skipbo: bool) -> None:
    with pytest.raises(IllegalMoveError, match="is no move of this game"):
        parse_move(text, skipbo)


def test_a_named_move_reads_as_written_and_knows_its_rank_form() -> None:
    move = parse_move("htc-b3")
    assert (move.text, move.rank, move.card, move.source, move.target) == ("H10C-B3", 10, parse_card("10C"), HAND, 2)
    assert move.rank_form is parse_move("H10-B3") and move.rank_form.rank_form is move.rank_form
    assert parse_move("H10C-B3") is move  # interned
    assert pickle.loads(pickle.dumps(move)) is move
    assert with_card(parse_move("HK-D1"), parse_card("KD")) is parse_move("HKD-D1")
    assert with_card(parse_move("HX-B1"), parse_card("X")) is parse_move("HX-B1")
    assert with_card(parse_move("S-B1"), parse_card("KD")) is parse_move("S-B1")
    with pytest.raises(ValueError, match="KD is no card of rank Q"):
        with_card(parse_move("HQ-B1"), parse_card("KD"))


def test_undo_of_a_named_move_puts_the_card_back_where_it_was() -> None:
    state = _state()
    before = state.show_json(everything=True)
    state.play("H7C-B2")
    state.play("H5S-B1")
    state.undo()
    state.undo()
    assert state.show_json(everything=True) == before
    state.play("H7S-D2")
    state.undo()
    assert state.show_json(everything=True) == before


def test_a_record_keeps_each_move_as_it_was_made_and_replays_it() -> None:
    state = _state()
    for move in ("H7S-B2", "H5-B1", "H7C-D4"):
        state.play(move)
    record = record_from_state(state)
    assert [m for m in record.moves if isinstance(m, str)] == ["H7S-B2", "H5-B1", "H7C-D4"]
    again = parse_record(json.dumps(record.to_json()))
    replayed = replay(again)
    assert replayed.show() == state.show_json(everything=True)
    assert format_cards(replayed.state.discards[0][3]) == ["7C"]


def test_a_record_naming_a_card_the_hand_does_not_hold_does_not_check() -> None:
    state = _state()
    record = record_from_state(state).to_json()
    record["moves"] = [*record["moves"], "H7D-B2"]
    with pytest.raises(RecordMoveError, match="you hold no 7D"):
        replay(parse_record(json.dumps(record)))


def _named_choice(state: State, rng: random.Random) -> str:
    """A legal move of the position, a hand move naming a card of its rank picked at random."""
    move = rng.choice(state.legal_moves())
    if move.source != HAND or move.kind not in (0, 1):
        return move.text
    same = [c for c in state.hands[state.to_move] if RANKS[c] == move.rank]
    return with_card(move, rng.choice(same)).text


@pytest.mark.parametrize("preset", ["classic", "skip-bo", "partners", "match"])
def test_random_games_with_named_cards_play_replay_and_check_like_their_record(preset: str) -> None:
    rng = random.Random(preset)
    for seed in range(4):
        state = State.new(Options.from_preset(preset), seed=seed)
        while not state.is_over and state.plies < 400:
            text = _named_choice(state, rng)
            rank_form = parse_move(text, state.opts.skipbo).rank_form
            assert rank_form in state.legal_moves() and state.is_legal(text)
            hand = list(state.hands[state.to_move])
            played = state.play(text)
            named = parse_move(text, state.opts.skipbo).card
            if named >= 0:
                assert played.card == named and TOKENS[played.card] == text.split("-")[0][1:]
            elif played.move.source == HAND:
                assert played.card == next(c for c in hand if RANKS[c] == rank_form.rank)
        replayed = replay(parse_record(json.dumps(record_from_state(state, preset).to_json())))
        assert replayed.show() == state.show_json(everything=True)


def test_a_position_with_three_cards_of_a_rank_plays_each_one() -> None:
    for card in ("7H", "7S", "7C"):
        state = _state()
        state.play(f"H{card}-B2")
        assert state.builds[1][-1] == cards(card)[0]
