"""Helpers for the tests of spite.rl: positions some way into a game, hidden cards dealt again."""

from __future__ import annotations

import random
from collections.abc import Iterator

from spite.malice import Options, State

PRESET_CASES: list[tuple[str, dict[str, object]]] = [
    ("classic", {}),
    ("party", {}),  # 3 players
    ("partners", {}),  # 2 teams of 2
    ("skip-bo", {}),
    ("open-stock", {}),
    ("match", {}),
    ("party", {"players": 4, "build_piles": 12, "discard_piles": 12, "stock_size": 10}),
]
"""Options that stress every part of the encoding: 2–4 seats, teams, Skip-Bo, 3 open stock cards, 12 piles."""


def positions(opts: Options, games: int, seed: int = 0) -> Iterator[State]:
    """Every position of ``games`` games between builds-first random players (a copy of each)."""
    for g in range(games):
        state = State.new(opts, seed=seed + g)
        rng = random.Random(seed + g)
        while not state.is_over:
            yield state
            state.play(rng.choice(state.build_moves() or state.end_moves()) if rng.random() < 0.9
                       else rng.choice(state.legal_moves()))
        yield state


def hidden_reshuffled(state: State, seat: int, seed: int) -> State:
    """A copy of ``state`` whose cards that ``seat`` cannot see are dealt again at random."""
    other = state.copy()
    slots: list[tuple[list[int], int]] = []
    for s, hand in enumerate(other.hands):
        if s != seat:
            slots += [(hand, i) for i in range(len(hand))]
    for stock in other.stocks:
        slots += [(stock, i) for i in range(len(stock) - other.opts.open_stock)]
    slots += [(other.draw, i) for i in range(len(other.draw))]
    slots += [(other.set_aside, i) for i in range(len(other.set_aside))]
    hidden = [pile[i] for pile, i in slots]
    random.Random(seed).shuffle(hidden)
    for (pile, i), card in zip(slots, hidden, strict=True):
        pile[i] = card
    return other
