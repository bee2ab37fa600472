"""Where the games run: ``local`` (this process, or a pool of processes) and ``ray`` (a Ray cluster).

Both play the same :class:`~spite.arena.schedule.GameSpec` list with the same
:func:`~spite.arena.runner.iter_games`, in chunks; results come back in any order and are put back
in schedule order, so the backend and the number of jobs change nothing but the time taken. The
backends hand each game back the moment it ends (a process pool's workers send it through a
queue; a Ray task is a generator whose results stream back), so the progress bar moves game by
game and a tournament stopped part-way has kept every game played.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import queue
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from spite.arena.runner import GameResult, Setup, iter_games
from spite.arena.schedule import GameSpec
from spite.errors import OptionsError

__all__ = ["BACKENDS", "chunks", "run_local", "run_ray"]

BACKENDS = ("local", "ray")

OnDone = Callable[[GameResult], None]


def chunks(games: Sequence[GameSpec], jobs: int, per_job: int = 8, largest: int = 32) -> list[list[GameSpec]]:
    """Split the schedule into chunks: about ``per_job`` chunks per job (so the load evens out and the
    progress bar moves), at most ``largest`` games each.

    >>> [len(c) for c in chunks(list(range(10)), jobs=1, per_job=4)]
    [3, 3, 3, 1]
    """
    size = max(1, min(largest, -(-len(games) // max(1, jobs * per_job))))
    return [list(games[i:i + size]) for i in range(0, len(games), size)]


_finished: Any = None
"""In a pool worker: the queue that takes each game's result to the parent as soon as it ends."""


def _stop_worker(signum: int, frame: object) -> None:
    """The parent stops a worker (SIGTERM) when the tournament is stopped. The worker unwinds, so the
    external bot programs it runs are closed, but it must not wait to hand over results the parent will
    never read: with the queue's pipe full, that wait would never end and the tournament would hang."""
    if _finished is not None:
        _finished.cancel_join_thread()
    sys.exit(1)


def _worker_start(finished: Any) -> None:
    global _finished
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # workers leave Ctrl-C to the parent
    signal.signal(signal.SIGTERM, _stop_worker)
    _finished = finished


def _play_chunk(setup: Setup, chunk: list[GameSpec]) -> int:
    for res in iter_games(setup, chunk):
        _finished.put(res)
    return len(chunk)


def run_local(setup: Setup, games: Sequence[GameSpec], jobs: int = 1,
              on_done: OnDone | None = None) -> list[GameResult]:
    """Play ``games`` here (``jobs`` 1) or in a pool of ``jobs`` processes."""
    results: list[GameResult] = []
    if jobs <= 1:
        for res in iter_games(setup, games):
            results.append(res)
            if on_done:
                on_done(res)
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        finished = ctx.Queue()
        pool = ctx.Pool(jobs, initializer=_worker_start, initargs=(finished,))
        try:
            from functools import partial

            work = pool.map_async(partial(_play_chunk, setup), chunks(games, jobs))
            while len(results) < len(games):
                try:
                    res = finished.get(timeout=0.1)
                except queue.Empty:
                    if work.ready() and not work.successful():
                        work.get()  # raises what the worker raised
                    continue
                results.append(res)
                if on_done:
                    on_done(res)
            pool.close()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    results.sort(key=lambda r: r.index)
    return results


def _ray_chunk(setup: Setup, chunk: list[GameSpec]) -> Iterator[GameResult]:
    # a generator: Ray streams each game's result back as it ends, not the chunk's at its end
    yield from iter_games(setup, chunk)


def run_ray(setup: Setup, games: Sequence[GameSpec], jobs: int = 1, on_done: OnDone | None = None) -> list[GameResult]:
    """Play ``games`` as Ray tasks: on the cluster at ``RAY_ADDRESS``, else on a local Ray started here
    with ``jobs`` CPUs (and shut down afterwards)."""
    try:
        ray: Any = importlib.import_module("ray")  # optional, and untyped here on purpose
    except ImportError:
        raise OptionsError("the ray backend needs Ray: pip install 'spite[ray]' (or pip install ray)") from None
    started = False
    if not ray.is_initialized():
        address = os.environ.get("RAY_ADDRESS")
        quiet: dict[str, Any] = {"logging_level": logging.WARNING, "log_to_driver": False, "configure_logging": True}
        try:
            if address:
                ray.init(address=address, **quiet)
            else:
                ray.init(num_cpus=max(1, jobs), include_dashboard=False, **quiet)
        except Exception as exc:  # Ray raises many kinds; all mean the same to the user
            where = f"the Ray cluster at {address}" if address else "a local Ray"
            raise OptionsError(f"cannot start or reach {where}: {type(exc).__name__}: {exc}") from None
        started = True
    try:
        task = ray.remote(num_cpus=1)(_ray_chunk)
        setup_ref = ray.put(setup)
        n_cpus = max(1, int(ray.cluster_resources().get("CPU", jobs)))
        pending = [task.remote(setup_ref, chunk) for chunk in chunks(games, n_cpus)]
        results: list[GameResult] = []
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for stream in ready:  # a chunk whose next result is in (or which has ended)
                try:
                    ref = next(stream)
                except StopIteration:
                    continue
                res = ray.get(ref)  # raises what the task raised
                results.append(res)
                if on_done:
                    on_done(res)
                pending.append(stream)
    finally:
        if started:
            ray.shutdown()
    results.sort(key=lambda r: r.index)
    return results
