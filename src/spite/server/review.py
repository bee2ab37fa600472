"""Game reviews inside the server (``GET /api/games/{id}/review``): computed off the event loop, kept.

A review takes seconds of search (:mod:`spite.review`), so :class:`ReviewRunner` runs it in a
worker process (with ``workers == 0``, tests: a thread of the server process) at the bot workers'
lower CPU priority, and keeps the finished reviews, newest last, per game and seat: a finished game
never changes, so neither does its review. Asking again while a review is being made waits for that
one instead of starting another.

A review is made in parts (the first :data:`FIRST_PART` turns, then parts twice as long each time)
and what is made so far can be asked for (:meth:`ReviewRunner.partial`): a person sees its first turns
within seconds and the rest filling in, not a bare wait for the whole game.

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
from spite.review import DEFAULT_BUDGET, merge_parts, review_record
from spite.server.bots import WORKER_NICENESS, _die_with_parent
from spite.server.limits import RateLimiter
from spite.server.table.seats import LobbyError

__all__ = ["FIRST_PART", "ReviewRefused", "ReviewRunner", "review_json"]

FIRST_PART = 3
"""Turns in a review's first part (about two seconds of search at the server's budget): what a person
sees first."""


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


def review_json(record: dict[str, Any], seat: int | None, budget: float,
                part: tuple[int, int] | None = None) -> tuple[dict[str, Any], int]:
    """The review of a record (a stored record's JSON), or of a ``part`` of its turns, as JSON, and how
    many turns it has to review in all: what a worker runs. Its refusals come back as
    :class:`~spite.errors.OptionsError` (one line; any error class survives the way back)."""
    from spite.records import record_from_json

    try:
        review = review_record(record_from_json(record), seats=None if seat is None else [seat], budget=budget,
                               seed=0, part=part)
    except SpiteError as exc:
        raise OptionsError(str(exc)) from None
    return review.to_json(), review.total


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
        self._partial: dict[tuple[int, int | None], dict[str, Any]] = {}
        """The review being made: its turns so far (``review``), ``done`` and ``total``."""
        self._one_at_a_time = asyncio.Lock()  # (its waiters are served in the order they came)
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

    def partial(self, game_id: int, seat: int | None) -> dict[str, Any] | None:
        """The review of ``game_id`` (for ``seat``) as far as it is made: ``{"review", "done", "total"}``
        (``None`` before its first part is made, and once it is whole)."""
        return self._partial.get((game_id, seat))

    async def _make(self, key: tuple[int, int | None], record: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """Make a review part by part (each a job of the worker), after the reviews asked for before it."""
        async with self._one_at_a_time:
            loop = asyncio.get_running_loop()
            parts: list[dict[str, Any]] = []
            start, size, total = 0, FIRST_PART, FIRST_PART
            try:
                while start < total:
                    part, total = await loop.run_in_executor(self._executor(), review_json, record, seat, self.budget,
                                                             (start, start + size))
                    parts.append(part)
                    start, size = start + size, size * 2
                    self._partial[key] = {"review": merge_parts(parts), "done": min(start, total), "total": total}
            finally:
                self._partial.pop(key, None)
            return merge_parts(parts)

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
        running = asyncio.ensure_future(self._make(key, record, seat))
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
