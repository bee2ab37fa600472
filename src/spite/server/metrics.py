"""Metrics for Prometheus (``spite serve --metrics-port PORT``; docs/deploy.md, "Metrics").

Served in Prometheus's text format by the official client library (``prometheus_client``) on a
loopback port of its own, never on the public one. What is measured on a move's path is kept in plain
numbers here (:data:`FIGURES`: a counter is an ``int``, a histogram a list of bucket counts found by
``bisect``): no lock, no label look-up, and nothing at all while metrics are off (one attribute
check). Everything else (tables by state, seats connected, seeks waiting, the bot and review queues)
is read when Prometheus asks, by a collector (:class:`ServerCollector`) in the metrics server's
thread.

With ``--workers N`` each worker serves its own figures on a loopback port the supervisor gives it,
and the supervisor serves ``--metrics-port``: on each scrape it reads every worker's figures and
gives them together, each series labelled ``worker="I"`` (:class:`WorkersCollector`). One port
for Prometheus, figures per worker, and no shared files on the move path (the client library's
multiprocess mode writes a memory-mapped file under a lock for every update).
"""

from __future__ import annotations

import contextlib
import logging
import time
import urllib.request
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from spite.server.figures import FIGURES, Figures, Histogram

if TYPE_CHECKING:
    from spite.server.collector import Collector
    from spite.server.manager import Manager
    from spite.server.review import ReviewRunner

__all__ = ["FIGURES", "Figures", "Histogram", "ServerCollector", "WorkersCollector", "serve_metrics",
           "serve_workers_metrics"]

log = logging.getLogger("spite.server.metrics")

class ServerCollector:
    """The figures of one server process, read when Prometheus asks (in the metrics thread: what the
    event loop changes meanwhile is read from copies, never iterated in place)."""

    def __init__(self, manager: Manager, collector: Collector | None = None, reviews: ReviewRunner | None = None
                 ) -> None:
        self.manager = manager
        self.collector = collector
        self.reviews = reviews
        self._seeks: tuple[float, int] = (0.0, 0)

    def describe(self) -> list[Any]:
        return []  # no families up front: everything is read at collection

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

        manager = self.manager
        tables = list(manager.lobby.tables.values())
        by_state = GaugeMetricFamily("spite_tables", "Tables this process holds, by state.", labels=["state"])
        counts = {"open": 0, "playing": 0, "finished": 0, "abandoned": 0}
        seats = sockets = 0
        for table in tables:
            counts[table.status] = counts.get(table.status, 0) + 1
            sockets += len(table.conns)
            seats += sum(1 for s in list(table.seats) if s.controller == "person" and s.conns)
        for state, n in counts.items():
            by_state.add_metric([state], n)
        yield by_state
        yield GaugeMetricFamily("spite_seats_connected", "Person seats with at least one open socket.", value=seats)
        yield GaugeMetricFamily("spite_sockets", "Open WebSockets at this process's tables.", value=sockets)
        yield CounterMetricFamily("spite_moves", "Moves played at this process's tables (rate(): moves a second).",
                                  value=manager.moves_played)
        for name, text, hist in (
                ("spite_move_ack_seconds", "From a move's arrival to its acknowledgement (after its commit).",
                 FIGURES.ack),
                ("spite_db_commit_seconds", "A group commit of the database writer.", FIGURES.commit)):
            buckets, total = hist.cumulative()
            yield HistogramMetricFamily(name, text, buckets=buckets, sum_value=total)
        pauses = HistogramMetricFamily("spite_gc_pause_seconds", "Passes of Python's cyclic garbage collector "
                                       "(each stops the event loop), by generation.", labels=["generation"])
        for generation, hist in enumerate(FIGURES.pauses):
            buckets, total = hist.cumulative()
            pauses.add_metric([str(generation)], buckets, total)
        yield pauses
        if self.collector is not None:
            yield CounterMetricFamily("spite_gc_freezes", "Full passes after which the survivors were frozen.",
                                      value=self.collector.freezes)
            yield CounterMetricFamily("spite_gc_unfreezes", "Times everything was unfrozen for one full scan.",
                                      value=self.collector.unfreezes)
        yield CounterMetricFamily("spite_db_commits", "Group commits of the database writer.",
                                  value=manager.store.commits)
        yield GaugeMetricFamily("spite_seeks_waiting", "Seeks (play a person) waiting to be paired.",
                                value=self._seeks_waiting())
        yield GaugeMetricFamily("spite_bot_queue", "Bot moves waiting for a bot worker.", value=self._bot_queue())
        polls = GaugeMetricFamily("spite_long_polls", "Requests waiting for a change (long polls), by what they "
                                  "wait for.", labels=["kind"])
        polls.add_metric(["seek"], manager.seeks.changes.listening)
        polls.add_metric(["tournament"], manager.tournaments.changes.listening)
        yield polls
        yield GaugeMetricFamily("spite_review_queue", "Game reviews waiting or being made.",
                                value=len(self.reviews._running) if self.reviews is not None else 0)
        yield CounterMetricFamily("spite_bot_decisions", "Moves bots decided.", value=manager.bots.decisions)
        if manager.keeper is not None:
            yield CounterMetricFamily("spite_takeovers", "Tables taken over from a worker that died.",
                                      value=manager.keeper.takeovers)
            yield CounterMetricFamily("spite_handovers", "Tables handed to the worker that asked for them.",
                                      value=manager.keeper.handovers)

    def _bot_queue(self) -> int:
        for _ in range(5):  # the loop may change the queues while they are counted: count again
            with contextlib.suppress(RuntimeError):
                return int(self.manager.bots.waiting())
        return 0

    def _seeks_waiting(self) -> int:
        seeks = self.manager.seeks
        if seeks.engine is None:
            return sum(1 for s in list(seeks.memory.seeks.values()) if s.status in ("waiting", "pairing"))
        at, n = self._seeks
        if time.monotonic() - at < 1.0:
            return n
        import sqlalchemy as sa

        from spite.server import db

        try:
            with seeks.engine.connect() as conn:
                n = int(conn.execute(sa.select(sa.func.count()).select_from(db.seeks)
                                     .where(db.seeks.c.status == "waiting")).scalar() or 0)
        except Exception as exc:
            log.warning("counting the seeks failed: %s", exc)
        self._seeks = (time.monotonic(), n)
        return n


