"""Tournament statistics: win rates with Wilson intervals, Elo ratings, per-bot summaries.

>>> lo, hi = wilson(7, 10)
>>> round(lo, 4), round(hi, 4)
(0.3968, 0.8922)
>>> {k: round(v, 1) for k, v in elo_ratings(2, [(0, 1, 1.0)] * 3 + [(0, 1, 0.0)]).items()}
{0: 73.6, 1: -73.6}
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from spite.arena.runner import GameResult

__all__ = ["Z95", "elo_ratings", "pairwise", "summarize", "wilson"]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def pairwise(results: Iterable[GameResult]) -> list[tuple[int, int, float]]:
    """Every pairwise result ``(a, b, score of a)`` in the games: a bot that did better than another in a
    game beat it (1), two that drew drew (0.5); two that both won (partners) or both lost tell nothing."""
    out: list[tuple[int, int, float]] = []
    for res in results:
        bots = sorted(res.scores)
        for i, a in enumerate(bots):
            for b in bots[i + 1:]:
                sa, sb = res.scores[a], res.scores[b]
                if sa > sb:
                    out.append((a, b, 1.0))
                elif sa < sb:
                    out.append((a, b, 0.0))
                elif sa == 0.5:
                    out.append((a, b, 0.5))
    return out


def elo_ratings(n_bots: int, pairs: Sequence[tuple[int, int, float]], prior_draws: float = 1.0,
                tol: float = 1e-10, max_iter: int = 100_000) -> dict[int, float]:
    """Maximum-likelihood Bradley–Terry ratings on the Elo scale, from pairwise results.

    ``P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``. Each pair of bots that met gets
    ``prior_draws`` virtual draws, so a bot that won (or lost) everything still has a finite rating.
    Ratings are centred on 0 (their mean is 0). Two bots where ``a`` scored ``s`` of ``n``:
    ``R_a - R_b = 400 * log10((s + p/2) / (n - s + p/2))`` with ``p = prior_draws``.
    """
    games = [[0.0] * n_bots for _ in range(n_bots)]
    score = [0.0] * n_bots
    for a, b, s in pairs:
        games[a][b] += 1
        games[b][a] += 1
        score[a] += s
        score[b] += 1 - s
    for a in range(n_bots):
        for b in range(n_bots):
            if a != b and games[a][b] > 0:
                games[a][b] += prior_draws
                score[a] += prior_draws / 2
    gamma = [1.0] * n_bots
    for _ in range(max_iter):
        new = []
        for a in range(n_bots):
            denom = sum(games[a][b] / (gamma[a] + gamma[b]) for b in range(n_bots) if b != a and games[a][b])
            new.append(score[a] / denom if denom > 0 else gamma[a])
        mean_log = sum(math.log(g) for g in new) / n_bots
        new = [g / math.exp(mean_log) for g in new]
        change = max(abs(math.log(x / y)) for x, y in zip(new, gamma, strict=True))
        gamma = new
        if change < tol:
            break
    return {a: 400 * math.log10(g) for a, g in enumerate(gamma)}


def summarize(names: Sequence[str], results: Sequence[GameResult]) -> dict[str, dict[str, Any]]:
    """Per bot (by display name): games, wins, draws, losses, win rate, 95% Wilson interval, score, Elo,
    mean game length in turns, mean think time per move in ms, moves, forfeits."""
    n = len(names)
    games = [0] * n
    wins = [0] * n
    draws = [0] * n
    turns = [0] * n
    moves = [0] * n
    think = [0.0] * n
    forfeits = [0] * n
    for res in results:
        for bot, s in res.scores.items():
            games[bot] += 1
            turns[bot] += res.turns
            wins[bot] += s == 1.0
            draws[bot] += s == 0.5
        for seat, bot in enumerate(res.seats):
            moves[bot] += res.decisions[seat]
            think[bot] += res.think[seat]
        if res.forfeit_seat is not None:
            forfeits[res.seats[res.forfeit_seat]] += 1
    elo = elo_ratings(n, pairwise(results))
    out: dict[str, dict[str, Any]] = {}
    for i, name in enumerate(names):
        g = games[i]
        lo, hi = wilson(wins[i], g)
        out[name] = {
            "games": g,
            "wins": wins[i],
            "draws": draws[i],
            "losses": g - wins[i] - draws[i],
            "win_rate": round(wins[i] / g, 4) if g else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "score": round((wins[i] + draws[i] / 2) / g, 4) if g else 0.0,
            "elo": round(elo[i], 1),
            "mean_turns": round(turns[i] / g, 2) if g else 0.0,
            "mean_think_ms": round(1000 * think[i] / moves[i], 4) if moves[i] else 0.0,
            "moves": moves[i],
            "forfeits": forfeits[i],
        }
    return out
