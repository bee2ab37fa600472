"""What holding idle tables costs each worker of ``spite serve --workers N``: CPU per worker while
it holds its share of ``--tables`` tables by lease and nothing else happens.

Starts ``spite serve --workers N`` on a fresh database of the PostgreSQL server of ``--db`` (made
here, dropped afterwards), creates ``--tables`` open tables (two person seats, nobody sits down:
their creator lets go of them and the workers' sweeps take them within seconds), waits until every
one is held, then reads each worker's CPU time (user + system, ``/proc/PID/stat``) over
``--seconds``. What it measures is the workers' upkeep: lease renewals, the looks for hand-overs
and orphans, the tables' timers. Usage::

    python examples/idle_upkeep.py --db postgresql://postgres@127.0.0.1:55434/postgres \\
        [--workers 2] [--tables 1000] [--seconds 15] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from spite.bench.server import stop_process
from spite.server import db


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def create_tables(base: str, count: int) -> None:
    """``count`` open tables, 16 requests at a time."""
    body = {"preset": "short", "join": False, "seats": [{"kind": "person"}, {"kind": "person"}]}
    gate = asyncio.Semaphore(16)
    async with httpx.AsyncClient(timeout=60) as client:
        async def one() -> None:
            async with gate:
                answer = await client.post(base + "/api/tables", json=body)
                answer.raise_for_status()

        await asyncio.gather(*(one() for _ in range(count)))


def held(url: str) -> dict[int, int]:
    """Open tables with an owner and a lease, by the owner's process id."""
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            t = db.tables
            rows = conn.execute(sa.select(t.c.owner, sa.func.count()).where(
                t.c.status == "open", t.c.owner.is_not(None), t.c.lease_until.is_not(None)).group_by(t.c.owner)).all()
    finally:
        engine.dispose()
    return {int(owner.rsplit(":", 1)[1]): int(n) for owner, n in rows}


def measure(base_url: str, workers: int, tables: int, seconds: float) -> dict[str, Any]:
    with db.scratch_database(base_url, "spite_idle") as url, tempfile.TemporaryDirectory(prefix="spite-idle-") as tmp:
        port = free_port()
        log = Path(tmp) / "serve.log"
        limits = [arg for name in ("max_open_tables", "write_burst", "write_rate", "proxy_requests",
                                   "proxy_connections") for arg in ("--limit", f"{name}=1000000")]
        with open(log, "wb") as out:
            proc = subprocess.Popen([sys.executable, "-c", "from spite.cli import main; main()", "serve",
                                     "--workers", str(workers), "--db", url, "--port", str(port), "--log-level",
                                     "warning", "--bot-workers", "0", *limits], stdout=subprocess.DEVNULL, stderr=out)
        try:
            deadline = time.monotonic() + 120
            while "behind HAProxy" not in (text := log.read_text(errors="replace")):
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the workers did not start: {text.strip()[-500:]}")
                time.sleep(0.2)
            pids = [int(m) for m in re.findall(r"worker \d+ \(pid (\d+)\)", text)]
            t0 = time.monotonic()
            asyncio.run(create_tables(f"http://127.0.0.1:{port}", tables))
            while sum(held(url).values()) < tables:
                if time.monotonic() - t0 > 300:
                    raise SystemExit(f"only {sum(held(url).values())} of {tables} tables are held after 300 s")
                time.sleep(1)
            setup = time.monotonic() - t0
            time.sleep(3)  # the last sweeps' rebuilds done
            before, start = {pid: cpu_seconds(pid) for pid in pids}, time.monotonic()
            time.sleep(seconds)
            after, elapsed = {pid: cpu_seconds(pid) for pid in pids}, time.monotonic() - start
            shares = held(url)
        finally:
            stop_process(proc, 30)
    return {"workers": workers, "tables": tables, "seconds": round(elapsed, 1), "setup_s": round(setup, 1),
            "cpu_pct_each": [round(100 * (after[p] - before[p]) / elapsed, 1) for p in pids],
            "tables_each": [shares.get(p, 0) for p in pids], "load_average": round(os.getloadavg()[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", required=True, help="a PostgreSQL URL (a fresh database is made on its server)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON line")
    args = parser.parse_args()
    figures = measure(args.db, args.workers, args.tables, args.seconds)
    if args.json:
        print(json.dumps(figures))
        return
    each = " + ".join(f"{pct} %" for pct in figures["cpu_pct_each"])
    share = " + ".join(str(n) for n in figures["tables_each"])
    print(f"{figures['tables']} idle tables ({share}) on {figures['workers']} workers, {figures['seconds']} s: CPU "
          f"{each} of a core (load average {figures['load_average']})")


if __name__ == "__main__":
    main()
