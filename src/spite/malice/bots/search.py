"""The search bot: Monte-Carlo search over whole turns under hidden information.

When its turn starts (and again whenever new cards come to light during the turn) the bot:

1. asks the heuristic planner for its best plans for the rest of the turn (each a sequence of
   build plays ending with a discard, or ending where a stock card or a fresh hand turns up) and
   keeps the best few that lead to different positions (a discard onto one empty pile or another
   is one candidate, not two);
2. samples the cards it cannot see — other hands, the face-down stock cards, the draw pile order —
   consistently with its view (:func:`~spite.malice.determinize.determinize`), many times;
3. in each sample plays every candidate plan, then the rest of the turn and the next ``horizon``
   turns (default 2: the opponent's reply and its own next turn) of every player with the
   heuristic planner (its fast twin :func:`~spite.malice.bots.search_fast.fast_plan`), and scores where
   that leads: the stock cards its side got rid of since the search began minus the best other
   side's, ±50 for a game won or lost;
4. keeps the candidates that do best on the same samples (successive halving), until its time
   runs out, its number of samples runs out, or the choice is settled, and plays the best one —
   the heuristic's own first choice unless another beat it by more than ``confidence`` (default
   0.5; the README has the games that chose it) standard errors.

Time: the budget (default 1 s) is per turn. A turn may need several plans (a stock card turned
up, a refilled hand); each plan may use ``share`` (default 0.6) of what is left of the turn's
budget, so a turn never takes more than the budget. A budget handed in by the caller (a hint's
``--seconds``) is for that one plan.

Settled: once two candidates are left (the heuristic's choice and its best rival) and at least
``settle_samples`` (default 24) samples are in, the search stops when the rival's gain is more
than ``settle_z`` (default 2.5) standard errors from zero either way — more samples would not
change the choice — or when that many standard errors are under ``settle_margin`` (default 0.3
stock cards) — the two are as good as equal. So a clear choice costs a fraction of the budget.

With ``value=learned`` (``search:1.0,value=learned``) the search is built on the learned value
(:mod:`spite.malice.bots.learned`) instead: the candidates and the favourite are the learned bot's
(``learned`` with its BLEND for the game, the ``hard`` level), the rollouts play the rest of the turn
and one more (the opponent's reply) with the planner of the ``hard`` weights, and each rollout's end
is valued by the learned chance of winning of the turn that just ended, as its mover sees it
(:func:`learned_leaf`).
A rival must then beat the favourite by two standard errors (``confidence`` 2), and a choice is
settled as even under one point of winning chance. Looking deeper does worse: with two turns played
out (the reply and the own next one) it won 35 % of 71 games against ``hard`` (docs/bots.md).

With ``value=turn`` (``search:1.0,value=turn``, the ``expert`` level since 2026-12-04) it searches
what ``hard`` only guesses: ``hard`` plans up to the moment a stock card or a fresh hand turns up and
scores that moment with the unseen cards as unknown. Here each of ``hard``'s candidate plans that
stops there is played on, in each sample of the unseen cards, by the planner with the learned value
(replanning at each card that turns up) to the end of the turn, and every candidate is scored at the
turn's end as the learned bot scores an end of turn (:func:`turn_score`: the heuristic's terms plus
BLEND times the learned chance of winning, counted from where the plan began), with the heuristic
terms of ``heuristic-v1``'s weights, as it was measured (``hard``'s add the opponents' reach next
turn, which the learned value weighs too). A plan that ends the turn before any card turns up scores
the same in every sample, so when no candidate waits for a card the choice is ``hard``'s without a
sample. A rival must beat ``hard``'s plan by two standard errors (a rival whose score does not vary
against a favourite whose score does not vary: by any margin); the choice is settled as even when 2.5
standard errors are under 25 points (a stock card counts 1,000). No opponent's turn is played out.

Every candidate is scored on the same samples (one sampled state, played and undone for each), so
the comparison is fair even with few samples.
With ``iterations`` set (``search:iters=64``: at most that many samples, fewer once settled) the
bot is reproducible for a fixed seed; with only a time budget, how far it gets depends on the
machine.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from spite.cards import RANKS
from spite.errors import OptionsError, Phrase
from spite.malice import BUILD, Move, Options, SeatView, State
from spite.malice.bots.heuristic import (
    _NO_MOVE,
    DEFAULT_WEIGHTS,
    HARD_WEIGHTS,
    Plan,
    PlanningBot,
    Weights,
    _completed_card,
    _end_score,
    _node_score,
    plan_from_state,
    plan_turn,
    reach_table,
)
from spite.malice.bots.learned import ValueModel, features, learned_score, shipped_blend, shipped_value
from spite.malice.bots.search_fast import fast_plan
from spite.malice.determinize import determinize

__all__ = ["VALUES", "SearchBot", "learned_leaf", "outcome_key", "play_plan", "turn_score"]

VALUES = ("stock", "learned", "turn")
"""What a rollout's end is valued by (the ``value`` setting): ``stock``, the stock cards the side got
rid of against the best other side's; ``learned``, the learned chance of winning after the opponent's
reply (:func:`learned_leaf`); ``turn``, the learned bot's score of the own turn's end, the turn
played on by its planner (:func:`turn_score`)."""

_DEFAULTS: dict[str, dict[str, float]] = {
    "stock": {"horizon": 2, "confidence": 0.5, "settle_margin": 0.3, "blend": 0.0},
    "learned": {"horizon": 1, "confidence": 2.0, "settle_margin": 0.01},
    "turn": {"horizon": 0, "confidence": 2.0, "settle_margin": 25.0},
}
"""The settings each ``value`` plays with when not given (the games that chose them are in docs/bots.md):
a learned leaf looks one reply deep, and its settle margin is in chances (0.01: one point), not stock cards;
``turn`` looks to the end of the own turn only, its margin in the learned bot's points (25 of a stock
card's 1,000); the blend of both is the learned bot's for the game
(:func:`~spite.malice.bots.learned.shipped_blend`)."""


@dataclass
class _Candidate:
    moves: list[Move]
    prior: float
    values: list[float] = field(default_factory=list)
    fixed: float | None = None
    """The value of every sample, when it cannot depend on them (``value=turn``: a plan that ends the
    turn before any card turns up)."""

    @property
    def ends_turn(self) -> bool:
        """The plan ends the turn itself (a discard or a pass), not at a card turning up."""
        return bool(self.moves) and self.moves[-1].kind != BUILD

    @property
    def samples(self) -> int:
        return len(self.values)

    def gain_over(self, other: _Candidate) -> tuple[float, float]:
        """Mean and standard error of this candidate's value minus ``other``'s on the same samples."""
        n = min(len(self.values), len(other.values))
        if n == 0:
            return 0.0, float("inf")
        diffs = [a - b for a, b in zip(self.values[:n], other.values[:n], strict=True)]
        mean = sum(diffs) / n
        if n < 2:
            return mean, float("inf")
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)


def play_plan(world: State, moves: Sequence[Move] | Sequence[str]) -> int:
    """Play ``moves`` while the game goes on; how many were played (to undo them)."""
    played = 0
    for move in moves:
        if world.result is not None:
            break
        world.play(move)
        played += 1
    return played


def outcome_key(world: State, seat: int) -> tuple[object, ...]:
    """What a plan leads to, as far as ``seat`` can tell: two plans with the same key are one
    candidate (the search's and the game review's)."""
    return (
        tuple(sorted(len(b) for b in world.builds)),
        tuple(sorted(RANKS[c] for c in world.hands[seat])),
        tuple(sorted(tuple(RANKS[c] for c in p) for p in world.discards[seat])),
        tuple(len(s) for s in world.stocks),
        world.turn,
        world.result is not None,
    )


def _side(opts: Options, seat: int) -> int:
    return seat % 2 if opts.partnerships else seat


def learned_leaf(world: State, seat: int, model: ValueModel) -> float:
    """The chance that ``seat``'s side wins from ``world``, a rollout's end: 1, 0 or a share for a game
    over; else the learned value of the turn that just ended, as its mover saw it (the positions the
    value was fitted to), turned into ``seat``'s chance when that mover was its one opponent side. With
    more sides than two, the value of ``seat``'s own end of turn stands in.

    Like every value of a sampled world, it reads the sampled hands: the search averages it over many."""
    opts = world.opts
    result = world.result
    if result is not None:
        if result.winner is None:
            return 1.0 / opts.n_stocks
        return 1.0 if _side(opts, result.winner) == _side(opts, seat) else 0.0
    last = (world.to_move - 1) % opts.players
    if _side(opts, last) == _side(opts, seat):
        return model.win_chance(features(world, last))
    if opts.n_stocks == 2:
        return 1.0 - model.win_chance(features(world, last))
    return model.win_chance(features(world, seat))


def rollout_value(state: State, seat: int, turns: int, w: Weights = DEFAULT_WEIGHTS,
                  max_nodes: int = 400, start: list[int] | None = None,
                  end_turn: int | None = None, model: ValueModel | None = None) -> tuple[float, int]:
    """Play ``turns`` more turns with the heuristic planner for everyone; the value for ``seat`` and
    the number of moves played (to undo them).

    The value is the stock cards ``seat``'s side got rid of (since ``start``, the stock sizes, by
    default now) minus those the best other side got rid of, with ±50 for a game won or lost on the way;
    with a ``model``, the learned chance of winning where the rollout ends (:func:`learned_leaf`).
    """
    opts = state.opts
    sides = 2 if opts.partnerships else opts.players
    if start is None:
        start = [len(s) for s in state.stocks]
    if end_turn is None:
        end_turn = state.turn + turns
    guard = 0
    while state.result is None and state.turn < end_turn and guard < 400:
        moves = fast_plan(state, max_nodes, w)
        if not moves:
            break
        for move in moves:
            if state.result is not None:
                break
            guard += 1
            state.play(move)
    if model is not None:
        return learned_leaf(state, seat, model), guard
    mine = _side(opts, seat)
    if state.result is not None and state.result.winner is not None:
        return (50.0 if _side(opts, state.result.winner) == mine else -50.0), guard
    progress = [start[i] - len(state.stocks[i]) for i in range(len(start))]
    others = [progress[i] for i in range(sides) if i != mine]
    return float(progress[mine] - (max(others) if others else 0)), guard


def turn_score(world: State, seat: int, moves: Sequence[Move], model: ValueModel, blend: float,
               w: Weights = HARD_WEIGHTS, max_nodes: int = 3000) -> tuple[float, int]:
    """Play ``moves`` in ``world`` (``seat`` to move), then the rest of the turn with the planner of
    weights ``w`` and the learned value (replanning whenever a stock card or fresh hand turns up); the
    score of where the turn ends, counted from where ``moves`` started (the heuristic's terms of ``w``
    plus ``blend`` times the learned chance of winning: with ``w`` ``HARD_WEIGHTS``, what the learned
    bot scores a plan with), and the number of moves played (to undo them).

    A game won on the way scores the stock cards played and ``blend`` (a chance of 1), so that a
    sampled win weighs as much as a sure one, not the planner's million."""
    origin = len(world.stock_of(seat))
    reach = reach_table(world, seat)
    played: list[tuple[Move, int, int]] = []
    refilled = False
    count = 0
    pending = list(moves)
    while True:
        if world.result is not None:
            winner = world.result.winner
            share = 0.5 if winner is None else 1.0 if _side(world.opts, winner) == _side(world.opts, seat) else 0.0
            return w.stock_card * (origin - len(world.stock_of(seat))) + blend * share, count
        if not pending:
            pending = list(plan_from_state(world, max_nodes=max_nodes, w=w,
                                           extra=learned_score(model, blend, exact=False)).moves)
            if not pending:  # cannot happen in a live game
                pending = [_NO_MOVE]
        move = pending.pop(0)
        if move.kind != BUILD:  # the turn's end: a discard or a pass
            node = _node_score(world, seat, played, origin, refilled, w, reach)
            score = _end_score(node, world, seat, move, w)
            return score + learned_score(model, blend, exact=True)(world, seat, move, reach, score), count
        hand_before = len(world.hands[seat])
        need = len(world.builds[move.target]) + 1
        world.play(move)
        count += 1
        played.append((move, _completed_card(world), need))
        if len(world.hands[seat]) > hand_before - (move.source == 1):
            refilled = True


