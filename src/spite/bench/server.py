"""``spite bench server``: many bot-vs-bot tables over real WebSockets against a real server.

The server runs in its own process (``python -m spite.server`` on a free port, a fresh SQLite file,
every move committed before its ack). This process holds the clients: for each of ``tables``
table slots it creates a two-seat table, takes both seats, and plays uniformly random legal moves
for both over two WebSockets; when a game ends the slot starts a new table, so ``tables`` games
are always in play. Each move's time from send to its ``ack`` is measured, over ``seconds`` that
start ``warmup`` seconds after every table has been seated.

``think`` is the clients' pace: when it becomes a seat's turn to move, the seat waits a time drawn
uniformly from [0.5 × think, 1.5 × think] (a seeded RNG) before it sends its move, like a person
(or a bot at a person's pace) would. ``think=0`` plays flat out (a closed loop with no pause): the
server is then saturated and the send→ack time is mostly queueing (about tables / throughput), so
it measures throughput, not what a player at one of that many tables would see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["DEFAULT_THINK", "run_server_bench", "stop_process"]

GC_PROBE = "SPITE_GC_PROBE"
"""Set for the processes the bench measures: they time their collector's passes (``/healthz``)."""

SETUP_LIMIT = 120.0
"""The most seconds to wait for every table to be seated before the warm-up starts regardless."""

DEFAULT_THINK = 1.0
"""Mean seconds a client seat waits before each move: a fast human, a card a second."""


@dataclass
class _Tally:
    latencies: list[float] = field(default_factory=list)
    sent: list[float] = field(default_factory=list)
    """When each move of :attr:`latencies` was sent (``perf_counter``), to tell which overlapped a pause
    of the clients' own process."""
    moves: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    welcomes: int = 0
    stop: float = math.inf
    """When the seats stop sending moves (set once the measured window is known)."""

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


_PROFILED = """
import signal, sys
path = sys.argv[1]
if path.endswith((".txt", ".html")):
    from pyinstrument import Profiler
    prof = Profiler()
    def start(*_): prof.start()
    def stop(*_):
        prof.stop()
        with open(path, "w") as f:
            f.write(prof.output_html() if path.endswith(".html") else prof.output_text(unicode=True))
else:
    import cProfile
    prof = cProfile.Profile()
    def start(*_): prof.enable()
    def stop(*_):
        prof.disable()
        prof.dump_stats(path)
signal.signal(signal.SIGUSR1, start)
signal.signal(signal.SIGUSR2, stop)
from spite.server.__main__ import main
main(sys.argv[3:])
"""
"""The server under a profiler that runs from SIGUSR1 to SIGUSR2 (the measured window only; the event
loop's thread only: the database writer's thread is not in it)."""


def stop_process(proc: subprocess.Popen[Any], grace: float = 15.0) -> None:
    """Stop a server process: ask it to end (SIGTERM, so that it can close its tables and sockets),
    and kill it if it has not ended within ``grace`` seconds."""
    proc.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(grace)
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used so far (Linux ``/proc``), or ``None``."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _cpu_wait_seconds(pid: int) -> float | None:
    """Seconds the threads of a process have waited, runnable, for a CPU (Linux schedstat), or ``None``:
    how much other work on the machine held the server back."""
    try:
        return sum(int((task / "schedstat").read_text().split()[1]) for task in Path(f"/proc/{pid}/task").iterdir()
                   ) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def _cpu_total(pids: list[int], wait: bool = False) -> dict[int, float]:
    """Each process's CPU seconds (or, with ``wait``, its seconds waiting for a CPU), those still there."""
    out = {}
    for pid in pids:
        value = _cpu_wait_seconds(pid) if wait else _cpu_seconds(pid)
        if value is not None:
            out[pid] = value
    return out


def _thread_cpu(pids: list[int]) -> dict[int, float]:
    """Each thread's CPU seconds so far (Linux ``/proc``), by its native id, for every process."""
    out: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                    out[int(task.name)] = (int(fields[11]) + int(fields[12])) / tick
    return out


