"""Bots inside the server: thinking happens off the event loop, within a time budget.

:class:`BotRunner` asks a bot for a seat's move given only that seat's view, for every game whose
bots think (its adapter's :attr:`~spite.server.table.play.Listing.bots` names its :class:`Thinker`,
which the workers import by name: the runner knows no game). The bots run in a pool of worker
processes, one per core by default
(so a bot that thinks for a second stalls no other table, not even through the GIL), fed from one
queue per table served fairly (see :class:`BotRunner`): one client's expert tables cannot starve
another table's bot. The workers end with the server, ``kill -9`` included. With ``workers == 0``
they run in threads of the server process (tests).

If a bot fails or overruns its budget by far, the runner plays the first legal move and logs it:
a table never waits forever on a bot. A level whose bot cannot be made at all on this install (a
package it needs is missing) is an operator's error, not a table's: :meth:`BotRunner.start` tries
every level once and logs each one that cannot be made as an error naming what to install, and a
table that meets it anyway logs it once more as an error, not a warning at every move.

:meth:`BotRunner.hint` asks a fresh bot, on the same workers, what it would play for a person's seat
(``hint`` messages): it too sees only that seat's view.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import importlib
import logging
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol

from spite.bots import NeedsExtraError
from spite.errors import Phrase
from spite.games import game_names, has_hook, load_hook
from spite.server.table.effects import BotAsk

__all__ = ["BotRunner", "Thinker", "cores", "missing_part", "thinkers"]

log = logging.getLogger("spite.server.bots")

_CACHE: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
_CACHE_SIZE = 4096

Answer = tuple[str, str, list[Phrase]]
"""A bot's move, one line of why, and the why as catalogue phrases."""


class Thinker(Protocol):
    """A game's bots as the workers run them (named ``"module:attribute"`` by its adapter's
    :attr:`~spite.server.table.play.Listing.bots`, imported in each worker): how a level becomes a bot
    within a budget, and how a bot answers from a seat's view (as the game's play packed it:
    :meth:`~spite.server.table.play.TablePlay.bot_view`, picklable)."""

    def spec(self, level: str, budget: float) -> str:
        """The bot spec of ``level``, thinking at most ``budget`` seconds a move."""

    def make(self, spec: str) -> Any:
        """A new bot of ``spec`` (raises what it cannot be made with: :func:`missing_part`)."""

    def decide(self, bot: Any, view: Any, rng: random.Random, first: bool) -> Answer:
        """``bot``'s move in ``view`` (``first``: its first question, at this seat: it starts its game)."""


def _thinker(name: str) -> Thinker:
    module, _, attr = name.partition(":")
    thinker: Thinker = getattr(importlib.import_module(module), attr)
    return thinker


def thinkers() -> dict[str, tuple[str, ...]]:
    """Every served game's thinking bots (:class:`Thinker` by name) and the levels its lobby offers."""
    out: dict[str, tuple[str, ...]] = {}
    for game in game_names():
        if has_hook(game, "server"):
            listing = load_hook(game, "server").listing
            if listing.bots is not None:
                out[listing.bots] = tuple(dict.fromkeys((*out.get(listing.bots, ()), *listing.levels)))
    return out


def missing_part(exc: BaseException) -> str | None:
    """What to install when ``exc`` says a bot cannot be made on this install (``install
    spite[rl] to play the policy bot``), else None (a bot's own failure)."""
    if isinstance(exc, NeedsExtraError):
        return str(exc)
    if isinstance(exc, ModuleNotFoundError):
        return f"install the package that provides {exc.name or 'a missing module'} ({exc})"
    return None


def decide(bots: str, key: tuple[str, int, str], spec: str, view: Any, rng_seed: str) -> tuple[str, str, float]:
    """Worker side: the move text the bot of ``key`` (its table, seat and spec: kept between moves) plays,
    its reason, and the seconds it took."""
    t0 = time.perf_counter()
    thinker = _thinker(bots)
    bot = _CACHE.get(key)
    first = bot is None
    if bot is None:
        bot = _CACHE[key] = thinker.make(spec)
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    move, why, _phrases = thinker.decide(bot, view, random.Random(rng_seed), first)
    return move, why, time.perf_counter() - t0


