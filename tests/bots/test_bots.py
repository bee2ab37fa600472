"""Bots: they play every preset to the end, see only their seat's view, and follow the seed's tips."""

from __future__ import annotations

import random

import pytest

from helpers import hidden_reshuffled, legal_texts, position
from spite.bots import LEVELS, make_bot
from spite.errors import OptionsError
from spite.malice import PRESETS, Options, State
from spite.malice.bots.heuristic import CASUAL_WEIGHTS, plan_turn, reach_table
from spite.malice.determinize import determinize
from waiting import bounded


def play_game(specs: list[str], opts: Options, seed: int) -> State:
    state = State.new(opts, seed)
    bots = [make_bot(spec) for spec in specs]
    for seat, bot in enumerate(bots):
        bot.start_game(opts, seat)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(bots))]
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        seat = state.to_move
        move = bots[seat].choose(state.view(seat), rngs[seat])
        assert move in state.legal_moves()
        state.play(move)
    return state


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_heuristic_and_greedy_play_every_preset_to_the_end(preset: str) -> None:
    opts = Options.from_preset(preset)
    specs = ["heuristic", "greedy", "casual", "random"][: opts.players]
    state = play_game(specs, opts, seed=3)
    assert state.result is not None


def test_four_player_party_and_partners_with_every_bot_kind() -> None:
    for opts in (Options.from_preset("party", {"players": 4}), Options.from_preset("partners")):
        state = play_game(["heuristic", "search:iters=2", "greedy", "random"], opts.with_options(stock_size=6),
                          seed=5)
        assert state.result is not None


def test_levels_map_onto_bots() -> None:
    """Each level is another bot, weakest first (the README measures each against the one below)."""
    assert [make_bot(level).name for level in ("easy", "medium", "hard", "expert")] == \
        ["greedy", "casual", "learned", "search"]
    assert list(LEVELS) == ["easy", "medium", "hard", "expert"]
    with pytest.raises(OptionsError, match="unknown bot"):
        make_bot("grandmaster")
    with pytest.raises(OptionsError, match="search takes seconds"):
        make_bot("search:fast")
    for spec in ("greedy:2", "heuristic:fast", "random:1", "casual:x"):  # no settings to take: refused
        with pytest.raises(OptionsError, match="takes no settings"):
            make_bot(spec)


@pytest.mark.parametrize(
    "spec", ["random", "greedy", "casual", "heuristic", "heuristic-v1", "learned", "search:iters=3",
             "search:iters=3,value=learned", "search:iters=3,value=turn"])
def test_no_bot_can_see_hidden_cards(spec: str) -> None:
    """Two states that differ only in hidden cards give the same decision with the same seed."""
    for seed in range(4):
        state = State.new(Options(), seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 60)):  # somewhere into the game
            if state.is_over:
                break
            state.play(rng.choice(state.build_moves() or state.end_moves()))
        if state.is_over:
            continue
        seat = state.to_move
        twin = hidden_reshuffled(state, seat, seed)
        assert twin.hands[1 - seat] != state.hands[1 - seat] or twin.draw != state.draw
        first = make_bot(spec).decide(state.view(seat), random.Random(99))
        second = make_bot(spec).decide(twin.view(seat), random.Random(99))
        assert first.move is second.move and first.why == second.why


def test_a_determinization_keeps_everything_the_seat_knows() -> None:
    state = State.new(Options.from_preset("open-stock"), 4)
    view = state.view(state.to_move)
    for k in range(5):
        guess = determinize(view, random.Random(k))
        assert guess.view(state.to_move) == view


# ---------------------------------------------------------------- the seed's tips
def test_heuristic_plans_a_chain_that_reaches_the_stock_top() -> None:
    # stock top 6; pile at 3; hand holds 4 and 5: play 4, 5, then the stock card
    state = position(stocks=["9C 6C", "9D"], hands=["4D 5H JD QD 10S", "4H"], builds=["AS 2S 3S", "", "", ""])
    plan = plan_turn(state.view(0), random.Random(1))
    assert [m.text for m in plan.moves] == ["H4-B1", "H5-B1", "S-B1"]
    assert "stock" in plan.why


def test_heuristic_does_not_waste_a_wild_when_a_natural_card_does() -> None:
    state = position(stocks=["9C 5C", "9D"], hands=["KD 4H JD QD 10S", "4H"], builds=["AS 2S 3S", "", "", ""])
    plan = plan_turn(state.view(0), random.Random(1))
    assert [m.text for m in plan.moves][:2] == ["H4-B1", "S-B1"]


