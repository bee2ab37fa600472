"""Training the learned value (:mod:`spite.malice.bots.learned`) on self-play outcomes: ``spite train``.

1. Self-play: games between bots of a pool (by default the heuristic, its frozen v1 and the casual
   player, two drawn per game), each deal from the training seed. At every end of a turn (the
   discard, or a pass) the mover's :func:`~spite.malice.bots.learned.features` are kept with the game's
   outcome for that seat: 1 won, 0 lost, 0.5 drawn.
2. Fitting: a logistic model by full-batch gradient descent (Adam) on standardised features with
   a little L2, from zero weights. A tenth of the games (drawn by the seed) are held out; the
   log-loss on both parts after every epoch is the learning curve.

The same seed gives the same games, the same split and the same weights (the games do not depend
on ``jobs``: each is played from its own seeds and they are put back in order). numpy does the
fitting; it comes with the ``plot`` extra (matplotlib needs it), which also draws the curve.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from spite.malice.bots.learned import FEATURES, ValueModel, features

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DEFAULT_POOL", "TrainResult", "fit", "fit_games", "plot_curve", "self_play", "self_play_game", "train"]

DEFAULT_POOL: tuple[str, ...] = ("heuristic", "heuristic", "heuristic-v1", "casual")
"""The bots of self-play: two drawn per game (the heuristic twice as often as the others)."""


def _game_seed(seed: int, game: int, what: str) -> int:
    digest = hashlib.sha256(f"spite-train/{seed}/game/{game}/{what}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def self_play_game(seed: int, game: int, preset: str = "classic",
                   pool: Sequence[str] = DEFAULT_POOL) -> tuple[list[list[float]], list[float]]:
    """Game number ``game`` of the self-play of ``seed``: the features of every end of turn and the
    outcome for the seat that ended it."""
    from spite.bots import make_bot
    from spite.malice import DISCARD, PASS, Options, SeatView, State

    opts = Options.from_preset(preset)
    pick = random.Random(_game_seed(seed, game, "bots"))
    specs = [pick.choice(list(pool)) for _ in range(opts.players)]
    bots = [make_bot(spec) for spec in specs]
    rngs = [random.Random(_game_seed(seed, game, f"seat{s}")) for s in range(opts.players)]
    for s, bot in enumerate(bots):
        bot.start_game(opts, s)
    state = State.new(opts, _game_seed(seed, game, "deal"))
    rows: list[list[float]] = []
    seats: list[int] = []
    while state.result is None:
        seat = state.to_move
        move = bots[seat].choose(SeatView.of_mover(state), rngs[seat])
        if move.kind in (DISCARD, PASS):
            rows.append(features(state, seat, move))
            seats.append(seat)
        state.play(move)
    result = state.result
    outcomes: list[float] = []
    for seat in seats:
        if result.winner is None:
            outcomes.append(0.5)
        elif opts.partnerships:
            outcomes.append(1.0 if result.winner % 2 == seat % 2 else 0.0)
        else:
            outcomes.append(1.0 if result.winner == seat else 0.0)
    return rows, outcomes


def _play_range(args: tuple[int, int, int, str, tuple[str, ...]]) -> list[tuple[list[list[float]], list[float]]]:
    seed, start, stop, preset, pool = args
    return [self_play_game(seed, g, preset, pool) for g in range(start, stop)]


def self_play(games: int, seed: int, preset: str = "classic", pool: Sequence[str] = DEFAULT_POOL, jobs: int = 1,
              progress: Callable[[int], None] | None = None) -> list[tuple[list[list[float]], list[float]]]:
    """The positions and outcomes of ``games`` self-play games, game by game in order."""
    out: list[tuple[list[list[float]], list[float]]] = []
    step = 4
    ranges = [(seed, g, min(g + step, games), preset, tuple(pool)) for g in range(0, games, step)]
    if jobs <= 1:
        for r in ranges:
            out.extend(_play_range(r))
            if progress:
                progress(len(out))
        return out
    with ProcessPoolExecutor(max_workers=jobs) as pool_exec:
        for chunk in pool_exec.map(_play_range, ranges):
            out.extend(chunk)
            if progress:
                progress(len(out))
    return out


@dataclass
class FitResult:
    """A fitted model and its learning curve (log-loss by epoch)."""

    model: ValueModel
    train_loss: list[float] = field(default_factory=list)
    holdout_loss: list[float] = field(default_factory=list)
    holdout_accuracy: float = 0.0


def _log_loss(np: Any, p: np.ndarray, y: np.ndarray) -> float:
    eps = 1e-12
    return float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))


def fit(x_train: np.ndarray, y_train: np.ndarray, x_hold: np.ndarray, y_hold: np.ndarray, *, epochs: int = 300,
        rate: float = 0.05, l2: float = 1e-4, meta: dict[str, Any] | None = None,
        progress: Callable[[int], None] | None = None) -> FitResult:
    """A logistic model fitted by Adam from zero weights (deterministic: no random step)."""
    import numpy as np

    mean = x_train.mean(axis=0)
    scale = x_train.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = (x_train - mean) / scale
    xh = (x_hold - mean) / scale if len(x_hold) else xs[:0]
    n, d = xs.shape
    w = np.zeros(d)
    b = 0.0
    m_w, v_w = np.zeros(d), np.zeros(d)
    m_b = v_b = 0.0
    beta1, beta2 = 0.9, 0.999
    result = FitResult(model=ValueModel((0.0,) * d, 0.0, tuple(mean), tuple(scale), meta or {}))

    def sigmoid(z: np.ndarray) -> np.ndarray:
        out: np.ndarray = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
        return out

    for epoch in range(1, epochs + 1):
        p = sigmoid(xs @ w + b)
        err = p - y_train
        g_w = xs.T @ err / n + l2 * w
        g_b = float(err.mean())
        m_w = beta1 * m_w + (1 - beta1) * g_w
        v_w = beta2 * v_w + (1 - beta2) * g_w * g_w
        m_b = beta1 * m_b + (1 - beta1) * g_b
        v_b = beta2 * v_b + (1 - beta2) * g_b * g_b
        c1, c2 = 1 - beta1 ** epoch, 1 - beta2 ** epoch
        w = w - rate * (m_w / c1) / (np.sqrt(v_w / c2) + 1e-8)
        b = b - rate * (m_b / c1) / (np.sqrt(v_b / c2) + 1e-8)
        result.train_loss.append(_log_loss(np, sigmoid(xs @ w + b), y_train))
        if len(xh):
            result.holdout_loss.append(_log_loss(np, sigmoid(xh @ w + b), y_hold))
        if progress:
            progress(epoch)
    if len(xh):
        decided = y_hold != 0.5
        guess = sigmoid(xh @ w + b) > 0.5
        result.holdout_accuracy = float(np.mean(guess[decided] == (y_hold[decided] > 0.5))) if decided.any() else 0.0
    result.model = ValueModel(tuple(float(v) for v in w), float(b), tuple(float(v) for v in mean),
                              tuple(float(v) for v in scale), meta or {})
    return result


@dataclass
class TrainResult:
    """What ``spite train`` made: the model, its curve, and what it was made from."""

    fit: FitResult
    games: int
    positions: int
    holdout_games: int


def train(games: int, seed: int, *, preset: str = "classic", epochs: int = 300, pool: Sequence[str] = DEFAULT_POOL,
          jobs: int = 1, on_games: Callable[[int], None] | None = None,
          on_epochs: Callable[[int], None] | None = None) -> TrainResult:
    """Self-play ``games`` games from ``seed`` and fit the value to their outcomes."""
    played = self_play(games, seed, preset, pool, jobs, on_games)
    return fit_games(played, seed, preset=preset, epochs=epochs, pool=pool, on_epochs=on_epochs)


def fit_games(played: Sequence[tuple[list[list[float]], list[float]]], seed: int, *, preset: str = "classic",
              epochs: int = 300, pool: Sequence[str] = DEFAULT_POOL,
              on_epochs: Callable[[int], None] | None = None) -> TrainResult:
    """Fit the value to the positions and outcomes of self-play games (:func:`self_play`'s)."""
    import numpy as np

    games = len(played)
    split = random.Random(_game_seed(seed, -1, "holdout"))
    hold = {g for g in range(games) if split.random() < 0.1} if games >= 10 else set()
    x_tr: list[list[float]] = []
    y_tr: list[float] = []
    x_ho: list[list[float]] = []
    y_ho: list[float] = []
    for g, (rows, outcomes) in enumerate(played):
        if g in hold:
            x_ho.extend(rows)
            y_ho.extend(outcomes)
        else:
            x_tr.extend(rows)
            y_tr.extend(outcomes)
    d = len(FEATURES)
    meta = {"preset": preset, "games": games, "seed": seed, "epochs": epochs, "pool": list(pool),
            "positions": len(y_tr) + len(y_ho)}
    result = fit(np.array(x_tr, dtype=float).reshape(-1, d), np.array(y_tr, dtype=float),
                 np.array(x_ho, dtype=float).reshape(-1, d), np.array(y_ho, dtype=float),
                 epochs=epochs, meta=meta, progress=on_epochs)
    result.model.meta["holdout_log_loss"] = round(result.holdout_loss[-1], 5) if result.holdout_loss else None
    result.model.meta["holdout_accuracy"] = round(result.holdout_accuracy, 4)
    return TrainResult(result, games, len(y_tr) + len(y_ho), len(hold))


def write_weights(model: ValueModel, path: Path) -> None:
    """Write the weights file (JSON, rounded to 6 significant digits: small, and diff-able)."""
    data = model.to_json()
    for key in ("weights", "mean", "scale"):
        data[key] = [float(f"{v:.6g}") for v in data[key]]
    data["bias"] = float(f"{data['bias']:.6g}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def plot_curve(result: TrainResult, path: Path) -> None:
    """The learning curve (log-loss on the training and held-out games by epoch) as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    epochs = range(1, len(result.fit.train_loss) + 1)
    ax.plot(epochs, result.fit.train_loss, label=f"training ({result.games - result.holdout_games} games)")
    if result.fit.holdout_loss:
        ax.plot(epochs, result.fit.holdout_loss, label=f"held out ({result.holdout_games} games)")
    ax.axhline(0.6931, color="grey", linestyle=":", label="no knowledge (log 2)")
    ax.set_xlabel("epoch")
    ax.set_ylabel("log-loss of the win chance")
    ax.set_title(f"learned value: {result.positions:,} positions of {result.games:,} self-play games")
    ax.legend()
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
