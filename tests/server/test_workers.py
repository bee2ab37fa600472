"""``spite serve --workers N``: several worker processes behind HAProxy on one PostgreSQL database.

Two people who land on different workers play one table to its end through the one address; a
worker killed with ``kill -9`` at 20 tables in play loses no acknowledged move, its tables are
taken over within 10 s and every table finishes; so does a Spit table's, whose clock resumes where
it stood; one address may have ``max_open_tables`` tables over all workers together; the workers
end with their supervisor; SQLite is refused. Needs PostgreSQL (``SPITE_TEST_PG_URL``) and HAProxy
(Debian's ``haproxy``), else skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import PG_ENV, Client, http_from, pg_database
from test_protocol import play_random

from ports import free_port, listens
from spite.server import db
from spite.server.cluster import find_haproxy
from spite.server.db import make_engine
from waiting import wait_until, wait_until_async

CLI = [sys.executable, "-c", "from spite.cli import main; main()"]

_CLUSTER_MARKS = [
    pytest.mark.postgres,
    pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set: the multi-worker tests need "
                       "PostgreSQL"),
    pytest.mark.skipif(find_haproxy() is None, reason="HAProxy is not installed (apt-get install haproxy): the "
                       "multi-worker tests are skipped"),
]


def needs_cluster(test: Any) -> Any:
    """Marks a test that runs ``spite serve --workers``: PostgreSQL and HAProxy, else skipped saying which."""
    for mark in _CLUSTER_MARKS:
        test = mark(test)
    return test


@dataclass
class Cluster:
    """A running ``spite serve --workers N``: its address, its workers' pids and direct ports."""

    proc: subprocess.Popen[bytes]
    port: int
    log: Path
    db_url: str
    workers: dict[int, tuple[int, int]] = field(default_factory=dict)  # index → (pid, port), newest
    haproxy: int | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def direct(self, i: int) -> str:
        return f"http://127.0.0.1:{self.workers[i][1]}"

    def read_log(self) -> str:
        text = self.log.read_text(errors="replace")
        for m in re.finditer(r"worker (\d+) \(pid (\d+)\) on 127\.0\.0\.1:(\d+)", text):
            self.workers[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
        found = re.search(r"behind HAProxy \(pid (\d+)\)", text)
        if found:
            self.haproxy = int(found.group(1))
        return text


@contextlib.contextmanager
def cluster(tmp_path: Path, workers: int = 2, *extra: str) -> Iterator[Cluster]:
    """``spite serve --workers N`` on a fresh PostgreSQL database, up and routed."""
    with pg_database(os.environ[PG_ENV]) as url:
        port = free_port()
        log = tmp_path / "serve.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                [*CLI, "serve", "--workers", str(workers), "--db", url, "--port", str(port), "--log-level", "warning",
                 "--bot-workers", "1", "--start-countdown", "0", "--limit", "max_sockets=1000",
                 "--limit", "write_burst=1000", "--limit", "max_open_tables=1000", "--limit", "rate=2000",
                 "--limit", "burst=4000", "--limit", "proxy_connections=100000", "--limit", "proxy_requests=1000000",
                 *extra],
                stdout=subprocess.DEVNULL, stderr=out)
        c = Cluster(proc, port, log, url)
        try:
            # and HAProxy holds the port (not another test's server on a port chosen free: see ports.listens)
            wait_until(lambda: proc.poll() is not None
                       or ("behind HAProxy" in c.read_log() and listens(proc.pid, port)),
                       lambda: f"the workers' start: {c.read_log()[-2000:]}", timeout=90, every=0.2)
            assert proc.poll() is None, f"spite serve --workers exited: {c.read_log()[-2000:]}"
            assert len(c.workers) == workers
            yield c
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (dead, not yet reaped by a parent that is gone too) counts as dead
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False


def owners(url: str, ids: list[str]) -> dict[str, tuple[str | None, str]]:
    """Each table's owner and status in the database."""
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.select(db.tables.c.id, db.tables.c.owner, db.tables.c.status)
                                .where(db.tables.c.id.in_(ids))).all()
    finally:
        engine.dispose()
    return {r.id: (r.owner, r.status) for r in rows}