def _by_thread(before: dict[int, float], after: dict[int, float], healths: list[dict[str, Any] | None],
               moves: int) -> dict[str, float]:
    """The servers' CPU a move split by thread (the names their ``/healthz`` gave, the event loop's
    thread is ``MainThread``; the others of a pool by its prefix), summed over the processes."""
    names: dict[int, str] = {}
    for health in healths:
        if health and "gc" in health:
            names.update({int(tid): name for tid, name in health["gc"].get("threads", {}).items()})
    out: dict[str, float] = {}
    for tid, cpu in after.items():
        name = names.get(tid, "other")
        out[name] = out.get(name, 0.0) + cpu - before.get(tid, 0.0)
    return {name: round(1000 * cpu / moves, 3) for name, cpu in sorted(out.items()) if moves and cpu > 0}


def _used(before: dict[int, float], after: dict[int, float]) -> float | None:
    """Seconds used between two :func:`_cpu_total` readings by the processes in both, or ``None``."""
    both = [pid for pid in before if pid in after]
    return sum(after[p] - before[p] for p in both) if both else None


def _postgres_pids(url: str) -> list[int]:
    """The local PostgreSQL server's processes (its postmaster and every child), to measure the
    database's CPU beside the workers'; empty when the server is elsewhere or cannot be asked."""
    try:
        import sqlalchemy as sa

        from spite.server.db import normalize_url

        engine = sa.create_engine(normalize_url(url))
        try:
            with engine.connect() as conn:
                folder = conn.exec_driver_sql("SHOW data_directory").scalar()
        finally:
            engine.dispose()
        master = int(Path(str(folder), "postmaster.pid").read_text().split()[0])
    except Exception:
        return []
    pids = [master]
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == master:
                pids.append(int(stat.parent.name))
    return pids


async def _seat(url: str, token: str, rng: random.Random, tally: _Tally, think: float) -> bool:
    """Play one seat until the game ends or the time is up; ``True`` when the game ended."""
    import websockets

    async with websockets.connect(url, max_size=2**20, open_timeout=60) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        pending = False
        while True:
            try:  # (asyncio.timeout, not wait_for: that makes a task per message, in the clients' CPU)
                async with asyncio.timeout(max(0.5, min(60.0, tally.stop - time.perf_counter() + 0.5))):
                    raw = await ws.recv()
            except TimeoutError:
                if time.perf_counter() > tally.stop:
                    return False
                continue
            if time.perf_counter() > tally.stop and not pending:
                return False
            msg = json.loads(raw)
            kind = msg["type"]
            if kind == "ack":
                assert sent_at is not None
                tally.latencies.append(time.perf_counter() - sent_at)
                tally.sent.append(sent_at)
                tally.moves += 1
                pending = False
            elif kind == "error":
                tally.error(msg["code"])
                pending = False
            elif kind == "gameOver":
                return True
            elif kind == "welcome":
                tally.welcomes += 1
            if kind in ("welcome", "state") and msg["view"]["finished"]:
                continue  # the gameOver message follows
            if kind in ("welcome", "state") and msg["legal"] and not pending:
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                if time.perf_counter() > tally.stop:
                    return False
                move = json.dumps({"type": "move", "move": rng.choice(msg["legal"]),
                                   "stateVersion": msg["stateVersion"]})
                sent_at = time.perf_counter()
                pending = True
                await ws.send(move)


async def _post(port: int, path: str, body: dict[str, Any]) -> Any:
    """POST JSON to the server on 127.0.0.1 and return the JSON answer (a plain HTTP/1.1 request on its own
    connection: httpx's pool costs the client far more CPU than the server spends on the request when
    hundreds of requests queue, and the clients share the machine with the server)."""
    data = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = head.split(b" ", 2)[1:2]
    if status != [b"200"]:
        raise RuntimeError(f"POST {path}: {head[:40]!r} {payload[:200]!r}")
    return json.loads(payload)


async def _slot(port: int, preset: str | None, rng: random.Random, tally: _Tally, think: float) -> None:
    while time.perf_counter() < tally.stop:
        try:
            created = await _post(port, "/api/tables", {"preset": preset, "name": "bench-a"})
            table_id = created["table"]["id"]
            joined = await _post(port, f"/api/tables/{table_id}/join", {"name": "bench-b"})
            url = f"ws://127.0.0.1:{port}/ws/{table_id}"
            ended = await asyncio.gather(
                _seat(url, created["token"], random.Random(rng.random()), tally, think),
                _seat(url, joined["token"], random.Random(rng.random()), tally, think))
        except Exception as exc:  # a client-side failure (refused, reset, timed out) is counted, not fatal
            tally.error(f"client:{type(exc).__name__}")
            await asyncio.sleep(0.5)
            continue
        if any(ended):
            tally.games += 1


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _health(url: str) -> dict[str, Any] | None:
    """A server's ``/healthz`` answer, or ``None``."""
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return json.loads(answer.read())  # type: ignore[no-any-return]
    except (OSError, urllib.error.URLError, ValueError):
        return None


