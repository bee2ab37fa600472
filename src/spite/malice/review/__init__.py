"""The review of a Spite and Malice game (the ``review`` hook of ``spite-malice``).

:func:`review_malice` replays the record and cuts every reviewed turn into its decisions: the
turn's start, and each point where a card the seat could not see came to light (its stock's next
card turned up, its empty hand refilled), where a player plans again. At each decision it hands
:func:`review_decision` the seat's **view** and the moves played until the next decision, nothing
else; the evaluation never sees the game state.

:func:`review_decision` compares ``expert``'s plan and the others it starts from (``hard``'s) the way the
stock-valued search bot (:mod:`spite.malice.bots.search`, ``search:1.0``, the ``expert`` level until 2026-12-02)
compares its own: played out with the heuristic and valued by a race model of the stocks. (The search
built on the learned value, ``expert`` from then until 2026-12-04, was tried as the judge and overstated
what turns give away: it marked ``hard`` against itself on 9 of 64 turns of a classic game, one turn at
53 points, where this judge marks none; docs/bots.md, "Game review".)

1. the plan ``expert`` plays from the view (its search over the rest of the turn, with at most
   :data:`EXPERT_SAMPLES` samples), then ``hard``'s best plans that lead to other positions (the learned
   bot's, with its BLEND for the game: ``expert``'s candidates; the heuristic's before 2026-12-04) are the
   candidates, and the played plan is added if it reaches none of them;
2. the cards the seat cannot see are dealt at random consistently with its view
   (:func:`~spite.malice.determinize.determinize`), once per sample;
3. on each sample, every candidate is played, then the rest of the turn and ``horizon`` more turns
   of every player with the heuristic planner (:func:`~spite.malice.bots.search_fast.fast_plan`), and the
   position reached is valued as a chance of winning: 1 or 0 for a game won or lost on the way,
   otherwise the race model of :mod:`spite.malice.review.winprob` from the stock sizes and the seat to move;
4. after the first samples only the favourite (``expert``'s plan), the played plan and the best rival go
   on (the rest would only spend the budget);
5. the plan ``expert`` prefers is the favourite unless a rival beat it on the same samples by more
   than half a standard error (the stock-valued search's ``confidence``); the loss is how much better that
   plan did than the played one, counted only when it is more than two standard errors of the paired
   difference (less is within the estimate's noise).

The budget is turned into a number of rollouts (:data:`ROLLOUTS_PER_SECOND` a second), not read off
a clock, so that a review is the same for a given seed on any machine; each sample's unseen cards
come from the seed and the decision's place in the game, so a turn's review does not depend on which
other seats are reviewed.
"""

from __future__ import annotations

import concurrent.futures
import math
import multiprocessing
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from spite.errors import OptionsError
from spite.games import Record
from spite.malice import Options, SeatView, State
from spite.malice.bots.heuristic import HARD_WEIGHTS, plan_turn
from spite.malice.bots.learned import learned_score, shipped_blend, shipped_value
from spite.malice.bots.search import SearchBot, outcome_key, play_plan
from spite.malice.bots.search_fast import fast_plan
from spite.malice.determinize import determinize
from spite.malice.record import replay_malice, state_from_record
from spite.malice.review.winprob import RaceModel, race_model
from spite.review import DecisionReview, Progress, Review, TurnReview

__all__ = ["HORIZON", "ROLLOUTS_PER_SECOND", "review_decision", "review_malice"]

ROLLOUTS_PER_SECOND = 80
"""Rollouts a second of budget buys (one plan played out on one sample, about this many a second
on the machine of the README's figures)."""

HORIZON = 2
"""Turns played out after the reviewed one (the search bot's default: the reply and the next own turn)."""

CANDIDATES = 3
"""Plans compared at most (besides the played one): ``expert``'s choice, then ``hard``'s favourite and
the next plans of ``hard`` that lead elsewhere (more would spread the samples thinner than they help)."""

EXPERT_SAMPLES = 24
"""The most samples ``expert``'s own search takes per decision in a review (it stops sooner once
its choice is settled): a number, not its second a turn, so that a review is the same on any machine."""

FIRST_ROUND = 4
"""Samples on which every candidate is played before the weaker rival is dropped."""

MIN_SAMPLES = 8
"""Samples every decision gets whatever the budget (fewer say nothing about the noise)."""

CONFIDENCE = 0.5
"""Standard errors by which a rival must beat the favourite (``expert``'s plan) to be preferred (the
stock-valued search's rule)."""

NOISE = 2.0
"""Standard errors of the paired difference a loss must exceed to count."""

_MAX_NODES = 400
"""The rollouts' planner limit (the search bot's)."""


@dataclass
class _Candidate:
    moves: list[str]
    values: list[float] = field(default_factory=list)

    def mean(self) -> float:
        return sum(self.values) / len(self.values) if self.values else 0.0

    def gain_over(self, other: _Candidate) -> tuple[float, float]:
        """Mean and standard error of this candidate's value minus ``other``'s on the same samples."""
        n = min(len(self.values), len(other.values))
        if n == 0:
            return 0.0, math.inf
        diffs = [a - b for a, b in zip(self.values[:n], other.values[:n], strict=True)]
        mean = sum(diffs) / n
        if n < 2:
            return mean, math.inf
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean, math.sqrt(var / n)


