"""The numpy policy, its bot (in process and over the bot protocol), the training example's gradient, the bench."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from spite.bots import make_bot
from spite.errors import OptionsError
from spite.malice import Options, State
from spite.malice.bots.external import ExternalBot
from spite.malice.rl.encoding import Encoding
from spite.malice.rl.policy import MLPPolicy, PolicyBot, masked_softmax
from waiting import bounded

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_policy.py"


def example_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_policy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def saved_policy(tmp_path: Path, preset: str = "short", hidden: tuple[int, ...] = (8,)) -> Path:
    enc = Encoding(Options.from_preset(preset))
    rng = np.random.default_rng(0)
    policy = MLPPolicy.create(enc.obs_size, enc.n_actions, hidden, rng=rng, meta={"preset": preset, "options": {}})
    policy.layers[-1][0][:] = rng.normal(0, 1, policy.layers[-1][0].shape)  # not uniform: a real argmax
    path = tmp_path / "policy.npz"
    policy.save(path)
    return path


def play(bots: list, opts: Options, seed: int) -> State:
    state = State.new(opts, seed=seed)
    for s, bot in enumerate(bots):
        bot.start_game(opts, s)
    rngs = [random.Random(f"{seed}/{s}") for s in range(len(bots))]
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        s = state.to_move
        state.play(bots[s].choose(state.view(s), rngs[s]))
    return state


def test_policy_weights_round_trip_and_the_bot_plays_legal_moves(tmp_path: Path) -> None:
    path = saved_policy(tmp_path)
    loaded = MLPPolicy.load(path)
    assert loaded.meta == {"preset": "short", "options": {}}
    bot = make_bot(f"policy:{path}")
    assert isinstance(bot, PolicyBot) and bot.name == f"policy:{path}"
    opts = Options.from_preset("short")
    state = play([bot, make_bot("random")], opts, seed=1)  # State.play checks every move
    assert state.result is not None
    assert isinstance(make_bot(f"policy:{path},sample"), PolicyBot)


def test_policy_errors_are_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(OptionsError, match="no such weights file"):
        make_bot("policy:/nonexistent/policy.npz")
    with pytest.raises(OptionsError, match="give the weights file"):
        make_bot("policy:")
    path = saved_policy(tmp_path)
    bot = PolicyBot.load(str(path))
    with pytest.raises(OptionsError, match=r"the weights take .* these options need"):
        bot.start_game(Options.from_preset("party"), 0)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip file")
    with pytest.raises(OptionsError, match="cannot read"):
        MLPPolicy.load(bad)


def test_masked_softmax_gives_illegal_actions_nothing() -> None:
    probs = masked_softmax(np.array([[5.0, 1.0, 1.0], [0.0, 0.0, 0.0]]), np.array([[0, 1, 1], [1, 0, 0]]))
    np.testing.assert_allclose(probs, [[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]])


def test_the_examples_policy_gradient_matches_finite_differences() -> None:
    ex = example_module()
    rng = np.random.default_rng(3)
    policy = MLPPolicy.create(6, 5, (4,), rng=rng)
    for w, b in policy.layers:
        w[:] = rng.normal(0, 0.5, w.shape)
        b[:] = rng.normal(0, 0.5, b.shape)
    obs = rng.random((7, 6))
    masks = (rng.random((7, 5)) < 0.6).astype(np.int8)
    masks[:, 0] = 1
    actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in masks])
    adv = rng.normal(0, 1, 7)
    entropy = 0.1

    def objective() -> float:
        p = policy.probabilities(obs, masks)
        logp = np.log(np.where(p > 0, p, 1.0))
        return float((adv * logp[np.arange(7), actions]).mean() + entropy * (-(p * logp).sum(axis=1)).mean())

    grads, _ = ex.policy_gradient(policy, obs, masks, actions, adv, entropy)
    params = [a for layer in policy.layers for a in layer]
    eps = 1e-6
    for param, grad in zip(params, grads, strict=True):
        for idx in list(np.ndindex(param.shape))[:6]:
            old = param[idx]
            param[idx] = old + eps
            up = objective()
            param[idx] = old - eps
            down = objective()
            param[idx] = old
            assert grad[idx] == pytest.approx((up - down) / (2 * eps), abs=1e-6)


def test_the_trained_policy_plays_over_the_bot_protocol_like_in_process(tmp_path: Path) -> None:
    """``cmd:python examples/train_policy.py serve W`` is how ``spite tournament`` runs the policy."""
    path = saved_policy(tmp_path)
    opts = Options.from_preset("short", {"stock_size": 6})
    external = ExternalBot([sys.executable, str(EXAMPLE), "serve", str(path)], startup=30.0, default_limit=30.0)
    try:
        remote = play([external, make_bot("greedy")], opts, seed=4)
    finally:
        external.close()
    local = play([PolicyBot.load(str(path)), make_bot("greedy")], opts, seed=4)
    assert remote.move_log() == local.move_log()
    assert external.announced == "policy policy.npz"


def test_rl_bench_reports_steps_per_second() -> None:
    pytest.importorskip("pettingzoo")
    from spite.malice.bench.rl import run_rl_bench

    out = run_rl_bench(0.4)
    assert out["aec_steps_per_s"] > 0 and out["aec_steps_per_s_no_text"] > 0 and out["encode_per_s"] > 0
    assert out["gym_steps_per_s"] > 0
    assert out["openspiel_moves_per_s"] is None or out["openspiel_moves_per_s"] > 0
    assert out["preset"] == "classic" and out["games"] >= 1
    with pytest.raises(ValueError, match="positive"):
        run_rl_bench(0)
