"""``spite bench tournament``: random-vs-random tournament throughput per core, and the ``--jobs`` speed-up.

Per core: arena games (``random`` against ``random``, classic, each move through a seat view and
the bot interface, think time measured) and the engine's own random playouts
(:func:`spite.malice.bench.engine.play_random_game`, what ``spite bench engine`` runs) take turns game by
game in this one process, so both see the same machine. They play the same games, move for move:
each deal once by the engine's random player and once by two ``random`` bots drawing, in turn,
from one random source seeded alike (the random bot is that player). So the ratio of their moves/s
is the arena's cost per move, with neither other deals nor a drifting machine in it.

Speed-up: the same schedule played by the local backend with one job and with ``jobs`` jobs (pool
start-up included), wall clock; with the CPU time both used (``cpu_overhead``: how much more CPU
the parallel run needed), which shows what a busy machine hides: a speed-up short of ``jobs`` with
no CPU overhead means the cores were not free.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from typing import Any

from spite.arena.backends import run_local
from spite.arena.runner import Setup
from spite.arena.schedule import schedule
from spite.malice import Options
from spite.malice.arena import play_game
from spite.malice.bench.engine import play_random_game

__all__ = ["run_tournament_bench"]


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the pool's workers, once joined)."""
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def run_tournament_bench(seconds: float = 5.0, jobs: int = 2, preset: str = "classic", seed: int = 1,
                         progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """Measure for about ``2 * seconds`` (per-core part) plus the speed-up part; a JSON-ready dict."""
    setup = Setup(specs=("random", "random"), preset=preset, seed=seed)
    opts = Options.from_preset(preset)
    games = schedule(2, players=opts.players, games=100_000, seed=seed)
    clock = time.perf_counter

    def engine(k: int) -> tuple[float, int]:
        game = games[k % len(games)]
        t0 = clock()
        state = play_random_game(opts, game.seed, random.Random(k))
        return clock() - t0, len(state.history)

    def arena(k: int) -> tuple[float, int]:
        game = games[k % len(games)]
        shared = random.Random(k)
        t0 = clock()
        res = play_game(game, setup, opts, rngs=[shared] * opts.players)
        return clock() - t0, res.plies

    def both(k: int) -> tuple[float, int, float, int]:
        """Game ``k`` by the engine and by the arena, which goes first in turn (whichever plays second
        finds the game's first allocations warm: 1-2 % faster): seconds and moves of each."""
        if k % 2:
            arena_s, arena_moves = arena(k)
            engine_s, engine_moves = engine(k)
        else:
            engine_s, engine_moves = engine(k)
            arena_s, arena_moves = arena(k)
        return engine_s, engine_moves, arena_s, arena_moves

    for k in range(10):  # warm up both
        both(k)
    games_played = moves = 0  # the same games and moves on both sides
    engine_s = arena_s = 0.0
    k = 10
    while arena_s < seconds:
        engine_game_s, engine_moves, arena_game_s, arena_moves = both(k)
        k += 1
        if engine_moves != arena_moves:  # the same game, or the comparison means nothing
            raise AssertionError(f"game {k - 1}: the engine played {engine_moves} moves, the arena {arena_moves}")
        games_played += 1
        moves += arena_moves
        engine_s += engine_game_s
        arena_s += arena_game_s
        if progress is not None and k % 20 == 0:
            progress(min(0.5, arena_s / seconds / 2))
    arena_mps = moves / arena_s
    engine_mps = moves / engine_s
    # speed-up: enough games for about `seconds` on one job
    n = max(40, int(games_played / arena_s * seconds))
    n -= n % 2
    sched = schedule(2, players=opts.players, games=n, seed=seed + 1)
    c0, t0 = _cpu(), time.perf_counter()
    one = run_local(setup, sched, 1)
    c1, t1 = _cpu(), time.perf_counter()
    if progress is not None:
        progress(0.75)
    many = run_local(setup, sched, jobs)
    c2, t2 = _cpu(), time.perf_counter()
    if progress is not None:
        progress(1.0)
    same = [r.outcome_key() for r in one] == [r.outcome_key() for r in many]
    return {
        "preset": preset,
        "arena_games_per_s": round(games_played / arena_s, 1),
        "arena_moves_per_s": round(arena_mps),
        "engine_moves_per_s": round(engine_mps),
        "ratio_moves": round(arena_mps / engine_mps, 3),
        "speedup_games": n,
        "jobs": jobs,
        "cpus": os.cpu_count(),
        "jobs1_s": round(t1 - t0, 3),
        f"jobs{jobs}_s": round(t2 - t1, 3),
        "speedup": round((t1 - t0) / (t2 - t1), 3),
        "cpu1_s": round(c1 - c0, 3),
        f"cpu{jobs}_s": round(c2 - c1, 3),
        "cpu_overhead": round((c2 - c1) / (c1 - c0), 3),
        "load_avg": round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None,
        "same_results": same,
    }
