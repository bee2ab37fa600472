"""A faster twin of the heuristic planner, for the search bot's rollouts and the review.

:func:`fast_plan` chooses what :func:`spite.malice.bots.heuristic.plan_from_state` chooses (the same
search over build sequences, the same scores: the planner's own per-position and per-end parts of
:func:`spite.malice.bots.heuristic.evaluate`), but keeps no signatures and no alternatives, only the best
end so far, and reads the played card before the play rather than from the state's undo history.
That keeps the many rollouts of a search cheap, while its model of every player (itself included)
stays the heuristic.
"""

from __future__ import annotations

from spite.cards import RANKS
from spite.malice import STOCK, Move, State
from spite.malice.bots.heuristic import (
    _NO_MOVE,
    DEFAULT_WEIGHTS,
    Weights,
    _end_score,
    _node_score,
    _result_score,
    reach_table,
)

__all__ = ["fast_plan"]

_HAND = 1


def fast_plan(state: State, max_nodes: int = 3000, w: Weights = DEFAULT_WEIGHTS) -> list[Move]:
    """The heuristic's plan for the player to move in ``state`` (left as it was), or ``[]``."""
    seat = state.to_move
    stock_index = seat % 2 if state.opts.partnerships else seat
    start_stock = len(state.stocks[stock_index])
    # the opponents' discard piles and stock tops do not change during the own turn
    reach = reach_table(state, seat) if w.threat_reach else None
    best_score = float("-inf")
    best: list[Move] = []
    seen: set[tuple[object, ...]] = set()
    nodes = 0
    path: list[Move] = []
    played: list[tuple[Move, int, int]] = []  # (move, card, value played as)

    def ends(refilled: bool, stop: bool) -> None:
        nonlocal best_score, best
        if state.result is not None:
            score = _result_score(state, seat, w)
            if score > best_score:
                best_score, best = score, list(path)
            return
        node = _node_score(state, seat, played, start_stock, refilled, w, reach)
        for end in (_NO_MOVE,) if stop else state.end_moves():
            score = _end_score(node, state, seat, end, w)
            if score > best_score:
                best_score = score
                best = list(path) if end is _NO_MOVE else [*path, end]

    def visit(refilled: bool) -> None:
        nonlocal nodes
        nodes += 1
        k = (
            tuple(sorted(len(b) for b in state.builds)),
            tuple(sorted(RANKS[c] for c in state.hands[seat])),
            tuple(len(p) for p in state.discards[seat]),
            len(state.stocks[stock_index]),
        )
        if k in seen:
            return
        seen.add(k)
        if state.result is not None or len(state.stocks[stock_index]) != start_stock or refilled:
            ends(refilled, True)
            return
        ends(refilled, False)
        if nodes >= max_nodes:
            return
        for move in state.build_moves():
            hand = state.hands[seat]
            hand_before = len(hand)
            need = len(state.builds[move.target]) + 1
            source = move.source
            if source == STOCK:
                card = state.stocks[stock_index][-1]
            elif source == _HAND:
                r = move.rank
                card = next(c for c in hand if RANKS[c] == r)
            else:
                card = state.discards[seat][move.pile][-1]
            state.play(move)
            path.append(move)
            played.append((move, card, need))
            hand_after = len(state.hands[seat])
            # fresh cards in hand (as in the heuristic's planner): plan again once they are seen
            visit(refilled or hand_after > hand_before - (source == _HAND))
            path.pop()
            played.pop()
            state.undo()

    visit(False)
    return best