def test_workers_above_one_refuse_sqlite(tmp_path: Path) -> None:
    done = subprocess.run([*CLI, "serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                           "--port", str(free_port())], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "PostgreSQL" in lines[0] and "SQLite" in lines[0], done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
@needs_cluster
def test_two_people_on_two_workers_play_one_table(tmp_path: Path) -> None:
    with cluster(tmp_path) as c:
        # ann creates the table on worker 0, bob joins on worker 1: the table moves to bob's worker
        created = httpx.post(c.direct(0) + "/api/tables", json={"preset": "short", "name": "ann",
                                                                "options": {"stock_size": 3}}).json()
        table_id = created["table"]["id"]
        joined = httpx.post(c.direct(1) + f"/api/tables/{table_id}/join", json={"name": "bob"}, timeout=30)
        assert joined.status_code == 200, joined.text
        owner = owners(c.db_url, [table_id])[table_id][0]
        assert owner is not None and owner.endswith(f":{c.workers[1][0]}"), "bob's worker should hold the table"
        # the lobby of either worker lists the table (read from the database)
        for i in (0, 1):
            listed = httpx.get(c.direct(i) + "/api/tables?status=playing").json()
            assert [t["id"] for t in listed] == [table_id]
        # both play through the one address, to the end
        ann, bob = Client(c.base, table_id), Client(c.base, table_id)
        ann.hello(created["token"])
        bob.hello(joined.json()["token"])
        play_random({0: ann, 1: bob}, random.Random(3))
        over = ann.until("gameOver", timeout=30)
        assert bob.until("gameOver", timeout=30)["gameId"] == over["gameId"]
        record = httpx.get(c.base + f"/api/games/{over['gameId']}/record").json()
        assert record["result"] == over["result"]
        for client in (ann, bob):
            client.close()
        # every page answers through the one address; a kill -9 of the supervisor ends every child
        assert httpx.get(c.base + "/").status_code == 200
        children = [pid for pid, _port in c.workers.values()] + ([c.haproxy] if c.haproxy else [])
        c.proc.send_signal(signal.SIGKILL)
        c.proc.wait(10)
        wait_until(lambda: not [pid for pid in children if alive(pid)],
                   lambda: f"workers or HAProxy outlived their supervisor: {[p for p in children if alive(p)]}",
                   timeout=20, every=0.2)
        with pytest.raises(OSError), socket.create_connection(("127.0.0.1", c.port), timeout=1):
            pass


# ---------------------------------------------------------------------- a worker dies at 20 tables
@dataclass
class Seat:
    """A person seat played by a test client that reconnects by itself, as the page and terminal app do."""

    url: str
    token: str
    rng: random.Random
    acked: list[tuple[int, str]] = field(default_factory=list)
    over: dict[str, Any] | None = None
    reconnects: int = 0
    acks: list[dict[str, Any]] = field(default_factory=list)  # the ack messages as they came
    clocks: list[tuple[float, str, int]] = field(default_factory=list)  # (when, message type, game clock): Spit


async def play_seat(seat: Seat, think: float, deadline: float) -> None:
    import websockets

    while seat.over is None and time.monotonic() < deadline:
        try:
            async with websockets.connect(seat.url, open_timeout=15) as ws:
                await ws.send(json.dumps({"type": "hello", "token": seat.token}))
                last: dict[str, Any] | None = None
                pending = False
                async for raw in ws:
                    msg = json.loads(raw)
                    kind = msg["type"]
                    if msg.get("game", {}).get("clock"):
                        seat.clocks.append((time.monotonic(), kind, msg["game"]["clock"]["now"]))
                    if kind == "ack":
                        seat.acked.append((msg["stateVersion"], msg["move"]))
                        seat.acks.append(msg)
                        pending = False
                    elif kind == "error":
                        pending = False
                    elif kind == "gameOver":
                        seat.over = msg
                        return
                    elif kind in ("welcome", "state") and (last is None or msg["stateVersion"] >= last["stateVersion"]):
                        last = msg
                    if last is not None and not pending and last["legal"] and not last["view"]["finished"]:
                        # the person's thinking time (a pace, so that the games are mid-way at the kill)
                        await asyncio.sleep(think * seat.rng.uniform(0.5, 1.5))
                        # a stock card when one fits, else a build, as people play: the games end soon
                        legal = last["legal"]
                        keen = [m for m in legal if m.startswith("S-")] or [m for m in legal if "-B" in m] or legal
                        await ws.send(json.dumps({"type": "move", "move": seat.rng.choice(keen),
                                                  "stateVersion": last["stateVersion"]}))
                        pending = True
                        last = None  # the next move waits for the position after this one
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
            pass
        seat.reconnects += 1
        await asyncio.sleep(0.3)  # the client's pause before it connects again (the page's back-off)


async def wait_playing(seats: list[Seat], moves: int, timeout: float) -> None:
    await wait_until_async(lambda: sum(len(s.acked) for s in seats) >= moves,
                           lambda: f"{moves} acknowledged moves (got {sum(len(s.acked) for s in seats)})", timeout)


@pytest.mark.slow
@pytest.mark.timeout(180)  # two workers, 20 tables played to their ends around a kill -9 and its failover
@needs_cluster
def test_kill_9_of_a_worker_at_20_tables(tmp_path: Path) -> None:
    with cluster(tmp_path, 2, "--bot-delay", "0.15", "--grace", "60") as c:
        rng = random.Random(24)
        people: dict[str, list[Seat]] = {}
        bots_only: list[str] = []
        ws_base = c.base.replace("http", "ws", 1)
        for i in range(20):
            entry = c.direct(i % 2)  # tables begin on both workers, then follow their sockets
            if i < 10:  # two people
                created = httpx.post(entry + "/api/tables", json={"preset": "short", "name": f"a{i}",
                                                                  "options": {"stock_size": 3}}).json()
                tid = created["table"]["id"]
                joined = httpx.post(c.base + f"/api/tables/{tid}/join", json={"name": f"b{i}"}, timeout=30).json()
                people[tid] = [Seat(f"{ws_base}/ws/{tid}", created["token"], random.Random(rng.random())),
                               Seat(f"{ws_base}/ws/{tid}", joined["token"], random.Random(rng.random()))]
            elif i < 15:  # a person against a bot
                quick = httpx.post(entry + "/api/quickplay", json={"name": f"q{i}", "level": "easy",
                                                                   "preset": "short",
                                                                   "options": {"stock_size": 3}}).json()
                tid = quick["table"]["id"]
                people[tid] = [Seat(f"{ws_base}/ws/{tid}", quick["token"], random.Random(rng.random()))]
            else:  # bots alone
                made = httpx.post(entry + "/api/tables", json={
                    "preset": "short", "options": {"stock_size": 2}, "join": False,
                    "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]}).json()
                bots_only.append(made["id"])
        all_ids = [*people, *bots_only]
        seats = [s for group in people.values() for s in group]

        async def run() -> dict[str, float]:
            deadline = time.monotonic() + 150
            tasks = [asyncio.create_task(play_seat(s, 0.08, deadline)) for s in seats]
            await wait_playing(seats, 60, 60)
            # kill the worker holding the most tables, mid-game
            held = await asyncio.to_thread(owners, c.db_url, all_ids)
            names = [o for o, status in held.values() if status == "playing" and o]
            victim = max(set(names), key=names.count)
            pid = int(victim.rsplit(":", 1)[1])
            assert pid in [p for p, _port in c.workers.values()]
            victims = [t for t, (o, status) in held.items() if o == victim and status == "playing"]
            assert len(victims) >= 3
            killed_at = time.monotonic()
            os.kill(pid, signal.SIGKILL)
            taken: dict[str, float] = {}

            async def all_taken() -> bool:
                now = await asyncio.to_thread(owners, c.db_url, victims)
                for t, (o, status) in now.items():
                    if t not in taken and (o != victim or status != "playing"):
                        taken[t] = time.monotonic() - killed_at
                return len(taken) == len(victims)

            with contextlib.suppress(AssertionError):  # (the takeover times are checked below)
                await wait_until_async(all_taken, "the takeover of the killed worker's tables", 30, every=0.2)
            await asyncio.gather(*tasks)
            return {t: taken.get(t, float("inf")) for t in victims}

        takeover = asyncio.run(run())
        print(f"taken over after {', '.join(f'{t:.1f}' for t in sorted(takeover.values()))} s")  # (pytest -s)
        assert max(takeover.values()) <= 10.0, f"tables taken over after {sorted(takeover.values())} s"
        # every table finishes; no acknowledged move is missing from its record
        for tid, group in people.items():
            for s in group:
                assert s.over is not None, f"table {tid} did not finish for a person (reconnects {s.reconnects})"
            record = httpx.get(c.base + f"/api/games/{group[0].over['gameId']}/record").json()
            moves = [m for m in record["moves"] if isinstance(m, str)]
            for s in group:
                for version, move in s.acked:
                    assert moves[version - 1] == move, f"table {tid}: acknowledged move {version} {move} lost"
        wait_until(lambda: all(status == "finished" for _o, status in owners(c.db_url, bots_only).values()),
                   "the end of every bots-only table", timeout=60, every=0.5)
        assert sum(s.reconnects for s in seats) > 0  # the killed worker's people came back by themselves
        c.read_log()
        assert "exited" in c.log.read_text()  # the supervisor saw it and started it again


# ---------------------------------------------------------------------- max_open_tables over all workers
@pytest.mark.slow
@needs_cluster
def test_open_tables_per_address_are_capped_over_all_workers(tmp_path: Path) -> None:
    with cluster(tmp_path, 2, "--limit", "max_open_tables=3") as c:
        body = {"preset": "short", "name": "ann", "options": {"stock_size": 3}}

        def refused(r: httpx.Response) -> bool:
            return r.status_code == 429 and r.json()["detail"].startswith("you already have 3 open or playing tables") \
                and r.json()["words"] == {"key": "lobby.too-many-tables", "params": {"n": 3}}

        async def at_once() -> list[httpx.Response]:  # 8 creations at the same moment, 4 on each worker
            async with httpx.AsyncClient(timeout=30) as client:
                return list(await asyncio.gather(*(client.post(c.direct(i % 2) + "/api/tables", json=body)
                                                   for i in range(8))))

        answers = asyncio.run(at_once())
        made = [r.json() for r in answers if r.status_code == 200]
        assert len(made) == 3 and all(refused(r) for r in answers if r.status_code != 200), \
            [(r.status_code, r.text) for r in answers]
        # whichever worker the address reaches, and through the one address, quick play too: refused
        for url in (c.direct(0), c.direct(1), c.base):
            assert refused(httpx.post(url + "/api/tables", json=body, timeout=30))
            assert refused(httpx.post(url + "/api/quickplay", json={"name": "ann", "level": "random"}, timeout=30))
        # another address is not held back by this one's tables
        other = httpx.post(c.direct(1) + "/api/tables", json=body, headers={"X-Forwarded-For": "10.9.8.7"},
                           timeout=30)
        assert other.status_code == 200, other.text
        # a table played to its end counts no more: one new table, then refused again
        first = made[0]
        table_id = first["table"]["id"]
        joined = httpx.post(c.base + f"/api/tables/{table_id}/join", json={"name": "bob"}, timeout=30)
        assert joined.status_code == 200, joined.text
        ann, bob = Client(c.base, table_id), Client(c.base, table_id)
        ann.hello(first["token"])
        bob.hello(joined.json()["token"])
        play_random({0: ann, 1: bob}, random.Random(5))
        ann.until("gameOver", timeout=30)
        for client in (ann, bob):
            client.close()
        assert httpx.post(c.direct(0) + "/api/tables", json=body, timeout=30).status_code == 200
        assert refused(httpx.post(c.direct(1) + "/api/tables", json=body, timeout=30))


# ---------------------------------------------------------------------- a Spit table's worker dies
@pytest.mark.slow
@needs_cluster
def test_kill_9_of_a_spit_tables_worker(tmp_path: Path) -> None:
    with cluster(tmp_path, 2, "--grace", "60") as c:
        # a person against a reflex bot; the time limit (game time, which stands while nobody holds the
        # table) ends the game a few seconds of play after the takeover whatever the cards do
        made = httpx.post(c.base + "/api/tables", json={
            "game": "spit", "name": "ann", "options": {"auto_spit_ms": 150, "auto_slap_ms": 150, "time_limit_s": 6},
            "seats": [{"kind": "person"}, {"kind": "bot", "level": "reflex:250"}]}, timeout=30).json()
        tid = made["table"]["id"]
        ann = Seat(f"{c.base.replace('http', 'ws', 1)}/ws/{tid}", made["token"], random.Random(9))

        async def run() -> tuple[float, float, float]:
            task = asyncio.create_task(play_seat(ann, 0.1, time.monotonic() + 60))
            await wait_playing([ann], 4, 30)
            owner, status = (await asyncio.to_thread(owners, c.db_url, [tid]))[tid]
            assert status == "playing" and owner is not None
            killed_at = time.monotonic()
            os.kill(int(owner.rsplit(":", 1)[1]), signal.SIGKILL)

            async def taken_over() -> bool:  # by another worker
                now_owner, _status = (await asyncio.to_thread(owners, c.db_url, [tid]))[tid]
                return now_owner not in (owner, None)

            await wait_until_async(taken_over, "the Spit table's takeover", 30, every=0.1)
            taken = time.monotonic() - killed_at
            await asyncio.wait_for(task, 60)
            return killed_at, taken, time.monotonic()

        killed_at, taken, _ended = asyncio.run(run())
        assert taken <= 10.0, f"the Spit table was taken over after {taken:.1f} s"
        assert ann.over is not None and ann.reconnects > 0, "the game did not reach its end after the takeover"
        # the clock resumed where the table stood: the downtime did not count as game time
        before = [(at, now) for at, _kind, now in ann.clocks if at < killed_at]
        after = [(at, now) for at, kind, now in ann.clocks if at > killed_at and kind == "welcome"]
        assert before and after
        wall_gap, game_gap = after[0][0] - before[-1][0], (after[0][1] - before[-1][1]) / 1000
        print(f"Spit table taken over after {taken:.1f} s; its clock moved {game_gap:.2f} s "  # (pytest -s)
              f"in the {wall_gap:.1f} s without a worker")
        assert wall_gap > 5 and -0.5 < game_gap < wall_gap - 3, (wall_gap, game_gap)
        # and then ran on: the bot and the person played after the takeover, to the time limit or a win
        record = httpx.get(c.base + ann.over["recordUrl"], timeout=30).json()
        played = [e for e in record["moves"] if "p" in e]
        assert [e for e in played if e["t"] > after[0][1] and e["p"] == 1], "the bot did not play on"
        assert ann.over["result"] and record["result"] == ann.over["result"]
        # no acknowledged move is lost: each is in the record, in the order acknowledged, at its time
        mine = [(e["t"], e["m"]) for e in played if e["p"] == 0]
        acked = [(a["game"]["t"], a["move"]) for a in ann.acks]
        assert acked and [m for m in mine if m in acked] == acked, (acked, mine)
        assert [a for a in ann.acks if a["game"]["t"] > after[0][1]], "no move of the person's was taken after takeover"


# ---------------------------------------------------------------------- play a person on two workers
@pytest.mark.slow
@needs_cluster
def test_two_seekers_on_two_workers_meet(tmp_path: Path) -> None:
    """Ann's seek reaches worker 0, Bob's worker 1: the seeks live in the database, so whichever worker
    pairs first seats both at one table, and each worker answers each seek. A second key from Ann's
    address, seeking at worker 1 before Bob, is never paired with her (rated: one person, one side)."""
    with cluster(tmp_path) as c:
        keys = [f"key-{i}-{os.getpid()}-0123456789abcdef" for i in range(3)]
        ann = httpx.post(c.direct(0) + "/api/seeks", json={"preset": "short", "name": "ann", "playerKey": keys[0]},
                         timeout=30).json()
        again = httpx.post(c.direct(1) + "/api/seeks", json={"preset": "short", "playerKey": keys[0]}, timeout=30)
        assert again.status_code == 409, "one seek per key, over every worker"
        same_address = httpx.post(c.direct(1) + "/api/seeks", json={"preset": "short", "name": "ann2",
                                                                     "playerKey": keys[2], "computerAfter": None},
                                  timeout=30).json()
        with http_from("127.0.0.2") as other:  # bob is another person, at another address
            bob = other.post(c.direct(1) + "/api/seeks", json={"preset": "short", "name": "bob",
                                                                "playerKey": keys[1]}).json()
        answers: dict[str, Any] = {}

        def both_matched() -> bool:
            for i, s in ((1, ann), (0, bob)):  # each asks the other worker
                got = httpx.get(c.direct(i) + f"/api/seeks/{s['id']}", timeout=30).json()
                if got["state"] == "matched":
                    answers[s["id"]] = got["matched"]
            return len(answers) == 2

        wait_until(both_matched, "the pairing of the two seeks", timeout=20, every=0.1)
        a, b = answers[ann["id"]], answers[bob["id"]]
        assert a["table"] == b["table"] and {a["seat"], b["seat"]} == {0, 1}
        # a second key from ann's address was never paired with ann, on either worker: it still waits
        assert httpx.get(c.direct(0) + f"/api/seeks/{same_address['id']}", timeout=30).json()["state"] == "waiting"
        # they play it through the one address
        ca, cb = Client(c.base, a["table"]), Client(c.base, a["table"])
        ca.hello(a["token"])
        cb.hello(b["token"])
        play_random({a["seat"]: ca, b["seat"]: cb}, random.Random(4), limit=40)
        for client in (ca, cb):
            client.close()
