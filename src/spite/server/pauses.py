"""The garbage collector's pauses, as a diagnostic: installed only when ``SPITE_GC_PROBE`` is set
(``spite bench server`` sets it for the processes it measures), reported by ``/healthz``.

A full pass of Python's cyclic collector stops the event loop, and with it every table, for as long
as it takes to scan the objects that outlived the young passes (docs/scaling.md, "Pauses"). This
probe times each pass with ``gc.callbacks`` and keeps the long ones with their wall-clock time, so
that a bench can tell the server's own pauses within its measured window from everything else.
"""

from __future__ import annotations

import gc
import os
import time
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["ENV", "GcPauses", "installed_probe"]

ENV = "SPITE_GC_PROBE"
"""Set (to anything but empty) to time the collector's passes in this process."""

KEPT_FROM_MS = 1.0
"""Passes at least this long are kept one by one (with when they happened); shorter ones only counted."""


class GcPauses:
    """Every collector pass of this process timed: counts and total time per generation, and the
    passes of at least :data:`KEPT_FROM_MS` (the newest 2,000) with their end on ``clock`` (the wall
    clock by default: another process reads them) and the CPU time they took (on a busy machine a pass
    may also wait for a CPU in the middle: its length in time is then longer than its work)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.passes = [0, 0, 0]
        self.total_ms = [0.0, 0.0, 0.0]
        self.longest_ms = 0.0
        self.long: deque[tuple[float, float, int, float]] = deque(maxlen=2000)
        self._began = 0.0
        self._began_cpu = 0.0

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began, self._began_cpu = time.perf_counter(), time.thread_time()
            return
        ms = (time.perf_counter() - self._began) * 1000
        cpu_ms = (time.thread_time() - self._began_cpu) * 1000  # the pass itself, without the time it waited for a CPU
        generation = int(info.get("generation", 0))
        self.passes[generation] += 1
        self.total_ms[generation] += ms
        self.longest_ms = max(self.longest_ms, ms)
        if ms >= KEPT_FROM_MS:
            self.long.append((self.clock(), ms, generation, cpu_ms))

    def install(self) -> GcPauses:
        gc.callbacks.append(self._callback)
        return self

    def remove(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def figures(self) -> dict[str, Any]:
        """What ``/healthz`` shows: ``long`` as ``[wall-clock end, ms, generation, CPU ms]`` rows."""
        import threading

        # which thread is which (native ids, as /proc/PID/task names them): a bench splits the CPU by it
        threads = {str(t.native_id): t.name.split("_")[0] for t in threading.enumerate() if t.native_id is not None}
        return {"threads": threads, "passes": list(self.passes), "totalMs": [round(t, 1) for t in self.total_ms],
                "longestMs": round(self.longest_ms, 2),
                "long": [[round(t, 3), round(ms, 2), g, round(cpu, 2)] for t, ms, g, cpu in self.long]}


_probe: GcPauses | None = None


def installed_probe() -> GcPauses | None:
    """This process's probe, installed at the first call if ``SPITE_GC_PROBE`` is set; else ``None``."""
    global _probe
    if _probe is None and os.environ.get(ENV):
        _probe = GcPauses().install()
    return _probe
