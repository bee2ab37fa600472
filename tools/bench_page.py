"""``make bench-page``: what the browser page costs to draw a move, on the same games every time.

A server with predictable deals (``--predictable-deals``, a test-only setting: the same requests make
the same deals) seats two people at a table; this script plays both seats over WebSockets, each move
the one a player in a hurry makes (the stock onto a build pile, else any card onto one, else the
first legal move: a discard). Debian's headless Chromium holds seat 0 at a laptop's size (1366×768),
its random numbers fixed (its deal nonces: tools/screenshots.py's ``FIXED``) and the pace of others'
moves off; after every move the script waits until the page has drawn it, so that each move is one
redraw with its flights (a flood would be drawn at once).

Printed per move drawn: the CPU seconds of Chromium's processes (the renderer's and all of them, read
from ``/proc``), and the page's main-thread time in script, layout and style recalculation with their
counts (Chrome DevTools Protocol ``Performance.getMetrics``). Games differ in length, so figures are per
move; the same seed gives the same games, so two versions of the page compare move for move.

    PYTHONPATH=src python tools/bench_page.py [--games 3] [--seed 7] [--stock 6] [--reduced-motion]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright
from websockets.sync.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshots import ARGS, CHROMIUM, FIXED, seat_script, server  # a sibling tool

METRICS = ("ScriptDuration", "LayoutDuration", "RecalcStyleDuration", "LayoutCount", "RecalcStyleCount")
MOVE_TIMEOUT = 30.0


def eager_move(legal: list[str]) -> str:
    """The stock onto a build pile, else any card onto one, else the first legal move."""
    for prefix in ("S-B", "H", "D"):
        builds = [m for m in legal if m.startswith(prefix) and "-B" in m]
        if builds:
            return builds[0]
    return legal[0]


def descendants_cpu(word: bytes) -> float:
    """CPU seconds of this process's descendants whose command line holds ``word``."""
    parents: dict[int, int] = {}
    lines: dict[int, bytes] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
            lines[int(name)] = Path(f"/proc/{name}/cmdline").read_bytes()
        except OSError:
            continue
        parents[int(name)] = int(fields[1])
        times[int(name)] = (int(fields[11]) + int(fields[12])) / tick
    mine = os.getpid()

    def below(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == mine:
                return True
        return False

    return sum(t for pid, t in times.items() if word in lines.get(pid, b"") and below(pid))


def friends_table(base: str, stock: int) -> tuple[str, str, str]:
    """A short table of two people: its id and both seats' tokens."""
    made = httpx.post(base + "/api/tables", json={
        "game": "spite-malice", "preset": "short", "options": {"stock_size": stock}, "name": "Ann",
        "seats": [{"kind": "person"}, {"kind": "person"}]}, timeout=10)
    made.raise_for_status()
    table_id, ann = made.json()["table"]["id"], made.json()["token"]
    bob = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": "Bob"}, timeout=10).json()["token"]
    return table_id, ann, bob


def newest(ws: ClientConnection, last: dict[str, Any] | None) -> dict[str, Any] | None:
    """The newest position this seat's socket has been sent (``last`` when nothing new came)."""
    while True:
        try:
            msg = json.loads(ws.recv(timeout=0))
        except TimeoutError:
            return last
        if msg["type"] in ("welcome", "state") and (last is None or msg["stateVersion"] >= last["stateVersion"]):
            last = msg
        elif msg["type"] == "gameOver":
            return {**(last or {}), "over": True}


def snapshot(cdp: Any) -> list[float]:
    """Chromium's CPU seconds (the renderer's, then all), the page's counters (:data:`METRICS`, which a
    navigation sets back to 0) and the time."""
    counters = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return [descendants_cpu(b"--type=renderer"), descendants_cpu(b"chrom"), *(counters[k] for k in METRICS),
            time.monotonic()]


def play_one_game(page: Any, cdp: Any, base: str, stock: int) -> tuple[int, list[float]]:
    """Both seats played over WebSockets while the page holds seat 0: the number of moves drawn and
    what drawing them cost (the difference of two :func:`snapshot`, from the table's first view on)."""
    table_id, ann, bob = friends_table(base, stock)
    page.goto(base + "/")
    page.evaluate(seat_script((table_id, 0, ann)))
    page.goto(f"{base}/t/{table_id}")
    page.wait_for_selector(".table")
    start = snapshot(cdp)
    url = base.replace("http", "ws", 1) + f"/ws/{table_id}"
    moves = 0
    with connect(url, open_timeout=10) as seat0, connect(url, open_timeout=10) as seat1:
        sockets = (seat0, seat1)
        for ws, token in zip(sockets, (ann, bob), strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        seen: list[dict[str, Any] | None] = [None, None]
        deadline = time.monotonic() + MOVE_TIMEOUT
        while True:
            seen = [newest(ws, s) for ws, s in zip(sockets, seen, strict=True)]
            if any(s and s.get("over") for s in seen):
                break
            mover = next((k for k, s in enumerate(seen) if s and s.get("legal")), None)
            if mover is None:
                if time.monotonic() > deadline:
                    raise SystemExit("no seat was to move for 30 s: the server stopped answering")
                time.sleep(0.002)
                continue
            position = seen[mover]
            assert position is not None
            sockets[mover].send(json.dumps({"type": "move", "move": eager_move(position["legal"]),
                                            "stateVersion": position["stateVersion"]}))
            seen[mover] = {**position, "legal": []}  # answered: wait for the next position
            version = position["stateVersion"] + 1
            page.wait_for_function(f"() => Number(document.querySelector('.table')?.dataset.version) >= {version}"
                                   " || document.querySelector('.table')?.dataset.over === '1'",
                                   timeout=MOVE_TIMEOUT * 1000)
            moves += 1
            deadline = time.monotonic() + MOVE_TIMEOUT
    page.wait_for_selector('.table[data-over="1"]', timeout=MOVE_TIMEOUT * 1000)
    return moves, [b - a for a, b in zip(start, snapshot(cdp), strict=True)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3, help="games played one after another (default 3)")
    ap.add_argument("--seed", type=int, default=7, help="the server's predictable deals (default 7)")
    ap.add_argument("--stock", type=int, default=6, help="stock cards of each seat (default 6)")
    ap.add_argument("--reduced-motion", action="store_true", help="the browser asks for reduced motion (no flights)")
    a = ap.parse_args()
    if a.games < 1 or a.stock < 1:
        ap.error("--games and --stock take a number of 1 or more")
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} is missing (apt-get install chromium)")
    with server(a.seed) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        ctx = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US",
                                  reduced_motion="reduce" if a.reduced_motion else "no-preference")
        ctx.add_init_script(FIXED)
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Performance.enable")

        moves, cost = 0, [0.0] * (3 + len(METRICS))
        for _ in range(a.games):
            n, spent = play_one_game(page, cdp, base, a.stock)
            moves, cost = moves + n, [c + d for c, d in zip(cost, spent, strict=True)]
        browser.close()
    renderer, chromium, script, layout, style, layouts, styles, wall = (x / moves for x in cost)
    print(f"{moves} moves drawn in {a.games} games (seed {a.seed}, stocks of {a.stock}"
          f"{', reduced motion' if a.reduced_motion else ''}); per move: Chromium {1000 * chromium:.0f} ms CPU "
          f"(renderer {1000 * renderer:.0f} ms), script {1000 * script:.1f} ms, layout {1000 * layout:.1f} ms "
          f"({layouts:.1f}), style {1000 * style:.1f} ms ({styles:.1f}); wall {1000 * wall:.0f} ms")


if __name__ == "__main__":
    main()
