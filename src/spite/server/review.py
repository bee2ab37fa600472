"""Game reviews inside the server (``GET /api/games/{id}/review``): computed off the event loop, kept.

A review takes seconds of search (:mod:`spite.review`), so :class:`ReviewRunner` runs it in a
worker process (with ``workers == 0``, tests: a thread of the server process) at the bot workers'
lower CPU priority, and keeps the finished reviews, newest last, per game and seat: a finished game
never changes, so neither does its review. Asking again while a review is being made waits for that
one instead of starting another.

Reviews are made one at a time, in the order asked. The queue is bounded (``review_queue``: a review
asked for when it is full is refused, 503 ``review-queue-full``), each review's place in it can be
asked for without waiting (:meth:`ReviewRunner.place`), and one client address may start at most
``review_burst`` reviews at once and ``review_rate`` a second after that (429 ``too-many-reviews``):
twelve requests from one address no longer hold the worker for minutes while another person's
review waits.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import os
from collections import OrderedDict
from typing import Any

from spite.errors import OptionsError, SpiteError
from spite.review import DEFAULT_BUDGET, review_record
from spite.server.bots import WORKER_NICENESS, _die_with_parent
from spite.server.limits import RateLimiter
from spite.server.table.seats import LobbyError

__all__ = ["ReviewRefused", "ReviewRunner", "review_json"]


class ReviewRefused(LobbyError):
    """A review that cannot be made: the HTTP status and a code that says why (``no-game``,
    ``not-finished``, ``not-turn-based``, ``no-seat``, ``bad-record``, ``review-queue-full``,
    ``too-many-reviews``), with one line for people; ``retry_after`` seconds when it is worth asking
    again later."""

    def __init__(self, message: str, status: int, code: str, retry_after: float | None = None) -> None:
        super().__init__(message, status)
        self.code = code
        self.retry_after = retry_after


def _review_worker(parent: int) -> None:
    """Worker side, at start: die with the server (``kill -9`` included) and step back in CPU priority
    as the bot workers do: a review must not starve the event loop that acknowledges moves."""
    _die_with_parent(parent)
    with contextlib.suppress(OSError, AttributeError):  # not on every platform
        os.nice(WORKER_NICENESS)


def review_json(record: dict[str, Any], seat: int | None, budget: float) -> dict[str, Any]:
    """The review of a record (a stored record's JSON) as JSON: what a worker runs. Its refusals come
    back as :class:`~spite.errors.OptionsError` (one line; any error class survives the way back)."""
    from spite.records import record_from_json

    try:
        return review_record(record_from_json(record), seats=None if seat is None else [seat], budget=budget,
                             seed=0).to_json()
    except SpiteError as exc:
        raise OptionsError(str(exc)) from None


class ReviewRunner:
    """Reviews of finished games, made one at a time off the event loop and kept (see the module docstring)."""

    def __init__(self, workers: int = 1, budget: float = DEFAULT_BUDGET, keep: int = 256, queue: int = 8,
                 rate: float = 1 / 30, burst: float = 3.0) -> None:
        self.workers = workers
        self.budget = budget
        self.keep = keep
        self.queue = queue
        """The most reviews waiting or being made at once."""
        self._starts = RateLimiter(rate, burst)
        """Reviews started per client address (a cached or running review costs nothing)."""
        self._done: OrderedDict[tuple[int, int | None], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[int, int | None], asyncio.Future[dict[str, Any]]] = {}
        """The reviews waiting or being made, in the order they were asked for (the first is being made)."""
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:  # started on first use: most servers never review a game
            if self.workers >= 1:
                # the review worker dies with the server, kill -9 included, as the bot workers do
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_review_worker,
                    initargs=(os.getpid(),))
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="spite-review")
        return self._pool

    def place(self, game_id: int, seat: int | None) -> int | None:
        """Where the review of ``game_id`` (for ``seat``) stands: 0 made, 1 being made, 2 the next, …;
        ``None`` when it was not asked for."""
        key = (game_id, seat)
        if key in self._done:
            return 0
        order = list(self._running)
        return order.index(key) + 1 if key in order else None

    def start(self, game_id: int, record: dict[str, Any], seat: int | None, address: str = "") -> None:
        """Put the review of ``game_id`` in the queue unless it is made or waiting already: refused
        (:class:`ReviewRefused`) when the queue is full or ``address`` started too many lately."""
        key = (game_id, seat)
        if key in self._done or key in self._running:
            return
        if len(self._running) >= self.queue:
            raise ReviewRefused(f"{self.queue} reviews are being made or waiting: ask again in a minute", 503,
                                "review-queue-full", retry_after=60.0)
        wait = self._starts.take(address)
        if wait > 0:
            raise ReviewRefused("your address asked for many reviews lately: wait a moment and ask again", 429,
                                "too-many-reviews", retry_after=wait)
        loop = asyncio.get_running_loop()
        running = asyncio.ensure_future(loop.run_in_executor(self._executor(), review_json, record, seat,
                                                             self.budget))
        self._running[key] = running

        def finished(done: asyncio.Future[dict[str, Any]]) -> None:
            self._running.pop(key, None)
            if not done.cancelled() and done.exception() is None:
                self._done[key] = done.result()  # kept, whether or not anyone still waits for it
                while len(self._done) > self.keep:
                    self._done.popitem(last=False)

        running.add_done_callback(finished)

    async def review(self, game_id: int, record: dict[str, Any], seat: int | None,
                     address: str = "") -> dict[str, Any]:
        """The review of finished game ``game_id`` (its stored ``record``) for ``seat`` (``None``:
        every seat), started for ``address`` if it is not made yet (:meth:`start`) and waited for.
        Raises what :func:`spite.review.review_record` raises."""
        key = (game_id, seat)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        self.start(game_id, record, seat, address)
        running = self._running[key]
        try:
            result: dict[str, Any] = await asyncio.shield(running)
        except concurrent.futures.BrokenExecutor:
            self._pool = None  # the worker died (killed, out of memory): the next asking starts another
            raise LobbyError("the review worker stopped: ask again", 503) from None
        return result

    def close(self) -> None:
        """Stop the worker (a review under way is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
