"""A small numpy policy over the encoding, and the :class:`PolicyBot` that plays it.

A :class:`MLPPolicy` maps an observation vector (:meth:`spite.malice.rl.encoding.Encoding.observe`) to
one logit per action through dense layers with ``tanh`` between them (no hidden layer: a linear
softmax policy); illegal actions are masked out before the softmax. Weights are saved as a
``.npz`` file holding the layers (``W0``, ``b0``, ``W1``, ``b1``, …) and ``meta`` (JSON: the
preset and rule options it was trained for, and the sizes).

``PolicyBot`` is a :class:`~spite.bots.Bot`: ``make_bot("policy:weights.npz")`` once this module
is imported (``spite tournament`` can also run it as an external program, see
``examples/train_policy.py``). It plays greedily (the most likely legal action) unless made with
``sample=True``.

>>> import numpy as np, random
>>> from spite.malice import Options, State
>>> from spite.malice.rl.encoding import Encoding
>>> enc = Encoding(Options.from_preset("short"))
>>> policy = MLPPolicy.create(enc.obs_size, enc.n_actions, hidden=(16,), rng=np.random.default_rng(0))
>>> bot = PolicyBot(policy, Options.from_preset("short"))
>>> state = State.new(bot.opts, seed=2)
>>> bot.choose(state.view(state.to_move), random.Random(0)) in state.legal_moves()
True
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from spite.bots import register_bot
from spite.bots.base import Bot, Decision
from spite.errors import OptionsError
from spite.malice import Options, SeatView
from spite.malice.rl.encoding import Encoding

__all__ = ["MLPPolicy", "PolicyBot", "masked_softmax"]

FloatArray = npt.NDArray[np.float64]


def masked_softmax(logits: FloatArray, mask: npt.NDArray[Any]) -> FloatArray:
    """Softmax over the entries where ``mask`` is nonzero (0 elsewhere); works on rows of a batch."""
    z = np.where(mask > 0, logits, -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: FloatArray = e / e.sum(axis=-1, keepdims=True)
    return out


class MLPPolicy:
    """Dense layers ``(W, b)`` with ``tanh`` between them; the last layer gives the action logits."""

    def __init__(self, layers: Sequence[tuple[FloatArray, FloatArray]], meta: dict[str, Any] | None = None) -> None:
        if not layers:
            raise ValueError("a policy needs at least one layer")
        self.layers = [(np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)) for w, b in layers]
        for (w, b), nxt in zip(self.layers, [*self.layers[1:], None], strict=True):
            if w.ndim != 2 or b.shape != (w.shape[1],) or (nxt is not None and nxt[0].shape[0] != w.shape[1]):
                raise ValueError("the policy's layer shapes do not fit together")
        self.meta: dict[str, Any] = dict(meta or {})

    @classmethod
    def create(cls, obs_size: int, n_actions: int, hidden: Sequence[int] = (), *,
               rng: np.random.Generator | None = None, meta: dict[str, Any] | None = None) -> MLPPolicy:
        """A fresh policy: small random hidden layers, a zero output layer (uniform over legal moves)."""
        rng = rng or np.random.default_rng()
        sizes = [obs_size, *hidden, n_actions]
        layers = []
        for i, (a, b) in enumerate(itertools.pairwise(sizes)):
            last = i == len(sizes) - 2
            w = np.zeros((a, b)) if last else rng.normal(0.0, 1.0 / np.sqrt(a), (a, b))
            layers.append((w, np.zeros(b)))
        return cls(layers, meta)

    @property
    def obs_size(self) -> int:
        """The observation length the policy takes."""
        return int(self.layers[0][0].shape[0])

    @property
    def n_actions(self) -> int:
        """The number of actions it scores."""
        return int(self.layers[-1][0].shape[1])

    def forward(self, obs: npt.NDArray[Any]) -> tuple[FloatArray, list[FloatArray]]:
        """Logits for one observation or a batch, and every layer's input (for backpropagation)."""
        x = np.asarray(obs, dtype=np.float64)
        inputs = []
        for i, (w, b) in enumerate(self.layers):
            inputs.append(x)
            x = x @ w + b
            if i < len(self.layers) - 1:
                x = np.tanh(x)
        return x, inputs

    def probabilities(self, obs: npt.NDArray[Any], mask: npt.NDArray[Any]) -> FloatArray:
        """The action probabilities (0 for illegal actions)."""
        return masked_softmax(self.forward(obs)[0], mask)

    def save(self, path: str | Path) -> None:
        """Write the weights and ``meta`` to a ``.npz`` file."""
        arrays: dict[str, Any] = {}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"W{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        arrays["meta"] = np.array(json.dumps(self.meta))
        with open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> MLPPolicy:
        """Read a policy written by :meth:`save` (raises :class:`OptionsError` with the reason)."""
        try:
            with np.load(path, allow_pickle=False) as data:
                n = sum(1 for k in data.files if k.startswith("W"))
                layers = [(data[f"W{i}"], data[f"b{i}"]) for i in range(n)]
                meta = json.loads(str(data["meta"])) if "meta" in data.files else {}
        except FileNotFoundError:
            raise OptionsError(f"policy: no such weights file {str(path)!r}") from None
        except (OSError, ValueError, KeyError) as exc:
            raise OptionsError(f"policy: cannot read {str(path)!r}: {exc}") from None
        return cls(layers, meta)


