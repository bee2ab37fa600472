"""The OpenSpiel game ``spite_malice`` (``spite.malice.rl.openspiel``), checked by OpenSpiel's own tests.

Skipped where OpenSpiel is not installed (``pip install 'spite[openspiel]'``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install 'spite[openspiel]'")

from spite.cards import format_cards  # noqa: E402
from spite.errors import OptionsError  # noqa: E402
from spite.games import Record  # noqa: E402
from spite.malice import Options  # noqa: E402
from spite.malice.record import record_from_state, replay_malice  # noqa: E402
from spite.malice.rl.encoding import Encoding  # noqa: E402
from spite.malice.rl.openspiel import SpiteMaliceState  # noqa: E402
from waiting import bounded  # noqa: E402

SHORT = "spite_malice(preset=short,options=stock_size:3;turn_limit:100)"
SET_ASIDE = "spite_malice(preset=short,options=completed:set_aside;stock_size:8;turn_limit:400)"
"""Completed piles set aside: the set-aside cards are shuffled once the draw pile runs out."""
CHANCE = int(pyspiel.PlayerId.CHANCE)


def deal(state: Any, rng: random.Random) -> None:
    """Sample chance outcomes until a seat is to move."""
    for _ in bounded(1000, "a seat to move", until=lambda: not state.is_chance_node()):
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])


def test_random_simulations_pass_openspiel_random_sim_test() -> None:
    """OpenSpiel's ``random_sim_test``: legal actions, chance outcomes, clones, serialization, returns."""
    pyspiel.random_sim_test(pyspiel.load_game(SHORT), num_sims=3, serialize=True, verbose=False)
    for name in ("party", "partners", "skip-bo", "match", "open-stock"):
        game = pyspiel.load_game(f"spite_malice(preset={name},options=stock_size:2;turn_limit:60)")
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    pyspiel.random_sim_test(pyspiel.load_game(SET_ASIDE), num_sims=2, serialize=True, verbose=False)


def test_openspiel_games_sim_test_clone_pickle_and_serialization() -> None:
    """``GamesSimTest.sim_game`` of OpenSpiel's test suite: clones play on alike, pickled games and
    states come back the same, terminal returns lie in the utility range."""
    from open_spiel.python.tests import games_sim_test

    np.random.seed(3)
    checks = games_sim_test.GamesSimTest(methodName="test_breakthrough")
    checks.sim_game(pyspiel.load_game(SHORT))


def test_game_facts_follow_the_options() -> None:
    classic = pyspiel.load_game("spite_malice")
    assert classic.num_players() == 2 and classic.num_distinct_actions() == 133
    assert classic.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert classic.observation_tensor_shape() == [Encoding(Options()).obs_size]
    assert not classic.get_type().provides_information_state_tensor
    party = pyspiel.load_game("spite_malice(preset=party)")
    assert party.num_players() == 3 and party.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    partners = pyspiel.load_game("spite_malice(preset=partners)")
    assert partners.num_players() == 4 and partners.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert pyspiel.load_game("spite_malice(preset=match)").num_distinct_actions() == 114
    with pytest.raises(OptionsError, match="unknown option 'wizard'"):
        pyspiel.load_game("spite_malice(options=wizard:1)")
    with pytest.raises(OptionsError, match="unknown preset 'nope'"):
        pyspiel.load_game("spite_malice(preset=nope)")


def test_the_deal_is_a_uniform_shuffle_then_the_cut() -> None:
    game = pyspiel.load_game("spite_malice")
    state = game.new_initial_state()
    assert state.current_player() == CHANCE
    first = dict(state.chance_outcomes())
    deck = Counter(Options().deck_cards())
    assert first == pytest.approx({card: n / 108 for card, n in deck.items()})
    assert sum(first.values()) == pytest.approx(1.0)
    rng = random.Random(5)
    for _ in range(108):
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        assert sum(probs) == pytest.approx(1.0)
        state.apply_action(rng.choices(outcomes, probs)[0])
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # the cut: who begins
    state.apply_action(1)
    assert state.current_player() == 1
    engine = state.engine
    assert engine is not None and Counter(state.deck) == deck
    # the deck laid out as State.new lays it out: stocks first, then the hands, the rest to draw
    assert engine.stocks[0] == state.deck[:26] and engine.hands[0] == state.deck[52:57]