def hint(bots: str, spec: str, view: Any, rng_seed: str) -> Answer:
    """Worker side: what a fresh bot of ``spec`` would play in the view, and why (one line, and as
    catalogue phrases)."""
    thinker = _thinker(bots)
    bot = thinker.make(spec)
    try:
        move, why, phrases = thinker.decide(bot, view, random.Random(rng_seed), True)
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    phrases = list(phrases) or ([] if why.strip() else [Phrase("hint.bots-choice")])
    return move, " ".join(why.split()) or "the bot's choice", phrases


def forget(table_id: str) -> None:
    """Worker side: drop a finished table's bots."""
    for key in [k for k in _CACHE if k[0] == table_id]:
        del _CACHE[key]


def _die_with_parent(parent: int) -> None:
    """Worker side: end this process when the server process ends, ``kill -9`` included.

    On Linux the kernel sends SIGKILL when the parent dies (``prctl(PR_SET_PDEATHSIG)``); everywhere a
    daemon thread also checks once a second whether the parent is gone (this process was handed to
    another one). Either way no worker outlives the server; the multiprocessing resource tracker,
    which the workers keep alive through its pipe, then ends too."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # the server died before the line above
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="spite-parent-watch", daemon=True).start()


_PR_SET_PDEATHSIG = 1


WORKER_NICENESS = 10
"""How much lower the bot workers' CPU priority is than the server's: a bot thinking for its whole
budget on every core must not starve the event loop that acknowledges people's moves."""


def _warm(parent: int, bots: Mapping[str, tuple[str, ...]], budget: float) -> None:
    """Worker side, at start: tie this process's life to the server's, step back in CPU priority,
    then load the games' bots (``bots``: their :class:`Thinker` names and levels), each level's bot
    made once, so that the first move pays for no import."""
    _die_with_parent(parent)
    with contextlib.suppress(OSError, AttributeError):  # not on every platform
        os.nice(WORKER_NICENESS)
    for name, levels in bots.items():
        thinker = _thinker(name)
        for level in levels:
            with contextlib.suppress(Exception):  # (the server logged what cannot be made, once)
                bot = thinker.make(thinker.spec(level, budget))
                close = getattr(bot, "close", None)
                if close is not None:
                    close()


def _warm_up() -> None:
    """Worker side: nothing (the first job of a worker: it makes the pool start its process)."""


@dataclass(eq=False)
class _Job:
    """One decision (or hint) waiting for a worker."""

    table_id: str
    call: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]


