"""Club tournaments on several workers (``spite serve --workers 2``, PostgreSQL, HAProxy): a whole Swiss
and a whole arena of computers play to the end through the one address; a long poll held at one
worker is answered at once when another changes the tournament (NOTIFY, well inside the workers'
one-second pass); a worker killed with ``kill -9`` in the middle of a round leaves nothing paired
twice and nothing lost: the other worker takes its tables when their leases run out and the
tournament goes on to its end. Needs PostgreSQL (``SPITE_TEST_PG_URL``) and HAProxy, else skipped."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from prometheus_client.parser import text_string_to_metric_families
from test_tournaments import PERSON, check_swiss, computers, create, start, until_finished
from test_workers import cluster, needs_cluster

from ports import free_port
from spite.server import db
from waiting import wait_until

FAST = ("--bot-delay", "0", "--limit", "tournament_time_scale=0.05")


def tables_of(url: str, tid: str) -> list[tuple[int, int]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            tt = db.tournament_tables
            return [(r.pairing, r.game) for r in c.execute(sa.select(tt.c.pairing, tt.c.game)
                                                           .where(tt.c.tournament_id == tid))]
    finally:
        engine.dispose()


@pytest.mark.slow
@pytest.mark.timeout(180)
@needs_cluster
def test_a_swiss_and_an_arena_on_two_workers(tmp_path: Path) -> None:
    with cluster(tmp_path, 2, *FAST) as c:
        swiss = create(c.base, rounds=2)["id"]
        computers(c.base, swiss, 6)
        arena = create(c.base, "arena", minutes=2)["id"]  # 6 s
        computers(c.base, arena, 5)
        start(c.base, swiss)
        start(c.base, arena)
        info = until_finished(c.base, swiss, timeout=120)
        check_swiss(info, 6, 2)
        made = tables_of(c.db_url, swiss)
        assert len(made) == len(set(made)) == 2 * 3 * 2
        done = until_finished(c.base, arena, timeout=60)
        assert len([p for r in done["rounds"] for p in r["pairings"]]) >= 3


def polls_waiting(port: int) -> dict[str, float]:
    """Each worker's long polls waiting now, from the one metrics port."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {s.labels["worker"]: s.value for f in text_string_to_metric_families(text) for s in f.samples
            if s.name == "spite_long_polls" and s.labels["kind"] == "tournament"}


@pytest.mark.slow
@pytest.mark.timeout(120)
@needs_cluster
def test_a_long_poll_at_one_worker_hears_of_a_join_at_the_other(tmp_path: Path) -> None:
    metrics = free_port()
    with cluster(tmp_path, 2, *FAST, "--metrics-port", str(metrics)) as c:
        tid = create(c.direct(0), rounds=1)["id"]
        version = httpx.get(f"{c.direct(0)}/api/tournaments/{tid}").json()["version"]
        answered: dict[str, Any] = {}

        def poll() -> None:
            r = httpx.get(f"{c.direct(0)}/api/tournaments/{tid}", params={"since": version, "wait": 20}, timeout=30)
            answered.update(r.json(), at=time.monotonic())

        waiter = threading.Thread(target=poll)
        waiter.start()
        # the poll is held at worker 0 (nothing but a change wakes it: the tournament is open)
        wait_until(lambda: polls_waiting(metrics).get("0") == 1, "the long poll held at worker 0", timeout=10)
        r = httpx.post(f"{c.direct(1)}/api/tournaments/{tid}/join", json={"playerKey": PERSON, "name": "bob"})
        assert r.status_code == 200, r.text
        joined = time.monotonic()
        waiter.join(25)
        assert answered["version"] > version and [e["name"] for e in answered["entrants"]] == ["bob"]
        assert answered["at"] - joined < 2.0, "the long poll at the other worker was not woken by the change"


@pytest.mark.slow
@pytest.mark.timeout(180)
@needs_cluster
def test_a_worker_killed_mid_round_loses_nothing_and_pairs_nothing_twice(tmp_path: Path) -> None:
    with cluster(tmp_path, 2, "--bot-delay", "0.02", "--limit", "tournament_time_scale=0.05") as c:
        tid = create(c.base, rounds=2)["id"]
        computers(c.base, tid, 4)
        start(c.base, tid)
        wait_until(lambda: len(tables_of(c.db_url, tid)) >= 2, "round 1's tables", timeout=20)
        before = httpx.get(f"{c.base}/api/tournaments/{tid}").json()
        assert before["state"] == "playing" and before["round"] == 1
        pid = c.workers[0][0]
        os.kill(pid, signal.SIGKILL)  # mid-round: its tables and its part of the directing die with it
        info = until_finished(c.base, tid, timeout=120)
        check_swiss(info, 4, 2)
        made = tables_of(c.db_url, tid)
        assert len(made) == len(set(made)) == 2 * 2 * 2, made
        assert [p["entrants"] for p in info["rounds"][0]["pairings"]] == \
            [p["entrants"] for p in before["rounds"][0]["pairings"]]
