"""The search bot: its fast rollout planner plays as the heuristic does, its candidates differ, it is
reproducible with a fixed number of samples."""

from __future__ import annotations

import random

import pytest

from spite.bots import make_bot
from spite.bots.heuristic import plan_from_state
from spite.bots.search import SearchBot, _distinct
from spite.bots.search_fast import fast_plan
from spite.malice import Options, State
from spite.malice.determinize import determinize


@pytest.mark.parametrize("preset", ["classic", "open-stock", "partners"])
def test_fast_plan_chooses_what_the_heuristic_planner_chooses(preset: str) -> None:
    opts = Options.from_preset(preset)
    state = State.new(opts, 21)
    bots = [make_bot("heuristic") for _ in range(opts.players)]
    rng = random.Random(3)
    checked = 0
    while not state.is_over and checked < 120:
        view = state.view(state.to_move)
        world = determinize(view, random.Random(checked))
        before = world.view(state.to_move)
        assert [m.text for m in fast_plan(world)] == [m.text for m in plan_from_state(world).moves]
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
