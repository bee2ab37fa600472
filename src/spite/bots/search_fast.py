"""A faster twin of the heuristic planner, for the search bot's rollouts.

:func:`fast_plan` chooses what :func:`spite.bots.heuristic.plan_from_state` chooses (the same
search over build sequences, the same scores from :func:`spite.bots.heuristic.evaluate`), but it
scores each position once and only the discard-dependent part of the score per turn end, keeps no
signatures and no alternatives, and reads the played card before the play rather than from the
state's undo history. That makes it several times cheaper, so the search can play out many more
samples in its time budget while its model of every player (itself included) stays the heuristic.

It is the twin for weights without ``threat_reach`` (the search's, v1's): the opponents' reach of
``hard`` (:func:`spite.bots.heuristic.reach_table`) is not scored here.
"""

from __future__ import annotations

from spite.bots.heuristic import DEFAULT_WEIGHTS, Weights
from spite.cards import RANKS
from spite.malice import DISCARD, STOCK, Move, State
from spite.malice.legal import move_tables

__all__ = ["fast_plan"]

_HAND = 1


def _values(state: State) -> tuple[int, ...]:
    # the engine's own value table, shared and bounded (a table per Options object kept here would
    # grow with every table of a long-running server)
    return move_tables(state.opts).value


def fast_plan(state: State, max_nodes: int = 3000, w: Weights = DEFAULT_WEIGHTS) -> list[Move]:
    """The heuristic's plan for the player to move in ``state`` (left as it was), or ``[]``."""
    opts = state.opts
    value = _values(state)
    seat = state.to_move
    partners = opts.partnerships
    stock_index = seat % 2 if partners else seat
    start_stock = len(state.stocks[stock_index])
    n = opts.players
    order = [(seat + k) % n for k in range(1, n)]
    if partners:
        order = [s for s in order if s % 2 != seat % 2]
    opponents = [(s % 2 if partners else s) for s in (order[:1] if n == 2 else order)]
    no_ace_discard = not opts.discard_aces
    steps_threat = w.threat_steps
    steps_reach = w.own_reach_steps
    best_score = float("-inf")
    best: list[Move] = []
    seen: set[tuple[object, ...]] = set()
    nodes = 0
    path: list[Move] = []
    played: list[tuple[int, int, int]] = []  # (source, card, value played as)

    def node_score(refilled: bool) -> tuple[float, set[int], list[int], int]:
        """The part of the score that does not depend on the turn end; also needs, builds, the stock top."""
        stock = state.stocks[stock_index]
        score = 0.0
        stock_played = start_stock - len(stock)
        score += w.stock_card * stock_played
        if refilled:
            score += w.refill
        scarce = w.scarcity / (len(state.draw) + len(state.set_aside) + 5)
        for source, card, as_value in played:
            score += scarce
            if as_value == 12:
                score += w.completion + 4 * scarce
            if value[card] == 0:
                score -= w.wild_base + w.wild_per_low_value * (12 - as_value)
            elif source == STOCK:
                pass
            elif source == _HAND:
                score += w.hand_card_played
            else:
                score += w.discard_card_played
        builds = [len(b) for b in state.builds]
        needs = {b + 1 for b in builds}
        score += (w.distinct_needs + scarce) * len(needs)
        if 1 not in needs and no_ace_discard:
            score -= (w.stuck_ace + scarce) * sum(1 for c in state.hands[seat] if value[c] == 1)
        ssize = len(stock)
        for opp in opponents:
            ostock = state.stocks[opp]
            if not ostock:
                continue
            t = value[ostock[-1]]
            if t == 0:
                continue
            ratio = (ssize + 1) / (len(ostock) + 1)
            factor = min(w.threat_max_factor, max(w.threat_min_factor, ratio ** w.threat_ratio_power))
            if t in needs:
                score -= w.threat_now * factor
                continue
            for k, weight in enumerate(steps_threat, start=1):
                if t - k in needs:
                    score -= weight * factor
                    break
        s = -1  # the stock top's value when the bridge terms apply
        if stock_played == 0 and stock:
            sv = value[stock[-1]]
            if sv == 0 or sv in needs:
                score += w.own_reach_now
            else:
                for k, weight in enumerate(steps_reach, start=1):
                    if sv - k in needs:
                        score += weight
                        break
                s = sv
        return score, needs, builds, s

    def ends(refilled: bool, stop: bool) -> None:
        nonlocal best_score, best
        if state.result is not None:
            winner = state.result.winner
            if winner is None:
                score = 0.0
            else:
                same = winner % 2 == seat % 2 if partners else winner == seat
                score = w.win if same else -w.win
            if score > best_score:
                best_score, best = score, list(path)
            return
        base, needs, builds, s = node_score(refilled)
        hand = state.hands[seat]
        piles = state.discards[seat]
        tops = [value[p[-1]] if p else -1 for p in piles]
        hand_values = [value[c] for c in hand]
        moves = [None] if stop else state.end_moves()
        low_need = min(needs)
        # bridges as bit masks: a pile at b is carried to s - 1 by own cards holding every value b+1..s-1
        reqs = [((1 << s) - 1) & ~((2 << b) - 1) for b in builds if b + 1 < s] if s >= 0 else []
        if reqs:
            top_bits = [1 << t if t >= 0 else 0 for t in tops]
            hand_bits = [1 << v for v in hand_values]
            all_tops = 0
            for bit in top_bits:
                all_tops |= bit
            all_hand = 0
            for bit in hand_bits:
                all_hand |= bit
        for end in moves:
            score = base
            if end is None or end.kind != DISCARD:
                if reqs:
                    mine = all_hand | all_tops
                    if any(mine & req == req for req in reqs):
                        score += w.own_bridge
            else:
                r = end.rank
                i = next(k for k, c in enumerate(hand) if RANKS[c] == r)
                dv = hand_values[i]
                if dv == 0:
                    score -= w.discard_wild
                elif dv in needs:
                    score -= w.discard_playable
                if dv == 12 and 11 not in needs and 12 not in needs:
                    score += w.discard_queen
                j = end.target
                tv = tops[j]
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
                    if any(0 <= tv - need <= 2 for need in needs):
                        score -= w.discard_bury_needed
                if s >= 0:
                    if reqs:
                        mine = 1 << dv
                        for k, bit in enumerate(hand_bits):
                            if k != i:
                                mine |= bit
                        for k, bit in enumerate(top_bits):
                            if k != j:
                                mine |= bit
                        if any(mine & req == req for req in reqs):
                            score += w.own_bridge
                    if 0 < dv < s and dv >= low_need:
                        score -= w.discard_bridge
            if score > best_score:
                best_score = score
                best = [*path, end] if end is not None else list(path)

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
            played.append((source, card, need))
            hand_after = len(state.hands[seat])
            # fresh cards in hand (as in the heuristic's planner): plan again once they are seen
            visit(refilled or hand_after > hand_before - (source == _HAND))
            path.pop()
            played.pop()
            state.undo()

    visit(False)
    return best
