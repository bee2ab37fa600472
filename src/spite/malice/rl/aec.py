"""The PettingZoo AEC environment of Spite and Malice (every preset, 2–4 seats).

Agents are ``player_0`` … ``player_{n-1}`` (seat numbers). ``agent_selection`` is the seat to
move; it keeps the turn through all the build plays of a turn and passes on with the discard (or
``pass``). Each observation is a dict:

* ``observation``: the ``float32`` vector of :meth:`spite.malice.rl.encoding.Encoding.observe` of the
  agent's :class:`~spite.malice.SeatView` (never a card it may not see);
* ``action_mask``: ``int8``, 1 exactly at the legal actions of the agent (all 0 for an agent that
  is not to move).

The agent to move finds in its ``info`` the legal moves as text (``legal_moves``) and, with
``text=True`` (the default), a drawing of its view (``text``). When the game ends every agent is
terminated with reward +1 (the winning side), −1 (the others) or 0 for all (a draw). An illegal
action raises :class:`~spite.errors.IllegalMoveError`.

Make one with :func:`spite.malice.rl.pettingzoo_env`::

    env = pettingzoo_env("party")          # 3 seats
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0])
        env.step(action)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from spite.errors import IllegalMoveError
from spite.malice import Options, SeatView, State
from spite.malice.rl._common import optional_attr, require, seat_rewards, start_state
from spite.malice.rl.encoding import Encoding, view_text

if TYPE_CHECKING:
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
else:
    AECEnv = optional_attr("pettingzoo", "AECEnv")

__all__ = ["SpiteMaliceAEC"]


class SpiteMaliceAEC(AECEnv):  # type: ignore[misc, unused-ignore]
    """PettingZoo AEC environment of one Spite and Malice game (see the module docstring).

    ``opts`` are the rule options; ``text`` puts a drawing of the view into the acting agent's
    ``info`` (turn it off for speed); ``render_mode`` is ``None``, ``"ansi"`` (``render()``
    returns the acting agent's view as text) or ``"human"`` (prints it).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "spite_malice_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, opts: Options | None = None, *, text: bool = True, render_mode: str | None = None) -> None:
        require("pettingzoo")
        spaces = require("gymnasium.spaces")
        super().__init__()
        self.opts = opts or Options()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])}, "
                             f"not {render_mode!r}")
        self.render_mode = render_mode
        self.text = text
        self.encoding = Encoding(self.opts)
        n = self.opts.players
        self.possible_agents: list[str] = [f"player_{s}" for s in range(n)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self.encoding.obs_size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.encoding.n_actions) for a in self.possible_agents}
        self._rng: np.random.Generator | None = None
        self.game: State | None = None
        """The game in progress (the whole table: never give it to a policy)."""
        self.agents: list[str] = []
        self._views: dict[int, SeatView] = {}

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> Any:
        """The (shared) observation space: a dict of ``observation`` and ``action_mask``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """``Discrete(encoding.n_actions)`` (the table in ``docs/rl.md``)."""
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ the game
    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new game. ``seed`` fixes it (and the following ones); ``options={"state": State}``
        starts from a copy of that position instead (its rule options must be this env's)."""
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        start = start_state(options, self.opts)
        if start is not None:
            self.game = start.copy()
        else:
            self.game = State.new(self.opts, seed=int(self._rng.integers(2**62)))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        """Point at the seat to move, fill the infos, end the game when it is over."""
        state = self.game
        assert state is not None
        self.agent_selection = self.possible_agents[state.to_move]
        self._views = {}
        if state.result is not None:
            for a, r in zip(self.possible_agents, seat_rewards(state.result, self.opts), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {"result": state.result.to_json()}
            return
        for a in self.agents:
            self.infos[a] = {}
        view = state.view(state.to_move)
        self._views = {state.to_move: view}
        info: dict[str, Any] = {"legal_moves": [m.text for m in view.legal_moves]}
        if self.text:
            info["text"] = view_text(view)
        self.infos[self.agent_selection] = info

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent`` (built from its seat's view only)."""
        if self.game is None:
            raise RuntimeError("call reset() before observe()")
        seat = self._seats[agent]
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.view(seat)
        return {"observation": self.encoding.observe(view), "action_mask": self.encoding.mask(view)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play the action of ``agent_selection`` (``None`` for an agent that is already done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game
        assert state is not None
        if action is None:
            raise IllegalMoveError(f"{agent} is to move: give an action, not None")
        move = self.encoding.move(int(action))
        try:
            state.play(move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"action {int(action)} ({move.text}) is not legal for {agent}: {exc}") from None
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # ------------------------------------------------------------------ output
    def render(self) -> str | None:
        """The acting agent's view as text (``"ansi"``), printed with ``"human"``."""
        if self.render_mode is None or self.game is None:
            return None
        seat = self._seats[self.agent_selection]
        text = view_text(self.game.view(seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def __str__(self) -> str:
        return "spite_malice_v0"
