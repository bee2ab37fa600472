"""``spite bench tournament``: random-vs-random tournament throughput per core, and the ``--jobs`` speed-up.

Per core: arena games (``random`` against ``random``, classic, each move through a seat view and
the bot interface, think time measured) and the engine's own random playouts
(:func:`spite.bench.engine.play_random_game`, what ``spite bench engine`` runs) take turns in
half-second slices in this one process, so both see the same machine; the ratio of their moves/s
is the arena's cost per move. Speed-up: the same schedule played by the local backend with one
job and with ``jobs`` jobs (pool start-up included), wall clock; with the CPU time both used
(``cpu_overhead``: how much more CPU the parallel run needed), which shows what a busy machine
hides: a speed-up short of ``jobs`` with no CPU overhead means the cores were not free.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from typing import Any

from spite.arena.backends import run_local
from spite.arena.runner import Setup, play_game
from spite.arena.schedule import schedule
from spite.bench.engine import play_random_game
from spite.malice import Options

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
    rng = random.Random(seed)
    for k in range(10):  # warm up both
        play_game(games[k], setup, opts)
        play_random_game(opts, k, rng)
    arena = [0, 0, 0.0]
    engine = [0, 0, 0.0]
    gi = 10
    ek = 1000
    while arena[2] < seconds:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.5:
            res = play_game(games[gi % len(games)], setup, opts)
            gi += 1
            arena[0] += 1
            arena[1] += res.plies
        t1 = time.perf_counter()
        arena[2] += t1 - t0
        while time.perf_counter() - t1 < 0.5:
            state = play_random_game(opts, ek, rng)
            ek += 1
            engine[0] += 1
            engine[1] += len(state.history)
        engine[2] += time.perf_counter() - t1
        if progress is not None:
            progress(min(0.5, arena[2] / seconds / 2))
    arena_mps = arena[1] / arena[2]
    engine_mps = engine[1] / engine[2]
    # speed-up: enough games for about `seconds` on one job
    n = max(40, int(arena[0] / arena[2] * seconds))
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
        "arena_games_per_s": round(arena[0] / arena[2], 1),
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
