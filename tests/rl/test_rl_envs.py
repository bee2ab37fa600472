"""The PettingZoo and Gymnasium environments: the libraries' own checks, masks, hidden cards, rewards."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")  # a safety net only: CI installs the [rl] extra
pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test
from rl_helpers import hidden_reshuffled

import spite.malice.rl
from spite.bots import make_bot
from spite.errors import IllegalMoveError, OptionsError
from spite.malice import Options, State
from spite.malice.rl import ENV_ID, pettingzoo_env
from spite.malice.rl.gym_env import SpiteMaliceEnv
from waiting import bounded

AEC_CASES = [("classic", {}), ("party", {}), ("partners", {})]


def play_out(env, seed: int) -> list:
    """Play a whole game with random masked actions; the results of ``last()`` along the way."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        seen.append((agent, obs, reward, terminated, info))
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
    return seen


# ---------------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize(("preset", "overrides"), AEC_CASES)
def test_pettingzoo_api_and_seed_tests_pass(preset: str, overrides: dict) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # dict observations: the advice for plain arrays does not apply
        api_test(pettingzoo_env(preset, **overrides), num_cycles=500)
        seed_test(lambda: pettingzoo_env(preset, **overrides), num_cycles=300)


@pytest.mark.parametrize(("preset", "overrides"), AEC_CASES)
def test_masks_are_the_legal_moves_and_the_game_ends_with_its_result(preset: str, overrides: dict) -> None:
    env = pettingzoo_env(preset, stock_size=6, **overrides)
    enc = env.encoding
    for seed in range(2):
        rng = np.random.default_rng(seed)
        env.reset(seed=seed)
        finals = {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            assert not truncated
            if terminated:
                finals[agent] = reward
                env.step(None)
                continue
            game = env.game
            assert agent == f"player_{game.to_move}"
            legal = {enc.move(int(a)) for a in np.flatnonzero(obs["action_mask"])}
            assert legal == set(game.legal_moves())
            assert info["legal_moves"] == [m.text for m in game.legal_moves()]
            assert "text" in info and "Legal" in info["text"]
            for other in env.agents:  # nobody else may move
                if other != agent:
                    assert not env.observe(other)["action_mask"].any()
            legal_actions = np.flatnonzero(obs["action_mask"])
            env.step(int(legal_actions[rng.integers(len(legal_actions))]))
        result = env.game.result
        assert result is not None and set(finals) == set(env.possible_agents)
        for s, agent in enumerate(env.possible_agents):
            if result.winner is None:
                assert finals[agent] == 0.0
            else:
                won = (s % 2 == result.winner % 2) if env.opts.partnerships else s == result.winner
                assert finals[agent] == (1.0 if won else -1.0)
        assert env.agents == []


def test_pettingzoo_observation_ignores_hidden_cards() -> None:
    for preset, overrides in AEC_CASES:
        opts = Options.from_preset(preset, overrides)
        state = State.new(opts, seed=9)
        rng = random.Random(9)
        for _ in range(40):
            state.play(rng.choice(state.build_moves() or state.end_moves()))
        env = pettingzoo_env(preset, **overrides)
        for seat in range(opts.players):
            env.reset(options={"state": state})
            agent = f"player_{seat}"
            first = env.observe(agent)
            info = env.infos[agent]
            env.reset(options={"state": hidden_reshuffled(state, seat, seed=seat)})
            assert env.game.hands != state.hands or env.game.draw != state.draw
            second = env.observe(agent)
            for key in ("observation", "action_mask"):
                np.testing.assert_array_equal(first[key], second[key])
            assert env.infos[agent] == info


def test_pettingzoo_refuses_illegal_actions_and_bad_options() -> None:
    env = pettingzoo_env("classic")
    env.reset(seed=3)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalMoveError, match=f"action {illegal} .* is not legal for player_"):
        env.step(illegal)
    with pytest.raises(OptionsError, match="partnerships need exactly 4 players"):
        pettingzoo_env("party", partnerships=True)
    with pytest.raises(OptionsError, match="unknown option"):
        pettingzoo_env("classic", colour="red")
    assert pettingzoo_env("classic", text=False, render_mode="ansi").render() is None  # before reset


