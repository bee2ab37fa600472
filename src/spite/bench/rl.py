"""``spite bench rl``: environment steps/s of the PettingZoo environment (and of its parts).

The player picks a uniformly random legal action from the ``action_mask`` of each observation,
so every step pays for what a learning agent pays for: the seat's view, the observation vector,
the mask, the checked move, the rewards and infos. Classic preset, two players, one core.
Figures, measured one after the other in this process:

* ``aec_steps_per_s``: ``env.last()`` + ``env.step()`` with the text view in ``info`` (the default);
* ``aec_steps_per_s_no_text``: the same with ``text=False``;
* ``encode_per_s``: observation vectors (:meth:`spite.rl.encoding.Encoding.observe`) alone.

Compare with ``spite bench engine`` moves/s: an environment step is one such move. Needs the
``[rl]`` extra (pettingzoo, gymnasium).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

__all__ = ["run_rl_bench"]


def _aec_steps(seconds: float, preset: str, text: bool, seed: int) -> tuple[float, int, int]:
    from spite.rl import pettingzoo_env

    env = pettingzoo_env(preset, text=text)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            steps += 1
        games += 1
        if time.perf_counter() >= deadline:
            break
        env.reset()
    return steps / (time.perf_counter() - start), steps, games


def _encode_rate(seconds: float, preset: str, seed: int) -> float:
    from spite.malice import Options, State
    from spite.rl.encoding import Encoding

    opts = Options.from_preset(preset)
    enc = Encoding(opts)
    state = State.new(opts, seed=seed)
    for _ in range(40):  # a position some way into the game
        if state.is_over:
            break
        state.play(state.legal_moves()[-1])
    view = state.view(state.to_move)
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            enc.observe(view)
        n += 200
    return n / (time.perf_counter() - start)


def run_rl_bench(seconds: float = 5.0, preset: str = "classic", seed: int = 1) -> dict[str, Any]:
    """Measure for about ``seconds`` in all: env steps/s (with and without the text view) and encodes/s."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, not {seconds}")
    _aec_steps(min(0.2, seconds / 10), preset, True, seed)  # warm up
    with_text, steps, games = _aec_steps(seconds * 0.45, preset, True, seed)
    no_text, _, _ = _aec_steps(seconds * 0.45, preset, False, seed)
    encode = _encode_rate(seconds * 0.1, preset, seed)
    return {
        "aec_steps_per_s": round(with_text),
        "aec_steps_per_s_no_text": round(no_text),
        "encode_per_s": round(encode),
        "steps": steps,
        "games": games,
        "seconds": round(seconds, 2),
        "preset": preset,
    }
