"""A club's server on several workers (``spite serve --workers 2``, PostgreSQL, HAProxy): a ban made at
one worker is refused at once by the other (NOTIFY: the workers' own look at the audit is set to a
minute here, so only the notification can be that quick) and closes the banned player's socket
there; a table held by one worker is closed from the other; a rename at one shows at the other's
table; ``/metrics`` on one port has every worker's figures, labelled by worker. Needs PostgreSQL
(``SPITE_TEST_PG_URL``) and HAProxy, else skipped."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import Client, http_from
from test_workers import cluster, needs_cluster

from ports import free_port
from waiting import wait_until

TOKEN = "club-workers-operator-token-00000000"
AUTH = {"Authorization": f"Bearer {TOKEN}", "X-Spite-Operator": "olga"}


@pytest.mark.slow
@needs_cluster
def test_moderation_reaches_every_worker_at_once_and_metrics_show_each(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPITE_OPERATOR_TOKEN", TOKEN)
    metrics = free_port()
    with cluster(tmp_path, 2, "--metrics-port", str(metrics), "--limit", "moderation_poll=60") as c, \
            http_from("127.0.0.2") as ann:
        made = ann.post(c.direct(1) + "/api/tables", json={"preset": "short", "name": "ann"}).json()
        table = made["table"]["id"]
        ann_ws = Client(c.direct(1), table, "127.0.0.2")
        assert ann_ws.hello(made["token"])["seat"] == 0
        watcher = Client(c.direct(1), table)
        watcher.hello(spectate=True)
        # a rename at worker 0 shows at worker 1's table at once
        renamed = httpx.post(c.direct(0) + "/api/admin/rename", headers=AUTH,
                             json={"target": "ann", "name": "anna"}, timeout=30)
        assert renamed.status_code == 200, renamed.text
        told = watcher.until("table", timeout=3)
        assert told["event"]["kind"] == "renamed" and told["table"]["seats"][0]["player"] == "anna"
        # a ban at worker 0: worker 1 closes ann's socket and refuses her requests at once
        banned = httpx.post(c.direct(0) + "/api/admin/bans", headers=AUTH, json={"target": "127.0.0.2"},
                            timeout=30)
        assert banned.status_code == 200, banned.text
        assert ann_ws.until("error", timeout=3, code="banned")["words"]["key"] == "error.banned"
        wait_until(lambda: ann.get(c.direct(1) + "/api/tables").status_code == 403, "worker 1 refusing ann",
                   timeout=3)
        assert httpx.get(c.direct(1) + "/api/tables").status_code == 200  # 127.0.0.1 is not banned
        # lifted at worker 1: worker 0 lets her in at once
        lifted = httpx.delete(c.direct(1) + f"/api/admin/bans/{banned.json()['id']}", headers=AUTH, timeout=30)
        assert lifted.status_code == 200
        wait_until(lambda: ann.get(c.direct(0) + "/api/tables").status_code == 200, "worker 0 letting ann in",
                   timeout=3)
        # every worker's figures on the one metrics port: the open table is worker 1's
        text = httpx.get(f"http://127.0.0.1:{metrics}/metrics", timeout=10).text
        samples = [s for f in text_string_to_metric_families(text) for s in f.samples]
        assert {s.labels.get("worker") for s in samples if s.name == "spite_moves_total"} == {"0", "1"}
        assert [s.value for s in samples if s.name == "spite_workers_up"] == [2.0]
        open_tables = {s.labels["worker"]: s.value for s in samples
                       if s.name == "spite_tables" and s.labels["state"] == "open"}
        assert open_tables == {"0": 0.0, "1": 1.0}
        assert httpx.get(c.base + "/metrics").status_code == 404  # never through the public address
        # worker 1's table closed from worker 0
        assert httpx.post(c.direct(0) + f"/api/admin/tables/{table}/close", headers=AUTH,
                          timeout=30).status_code == 200
        told = watcher.until("table", timeout=3)
        for _ in range(10):  # (ann's socket, closed by the ban, was told first)
            if told["event"]["kind"] == "abandoned":
                break
            told = watcher.until("table", timeout=3)
        assert told["event"]["words"]["key"] == "event.abandoned.closed"
        for client in (ann_ws, watcher):
            client.close()
