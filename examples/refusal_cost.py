"""What a refusal costs the server: its CPU time per refused request, handshake or message.

A server (``python -m spite.server``, default limits, a fresh SQLite file, no bot workers) on a free
port of 127.0.0.1; from other loopback addresses, for ``--seconds`` each:

1. **REST writes over budget.** 8 keep-alive connections post ``POST /api/tables`` as fast as they
   are answered, after the address's budget is spent: nearly every answer is 429.
2. **Sockets over the per-address cap.** 16 sockets are held open, then new ones are opened, 20 at a
   time, as fast as they are refused.
3. **A message flood.** 20 sockets say hello as spectators and send pings as fast as they can;
   once closed, each tries to open again (as a flooding client would) until the time is up.

Per run: the answers (by HTTP status or outcome), how many a second, and the server's CPU time
(user + system, from ``/proc/PID/stat``) per answer, in µs. Usage:
``python examples/refusal_cost.py [--seconds 5] [--only rest|sockets|messages]``.

``--in-app`` measures instead what the app alone spends on a refusal (no network, no HTTP parser):
the ASGI app is called in this process with a ``POST /api/tables`` over its address's budget, and
with a WebSocket handshake of an address over its socket cap, 3,000 times each; CPU µs per call.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from limits_bench import _cpu_s as cpu_seconds
from limits_bench import server  # the same server start as the flood bench (examples/ is on the path)
from websockets.asyncio.client import connect


async def rest(base: str, seconds: float) -> dict[str, int]:
    answers: dict[str, int] = {}
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=base, timeout=10, transport=transport) as http:
        stop = time.monotonic() + seconds

        async def worker() -> None:
            while time.monotonic() < stop:
                r = await http.post("/api/tables", json={"preset": "short", "name": "f"})
                answers[str(r.status_code)] = answers.get(str(r.status_code), 0) + 1

        await asyncio.gather(*(worker() for _ in range(8)))
    return answers


async def sockets(base: str, seconds: float) -> dict[str, int]:
    url = base.replace("http", "ws", 1) + "/ws/x"
    answers: dict[str, int] = {}
    async with contextlib.AsyncExitStack() as held:
        for _ in range(16):
            await held.enter_async_context(connect(url, local_addr=("127.0.0.3", 0)))
        stop = time.monotonic() + seconds

        async def worker() -> None:
            while time.monotonic() < stop:
                try:
                    async with connect(url, local_addr=("127.0.0.3", 0), open_timeout=10) as ws:
                        what = str(json.loads(await asyncio.wait_for(ws.recv(), 10)).get("code"))
                except Exception as exc:
                    status = getattr(getattr(exc, "response", None), "status_code", None)
                    what = str(status) if status else type(exc).__name__
                answers[what] = answers.get(what, 0) + 1

        await asyncio.gather(*(worker() for _ in range(20)))
    return answers


async def messages(base: str, seconds: float) -> dict[str, int]:
    async with httpx.AsyncClient(base_url=base, timeout=10,
                                 transport=httpx.AsyncHTTPTransport(local_address="127.0.0.4")) as http:
        table = (await http.post("/api/tables", json={"preset": "short", "name": "f"})).json()["table"]["id"]
    url = base.replace("http", "ws", 1) + f"/ws/{table}"
    got: dict[str, int] = {"pings": 0, "opened": 0}
    stop = time.monotonic() + seconds

    async def one() -> None:
        while time.monotonic() < stop:
            try:
                async with connect(url, local_addr=("127.0.0.4", 0)) as ws:
                    got["opened"] += 1
                    await ws.send(json.dumps({"type": "hello", "spectate": True}))
                    while time.monotonic() < stop:
                        await ws.send('{"type": "ping"}')
                        got["pings"] += 1
                        if got["pings"] % 50 == 0:
                            await asyncio.sleep(0)
            except Exception as exc:
                status = getattr(getattr(exc, "response", None), "status_code", None)
                what = f"refused {status}" if status else f"closed ({type(exc).__name__})"
                got[what] = got.get(what, 0) + 1

    await asyncio.gather(*(one() for _ in range(20)))
    return got


def in_app() -> None:
    from spite.server import ServerConfig, create_app

    with tempfile.TemporaryDirectory(prefix="spite-cost-") as tmp:
        app = create_app(ServerConfig(db_url=f"sqlite:///{Path(tmp) / 'a.db'}", bot_workers=0, write_burst=1,
                                      write_rate=1e-9, max_sockets=0))
        app.state.manager = None  # not started: a refusal must not need it
        body = json.dumps({"preset": "short", "name": "f"}).encode()

        async def call(kind: str) -> int | None:
            scope: dict[str, Any] = {
                "type": kind, "asgi": {"version": "3.0"}, "http_version": "1.1", "path": "/api/tables",
                "raw_path": b"/api/tables", "query_string": b"", "root_path": "", "method": "POST",
                "scheme": "http", "headers": [(b"host", b"x"), (b"content-type", b"application/json"),
                                              (b"content-length", str(len(body)).encode())],
                "client": ("127.0.0.2", 1234), "server": ("127.0.0.1", 80), "state": {},
                "extensions": {"websocket.http.response": {}}}
            if kind == "websocket":
                scope.update(path="/ws/x", raw_path=b"/ws/x", scheme="ws")
            sent: list[dict[str, Any]] = []

            async def receive() -> dict[str, Any]:
                return ({"type": "http.request", "body": body, "more_body": False} if kind == "http"
                        else {"type": "websocket.connect"})

            async def send(message: dict[str, Any]) -> None:
                sent.append(message)

            await app(scope, receive, send)
            return sent[0].get("status") if sent else None

        async def measure() -> None:
            for kind in ("http", "websocket"):
                for _ in range(100):  # warm up (the first write passes: the budget is 1)
                    with contextlib.suppress(Exception):
                        status = await call(kind)
                t0 = time.process_time()
                for _ in range(3000):
                    status = await call(kind)
                print(json.dumps({"in_app": "POST /api/tables over budget" if kind == "http"
                                  else "handshake over the socket cap", "answer": status,
                                  "cpu_us_each": round((time.process_time() - t0) / 3000 * 1e6, 1)}), flush=True)

        asyncio.run(measure())


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--only", choices=["rest", "sockets", "messages"])
    p.add_argument("--in-app", action="store_true", help="the app's own CPU per refusal, without the network")
    a = p.parse_args()
    if a.in_app:
        in_app()
        return
    runs = {"rest": rest, "sockets": sockets, "messages": messages}
    for name, run in runs.items():
        if a.only and name != a.only:
            continue
        with server() as (base, pid):
            if name == "rest":  # spend the address's budget first
                asyncio.run(rest(base, 0.5))
            before = cpu_seconds(pid)
            t0 = time.monotonic()
            answers = asyncio.run(run(base, a.seconds))
            took = time.monotonic() - t0
            time.sleep(0.5)  # what the server still had to do
            cpu = cpu_seconds(pid) - before
        count = sum(v for k, v in answers.items() if k != "opened")
        print(json.dumps({"run": name, "seconds": round(took, 1), "answers": answers,
                          "per_s": round(count / took), "server_cpu_s": round(cpu, 2),
                          "server_cpu_us_each": round(cpu / max(1, count) * 1e6),
                          "loadavg": Path("/proc/loadavg").read_text().split()[:3]}), flush=True)


if __name__ == "__main__":
    main()