def test_heuristic_does_not_open_the_way_for_the_opponents_stock() -> None:
    # the opponent's stock top is a 5; building our pile from 3 to 4 would let it play
    state = position(stocks=["9C QC", "5D"], hands=["4H JD JS 10S 10C", "8H"], builds=["AS 2S 3S", "", "", ""],
                     rest="stock:0")
    plan = plan_turn(state.view(0), random.Random(1))
    assert "H4-B1" not in [m.text for m in plan.moves]
    assert "H4-B1" in legal_texts(state)


def test_hard_sees_the_opponents_discards_carry_a_pile_up_to_its_stock() -> None:
    # the opponent's stock top is a 7 and its discard pile holds a 5 on a 6: building our pile from 2
    # to 4 hands it the 5, the 6 and then its stock card; v1 watched only the pile one below the 7
    state = position(stocks=["9C QC", "7D"], hands=["3H 4H JD JS 10C", "8H"], builds=["AS 2S", "", "", ""],
                     discards=[["", "", "", ""], ["6D 5D", "", "", ""]], rest="stock:0")
    view = state.view(0)
    assert make_bot("heuristic-v1").choose(view, random.Random(1)).text == "H3-B1"
    hard = make_bot("hard")
    assert hard.name == "learned"
    assert hard.choose(view, random.Random(1)).text not in ("H3-B1", "H4-B1")
    chances = reach_table(state, 0)[1]  # by the height of a build pile
    assert chances[4] == 1.0  # the discards give 5 and 6: certain
    assert chances[2] < chances[3] < chances[4]  # each card the hand must give makes it less likely
    assert chances[6] == chances[7] == 0.0  # one below the 7 is threat_now's; above it, no reach


def test_heuristic_keeps_discard_piles_ordered() -> None:
    # a 9 onto the 10 is a sequence; onto the 3 it would bury a low card
    state = position(stocks=["9C 2C", "9D"], hands=["9H", "8H"], builds=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "", "", ""],
                     discards=[["3D", "10D", "QH", "QS"], ["", "", "", ""]], rest="stock:1")
    plan = plan_turn(state.view(0), random.Random(1))
    assert plan.moves[-1].text == "H9-D2"


def test_heuristic_discards_queens_before_useful_cards() -> None:
    state = position(stocks=["9C 5C", "9D"], hands=["QH 7D", "8H"], builds=["AS 2S", "AH 2H 3H", "", ""],
                     rest="stock:1")
    plan = plan_turn(state.view(0), random.Random(1))
    assert plan.moves[-1].text.startswith("HQ-D")


def test_casual_plans_its_own_turn_but_spends_wilds_and_ignores_the_opponents_stock() -> None:
    """The ``medium`` level: the heuristic's planner without its finesse."""
    casual = CASUAL_WEIGHTS
    # still plans towards the stock and keeps its discard piles ordered ...
    state = position(stocks=["9C 6C", "9D"], hands=["4D 5H JD QD 10S", "4H"], builds=["AS 2S 3S", "", "", ""])
    assert [m.text for m in plan_turn(state.view(0), random.Random(1), w=casual).moves][-1] == "S-B1"
    state = position(stocks=["9C 2C", "9D"], hands=["9H", "8H"], builds=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S", "", "", ""],
                     discards=[["3D", "10D", "QH", "QS"], ["", "", "", ""]], rest="stock:1")
    assert plan_turn(state.view(0), random.Random(1), w=casual).moves[-1].text == "H9-D2"
    # ... but plays a wild card that the heuristic keeps (nothing comes of it) ...
    state = position(stocks=["9C 9H", "9D"], hands=["KD 7H JD QD 10S", "4H"], builds=["AS 2S 3S", "", "", ""])
    assert not any(m.text.startswith("HK") for m in plan_turn(state.view(0), random.Random(1)).moves)
    assert any(m.text.startswith("HK") for m in plan_turn(state.view(0), random.Random(1), w=casual).moves)
    # ... and builds to one below the opponent's stock top
    state = position(stocks=["9C QC", "5D"], hands=["4H JD JS 10S 10C", "8H"], builds=["AS 2S 3S", "", "", ""],
                     rest="stock:0")
    assert "H4-B1" in [m.text for m in plan_turn(state.view(0), random.Random(1), w=casual).moves]


def test_search_is_reproducible_with_a_fixed_number_of_samples() -> None:
    state = State.new(Options.from_preset("short"), 11)
    view = state.view(state.to_move)
    a = make_bot("search:iters=4").decide(view, random.Random(5))
    b = make_bot("search:iters=4").decide(view, random.Random(5))
    assert a == b and "samples" in a.why