def _server_pauses(healths: list[dict[str, Any] | None], wall0: float, wall1: float) -> dict[str, Any]:
    """The servers' collector passes of at least 1 ms that ended within ``[wall0, wall1]`` (their
    ``SPITE_GC_PROBE`` figures in ``/healthz``): the longest, how many over 5 and 50 ms, their total."""
    pauses = [(ms, gen) for health in healths if health and "gc" in health
              for at, ms, gen, _ in health["gc"]["long"] if wall0 <= at <= wall1]
    cpu = [cpu_ms for health in healths if health and "gc" in health
           for at, _, _, cpu_ms in health["gc"]["long"] if wall0 <= at <= wall1]
    if not any(health and "gc" in health for health in healths):
        return {}
    return {"server_gc_max_ms": round(max((ms for ms, _ in pauses), default=0.0), 2),
            "server_gc_max_cpu_ms": round(max(cpu, default=0.0), 2),
            "server_gc_over_5ms": sum(ms > 5 for ms, _ in pauses),
            "server_gc_over_50ms": sum(ms > 50 for ms, _ in pauses),
            "server_gc_full_passes": sum(gen == 2 for _, gen in pauses),
            "server_gc_max_ms_by_generation": [round(max((ms for ms, g in pauses if g == gen), default=0.0), 2)
                                               for gen in range(3)],
            "server_gc_ms": round(sum(ms for ms, _ in pauses), 1)}


def _outside_pauses(tally: _Tally, pauses: list[tuple[float, float, int]]) -> list[float]:  # (end, ms, generation)
    """The latencies of moves during whose send→ack the clients' own process was not stopped by a
    collector pass of at least 1 ms (``pauses``: ``(end, ms, generation)`` on ``perf_counter``)."""
    import bisect

    spans = sorted((end - ms / 1000, end) for end, ms, _ in pauses)
    ends = [end for _, end in spans]
    out = []
    for sent, lat in zip(tally.sent, tally.latencies, strict=True):
        i = bisect.bisect_right(ends, sent)  # the first pause that ended after the send
        if i < len(spans) and spans[i][0] < sent + lat:
            continue
        out.append(lat)
    return out


