"""Scenario tests: one or more per ruling of docs/rules.md §1.3, built from explicit positions."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from helpers import cards, hand_text, legal_texts, position
from spite.cards import format_cards
from spite.errors import DealError, IllegalMoveError, MissingChanceError, RecordMoveError
from spite.malice import Options, State
from spite.malice.record import record_from_state
from spite.records import Record, parse_record, replay
from waiting import bounded

CLASSIC = Options()


# ---------------------------------------------------------------- 1. deal
@pytest.mark.parametrize("preset", ["classic", "short", "match", "skip-bo", "party", "partners"])
def test_deal_gives_stocks_hands_and_the_rest_to_the_draw_pile(preset: str) -> None:
    opts = Options.from_preset(preset)
    state = State.new(opts, seed=12)
    assert len(state.stocks) == opts.n_stocks
    assert all(len(s) == opts.stock_size for s in state.stocks)
    # the player to move has already drawn; the others hold their dealt hands
    assert all(len(h) == opts.hand_size for h in state.hands)
    total = sum(map(len, state.stocks)) + sum(map(len, state.hands)) + len(state.draw)
    assert total == len(opts.deck_cards())
    assert Counter(c for pile in [*state.stocks, *state.hands, state.draw] for c in pile) == Counter(
        opts.deck_cards())


def test_same_seed_same_game_and_the_cut_varies_with_the_seed() -> None:
    a, b = State.new(CLASSIC, seed=99), State.new(CLASSIC, seed=99)
    assert a.stocks == b.stocks and a.hands == b.hands and a.draw == b.draw and a.to_move == b.to_move
    starters = {State.new(CLASSIC, seed=s).to_move for s in range(20)}
    assert starters == {0, 1}


def test_deal_position_is_before_the_turn_start_draw() -> None:
    state = position(stocks=["5C", "9D"], hands=["2C 3D", "4H"], draw="6S 7S 8S 9S", to_move=1)
    # seat 1 drew 4 cards from the top of the draw pile (its last element first)
    assert hand_text(state, 1) == ["4H", "9S", "8S", "7S", "6S"]
    assert hand_text(state, 0) == ["2C", "3D"]


def test_deal_that_does_not_match_the_deck_is_refused() -> None:
    with pytest.raises(DealError, match="7H"):
        State.from_deal(CLASSIC, stocks=[cards("7H 7H 7H"), cards("2C")], hands=[[], []], draw=[])


# ---------------------------------------------------------------- 2. turn start
def test_next_player_draws_up_to_five_at_turn_start() -> None:
    state = position(stocks=["5C", "9D"], hands=["2C 3D 4D 6D 7D", "4H"], draw="8S 9S JS JH", to_move=0)
    state.play("H7-D1")
    assert state.to_move == 1
    assert hand_text(state, 1) == ["4H", "JH", "JS", "9S", "8S"]


# ---------------------------------------------------------------- 3. build plays
def test_ace_starts_an_empty_slot_and_any_empty_slot_is_a_different_move() -> None:
    state = position(stocks=["9C", "9D"], hands=["AS 5D 6D 7D 8D", "4H"])
    moves = legal_texts(state)
    assert {"HA-B1", "HA-B2", "HA-B3", "HA-B4"} <= moves
    assert not any(m.startswith("H5-B") for m in moves)


def test_a_card_fits_one_above_the_pile_value() -> None:
    state = position(stocks=["9C", "9D"], hands=["5D 6D 7D 8D 9H", "4H"], builds=["AS 2S 3S 4S", "", "", ""])
    state.play("H5-B1")
    assert state.build_value(0) == 5
    with pytest.raises(IllegalMoveError, match="a 7 cannot go on build pile 1, it needs a 6"):
        state.play("H7-B1")


def test_the_spec_example_error_message() -> None:
    state = position(stocks=["9C", "9D"], hands=["7D 8D 9H 10H JH", "4H"], builds=["", "AS 2S 3S 4S", "", ""])
    before = state.show_json(everything=True)
    with pytest.raises(IllegalMoveError) as err:
        state.play("H7-B2")
    assert str(err.value) == "a 7 cannot go on build pile 2, it needs a 5"
    assert state.show_json(everything=True) == before  # state unchanged


def test_wilds_take_any_value_including_ace() -> None:
    state = position(stocks=["9C", "9D"], hands=["KS X 5D 6D 8D", "4H"], builds=["AS 2S", "", "", ""])
    moves = legal_texts(state)
    assert {"HK-B1", "HK-B2", "HK-B3", "HK-B4", "HX-B1", "HX-B4"} <= moves
    state.play("HK-B2")  # a king starting a pile stands for an Ace
    assert state.build_value(1) == 1
    state.play("HX-B1")  # a joker on a 2 stands for a 3
    assert state.build_value(0) == 3


def test_aces_are_never_wild() -> None:
    state = position(stocks=["9C", "9D"], hands=["AS 5D 6D 7D 8D", "4H"], builds=["AH", "", "", ""])
    with pytest.raises(IllegalMoveError, match="an Ace cannot go on build pile 1, it needs a 2"):
        state.play("HA-B1")


def test_a_pile_reaching_queen_leaves_at_once_and_is_shuffled_into_the_draw_pile() -> None:
    builds = ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "", "", ""]
    state = position(stocks=["9C", "9D"], hands=["QH 5D 6D 7D 8D", "4H"], builds=builds, draw="2C 3C")
    draw_before = len(state.draw)
    state.play("HQ-B1")
    assert state.builds[0] == ()
    assert len(state.draw) == draw_before + 12
    assert state.chance_log and len(state.chance_log[-1][1]) == draw_before + 12
    assert "HA-B1" not in legal_texts(state)  # the slot is empty and ready for an Ace (none in hand)


def test_a_wild_standing_for_the_queen_completes_the_pile() -> None:
    builds = ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "", "", ""]
    state = position(stocks=["9C", "9D"], hands=["KH 5D 6D 7D 8D", "4H"], builds=builds)
    state.play("HK-B1")
    assert state.builds[0] == ()


def test_set_aside_keeps_completed_piles_face_down_until_the_draw_pile_runs_out() -> None:
    opts = Options.from_preset("classic", {"completed": "set_aside"})
    builds = ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "", "", ""]
    state = position(opts, stocks=["9C", "9D"], hands=["QH 5D 6D 7D 8D", "4H"], builds=builds)
    draw_before = len(state.draw)
    state.play("HQ-B1")
    assert len(state.set_aside) == 12 and len(state.draw) == draw_before
    assert state.chance_log == []


# ---------------------------------------------------------------- 4. refill
def test_an_emptied_hand_is_refilled_at_once_and_the_turn_goes_on() -> None:
    state = position(stocks=["9C", "9D"], hands=["AS 2S 3S 4S 5S", "4H"], draw="2C 3C 4C 5C 6C 7C")
    state.apply_all(["HA-B1", "H2-B1", "H3-B1", "H4-B1"])
    assert hand_text(state, 0) == ["5S"]
    state.play("H5-B1")
    assert state.to_move == 0
    assert hand_text(state, 0) == ["7C", "6C", "5C", "4C", "3C"]


def test_without_refill_an_empty_hand_ends_the_turn_with_pass() -> None:
    opts = Options.from_preset("classic", {"refill_empty_hand": False})
    state = position(opts, stocks=["9C", "9D"], hands=["AS", "4H"])
    state.play("HA-B1")
    assert state.hands[0] == []
    assert legal_texts(state) == {"pass"}
    state.play("pass")
    assert state.to_move == 1


# ---------------------------------------------------------------- 5. turn end
def test_the_turn_ends_with_a_discard_to_any_own_slot() -> None:
    state = position(stocks=["9C", "9D"], hands=["5D 6D 7D 8D 10D", "4H"], discards=[["6H", "", "", ""],
                                                                                       ["", "", "", ""]])
    assert {"H5-D1", "H5-D2", "H5-D3", "H5-D4"} <= legal_texts(state)
    state.play("H5-D1")  # any rank order: a 5 onto a 6
    assert format_cards(state.discards[0][0]) == ["6H", "5D"]
    assert state.to_move == 1


def test_aces_may_not_be_discarded_unless_discard_aces() -> None:
    state = position(stocks=["9C", "9D"], hands=["AS AH 5D", "4H"], builds=["AD", "AC", "AS", "AH"], rest="draw")
    assert not any(m.startswith("HA-D") for m in legal_texts(state))
    with pytest.raises(IllegalMoveError, match="an Ace may not be discarded"):
        state.play("HA-D1")
    opts = Options.from_preset("classic", {"discard_aces": True})
    state = position(opts, stocks=["9C", "9D"], hands=["AS AH 5D", "4H"], builds=["AD", "AC", "AS 2S", "AH 2H"])
    assert "HA-D1" in legal_texts(state)


def test_the_match_game_discards_an_ace_when_the_three_build_piles_are_taken() -> None:
    # the match text: "Du kannst jede beliebige Karte auf deine Seitenstapel legen"
    match = Options.from_preset("match")
    state = position(match, stocks=["9C", "9D"], hands=["AH AS 5D", "4H"], builds=["AD", "AC 2C", "AS 2S 3S"],
                     rest="draw")
    assert {"HA-D1", "HA-D2", "HA-D3", "HA-D4"} <= legal_texts(state)
    state.play("HA-D2")
    assert format_cards(state.discards[0][1]) == ["AH"] and state.to_move == 1
    # a hand of aces only is no reason to pass in a match: an ace goes onto a side stack
    state = position(match, stocks=["9C", "9D"], hands=["AH AH", "4H"], builds=["AD", "AC 2C", "AS 2S 3S"], rest="draw")
    assert "pass" not in legal_texts(state)
    assert sorted(m for m in legal_texts(state) if m.startswith("HA-D")) == ["HA-D1", "HA-D2", "HA-D3", "HA-D4"]


def test_a_match_record_with_an_ace_discard_checks() -> None:
    match = Options.from_preset("match")
    state = position(match, stocks=["9C", "9D"], hands=["AH AS 5D", "4H"], builds=["AD", "AC 2C", "AS 2S 3S"],
                     rest="draw")
    deal = record_from_state(state).deal
    record = parse_record(json.dumps(Record("spite-malice", "match", {}, None, deal, ["HA-D1"]).to_json()))
    assert replay(record).check() == {"ok": True, "plies": 1, "finished": False, "result": None, "to_move": 1}
    # the same deal under the classic rules refuses the move, naming the ply and the reason
    classic = Record("spite-malice", "classic", {"stock_size": 20, "build_piles": 3, "jokers": 0}, None, deal,
                     ["HA-D1"])
    with pytest.raises(RecordMoveError, match="an Ace may not be discarded"):
        replay(classic).check()


def test_pass_only_when_no_card_may_be_discarded() -> None:
    state = position(stocks=["9C", "9D"], hands=["AS 5D", "4H"], builds=["AD 2D 3D", "", "", ""], draw="")
    assert "pass" not in legal_texts(state)
    with pytest.raises(IllegalMoveError, match="you may pass only when"):
        state.play("pass")
    # a hand of aces only: pass is the only way to end the turn
    state = position(stocks=["9C", "9D"], hands=["AS AH", "4H"], builds=["AD", "AC", "AS 2S 3S", "AH 2H 3H"],
                     rest="stock:1")
    assert "pass" in legal_texts(state)
    assert not any("-D" in m for m in legal_texts(state))


# ---------------------------------------------------------------- 6. win and scoring
def test_playing_the_last_stock_card_wins_at_once() -> None:
    state = position(stocks=["5C", "9D 9H 9S"], hands=["2C 2D", "4H"], builds=["AS 2S 3S 4S", "", "", ""],
                     rest="stock:1")
    state.play("S-B1")
    assert state.is_over
    assert state.result is not None and state.result.to_json() == {"winner": 0, "reason": "stock"}
    assert state.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.play("H2-D1")


def test_payoff_scoring_counts_the_cards_left_in_every_opponent_stock() -> None:
    opts = Options.from_preset("match")
    state = position(opts, stocks=["5C", "9D 9H 9S 8C"], hands=["2C", "4H"], builds=["AS 2S 3S 4S", "", ""],
                     rest="draw")
    state.play("S-B1")
    assert state.result is not None and state.result.to_json() == {"winner": 0, "reason": "stock", "points": 4}


def test_partners_share_one_stock_and_win_as_a_team() -> None:
    opts = Options.from_preset("partners")
    state = position(opts, stocks=["5C 6C", "9D 9H"], hands=["2C", "4H", "3C", "3H"],
                     builds=["AS 2S 3S 4S 5S", "", "", ""], to_move=0, rest="stock:1")
    assert state.view(2).stock_top(2) == state.view(0).stock_top(0) == cards("6C")[0]
    assert state.show_json(1)["players"][2]["stock"] == state.show_json(1)["players"][0]["stock"]
    state.play("S-B1")  # seat 0 plays the team stock's 6C
    assert state.stocks[0] == cards("5C") and state.stock_of(2) is state.stocks[0]


def test_partners_team_result() -> None:
    opts = Options.from_preset("partners")
    state = position(opts, stocks=["5C", "9D 9H"], hands=["2C", "4H", "3C", "3H"],
                     builds=["AD 2D 3D", "", "", ""], to_move=1, rest="stock:1")
    # seat 1 ends its turn; seat 2 (team 0) plays the team stock's top
    state.play("H4-B1")
    assert state.stocks[0][-1] == cards("5C")[0]
    state.play(next(m for m in state.legal_moves() if m.ends_turn))
    assert state.to_move == 2
    state.play("S-B1")
    assert state.result is not None
    assert state.result.to_json() == {"winner": 2, "reason": "stock", "team": 0}


# ---------------------------------------------------------------- 7. empty draw pile
def test_empty_draw_pile_continue_plays_on_with_a_short_hand() -> None:
    state = position(stocks=["9C", "9D"], hands=["5D 6D 7D 8D 10D", "4H"], draw="", rest="stock:0")
    state.play("H5-D1")
    assert state.to_move == 1 and hand_text(state, 1) == ["4H"] and not state.is_over


def test_empty_draw_pile_draw_game_ends_the_game_and_draws_nothing() -> None:
    opts = Options.from_preset("classic", {"on_empty_draw": "draw_game"})
    state = position(opts, stocks=["9C", "9D"], hands=["5D 6D 7D 8D 10D", "4H"], draw="JS JH", rest="stock:0")
    state.play("H5-D1")
    assert state.result is not None and state.result.to_json() == {"winner": None, "reason": "draw-pile-empty"}
    assert hand_text(state, 1) == ["4H"]
    assert len(state.draw) == 2


def test_draw_game_in_the_match_preset_scores_nothing() -> None:
    opts = Options.from_preset("match")
    state = position(opts, stocks=["9C", "9D"], hands=["5D 6D 7D 8D 10D", "4H"], draw="", rest="stock:0",
                     builds=["", "", ""])
    state.play("H5-D1")
    assert state.result is not None and state.result.to_json() == {
        "winner": None, "reason": "draw-pile-empty", "points": 0}


def test_set_aside_heap_becomes_the_new_draw_pile_when_a_card_is_due() -> None:
    opts = Options.from_preset("classic", {"completed": "set_aside"})
    state = position(opts, stocks=["9C", "9D"], hands=["5D 6D 7D 8D 10D", "4H"], draw="JS",
                     set_aside="", rest="set_aside")
    heap = len(state.set_aside)
    state.play("H5-D1")
    # seat 1 took the last draw card, then the heap was shuffled and drawing went on
    assert len(state.hands[1]) == 5 and hand_text(state, 1)[:2] == ["4H", "JS"]
    assert state.set_aside == [] and len(state.draw) == heap - 3
    assert len(state.chance_log) == 1 and len(state.chance_log[0][1]) == heap


def test_without_seed_or_chance_entry_a_shuffle_cannot_happen() -> None:
    builds = ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "", "", ""]
    state = position(stocks=["9C", "9D"], hands=["QH 5D 6D 7D 8D", "4H"], builds=builds, seed=None)
    with pytest.raises(MissingChanceError):
        state.play("HQ-B1")


# ---------------------------------------------------------------- 8. blocked game and turn limit
def test_a_round_of_passes_without_build_plays_is_a_blocked_draw() -> None:
    opts = Options.from_preset("classic", {"refill_empty_hand": False})
    state = position(opts, stocks=["9C", "9D"], hands=["AS", "AH"], builds=["AD", "AC", "AS 2S 3S", "AH 2H 3H"],
                     draw="", rest="stock:0")
    state.play("pass")
    assert not state.is_over
    state.play("pass")
    assert state.result is not None and state.result.to_json() == {"winner": None, "reason": "blocked"}


def test_a_pass_after_a_build_play_is_not_idle() -> None:
    opts = Options.from_preset("classic", {"refill_empty_hand": False})
    state = position(opts, stocks=["9C", "9D"], hands=["AS 2S", "AH"], builds=["", "AC", "AD 2D 3D", "AH 2H 3H"],
                     draw="", rest="stock:0")
    state.apply_all(["HA-B1", "H2-B1", "pass", "pass"])
    assert not state.is_over


def test_turn_limit_ends_the_game_as_a_draw() -> None:
    opts = Options.from_preset("classic", {"turn_limit": 3})
    state = State.new(opts, seed=4)
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        state.play(state.end_moves()[0])
    assert state.turn == 3
    assert state.result is not None and state.result.reason == "turn-limit" and state.result.winner is None


# ---------------------------------------------------------------- 9. no blocking
def test_no_blocking_forbids_ending_the_turn_while_a_natural_card_can_be_played() -> None:
    opts = Options.from_preset("no-blocking")
    state = position(opts, stocks=["9C", "9D"], hands=["3D 10D JD", "4H"], builds=["AS 2S", "", "", ""])
    assert legal_texts(state) == {"H3-B1"}
    with pytest.raises(IllegalMoveError, match="no blocking"):
        state.play("H10-D1")
    state.play("H3-B1")
    assert "H10-D1" in legal_texts(state)


def test_no_blocking_leaves_wild_plays_optional() -> None:
    opts = Options.from_preset("no-blocking")
    state = position(opts, stocks=["9C", "9D"], hands=["KD 10D JD", "4H"], builds=["AS 2S", "", "", ""])
    assert "H10-D1" in legal_texts(state) and "HK-B1" in legal_texts(state)


def test_no_blocking_counts_discard_tops_and_the_stock() -> None:
    opts = Options.from_preset("no-blocking")
    state = position(opts, stocks=["9C", "9D"], hands=["10D JD", "4H"], builds=["AS 2S", "", "", ""],
                     discards=[["3H", "", "", ""], ["", "", "", ""]])
    assert legal_texts(state) == {"D1-B1"}
    state = position(opts, stocks=["3C", "9D"], hands=["10D JD", "4H"], builds=["AS 2S", "", "", ""])
    assert legal_texts(state) == {"S-B1"}


# ---------------------------------------------------------------- 10. open stock
def test_open_stock_shows_three_cards_but_only_the_top_plays() -> None:
    opts = Options.from_preset("open-stock")
    state = position(opts, stocks=["8C 2C 9C 5C", "9D"], hands=["10D JD", "4H"], builds=["AS 2S 3S 4S", "", "", ""],
                     to_move=0, rest="stock:1")
    assert state.view(1).stock_tops[0] == tuple(cards("2C 9C 5C"))
    assert state.show_json(1)["players"][0]["stock_top"] == ["2C", "9C", "5C"]
    assert "S-B1" in legal_texts(state)  # 5C on a 4
    state.play("S-B1")
    assert state.stock_tops(0) == cards("8C 2C 9C")
    assert not any(m.startswith("S-") for m in legal_texts(state))  # 9C fits nowhere; 2C is not playable


# ---------------------------------------------------------------- 11. suits
def test_cards_of_one_rank_are_one_move_and_the_first_in_hand_order_is_taken() -> None:
    state = position(stocks=["9C", "9D"], hands=["5D 7H 5S 7C", "4H"], builds=["AS 2S 3S 4S", "", "", ""])
    texts = [m.text for m in state.legal_moves()]
    assert texts.count("H5-B1") == 1 and texts.count("H7-D1") == 1
    state.play("H5-B1")
    assert format_cards(state.builds[0])[-1] == "5D"
    state.play("H7-D2")
    assert format_cards(state.discards[0][1]) == ["7H"]


# ---------------------------------------------------------------- 12. order of effects
def test_the_winning_play_ends_the_game_before_a_completed_pile_is_shuffled() -> None:
    builds = ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "", "", ""]
    state = position(stocks=["QC", "9D"], hands=["5D", "4H"], builds=builds, rest="stock:1")
    draw_before = list(state.draw)
    state.play("S-B1")
    assert state.is_over and state.chance_log == [] and state.draw == draw_before
    assert len(state.builds[0]) == 12  # the pile did not leave: the game was already over


def test_completion_is_shuffled_in_before_the_emptied_hand_is_refilled() -> None:
    builds = ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "", "", ""]
    state = position(stocks=["9C", "9D"], hands=["QH", "4H"], builds=builds, draw="", rest="stock:1")
    assert state.draw == []
    state.play("HQ-B1")
    # the hand could only be refilled because the 12 completed cards were shuffled in first
    assert len(state.hands[0]) == 5 and len(state.draw) == 7
