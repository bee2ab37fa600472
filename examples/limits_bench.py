"""What the server's limits buy (docs/protocol.md, "Limits"), measured on the loopback only.

Two runs of ``python -m spite.server`` on a free port of 127.0.0.1 (a fresh SQLite file each):
once with the default limits, once with them lifted (``--limit``) as the server was before them.

1. **A flood of table creation.** A player (from 127.0.0.1) plays a two-seat table over two
   WebSockets, a move every 50 ms, and the send→ack time of each move is measured; meanwhile a
   flooder from another loopback address (127.0.0.2) posts ``POST /api/tables`` from 8 concurrent
   connections, as fast as it is answered, for the same time (bounded: ``--seconds`` and at most
   50,000 requests).
2. **Big bodies.** Four concurrent 100 MB ``POST /api/tables`` (streamed with their
   ``Content-Length``, nothing is held here; the server refuses the unknown option with 400 once read);
   the server's peak memory (``VmHWM``) before and after, and how long the four took.

Usage: ``python examples/limits_bench.py [--seconds 8] [--json]``; prints one line per run.

``--floods`` measures instead what a normal player sees with the default limits while 200 tables are
in play at a human pace (two players each, every table from its own loopback address 127.0.1.x, a
move every 0.5–1.5 s per seat) and, one after the other for ``--seconds`` each, every flood of issue
21 runs from other loopback addresses: none (the baseline), table creation, quick-play spam, four
100 MB bodies, 1,000 sockets that never say ``hello``, a message flood on 20 sockets, and twelve
bots-only ``expert`` tables. Per phase: the players' send→ack p50/p99/max, the memory of the
server with its bot workers afterwards (``VmRSS`` summed), how long the flooding process ran (``flood_s``,
at most ``--seconds``; its clients may linger after the server closed them: a flooder that never
reads waits out its own close timeout), and the CPU seconds the phase took of
the server (``server_cpu_s``, its event loop's process alone), its bot workers (``bots_cpu_s``), the
flooding process (``flooder_cpu_s``) and the players' process (``players_cpu_s``), with the load
average: the server, the 400 players and the flooder share the machine's cores, so under a flood the
players' latency is also the flooder's own CPU. ``--flood-nice N`` runs the flooding process at nice
N (a diagnostic of that: the figures are with 0, the flood unweakened). ``python
examples/limits_bench.py --floods --seconds 10``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from spite.bench.server import stop_process

LIFTED = ("--limit", "max_body=1e12", "--limit", "write_rate=1e9", "--limit", "write_burst=1e9",
          "--limit", "max_open_tables=1e9")
MAX_FLOOD_REQUESTS = 50_000
BIG = 100 * 1024 * 1024


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(*extra: str, bot_workers: str = "0", proxy: bool = False) -> Iterator[tuple[str, int]]:
    """The server in its own process on the loopback; yields its base URL and pid (with ``proxy``,
    ``spite serve --proxy``: HAProxy in front, and the pid is the supervisor's, see :func:`_proxied`)."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="spite-limits-") as tmp:
        command = [sys.executable, "-m", "spite", "serve", "--proxy"] if proxy else [sys.executable, "-m",
                                                                                   "spite.server"]
        proc = subprocess.Popen([*command, "--host", "127.0.0.1", "--port", str(port),
                                 "--db", f"sqlite:///{Path(tmp) / 'b.db'}", "--log-level", "error",
                                 "--bot-workers", bot_workers, *extra],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the server did not start")
                time.sleep(0.1)
            yield base, proc.pid
        finally:
            stop_process(proc, 15)


def _memory_kib(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


async def _player(base: str, stop: float, rng: random.Random) -> list[float]:
    """Plays both seats of two-seat tables, one move every 50 ms; send→ack times in ms."""
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        while time.monotonic() < stop:
            answer = await http.post("/api/tables", json={"preset": "short", "name": "ann"})
            assert answer.status_code == 200, answer.text
            created = answer.json()
            table_id = created["table"]["id"]
            joined = (await http.post(f"/api/tables/{table_id}/join", json={"name": "bob"})).json()
            url = base.replace("http", "ws", 1) + f"/ws/{table_id}"
            async with connect(url) as a, connect(url) as b:
                socks: dict[int, ClientConnection] = {0: a, 1: b}
                for seat, token in ((0, created["token"]), (1, joined["token"])):
                    await socks[seat].send(json.dumps({"type": "hello", "token": token}))
                seen = {seat: await _until(socks[seat], "welcome") for seat in socks}
                while time.monotonic() < stop and not seen[0]["view"]["finished"]:
                    seat = seen[0]["view"]["to_move"]
                    mine = seen[seat]
                    if not mine["legal"]:
                        break
                    sent = time.perf_counter()
                    await socks[seat].send(json.dumps({"type": "move", "move": rng.choice(mine["legal"]),
                                                       "stateVersion": mine["stateVersion"], "id": "m"}))
                    ack = await _until(socks[seat], "ack")
                    latencies.append((time.perf_counter() - sent) * 1000)
                    for s, ws in socks.items():  # every seat's view of the new position
                        while seen[s]["stateVersion"] < ack["stateVersion"]:
                            seen[s] = await _until(ws, "state")
                    await asyncio.sleep(0.05)
    return latencies


async def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] == kind:
            return msg  # type: ignore[no-any-return]


async def _flood(base: str, stop: float) -> dict[int, int]:
    """``POST /api/tables`` from 127.0.0.2, 8 at a time, until ``stop``; answers by status."""
    answers: dict[int, int] = {}
    sent = 0
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as http:
        async def worker() -> None:
            nonlocal sent
            while time.monotonic() < stop and sent < MAX_FLOOD_REQUESTS:
                sent += 1
                r = await http.post("/api/tables", json={"preset": "short", "name": "flood"})
                answers[r.status_code] = answers.get(r.status_code, 0) + 1

        await asyncio.gather(*(worker() for _ in range(8)))
    return answers


async def _big_posts(base: str) -> list[str]:
    async def body() -> AsyncIterator[bytes]:
        yield b'{"name": "ann", "options": {"x": "'
        chunk = b"y" * (1024 * 1024)
        for _ in range(BIG // len(chunk)):
            yield chunk
        yield b'"}}'

    async def one() -> str:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            try:
                size = len(b'{"name": "ann", "options": {"x": "') + BIG + len(b'"}}')
                r = await http.post("/api/tables", content=body(), headers={"content-type": "application/json",
                                                                            "content-length": str(size)})
                return str(r.status_code)
            except httpx.HTTPError as exc:  # the server answered 413 and closed while we still sent
                return type(exc).__name__

    return list(await asyncio.gather(*(one() for _ in range(4))))


def run(label: str, seconds: float, *extra: str) -> dict[str, Any]:
    with server(*extra) as (base, pid):
        async def both() -> tuple[list[float], dict[int, int]]:
            stop = time.monotonic() + seconds
            return await asyncio.gather(_player(base, stop, random.Random(1)), _flood(base, stop))

        latencies, answers = asyncio.run(both())
        tables = httpx.get(base + "/healthz").json()["tables"]
        before = _memory_kib(pid)
        t0 = time.perf_counter()
        big = asyncio.run(_big_posts(base))
        took = time.perf_counter() - t0
        after = _memory_kib(pid)
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [float("nan")] * 99
    return {"run": label, "seconds": seconds, "player_moves": len(latencies),
            "player_p50_ms": round(q[49], 1), "player_p99_ms": round(q[98], 1),
            "player_max_ms": round(max(latencies), 1) if latencies else None,
            "flood_answers": answers, "flood_per_s": round(sum(answers.values()) / seconds),
            "tables_in_memory": tables, "big_posts": big, "big_posts_s": round(took, 2),
            "rss_before_mib": round(before["VmRSS"] / 1024), "peak_before_mib": round(before["VmHWM"] / 1024),
            "rss_after_mib": round(after["VmRSS"] / 1024), "peak_after_mib": round(after["VmHWM"] / 1024)}


# ---------------------------------------------------------------------- --floods


def _tree_rss_mib(pid: int) -> float:
    """Resident memory of ``pid`` and every process below it (the bot workers), in MiB."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    tree, grew = {pid}, True
    while grew:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        grew = bool(more)
        tree |= more
    total = 0
    for member in tree:
        with contextlib.suppress(OSError, KeyError):
            total += _memory_kib(member)["VmRSS"]
    return round(total / 1024, 1)


async def _human_table(base: str, address: str, think: float, rng: random.Random, stop: list[bool],
                       out: list[tuple[float, float]]) -> None:
    """Two people at a table from ``address``, each waiting 0.5–1.5 × ``think`` s before a move; every
    move's (time, send→ack ms) goes to ``out``; a finished game is followed by a new table."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, timeout=30, transport=transport) as http:
        while not stop[0]:
            try:
                created = (await http.post("/api/tables", json={"preset": "classic", "name": "ann"})).json()
                table_id = created["table"]["id"]
                joined = (await http.post(f"/api/tables/{table_id}/join", json={"name": "bob"})).json()
                url = base.replace("http", "ws", 1) + f"/ws/{table_id}"
                async with connect(url, open_timeout=30, local_addr=(address, 0)) as a, \
                        connect(url, open_timeout=30, local_addr=(address, 0)) as b:
                    socks: dict[int, ClientConnection] = {0: a, 1: b}
                    for seat, token in ((0, created["token"]), (1, joined["token"])):
                        await socks[seat].send(json.dumps({"type": "hello", "token": token}))
                    seen = {seat: await _until(socks[seat], "welcome") for seat in socks}
                    # the deal is made at the last hello (docs/fairness.md): seat 0 gets it as a state
                    while not (seen[0].get("fair") or {}).get("dealt", True):
                        seen[0] = await _until(socks[0], "state")
                    while not stop[0] and not seen[0]["view"]["finished"]:
                        seat = seen[0]["view"]["to_move"]
                        mine = seen[seat]
                        if not mine["legal"]:
                            break
                        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                        sent = time.perf_counter()
                        await socks[seat].send(json.dumps({"type": "move", "move": rng.choice(mine["legal"]),
                                                           "stateVersion": mine["stateVersion"], "id": "m"}))
                        ack = await _until(socks[seat], "ack")
                        out.append((time.monotonic(), (time.perf_counter() - sent) * 1000))
                        for s, ws in socks.items():
                            while seen[s]["stateVersion"] < ack["stateVersion"]:
                                seen[s] = await _until(ws, "state")
            except Exception as exc:  # a refused request, a closed socket: say so, try a new table
                if not stop[0]:
                    print(f"  (a table of {address}: {type(exc).__name__}: {exc})", file=sys.stderr)
                await asyncio.sleep(1.0)


async def _silent_sockets(base: str, stop: float) -> dict[str, int]:
    """1,000 sockets from 127.0.0.3 that never say hello (100 opening at a time); what each was told
    first (``too-many-sockets``, ``hello-timeout``), or how it ended."""
    got: dict[str, int] = {}
    gate = asyncio.Semaphore(100)

    async def one() -> None:
        async with gate:
            try:
                async with connect(base.replace("http", "ws", 1) + "/ws/x", local_addr=("127.0.0.3", 0),
                                   open_timeout=10) as ws:
                    left = max(0.1, stop - time.monotonic())
                    what = str(json.loads(await asyncio.wait_for(ws.recv(), left)).get("code"))
            except Exception as exc:  # held open to the end (TimeoutError), or not opened at all
                what = type(exc).__name__
            got[what] = got.get(what, 0) + 1

    await asyncio.gather(*(one() for _ in range(1000)))
    return got


async def _message_flood(base: str, stop: float) -> dict[str, int]:
    """20 sockets from 127.0.0.4 send pings as fast as they can (after hello as spectators)."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.4")
    async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as http:
        table = (await http.post("/api/tables", json={"preset": "short", "name": "f"})).json()["table"]["id"]
    sent = {"pings": 0, "closed": 0}

    async def one() -> None:
        with contextlib.suppress(Exception):
            async with connect(base.replace("http", "ws", 1) + f"/ws/{table}", local_addr=("127.0.0.4", 0)) as ws:
                await ws.send(json.dumps({"type": "hello", "spectate": True}))
                while time.monotonic() < stop:
                    await ws.send('{"type": "ping"}')
                    sent["pings"] += 1
                    if sent["pings"] % 50 == 0:
                        await asyncio.sleep(0)
        sent["closed"] += 1

    await asyncio.gather(*(one() for _ in range(20)))
    return sent


async def _posts(base: str, stop: float, path: str, body: dict[str, Any], address: str) -> dict[int | str, int]:
    """``POST path`` from 8 connections of ``address`` until ``stop``: answers by status (a connection
    refused outright, as a proxy's backstop does, by the error's name)."""
    answers: dict[int | str, int] = {}
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as http:
        async def worker() -> None:
            while time.monotonic() < stop:
                try:
                    key: int | str = (await http.post(path, json=body)).status_code
                except httpx.TransportError as exc:
                    key = type(exc).__name__
                answers[key] = answers.get(key, 0) + 1

        await asyncio.gather(*(worker() for _ in range(8)))
    return answers


async def _expert_tables(base: str, stop: float) -> dict[int, int]:
    answers: dict[int, int] = {}
    for i in range(12):  # from 127.0.0.6 and .7: each address may have 10 open tables
        transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{6 + i // 10}")
        async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as http:
            r = await http.post("/api/tables", json={"preset": "classic", "join": False, "seats": [
                {"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "expert"}]})
            answers[r.status_code] = answers.get(r.status_code, 0) + 1
    await asyncio.sleep(max(0.0, stop - time.monotonic()))
    return answers


FLOODS = ("none", "table creation (8 connections)", "quick-play spam (8 connections)", "4 x 100 MB bodies",
          "1,000 silent sockets", "message flood (20 sockets)", "12 expert bot tables")


def _cpu_s(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
    return found


def _proxied(supervisor: int) -> tuple[int, int]:
    """Under ``spite serve --proxy``: the server process's pid and HAProxy's."""
    kids = _children(supervisor)
    names = {k: Path(f"/proc/{k}/cmdline").read_bytes() for k in kids}
    server_pid = next(k for k, cmd in names.items() if b"spite.server" in cmd)
    proxy_pid = next(k for k, cmd in names.items() if b"haproxy" in cmd)
    return server_pid, proxy_pid


def _flood_setup(nice: int) -> int:
    """In the flooding process: lower its priority by ``nice``; its pid."""
    if nice:
        os.nice(nice)
    return os.getpid()


def _flood_process(name: str, base: str, seconds: float) -> Any:
    """One flood, run in a process of its own (so the flooder's own work does not slow the players'
    client loop here; the machine's cores are still shared, as they would be on a small server);
    what it got and how long it lasted."""
    start = time.monotonic()
    end = start + seconds
    floods: dict[str, Any] = {
        "none": lambda: asyncio.sleep(seconds),
        "table creation (8 connections)": lambda: _posts(base, end, "/api/tables", {"preset": "short", "name": "f"},
                                                         "127.0.0.2"),
        "quick-play spam (8 connections)": lambda: _posts(base, end, "/api/quickplay",
                                                          {"preset": "short", "name": "f"}, "127.0.0.5"),
        "4 x 100 MB bodies": lambda: _big_posts(base),
        "1,000 silent sockets": lambda: _silent_sockets(base, end),
        "message flood (20 sockets)": lambda: _message_flood(base, end),
        "12 expert bot tables": lambda: _expert_tables(base, end),
    }
    got = asyncio.run(floods[name]())
    return got, time.monotonic() - start


async def _floods(base: str, pid: int, tables: int, seconds: float, think: float,
                  flood_nice: int = 0, proxy: bool = False) -> list[dict[str, Any]]:
    import concurrent.futures
    import multiprocessing

    stop = [False]
    moves: list[tuple[float, float]] = []
    players = [asyncio.create_task(_human_table(base, f"127.0.1.{1 + i % 250}" if i < 250 else f"127.0.2.{i - 249}",
                                                think, random.Random(i), stop, moves)) for i in range(tables)]
    # set up: until the tables play at half their pace or more (2 s windows), at most 120 s
    started = time.monotonic()
    while time.monotonic() - started < 120:
        await asyncio.sleep(2.0)
        if sum(1 for t, _ in moves if t > time.monotonic() - 2.0) >= tables / think:
            break
    setup = round(time.monotonic() - started, 1)
    print(json.dumps({"setup_s": setup, "moves_so_far": len(moves)}), flush=True)
    pool = concurrent.futures.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    flooder = await asyncio.get_running_loop().run_in_executor(pool, _flood_setup, flood_nice)  # it is up
    tree = pid
    pid, proxy_pid = _proxied(tree) if proxy else (pid, 0)
    bots = _children(pid)

    def cpu_now() -> dict[str, float]:
        return {"server": _cpu_s(pid), "bots": sum(_cpu_s(b) for b in bots), "flooder": _cpu_s(flooder),
                "players": _cpu_s(os.getpid()), **({"proxy": _cpu_s(proxy_pid)} if proxy else {})}

    out = []
    for name in FLOODS:
        start = time.monotonic()
        end = start + seconds
        cpu = cpu_now()
        what, lasted = await asyncio.get_running_loop().run_in_executor(pool, _flood_process, name, base, seconds)
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        used = cpu_now()
        window = sorted(ms for t, ms in moves if start <= t <= end)
        q = statistics.quantiles(window, n=100) if len(window) >= 2 else [float("nan")] * 99
        out.append({"flood": name, "moves": len(window), "p50_ms": round(q[49], 1), "p99_ms": round(q[98], 1),
                    "max_ms": round(window[-1], 1) if window else None, "flood_got": what,
                    "flood_s": round(min(lasted, seconds), 2),
                    **{f"{k}_cpu_s": round(used[k] - cpu[k], 2) for k in cpu},
                    "loadavg": Path("/proc/loadavg").read_text().split()[0],
                    "server_rss_mib": _tree_rss_mib(tree)})
        print(json.dumps(out[-1]), flush=True)
        await asyncio.sleep(2.0)
    pool.shutdown()
    stop[0] = True
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=8.0)
    p.add_argument("--json", action="store_true")
    p.add_argument("--floods", action="store_true", help="the players' latency at 200 tables during each flood")
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--think", type=float, default=1.0)
    p.add_argument("--flood-nice", type=int, default=0,
                   help="--floods: run the flooding process at this nice value (a diagnostic; figures are with 0)")
    p.add_argument("--proxy", action="store_true",
                   help="--floods: the server as `spite serve --proxy` (HAProxy's backstops in front; needs haproxy)")
    a = p.parse_args()
    if a.floods:
        from spite.server.bots import cores

        with server(bot_workers=str(cores()), proxy=a.proxy) as (base, pid):
            print(json.dumps({"tables": a.tables, "think_s": a.think, "proxy": a.proxy,
                              "rss_start_mib": _tree_rss_mib(pid)}), flush=True)
            asyncio.run(_floods(base, pid, a.tables, min(a.seconds, 60.0), a.think, a.flood_nice, a.proxy))
        return
    for label, extra in (("limits", ()), ("no limits", LIFTED)):
        figures = run(label, min(a.seconds, 60.0), *extra)
        print(json.dumps(figures) if a.json else
              f"{label}: player p50 {figures['player_p50_ms']} ms, p99 {figures['player_p99_ms']} ms "
              f"({figures['player_moves']} moves) while the flood got {figures['flood_answers']} "
              f"({figures['flood_per_s']}/s), {figures['tables_in_memory']} tables in memory; 4 × 100 MB POST: "
              f"{figures['big_posts']} in {figures['big_posts_s']} s, peak memory "
              f"{figures['peak_before_mib']} → {figures['peak_after_mib']} MiB", flush=True)


if __name__ == "__main__":
    main()
