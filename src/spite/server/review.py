"""Game reviews inside the server (``GET /api/games/{id}/review``): computed off the event loop, kept.

A review takes seconds of search (:mod:`spite.review`), so :class:`ReviewRunner` runs it in a
worker process (with ``workers == 0``, tests: a thread of the server process) and keeps the finished
reviews, newest last, per game and seat: a finished game never changes, so neither does its review.
Asking again while a review is being made waits for that one instead of starting another.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from collections import OrderedDict
from typing import Any

from spite.errors import OptionsError, SpiteError
from spite.review import DEFAULT_BUDGET, review_record
from spite.server.bots import _die_with_parent
from spite.server.table.seats import LobbyError

__all__ = ["ReviewRefused", "ReviewRunner", "review_json"]


class ReviewRefused(LobbyError):
    """A review that cannot be made: the HTTP status and a code that says why (``no-game``,
    ``not-finished``, ``not-turn-based``, ``no-seat``, ``bad-record``), with one line for people."""

    def __init__(self, message: str, status: int, code: str) -> None:
        super().__init__(message, status)
        self.code = code


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

    def __init__(self, workers: int = 1, budget: float = DEFAULT_BUDGET, keep: int = 256) -> None:
        self.workers = workers
        self.budget = budget
        self.keep = keep
        self._done: OrderedDict[tuple[int, int | None], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[int, int | None], asyncio.Future[dict[str, Any]]] = {}
        self._pool: concurrent.futures.Executor | None = None

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:  # started on first use: most servers never review a game
            if self.workers >= 1:
                # the review worker dies with the server, kill -9 included, as the bot workers do
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_die_with_parent,
                    initargs=(os.getpid(),))
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="spite-review")
        return self._pool

    async def review(self, game_id: int, record: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """The review of finished game ``game_id`` (its stored ``record``) for ``seat`` (``None``:
        every seat). Raises what :func:`spite.review.review_record` raises."""
        key = (game_id, seat)
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is None:
            loop = asyncio.get_running_loop()
            running = asyncio.ensure_future(loop.run_in_executor(self._executor(), review_json, record, seat,
                                                                 self.budget))
            self._running[key] = running
            running.add_done_callback(lambda _f: self._running.pop(key, None))
        try:
            result: dict[str, Any] = await asyncio.shield(running)
        except concurrent.futures.BrokenExecutor:
            self._pool = None  # the worker died (killed, out of memory): the next asking starts another
            raise LobbyError("the review worker stopped: ask again", 503) from None
        self._done[key] = result
        while len(self._done) > self.keep:
            self._done.popitem(last=False)
        return result

    def close(self) -> None:
        """Stop the worker (a review under way is abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
