"""``spite bench engine``: random playouts through the engine's public API, one core.

The player is the random player of :mod:`spite.malice.bench.bare_loop` (the speed-of-light
reference): uniformly random build plays while there are any, then a uniformly random turn-ending
move. Using the same player keeps the games alike, so games/s of the two can be compared.
Every move goes through :meth:`State.build_moves` / :meth:`State.end_moves` and the checked
:meth:`State.play`, with undo history and chance log kept, exactly as a bot uses the engine.
"""

from __future__ import annotations

import importlib.util
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from spite.malice import Options, State

__all__ = ["play_random_game", "run_bare_loop", "run_compared", "run_engine_bench"]


def play_random_game(opts: Options, seed: int, rng: random.Random) -> State:
    """One game of the builds-first random player (see the module docstring)."""
    state = State.new(opts, seed)
    choice = rng.choice
    build_moves = state.build_moves
    end_moves = state.end_moves
    play = state.play
    while state.result is None:
        moves = build_moves()
        if not moves:
            moves = end_moves()
        play(choice(moves))
    return state


def run_engine_bench(seconds: float = 5.0, preset: str = "classic", seed: int = 1,
                     progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """Play random games for ``seconds``; games/s and moves/s (a move: a build play or a turn end)."""
    opts = Options.from_preset(preset)
    rng = random.Random(seed)
    for k in range(20):  # warm up
        play_random_game(opts, k, rng)
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    k = 1000
    while True:
        state = play_random_game(opts, k, rng)
        k += 1
        games += 1
        moves += len(state.history)
        now = time.perf_counter()
        if progress is not None and games % 50 == 0:
            progress(min(1.0, (now - start) / seconds))
        if now >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"games_per_s": round(games / elapsed, 1), "moves_per_s": round(moves / elapsed),
            "games": games, "seconds": round(elapsed, 2), "preset": preset}


def run_compared(path: Path, seconds: float, seed: int = 1,
                 progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """The engine and the reference bare loop, interleaved in short slices in this one process.

    Machines drift (other load, clock changes) over seconds; taking turns every half second gives
    both the same conditions, so their ratio is fair even when the absolute figures wander.
    """
    spec = importlib.util.spec_from_file_location("bare_loop", path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    bare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bare)
    opts = Options.from_preset("classic")
    rng = random.Random(seed)
    bare_rng = random.Random(seed)
    for k in range(20):
        play_random_game(opts, k, rng)
        bare.play_game(bare_rng)
    totals = {"engine": [0, 0, 0.0], "bare": [0, 0, 0.0]}
    k = 1000
    spent = 0.0
    while spent < seconds:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.5:
            state = play_random_game(opts, k, rng)
            k += 1
            totals["engine"][0] += 1
            totals["engine"][1] += len(state.history)
        t1 = time.perf_counter()
        totals["engine"][2] += t1 - t0
        while time.perf_counter() - t1 < 0.5:
            turns, plays = bare.play_game(bare_rng)
            totals["bare"][0] += 1
            totals["bare"][1] += turns + plays
        totals["bare"][2] += time.perf_counter() - t1
        spent = totals["engine"][2]
        if progress is not None:
            progress(min(1.0, spent / seconds))
    eg, em, et = totals["engine"]
    bg, bm, bt = totals["bare"]
    return {
        "games_per_s": round(eg / et, 1), "moves_per_s": round(em / et), "games": int(eg), "seconds": round(et, 2),
        "preset": "classic",
        "bare_loop": {"games_per_s": round(bg / bt, 1), "moves_per_s": round(bm / bt), "games": int(bg)},
        "ratio_games": round((eg / et) / (bg / bt), 3), "ratio_moves": round((em / et) / (bm / bt), 3),
    }


def run_bare_loop(path: Path, seconds: float) -> dict[str, Any]:
    """Run the reference bare loop (``bare_loop.py``) in a fresh interpreter and read its JSON line."""
    out = subprocess.run([sys.executable, str(path), str(seconds)], capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result
