"""``spite bench rl``: steps/s of the research environments (and of their parts).

The player picks a uniformly random legal action from the ``action_mask`` of each observation,
so every step pays for what a learning agent pays for: the seat's view, the observation vector,
the mask, the checked move, the rewards and infos. Classic preset, two players, one core.
Figures, measured one after the other in this process:

* ``aec_steps_per_s``: PettingZoo, ``env.last()`` + ``env.step()`` with the text view in ``info``
  (the default);
* ``aec_steps_per_s_no_text``: the same with ``text=False``;
* ``gym_steps_per_s``: Gymnasium (``spite/SpiteMalice-v0`` against the ``random`` bot, text view
  on): ``env.step()`` per second, each one the agent's move and the bot's moves up to its next turn;
* ``openspiel_moves_per_s``: the OpenSpiel game (:mod:`spite.malice.rl.openspiel`): seats' actions per
  second, each with its observation tensor, the chance nodes (the deal, the shuffles) sampled in
  between and not counted; ``None`` without the ``[openspiel]`` extra;
* ``encode_per_s``: observation vectors (:meth:`spite.malice.rl.encoding.Encoding.observe`) alone.

Rates are per CPU second of this process (:data:`_clock`). Compare with ``spite bench engine``
moves/s: a PettingZoo step is one such move. Needs the ``[rl]`` extra (pettingzoo, gymnasium).
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

__all__ = ["run_rl_bench"]

_clock = time.process_time
"""Every rate is per second of this process's CPU time: the loops are single-threaded, so on an idle
machine that is the wall clock, and on a busy one (other jobs on the same cores) the figure still
says what the code costs instead of how much of a core it got."""


def _aec_steps(seconds: float, preset: str, text: bool, seed: int) -> tuple[float, int, int]:
    from spite.malice.rl import pettingzoo_env

    env = pettingzoo_env(preset, text=text)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = games = 0
    start = _clock()
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
        if _clock() >= deadline:
            break
        env.reset()
    return steps / (_clock() - start), steps, games


def _gym_steps(seconds: float, preset: str, seed: int) -> float:
    from spite.malice.rl import gymnasium_env

    env = gymnasium_env("random", preset)
    rng = np.random.default_rng(seed)
    obs, _info = env.reset(seed=seed)
    steps = 0
    start = _clock()
    deadline = start + seconds
    while _clock() < deadline:
        for _ in range(50):
            legal = np.flatnonzero(obs["action_mask"])
            obs, _reward, terminated, truncated, _info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                obs, _info = env.reset()
    return steps / (_clock() - start)


def _openspiel_moves(seconds: float, preset: str, seed: int) -> float | None:
    try:
        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

        import spite.malice.rl.openspiel  # noqa: F401  (registers the game)
    except ModuleNotFoundError:
        return None
    game = pyspiel.load_game(f"spite_malice(preset={preset})")
    rng = random.Random(seed)
    moves = 0
    start = _clock()
    deadline = start + seconds
    state = game.new_initial_state()
    while True:
        if state.is_terminal():
            state = game.new_initial_state()
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        state.observation_tensor(state.current_player())
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
        if not moves % 32 and _clock() >= deadline:
            break
    return moves / (_clock() - start)


def _encode_rate(seconds: float, preset: str, seed: int) -> float:
    from spite.malice import Options, State
    from spite.malice.rl.encoding import Encoding

    opts = Options.from_preset(preset)
    enc = Encoding(opts)
    state = State.new(opts, seed=seed)
    for _ in range(40):  # a position some way into the game
        if state.is_over:
            break
        state.play(state.legal_moves()[-1])
    view = state.view(state.to_move)
    n = 0
    start = _clock()
    while _clock() - start < seconds:
        for _ in range(200):
            enc.observe(view)
        n += 200
    return n / (_clock() - start)


def run_rl_bench(seconds: float = 5.0, preset: str = "classic", seed: int = 1) -> dict[str, Any]:
    """Measure for about ``seconds`` in all: env steps/s (with and without the text view) and encodes/s."""
    if seconds <= 0:
        raise ValueError(f"seconds must be positive, not {seconds}")
    _aec_steps(min(0.2, seconds / 10), preset, True, seed)  # warm up
    with_text, steps, games = _aec_steps(seconds * 0.25, preset, True, seed)
    no_text, _, _ = _aec_steps(seconds * 0.25, preset, False, seed)
    gym = _gym_steps(seconds * 0.2, preset, seed)
    openspiel = _openspiel_moves(seconds * 0.2, preset, seed)
    encode = _encode_rate(seconds * 0.1, preset, seed)
    return {
        "aec_steps_per_s": round(with_text),
        "aec_steps_per_s_no_text": round(no_text),
        "gym_steps_per_s": round(gym),
        "openspiel_moves_per_s": None if openspiel is None else round(openspiel),
        "encode_per_s": round(encode),
        "steps": steps,
        "games": games,
        "seconds": round(seconds, 2),
        "preset": preset,
    }