def test_hidden_cards_never_reach_a_seat() -> None:
    """Two deals that differ only in cards seat p cannot see (a card of the other hand swapped with
    the bottom card of the draw pile) give p the same information state, observation and legal
    actions through its whole first turn; the whole tables differ."""
    game = pyspiel.load_game(SHORT)
    seen_turns = 0
    for seed in range(6):
        rng = random.Random(seed)
        a = game.new_initial_state()
        for _ in range(108):
            outcomes, probs = zip(*a.chance_outcomes(), strict=True)
            a.apply_action(rng.choices(outcomes, probs)[0])
        deck = list(a.deck)
        opts = a.opts
        p = 0
        q = 1
        hand_q = opts.n_stocks * opts.stock_size + q * opts.hand_size
        bottom = opts.n_stocks * opts.stock_size + opts.players * opts.hand_size
        if deck[hand_q] == deck[bottom]:
            continue
        deck[hand_q], deck[bottom] = deck[bottom], deck[hand_q]
        b = game.new_initial_state()
        for card in deck:
            b.apply_action(card)
        a.apply_action(p)
        b.apply_action(p)
        assert str(a) != str(b) and a.information_state_string(q) != b.information_state_string(q)
        for _ in bounded(1000, f"the end of seat {p}'s turn"):
            if a.current_player() != p:
                break
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_string(p) == b.observation_string(p)
            assert a.observation_tensor(p) == b.observation_tensor(p)
            assert a.legal_actions(p) == b.legal_actions(p)
            action = rng.choice(a.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
            deal(a, random.Random(seed))
            deal(b, random.Random(seed))
        seen_turns += 1
        # after p's turn, q drew from the top: p still knows nothing new about q's hand
        assert a.information_state_string(p) == b.information_state_string(p)
        assert a.observation_tensor(p) == b.observation_tensor(p)
    assert seen_turns >= 3


def test_observations_are_the_seats_views() -> None:
    """The observation tensor is the encoding of the seat's view (the PettingZoo vector); the
    information state is the seat's own history: its hand, never the other's."""
    game = pyspiel.load_game(SHORT)
    state = game.new_initial_state()
    rng = random.Random(2)
    deal(state, rng)
    assert isinstance(state, SpiteMaliceState) and state.engine is not None
    encoding = Encoding(state.opts)
    for _ in range(20):
        if state.is_terminal():
            break
        for seat in (0, 1):
            view = state.engine.view(seat)
            assert np.array_equal(np.array(state.observation_tensor(seat), np.float32), encoding.observe(view))
            history = state.information_state_string(seat)
            mine = " ".join(sorted(format_cards(state.engine.initial["hands"][seat])))
            theirs = " ".join(sorted(format_cards(state.engine.initial["hands"][1 - seat])))
            assert f"your hand {mine}" in history and f"your hand {theirs}" not in history
        state.apply_action(rng.choice(state.legal_actions()))
        deal(state, rng)


@pytest.mark.parametrize("name", [SHORT, SET_ASIDE], ids=["shuffle-in", "set-aside"])
def test_shuffles_are_chance_nodes_and_the_history_is_a_record(name: str) -> None:
    """A shuffle (a completed build pile shuffled into the draw pile; the set-aside cards when the
    draw pile runs out) comes as chance nodes, one per card; at the end the engine's record (every
    shuffle in it) replays to the same position."""
    game = pyspiel.load_game(name)
    shuffles = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in bounded(20_000, "the game's end"):
            if state.is_terminal():
                break
            if state.is_chance_node():
                if state.engine is not None:
                    shuffles += 1
                    label = state.action_to_string(CHANCE, state.chance_outcomes()[0][0])
                    assert label.startswith("shuffle ")
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                assert sum(probs) == pytest.approx(1.0)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        engine = state.engine
        assert engine is not None and engine.result is not None
        record = record_from_state(engine)
        assert record.seed is None  # nothing came from a seed: every chance outcome is in the history
        fields = {k: v for k, v in record.to_json().items() if k != "format"}
        replayed = replay_malice(Record(**fields)).state
        assert replayed.result == engine.result and replayed.show_json(everything=True) == engine.show_json(
            everything=True)
        again = game.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.returns() == state.returns()
    assert shuffles > 0


def test_openspiel_algorithms_run_on_it() -> None:
    """OpenSpiel's RL environment (observation tensors, legal actions, chance sampled inside), its
    bot evaluation and outcome-sampling MCCFR (tabular over the information state strings) run."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import evaluate_bots, outcome_sampling_mccfr

    game = pyspiel.load_game(SHORT)
    env = rl_environment.Environment(game, seed=4)
    step = env.reset()
    rng = np.random.default_rng(0)
    steps = 0
    for _ in bounded(20_000, "the game's end"):
        if step.last():
            break
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == 348
        step = env.step([int(rng.choice(step.observations["legal_actions"][player]))])
        steps += 1
    # (the chance outcomes come from the environment: a game may end after a few moves: a stock of 3)
    assert steps >= 3 and sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])
    bots = [pyspiel.make_uniform_random_bot(p, 7 + p) for p in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(1))
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    np.random.seed(1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(2):
        solver.iteration()
    keys = list(solver._infostates)  # its regret tables, keyed by our information state strings
    assert len(keys) > 10 and all("your hand" in key for key in keys)
    state = game.new_initial_state()
    deal(state, random.Random(1))
    probs = solver.average_policy().action_probabilities(state)
    assert sorted(probs) == state.legal_actions() and sum(probs.values()) == pytest.approx(1.0)
