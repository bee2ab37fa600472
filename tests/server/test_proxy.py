"""``spite serve --proxy``: one server process behind HAProxy, whose per-address backstops refuse
floods of requests and connections before they reach the server. Needs Debian's ``haproxy``, else
skipped saying so."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_helpers import Client

from ports import free_port, listens
from spite.bench.server import stop_process
from spite.server.cluster import find_haproxy
from waiting import wait_until

pytestmark = pytest.mark.skipif(find_haproxy() is None, reason="HAProxy is not installed (apt-get install "
                                "haproxy): the proxy tests are skipped")

CLI = [sys.executable, "-c", "from spite.cli import main; main()"]


def client_from(address: str) -> httpx.Client:
    """An HTTP client whose requests come from ``address`` (a loopback address of its own)."""
    return httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=10)


@contextlib.contextmanager
def proxied(tmp_path: Path, *limits: str) -> Iterator[str]:
    """``spite serve --proxy`` on SQLite with ``limits`` (NAME=VALUE); yields its base URL."""
    port = free_port()
    log = tmp_path / "serve.log"
    args = [a for limit in limits for a in ("--limit", limit)]
    with open(log, "wb") as out:
        proc = subprocess.Popen([*CLI, "serve", "--proxy", "--db", f"sqlite:///{tmp_path / 'p.db'}", "--port",
                                 str(port), "--log-level", "warning", "--bot-workers", "0", *args],
                                stdout=subprocess.DEVNULL, stderr=out)
    try:
        # HAProxy, started by the server, holds the port (the server's own check is a connection, which
        # another test's server on a port chosen free would answer too)
        wait_until(lambda: proc.poll() is not None or ("behind HAProxy" in log.read_text() and listens(proc.pid, port)),
                   lambda: f"the proxied server's start: {log.read_text()[-2000:]}", timeout=60, every=0.2)
        assert proc.poll() is None, log.read_text()[-2000:]
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(proc, 30)


@pytest.mark.slow
def test_the_proxy_refuses_floods_by_address_and_the_server_sees_each_address(tmp_path: Path) -> None:
    with proxied(tmp_path, "proxy_requests=40", "proxy_connections=8", "write_burst=2", "write_rate=0.01") as base:
        # a request flood: the proxy answers 429 once the address has made 40 requests in 10 s
        with client_from("127.0.0.5") as flooder:
            answers = [flooder.get(base + "/healthz") for _ in range(45)]
        assert [a.status_code for a in answers[:40]] == [200] * 40
        refused = answers[-1]
        assert refused.status_code == 429 and refused.headers["retry-after"] == "10"
        assert refused.json()["code"] == "rate-limited"
        with client_from("127.0.0.6") as other:  # another address is not held up
            assert other.get(base + "/healthz").status_code == 200
        # a connection flood: more than 8 connections at once from one address are closed as they connect
        socks = []
        for _ in range(12):
            s = socket.socket()
            s.bind(("127.0.0.7", 0))
            s.connect(("127.0.0.1", int(base.rsplit(":", 1)[1])))
            socks.append(s)
        answered = 0
        for s in socks:
            s.settimeout(2)
            with contextlib.suppress(OSError):
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: spite\r\n\r\n")
                answered += s.recv(64).startswith(b"HTTP/1.1 200")
            s.close()
        assert answered == 8
        # behind the proxy the server still keeps each address's own budget (the forwarded address):
        # two tables from 127.0.0.8, its third refused by the server; 127.0.0.9 still creates one
        with client_from("127.0.0.8") as ann:
            made = [ann.post(base + "/api/tables", json={"preset": "short", "name": "ann"}) for _ in range(3)]
        assert [m.status_code for m in made] == [200, 200, 429]
        assert "code" not in made[2].json()  # the server's answer, not the proxy's
        with client_from("127.0.0.9") as bob:
            mine = bob.post(base + "/api/tables", json={"preset": "short", "name": "bob"})
            assert mine.status_code == 200
        # and a game is played through it: a WebSocket through the proxy
        table = mine.json()
        seat = Client(base, table["table"]["id"])
        assert seat.hello(table["token"])["seat"] == 0
        seat.close()
