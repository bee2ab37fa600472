"""Bots inside the server: thinking happens off the event loop, within a time budget.

:class:`BotRunner` asks a bot for a seat's move given only that seat's
:class:`~spite.malice.SeatView`. With ``workers >= 1`` the bots run in that many worker processes
(so a bot that thinks for a second stalls no other table, not even through the GIL); each table is
pinned to one worker, so a bot keeps its plan between the moves of a turn. With ``workers == 0``
they run in a thread of the server process (tests).

If a bot fails or overruns its budget by far, the runner plays the first legal move and logs it:
a table never waits forever on a bot.

:meth:`BotRunner.hint` asks a fresh bot, on the same workers, what it would play for a person's seat
(``hint`` messages): it too sees only that seat's view.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import random
import time
import zlib
from collections import OrderedDict
from typing import Any

from spite.bots import LEVELS, Bot, make_bot
from spite.errors import Phrase
from spite.malice import SeatView
from spite.malice.moves import parse_move

__all__ = ["BotRunner", "bot_spec"]

log = logging.getLogger("spite.server.bots")

_FIELDS = (
    "opts", "seat", "to_move", "turn", "result", "hand", "hand_sizes", "stock_sizes", "stock_tops", "builds",
    "discards", "draw_size", "set_aside_size", "played_this_turn", "idle_turns",
)

_CACHE: OrderedDict[tuple[str, int, str], Bot] = OrderedDict()
_CACHE_SIZE = 4096


def bot_spec(level: str, budget: float) -> str:
    """The bot spec of a level, with search budgets capped at ``budget`` seconds."""
    if level == "random":
        return "random"
    spec = LEVELS.get(level, level)
    name, _, arg = spec.partition(":")
    if name == "search":
        try:
            seconds = float(arg) if arg else 1.0
        except ValueError:
            seconds = 1.0
        return f"search:{min(seconds, budget):g}"
    return spec


def _pack(view: SeatView) -> tuple[dict[str, Any], list[str]]:
    """A view as picklable fields and legal move texts (a SeatView refuses attribute writes)."""
    return {name: getattr(view, name) for name in _FIELDS}, [m.text for m in view.legal_moves]


def _unpack(fields: dict[str, Any], legal: list[str]) -> SeatView:
    skipbo = fields["opts"].skipbo
    return SeatView(**fields, moves=tuple(parse_move(t, skipbo=skipbo) for t in legal))


def _bot(key: tuple[str, int, str], spec: str, view: SeatView) -> Bot:
    bot = _CACHE.get(key)
    if bot is None:
        bot = make_bot(spec)
        assert view.seat is not None
        bot.start_game(view.opts, view.seat)
        _CACHE[key] = bot
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return bot


def decide(key: tuple[str, int, str], spec: str, fields: dict[str, Any], legal: list[str], rng_seed: str,
           budget: float) -> tuple[str, str, float]:
    """Worker side: the move text a bot plays, its reason, and the seconds it took."""
    t0 = time.perf_counter()
    view = _unpack(fields, legal)
    # the spec carries the level's own budget (capped by the server's); ``budget`` is the cap
    decision = _bot(key, spec, view).decide(view, random.Random(rng_seed), None)
    del budget
    return decision.move.text, decision.why, time.perf_counter() - t0


def hint(spec: str, fields: dict[str, Any], legal: list[str], rng_seed: str) -> tuple[str, str, list[Phrase]]:
    """Worker side: what a fresh bot of ``spec`` would play in the view, and why (one line, and as
    catalogue phrases)."""
    view = _unpack(fields, legal)
    bot = make_bot(spec)
    try:
        assert view.seat is not None
        bot.start_game(view.opts, view.seat)
        decision = bot.decide(view, random.Random(rng_seed), None)
    finally:
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    why = " ".join(decision.why.split()) or "the bot's choice"
    phrases = list(decision.why_phrases) or ([] if decision.why.strip() else [Phrase("hint.bots-choice")])
    return decision.move.text, why, phrases


def forget(table_id: str) -> None:
    """Worker side: drop a finished table's bots."""
    for key in [k for k in _CACHE if k[0] == table_id]:
        del _CACHE[key]


def _warm() -> None:
    from spite.bots import _load_builtin

    _load_builtin()


class BotRunner:
    """Runs bot decisions for every table of the server."""

    def __init__(self, workers: int = 1, budget: float = 1.0) -> None:
        self.workers = workers
        self.budget = budget
        self._pools: list[concurrent.futures.ProcessPoolExecutor] = []
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self.decisions = 0
        self.fallbacks = 0

    def start(self) -> None:
        """Start the worker processes (spawned: a fork of a running event loop is unsafe)."""
        ctx = multiprocessing.get_context("spawn")
        for _ in range(self.workers):
            pool = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=ctx, initializer=_warm)
            self._pools.append(pool)
        if not self._pools:
            self._thread = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="spite-bot")
        log.info("bots run in %s", f"{self.workers} worker process(es)" if self._pools else "a thread pool")

    def close(self) -> None:
        """Stop the workers (running decisions are abandoned)."""
        for pool in self._pools:
            pool.shutdown(wait=False, cancel_futures=True)
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)

    def _executor(self, table_id: str) -> concurrent.futures.Executor:
        if self._pools:
            return self._pools[zlib.crc32(table_id.encode()) % len(self._pools)]
        assert self._thread is not None
        return self._thread

    async def decide(self, table_id: str, level: str, view: SeatView, rng_seed: str) -> tuple[str, bool]:
        """The move text the bot of ``level`` plays in ``view``; ``True`` with it if it was a fallback."""
        assert view.seat is not None and view.legal_moves
        spec = bot_spec(level, self.budget)
        fields, legal = _pack(view)
        key = (table_id, view.seat, spec)
        loop = asyncio.get_running_loop()
        limit = 3 * self.budget + 5.0
        try:
            fut = loop.run_in_executor(self._executor(table_id), decide, key, spec, fields, legal, rng_seed,
                                       self.budget)
            text, _why, seconds = await asyncio.wait_for(fut, limit)
        except Exception as exc:
            self.fallbacks += 1
            detail = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
            log.warning("table %s: bot %s for seat %s failed (%s); playing %s", table_id, level, view.seat,
                        exc.__class__.__name__ + (f": {detail}" if detail else ""), legal[0])
            return legal[0], True
        self.decisions += 1
        if seconds > self.budget * 1.5 + 0.2:
            log.info("table %s: bot %s took %.2f s (budget %.2f s)", table_id, level, seconds, self.budget)
        return text, False

    async def hint(self, table_id: str, level: str, view: SeatView, rng_seed: str,
                   budget: float = 0.3) -> tuple[str, str, list[Phrase]]:
        """What a bot of ``level`` would play in ``view`` (a person's seat to move) and why, thought
        out in the table's worker within ``budget`` seconds (capped by the runner's). Raises
        :class:`TimeoutError` or the bot's error when there is no answer."""
        assert view.seat is not None and view.legal_moves
        spec = bot_spec(level, min(budget, self.budget))
        fields, legal = _pack(view)
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self._executor(table_id), hint, spec, fields, legal, rng_seed)
        return await asyncio.wait_for(fut, 3 * budget + 5.0)

    def forget(self, table_id: str) -> None:
        """Drop a table's bots from their worker."""
        with contextlib.suppress(RuntimeError):
            self._executor(table_id).submit(forget, table_id)
