"""The search bot: its fast rollout planner plays as the heuristic does, its candidates differ, it is
reproducible with a fixed number of samples."""

from __future__ import annotations

import random

import pytest

from spite.bots import make_bot
from spite.errors import OptionsError
from spite.malice import Options, State
from spite.malice.bots.heuristic import DEFAULT_WEIGHTS, HARD_WEIGHTS, Weights, plan_from_state
from spite.malice.bots.search import SearchBot, _distinct
from spite.malice.bots.search_fast import fast_plan
from spite.malice.determinize import determinize
from waiting import bounded


@pytest.mark.parametrize("weights", [DEFAULT_WEIGHTS, HARD_WEIGHTS], ids=["v1", "hard"])
@pytest.mark.parametrize("preset", ["classic", "open-stock", "partners", "skip-bo"])
def test_fast_plan_chooses_what_the_heuristic_planner_chooses(preset: str, weights: Weights) -> None:
    opts = Options.from_preset(preset)
    state = State.new(opts, 21)
    bots = [make_bot("heuristic") for _ in range(opts.players)]
    rng = random.Random(3)
    checked = 0
    while not state.is_over and checked < 120:
        view = state.view(state.to_move)
        world = determinize(view, random.Random(checked))
        before = world.view(state.to_move)
        planned = plan_from_state(world, w=weights).moves
        assert [m.text for m in fast_plan(world, w=weights)] == [m.text for m in planned]
        assert world.view(state.to_move) == before  # played and undone, left as it was
        checked += 1
        state.play(bots[state.to_move].choose(view, rng))
    assert checked > 50


def test_candidates_lead_to_different_positions() -> None:
    from helpers import position

    # two empty discard piles: a discard onto either is the same position, searched once
    state = position(stocks=["9C 2C", "9D"], hands=["7H 8D JD QD 10S", "8H"], builds=["", "", "", ""],
                     discards=[["", "", "3D", "4D"], ["", "", "", ""]], rest="stock:1")
    view = state.view(0)
    alternatives = [(0.0, [m]) for m in view.legal_moves if m.text in ("H7-D1", "H7-D2", "H7-D3")]
    assert [[m.text for m in c.moves] for c in _distinct(view, alternatives, 8)] == [["H7-D1"], ["H7-D3"]]


def test_search_keeps_the_view_it_searched_and_says_why() -> None:
    state = State.new(Options(), 5)
    view = state.view(state.to_move)
    bot = SearchBot(iterations=6)
    decision = bot.decide(view, random.Random(2))
    assert decision.move in view.legal_moves
    assert bot.last_samples == 6 and "samples" in decision.why
    assert state.view(state.to_move) == view


