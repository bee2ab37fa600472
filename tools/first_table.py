"""The time from "Play the computer" in the lobby to the first card a person can move, and the bytes a
first visit loads up to there (docs/web.md, "What a first visit costs").

A fresh server (``python -m spite.server`` with its defaults: the computer plays at its usual pace)
on a temporary database, and Debian's Chromium (Playwright; never a downloaded browser) with a cold
cache each run: the lobby is opened, the first game's tile is clicked ("Play the computer"), and the
clock stops when a card of the person's own is lit as playable (the computer may move first: that is
part of the wait a person sees). The bytes are what the network delivered (gzip, headers included),
from the lobby's first request to that moment.

    .venv/bin/python tools/first_table.py --runs 5
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=768)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="spite-first-table-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "spite.server", "--port", str(port), "--db",
                               f"sqlite:///{folder / 'spite.db'}", "--log-level", "warning"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit("the server did not start")
            time.sleep(0.1)
        times, table_times, sizes = [], [], []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            for _ in range(args.runs):
                ctx = browser.new_context(viewport={"width": args.width, "height": args.height}, locale="en-US")
                page = ctx.new_page()
                cdp = ctx.new_cdp_session(page)
                cdp.send("Network.enable")
                got: dict[str, int] = {}
                cdp.on("Network.loadingFinished", lambda e, got=got: got.__setitem__(e["requestId"],
                                                                                     int(e["encodedDataLength"])))
                page.goto(base + "/")
                page.wait_for_selector("[data-play=computer]")
                started = time.perf_counter()
                page.locator("[data-play=computer]").first.click()
                page.wait_for_selector(".table .board", timeout=60_000)
                table_times.append(time.perf_counter() - started)
                page.wait_for_selector('.me [data-playable="1"]', timeout=120_000)
                times.append(time.perf_counter() - started)
                sizes.append(sum(got.values()))
                ctx.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)

    def line(name: str, values: list[float], unit: str, scale: float = 1.0) -> str:
        vs = [v * scale for v in values]
        return f"{name}: min {min(vs):.2f} {unit}, median {statistics.median(vs):.2f} {unit}, max {max(vs):.2f} {unit}"

    print(f"{args.runs} runs at {args.width}x{args.height}, cold cache each")
    print(line("Play -> the table drawn", table_times, "s"))
    print(line("Play -> a card of yours to move", times, "s"))
    print(line("bytes of the visit (lobby and table, gzip)", [float(s) for s in sizes], "kB", 1 / 1000))


if __name__ == "__main__":
    main()
