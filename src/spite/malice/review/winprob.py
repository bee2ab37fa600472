"""Win probability of a Spite and Malice position from its stock sizes: a race model.

The review plays each plan a few turns ahead (:mod:`spite.malice.review`) and must then say how
likely the reviewed side is to win from where the rollout stopped. A game of Spite and Malice is a
race to empty one's stock, so this module models it as one: every turn a seat gets rid of some of
its side's stock cards, drawn from a distribution measured in games of the heuristic bot against
itself under the same options (:func:`depletion`); the side whose stock runs out first, turn by
turn in seating order, wins. Under that model the chance that each side wins from given stock
sizes, with a given seat to move, is exact arithmetic (:meth:`RaceModel.win_probability`).

What the model leaves out (the cards in the seats' hands and discard piles, blocked builds,
partners helping) is what the rollouts before it play out; the model only turns "so many cards
left each, this seat to move" into a probability, so that one stock card counts for more near the
end of a game than at its start.

>>> from spite.malice import Options
>>> model = race_model(Options.from_preset("short"))
>>> even = model.win_probability((13, 13), to_move=0, side=0)
>>> 0.5 < even < 0.7                       # the first to move has the edge
True
>>> model.win_probability((2, 10), to_move=1, side=0) > 0.8
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from functools import lru_cache

from spite.malice import Options, State
from spite.malice.bots.search_fast import fast_plan

__all__ = ["CALIBRATION_GAMES", "RaceModel", "depletion", "race_model"]

CALIBRATION_GAMES = 8
"""Games of the heuristic against itself that measure how many stock cards a turn gets rid of."""

_MAX_TURNS = 600
"""Turns of one side the model looks ahead at most (the rest of the chance is split evenly)."""


_Position = tuple[tuple[int, ...], int, int | None]
"""A turn's start in a calibration game: the stock sizes, the seat to move, the side that won."""


def depletion(opts: Options, games: int = CALIBRATION_GAMES,
              seed: int = 2027) -> tuple[list[float], list[_Position]]:
    """How often a turn gets rid of 0, 1, 2, … of its side's stock cards, and every turn's start
    with the side that won: the heuristic against itself (every seat), ``games`` games dealt from
    ``seed``; a fixed seed, so always the same."""
    counts: dict[int, int] = {}
    seen: list[tuple[tuple[int, ...], int]] = []
    positions: list[_Position] = []
    rng = random.Random(f"spite-review-calibration/{seed}")
    for _ in range(games):
        state = State.new(opts, rng.getrandbits(48))
        seen.clear()
        while state.result is None:
            stock = opts.stock_of(state.to_move)
            before, turn = len(state.stocks[stock]), state.turn
            seen.append((tuple(len(s) for s in state.stocks), state.to_move))
            while state.result is None and state.turn == turn:
                moves = fast_plan(state, 400)
                if not moves:
                    break
                for move in moves:
                    if state.result is not None:
                        break
                    state.play(move)
            if state.turn == turn and state.result is None:  # cannot happen: a turn always ends
                break
            gone = before - len(state.stocks[stock])
            counts[gone] = counts.get(gone, 0) + 1
        winner = state.result.winner if state.result is not None else None
        won = None if winner is None else opts.stock_of(winner)
        positions += [(stocks, to_move, won) for stocks, to_move in seen]
    total = sum(counts.values())
    return [counts.get(k, 0) / total for k in range(max(counts) + 1)], positions


