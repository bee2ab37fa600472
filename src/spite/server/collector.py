"""How this process uses Python's cyclic garbage collector: a policy, set once at start-up.

A pass of the collector stops the event loop, and with it every table, for as long as it takes to
scan the objects of the generations it collects. A server with a thousand tables holds some 400,000
objects that live as long as their sockets (every WebSocket keeps a stack of about twenty ASGI
coroutines, its queues, buffers, futures and timers) and a few per table (the game's state); with the
collector's defaults, a full pass scanned all of them every few seconds and stopped every table for
0.1-0.3 s (docs/scaling.md, "Pauses"). The policy:

* **Freeze what is old.** After start-up (modules, the app) and after every full pass, the objects
  still alive are moved out of the collector's reach (``gc.freeze()``): they are the long-lived ones,
  so the next full pass scans only what came since, and a pass's length no longer grows with the
  number of tables. Frozen objects are still freed by reference counting the moment nothing refers
  to them; only cyclic garbage among them waits until everything is unfrozen again, when one full
  pass scans everything once (0.3-0.4 s at 1,000 tables): every :data:`UNFREEZE_EVERY` seconds,
  or sooner once the process takes :data:`UNFREEZE_GROWTH` times the memory it took after the last
  such pass. Measured, that garbage is small and does not come from moves: five objects of each TCP
  connection that closed (asyncio's transport keeps a bound method of itself: a cycle with its
  socket), about 1,500 in ten seconds of 300 tables whose games ended and were replaced by new ones
  (docs/scaling.md, "Pauses").
* **Young passes as Python has them.** Raising the young threshold (700 net new objects) was
  measured and left out: the young passes came less often but each scanned what had piled up
  (10,000 objects: young passes of up to 70 ms, 130 ms for the middle generation, against 5-40 ms
  with the default, at 1,000 tables; docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import gc
import os
import time
from collections.abc import Callable
from typing import Any

__all__ = ["UNFREEZE_EVERY", "Collector"]

UNFREEZE_EVERY = 1800.0
"""Seconds between two unfreezes: then one full pass scans everything, cyclic garbage among the
frozen objects included, and freezing starts again."""

UNFREEZE_GROWTH = 3.0
"""Unfreeze sooner when the process's memory has grown this many times since the last full scan (a
flood of connections leaves garbage: it must not pile up for half an hour). Not 2: a server whose
tables came in a rush (or whose games grow long) would then scan everything again every few minutes.
Memory, not the number of frozen objects: ``gc.get_freeze_count()`` walks them all (76 ms at 600,000),
while the resident size is one small read."""

_SMALLEST = 256 * 2**20
"""Below this resident size (bytes) growth does not count (start-up alone takes about 100 MiB)."""


def resident_bytes() -> int:
    """This process's resident memory (Linux ``/proc``; elsewhere its peak so far)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        import resource

        return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024


try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):
    _PAGE = 4096


class Collector:
    """The policy of the module's text for this process (:meth:`start` once, on the event loop)."""

    def __init__(self, unfreeze_every: float = UNFREEZE_EVERY, memory: Callable[[], int] = resident_bytes) -> None:
        self.memory = memory
        self.unfreeze_every = unfreeze_every
        self.freezes = 0
        self.unfreezes = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._since = time.monotonic()
        self._base = 0
        """The resident size after the last full scan (at the first freeze after an unfreeze)."""
        self._scheduled = False

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> Collector:
        """Freeze what start-up made, and freeze again after every full pass (on ``loop``: a full pass
        may run in any thread)."""
        self._loop = loop
        gc.collect()
        gc.freeze()
        self._base = self.memory()
        gc.callbacks.append(self._after_pass)
        return self

    def stop(self) -> None:
        if self._after_pass in gc.callbacks:
            gc.callbacks.remove(self._after_pass)

    def _after_pass(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2 or self._scheduled:
            return
        self._scheduled = True
        loop = self._loop
        if loop is None:
            self.freeze()
        else:
            try:
                loop.call_soon_threadsafe(self.freeze)
            except RuntimeError:  # the loop is closed: the process is ending
                self._scheduled = False

    def freeze(self) -> None:
        """After a full pass: freeze its survivors, or (every :attr:`unfreeze_every` seconds) unfreeze
        everything so that the next full pass scans it all once."""
        self._scheduled = False
        gc.freeze()
        size = self.memory()
        if not self._base:  # the pass just over scanned everything: what it left is the measure
            self._base = size
            self.freezes += 1
            return
        grown = size > max(_SMALLEST, UNFREEZE_GROWTH * self._base)
        if time.monotonic() - self._since >= self.unfreeze_every or grown:
            self._since = time.monotonic()
            self._base = 0
            self.unfreezes += 1
            gc.unfreeze()
        else:
            self.freezes += 1
