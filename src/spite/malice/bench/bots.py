"""``spite bench bots``: how long bots think per decision, in CPU time (not wall time).

The tournament's ``ms/move`` is wall time, which grows when other processes share the cores; a
bot's budget ("``hard`` under 5 ms a decision") is about the work it does, so this benchmark reads
the process's CPU clock (:func:`time.process_time`) around every decision. The bots play each
other on seeded deals, each bot in every seat in turn.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from spite.bots import make_bot
from spite.malice import Options, State

__all__ = ["run_bots_bench"]


def run_bots_bench(specs: Sequence[str], games: int = 20, preset: str = "classic", seed: int = 1,
                   progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """Play ``games`` games of the bots ``specs`` (seats rotated game by game); CPU milliseconds per
    decision of each: mean, 99th percentile and most."""
    opts = Options.from_preset(preset)
    players = opts.players
    times: list[list[float]] = [[] for _ in specs]
    clock = time.process_time
    for game in range(games):
        state = State.new(opts, seed * 100_003 + game)
        order = [(game + seat) % len(specs) for seat in range(players)]  # bot number in each seat
        bots = [make_bot(specs[b]) for b in order]
        for seat, bot in enumerate(bots):
            bot.start_game(opts, seat)
        rngs = [random.Random(f"{seed}/{game}/{seat}") for seat in range(players)]
        while not state.is_over:
            seat = state.to_move
            view = state.view(seat)
            start = clock()
            move = bots[seat].choose(view, rngs[seat])
            times[order[seat]].append(clock() - start)
            state.play(move)
        if progress is not None:
            progress((game + 1) / games)
    out: dict[str, Any] = {"preset": preset, "games": games, "seed": seed, "bots": []}
    for spec, spent in zip(specs, times, strict=True):
        ordered = sorted(spent)
        n = len(ordered)
        out["bots"].append({
            "bot": spec,
            "decisions": n,
            "ms_mean": round(1000 * sum(ordered) / n, 3) if n else None,
            "ms_p99": round(1000 * ordered[min(n - 1, int(0.99 * n))], 3) if n else None,
            "ms_max": round(1000 * ordered[-1], 3) if n else None,
        })
    return out