def test_random_builds_while_it_can_and_uniform_does_not() -> None:
    """``random`` is the playout player (build plays first); ``uniform`` ends turns with builds left."""
    from spite.malice import BUILD

    ended_early = {"random": 0, "uniform": 0}
    for spec in ended_early:
        for seed in range(6):
            state = State.new(Options.from_preset("classic"), seed)
            bots = [make_bot(spec), make_bot(spec)]
            rng = random.Random(seed)
            for _ in range(200):
                if state.is_over:
                    break
                view = state.view(state.to_move)
                move = bots[state.to_move].choose(view, rng)
                if move.kind != BUILD and any(m.kind == BUILD for m in view.legal_moves):
                    ended_early[spec] += 1
                state.play(move)
    assert ended_early["random"] == 0
    assert ended_early["uniform"] > 0


@pytest.mark.parametrize("spec", ["random", "greedy", "heuristic"])
def test_the_move_without_the_why_is_the_move_with_it(spec: str) -> None:
    """Tournaments ask ``choose``, hints ask ``decide``: the same move from the same random source,
    and ``decide`` says why."""
    from spite.malice import BUILD

    state = State.new(Options.from_preset("classic"), 11)
    kinds = set()
    for ply in range(80):
        if state.is_over:
            break
        view = state.view(state.to_move)
        decision = make_bot(spec).decide(view, random.Random(ply))
        move = make_bot(spec).choose(view, random.Random(ply))
        assert move == decision.move and decision.why
        kinds.add(move.kind == BUILD)
        state.play(move)
    assert kinds == {True, False}  # both build plays and turn ends were asked for


# ---------------------------------------------------------------- the match game's side stacks take aces
MATCH_TAKEN = ["AD 2D 3D 4D 5D", "AC 2C 3C 4C 5C 6C 7C 8C 9C", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S"]


@pytest.mark.parametrize("spec", ["heuristic", "casual", "search:iters=8"])
def test_in_a_match_the_bots_put_a_stuck_ace_on_a_side_stack(spec: str) -> None:
    # the three build piles need 6, 10 and J, the stock top is an 8: the two 7s will bridge a 6 to
    # the stock, the ace can do nothing until a pile is completed, so it goes onto a side stack
    match = Options.from_preset("match")
    state = position(match, stocks=["9C 8C", "9D"], hands=["AH 7D 7H 9H 9D", "4H"], builds=MATCH_TAKEN,
                     rest="stock:1")
    assert {"HA-D1", "H7-D1", "H9-D1"} <= legal_texts(state)
    decision = make_bot(spec).decide(state.view(0), random.Random(1))
    assert decision.move.text.startswith("HA-D")


@pytest.mark.parametrize("spec", ["greedy", "heuristic", "search:iters=8"])
def test_in_a_match_the_bots_start_a_free_pile_with_an_ace_rather_than_discard_it(spec: str) -> None:
    match = Options.from_preset("match")
    state = position(match, stocks=["9C 2C", "9D"], hands=["AH 7D 7H 9H 9D", "4H"],
                     builds=["AD 2D 3D 4D 5D", "AC 2C 3C 4C 5C 6C 7C 8C 9C", ""], rest="stock:1")
    assert {"HA-B3", "HA-D1"} <= legal_texts(state)
    decision = make_bot(spec).decide(state.view(0), random.Random(1))
    assert decision.move.text == "HA-B3"


@pytest.mark.parametrize("spec", ["heuristic", "search:iters=8"])
def test_a_plan_stops_where_a_completed_pile_fills_an_empty_hand(spec: str) -> None:
    # the draw pile ran dry, so the hand is empty; the Queen on the discard pile completes build
    # pile 1, which is shuffled in and fills the hand with cards nobody has seen yet: the plan must
    # end there (a plan that went on with sampled cards played cards the real hand may not hold)
    state = position(stocks=["9C 4D", "9D"], hands=["", "4H"], draw="",
                     builds=["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "", "", ""],
                     discards=[["QH", "", "", ""], ["", "", "", ""]], rest="stock:1")
    assert state.hands[0] == [] and "D1-B1" in legal_texts(state)
    plan = plan_turn(state.view(0), random.Random(1))
    assert [m.text for m in plan.moves] == ["D1-B1"]
    for seed in range(6):  # every sample of the search finds its candidate plans playable
        move = make_bot(spec).decide(state.view(0), random.Random(seed)).move
        assert move.text in legal_texts(state)