def test_pettingzoo_render_shows_the_acting_agents_view() -> None:
    env = pettingzoo_env("short", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and text.startswith("Turn 1:") and "Legal" in text


# ---------------------------------------------------------------------- Gymnasium
def test_gymnasium_env_checker_passes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make(ENV_ID, opponent="greedy", preset="short")
        check_env(env.unwrapped)  # with the render modes (through env.spec)
        check_env(SpiteMaliceEnv("random", "party"), skip_render_check=True)


def test_registered_and_made_with_options() -> None:
    env = gymnasium.make(ENV_ID, opponent=["random", "greedy"], preset="party", stock_size=5, seat=2, text=False)
    obs, info = env.reset(seed=4)
    assert obs["observation"].shape == env.observation_space["observation"].shape
    assert info["seat"] == 2 and "text" not in info
    with pytest.raises(OptionsError, match="3 players need 2 opponents"):
        gymnasium.make(ENV_ID, opponent=["random"], preset="party")
    with pytest.raises(OptionsError, match="unknown bot"):
        gymnasium.make(ENV_ID, opponent="chess")
    assert spite.malice.rl.register() is True  # again: no error


@pytest.mark.parametrize(("preset", "opponent"), [("short", "heuristic"), ("partners", "greedy"),
                                                  ("party", "random")])
def test_an_episode_against_a_bot_ends_with_the_games_result(preset: str, opponent: str) -> None:
    env = SpiteMaliceEnv(opponent, preset, seat=None, stock_size=8, text=False)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        me = info["seat"]
        total = 0.0
        rng = np.random.default_rng(seed)
        for _ in bounded(20_000, "the game's end"):
            game = env.game
            assert game.to_move == me
            assert {env.encoding.move(int(a)) for a in np.flatnonzero(obs["action_mask"])} == set(game.legal_moves())
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            total += reward
            assert not truncated
            if terminated:
                break
            assert reward == 0.0
        result = env.game.result
        assert result is not None and info["result"] == result.to_json()
        if result.winner is None:
            assert total == 0.0
        elif env.opts.partnerships:
            assert total == (1.0 if result.winner % 2 == me % 2 else -1.0)
        else:
            assert total == (1.0 if result.winner == me else -1.0)


def test_gymnasium_illegal_actions_change_nothing_and_stock_shaping_adds_up() -> None:
    env = SpiteMaliceEnv("random", "short", stock_reward=0.5, illegal_reward=-0.25)
    obs, _ = env.reset(seed=2)
    plies = env.game.plies
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs2, reward, terminated, truncated, info = env.step(illegal)
    assert info["illegal"] is True and reward == -0.25 and not terminated and not truncated and env.game.plies == plies
    np.testing.assert_array_equal(obs["observation"], obs2["observation"])
    # a greedy agent: the shaping sums to 0.5 per stock card its side played
    bot = make_bot("greedy")
    bot.start_game(env.opts, env._me)
    rng = random.Random(0)
    total = 0.0
    for _ in bounded(20_000, "the game's end"):
        move = bot.choose(env.game.view(env._me), rng)
        obs, reward, terminated, _truncated, info = env.step(env.encoding.action_of(move))
        total += reward
        if terminated:
            break
    played = env.opts.stock_size - len(env.game.stock_of(env._me))
    final = {None: 0.0}.get(env.game.result.winner, 1.0 if env.game.result.winner == env._me else -1.0)
    assert total == pytest.approx(0.5 * played + final)


def test_gymnasium_observation_ignores_hidden_cards() -> None:
    opts = Options.from_preset("classic")
    state = State.new(opts, seed=21)
    rng = random.Random(21)
    for _ in range(30):
        state.play(rng.choice(state.build_moves() or state.end_moves()))
    seat = state.to_move
    env = SpiteMaliceEnv("random", "classic", seat=seat)
    first, info1 = env.reset(options={"state": state})
    second, info2 = env.reset(options={"state": hidden_reshuffled(state, seat, seed=1)})
    np.testing.assert_array_equal(first["observation"], second["observation"])
    np.testing.assert_array_equal(first["action_mask"], second["action_mask"])
    assert info1 == info2
