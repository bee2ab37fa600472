"""``make screenshots``: every page and table of the browser page at a laptop's 1366×768 and a phone's
390×844, in English and in German, written to docs/screenshots/ as WebP (docs/web.md, "Screenshots").

The server runs on a free port with a temporary database and predictable deals (``--predictable-deals``,
a test-only setting: table ids and deal secrets from a seed), and the browser's random numbers are
fixed, so the same tables are dealt every time. The tables: Spite and Malice for two (classic), a
party of three, partners (four), the Skip-Bo deck and a match, each at the person's first turn with
a card picked (its targets lit); Spit and Speed against a slow computer; the lobby, a replay, a
review, a Spit replay, the ratings, a player's page, the statistics and the rules. Debian's Chromium
through Playwright, as in the browser tests.

    PYTHONPATH=src python tools/screenshots.py [--out docs/screenshots] [--only classic,spit] [--quality 80]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SIZES = {"1366x768": {"width": 1366, "height": 768}, "390x844": {"width": 390, "height": 844}}
LANGS = ("en", "de")
FIXED = ("crypto.getRandomValues = (a) => { a.fill(7); return a; };"
         "localStorage.setItem('spite.pace', 'instant'); localStorage.setItem('spite.name', 'Ann');")
"""The browser's random numbers (its deal nonces, its player key) always the same, the computer's
moves at once, the name kept: with the server's predictable deals, the same games every time."""
PLAYER_KEY = "BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcH"
"""The player key the page makes from those random numbers (24 bytes of 7, base64url)."""
STILL_JS = """() => !document.querySelector('#anim-layer > *') && document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)"""
SLOW_BOT = {"kind": "bot", "level": "reflex:3000"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(seed: int) -> Iterator[str]:
    """``python -m spite.server`` with predictable deals on a free port; its base URL."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        log = (Path(tmp) / "server.log").open("wb")
        proc = subprocess.Popen(
            [sys.executable, "-m", "spite.server", "--port", str(port), "--db", f"sqlite:///{tmp}/spite.db",
             "--log-level", "warning", "--bot-delay", "0", "--bot-workers", "0", "--start-countdown", "0",
             "--predictable-deals", str(seed), "--grace", "3600",
             "--limit", "max_open_tables=1000", "--limit", "rate=1000",
             "--limit", "burst=2000", "--limit", "write_burst=1000", "--limit", "max_sockets=1000"],
            stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                        break
                if proc.poll() is not None:
                    raise SystemExit("the server did not start: " + (Path(tmp) / "server.log").read_text()[-2000:])
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            proc.wait(10)
            log.close()


@dataclass
class Scene:
    """One screenshot: the page at ``path``, with the seat ``seat`` (table id, seat, token) kept in the
    browser, once ``ready`` shows; ``then`` does what a person would before the picture (pick a card)."""

    name: str
    path: str
    ready: str
    seat: tuple[str, ...] | None = None
    then: Callable[[Any], None] | None = None
    full: dict[str, Any] = field(default_factory=dict)


def pick_a_card(page: Any) -> None:
    page.click('.board [data-playable="1"] >> nth=0')
    page.wait_for_selector('[data-selected="1"]')


def pick_a_spit_card(page: Any) -> None:
    page.click(".me [data-source][data-playable='1'] >> nth=0")
    page.wait_for_selector(".me [data-selected='1']")


def quickplay(base: str, preset: str, *, game: str = "spite-malice", level: str = "easy",
              options: dict[str, Any] | None = None, rated: bool = False) -> tuple[str, int, str, str]:
    body: dict[str, Any] = {"name": "Ann", "game": game, "preset": preset, "level": level,
                            "options": options or {}, "playerKey": PLAYER_KEY, "rated": rated}
    r = httpx.post(base + "/api/quickplay", json=body, timeout=30)
    r.raise_for_status()
    j = r.json()
    return str(j["table"]["id"]), int(j["seat"]), str(j["token"]), str(j.get("playerId") or "")


def person_and_bot(base: str, game: str) -> tuple[str, int, str]:
    r = httpx.post(base + "/api/tables", json={"game": game, "name": "Ann", "seats": [{"kind": "person"}, SLOW_BOT]},
                   timeout=30)
    r.raise_for_status()
    return str(r.json()["table"]["id"]), 0, str(r.json()["token"])


def bots_finish(base: str, table: dict[str, Any]) -> int:
    """A bots-only table played to its end by the server; the stored game's id."""
    r = httpx.post(base + "/api/tables", json={"join": False, **table}, timeout=30)
    r.raise_for_status()
    table_id = r.json()["id"]
    for _ in range(600):
        got = httpx.get(base + f"/api/tables/{table_id}").json()
        if got["status"] == "finished":
            return int(got["gameId"])
        time.sleep(0.1)
    raise SystemExit("the computers did not finish their game")


def play_to_the_end(page: Any) -> None:
    """Play a table by clicks until it is over: the first build play the page offers, else a discard."""
    for _ in range(400):
        page.wait_for_selector('.table[data-my-turn="1"], .table[data-over="1"]', timeout=60_000)
        if page.locator('.table[data-over="1"]').count():
            return
        before = page.get_attribute(".table", "data-version")
        offers = page.eval_on_selector_all('.board [data-playable="1"]',
                                           "els => els.map(e => [e.dataset.source, e.dataset.targets])")
        moves = sorted(((s, t) for s, ts in offers for t in ts.split()),
                       key=lambda m: (not m[1].startswith("B"), m[0] != "S"))
        if not moves:
            page.click("#pass")
        else:
            src, target = moves[0]
            page.click(f'.board [data-source="{src}"][data-playable="1"] >> nth=0')
            page.click(f'[data-legal="1"][data-target="{target}"] >> nth=0')
        page.wait_for_function(f"() => document.querySelector('.table').dataset.version !== '{before}'"
                               " || document.querySelector('.table').dataset.over === '1'")
    raise SystemExit("the rated game did not end")


def scenes(base: str, browser: Any, only: set[str] | None) -> Iterator[Scene]:
    """The pictures, each game made just before its pictures are taken (once, whatever the size and
    language): a live table is shot while it is fresh."""
    def want(name: str) -> bool:
        return only is None or name in only

    table = '.table[data-my-turn="1"]'
    if want("lobby"):
        # a table waiting for a second player and a game in play, for the lobby's lists
        httpx.post(base + "/api/tables", json={"name": "Bea", "preset": "classic"}, timeout=30).raise_for_status()
        httpx.post(base + "/api/quickplay", json={"name": "Cem", "preset": "classic", "level": "medium"},
                   timeout=30).raise_for_status()
        yield Scene("lobby", "/", "#open-list li[data-table]")
    for name, preset, options in (("classic", "classic", {"stock_size": 12}), ("party", "party", {"stock_size": 10}),
                                  ("partners", "partners", {"stock_size": 10}), ("skip-bo", "skip-bo", {}),
                                  ("match", "match", {})):
        if want(name):
            # the match is played rated: its table says so, with Ann's rating beside her name
            seat = quickplay(base, preset, options=options, rated=name == "match")[:3]
            yield Scene(name, f"/t/{seat[0]}", table, seat, pick_a_card)
    for game in ("spit", "speed"):
        if want(game):
            seat = person_and_bot(base, game)
            yield (Scene(game, f"/t/{seat[0]}", ".spit-table[data-phase=play] .me [data-playable='1']", seat,
                             pick_a_spit_card))
    if want("replay") or want("review"):
        game_id = bots_finish(base, {"preset": "short", "options": {"stock_size": 4},
                                     "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "medium"}]})
        plies = len(httpx.get(base + f"/api/games/{game_id}/positions").json()["moves"])
        if want("replay"):
            yield Scene("replay", f"/replay/{game_id}?ply={plies // 2}", ".table.replay")
        if want("review"):
            yield Scene("review", f"/replay/{game_id}?review=1&ply={plies // 2}", "#review[data-state=done]")
    if want("spit-replay"):
        game_id = bots_finish(base, {"game": "spit", "options": {"auto_spit_ms": 150, "auto_slap_ms": 150,
                                                                 "rounds_in_a_row": 2, "time_limit_s": 6},
                                     "seats": [{"kind": "bot", "level": "reflex:30"},
                                               {"kind": "bot", "level": "reflex:60"}]})
        yield Scene("spit-replay", f"/replay/{game_id}?ply=12", ".spit-table.replay")
    if want("ratings") or want("player") or want("stats"):
        # two rated games of Ann's against the computer (the variant as it is, a measured level: rated
        # play takes nothing else), played to their end in the page: her page's chart has two points
        for _ in range(2):
            seat = quickplay(base, "short", level="easy", rated=True)
            ctx = browser.new_context(viewport=SIZES["1366x768"])
            ctx.add_init_script(FIXED + seat_script(seat[:3]))
            page = ctx.new_page()
            page.goto(base + f"/t/{seat[0]}")
            play_to_the_end(page)
            player = seat[3]
            ctx.close()
        if want("ratings"):
            yield Scene("ratings", "/ratings?group=classic", "#board tr[data-player]")
        if want("player") and player:
            yield Scene("player", f"/player/{player}", "#player[data-player]")
        if want("stats"):
            yield Scene("stats", f"/stats/{player or 'Ann'}", "#stats-table, #stats-empty")
    if want("rules"):
        yield Scene("rules", "/rules/spite-malice", ".rules")


def seat_script(seat: tuple[Any, ...]) -> str:
    table_id, number, token = seat[:3]
    seats = json.dumps({table_id: {"seat": number, "token": token, "at": 1}})
    return f"localStorage.setItem('spite.seats', {json.dumps(seats)});"


def shoot(browser: Any, base: str, scene: Scene, size: str, lang: str, out: Path, quality: int) -> Path:
    ctx = browser.new_context(viewport=SIZES[size], locale="de-DE" if lang == "de" else "en-US")
    ctx.set_default_timeout(120_000)  # a review is worked out on the first request
    seat = seat_script(scene.seat) if scene.seat else ""
    ctx.add_init_script(FIXED + f"localStorage.setItem('spite.lang', '{lang}');" + seat)
    errors: list[str] = []
    try:
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.goto(base + scene.path)
        page.wait_for_selector(scene.ready)
        if scene.then:
            scene.then(page)
        page.wait_for_function(STILL_JS, polling="raf")
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        png = page.screenshot(animations="disabled")
    finally:
        ctx.close()
    if errors:
        raise SystemExit(f"{scene.name} {size} {lang}: errors in the browser console: {errors}")
    path = out / f"{scene.name}-{size}-{lang}.webp"
    Image.open(io.BytesIO(png)).convert("RGB").save(path, "WEBP", quality=quality, method=6)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    ap.add_argument("--only", default="", help="scene names, comma-separated (default: all)")
    ap.add_argument("--quality", type=int, default=80, help="WebP quality (default 80)")
    ap.add_argument("--seed", type=int, default=48, help="the server's predictable deals (default 48)")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    only = {s for s in a.only.split(",") if s} or None
    total = 0
    with server(a.seed) as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            for scene in scenes(base, browser, only):
                for size in SIZES:
                    for lang in LANGS:
                        path = shoot(browser, base, scene, size, lang, a.out, a.quality)
                        total += path.stat().st_size
                        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                        print(f"{shown}  {path.stat().st_size // 1024} kB")
        finally:
            browser.close()
    print(f"{total / 1024:.0f} kB in all")


if __name__ == "__main__":
    main()
