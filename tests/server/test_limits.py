"""The limits of docs/protocol.md ("Limits"): what a client that sends too much, too often or too
oddly is told, and that everyone else plays on."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerThread
from test_protocol import two_person_table
from websockets.exceptions import ConnectionClosed, InvalidStatus

from spite.server import ServerConfig, limits
from waiting import wait_until


def limited(tmp_path: Path, **limits: Any) -> ServerThread:
    """A server with some limits set low (the others generous, so only the one under test bites)."""
    settings: dict[str, Any] = {"write_burst": 1000.0, "write_rate": 1000.0, "max_open_tables": 1000,
                                "rate": 200.0, "burst": 400.0, **limits}
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, start_countdown=0.0, **settings)
    srv = ServerThread(config)
    # the transport reads frames up to ws_max_frame (as `spite serve` does), so the app can answer too-long
    srv.server.config.ws_max_size = config.ws_max_frame
    return srv


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    with limited(tmp_path) as srv:
        yield srv


def create(srv: ServerThread, **body: Any) -> httpx.Response:
    return httpx.post(srv.base + "/api/tables", json={"preset": "short", "name": "ann", **body}, timeout=10)


def closed_after(client: Client, timeout: float = 5) -> list[dict[str, Any]]:
    """Every message up to the close (the close must come: a TimeoutError fails the test)."""
    got = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            got.append(client.recv(max(0.01, deadline - time.monotonic())))
        except ConnectionClosed:
            return got
    raise AssertionError(f"the socket was not closed within {timeout} s; it was sent {got[-3:]}")


# ---------------------------------------------------------------------- REST


def test_a_long_body_is_refused_before_it_is_read(server: ServerThread) -> None:
    big = {"preset": "short", "name": "ann", "options": {"x": "y" * 70_000}}
    r = httpx.post(server.base + "/api/tables", json=big, timeout=10)
    assert r.status_code == 413 and "at most 65536 bytes" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: streamed, counted as it comes
        yield b'{"name": "ann", "options": {"x": "'
        for _ in range(100):
            yield b"y" * 1024

    r = httpx.post(server.base + "/api/tables", content=chunks(), headers={"content-type": "application/json"},
                   timeout=10)
    assert r.status_code == 413
    assert create(server).status_code == 200  # a normal request still goes through


def test_a_write_over_budget_is_refused_before_its_body_is_parsed(tmp_path: Path) -> None:
    with limited(tmp_path, write_rate=0.01, write_burst=1) as srv:
        assert httpx.post(srv.base + "/api/tables", content=b"{not json").status_code == 422  # parsed: refused
        for path in ("/api/tables", "/api/quickplay", "/api/tables/no-such-table/join"):
            # over the budget: 429 whatever the body (neither 422 for the bad JSON nor 404 for the table)
            r = httpx.post(srv.base + path, content=b"{not json", headers={"content-type": "application/json"})
            # (a second of a busy machine's between two requests leaves 99)
            assert r.status_code == 429 and r.headers["Retry-After"] in ("99", "100"), (path, r.text)
            assert r.json() == {"detail": "too many requests from your address: wait a moment and try again"}
        assert httpx.get(srv.base + "/api/tables/no-such-table").status_code == 404  # reading is not limited
        other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        assert other.post(srv.base + "/api/tables", json={"preset": "short", "name": "cy"}).status_code == 200


def test_rest_writes_are_rate_limited_per_address(tmp_path: Path) -> None:
    with limited(tmp_path, write_rate=0.2, write_burst=3) as srv:
        table_id = create(srv, join=False).json()["id"]
        assert create(srv).status_code == 200
        assert httpx.post(srv.base + f"/api/tables/{table_id}/join", json={"name": "bob"}).status_code == 200
        for path, body in (("/api/tables", {"preset": "short"}), ("/api/quickplay", {}),
                           (f"/api/tables/{table_id}/join", {"name": "cy"})):
            r = httpx.post(srv.base + path, json=body)
            assert r.status_code == 429, (path, r.text)
            assert 1 <= int(r.headers["Retry-After"]) <= 5
            assert "too many requests" in r.json()["detail"]
        # reading is not limited
        assert httpx.get(srv.base + "/api/tables").status_code == 200


def test_open_tables_per_address_are_capped(tmp_path: Path) -> None:
    with limited(tmp_path, max_open_tables=2) as srv:
        assert create(srv).status_code == 200
        assert httpx.post(srv.base + "/api/quickplay", json={"level": "random"}).status_code == 200
        r = create(srv)
        assert r.status_code == 429 and "already have 2 open or playing tables" in r.json()["detail"]
        assert srv.manager.live_tables_of("127.0.0.1") == 2


def test_an_ipv6_client_is_limited_by_its_64_not_by_each_address(tmp_path: Path) -> None:
    """One subscriber holds a whole /64: 25 addresses of it are one client for the limits (they
    created 25 tables against a cap of 10), while another /64 is another client."""
    import asyncio

    from spite.server import create_app

    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, max_open_tables=10,
                          write_rate=1000.0, write_burst=1000.0)

    async def create_from(app: Any, address: str) -> int:
        transport = httpx.ASGITransport(app=app, client=(address, 40000))
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            r = await client.post("/api/tables", json={"preset": "short", "name": "ann"})
            return r.status_code

    async def run() -> tuple[list[int], int, int]:
        app = create_app(config)
        async with app.router.lifespan_context(app):
            one_64 = [await create_from(app, f"2001:db8:1:2:{i + 1:x}::7") for i in range(25)]
            other_64 = await create_from(app, "2001:db8:1:3::7")
            ipv4 = await create_from(app, "203.0.113.9")
            return one_64, other_64, ipv4

    one_64, other_64, ipv4 = asyncio.run(run())
    assert one_64 == [200] * 10 + [429] * 15
    assert other_64 == 200 and ipv4 == 200


def test_the_lobby_is_paged(server: ServerThread) -> None:
    ids = [create(server).json()["table"]["id"] for _ in range(5)]
    r = httpx.get(server.base + "/api/tables")
    assert [t["id"] for t in r.json()] == ids and r.headers["X-Total-Count"] == "5"
    r = httpx.get(server.base + "/api/tables", params={"limit": 2, "offset": 1})
    assert [t["id"] for t in r.json()] == ids[1:3] and r.headers["X-Total-Count"] == "5"
    for query in ({"limit": 201}, {"limit": 0}, {"offset": -1}, {"offset": "1e20"}, {"offset": 2**63}):
        r = httpx.get(server.base + "/api/tables", params=query)
        assert r.status_code == 422, (query, r.text)


def test_huge_numbers_in_paths_and_queries_are_refused_not_crashed(server: ServerThread) -> None:
    for path in ("/api/games/9223372036854775808/record", "/api/games/9223372036854775808/positions",
                 "/api/games/-9223372036854775809/record", "/api/games/99999999999999999999999999/record",
                 "/api/players/ann/games?offset=9223372036854775808", "/api/players/ann/games?limit=1e20",
                 "/api/players/ann/games?offset=1e20"):
        r = httpx.get(server.base + path)
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
    assert httpx.get(server.base + "/api/games/9223372036854775807/record").status_code == 404


def test_healthz_does_not_name_the_machine(server: ServerThread) -> None:
    import os
    import socket

    text = httpx.get(server.base + "/healthz").text
    assert socket.gethostname() not in text and f":{os.getpid()}" not in text
    assert "process" not in json.loads(text)


# ---------------------------------------------------------------------- WebSocket


def test_a_socket_that_says_no_hello_is_told_and_closed(tmp_path: Path) -> None:
    with limited(tmp_path, hello_timeout=1.0) as srv:
        table_id, tokens = two_person_table(srv)
        ann = Client(srv.base, table_id)  # who says hello in time plays on past the deadline
        ann.hello(tokens[0])
        slow = Client(srv.base, table_id)  # opened after ann's: closed after her deadline has passed too
        got = closed_after(slow)
        assert [m["code"] for m in got] == ["hello-timeout"] and "within 1 s" in got[0]["message"]
        assert slow.ws.close_code == 1008
        ann.send({"type": "ping", "id": "p"})
        assert ann.until("pong")["id"] == "p"
        ann.close()


def refused_handshake(srv: ServerThread, table_id: str, address: str | None = None) -> tuple[int, dict[str, Any], str]:
    """Open a socket that the server must refuse at the handshake: its HTTP status, JSON body and
    ``Retry-After``."""
    with pytest.raises(InvalidStatus) as refused:
        Client(srv.base, table_id, address)
    response = refused.value.response
    return response.status_code, json.loads(response.body or b"{}"), response.headers.get("Retry-After", "")


def test_open_sockets_per_address_are_capped(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    with limited(tmp_path, max_sockets=3) as srv:
        table_id, _ = two_person_table(srv)
        watchers = [Client(srv.base, table_id) for _ in range(3)]
        for w in watchers:
            w.hello(spectate=True)
        # the 4th is refused at the handshake: never accepted, nothing to wait for a hello
        status, body, retry = refused_handshake(srv, table_id)
        assert status == 429 and body["code"] == "too-many-sockets" and "at most 3" in body["detail"]
        assert int(retry) >= 1
        other = Client(srv.base, table_id, "127.0.0.2")  # another address has its own cap
        other.hello(spectate=True)
        other.close()
        watchers[0].close()
        wait_until(lambda: srv.app.state.limiters["sockets"].get("127.0.0.1", 0) <= 2, "the closed socket's place",
                   timeout=5)
        again = Client(srv.base, table_id)  # a closed socket frees its place
        again.hello(spectate=True)
        for c in (again, *watchers[1:]):
            c.close()
    # the refusal was no error for the operator's log (uvicorn's spurious line after it is left out)
    assert "without completing handshake" not in capfd.readouterr().err


def test_the_message_budget_is_per_address_not_per_socket(tmp_path: Path) -> None:
    with limited(tmp_path, rate=1.0, burst=10.0) as srv:
        table_id, _ = two_person_table(srv)
        a, b = Client(srv.base, table_id), Client(srv.base, table_id)
        for i in range(8):
            a.send({"type": "ping", "id": f"a{i}"})
        assert [a.until("pong")["id"] for _ in range(8)] == [f"a{i}" for i in range(8)]
        for i in range(8):  # a socket of its own buys no budget of its own: what a left (2, or a
            try:  # little more on a slow machine), then flood
                b.send({"type": "ping", "id": f"b{i}"})
            except ConnectionClosed:  # closed for flooding while still sending
                break
        got = closed_after(b)
        assert got[-1]["code"] == "flood" and "at most 1 a second" in got[-1]["message"]
        assert [m["type"] for m in got[:-1]] == ["pong"] * (len(got) - 1) and 1 <= len(got) - 1 <= 4, got
        a.close()


class LaterClock:
    """The ``time`` module as :mod:`spite.server.limits` sees it, ``ahead`` seconds later than it is:
    a cool-down or a refill of the server in this process passes without waiting for it."""

    def __init__(self, ahead: float) -> None:
        self.ahead = ahead

    def monotonic(self) -> float:
        return time.monotonic() + self.ahead

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


def test_a_flooding_socket_is_closed_at_once_and_its_address_cools_down(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # a slow refill (one message in 4 s) and a cool-down of 3 s: a loaded machine (CI beside other work) that
    # takes a second or two between these steps still sees exactly the burst, and a refusal within the cool-down
    with limited(tmp_path, rate=0.25, burst=5.0, flood_cooldown=3.0) as srv:
        table_id, tokens = two_person_table(srv)
        bob = Client(srv.base, table_id, "127.0.0.2")  # a player of another address, at the table
        bob.hello(tokens[1])
        flooder = Client(srv.base, table_id)
        flooder.hello(spectate=True)  # 1 of the address's 5 messages
        for i in range(40):
            try:
                flooder.send({"type": "ping", "id": str(i)})
            except ConnectionClosed:  # closed for flooding while still sending (a busy machine's timing)
                break
        got = closed_after(flooder)
        # 4 pongs, then the first ping over the budget: one error, and the socket is closed with it
        assert [m.get("id") for m in got[:-1]] == ["0", "1", "2", "3"], got
        assert got[-1]["type"] == "error" and got[-1]["code"] == "flood"
        assert flooder.ws.close_code == 1008
        # a new socket from the address during the cool-down is refused at the handshake
        status, body, retry = refused_handshake(srv, table_id)
        assert status == 429 and body["code"] == "flood" and 1 <= int(retry) <= 3
        assert "127.0.0.1" not in srv.app.state.limiters["sockets"]  # nothing was opened
        # everyone else plays on: bob's socket, and a new one from another address
        bob.send({"type": "ping", "id": "bob"})
        assert bob.until("pong")["id"] == "bob"
        ann = Client(srv.base, table_id, "127.0.0.3")
        assert ann.hello(tokens[0])["seat"] == 0
        # once the cool-down is over the address may connect again (and, 4 s on, has a message of budget again):
        # the limits' clock moves 4.1 s on
        monkeypatch.setattr(limits, "time", LaterClock(4.1))
        again = Client(srv.base, table_id)
        again.hello(spectate=True)
        for c in (again, ann, bob):
            c.close()


def test_malformed_frames_are_answered_before_any_close(server: ServerThread) -> None:
    table_id, _ = two_person_table(server)
    c = Client(server.base, table_id)
    cases: list[tuple[str | bytes, str]] = [
        ("{not json", "bad-json"),
        ("[" * 2040 + "]" * 2040, "bad-message"),  # 4 KB of nesting
        ('{"type": "ping", "id": "' + "x" * 70_000 + '"}', "too-long"),  # over 64 KiB
        ("x" * 900_000, "too-long"),
        (b"\x00\x01binary", "bad-message"),
        ('{"type": "move", "move": "S-B1", "stateVersion": "0"}', "bad-message"),
        ('{"type": "move", "move": "S-B1", "stateVersion": true}', "bad-message"),
        ('{"type": "move", "move": "S-B1", "stateVersion": 0.0}', "bad-message"),
        ('{"type": "undo", "stateVersion": 9223372036854775808}', "bad-message"),
        ('{"type": "hello", "spectate": "yes"}', "bad-message"),
        ('{"type": "ping", "id": "\\ud800"}', "bad-message"),
        ('{"type": "move", "move": "S-\\ud800", "stateVersion": 0, "id": "\\udfff"}', "bad-message"),
        ('{"type": "\\ud800"}', "unknown-message"),
    ]
    for frame, code in cases:
        c.ws.send(frame)
        err = c.until("error")
        assert err["code"] == code, (frame[:60], err)
        assert "\n" not in err["message"] and err["id"] is None
    c.send({"type": "ping", "id": "still-here"})
    assert c.until("pong")["id"] == "still-here"  # the socket survived all of it
    c.close()


def test_refusals_are_one_log_line_a_period() -> None:
    import logging

    from spite.server.limits import RefusalLogFilter

    clock = [100.0]
    refusals = RefusalLogFilter(period=0.3, clock=lambda: clock[0])
    log = logging.getLogger("test-refusals")
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    log.addHandler(Keep())
    log.addFilter(refusals)
    log.propagate = False
    try:
        for i in range(50):
            log.warning("refused %d", i, extra={"refusal": True})
            log.warning("something else %d", i)  # other lines all pass
        clock[0] += 0.29
        log.warning("refused once more", extra={"refusal": True})  # still within the period
        clock[0] += 0.06
        log.warning("refused again", extra={"refusal": True})
    finally:
        log.removeFilter(refusals)
    assert [line for line in lines if line.startswith("refused")] == [
        "refused 0", "refused again (and 50 more refusals left out of the log since the last one)"]
    assert sum(line.startswith("something else") for line in lines) == 50


def test_the_proxy_counts_an_ipv6_client_by_its_64(tmp_path: Path) -> None:
    """HAProxy's per-address backstops key IPv6 clients by their /64 too (and IPv4 ones by address)."""
    import shutil
    import subprocess

    from spite.server.cluster import haproxy_config

    config = haproxy_config("127.0.0.1", 8999, ["127.0.0.1:9001", "127.0.0.1:9002"])
    assert "tcp-request connection track-sc0 src,ipmask(32,64)" in config
    haproxy = shutil.which("haproxy") or ("/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None)
    if haproxy is not None:  # the configuration as HAProxy itself reads it (make test installs it)
        path = tmp_path / "haproxy.cfg"
        path.write_text(config)
        checked = subprocess.run([haproxy, "-c", "-f", str(path)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stdout + checked.stderr
