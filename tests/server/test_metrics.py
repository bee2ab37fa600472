"""Metrics (docs/deploy.md, "Metrics"): ``/metrics`` in Prometheus's text format on a port of its own
(never on the public one), whose figures move as the play does; with ``--workers 2`` every worker's
figures on the one port, labelled by worker. Logs as JSON lines (``--log-format json``)."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Client, ServerProcess
from test_protocol import play_random

from ports import free_port
from waiting import wait_until

OPERATOR = "metrics-test-operator-token-000000"


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, labels) → value."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


@pytest.mark.slow
def test_metrics_move_as_the_play_does_on_a_port_of_their_own(tmp_path: Path) -> None:
    port = free_port()
    srv = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", None, "--bot-workers", "0", "--metrics-port", str(port),
                        "--limit", "rate=1000", "--limit", "burst=2000").start()
    try:
        before = scrape(port)
        assert value(before, "spite_moves_total") == 0
        assert value(before, "spite_tables", state="playing") == 0
        assert value(before, "spite_move_ack_seconds_count") == 0
        assert httpx.get(srv.base + "/metrics").status_code == 404  # the public site never shows it
        made = httpx.post(srv.base + "/api/tables", json={"preset": "short", "name": "ann",
                                                          "options": {"stock_size": 3}}).json()
        table = made["table"]["id"]
        joined = httpx.post(srv.base + f"/api/tables/{table}/join", json={"name": "bob"}).json()
        ann, bob = Client(srv.base, table), Client(srv.base, table)
        ann.hello(made["token"])
        bob.hello(joined["token"])
        during = scrape(port)
        assert value(during, "spite_seats_connected") == 2 and value(during, "spite_sockets") == 2
        assert value(during, "spite_tables", state="playing") == 1
        moves = play_random({0: ann, 1: bob}, random.Random(4), limit=12)
        after = scrape(port)
        assert value(after, "spite_moves_total") == moves > 0
        assert value(after, "spite_move_ack_seconds_count") == moves
        assert value(after, "spite_move_ack_seconds_bucket", le="+Inf") == moves
        assert 0 < value(after, "spite_move_ack_seconds_sum") < moves * 1.0
        assert value(after, "spite_db_commit_seconds_count") >= moves  # each move committed before its ack
        assert value(after, "spite_db_commits_total") >= moves
        assert ("spite_gc_pause_seconds_count", (("generation", "0"),)) in after
        assert value(after, "spite_seeks_waiting") == 0 and value(after, "spite_bot_queue") == 0
        ann.close()
        bob.close()
        wait_until(lambda: value(scrape(port), "spite_seats_connected") == 0,
                   "the seats no longer connected after their sockets closed")
    finally:
        srv.stop()


def test_logs_as_json_lines(tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 's.db'}", None, "--bot-workers", "0", "--log-format", "json",
                        "--log-level", "info")
    os.environ[OPERATOR_ENV] = OPERATOR
    try:
        srv.start()
    finally:
        del os.environ[OPERATOR_ENV]
    try:
        made = httpx.post(srv.base + "/api/tables", json={"preset": "short", "name": "ann"}).json()
        answer = httpx.post(srv.base + f"/api/admin/tables/{made['table']['id']}/close",
                            headers={"Authorization": f"Bearer {OPERATOR}", "X-Spite-Operator": "olga"})
        assert answer.status_code == 200, answer.text
    finally:
        srv.stop()
    lines = [json.loads(line) for line in srv.said().splitlines() if line.strip()]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    (closed,) = [line for line in lines if line.get("action") == "close"]
    assert closed["operator"] == "olga@127.0.0.1" and closed["logger"] == "spite.server.moderation"
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert any(line["method"] == "POST" and line["status"] == 200 for line in access)


OPERATOR_ENV = "SPITE_OPERATOR_TOKEN"
