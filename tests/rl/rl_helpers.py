"""Helpers for the tests of spite.malice.rl: positions some way into a game, hidden cards dealt again."""

from __future__ import annotations

import random
from collections.abc import Iterator

from helpers import hidden_reshuffled  # noqa: F401  (re-exported for the rl tests)
from spite.malice import Options, State
from waiting import bounded

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
        for _ in bounded(20_000, "the game's end"):
            if state.is_over:
                break
            yield state
            state.play(rng.choice(state.build_moves() or state.end_moves()) if rng.random() < 0.9
                       else rng.choice(state.legal_moves()))
        yield state