def test_the_budget_is_per_turn_and_shared_by_its_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each plan of a turn gets 60 % of what is left of the turn's second; a new turn starts afresh;
    a budget handed in by the caller (a hint's --seconds) is for that one plan."""
    import spite.malice.bots.search as search

    now = [0.0]
    given: list[float] = []

    def spend_everything(self: SearchBot, view: object, rng: random.Random, budget: float) -> object:
        given.append(round(budget, 6))
        now[0] += budget
        return None

    monkeypatch.setattr(search.time, "perf_counter", lambda: now[0])
    monkeypatch.setattr(SearchBot, "_search", spend_everything)
    state = State.new(Options(), 5)
    bot = SearchBot(budget=1.0)
    view = state.view(state.to_move)
    for _ in range(3):
        bot.make_plan(view, random.Random(1), None)
    later = state.copy()
    later.play(later.end_moves()[0])
    later.play(later.end_moves()[0])
    bot.make_plan(later.view(later.to_move), random.Random(1), None)
    bot.make_plan(view, random.Random(1), 2.5)
    assert given == [0.6, 0.24, 0.096, 0.6, 2.5]
    assert sum(given[:3]) < 1.0


def test_a_settled_choice_stops_before_the_samples_run_out() -> None:
    """With many samples allowed, a search whose choice is settled stops early (at least 24 samples in)."""
    state = State.new(Options(), 5)
    stopped_early = 0
    rng = random.Random(7)
    for _ in range(6):
        view = state.view(state.to_move)
        bot = SearchBot(iterations=400)
        move = bot.decide(view, rng).move
        if bot.last_samples > 0:
            assert bot.last_samples >= 24 or bot.last_samples == 400
            stopped_early += bot.last_samples < 400
        state.play(move)
        for _ in bounded(1000, "seat 0's next turn", until=lambda: state.to_move == 0 or state.is_over):
            state.play(make_bot("heuristic").choose(state.view(state.to_move), rng))
    assert stopped_early >= 1


def test_a_spec_sets_the_search_and_refuses_what_it_cannot_mean() -> None:
    from spite.errors import OptionsError

    bot = make_bot("search:1.5,horizon=3,confidence=0.5,candidates=4")
    assert isinstance(bot, SearchBot)
    assert (bot.budget, bot.iterations, bot.horizon, bot.confidence, bot.candidates) == (1.5, None, 3, 0.5, 4)
    sampled = make_bot("search:iters=16,horizon=1")
    assert isinstance(sampled, SearchBot)
    assert (sampled.iterations, sampled.horizon, sampled.confidence) == (16, 1, 0.5)
    plain = make_bot("search")
    assert isinstance(plain, SearchBot)
    assert (plain.budget, plain.horizon, plain.confidence, plain.candidates) == (1.0, 2, 0.5, 8)
    for spec, message in [
        ("search:fast", "search takes seconds"),
        ("search:0", "search takes seconds"),
        ("search:1,2", "search takes seconds"),
        ("search:depth=3", "search takes seconds"),
        ("search:horizon=2.5", "search takes seconds"),
        ("search:horizon=0", "horizon must be from 1 to 10"),
        ("search:candidates=0", "candidates must be at least 1"),
        ("search:confidence=-1", "confidence must be 0 or more"),
        ("search:1.0,iters=8", "not both"),
        ("search:horizon=2,horizon=3", "given twice"),
    ]:
        with pytest.raises(OptionsError, match=message):
            make_bot(spec)


def test_the_horizon_of_a_spec_is_the_horizon_searched() -> None:
    state = State.new(Options(), 4)
    seen = []
    for horizon in (1, 3):
        for _ in bounded(500, "a decision that sampled plans"):
            view = state.view(state.to_move)
            decision = make_bot(f"search:iters=6,horizon={horizon},confidence=0").decide(view, random.Random(2))
            if "samples" in decision.why and "no other plan" not in decision.why:
                break
            state.play(decision.move)
        seen.append(decision.why)
    assert "this turn and 1 more" in seen[0]
    assert "this turn and 3 more" in seen[1]


def test_with_a_blend_the_search_starts_from_the_learned_bots_choice() -> None:
    """``search:…,blend=B``: the plan the search must see beaten is ``learned:B``'s, not the heuristic's."""
    from spite.malice.bots.learned import LearnedBot

    differs = 0
    state = State.new(Options(), 8)
    bots = [make_bot("heuristic"), make_bot("heuristic")]
    rng = random.Random(4)
    for _ in range(60):
        if state.is_over:
            break
        view = state.view(state.to_move)
        unsearched = SearchBot(blend=700).make_plan(view, random.Random(1), 0.0).moves
        assert unsearched == LearnedBot(blend=700).make_plan(view, random.Random(1), None).moves
        differs += unsearched != SearchBot().make_plan(view, random.Random(1), 0.0).moves
        state.play(bots[state.to_move].choose(view, rng))
    assert differs > 0
    assert make_bot("search:0.5,blend=700").blend == 700  # type: ignore[attr-defined]
    with pytest.raises(OptionsError, match="blend"):
        make_bot("search:0.5,blend=-1")


# ---------------------------------------------------------------------- the learned value at the leaf
def test_a_learned_search_spec_takes_the_learned_settings_and_refuses_others() -> None:
    bot = make_bot("search:1.0,value=learned")
    assert isinstance(bot, SearchBot)
    # blend None: the learned bot's own for the game (``shipped_blend``), so the candidates are hard's
    assert (bot.value, bot.horizon, bot.confidence, bot.blend, bot.settle_margin) == ("learned", 1, 2.0, None, 0.01)
    assert bot.weights is HARD_WEIGHTS  # the rollouts play as the hard level's planner
    tuned = make_bot("search:iters=8,value=learned,horizon=2,confidence=1")
    assert isinstance(tuned, SearchBot)
    assert (tuned.iterations, tuned.horizon, tuned.confidence) == (8, 2, 1.0)
    assert make_bot("search").value == "stock"  # type: ignore[attr-defined]
    for spec, message in [("search:value=deep", "value must be one of stock, learned, turn"),
                          ("search:value=learned,value=stock", "given twice")]:
        with pytest.raises(OptionsError, match=message):
            make_bot(spec)


def test_the_learned_leaf_is_the_chance_of_the_side_it_values() -> None:
    """At a rollout's end after the opponent's turn, the searcher's chance is high when its stock top
    plays on a build pile as the opponent left it, lower when not; the two seats' chances add up to 1;
    a game won is 1 for the winner."""
    from helpers import position
    from spite.malice.bots.learned import shipped_value
    from spite.malice.bots.search import learned_leaf

    model = shipped_value()

    def leaf(build: str, seat: int) -> float:
        state = position(stocks=["9C 8C 5C", "9D 8D QD"], hands=["7H 8D JD QD 10S", "9H 10H JH QH 3H"],
                         builds=[build, "", "", ""], rest="draw", to_move=0)
        return learned_leaf(state, seat, model)

    playable, blocked = leaf("AS 2S 3S 4S", 0), leaf("AS 2S", 0)
    assert playable > blocked + 0.02
    assert leaf("AS 2S", 0) + leaf("AS 2S", 1) == pytest.approx(1.0)
    state = position(stocks=["5C", "9D 8D QD"], hands=["7H 8D JD QD 10S", "9H 10H JH QH 3H"],
                     builds=["AS 2S 3S 4S", "", "", ""], rest="stock:1")
    state.play(next(m for m in state.build_moves() if m.text == "S-B1"))
    assert state.result is not None and state.result.winner == 0
    assert (learned_leaf(state, 0, model), learned_leaf(state, 1, model)) == (1.0, 0.0)


@pytest.mark.parametrize(("value", "words"), [("learned", ("points of winning chance", "this turn and 1 more")),
                                             ("turn", ("points of the hard level's score", "samples of the cards"))])
def test_a_search_on_the_learned_value_starts_from_hard_and_says_its_gain(value: str, words: tuple[str, str]) -> None:
    """Without samples it plays the hard level's plan; where its samples prefer another plan, the
    reason gives the gain: in points of winning chance over this turn and the reply (``learned``), in
    the hard level's points over samples of the cards still to turn up (``turn``)."""
    from spite.malice.bots.learned import LearnedBot

    state = State.new(Options(), 8)
    heuristic = make_bot("heuristic")
    rng = random.Random(4)
    reasons = []
    for _ in range(60):
        if state.is_over:
            break
        view = state.view(state.to_move)
        unsearched = SearchBot(value=value).make_plan(view, random.Random(1), 0.0).moves
        assert unsearched == LearnedBot().make_plan(view, random.Random(1), None).moves
        decision = make_bot(f"search:iters=16,value={value},confidence=0").decide(view, random.Random(2))
        assert decision.move in view.legal_moves
        reasons.append(decision.why)
        state.play(heuristic.choose(view, rng))
    beaten = [why for why in reasons if why.startswith("beats the first plan")]
    assert beaten and all(all(w in why for w in words) for why in beaten)


def test_the_turn_search_is_a_setting_with_its_own_defaults() -> None:
    bot = make_bot("search:1.0,value=turn")
    assert isinstance(bot, SearchBot)
    assert (bot.value, bot.confidence, bot.blend, bot.settle_margin) == ("turn", 2.0, None, 25.0)
    assert bot.weights is DEFAULT_WEIGHTS  # the turn's heuristic terms: v1's, as expert was measured


# ---------------------------------------------------------------------- the whole turn, sampled (value=turn)
@pytest.mark.timeout(180)  # searches of many positions
def test_a_turn_search_scores_a_turn_that_ends_unseen_as_hard_does_and_samples_the_rest() -> None:
    """The turn score of a plan with hard's weights is hard's own score of where the turn ends: for a
    plan that ends the turn before any card turns up, exactly hard's score of it; for one that
    stops where a stock card or a fresh hand turns up, the turn goes on as hard would play it in each
    sample, so the score differs between samples; and the world is left as it was."""
    from spite.malice import BUILD
    from spite.malice.bots.heuristic import plan_turn
    from spite.malice.bots.learned import LearnedBot, learned_score, shipped_blend, shipped_value
    from spite.malice.bots.search import turn_score

    opts = Options()
    model, blend = shipped_value(opts), shipped_blend(opts)
    state = State.new(opts, 5)
    bots = [make_bot("hard"), make_bot("hard")]
    rng = random.Random(2)
    sure = varied = 0
    while not state.is_over and state.turn < 40:
        view = state.view(state.to_move)
        base = SearchBot(value="turn").make_plan(view, random.Random(1), 0.0)
        assert base.moves == LearnedBot().make_plan(view, random.Random(1), None).moves  # unsearched: hard's plan
        planned = plan_turn(view, random.Random(1), keep=24, w=HARD_WEIGHTS,
                            extra=learned_score(model, blend, exact=True))
        for cand in _distinct(view, planned.alternatives or [], 8):
            scores = set()
            for k in range(4):
                world = determinize(view, random.Random(k))
                before = world.view(state.to_move)
                score, played = turn_score(world, state.to_move, cand.moves, model, blend)
                for _ in range(played):
                    world.undo()
                assert world.view(state.to_move) == before
                scores.add(round(score, 6))
            if cand.moves[-1].kind != BUILD:
                assert scores == {round(cand.prior, 6)}
                sure += 1
            else:
                varied += len(scores) > 1
        state.play(bots[state.to_move].choose(view, rng))
    assert sure > 50 and varied > 5