@dataclass
class RaceModel:
    """The race to empty the stocks (see the module docstring)."""

    opts: Options
    per_turn: list[float]
    """``per_turn[k]``: the chance that a seat's turn gets rid of ``k`` of its side's stock cards."""
    _done: dict[int, list[float]] = field(default_factory=dict, repr=False)
    _cache: dict[tuple[tuple[int, ...], int, int], float] = field(default_factory=dict, repr=False)

    def finished_within(self, cards: int) -> list[float]:
        """``F[k]``: the chance that a side with ``cards`` stock cards has emptied it after ``k`` of
        its turns (``F[0]`` is 0 unless ``cards`` is 0)."""
        got = self._done.get(cards)
        if got is not None:
            return got
        # the distribution of the cards left, turn after turn
        left = [0.0] * (cards + 1)
        left[cards] = 1.0
        out = [1.0 if cards <= 0 else 0.0]
        p = self.per_turn
        while len(out) <= _MAX_TURNS and out[-1] < 1.0 - 1e-6:
            nxt = [0.0] * (cards + 1)
            for r in range(1, cards + 1):
                mass = left[r]
                if mass == 0.0:
                    continue
                for k, pk in enumerate(p):
                    nxt[max(0, r - k)] += mass * pk
            left = nxt
            out.append(out[-1] + left[0])
            left[0] = 0.0
        self._done[cards] = out
        return out

    def win_probability(self, stocks: tuple[int, ...], to_move: int, side: int) -> float:
        """The chance that ``side`` empties its stock first, with ``stocks`` cards left per side and
        ``to_move`` (a seat) about to begin a turn."""
        key = (stocks, to_move, side)
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self.race(stocks, to_move, side)
        return got

    def mean_per_turn(self) -> float:
        """Stock cards a turn gets rid of on average."""
        return sum(k * p for k, p in enumerate(self.per_turn))

    def win_probability_between(self, stocks: tuple[float, ...], to_move: int, side: int) -> float:
        """:meth:`win_probability` for stock sizes between whole cards: the mean of the whole-card
        neighbours, each weighted by how near it is (linear in every side's size)."""
        import itertools

        low = [math.floor(n) for n in stocks]
        frac = [n - f for n, f in zip(stocks, low, strict=True)]
        total = 0.0
        for corner in itertools.product((0, 1), repeat=len(stocks)):
            weight = 1.0
            for up, f in zip(corner, frac, strict=True):
                weight *= f if up else 1.0 - f
            if weight > 0.0:
                sizes = tuple(max(0, n + up) for n, up in zip(low, corner, strict=True))
                total += weight * self.win_probability(sizes, to_move, side)
        return total

    def race(self, stocks: tuple[int, ...], to_move: int, side: int) -> float:
        """:meth:`win_probability`, worked out (it keeps the answers)."""
        opts = self.opts
        players = opts.players
        sides = len(stocks)
        if stocks[side] == 0:
            return 1.0
        if any(n == 0 for n in stocks):
            return 0.0
        order = [opts.stock_of((to_move + k) % players) for k in range(players)]  # one round of turns
        finish = [self.finished_within(n) for n in stocks]
        rounds = max(len(f) for f in finish)
        total = 0.0
        taken = [0] * sides  # turns each side has had so far
        for _ in range(rounds):
            for s in order:
                taken[s] += 1
                if s != side:
                    continue
                k = taken[side]
                mine = finish[side]
                now = mine[k] if k < len(mine) else 1.0
                before = mine[k - 1] if k - 1 < len(mine) else 1.0
                chance = now - before  # ``side`` finishes in exactly this turn …
                if chance <= 0.0:
                    continue
                for other in range(sides):  # … and every other side has not finished yet
                    if other != side:
                        f = finish[other]
                        j = taken[other]
                        chance *= 1.0 - (f[j] if j < len(f) else 1.0)
                total += chance
        return min(1.0, max(0.0, total))


@lru_cache(maxsize=32)
def race_model(opts: Options) -> RaceModel:
    """The race model of ``opts`` (measured once per options and kept)."""
    per_turn, _ = depletion(opts)
    return RaceModel(opts, per_turn)


def calibration(opts: Options, games: int = 150, seed: int = 99) -> list[tuple[int, int, float, float]]:
    """How well the race model of ``opts`` predicts the winners of ``games`` other games of the
    heuristic against itself: for each tenth of its predictions (every turn's start, every side),
    ``(tenth, positions, mean prediction, share won)``."""
    model = race_model(opts)
    _, positions = depletion(opts, games, seed)
    bins: dict[int, list[tuple[float, bool]]] = {}
    for stocks, to_move, won in positions:
        if won is None:
            continue
        for side in range(len(stocks)):
            p = model.win_probability(stocks, to_move, side)
            bins.setdefault(min(9, int(p * 10)), []).append((p, won == side))
    return [(k, len(v), sum(p for p, _ in v) / len(v), sum(w for _, w in v) / len(v)) for k, v in sorted(bins.items())]


def main(argv: list[str] | None = None) -> None:
    """``python -m spite.malice.review.winprob [PRESET] [GAMES]``: the model's calibration (docs/bots.md)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    preset = args[0] if args else "classic"
    games = int(args[1]) if len(args) > 1 else 150
    print(f"race model of {preset}: {games} games of the heuristic against itself")
    print("tenth  positions  predicted  won")
    for k, n, p, w in calibration(Options.from_preset(preset), games):
        print(f"{k:5}  {n:9}  {100 * p:8.1f}%  {100 * w:4.1f}%")


if __name__ == "__main__":
    main()
