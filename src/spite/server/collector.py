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
  to them; only cyclic garbage among them (the stack of a socket that closed with an exception) waits
  until everything is unfrozen again, every :data:`UNFREEZE_EVERY` seconds, when one full pass scans
  everything once.
* **Young passes as Python has them.** Raising the young threshold (700 net new objects) was
  measured and left out: the young passes came less often but each scanned what had piled up
  (10,000 objects: young passes of up to 70 ms, 130 ms for the middle generation, against 5-40 ms
  with the default, at 1,000 tables; docs/scaling.md).
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Any

__all__ = ["UNFREEZE_EVERY", "Collector"]

UNFREEZE_EVERY = 900.0
"""Seconds between two unfreezes: then one full pass scans everything, cyclic garbage among the
frozen objects included, and freezing starts again."""


class Collector:
    """The policy of the module's text for this process (:meth:`start` once, on the event loop)."""

    def __init__(self, unfreeze_every: float = UNFREEZE_EVERY) -> None:
        self.unfreeze_every = unfreeze_every
        self.freezes = 0
        self.unfreezes = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._since = time.monotonic()
        self._scheduled = False

    def start(self, loop: asyncio.AbstractEventLoop | None = None) -> Collector:
        """Freeze what start-up made, and freeze again after every full pass (on ``loop``: a full pass
        may run in any thread)."""
        self._loop = loop
        gc.collect()
        gc.freeze()
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
        if time.monotonic() - self._since >= self.unfreeze_every:
            self._since = time.monotonic()
            self.unfreezes += 1
            gc.unfreeze()
        else:
            self.freezes += 1
            gc.freeze()
