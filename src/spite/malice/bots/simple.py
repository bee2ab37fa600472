"""The baseline bots: ``random`` (random build plays, then a random turn end), ``uniform`` (any legal
move) and ``greedy`` (towards the stock top, no planning)."""

from __future__ import annotations

import random

from spite.bots.base import Bot, Decision
from spite.cards import RANKS
from spite.errors import Phrase
from spite.malice import BUILD, DISCARD_PILE, STOCK, Move, SeatView

__all__ = ["GreedyBot", "RandomBot", "UniformBot"]


class RandomBot(Bot):
    """The random player of random playouts: a uniformly random build play while there is any,
    then a uniformly random turn end (a discard, or ``pass``).

    This is the player of ``spite bench engine`` and of the reference ``bare_loop.py`` ("uniformly
    random legal plays, then a random discard"), so tournaments against it and the engine's
    playouts play the same kind of game. :class:`UniformBot` picks among all legal moves at once.
    """

    name = "random"

    def choose(self, view: SeatView, rng: random.Random, budget: float | None = None) -> Move:
        return rng.choice(view.build_moves() or view.end_moves())

    def decide(self, view: SeatView, rng: random.Random, budget: float | None = None) -> Decision:
        move = self.choose(view, rng, budget)
        if move.kind == BUILD:
            return Decision(move, "a random build play", (Phrase("hint.random-build"),))
        return Decision(move, "a random turn end", (Phrase("hint.random-end"),))


class UniformBot(Bot):
    """Plays a uniformly random legal move: build plays and turn ends alike.

    It ends most turns at once and hoards cards on its discard piles, so against it games often
    stall when the draw pile runs dry (a blocked draw).
    """

    name = "uniform"

    def decide(self, view: SeatView, rng: random.Random, budget: float | None = None) -> Decision:
        return Decision(rng.choice(view.legal_moves), "a random legal move", (Phrase("hint.random-move"),))


def card_of(view: SeatView, move: Move) -> int:
    """The card a build play or discard would take (the first of its rank in hand order)."""
    assert view.seat is not None
    if move.source == STOCK and move.kind == BUILD:
        top = view.stock_top(view.seat)
        assert top is not None
        return top
    if move.source == DISCARD_PILE and move.kind == BUILD:
        return view.discards[view.seat][move.pile][-1]
    assert view.hand is not None
    return next(c for c in view.hand if RANKS[c] == move.rank)


class GreedyBot(Bot):
    """Plays the stock top when it can; else any natural card that brings a pile closer to the stock top.

    Build piles count cyclically: a pile at or above the stock top's value comes round to it only by
    reaching the Queen and starting again, so a play on it leads there too.

    No planning: one move at a time, wild cards only for the stock top; the discard is the highest
    card in hand onto a random pile.
    """

    name = "greedy"

    def decide(self, view: SeatView, rng: random.Random, budget: float | None = None) -> Decision:
        assert view.seat is not None
        moves = view.legal_moves
        builds = [m for m in moves if m.kind == BUILD]
        stock_plays = [m for m in builds if m.source == STOCK]
        if stock_plays:
            return Decision(rng.choice(stock_plays), "the stock top can be played", (Phrase("hint.stock-playable"),))
        top = view.stock_top(view.seat)
        target = RANKS[top] if top is not None else 0
        values = view.build_values()
        helpful = []
        for m in builds:
            if RANKS[card_of(view, m)] >= 13:
                continue  # wild cards (and kings) are kept for the stock
            # a pile below the stock top climbs towards it; a pile at or above it must reach the
            # Queen and start again, so every play leads there except covering the card just below it
            if values[m.target] != target - 1 or target >= 13:
                helpful.append(m)
        if helpful:
            return Decision(rng.choice(helpful), "brings a build pile closer to the stock top",
                            (Phrase("hint.closer-to-stock"),))
        ends = [m for m in moves if m.kind != BUILD]
        if not ends:
            return Decision(rng.choice(moves), "must play on", (Phrase("hint.must-play-on"),))
        def rank_for_discard(m: Move) -> int:
            if m.kind == 2:
                return 0
            r = RANKS[card_of(view, m)]
            return 0 if r >= 13 else r  # wild cards are discarded last

        best = max(rank_for_discard(m) for m in ends)
        choices = [m for m in ends if rank_for_discard(m) == best]
        return Decision(rng.choice(choices), "discards its highest card", (Phrase("hint.highest-discard"),))
