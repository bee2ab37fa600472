"""The Spite and Malice family's benchmarks: the engine's random playouts (``spite bench engine``,
beside a bare loop), the bots' CPU per decision (``bench bots``), the research environments (``bench
rl``) and tournament throughput (``bench tournament``); and finished games for the shared benchmarks
(:func:`finished_games`, the ``bench`` hook of ``spite-malice``: ``spite bench backup`` stores them)."""

from __future__ import annotations

import random
from typing import Any

__all__ = ["finished_games"]


def finished_games(seed: int, count: int) -> list[tuple[dict[str, Any], int, int]]:
    """``count`` finished games of the default preset, built while possible (full games, as people
    play them): each its record's JSON, its plies and its turns."""
    from spite.malice import Options, State
    from spite.malice.record import record_from_state

    preset = "classic"
    out = []
    for i in range(count):
        state = State.new(Options.from_preset(preset), seed * 1000 + i)
        rng = random.Random(f"bench-backup/{seed}/{i}")
        while not state.is_over:
            state.play(rng.choice(state.build_moves() or state.end_moves()))
        out.append((record_from_state(state, preset).to_json(), state.plies, state.turn))
    return out