async def _clients(port: int, tables: int, seconds: float, preset: str | None, seed: int, warmup: float,
                   think: float, server_pids: list[int], progress: Callable[[dict[str, Any]], None] | None,
                   mark: Callable[[int], None] | None = None, proxy_pids: list[int] | None = None,
                   db_url: str | None = None, health_urls: list[str] | None = None) -> dict[str, Any]:
    import gc

    from spite.server.collector import Collector
    from spite.server.pauses import GcPauses

    rng = random.Random(seed)
    tally = _Tally()
    start = time.perf_counter()
    tasks = [asyncio.create_task(_slot(port, preset, random.Random(rng.random()), tally, think))
             for _ in range(tables)]
    # the warm-up runs from the moment every table is seated (or at most SETUP_LIMIT seconds)
    shown = start
    while tally.welcomes < 2 * tables and (now := time.perf_counter()) - start < SETUP_LIMIT:
        await asyncio.sleep(0.05)
        if progress is not None and now - shown >= 1.0:
            shown = now
            progress({"phase": "setup", "elapsed": round(now - start, 1), "seated": min(tables, tally.welcomes // 2),
                      "tables": tables})
    setup = time.perf_counter() - start
    if progress is not None:
        progress({"phase": "warmup", "elapsed": round(setup, 1), "seated": min(tables, tally.welcomes // 2),
                  "tables": tables, "warmup": warmup})
    # the seated tables' sockets and coroutines live as long as the run: the clients' process keeps its
    # collector as the server does (a pass stops every client at once, and its moves' latencies with
    # it); the passes left are timed, and moves they overlapped are reported apart
    collector = Collector().start(asyncio.get_running_loop())
    client_pauses = GcPauses(time.perf_counter).install()
    await asyncio.sleep(warmup)
    tally.stop = time.perf_counter() + seconds
    stop = tally.stop
    tally.latencies.clear()
    tally.sent.clear()
    tally.errors.clear()
    client_pauses.long.clear()
    if mark is not None:
        mark(signal.SIGUSR1)
    moves0, games0, t0 = tally.moves, tally.games, time.perf_counter()
    db_pids = _postgres_pids(db_url) if db_url is not None and db_url.startswith("postgres") else []
    cpu0, wait0 = _cpu_total(server_pids), _cpu_total(server_pids, wait=True)
    threads0 = _thread_cpu(server_pids)
    proxy0, db0 = _cpu_total(proxy_pids or []), _cpu_total(db_pids)
    load0 = os.getloadavg()[0]
    own0, wall0 = time.process_time(), time.time()
    while (now := time.perf_counter()) < stop:
        await asyncio.sleep(min(1.0, stop - now))
        now = time.perf_counter()
        if progress is not None and now < stop - 0.05:
            progress({"phase": "measure", "elapsed": round(now - t0, 1), "seconds": seconds,
                      "moves": tally.moves - moves0,
                      "moves_per_s": round((tally.moves - moves0) / max(1e-9, now - t0), 1),
                      "p99_ms": _ms(_percentile(tally.latencies, 0.99)), "games": tally.games - games0,
                      "errors": sum(tally.errors.values())})
    # the measured window ends: moves sent before it are still acknowledged (and their latency counted)
    cpu1, wait1 = _cpu_total(server_pids), _cpu_total(server_pids, wait=True)
    threads1 = _thread_cpu(server_pids)
    proxy1, db1 = _cpu_total(proxy_pids or []), _cpu_total(db_pids)
    load1 = os.getloadavg()[0]
    t1, own1, moves1, games1 = time.perf_counter(), time.process_time(), tally.moves, tally.games
    wall1 = time.time()
    if mark is not None:
        mark(signal.SIGUSR2)
    await asyncio.gather(*tasks)
    client_pauses.remove()
    collector.stop()
    gc.unfreeze()
    healths = [await asyncio.to_thread(_health, url) for url in health_urls or []]
    elapsed = t1 - t0
    lat = tally.latencies
    window_pauses = [p[:3] for p in client_pauses.long if t0 <= p[0] <= t1 + 60]
    clean = _outside_pauses(tally, window_pauses)
    moves = moves1 - moves0
    server_cpu = _used(cpu0, cpu1)
    cpu_wait = _used(wait0, wait1)
    proxy_cpu, db_cpu = _used(proxy0, proxy1), _used(db0, db1)
    return {
        "tables": tables, "think_s": think, "setup_s": round(setup, 2), "seconds": round(elapsed, 2), "moves": moves,
        "offered_moves_per_s": round(tables / think, 1) if think > 0 else None,
        "moves_per_s": round(moves / elapsed, 1) if elapsed > 0 else 0.0,
        "p50_ms": _ms(_percentile(lat, 0.50)), "p95_ms": _ms(_percentile(lat, 0.95)),
        "p99_ms": _ms(_percentile(lat, 0.99)), "max_ms": _ms(max(lat)) if lat else float("nan"),
        "mean_ms": _ms(statistics.fmean(lat)) if lat else float("nan"),
        "games_finished": games1 - games0, "errors": dict(tally.errors),
        "server_cpu_pct": round(100 * server_cpu / elapsed, 1) if server_cpu is not None and elapsed > 0 else None,
        "server_cpu_ms_per_move": round(1000 * server_cpu / moves, 3) if server_cpu is not None and moves else None,
        "server_cpu_pct_each": [round(100 * (cpu1[pid] - cpu0[pid]) / elapsed, 1) if pid in cpu0 and pid in cpu1
                                and elapsed > 0 else None for pid in server_pids],
        "server_cpu_wait_pct": round(100 * cpu_wait / elapsed / max(1, len(server_pids)), 1)
        if cpu_wait is not None and elapsed > 0 else None,
        "proxy_cpu_pct": round(100 * proxy_cpu / elapsed, 1) if proxy_cpu is not None and elapsed > 0 else None,
        "db_cpu_pct": round(100 * db_cpu / elapsed, 1) if db_cpu is not None and elapsed > 0 else None,
        "db_cpu_ms_per_move": round(1000 * db_cpu / moves, 3) if db_cpu is not None and moves else None,
        "load_average": [round(load0, 2), round(load1, 2)],
        "client_cpu_pct": round(100 * (own1 - own0) / elapsed, 1) if elapsed > 0 else None,
        "client_gc_max_ms": round(max((ms for _, ms, _ in window_pauses), default=0.0), 2),
        "client_gc_over_5ms": sum(ms > 5 for _, ms, _ in window_pauses),
        "moves_in_client_pauses": len(lat) - len(clean),
        "p99_ms_outside_client_pauses": _ms(_percentile(clean, 0.99)),
        "max_ms_outside_client_pauses": _ms(max(clean)) if clean else float("nan"),
        **_server_pauses(healths, wall0, wall1),
        "server_cpu_ms_per_move_by_thread": _by_thread(threads0, threads1, healths, moves),
    }


_NO_LIMITS = tuple(arg for name in ("max_sockets", "max_open_tables", "write_burst", "burst", "proxy_connections",
                                    "proxy_requests")
                   for arg in ("--limit", f"{name}=1000000"))
"""Every client of the bench comes from 127.0.0.1: the per-address limits (docs/protocol.md,
"Limits") would otherwise measure themselves instead of the server."""


def run_server_bench(tables: int = 50, seconds: float = 10.0, *, think: float = DEFAULT_THINK,
                     preset: str | None = None, db: str | None = None, seed: int = 1, warmup: float = 3.0,
                     server_args: tuple[str, ...] = (), profile: str | None = None,
                     progress: Callable[[dict[str, Any]], None] | None = None, workers: int = 1,
                     baseline: bool = False) -> dict[str, Any]:
    """Start a server process, run the clients here, return the figures: offered and achieved moves/s,
    send→ack p50/p95/p99/max, games finished, errors, and the server process's CPU use.

    ``profile``: a file for a profile of the server process (pyinstrument's text report if the name
    ends in ``.txt``, or ``.html``; a cProfile dump otherwise).

    ``baseline``: then, in the same run and with the same clients, the floor
    (:mod:`spite.bench.floor_app`: the same stack doing nothing but acknowledge, broadcast and insert
    a row a move) on the same kind of database; its figures go under ``floor`` and the server's CPU a
    move over the floor's is ``floor_ratio``."""
    if tables < 1 or seconds <= 0 or think < 0 or warmup < 0:
        raise ValueError("tables ≥ 1, seconds > 0, think ≥ 0 and warmup ≥ 0")
    if workers != 1:
        if profile is not None:
            raise RuntimeError("--profile measures one server process: not with --workers")
        if db is None or not db.startswith("postgres"):
            raise RuntimeError("--workers above 1 needs a PostgreSQL database (--db postgresql://…)")
        figures = _run_workers_bench(tables, seconds, think=think, preset=preset, db=db, seed=seed, warmup=warmup,
                                     server_args=server_args, progress=progress, workers=workers)
    else:
        figures = _run_one_process("server", tables, seconds, think=think, preset=preset, db=db, seed=seed,
                                   warmup=warmup, server_args=server_args, profile=profile, progress=progress)
    if baseline:
        if progress is not None:
            progress({"phase": "floor"})
        floor = _run_one_process("floor", tables, seconds, think=think, preset=preset, db=db, seed=seed,
                                 warmup=warmup, progress=progress)
        figures["floor"] = {key: floor[key] for key in _FLOOR_FIGURES if key in floor}
        server_cpu, floor_cpu = figures.get("server_cpu_ms_per_move"), floor.get("server_cpu_ms_per_move")
        figures["floor_cpu_ms_per_move"] = floor_cpu
        figures["floor_ratio"] = round(server_cpu / floor_cpu, 2) if server_cpu and floor_cpu else None
    return figures


_FLOOR_FIGURES = ("moves", "moves_per_s", "p50_ms", "p99_ms", "max_ms", "server_cpu_pct", "server_cpu_ms_per_move",
                  "server_cpu_wait_pct", "client_cpu_pct", "server_gc_max_ms", "load_average")
"""The floor's figures the bench keeps (under ``floor``)."""


def _run_one_process(kind: str, tables: int, seconds: float, *, think: float, preset: str | None, db: str | None,
                     seed: int, warmup: float, server_args: tuple[str, ...] = (), profile: str | None = None,
                     progress: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """The clients against one process: ``kind`` ``server`` (``python -m spite.server``) or ``floor``
    (:mod:`spite.bench.floor_app`), on ``db`` or a fresh SQLite file."""
    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="spite-bench-") as tmp:
        url = db or f"sqlite:///{Path(tmp) / 'bench.db'}"
        runner = [sys.executable, "-m"] if profile is None else [sys.executable, "-c", _PROFILED, profile]
        if kind == "floor":
            argv = [sys.executable, "-m", "spite.bench.floor_app", "--port", str(port), "--db", url]
        else:
            argv = [*runner, "spite.server", "--port", str(port), "--db", url, "--log-level", "warning",
                    "--rate", "1000", "--bot-workers", "0", *_NO_LIMITS, *server_args]
        # the server's messages go to a file (a pipe nobody reads would stall the server once full)
        errors = open(Path(tmp) / "server.err", "w+b")  # noqa: SIM115 (closed below)
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors, env={**os.environ, GC_PROBE: "1"})
        try:
            _wait_up(f"http://127.0.0.1:{port}", proc, errors)
            mark = (lambda sig: proc.send_signal(sig)) if profile is not None else None
            figures = asyncio.run(_clients(port, tables, seconds, preset, seed, warmup, think, [proc.pid], progress,
                                           mark, db_url=url, health_urls=[f"http://127.0.0.1:{port}/healthz?gc=1"]))
            figures["db"] = url.split(":", 1)[0]
            figures["workers"] = 1
            figures["server_pid"] = proc.pid
            return figures
        finally:
            stop_process(proc, 30 if profile else 15)
            errors.close()


def _run_workers_bench(tables: int, seconds: float, *, think: float, preset: str | None, db: str, seed: int,
                       warmup: float, server_args: tuple[str, ...],
                       progress: Callable[[dict[str, Any]], None] | None, workers: int) -> dict[str, Any]:
    """:func:`run_server_bench` against ``spite serve --workers N`` (HAProxy in front; the CPU figures
    are the workers' together, HAProxy's and the local database's beside them)."""
    import re

    port = _free_port()
    with tempfile.TemporaryDirectory(prefix="spite-bench-") as tmp:
        errors = open(Path(tmp) / "server.err", "w+b")  # noqa: SIM115 (closed below)
        proc = subprocess.Popen(
            [sys.executable, "-c", "from spite.cli import main; main()", "serve", "--workers", str(workers),
             "--port", str(port), "--db", db, "--log-level", "warning", "--bot-workers", "0", "--bot-delay", "0",
             "--limit", "rate=1000", *_NO_LIMITS, *server_args],
            stdout=subprocess.DEVNULL, stderr=errors, env={**os.environ, GC_PROBE: "1"})
        try:
            deadline = time.monotonic() + 120
            text = ""
            while "behind HAProxy" not in text:
                if proc.poll() is not None or time.monotonic() > deadline:
                    last = text.strip().splitlines()[-1:] or [f"exit code {proc.returncode}"]
                    raise RuntimeError(f"the workers did not start: {last[0]}")
                time.sleep(0.2)
                errors.seek(0)
                text = errors.read().decode(errors="replace")
            pids = [int(m) for m in re.findall(r"worker \d+ \(pid (\d+)\)", text)]
            ports = [int(m) for m in re.findall(r"worker \d+ \(pid \d+\) on 127\.0\.0\.1:(\d+)", text)]
            proxy = [int(m) for m in re.findall(r"behind HAProxy \(pid (\d+)\)", text)]
            figures = asyncio.run(_clients(port, tables, seconds, preset, seed, warmup, think, pids, progress,
                                           proxy_pids=proxy, db_url=db,
                                           health_urls=[f"http://127.0.0.1:{p}/healthz?gc=1" for p in ports]))
            figures["db"] = "postgresql"
            figures["workers"] = workers
            figures["server_pids"] = pids
            return figures
        finally:
            stop_process(proc, 30)
            errors.close()


def _wait_up(base: str, proc: subprocess.Popen[bytes], errors: Any) -> None:
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            errors.seek(0)
            err = errors.read().decode(errors="replace")
            raise RuntimeError(f"the server exited: {err.strip().splitlines()[-1] if err.strip() else proc.returncode}")
        with contextlib.suppress(OSError, urllib.error.URLError), urllib.request.urlopen(base + "/healthz",
                                                                                        timeout=1) as answer:
            if answer.status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError("the server did not start within 30 s")