class PolicyBot(Bot):
    """Plays an :class:`MLPPolicy` (greedy, or sampling with ``sample=True``) from its seat's view."""

    name = "policy"

    def __init__(self, policy: MLPPolicy, opts: Options | None = None, *, sample: bool = False) -> None:
        self.policy = policy
        self.sample = sample
        self._encoding: Encoding | None = None
        if opts is None and "preset" in policy.meta:
            opts = Options.from_preset(policy.meta["preset"], policy.meta.get("options", {}))
        self.opts = opts
        if opts is not None:
            self._set_options(opts)

    @classmethod
    def load(cls, spec: str) -> PolicyBot:
        """``weights.npz`` or ``weights.npz,sample`` (the text after ``policy:`` in a bot spec)."""
        path, _, flag = spec.partition(",")
        if not path:
            raise OptionsError("policy: give the weights file, e.g. policy:policy.npz")
        if flag not in ("", "sample", "greedy"):
            raise OptionsError(f"policy: unknown flag {flag!r} (sample or greedy)")
        bot = cls(MLPPolicy.load(path), sample=flag == "sample")
        bot.name = f"policy:{path}"
        return bot

    def _set_options(self, opts: Options) -> None:
        enc = Encoding(opts)
        if (enc.obs_size, enc.n_actions) != (self.policy.obs_size, self.policy.n_actions):
            trained = self.policy.meta.get("preset", "other options")
            raise OptionsError(
                f"policy: the weights take {self.policy.obs_size} inputs and {self.policy.n_actions} actions "
                f"(trained for {trained}); these options need {enc.obs_size} and {enc.n_actions}")
        self.opts = opts
        self._encoding = enc

    def start_game(self, opts: Options, seat: int) -> None:
        if self._encoding is None or self._encoding.opts != opts:
            self._set_options(opts)

    def decide(self, view: SeatView, rng: random.Random | None, budget: float | None = None) -> Decision:
        if self._encoding is None or self._encoding.opts != view.opts:
            self._set_options(view.opts)
        enc = self._encoding
        assert enc is not None
        probs = self.policy.probabilities(enc.observe(view), enc.mask(view))
        if self.sample:
            r = rng.random() if rng is not None else random.random()
            action = min(int(np.searchsorted(np.cumsum(probs), r, side="right")), len(probs) - 1)
            while probs[action] == 0.0:  # rounding at the end of the cumulative sum
                action -= 1
        else:
            action = int(np.argmax(probs))
        return Decision(enc.move(action), f"policy: {probs[action]:.0%} for this move")


register_bot("policy", PolicyBot.load)
