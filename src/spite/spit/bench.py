"""``spite bench spit``: simulated Spit (or Speed) games per second, and the reaction-gap curve.

:func:`run_spit_bench` plays expert against expert in virtual time for about ``seconds`` of wall
clock, one core, and reports games/s (and how many virtual seconds pass per wall second).

:func:`reaction_gap_curve` asks "how much faster must a player be to win 75% of games?": two bots
equal in everything (the expert's strategy and jitter) but their mean reaction time play many
games at several gaps; the faster bot's win rate is plotted against the gap (PNG, matplotlib Agg)
with 95% Wilson intervals, and the gap at which it reaches 75% is read off the curve (linear
interpolation between the measured points, and a logistic fit through all games as a check).
Each deal is played twice with the seats swapped, so the deal's luck cancels out.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from spite.arena.stats import wilson
from spite.errors import OptionsError
from spite.spit.sim import simulate

__all__ = ["DEFAULT_GAPS", "crossing", "logistic_fit", "plot_gap_curve", "reaction_gap_curve", "run_spit_bench"]

DEFAULT_GAPS: dict[str, tuple[int, ...]] = {
    "spit": (0, 100, 200, 350, 500, 700, 1000, 1400, 2000),
    "speed": (0, 25, 50, 100, 150, 200, 300, 400),
}
"""Reaction-time gaps (ms) measured by default, per game (Spit needs far wider ones, see the docs)."""


def run_spit_bench(seconds: float = 5.0, game: str = "spit", bots: tuple[str, str] = ("expert", "expert"),
                   seed: int = 1, progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """Simulate games (``bots``, seats alternating, seeds ``seed, seed + 1, ...``) for about
    ``seconds``; a JSON-ready dict: games/s, engine moves/s, virtual seconds per wall second,
    mean rounds, mean virtual game length, races lost per game."""
    if not seconds > 0:
        raise OptionsError(f"seconds must be more than 0, not {seconds}")
    simulate(game, bots=bots, seed=seed - 1)  # warm up
    games = moves = rounds = rejected = 0
    virtual_ms = 0
    wins = [0, 0]
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        k = seed + games
        order = bots if games % 2 == 0 else (bots[1], bots[0])
        res = simulate(game, bots=order, seed=k)
        games += 1
        moves += sum(res.moves) + sum(res.rejected)
        rounds += res.rounds
        rejected += sum(res.rejected)
        virtual_ms += res.duration_ms
        if res.winner is not None:
            wins[res.winner if games % 2 == 1 else 1 - res.winner] += 1
        elapsed = time.perf_counter() - start
        if progress is not None:
            progress(min(1.0, elapsed / seconds))
    return {
        "game": game,
        "bots": list(bots),
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "moves_per_s": round(moves / elapsed),
        "virtual_s_per_s": round(virtual_ms / 1000 / elapsed, 1),
        "mean_rounds": round(rounds / games, 2),
        "mean_game_s": round(virtual_ms / 1000 / games, 1),
        "races_lost_per_game": round(rejected / games, 2),
        "wins": {bots[0]: wins[0], bots[1] if bots[1] != bots[0] else f"{bots[1]}#2": wins[1]},
    }


def crossing(xs: Sequence[float], ys: Sequence[float], level: float = 0.75) -> float | None:
    """The first ``x`` at which the piecewise-linear curve through ``(xs, ys)`` reaches ``level``
    (None if it never does).

    >>> round(crossing([0, 50, 100], [0.5, 0.7, 0.9]), 6)
    62.5
    """
    for i in range(1, len(xs)):
        y0, y1 = ys[i - 1], ys[i]
        if y0 < level <= y1:
            return xs[i - 1] + (level - y0) * (xs[i] - xs[i - 1]) / (y1 - y0)
        if i == 1 and y0 >= level:
            return xs[0]
    return None


def logistic_fit(xs: Sequence[float], wins: Sequence[float], games: Sequence[int]) -> tuple[float, float]:
    """Maximum-likelihood ``(a, b)`` of ``P(win) = 1 / (1 + exp(-(a + b x)))`` from ``wins[i]`` of
    ``games[i]`` at ``xs[i]`` (Newton's method).

    >>> a, b = logistic_fit([0, 100], [50, 75], [100, 100])
    >>> abs(a) < 1e-9, round((math.log(3) - a) / b, 1)
    (True, 100.0)
    """
    a = b = 0.0
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, k, n in zip(xs, wins, games, strict=True):
            p = 1 / (1 + math.exp(-(a + b * x)))
            r = k - n * p
            w = n * p * (1 - p)
            ga += r
            gb += r * x
            haa += w
            hab += w * x
            hbb += w * x * x
        det = haa * hbb - hab * hab
        if det <= 0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a += da
        b += db
        if abs(da) < 1e-12 and abs(db) < 1e-12:
            break
    return a, b


def reaction_gap_curve(
    base_ms: float = 350.0,
    gaps: Sequence[float] | None = None,
    deals: int = 100,
    game: str = "spit",
    preset: str | None = None,
    seed: int = 1,
    png: str | Path | None = "spit-reaction-gap.png",
    progress: Callable[[float], None] | None = None,
) -> dict[str, Any]:
    """Win rate of the faster of two otherwise equal bots against the gap between their mean
    reaction times: at each gap ``g`` the bots are ``reflex:base_ms`` (the faster; by default the
    expert's speed) and ``reflex:(base_ms + g)``, and play ``deals`` deals twice each (seats
    swapped), the same deals at every gap. ``gaps`` defaults to :data:`DEFAULT_GAPS` of the game.
    Writes the plot to ``png`` (unless None) and returns the data and the answer: ``gap75_ms``
    (linear interpolation between the points), ``gap75_fit_ms`` (logistic fit through all games),
    and ``ratio75`` (how many times slower the opponent is at ``gap75_ms``)."""
    if gaps is None:
        gaps = DEFAULT_GAPS.get(game, DEFAULT_GAPS["spit"])
    if not gaps or any(g < 0 for g in gaps) or list(gaps) != sorted(gaps):
        raise OptionsError("gaps must be ascending and not negative, e.g. 0 25 50 100")
    if not 1 <= base_ms <= 60_000 or base_ms + max(gaps) > 60_000:
        raise OptionsError(f"reaction times must lie between 1 and 60000 ms (base {base_ms:g}, gaps up to "
                           f"{max(gaps):g})")
    if deals < 1:
        raise OptionsError(f"deals must be at least 1, not {deals}")
    points: list[dict[str, Any]] = []
    total = len(gaps) * deals * 2
    done = 0
    start = time.perf_counter()
    for gap in gaps:
        fast, slow = base_ms, base_ms + gap
        wins = 0.0
        pair = (f"reflex:{fast:g}", f"reflex:{slow:g}")
        for d in range(deals):
            for rot in (0, 1):
                bots = pair if rot == 0 else (pair[1], pair[0])
                tag = f"spite-gap/{seed}/deal/{d}/rotation/{rot}"
                rngs = (random.Random(f"{tag}/seat/0"), random.Random(f"{tag}/seat/1"), random.Random(f"{tag}/ties"))
                res = simulate(game, preset, None, bots, seed=f"{seed}/{d}", rngs=rngs)
                if res.winner is None:
                    wins += 0.5
                elif res.winner == rot:
                    wins += 1
                done += 1
                if progress is not None:
                    progress(done / total)
        n = 2 * deals
        lo, hi = wilson(wins, n)
        points.append({"gap_ms": gap, "fast_ms": fast, "slow_ms": slow, "games": n, "wins": wins,
                       "win_rate": round(wins / n, 4), "ci95": [round(lo, 4), round(hi, 4)]})
    xs = [float(p["gap_ms"]) for p in points]
    ys = [float(p["win_rate"]) for p in points]
    gap75 = crossing(xs, ys, 0.75)
    a, b = logistic_fit(xs, [p["wins"] for p in points], [p["games"] for p in points])
    gap75_fit = (math.log(3) - a) / b if b > 0 else None
    out: dict[str, Any] = {
        "game": game,
        "preset": preset,
        "base_ms": base_ms,
        "deals": deals,
        "seed": seed,
        "points": points,
        "gap75_ms": None if gap75 is None else round(gap75, 1),
        "ratio75": None if gap75 is None else round((base_ms + gap75) / base_ms, 3),
        "gap75_fit_ms": None if gap75_fit is None else round(gap75_fit, 1),
        "ratio75_fit": None if gap75_fit is None else round((base_ms + gap75_fit) / base_ms, 3),
        "logistic": {"a": round(a, 5), "b_per_ms": round(b, 6)},
        "seconds": round(time.perf_counter() - start, 2),
        "png": None if png is None else str(png),
    }
    if png is not None:
        plot_gap_curve(out, Path(png))
    return out


def plot_gap_curve(curve: dict[str, Any], path: Path) -> None:
    """The PNG of :func:`reaction_gap_curve`'s data: win rate with 95% intervals against the gap,
    the logistic fit, the 75% line and where the curve crosses it."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    pts = curve["points"]
    xs = [p["gap_ms"] for p in pts]
    ys = [p["win_rate"] for p in pts]
    lo = [p["win_rate"] - p["ci95"][0] for p in pts]
    hi = [p["ci95"][1] - p["win_rate"] for p in pts]
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", color="#4c78a8", capsize=3, label="faster bot's win rate (95% CI)")
    a, b = curve["logistic"]["a"], curve["logistic"]["b_per_ms"]
    if xs:
        grid = [xs[-1] * i / 100 for i in range(101)]
        ax.plot(grid, [1 / (1 + math.exp(-(a + b * x))) for x in grid], color="#72b7b2", linestyle=":",
                label="logistic fit")
    ax.axhline(0.75, color="#e45756", linestyle="--", linewidth=1, label="75%")
    ax.axhline(0.5, color="#999999", linewidth=0.8)
    g75 = curve.get("gap75_ms")
    if g75 is not None:
        ax.axvline(g75, color="#e45756", linewidth=0.8)
        ax.annotate(f"{g75:.0f} ms: {curve['base_ms']:g} ms against {curve['base_ms'] + g75:.0f} ms",
                    (g75, 0.75), xytext=(8, -16), textcoords="offset points", fontsize=8, color="#e45756")
    ax.set_ylim(0.3, 1.0)
    ax.set_xlabel(f"reaction-time gap (ms): reflex:{curve['base_ms']:g} against reflex:({curve['base_ms']:g} + gap)",
                  fontsize=9)
    ax.set_ylabel("win rate of the faster bot")
    ax.set_title(f"{curve['game']}: {curve['deals']} deals × 2 seats per point, seed {curve['seed']}", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    fig.savefig(path, dpi=110)
