"""A server asked to stop (SIGTERM: a restart, a rolling upgrade) answers the long polls under way at
once, as things stand, and is gone within seconds: uvicorn waits for the requests under way before
it stops, and a seek's or a tournament's poll would hold the restart for up to its whole wait."""

from __future__ import annotations

import secrets
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from server_helpers import ServerProcess, http_from

from ports import free_port
from spite.games import game_names
from waiting import wait_until

WAIT = 25
"""The polls' wait (s): the longest the server grants, far longer than a stop may take."""


def polls_waiting(port: int) -> dict[str, float]:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    return {s.labels["kind"]: s.value for f in text_string_to_metric_families(text) for s in f.samples
            if s.name == "spite_long_polls"}


def test_sigterm_answers_the_long_polls_at_once_and_the_server_is_gone_in_seconds(tmp_path: Path) -> None:
    metrics = free_port()
    server = ServerProcess(f"sqlite:///{tmp_path / 'spite.db'}", None, "--bot-workers", "0",
                           "--metrics-port", str(metrics)).start()
    try:
        game = game_names()[0]
        made = httpx.post(f"{server.base}/api/tournaments", json={
            "game": game, "system": "swiss", "rounds": 1, "playerKey": secrets.token_urlsafe(24), "name": "ann"})
        assert made.status_code == 200, made.text
        tournament = made.json()
        with http_from("127.0.0.2") as other:
            seek = other.post(f"{server.base}/api/seeks", json={"game": game, "name": "bob",
                                                                 "playerKey": secrets.token_urlsafe(24)})
        assert seek.status_code == 200, seek.text
        answers: dict[str, tuple[int, dict[str, Any], float]] = {}

        def poll(kind: str, url: str, params: dict[str, Any]) -> None:
            r = httpx.get(url, params={**params, "wait": WAIT}, timeout=WAIT + 10)
            answers[kind] = (r.status_code, r.json(), time.monotonic())
            assert r.status_code == 200, r.text  # (said in the thread; the main thread checks the answers)

        polls = [threading.Thread(target=poll, args=("tournament", f"{server.base}/api/tournaments/{tournament['id']}",
                                                     {"since": tournament["version"]})),
                 threading.Thread(target=poll, args=("seek", f"{server.base}/api/seeks/{seek.json()['id']}", {}))]
        for thread in polls:
            thread.start()
        wait_until(lambda: polls_waiting(metrics) == {"seek": 1, "tournament": 1}, "both polls held")
        assert server.proc is not None
        asked = time.monotonic()
        server.proc.terminate()
        for thread in polls:
            thread.join(10)
        assert set(answers) == {"tournament", "seek"}, f"polls not answered within 10 s of SIGTERM: {answers}"
        for kind, (status, _body, at) in answers.items():
            assert status == 200 and at - asked < 5, (kind, status, round(at - asked, 1))
        assert answers["tournament"][1]["version"] == tournament["version"]  # as things stand: nothing changed
        assert answers["seek"][1]["state"] == "waiting"
        server.proc.wait(15)
        assert time.monotonic() - asked < 8, "the server took its time to stop"
    finally:
        server.stop()
