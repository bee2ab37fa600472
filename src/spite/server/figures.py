"""What a move's path and the database writer measure, in plain numbers (``spite serve --metrics-port``).

A counter is an ``int``, a histogram a list of bucket counts found by ``bisect``: no lock, no label
look-up, and nothing at all while metrics are off (one attribute check). :mod:`spite.server.metrics`
serves them (and what it reads when Prometheus asks); the store and the socket dispatch only count
here, so that they need nothing of the metrics server.
"""

from __future__ import annotations

import bisect
import gc
import time
from collections.abc import Sequence
from typing import Any

__all__ = ["FIGURES", "Figures", "Histogram"]

ACK_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
"""Seconds from a move's arrival to its acknowledgement (a human-pace move is acked in ~1-3 ms)."""

COMMIT_BUCKETS = (0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5, 1.0)
"""Seconds a group commit takes (SQLite without fsync: a fraction of a millisecond)."""

PAUSE_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0)
"""Seconds a pass of the cyclic garbage collector stops the event loop."""


class Histogram:
    """Bucket counts (each bucket counted alone; cumulated when read) and their sum."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value

    def cumulative(self) -> tuple[list[tuple[str, float]], float]:
        """The buckets as Prometheus has them (``le`` and the count up to it, ``+Inf`` last) and the sum."""
        counts = list(self.counts)  # one copy: the loop may add meanwhile
        out, total = [], 0
        for bound, n in zip((*self.bounds, float("inf")), counts, strict=True):
            total += n
            out.append(("+Inf" if bound == float("inf") else repr(bound), float(total)))
        return out, self.sum


class Figures:
    """What the move path and the writer measure, while :attr:`on`."""

    def __init__(self) -> None:
        self.on = False
        self.moves = 0
        self.ack = Histogram(ACK_BUCKETS)
        self.commit = Histogram(COMMIT_BUCKETS)
        self.pauses = [Histogram(PAUSE_BUCKETS) for _ in range(3)]
        self._began = 0.0

    def move_acked(self, seconds: float) -> None:
        self.moves += 1
        self.ack.observe(seconds)

    def start_gc_timing(self) -> None:
        """Time every pass of the collector (``gc.callbacks``), by generation."""
        if self._gc_pass not in gc.callbacks:
            gc.callbacks.append(self._gc_pass)

    def stop_gc_timing(self) -> None:
        if self._gc_pass in gc.callbacks:
            gc.callbacks.remove(self._gc_pass)

    def _gc_pass(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses[min(2, int(info.get("generation", 0)))].observe(time.perf_counter() - self._began)


FIGURES = Figures()
"""This process's figures (one server per process)."""
