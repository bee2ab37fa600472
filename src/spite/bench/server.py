"""``spite bench server``: many bot-vs-bot tables over real WebSockets against a real server.

The server runs in its own process (``python -m spite.server`` on a free port, a fresh SQLite file,
every move committed before its ack). This process holds the clients: for each of ``tables``
table slots it creates a two-seat table, takes both seats, and plays uniformly random legal moves
for both over two WebSockets; when a game ends the slot starts a new table, so ``tables`` games
are always in play. Each move's time from send to its ``ack`` is measured.
"""

from __future__ import annotations

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["run_server_bench"]


@dataclass
class _Tally:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _seat(url: str, token: str, rng: random.Random, tally: _Tally, stop: float) -> None:
    import websockets

    async with websockets.connect(url, max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        pending = False
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.5, stop - time.perf_counter() + 0.5))
            except TimeoutError:
                return
            if time.perf_counter() > stop and not pending:
                return
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ack":
                assert sent_at is not None
                tally.latencies.append(time.perf_counter() - sent_at)
                tally.moves += 1
                pending = False
            elif kind == "error":
                tally.errors[msg["code"]] = tally.errors.get(msg["code"], 0) + 1
                pending = False
            elif kind == "gameOver":
                return
            if kind in ("welcome", "state") and msg["view"]["finished"]:
                return
            if kind in ("welcome", "state") and msg["legal"] and not pending:
                if time.perf_counter() > stop:
                    return
                sent_at = time.perf_counter()
                pending = True
                await ws.send(json.dumps({"type": "move", "move": rng.choice(msg["legal"]),
                                          "stateVersion": msg["stateVersion"]}))


async def _slot(http: Any, base: str, preset: str, rng: random.Random, tally: _Tally, stop: float) -> None:
    ws_base = base.replace("http", "ws", 1)
    while time.perf_counter() < stop:
        created = (await http.post("/api/tables", json={"preset": preset, "name": "bench-a"})).json()
        table_id = created["table"]["id"]
        joined = (await http.post(f"/api/tables/{table_id}/join", json={"name": "bench-b"})).json()
        url = f"{ws_base}/ws/{table_id}"
        await asyncio.gather(_seat(url, created["token"], random.Random(rng.random()), tally, stop),
                             _seat(url, joined["token"], random.Random(rng.random()), tally, stop))
        tally.games += 1


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _clients(base: str, tables: int, seconds: float, preset: str, seed: int, warmup: float) -> dict[str, Any]:
    import httpx

    rng = random.Random(seed)
    tally = _Tally()
    start = time.perf_counter()
    stop = start + warmup + seconds
    # one HTTP client for all (each new client builds an SSL context: tens of ms of blocked loop)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_connections=32)) as http:
        tasks = [asyncio.create_task(_slot(http, base, preset, random.Random(rng.random()), tally, stop))
                 for _ in range(tables)]
        await asyncio.sleep(max(0.0, start + warmup - time.perf_counter()))
        tally.latencies.clear()
        moves0, t0 = tally.moves, time.perf_counter()
        await asyncio.gather(*tasks, return_exceptions=False)
    elapsed = time.perf_counter() - t0
    lat = tally.latencies
    return {
        "tables": tables, "seconds": round(elapsed, 2), "moves": tally.moves - moves0,
        "moves_per_s": round((tally.moves - moves0) / elapsed, 1) if elapsed > 0 else 0.0,
        "p50_ms": round(_percentile(lat, 0.50) * 1000, 2), "p99_ms": round(_percentile(lat, 0.99) * 1000, 2),
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else float("nan"),
        "games_finished": tally.games, "errors": tally.errors,
    }


def run_server_bench(tables: int = 50, seconds: float = 10.0, *, preset: str = "classic", db: str | None = None,
                     seed: int = 1, warmup: float = 2.0, server_args: tuple[str, ...] = ()) -> dict[str, Any]:
    """Start a server process, run the clients here, return the figures (moves/s, p50/p99 send→ack)."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="spite-bench-") as tmp:
        url = db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        proc = subprocess.Popen(
            [sys.executable, "-m", "spite.server", "--port", str(port), "--db", url, "--log-level", "warning",
             "--rate", "1000", "--bot-workers", "0", *server_args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ))
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_up(base, proc)
            figures = asyncio.run(_clients(base, tables, seconds, preset, seed, warmup))
            figures["db"] = url.split(":", 1)[0]
            figures["server_pid"] = proc.pid
            return figures
        finally:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
            if proc.poll() is None:
                proc.kill()


def _wait_up(base: str, proc: subprocess.Popen[bytes]) -> None:
    import httpx

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"the server exited: {err.strip().splitlines()[-1] if err.strip() else proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError("the server did not start within 30 s")
