"""Loops that end: waiting for something another thread, process or server does (a condition polled
with a deadline), and loops that must reach something within a number of steps.

:func:`wait_until` is the tests' one way to wait for a condition in real time (a server started, a
game finished, a process gone): a fixed sleep would be too short on a busy machine and too long on
an idle one. :func:`bounded` is the one way to loop until a game (or a conversation) gets somewhere:
a loop without a bound would run until the suite's timeout, or without end, instead of failing with
its reason. Timing rules themselves (a turn clock, a grace time) are tested on a fake clock
(tests/server/table_harness.py), not here.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

T = TypeVar("T")

EVERY = 0.02
"""How often a condition is looked at (s): often enough that a wait ends about when its condition holds."""


def wait_until(condition: Callable[[], T], what: str | Callable[[], str], timeout: float = 10.0,
               every: float = EVERY) -> T:
    """Call ``condition`` until it returns something true, and return that. After ``timeout`` seconds
    fail with ``what`` (what was waited for; a function to say it with what was seen last) and the
    condition's last answer."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(_late(what, timeout, value))
        time.sleep(every)  # the poll's interval, not a wait for the condition


async def wait_until_async(condition: Callable[[], T | Awaitable[T]], what: str | Callable[[], str],
                           timeout: float = 10.0, every: float = EVERY) -> T:
    """:func:`wait_until` in an event loop: ``condition`` may be a coroutine function, and the loop runs
    on between looks."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if isinstance(value, Awaitable):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() >= deadline:
            raise AssertionError(_late(what, timeout, value))
        await asyncio.sleep(every)


def _late(what: str | Callable[[], str], timeout: float, value: object) -> str:
    return f"{what if isinstance(what, str) else what()}: not within {timeout:g} s (last seen: {value!r})"


def bounded(most: int, what: str, until: Callable[[], object] | None = None) -> Iterator[int]:
    """The steps of a loop that must get somewhere within ``most`` steps: ``for _ in bounded(5000,
    "the game's end", until=lambda: state.is_over):`` runs its body while ``until()`` is false (or
    until the body breaks out) and fails with ``what`` when it still is after ``most`` steps."""
    for step in range(most):
        if until is not None and until():
            return
        yield step
    if until is None or not until():
        raise AssertionError(f"{what}: not within {most} steps")