class SearchBot(PlanningBot):
    """Information-set Monte-Carlo search over whole turns (see the module docstring)."""

    name = "search"

    def __init__(self, budget: float = 1.0, iterations: int | None = None, candidates: int = 8,
                 horizon: int | None = None, confidence: float | None = None, weights: Weights | None = None,
                 max_nodes: int = 400, share: float = 0.6, settle_samples: int = 24, settle_z: float = 2.5,
                 settle_margin: float | None = None, blend: float | None = None, value: str = "stock") -> None:
        super().__init__()
        if value not in VALUES:
            raise OptionsError(f"search: value must be one of {', '.join(VALUES)}, not {value!r}")
        defaults = _DEFAULTS[value]
        self.value = value
        self.blend = defaults.get("blend") if blend is None else blend  # None: the learned bot's for the game
        self.budget = budget
        self.iterations = iterations
        self.candidates = candidates
        self.horizon = int(defaults["horizon"]) if horizon is None else horizon
        self.confidence = defaults["confidence"] if confidence is None else confidence
        # the rollouts' planner: v1's weights for the stock value (as it was measured), the hard ones
        # (the learned bot's own planner) for the learned value; for ``turn`` the heuristic terms of the
        # turn's score and its planner after a card turns up: v1's, as ``expert`` was measured (without
        # the opponents' reach, which the learned value weighs too; the hard weights there did no better
        # over the same 1,000 classic deals, -0.3 +- 2.4 points: docs/bots.md)
        self.weights = weights if weights is not None else HARD_WEIGHTS if value == "learned" else DEFAULT_WEIGHTS
        self.max_nodes = max_nodes
        self.share = share
        self.settle_samples = settle_samples
        self.settle_z = settle_z
        self.settle_margin = defaults["settle_margin"] if settle_margin is None else settle_margin
        self.last_samples = 0
        self._turn = -1
        self._spent = 0.0

    def start_game(self, opts: Options, seat: int) -> None:
        super().start_game(opts, seat)
        self._turn, self._spent = -1, 0.0

    def make_plan(self, view: SeatView, rng: random.Random, budget: float | None) -> Plan:
        if budget is not None:  # the caller's limit for this one plan
            return self._search(view, rng, budget)
        if view.turn != self._turn:
            self._turn, self._spent = view.turn, 0.0
        started = time.perf_counter()
        plan = self._search(view, rng, self.share * max(0.0, self.budget - self._spent))
        self._spent += time.perf_counter() - started
        return plan

    def _search(self, view: SeatView, rng: random.Random, budget: float) -> Plan:
        deadline = time.perf_counter() + max(0.0, budget)
        blend = shipped_blend(view.opts) if self.blend is None else self.blend
        model = shipped_value(view.opts) if self.value == "learned" or blend else None
        leaf = model if self.value == "learned" else None
        if model is not None and blend:  # the candidates and the favourite: the learned bot's (``learned:BLEND``)
            base = plan_turn(view, rng, keep=3 * self.candidates, w=HARD_WEIGHTS,
                             extra=learned_score(model, blend, exact=True))
        else:
            base = plan_turn(view, rng, keep=3 * self.candidates, w=self.weights)
        alternatives = base.alternatives or [(base.score, base.moves)]
        pool = _distinct(view, alternatives, self.candidates)
        if len(pool) <= 1 or (budget <= 0 and not self.iterations):
            return _unsearched(base)
        seat = view.seat
        assert seat is not None
        if self.value == "turn":
            assert model is not None
            return self._search_turn(view, rng, deadline, base, pool, model, blend)
        horizon = self.horizon

        def score(sample: random.Random, pool: list[_Candidate]) -> list[float]:
            values: list[float] = []
            world = determinize(view, sample)
            start = [len(s) for s in world.stocks]
            end_turn = world.turn + 1 + horizon  # the same end for every candidate: this turn and ``horizon`` more
            for cand in pool:
                if self.iterations is None and values and time.perf_counter() >= deadline:
                    break  # out of time mid-sample: candidates are compared on whole samples only
                played = 0
                for move in cand.moves:
                    if world.result is not None:
                        break
                    world.play(move)
                    played += 1
                value, more = rollout_value(world, seat, horizon, self.weights, self.max_nodes, start, end_turn, leaf)
                values.append(value)
                for _ in range(played + more):
                    world.undo()
            return values

        def beats(gain: float, err: float, samples: int) -> tuple[str, Phrase]:
            if leaf is not None:
                return (f"beats the first plan by {100 * gain:+.1f} points of winning chance (±{100 * err:.1f}) "
                        f"over this turn and {horizon} more in {samples} samples",
                        Phrase("hint.beats-chance", {"gain": f"{100 * gain:+.1f}", "err": f"{100 * err:.1f}",
                                                     "turns": horizon, "n": samples}))
            return (f"beats the first plan by {gain:+.2f} stock cards (±{err:.2f}) over this turn and "
                    f"{horizon} more in {samples} samples",
                    Phrase("hint.beats", {"gain": f"{gain:+.2f}", "err": f"{err:.2f}", "turns": horizon,
                                          "n": samples}))

        return self._choose(view, base, pool, rng, deadline, score, beats)

    def _choose(self, view: SeatView, base: Plan, pool: list[_Candidate], rng: random.Random, deadline: float,
                score: Callable[[random.Random, list[_Candidate]], list[float]],
                beats: Callable[[float, float, int], tuple[str, Phrase]]) -> Plan:
        """Score the candidates on samples (``score`` of a sample's random source: a value for each
        candidate still in, fewer when out of time) until the samples or the time run out or the
        choice is settled, halving the rivals of the favourite (``pool[0]``, the plan of ``base``: the
        search must show it is beaten to leave it) as the samples double. The plan chosen, with why:
        ``beats`` of the gain, its standard error and the samples when a rival won."""
        favourite = pool[0]
        samples = 0
        limit = self.iterations
        round_size = 4
        while True:
            if limit is not None and samples >= limit:
                break
            if limit is None and time.perf_counter() >= deadline:
                break
            values = score(random.Random(rng.getrandbits(48)), pool)
            if len(values) < len(pool):
                break
            for cand, value in zip(pool, values, strict=True):
                cand.values.append(value)
            samples += 1
            if samples % round_size == 0 and len(pool) > 2:
                rivals = sorted(pool[1:], key=lambda c: -c.gain_over(favourite)[0])
                pool = [favourite, *rivals[: max(1, len(rivals) // 2)]]
                round_size *= 2
            if len(pool) == 2 and samples >= self.settle_samples:
                mean, se = pool[1].gain_over(favourite)
                if abs(mean) > self.settle_z * se or self.settle_z * se < self.settle_margin:
                    break  # settled: more samples would not change the choice, or not by anything that counts
        self.last_samples = samples
        best, gain, err = favourite, 0.0, 0.0
        for cand in pool[1:]:
            mean, se = cand.gain_over(favourite)
            if mean > 0 and mean > self.confidence * se and mean > gain:
                best, gain, err = cand, mean, se
        if best is favourite:
            why = f"{base.why}; no other plan did better in {samples} samples"
            phrases = (*base.why_phrases, Phrase("hint.no-better", {"n": samples}))
        else:
            why, phrase = beats(gain, err, samples)
            phrases = (phrase,)
        return Plan(best.moves, _signatures(view, best.moves), best.prior, why, base.nodes, why_phrases=phrases)

    def _search_turn(self, view: SeatView, rng: random.Random, deadline: float, base: Plan,
                     pool: list[_Candidate], model: ValueModel, blend: float) -> Plan:
        """``value=turn``: every candidate is played to the end of the turn as the learned bot would go
        on, on samples of the cards still to turn up, and scored as that bot scores an end of turn; the
        candidates that stop where a card turns up are the only ones whose score varies."""
        seat = view.seat
        assert seat is not None
        if all(cand.ends_turn for cand in pool):  # no card turns up before any of them ends the turn:
            return _unsearched(base)  # the learned bot's choice stands
        world = determinize(view, random.Random(0))
        for cand in pool:
            if cand.ends_turn:
                cand.fixed, played = turn_score(world, seat, cand.moves, model, blend, self.weights)
                for _ in range(played):
                    world.undo()

        def score(sample: random.Random, pool: list[_Candidate]) -> list[float]:
            values: list[float] = []
            world = determinize(view, sample)
            for cand in pool:
                if self.iterations is None and values and time.perf_counter() >= deadline:
                    break  # out of time mid-sample: candidates are compared on whole samples only
                if cand.fixed is not None:
                    values.append(cand.fixed)
                    continue
                value, played = turn_score(world, seat, cand.moves, model, blend, self.weights)
                values.append(value)
                for _ in range(played):
                    world.undo()
            return values

        def beats(gain: float, err: float, samples: int) -> tuple[str, Phrase]:
            return (f"beats the first plan by {gain:+.0f} points of the hard level's score of a turn's end (a stock "
                    f"card counts 1,000; ±{err:.0f}) over {samples} samples of the cards still to turn up",
                    Phrase("hint.beats-turn", {"gain": f"{gain:+.0f}", "err": f"{err:.0f}", "n": samples}))

        return self._choose(view, base, pool, rng, deadline, score, beats)


def _unsearched(base: Plan) -> Plan:
    """``base`` itself, saying that there was nothing to search."""
    base.why = f"{base.why}; no alternative worth searching"
    base.why_phrases = (*base.why_phrases, Phrase("hint.no-alternative"))
    return base


def _distinct(view: SeatView, alternatives: list[tuple[float, list[Move]]], count: int) -> list[_Candidate]:
    """The first ``count`` plans that lead to different positions (a discard onto one empty pile or
    another, a card onto one of two equal build piles: the same position, searched once)."""
    assert view.seat is not None
    seat = view.seat
    world = determinize(view, random.Random(0))
    seen: set[tuple[object, ...]] = set()
    out: list[_Candidate] = []
    for score, moves in alternatives:
        played = play_plan(world, moves)
        key = outcome_key(world, seat)
        for _ in range(played):
            world.undo()
        if key not in seen:
            seen.add(key)
            out.append(_Candidate(moves, score))
            if len(out) >= count:
                break
    return out


def _signatures(view: SeatView, moves: list[Move]) -> list[tuple[object, ...]]:
    """The signature of the position before each move of a plan (for following it move by move)."""
    from spite.malice.bots.heuristic import _state_signature

    world = determinize(view, random.Random(0))
    assert view.seat is not None
    out: list[tuple[object, ...]] = []
    for move in moves:
        out.append(_state_signature(world, view.seat))
        if world.result is not None:
            break
        world.play(move)
    return out


_SPEC_SETTINGS: dict[str, tuple[str, type, float, float]] = {
    "iters": ("iterations", int, 1, math.inf),
    "horizon": ("horizon", int, 1, 10),
    "candidates": ("candidates", int, 1, math.inf),
    "confidence": ("confidence", float, 0, math.inf),
    "blend": ("blend", float, 0, math.inf),
}
# and ``value=stock|learned`` (:data:`VALUES`)
"""The ``key=value`` settings a spec may give after ``search:`` (besides the seconds): the
:class:`SearchBot` parameter each sets, its type, and the least and most it may be."""


def _factory(arg: str) -> SearchBot:
    """``search``, ``search:0.5`` (seconds per turn), ``search:iters=64`` (samples per plan), or any
    of these with settings, comma-separated: ``search:1.0,horizon=3,confidence=0.5``,
    ``search:1.0,value=learned``."""
    usage = ("search takes seconds (search:0.5) or a number of samples (search:iters=64), then settings "
             f"({', '.join(k + '=' for k in _SPEC_SETTINGS if k != 'iters')}, value=), comma-separated; not {arg!r}")
    params: dict[str, float | str] = {}
    for item in filter(None, (part.strip() for part in arg.split(","))):
        key, eq, text = (part.strip() for part in item.partition("="))
        if key == "value" and eq:  # a word, not a number: SearchBot refuses one it does not know
            if "value" in params:
                raise OptionsError(f"search: value is given twice in {arg!r}")
            params["value"] = text
            continue
        try:
            if not eq:  # the seconds: once, before or among the settings
                budget = float(item)
                if "budget" in params or not 0 < budget < math.inf:
                    raise ValueError
                params["budget"] = budget
                continue
            param, kind, least, most = _SPEC_SETTINGS[key]
            value = kind(text)
        except (KeyError, ValueError):
            raise OptionsError(usage) from None
        if param in params:
            raise OptionsError(f"search: {key} is given twice in {arg!r}")
        if not least <= value <= most:
            limit = (f"from {least} to {most}" if most < math.inf else
                     f"{least} or more" if least == 0 else f"at least {least}")
            raise OptionsError(f"search: {key} must be {limit}, not {text}")
        params[param] = value
    if "budget" in params and "iterations" in params:
        raise OptionsError(f"search takes seconds or iters=, not both: {arg!r}")
    return SearchBot(**params)  # type: ignore[arg-type]  # each value has its parameter's type


def _register() -> None:
    from spite.bots import register_bot

    register_bot("search", _factory)


_register()