_outcome = outcome_key
"""What a plan leads to, as far as the seat can tell: two plans with the same outcome are one (the
search bot's key, so that the review's candidates are expert's)."""


_play = play_plan
"""Play moves while the game goes on; how many were played (the search bot's)."""


NEXT_TURN = (1.9, 1.1, 0.8, 0.3)
"""Stock cards the heuristic gets rid of in its next turn when its stock top is playable, one, two,
or more cards above a build pile's next value (measured over 300 heuristic games; docs/bots.md)."""


def _reach(world: State, stock: list[int]) -> float:
    """The stock cards its side may expect to play in its next turn, by how far its top is from the
    build piles' next values."""
    if not stock:
        return 0.0
    top = world.card_value(stock[-1])
    needs = {len(b) + 1 for b in world.builds}
    if top == 0 or top in needs:
        return NEXT_TURN[0]
    for k in (1, 2):
        if top - k in needs:
            return NEXT_TURN[k]
    return NEXT_TURN[3]


def _value(world: State, seat: int, model: RaceModel) -> float:
    """The chance that ``seat``'s side wins from ``world``: the race from the stock sizes, each
    less what its side may expect beyond an average turn from where its top stands now."""
    opts = world.opts
    side = opts.stock_of(seat)
    result = world.result
    if result is not None:
        if result.winner is None:
            return 1.0 / opts.n_stocks
        return 1.0 if opts.stock_of(result.winner) == side else 0.0
    mean = model.mean_per_turn()
    sizes = tuple(max(0.5, len(s) - (_reach(world, s) - mean)) if s else 0.0 for s in world.stocks)
    return model.win_probability_between(sizes, world.to_move, side)


def _rollout(world: State, end_turn: int) -> int:
    """Play on with the heuristic planner for everyone until ``end_turn`` begins or the game ends;
    the number of moves played."""
    played = 0
    while world.result is None and world.turn < end_turn and played < 400:
        moves = fast_plan(world, _MAX_NODES)
        if not moves:
            break
        for move in moves:
            if world.result is not None:
                break
            world.play(move)
            played += 1
    return played


def review_decision(view: SeatView, played: Sequence[str], rollouts: int, rng: random.Random,
                    model: RaceModel, *, ply: int = 0, horizon: int = HORIZON) -> DecisionReview:
    """Compare the ``played`` moves (from ``view``, the seat to move, until the next decision) with
    the plan ``expert`` prefers, spending about ``rollouts`` rollouts (see the module docstring)."""
    seat = view.seat
    assert seat is not None and seat == view.to_move
    # expert's choice (its search over the rest of the turn), then its candidates: the plans of ``hard``
    # (the learned bot with its BLEND for the game)
    base = plan_turn(view, random.Random(rng.getrandbits(48)), keep=3 * CANDIDATES, w=HARD_WEIGHTS,
                     extra=learned_score(shipped_value(view.opts), shipped_blend(view.opts), exact=True))
    chosen = SearchBot(iterations=EXPERT_SAMPLES, value="turn").make_plan(view, random.Random(rng.getrandbits(48)),
                                                                          None)
    alternatives = [chosen.moves] + ([moves for _, moves in base.alternatives] or [base.moves])
    # the candidates by outcome, expert's choice first; then the played plan
    probe = determinize(view, random.Random(0))
    pool: list[_Candidate] = []
    seen: dict[tuple[object, ...], _Candidate] = {}
    played_key: tuple[object, ...] | None = None
    for k, moves in enumerate([[m.text for m in plan] for plan in alternatives] + [list(played)]):
        done = _play(probe, moves)
        key = _outcome(probe, seat)
        for _ in range(done):
            probe.undo()
        is_played = k == len(alternatives)
        if is_played:
            played_key = key
        if key in seen:
            continue
        if not is_played and len(pool) >= CANDIDATES:
            continue
        seen[key] = candidate = _Candidate(moves)
        pool.append(candidate)
    assert played_key is not None
    favourite, mine = pool[0], seen[played_key]
    samples = 0
    spent = 0
    while samples < MIN_SAMPLES or spent + len(pool) <= rollouts:
        world = determinize(view, random.Random(rng.getrandbits(48)))
        end_turn = world.turn + 1 + horizon
        for cand in pool:
            done = _play(world, cand.moves)
            done += _rollout(world, end_turn)
            cand.values.append(_value(world, seat, model))
            for _ in range(done):
                world.undo()
        samples += 1
        spent += len(pool)
        if samples == FIRST_ROUND and len(pool) > 3:
            rivals = [c for c in pool if c is not favourite and c is not mine]
            best_rival = max(rivals, key=lambda c: c.gain_over(favourite)[0])
            pool = [c for c in pool if c is favourite or c is mine or c is best_rival]
        if len(pool) == 1 and samples >= MIN_SAMPLES and spent >= rollouts // 2:
            break  # nothing to compare: enough samples for the estimate itself
        if samples >= MIN_SAMPLES and all(c.values == mine.values for c in pool):
            break  # every plan came out the same on every sample: more samples would only spend the budget
    preferred, gain = favourite, 0.0
    for cand in pool:
        if cand is favourite:
            continue
        mean, se = cand.gain_over(favourite)
        if mean > 0 and mean > CONFIDENCE * se and mean > gain:
            preferred, gain = cand, mean
    after = mine.mean()
    loss = 0.0
    if preferred is not mine:
        mean, se = preferred.gain_over(mine)
        if mean > 0 and mean > NOISE * se:
            loss = mean
    return DecisionReview(ply=ply, played=list(played), best=list(preferred.moves),
                          win_before=min(1.0, after + loss), win_after=after, loss=loss, samples=samples,
                          rollouts=spent)