class BotRunner:
    """Runs bot decisions for every table of the server, fairly.

    ``workers`` processes (``None``: one per core the server may use; 0: two threads of this process,
    for tests) take jobs from one queue per table. When a worker is free it serves the table that has
    used the least worker time so far among those waiting (fair queueing: round robin weighted by the
    seconds each job took), so twelve tables of expert bots that think for a second a move cannot make
    an easy bot wait behind them: it waits at most for the soonest running job to end. A table has one
    job running at a time (its moves stay in order) and goes back to the worker that served it last when
    that one is free, so a bot keeps its plan between the moves of a turn (another worker's bot plans
    again from the view: same answer, a little more time)."""

    def __init__(self, workers: int | None = None, budget: float = 1.0,
                 bots: Mapping[str, tuple[str, ...]] | None = None) -> None:
        self.workers = cores() if workers is None else workers
        self.budget = budget
        self.bots = dict(thinkers() if bots is None else bots)
        """The games' thinking bots (:class:`Thinker` by name) and their levels (default: :func:`thinkers`)."""
        self._pools: list[concurrent.futures.Executor] = []
        self._idle: list[int] = []
        self._queues: dict[str, deque[_Job]] = {}
        self._used: dict[str, float] = {}  # table → worker seconds (virtual time of fair queueing)
        self._running: set[str] = set()  # tables with a job on a worker
        self._last: dict[str, int] = {}  # table → the worker that served it last
        self.decisions = 0
        self.fallbacks = 0
        self.unavailable: dict[str, str] = {}
        """Levels whose bot cannot be made on this install, and what to install (logged once each)."""

    def check_levels(self) -> dict[str, str]:
        """Make the bot of every level of every game's thinking bots once, here; log each one that
        cannot be made as an error naming what to install. Returns :attr:`unavailable`. (The workers
        are started from the same install.)"""
        for name, levels in self.bots.items():
            thinker = _thinker(name)
            for level in levels:
                try:
                    bot = thinker.make(thinker.spec(level, self.budget))
                except Exception as exc:
                    missing = missing_part(exc)
                    if missing is None:
                        raise
                    self._unavailable(level, missing)
                    continue
                close = getattr(bot, "close", None)
                if close is not None:
                    close()
        return self.unavailable

    def _unavailable(self, level: str, missing: str) -> None:
        if level not in self.unavailable:
            self.unavailable[level] = missing
            log.error("bot level %s cannot play on this install: %s; until then its seats play the first legal "
                      "move", level, missing)

    def start(self) -> None:
        """Check that every level's bot can be made (:meth:`check_levels`), then start the worker
        processes (spawned: a fork of a running event loop is unsafe)."""
        self.check_levels()
        if self.workers > 0:
            self._pools = [self._process() for _ in range(self.workers)]
            for pool in self._pools:  # spawn them now (seconds of imports), not at the first bot's move
                pool.submit(_warm_up)
        else:
            thread = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="spite-bot")
            self._pools = [thread, thread]
        self._idle = list(range(len(self._pools)))
        log.info("bots run in %s", f"{self.workers} worker process(es)" if self.workers > 0 else "a thread pool")

    def _process(self) -> concurrent.futures.Executor:
        ctx = multiprocessing.get_context("spawn")
        return concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_warm,
                                                      initargs=(os.getpid(), self.bots, self.budget))

    def close(self) -> None:
        """Stop the workers (running decisions are abandoned)."""
        for pool in dict.fromkeys(self._pools):
            pool.shutdown(wait=False, cancel_futures=True)
        for queue in self._queues.values():
            for job in queue:
                job.done.cancel()
        self._queues.clear()

    def worker_pids(self) -> list[int]:
        """The process ids of the running worker processes (none in thread mode)."""
        pids: list[int] = []
        for pool in self._pools:
            processes = getattr(pool, "_processes", None) or {}
            pids.extend(int(pid) for pid in processes)
        return pids

    # ------------------------------------------------------------------ the fair queue
    def _run(self, table_id: str, call: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """Queue ``call(*args)`` for a worker in ``table_id``'s queue; its result comes in the future."""
        loop = asyncio.get_running_loop()
        job = _Job(table_id, call, args, loop.create_future())
        queue = self._queues.get(table_id)
        if queue is None:
            queue = self._queues[table_id] = deque()
            # a table that waited for nothing gets no credit for it: it starts at the least time of the
            # tables waiting now (else one that was idle for an hour would take every worker for a while)
            busy = [self._used[t] for t in (*self._queues, *self._running) if t != table_id and t in self._used]
            self._used[table_id] = max(self._used.get(table_id, 0.0), min(busy, default=0.0))
        queue.append(job)
        self._dispatch()
        return job.done

    def _dispatch(self) -> None:
        while self._idle:
            ready = [t for t, q in self._queues.items() if t not in self._running and q]
            if not ready:
                return
            table_id = min(ready, key=lambda t: self._used.get(t, 0.0))  # dicts keep arrival order: ties go first come
            queue = self._queues[table_id]
            job = queue.popleft()
            if not queue:
                del self._queues[table_id]
            if job.done.cancelled():  # its caller gave up waiting while it was queued
                continue
            last = self._last.get(table_id)
            worker = last if last in self._idle else self._idle[0]
            self._idle.remove(worker)
            self._running.add(table_id)
            self._last[table_id] = worker
            self._start(worker, job)

    def _start(self, worker: int, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            fut = loop.run_in_executor(self._pools[worker], job.call, *job.args)
        except RuntimeError as exc:  # the pool is shut down
            self._finish(worker, job.table_id, started)
            if not job.done.done():
                job.done.set_exception(exc)
            return

        def finished(f: asyncio.Future[Any]) -> None:
            if not f.cancelled() and isinstance(f.exception(), BrokenProcessPool):
                # the worker died (killed, out of memory): this job fails, the next ones get a new worker
                log.error("bot worker %d died; starting a new one", worker)
                self._pools[worker] = self._process()
            self._finish(worker, job.table_id, started)
            if not job.done.done():
                if f.cancelled():
                    job.done.cancel()
                elif f.exception() is not None:
                    job.done.set_exception(f.exception())  # type: ignore[arg-type]
                else:
                    job.done.set_result(f.result())
            self._dispatch()

        fut.add_done_callback(finished)

    def _finish(self, worker: int, table_id: str, started: float) -> None:
        self._used[table_id] = self._used.get(table_id, 0.0) + (time.monotonic() - started)
        self._running.discard(table_id)
        self._idle.append(worker)

    def waiting(self) -> int:
        """Jobs queued for a worker (not yet running)."""
        return sum(len(q) for q in self._queues.values())

    # ------------------------------------------------------------------ what tables ask
    async def decide(self, table_id: str, level: str, ask: BotAsk, rng_seed: str) -> tuple[str, bool]:
        """The move text the bot of ``level`` plays for ``ask``'s seat; ``True`` with it if it was a fallback."""
        assert ask.legal
        legal = ask.legal
        # the spec carries the level's own budget, capped by the server's
        spec = _thinker(ask.bots).spec(level, self.budget)
        key = (table_id, ask.seat, spec)
        # a job may wait for the jobs of a few other tables (each at most the budget) before it runs
        limit = 6 * self.budget + 10.0
        try:
            fut = self._run(table_id, decide, ask.bots, key, spec, ask.view, rng_seed)
            text, _why, seconds = await asyncio.wait_for(fut, limit)
        except Exception as exc:
            self.fallbacks += 1
            missing = missing_part(exc)
            if missing is not None:  # the install lacks a part, not this table's bot: the operator is told once
                self._unavailable(level, missing)
                return legal[0], True
            detail = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
            log.warning("table %s: bot %s for seat %s failed (%s); playing %s", table_id, level, ask.seat,
                        exc.__class__.__name__ + (f": {detail}" if detail else ""), legal[0])
            return legal[0], True
        self.decisions += 1
        if seconds > self.budget * 1.5 + 0.2:
            log.info("table %s: bot %s took %.2f s (budget %.2f s)", table_id, level, seconds, self.budget)
        return text, False

    async def hint(self, table_id: str, level: str, ask: BotAsk, rng_seed: str, budget: float = 0.3) -> Answer:
        """What a bot of ``level`` would play for ``ask``'s seat (a person's, to move) and why, thought
        out in the table's queue within ``budget`` seconds (capped by the runner's). Raises
        :class:`TimeoutError` or the bot's error when there is no answer."""
        assert ask.legal
        spec = _thinker(ask.bots).spec(level, min(budget, self.budget))
        fut = self._run(table_id, hint, ask.bots, spec, ask.view, rng_seed)
        result: Answer = await asyncio.wait_for(fut, 6 * budget + 10.0)
        return result

    def forget(self, table_id: str) -> None:
        """Drop a table's bots from the workers (and its place in the fair queue)."""
        self._used.pop(table_id, None)
        self._last.pop(table_id, None)
        for pool in dict.fromkeys(self._pools):
            with contextlib.suppress(RuntimeError):
                pool.submit(forget, table_id)


def cores() -> int:
    """The cores this process may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)
