"""The Gymnasium single-agent environment: one seat of Spite and Malice against built-in bots.

Registered as ``spite/SpiteMalice-v0`` when :mod:`spite.malice.rl` is imported::

    import gymnasium, spite.malice.rl
    env = gymnasium.make("spite/SpiteMalice-v0", opponent="heuristic", preset="short")
    obs, info = env.reset(seed=1)
    while True:
        action = int(obs["action_mask"].nonzero()[0][0])
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

Each step is one move of the agent (a build play, or the discard / ``pass`` that ends its turn);
the other seats' moves are played by their bots inside the step, until the agent is to move again
or the game is over. Observations and actions are those of the PettingZoo environment
(:mod:`spite.malice.rl.aec`): a dict of ``observation`` and ``action_mask``, and ``Discrete(n_actions)``.

Rewards: at the end +1 if the agent's side won, −1 if another seat won, 0 for a draw; with
``stock_reward`` also that much for every card the agent's side's stock lost in the step (0 by
default, so an episode's return is exactly the result). An action whose mask bit is 0 changes
nothing: the step returns the same observation, reward ``illegal_reward`` (default −0.01) and
``info["illegal"] = True`` (Gymnasium's checker and unmasked agents do take such actions).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from spite.bots import Bot, make_bot
from spite.errors import OptionsError
from spite.malice import Options, State
from spite.malice.rl._common import make_options, optional_attr, require, seat_rewards, start_state
from spite.malice.rl.encoding import Encoding, view_text

if TYPE_CHECKING:
    import gymnasium as gym

    GymEnv = gym.Env[dict[str, np.ndarray], np.int64]
else:
    GymEnv = optional_attr("gymnasium", "Env")

__all__ = ["SpiteMaliceEnv"]

MAX_REDEALS = 100


class SpiteMaliceEnv(GymEnv):
    """One seat of a Spite and Malice game against bots (see the module docstring).

    * ``opponent``: a bot spec (``random``, ``greedy``, ``heuristic``, ``search:iters=16``,
      ``easy`` … ``expert``) or a :class:`~spite.bots.Bot` for every other seat, or a sequence of
      them, one per other seat in seat order (the partner first with partnerships: seat+2 is the
      partner, so the order is the other seats from ``seat + 1`` on);
    * ``preset`` and ``**options``: the rule options (``players=3``, ``stock_size=13``, …);
    * ``seat``: the agent's seat, or ``None`` for a random seat each episode;
    * ``stock_reward``, ``illegal_reward``: see the module docstring; ``text``: put a drawing of
      the view into ``info["text"]``; ``budget``: seconds a bot may think per move (``None``: its
      own default; the ``search`` bot is reproducible only with ``iters=``).
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (gymnasium's)

    def __init__(
        self,
        opponent: str | Bot | Sequence[str | Bot] = "heuristic",
        preset: str = "classic",
        *,
        seat: int | None = 0,
        stock_reward: float = 0.0,
        illegal_reward: float = -0.01,
        text: bool = True,
        budget: float | None = None,
        render_mode: str | None = None,
        rules: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        spaces = require("gymnasium.spaces")
        super().__init__()
        self.opts: Options = make_options(preset, {**dict(rules or {}), **options})
        n = self.opts.players
        if seat is not None and not 0 <= seat < n:
            raise OptionsError(f"seat must be 0 to {n - 1} for {n} players, not {seat}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionsError(f"render_mode must be 'ansi' or 'human', not {render_mode!r}")
        specs: list[str | Bot] = [opponent] * (n - 1) if isinstance(opponent, str | Bot) else list(opponent)
        if len(specs) != n - 1:
            raise OptionsError(f"{n} players need {n - 1} opponents, got {len(specs)}")
        self.opponents: list[Bot] = [make_bot(s) if isinstance(s, str) else s for s in specs]
        self.seat = seat
        self.stock_reward = float(stock_reward)
        self.illegal_reward = float(illegal_reward)
        self.text = text
        self.budget = budget
        self.render_mode = render_mode
        self.encoding = Encoding(self.opts)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoding.obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.n_actions,), dtype=np.int8),
        })
        self.action_space = spaces.Discrete(self.encoding.n_actions)
        self.game: State | None = None
        """The game in progress (the whole table: never give it to a policy)."""
        self._me = 0
        self._bots: dict[int, tuple[Bot, random.Random]] = {}

    # ------------------------------------------------------------------ helpers
    def _side_stock(self) -> int:
        game = self.game
        assert game is not None
        return len(game.stock_of(self._me))

    def _obs(self) -> dict[str, np.ndarray]:
        assert self.game is not None
        view = self.game.view(self._me)
        return {"observation": self.encoding.observe(view), "action_mask": self.encoding.mask(view)}

    def _info(self, **extra: Any) -> dict[str, Any]:
        game = self.game
        assert game is not None
        info: dict[str, Any] = {"seat": self._me, "turn": game.turn}
        if game.result is not None:
            info["result"] = game.result.to_json()
        else:
            view = game.view(self._me)
            info["legal_moves"] = [m.text for m in view.legal_moves]
            if self.text:
                info["text"] = view_text(view)
        info.update(extra)
        return info

    def _play_others(self) -> None:
        """Let the bots move until the agent is to move or the game is over."""
        game = self.game
        assert game is not None
        while game.result is None and game.to_move != self._me:
            seat = game.to_move
            bot, rng = self._bots[seat]
            game.play(bot.choose(game.view(seat), rng, self.budget))

    # ------------------------------------------------------------------ the Gymnasium API
    def reset(self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal a new game and play the bots' moves up to the agent's first; ``options={"state":
        State}`` starts from a copy of that position instead (same rule options)."""
        super().reset(seed=seed)
        rng = self.np_random
        n = self.opts.players
        start = start_state(options, self.opts)
        for _ in range(MAX_REDEALS):
            self._me = int(rng.integers(n)) if self.seat is None else self.seat
            game_seed = int(rng.integers(2**62))
            self.game = start.copy() if start is not None else State.new(self.opts, seed=game_seed)
            others = [(self._me + k) % n for k in range(1, n)]
            self._bots = {}
            for k, s in enumerate(others):
                bot = self.opponents[k]
                bot.start_game(self.opts, s)
                self._bots[s] = (bot, random.Random(f"{game_seed}/{s}"))
            self._play_others()
            if self.game.result is None or start is not None:
                break
        return self._obs(), self._info()

    def step(self, action: int | np.integer[Any]) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play the agent's move, then the bots' until the agent is to move again or the game ends."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset() before step()")
        if game.result is not None:
            raise RuntimeError("the game is over: call reset()")
        move = self.encoding.move(int(action))
        if not game.is_legal(move):
            return self._obs(), self.illegal_reward, False, False, self._info(illegal=True)
        before = self._side_stock()
        game.play(move)
        self._play_others()
        reward = self.stock_reward * (before - self._side_stock()) if self.stock_reward else 0.0
        terminated = game.result is not None
        if terminated:
            reward += seat_rewards(game.result, self.opts)[self._me]
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), terminated, False, self._info()

    def render(self) -> str | None:
        """The agent's view as text (``"ansi"``), printed with ``"human"``."""
        if self.render_mode is None or self.game is None:
            return None
        text = view_text(self.game.view(self._me))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Close bots that hold a process (external ``cmd:`` bots)."""
        for bot in self.opponents:
            closer = getattr(bot, "close", None)
            if callable(closer):
                closer()
