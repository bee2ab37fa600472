"""Sampling a full state consistent with what one seat knows (for bots that search).

A :class:`~spite.malice.SeatView` says which cards its seat can see; every other card of the deck
lies somewhere it cannot: other hands, the face-down part of each stock, the draw pile and the
set-aside heap. :func:`determinize` deals those unseen cards at random into those places, giving
a :class:`~spite.malice.State` that the seat cannot tell apart from the real one. Searching many
such states is how the search bot copes with hidden information without ever seeing it.

>>> import random
>>> from spite.malice import Options, State
>>> real = State.new(Options(), seed=8)
>>> view = real.view(real.to_move)
>>> guess = determinize(view, random.Random(1))
>>> guess.view(real.to_move) == view
True
"""

from __future__ import annotations

import random

from spite.malice.state import State
from spite.malice.view import SeatView

__all__ = ["determinize"]


def determinize(view: SeatView, rng: random.Random) -> State:
    """A state drawn at random among those consistent with ``view`` (its seat's knowledge)."""
    opts = view.opts
    pool = list(view.unseen_cards().elements())
    rng.shuffle(pool)
    pos = 0

    def take(n: int) -> list[int]:
        nonlocal pos
        out = pool[pos:pos + n]
        pos += n
        return out

    hands: list[list[int]] = []
    for s in range(opts.players):
        if s == view.seat and view.hand is not None:
            hands.append(list(view.hand))
        else:
            hands.append(take(view.hand_sizes[s]))
    stocks: list[list[int]] = []
    for i, size in enumerate(view.stock_sizes):
        tops = list(view.stock_tops[i])
        stocks.append(take(size - len(tops)) + tops)
    draw = take(view.draw_size)
    set_aside = take(view.set_aside_size)
    if pos != len(pool):
        raise ValueError("the view's counts do not add up to the deck")
    state = object.__new__(State)
    state.opts = opts
    state.seed = rng.getrandbits(48)
    state.stocks = stocks
    state.hands = hands
    state.discards = list(view.discards)
    state.builds = list(view.builds)
    state.draw = draw
    state.set_aside = set_aside
    state.to_move = view.to_move
    state.turn = view.turn
    state.idle_turns = view.idle_turns
    state.played_this_turn = view.played_this_turn
    state.result = view.result
    state.shuffles = 0
    state.history = []
    state.chance_log = []
    state.chance_queue = []
    state.initial = {}
    state._prepare()
    return state
