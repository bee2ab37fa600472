"""Record the animated picture of a computer's turn at the browser table (docs/web-bot-turn.webp).

Runs the server on a free port with a temporary database, plays a Spite and Malice game against the
computer in Debian's Chromium (Playwright) at the page's normal pace, and photographs the board
while the computer moves; the turn with the most moves of the first few is kept, and the frames
become an animated WebP with Pillow (each frame shown for as long as it was on the screen).

    PYTHONPATH=src python examples/web_bot_turn.py [--out docs/web-bot-turn.webp] [--seed-turns 8]
"""

from __future__ import annotations

import argparse
import base64
import io
import itertools
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(db: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "spite.server", "--port", str(port), "--db", f"sqlite:///{db}",
                             "--log-level", "warning", "--bot-delay", "0"])
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    proc.terminate()
    raise SystemExit("the server did not start")


def my_turn(page: Any, timeout: float = 30.0) -> bool:
    page.wait_for_selector('.table[data-my-turn="1"], .table[data-over="1"]', timeout=timeout * 1000)
    return bool(page.locator('.table[data-my-turn="1"]').count())


def play_my_turn(page: Any) -> None:
    """Build plays while there are any (the stock first), then a discard from the hand."""
    while my_turn(page):
        offers = page.eval_on_selector_all('.board [data-playable="1"]',
                                           "els => els.map(e => [e.dataset.source, e.dataset.targets])")
        moves = sorted(((s, t) for s, ts in offers for t in ts.split()),
                       key=lambda m: (not m[1].startswith("B"), m[0] != "S"))
        if not moves:
            page.click("#pass")
            return
        src, target = moves[0]
        before = int(page.get_attribute(".table", "data-version"))
        page.click(f'.board [data-source="{src}"][data-playable="1"] >> nth=0')
        page.click(f'[data-legal="1"][data-target="{target}"] >> nth=0')
        page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
        if target.startswith("D"):
            return


def film_bot_turn(page: Any, cdp: Any) -> list[tuple[bytes, float]]:
    """Frames of the page (Chromium's screencast: a frame whenever the picture changes) from now
    until the seat's turn is back and the last card has landed, with their times (seconds)."""
    frames: list[tuple[bytes, float]] = []

    def on_frame(ev: dict[str, Any]) -> None:
        frames.append((base64.b64decode(ev["data"]), float(ev["metadata"]["timestamp"])))
        cdp.send("Page.screencastFrameAck", {"sessionId": ev["sessionId"]})

    cdp.on("Page.screencastFrame", on_frame)
    cdp.send("Page.startScreencast", {"format": "png", "everyNthFrame": 1})
    page.wait_for_selector('.table[data-my-turn="1"], .table[data-over="1"]', timeout=60_000)
    page.wait_for_timeout(900)
    cdp.send("Page.stopScreencast")
    cdp.remove_listener("Page.screencastFrame", on_frame)
    return frames


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[1] / "docs" / "web-bot-turn.webp")
    ap.add_argument("--turns", type=int, default=8, help="how many of the computer's turns to film (the best is kept)")
    ap.add_argument("--width", type=int, default=720, help="the picture's width in pixels")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_server(Path(tmp) / "spite.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                ctx = browser.new_context(viewport={"width": 900, "height": 760}, locale="en-US", device_scale_factor=1)
                ctx.add_init_script("localStorage.setItem('spite.pace', 'normal');"
                                    " localStorage.setItem('spite.sound', 'off');")
                page = ctx.new_page()
                joined = httpx.post(base + "/api/quickplay", json={"name": "Ann", "preset": "classic", "level": "hard",
                                                                   "options": {"stock_size": 12}}).json()
                page.goto(base + "/")
                page.evaluate("([id, seat, token]) => localStorage.setItem('spite.seats', JSON.stringify({[id]:"
                              " {seat, token, at: Date.now()}}))",
                              [joined["table"]["id"], joined["seat"], joined["token"]])
                page.goto(base + joined["table"]["link"])
                page.wait_for_selector(".table[data-status=playing]")
                cdp = ctx.new_cdp_session(page)
                best: list[tuple[bytes, float]] = []
                r = page.evaluate("(() => { const r = document.querySelector('.board').getBoundingClientRect();"
                                  " return [r.left, r.top, r.right, r.bottom]; })()")
                box = (int(r[0]), int(r[1]), int(r[2]), int(r[3]))
                best_moves = -1
                for _ in range(a.turns):
                    if not my_turn(page):
                        break
                    play_my_turn(page)
                    logged = page.locator('#log li[data-seat="1"]').count()
                    frames = film_bot_turn(page, cdp)
                    moves = page.locator('#log li[data-seat="1"]').count() - logged
                    if moves > best_moves:
                        best, best_moves = frames, moves
                    if best_moves >= 4:
                        break
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    images = []
    for png, _ in best:
        img = Image.open(io.BytesIO(png)).convert("RGB").crop(box)
        h = round(img.height * a.width / img.width)
        images.append(img.resize((a.width, h), Image.LANCZOS))
    times = [t for _, t in best]
    durations = [max(40, round((b - t) * 1000)) for t, b in itertools.pairwise(times)] + [1500]
    a.out.parent.mkdir(parents=True, exist_ok=True)
    images[0].save(a.out, save_all=True, append_images=images[1:], duration=durations, loop=0, quality=70, method=6)
    print(f"{a.out}: {len(images)} frames, {sum(durations) / 1000:.1f} s, the computer's {best_moves} moves,"
          f" {a.out.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