@dataclass
class _Decision:
    ply: int
    view: SeatView
    moves: list[str] = field(default_factory=list)


@dataclass
class _Turn:
    turn: int
    seat: int
    ply: int
    decisions: list[_Decision] = field(default_factory=list)


def _turns(record: Record) -> tuple[list[_Turn], State]:
    """Every turn of the game cut into its decisions, each with the view of the seat at its start
    (the only thing the evaluation gets), and the final position."""
    _, start = state_from_record(record)
    turns: list[_Turn] = []
    ply = 0
    pending: tuple[SeatView, int] | None = (start.view(start.to_move), start.turn)  # the next decision's view, turn

    def on_move(seat: int, move: str, after: State) -> None:
        nonlocal ply, pending
        if pending is not None:  # this move begins a decision
            view, turn = pending
            if not turns or turns[-1].turn != turn + 1 or turns[-1].seat != seat:
                turns.append(_Turn(turn + 1, seat, ply))
            turns[-1].decisions.append(_Decision(ply, view))
            pending = None
        turns[-1].decisions[-1].moves.append(move)
        ply += 1
        # a decision ends where the seat learns something it could not see, or the turn or game ends
        if after.result is None and after.history[-1].reveals:
            pending = (after.view(after.to_move), after.turn)

    final = replay_malice(record, on_move).state
    return turns, final


def _review_turn(turn: _Turn, rollouts: int, seed: int, opts: Options) -> list[DecisionReview]:
    """One turn's decisions, reviewed with about ``rollouts`` rollouts in all: what a decision does not
    spend, the turn's later decisions may (a worker process runs this with ``jobs`` above 1)."""
    model = race_model(opts)
    left = rollouts
    decisions: list[DecisionReview] = []
    for k, d in enumerate(turn.decisions):
        share = max(1, left // (len(turn.decisions) - k))
        decisions.append(review_decision(d.view, d.moves, share, random.Random(f"spite-review/{seed}/{d.ply}"),
                                         model, ply=d.ply))
        left -= decisions[-1].rollouts
    return decisions


def review_malice(record: Record, *, seats: Sequence[int] | None = None, budget: float = 0.5, seed: int = 0,
                  progress: Progress | None = None, jobs: int = 1, part: tuple[int, int] | None = None) -> Review:
    """The review of a finished Spite and Malice record (see the module docstring and
    :func:`spite.review.review_record`); with ``jobs`` above 1 the turns are reviewed in that many
    worker processes (the same review: each decision's samples come from the seed and its place)."""
    preset = record.preset or "classic"
    turns, final = _turns(record)
    if final.result is None:
        raise OptionsError("the game is not finished: only a finished game can be reviewed")
    players = final.opts.players
    chosen = list(range(players)) if seats is None else sorted(set(seats))
    for seat in chosen:
        if not 0 <= seat < players:
            raise OptionsError(f"there is no seat {seat} (seats 0 to {players - 1})")
    race_model(final.opts)  # measured once, before any turn
    todo = [t for t in turns if t.seat in chosen]
    review = Review(game=record.game, preset=preset, players=players, sides=final.opts.n_stocks, seats=chosen,
                    budget=budget, seed=seed, result=final.result.to_json(), total=len(todo))
    if part is not None:  # each turn's samples come from the seed and its place: a part is the whole's
        todo = todo[part[0]:part[1]]
    per_turn = max(1, round(budget * ROLLOUTS_PER_SECOND))
    reviewed: list[list[DecisionReview] | None] = [None] * len(todo)
    if jobs <= 1 or len(todo) <= 1:
        for done, turn in enumerate(todo, start=1):
            reviewed[done - 1] = _review_turn(turn, per_turn, seed, final.opts)
            if progress is not None:
                progress(done, len(todo))
    else:
        # spawned, not forked: a server that asks for a review may have threads running
        context = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(min(jobs, len(todo)), mp_context=context) as pool:
            futures = {pool.submit(_review_turn, turn, per_turn, seed, final.opts): k for k, turn in enumerate(todo)}
            for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
                reviewed[futures[future]] = future.result()
                if progress is not None:
                    progress(done, len(todo))
    for turn, decisions in zip(todo, reviewed, strict=True):
        assert decisions is not None
        review.turns.append(TurnReview(turn.turn, turn.seat, turn.ply, decisions))
    return review