def serve_metrics(port: int, manager: Manager, collector: Collector | None = None,
                  reviews: ReviewRunner | None = None, host: str = "127.0.0.1") -> Any:
    """Serve this process's figures on ``host:port`` (a thread); returns the HTTP server (``shutdown()``)."""
    from prometheus_client import CollectorRegistry, start_http_server

    registry = CollectorRegistry(auto_describe=False)
    registry.register(ServerCollector(manager, collector, reviews))
    FIGURES.on = True
    FIGURES.start_gc_timing()
    try:
        server, _thread = start_http_server(port, addr=host, registry=registry)
    except OSError as exc:
        FIGURES.on = False
        FIGURES.stop_gc_timing()
        raise RuntimeError(f"cannot serve metrics on {host}:{port}: {exc.strerror or exc}") from None
    log.info("metrics on http://%s:%d/metrics", host, port)
    return server


class WorkersCollector:
    """The figures of every worker of ``spite serve --workers N``, each series labelled with its worker."""

    def __init__(self, ports: Sequence[int], timeout: float = 5.0) -> None:
        self.ports = list(ports)
        self.timeout = timeout

    def describe(self) -> list[Any]:
        return []

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import Metric
        from prometheus_client.parser import text_string_to_metric_families

        families: dict[str, Any] = {}
        for i, port in enumerate(self.ports):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=self.timeout) as answer:
                    text = answer.read().decode()
            except OSError:  # a worker restarting: its figures are missing from this scrape
                continue
            for family in text_string_to_metric_families(text):
                merged = families.get(family.name)
                if merged is None:
                    merged = families[family.name] = Metric(family.name, family.documentation, family.type,
                                                            family.unit)
                for sample in family.samples:
                    merged.samples.append(sample._replace(labels={**sample.labels, "worker": str(i)}))
        up = Metric("spite_workers_up", "Workers whose figures this scrape has.", "gauge")
        yield from families.values()
        up.add_sample("spite_workers_up", {}, float(len({s.labels["worker"] for f in families.values()
                                                        for s in f.samples})))
        yield up


def serve_workers_metrics(port: int, worker_ports: Sequence[int], host: str = "127.0.0.1") -> Any:
    """Serve every worker's figures together on ``host:port`` (the supervisor's; a thread)."""
    from prometheus_client import CollectorRegistry, start_http_server

    registry = CollectorRegistry(auto_describe=False)
    registry.register(WorkersCollector(worker_ports))
    server, _thread = start_http_server(port, addr=host, registry=registry)
    return server
