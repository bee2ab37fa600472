"""The heuristic bot: the seed's "Tipps und Strategien" made concrete, planning whole turns.

Each turn the bot enumerates every sequence of build plays it can make with what it sees (hand,
discard tops, stock top), merging sequences that reach the same position, and scores every end
of turn (each position with each possible discard) with :func:`evaluate`. It then plays the best
sequence move by move, planning again whenever something new comes to light (a stock card turned
up, a refilled hand). The score follows the seed's tips:

* the stock is all that counts: a plan that plays the stock top beats any that does not;
* wild cards are not wasted: using one costs more the lower the value it stands for;
* discard piles are kept ordered: a card one below the top it covers is best, burying a lower
  card (or a wild) is bad; queens are discarded early; aces are kept;
* watch the opponents' stock tops: leaving a build pile one below an opponent's stock top is
  penalised, so the bot blocks when it is cheap, and it avoids building up to just below them;
* build just below the own stock top, and keep the cards that bridge to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from spite.bots.base import Bot, Decision
from spite.cards import RANKS
from spite.errors import Phrase
from spite.malice import BUILD, DISCARD, PASS, STOCK, Move, Options, SeatView, State
from spite.malice.determinize import determinize
from spite.malice.legal import move_tables

__all__ = ["CASUAL_WEIGHTS", "HARD_WEIGHTS", "V1_WEIGHTS", "CasualBot", "ExtraScore", "HeuristicBot", "HeuristicV1Bot",
           "Plan", "PlanningBot", "Weights", "evaluate", "plan_from_state", "plan_turn", "reach_table"]


@dataclass(frozen=True)
class Weights:
    """The weights of :func:`evaluate` (tuned by tournaments; see the README's strength table)."""

    stock_card: float = 1000.0
    win: float = 1e6
    refill: float = 40.0
    hand_card_played: float = 15.0
    discard_card_played: float = 15.0
    wild_base: float = 12.0
    wild_per_low_value: float = 2.0
    threat_now: float = 100.0
    threat_steps: tuple[float, ...] = (0.0, 0.0, 0.0)
    threat_min_factor: float = 0.1
    threat_max_factor: float = 3.0
    threat_ratio_power: float = 1.0
    own_reach_now: float = 30.0
    own_reach_steps: tuple[float, ...] = (12.0, 6.0, 3.0)
    own_bridge: float = 25.0
    discard_sequence: float = 6.0
    discard_same: float = 3.0
    discard_lower: float = 1.0
    discard_bury: float = 4.0
    discard_bury_needed: float = 6.0
    discard_bury_wild: float = 20.0
    discard_empty_pile: float = 2.0
    discard_wild: float = 10.0
    discard_queen: float = 5.0
    discard_playable: float = 10.0
    discard_bridge: float = 4.0
    completion: float = 10.0
    stuck_ace: float = 15.0
    distinct_needs: float = 4.0
    scarcity: float = 60.0
    threat_reach: float = 0.0
    """Penalty (times the behind/ahead factor) by the chance that an opponent reaches its stock top
    next turn through a build pile more than one below it: its visible discard piles carry the pile
    up (each card played uncovers the next), the cards still missing must come from its hand
    (:func:`reach_table`). 0: only the pile exactly one below counts (``threat_now``), as in v1."""


DEFAULT_WEIGHTS = Weights()

V1_WEIGHTS = Weights(
    stock_card=1000.0, win=1e6, refill=40.0, hand_card_played=15.0, discard_card_played=15.0,
    wild_base=12.0, wild_per_low_value=2.0, threat_now=100.0, threat_steps=(0.0, 0.0, 0.0),
    threat_min_factor=0.1, threat_max_factor=3.0, threat_ratio_power=1.0, own_reach_now=30.0,
    own_reach_steps=(12.0, 6.0, 3.0), own_bridge=25.0, discard_sequence=6.0, discard_same=3.0,
    discard_lower=1.0, discard_bury=4.0, discard_bury_needed=6.0, discard_bury_wild=20.0,
    discard_empty_pile=2.0, discard_wild=10.0, discard_queen=5.0, discard_playable=10.0,
    discard_bridge=4.0, completion=10.0, stuck_ace=15.0, distinct_needs=4.0, scarcity=60.0,
)
"""The weights of ``heuristic-v1``, the heuristic as it was on 2026-12-01, frozen: the baseline
every stronger bot is measured against (spelled out, so that a change of :class:`Weights`'
defaults leaves it as it was; a golden test replays its moves)."""

HARD_WEIGHTS = Weights(threat_reach=100.0)
"""The weights of ``heuristic`` (the level ``hard``): v1's, and the opponents' reach next turn
(``threat_reach``) watched too (the README's strength table has what it measured)."""

CASUAL_WEIGHTS = Weights(
    wild_base=0.0,
    wild_per_low_value=0.0,
    threat_now=0.0,
    own_reach_now=0.0,
    own_reach_steps=(0.0, 0.0, 0.0),
    own_bridge=0.0,
    discard_bridge=0.0,
)
"""The ``casual`` player's weights: a player who plans the turn towards the stock and keeps tidy
discard piles, but spends wild cards freely, does not watch the opponents' stock tops and does not
prepare the next turn (the level ``medium``; the README has what it measured)."""


@dataclass
class Plan:
    """A planned sequence of moves for one turn and the score of where it leads."""

    moves: list[Move]
    signatures: list[tuple[object, ...]]
    score: float
    why: str
    nodes: int = 0
    alternatives: list[tuple[float, list[Move]]] = field(default_factory=list)
    why_phrases: tuple[Phrase, ...] = ()
    """``why`` as catalogue phrases (see :class:`~spite.bots.Decision`)."""


def signature(view: SeatView) -> tuple[object, ...]:
    """What must be unchanged for a plan made earlier in the turn to still hold."""
    seat = view.seat
    assert seat is not None
    return (view.builds, view.hand, view.discards[seat], view.stock_tops, view.turn)


def _state_signature(state: State, seat: int) -> tuple[object, ...]:
    k = state.opts.open_stock
    return (
        tuple([tuple(b) for b in state.builds]),
        tuple(state.hands[seat]),
        tuple([tuple(p) for p in state.discards[seat]]),
        tuple([tuple(s[-k:]) for s in state.stocks]),
        state.turn,
    )


def _opponents(state: State, seat: int) -> list[int]:
    """Seats that play against ``seat`` (not its partner), in the order they move after it."""
    n = state.opts.players
    order = [(seat + k) % n for k in range(1, n)]
    if state.opts.partnerships:
        return [s for s in order if s % 2 != seat % 2]
    return order


def evaluate(state: State, seat: int, end: Move, played: Sequence[tuple[Move, int, int]], start_stock: int,
             refilled: bool, w: Weights = DEFAULT_WEIGHTS, reach: dict[int, tuple[float, ...]] | None = None) -> float:
    """Score of ending the turn in ``state`` with ``end`` after the build plays ``played``.

    ``played`` lists (move, card, value it was played as); ``state`` is the position before ``end``.
    Higher is better for ``seat``. ``reach`` is :func:`reach_table` of the state (worked out here
    when needed and not given: a planner gives it once for all the ends it scores).
    """
    if state.result is not None:
        return _result_score(state, seat, w)
    return _end_score(_node_score(state, seat, played, start_stock, refilled, w, reach), state, seat, end, w)


def _result_score(state: State, seat: int, w: Weights) -> float:
    """The score of a finished game: a win, a loss or a draw for ``seat``."""
    assert state.result is not None
    winner = state.result.winner
    if winner is None:
        return 0.0
    same_side = winner % 2 == seat % 2 if state.opts.partnerships else winner == seat
    return w.win if same_side else -w.win


class _Node(NamedTuple):
    """What :func:`evaluate` works out once for a position, whatever the end of turn."""

    score: float  # the terms before the discard's: the plays, the build piles, stuck aces
    later: list[float]  # the terms after the discard's, added in this order: threats, own reach
    needs: set[int]
    hand_values: list[int]  # the hand's card values, in hand order
    top_values: list[int]  # the own discard piles' top values (-1: empty)
    bridge_s: int  # the own stock top's value when the bridge terms apply, else -1
    bridges: list[int]  # bit masks of the values that carry each build pile up to bridge_s - 1


def _node_score(state: State, seat: int, played: Sequence[tuple[Move, int, int]], start_stock: int,
                refilled: bool, w: Weights, reach: dict[int, tuple[float, ...]] | None) -> _Node:
    """The part of :func:`evaluate` shared by every end of turn from this position: a planner works it
    out once a position, and each discard adds only its own terms (:func:`_end_score`)."""
    value = move_tables(state.opts).value  # the engine's own table of the values cards play as
    stock = state.stock_of(seat)
    score = 0.0
    stock_played = start_stock - len(stock)
    score += w.stock_card * stock_played
    if refilled:
        score += w.refill
    # cards are scarce when the draw pile runs low: every build play (and every completed pile,
    # which goes back into the draw pile) then keeps the game from stalling into a blocked draw
    scarce = w.scarcity / (len(state.draw) + len(state.set_aside) + 5)
    for move, card, as_value in played:
        score += scarce
        if as_value == 12:
            score += w.completion + 4 * scarce
        if value[card] == 0:
            score -= w.wild_base + w.wild_per_low_value * (12 - as_value)
        elif move.source == STOCK:
            pass
        elif move.kind == BUILD and move.source == 1:
            score += w.hand_card_played
        else:
            score += w.discard_card_played
    builds = [len(b) for b in state.builds]
    needs = {b + 1 for b in builds}
    # piles standing at different values take more different cards: fewer stalls
    score += (w.distinct_needs + scarce) * len(needs)
    hand_values = [value[c] for c in state.hands[seat]]
    # aces cannot be discarded: held while every slot is taken they only clog the hand (a discard
    # never takes an ace then, so the count is the same after any end of turn)
    if 1 not in needs and not state.opts.discard_aces:
        score -= (w.stuck_ace + scarce) * hand_values.count(1)
    # the terms after the discard's are kept apart and added one by one after it, in the order
    # evaluate has always added them: the same sums to the last bit, so the same plans on ties
    later: list[float] = []
    # threats: opponents' stock tops against the build piles we leave
    for opp in _opponents(state, seat)[:1] if state.opts.players == 2 else _opponents(state, seat):
        ostock = state.stock_of(opp)
        if not ostock:
            continue
        t = value[ostock[-1]]
        if t == 0:
            continue
        # block hard when behind, race when ahead: a stock far from empty is little danger
        ratio = (len(stock) + 1) / (len(ostock) + 1)
        factor = min(w.threat_max_factor, max(w.threat_min_factor, ratio ** w.threat_ratio_power))
        if t in needs:
            later.append(-(w.threat_now * factor))
            continue
        if w.threat_reach:
            if reach is None:
                reach = reach_table(state, seat)
            chances = reach.get(opp)
            if chances:
                later.append(-(w.threat_reach * factor * reach_chance(chances, builds)))
        for k, weight in enumerate(w.threat_steps, start=1):
            if t - k in needs:
                later.append(-(weight * factor))
                break
    # own reach for the next turn (the stock top, if still known)
    bridge_s = -1
    bridges: list[int] = []
    if stock_played == 0 and stock:
        s = value[stock[-1]]
        if s == 0 or s in needs:
            later.append(w.own_reach_now)
        else:
            for k, weight in enumerate(w.own_reach_steps, start=1):
                if s - k in needs:
                    later.append(weight)
                    break
            bridge_s = s
            # a pile at b is carried up to s - 1 by own cards holding every value b+1 .. s-1
            bridges = [((1 << s) - 1) & ~((2 << b) - 1) for b in builds if b + 1 < s]
    top_values = [value[p[-1]] if p else -1 for p in state.discards[seat]]
    return _Node(score, later, needs, hand_values, top_values, bridge_s, bridges)


def _end_score(node: _Node, state: State, seat: int, end: Move, w: Weights) -> float:
    """:func:`evaluate` of ending the turn with ``end`` (a discard, a pass, or none) at ``node``."""
    score = node.score
    hand_values = node.hand_values
    top_values = node.top_values
    needs = node.needs
    if end.kind != DISCARD:
        for term in node.later:
            score += term
        if node.bridges:
            mine = 0
            for v in hand_values:
                mine |= 1 << v
            for v in top_values:
                if v >= 0:
                    mine |= 1 << v
            if any(mine & req == req for req in node.bridges):
                score += w.own_bridge
        return score
    rank = end.rank
    i = next(k for k, c in enumerate(state.hands[seat]) if RANKS[c] == rank)
    dv = hand_values[i]
    if dv == 0:
        score -= w.discard_wild
    elif dv in needs:
        score -= w.discard_playable
    if dv == 12 and 11 not in needs and 12 not in needs:
        score += w.discard_queen
    j = end.target
    tv = top_values[j]
    if tv < 0:
        score += w.discard_empty_pile
    elif tv == 0:
        score -= w.discard_bury_wild
    elif dv == 0:
        pass
    elif dv == tv - 1:
        score += w.discard_sequence
    elif dv == tv:
        score += w.discard_same
    elif dv < tv:
        score += w.discard_lower
    else:
        score -= w.discard_bury
        if any(0 <= tv - n <= 2 for n in needs):
            score -= w.discard_bury_needed
    for term in node.later:
        score += term
    s = node.bridge_s
    if s >= 0:
        # bridge: can our own cards (the hand after the discard, the discard tops) carry a pile up to s - 1?
        if node.bridges:
            mine = 1 << dv
            for k, v in enumerate(hand_values):
                if k != i:
                    mine |= 1 << v
            for k, v in enumerate(top_values):
                if k != j and v >= 0:
                    mine |= 1 << v
            if any(mine & req == req for req in node.bridges):
                score += w.own_bridge
        if 0 < dv < s and dv >= min(needs):
            score -= w.discard_bridge
    return score


_COVER_CHANCES: dict[Options, tuple[float, ...]] = {}


def _cover_chances(opts: Options) -> tuple[float, ...]:
    """``chances[m]``: the chance that a fresh hand covers ``m`` given distinct values (naturals of
    those values or wild cards), each card drawn independently with the deck's proportions."""
    known = _COVER_CHANCES.get(opts)
    if known is not None:
        return known
    if len(_COVER_CHANCES) > 256:  # a long-running server meets many option sets: stay bounded
        _COVER_CHANCES.clear()
    value = move_tables(opts).value
    deck = opts.deck_cards()
    wild = sum(1 for c in deck if value[c] == 0) / len(deck)
    per_value = sum(1 for c in deck if value[c] > 0) / len(deck) / 12
    chances = [1.0]  # nothing missing: certain
    for m in range(1, 13):
        # dist[(covered, wilds)]: the chance of each outcome after each card
        dist: dict[tuple[int, int], float] = {(0, 0): 1.0}
        for _ in range(opts.hand_size):
            nxt: dict[tuple[int, int], float] = {}
            for (c, wl), p in dist.items():
                new = (m - c) * per_value
                for outcome, q in (((c + 1, wl), new), ((c, wl + 1), wild), ((c, wl), 1.0 - new - wild)):
                    if q > 0:
                        nxt[outcome] = nxt.get(outcome, 0.0) + p * q
            dist = nxt
        chances.append(sum(p for (c, wl), p in dist.items() if c + wl >= m))
    _COVER_CHANCES[opts] = result = tuple(chances)
    return result


def reach_chance(chances: Sequence[float], builds: Sequence[int]) -> float:
    """The chance that at least one build pile (by its size in ``builds``) is carried up to an
    opponent's stock top next turn, each pile's own chance read from ``chances`` (a row of
    :func:`reach_table`), the piles taken as independent."""
    miss = 1.0
    for b in builds:
        miss *= 1.0 - chances[b]
    return 1.0 - miss


def reach_table(state: State, seat: int) -> dict[int, tuple[float, ...]]:
    """For each opponent of ``seat`` whose stock top is a natural card: the chance, by a build
    pile's height (0..12), that it can carry that pile up to one below its stock top next turn.

    Only what ``seat`` sees is used: the opponent's discard piles (each played top uncovers the
    card beneath), its stock top, and the deck's make-up for the cards its next hand must give.
    A pile exactly one below the stock top is ``threat_now``'s and counts 0 here.
    """
    value = state.card_value
    cover = _cover_chances(state.opts)
    table: dict[int, tuple[float, ...]] = {}
    for opp in _opponents(state, seat):
        ostock = state.stock_of(opp)
        if not ostock:
            continue
        t = value(ostock[-1])
        if t == 0:
            continue
        piles = [[value(c) for c in p] for p in state.discards[opp]]
        chances = [0.0] * 13
        for b in range(t - 1):
            depth = [len(p) for p in piles]
            missing = 0
            for need in range(b + 1, t):
                for i, p in enumerate(piles):
                    if depth[i] and p[depth[i] - 1] == need:
                        depth[i] -= 1
                        break
                else:
                    for i, p in enumerate(piles):
                        if depth[i] and p[depth[i] - 1] == 0:
                            depth[i] -= 1
                            break
                    else:
                        missing += 1
            chances[b] = cover[missing]
        table[opp] = tuple(chances)
    return table


ExtraScore = Callable[[State, int, "Move | None", "dict[int, tuple[float, ...]] | None", float], float]
"""A score added to :func:`evaluate`'s for each end of turn: ``extra(state, seat, end, reach, score)``
(``score``: :func:`evaluate`'s), with ``end`` ``None`` where the plan stops for new information (a
stock card turned up, a refilled hand)."""


def plan_turn(view: SeatView, rng: random.Random, *, max_nodes: int = 3000, keep: int = 0,
              w: Weights = DEFAULT_WEIGHTS, extra: ExtraScore | None = None) -> Plan:
    """The best plan for the rest of this turn, from ``view`` (the seat to move).

    With ``keep`` > 0 the best ``keep`` alternatives (score, moves) are kept too, for the search bot.
    ``extra`` adds its score to every end's (the learned bot's value).
    """
    assert view.seat is not None and view.seat == view.to_move
    plan = plan_from_state(determinize(view, rng), max_nodes=max_nodes, keep=keep, w=w, extra=extra)
    if not plan.moves:  # cannot happen in a live game: there is always an end move or a build play
        return Plan([view.legal_moves[0]], [signature(view)], 0.0, "the only move", plan.nodes,
                    why_phrases=(Phrase("hint.only-move"),))
    return plan


_Candidate = tuple[float, list[Move], "Move | None", list[tuple[object, ...]]]
"""A planned end of turn: its score, the moves before its end, the end (``None``: the plan stops for
new information), and the signature of the position before each move."""


def plan_from_state(state: State, *, max_nodes: int = 3000, keep: int = 0, w: Weights = DEFAULT_WEIGHTS,
                    extra: ExtraScore | None = None) -> Plan:
    """:func:`plan_turn` on a full state (a determinization): the player to move plans with the
    cards it holds and the face-up cards; the state is played and undone, and left as it was."""
    seat = state.to_move
    start_stock = len(state.stock_of(seat))
    best: list[_Candidate] = []
    seen: set[tuple[object, ...]] = set()
    nodes = 0
    path: list[Move] = []
    sigs: list[tuple[object, ...]] = []
    played: list[tuple[Move, int, int]] = []
    # the opponents' discard piles and stock tops do not change during the own turn
    reach = reach_table(state, seat) if w.threat_reach or extra is not None else None

    def consider(candidate: _Candidate) -> None:
        best.append(candidate)
        if len(best) > max(64, 4 * keep):
            best.sort(key=lambda item: -item[0])
            del best[max(32, 2 * keep):]

    def key() -> tuple[object, ...]:
        return (
            tuple(sorted(len(b) for b in state.builds)),
            tuple(sorted(RANKS[c] for c in state.hands[seat])),
            tuple(len(p) for p in state.discards[seat]),
            len(state.stock_of(seat)),
        )

    def visit(refilled: bool) -> None:
        nonlocal nodes
        nodes += 1
        k = key()
        if k in seen:
            return
        seen.add(k)
        if state.result is not None:
            consider((_result_score(state, seat, w), list(path), None, list(sigs)))
            return
        node = _node_score(state, seat, played, start_stock, refilled, w, reach)
        if len(state.stock_of(seat)) != start_stock or refilled:
            # new information (a stock card turned up, fresh cards in hand): plan again then
            score = _end_score(node, state, seat, _NO_MOVE, w)
            if extra is not None:
                score += extra(state, seat, None, reach, score)
            consider((score, list(path), None, list(sigs)))
            return
        sig = _state_signature(state, seat)
        moves_before = list(path)
        sigs_to_end = [*sigs, sig]
        for end in state.end_moves():
            score = _end_score(node, state, seat, end, w)
            if extra is not None:
                score += extra(state, seat, end, reach, score)
            consider((score, moves_before, end, sigs_to_end))
        if nodes >= max_nodes:
            return
        for move in state.build_moves():
            hand_before = len(state.hands[seat])
            need = len(state.builds[move.target]) + 1
            state.play(move)
            card = _completed_card(state)
            path.append(move)
            sigs.append(sig)
            played.append((move, card, need))
            hand_after = len(state.hands[seat])
            # fresh cards came into the hand: the last hand card was played, or a hand that was
            # already empty (the draw pile ran dry) was filled from a completed pile shuffled in
            now_refilled = hand_after > hand_before - (move.source == 1)
            visit(refilled or now_refilled)
            path.pop()
            sigs.pop()
            played.pop()
            state.undo()

    visit(False)
    best.sort(key=lambda item: -item[0])
    if not best:
        return Plan([], [], 0.0, "no move", nodes)
    score, before, last, signatures = best[0]
    moves = before if last is None else [*before, last]
    why, phrase = _why(moves, score)
    plan = Plan(moves, signatures, score, why, nodes, why_phrases=(phrase,))
    if keep:
        plan.alternatives = [(s, m if e is None else [*m, e]) for s, m, e, _ in best[:keep]]
    return plan


def _completed_card(state: State) -> int:
    """The card that completed a pile (it left with the pile: read it from the undo history)."""
    entry = state.history[-1]
    card: int = entry[2]
    return card


class _NoMove:
    kind = PASS
    rank = 0
    target = 0
    source = 0


_NO_MOVE: Move = _NoMove()  # type: ignore[assignment]


def _why(moves: list[Move], score: float) -> tuple[str, Phrase]:
    plays = [m for m in moves if m.kind == BUILD]
    n, points = len(plays), f"{score:.0f}"
    if any(m.source == STOCK for m in plays):
        return (f"reaches the stock top in {n} play{'s' if n != 1 else ''} (score {points})",
                Phrase("hint.reaches-stock", {"n": n, "score": points}))
    if plays:
        return (f"{n} build play{'s' if n != 1 else ''} then a discard (score {points})",
                Phrase("hint.plays-then-discard", {"n": n, "score": points}))
    return f"the best discard (score {points})", Phrase("hint.best-discard", {"score": points})


class PlanningBot(Bot):
    """A bot that plans the rest of its turn at once and then follows the plan move by move.

    It plans again whenever the view is not the one the plan expected (a stock card turned up, a
    refilled hand, a new turn). Subclasses say how to plan in :meth:`make_plan`.
    """

    def __init__(self) -> None:
        self._plan: Plan | None = None
        self._step = 0

    def start_game(self, opts: Options, seat: int) -> None:
        self._plan = None

    def make_plan(self, view: SeatView, rng: random.Random, budget: float | None) -> Plan:
        """A plan for the rest of the turn from ``view``."""
        raise NotImplementedError

    def decide(self, view: SeatView, rng: random.Random, budget: float | None = None) -> Decision:
        plan = self._plan
        if plan is not None and self._step < len(plan.moves) and plan.signatures[self._step] == signature(view):
            move = plan.moves[self._step]
            if move in view.legal_moves:
                self._step += 1
                return Decision(move, plan.why, plan.why_phrases)
        plan = self.make_plan(view, rng, budget)
        self._plan, self._step = plan, 1
        move = plan.moves[0]
        if move not in view.legal_moves:  # never expected; keep the game going with a legal move
            self._plan = None
            return Decision(view.legal_moves[0], "fallback", (Phrase("hint.fallback"),))
        return Decision(move, plan.why, plan.why_phrases)


class HeuristicBot(PlanningBot):
    """Plans the whole turn with :func:`plan_turn` and plays it move by move."""

    name = "heuristic"

    def __init__(self, weights: Weights = HARD_WEIGHTS, max_nodes: int = 3000) -> None:
        super().__init__()
        self.weights = weights
        self.max_nodes = max_nodes

    def make_plan(self, view: SeatView, rng: random.Random, budget: float | None) -> Plan:
        return plan_turn(view, rng, max_nodes=self.max_nodes, w=self.weights)


class HeuristicV1Bot(HeuristicBot):
    """The heuristic of 2026-12-01, frozen (:data:`V1_WEIGHTS`): the baseline of the strength table."""

    name = "heuristic-v1"

    def __init__(self) -> None:
        super().__init__(weights=V1_WEIGHTS)


class CasualBot(HeuristicBot):
    """The heuristic's planner with :data:`CASUAL_WEIGHTS`: sound turns, no finesse."""

    name = "casual"

    def __init__(self) -> None:
        super().__init__(weights=CASUAL_WEIGHTS)


def _register() -> None:
    from spite.bots import plain, register_bot

    register_bot("heuristic", plain("heuristic", HeuristicBot))
    register_bot("heuristic-v1", plain("heuristic-v1", HeuristicV1Bot))
    register_bot("casual", plain("casual", CasualBot))


_register()
