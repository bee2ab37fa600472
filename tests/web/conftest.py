"""Fixtures for the browser tests: the real server in a subprocess (temporary SQLite, free port) and
Debian's Chromium driven by Playwright's sync API. Everything skips when /usr/bin/chromium is missing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ports import IN_USE, PortTaken, serves, start_retrying
from waiting import wait_until

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
DOCS = Path(__file__).resolve().parents[2] / "docs"

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium): no browser tests", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")


_GENEROUS = ("--limit", "max_open_tables=1000", "--limit", "write_burst=1000", "--limit", "max_sockets=1000",
             "--limit", "rate=1000", "--limit", "burst=2000")
"""One module's pages all come from 127.0.0.1 and share one server: the per-address limits
(docs/protocol.md, "Limits"; tests/server/test_limits.py) are not what these tests are about."""


class WebServer:
    """``python -m spite.server`` on a free port with a temporary SQLite database; bots without delay;
    Spit without the start countdown unless ``extra`` (more command-line options) sets one."""

    def __init__(self, db: Path, *extra: str) -> None:
        # the server's output goes to a file beside its database, not to a pipe: a pipe nobody reads
        # fills up and then blocks the server mid-test (and the file is there to read when a test fails)
        self.log = db.with_suffix(".log")
        self.db = db
        self.extra = extra
        start_retrying(self._start)

    def _start(self, port: int) -> None:
        self.port = port
        self.base = f"http://127.0.0.1:{self.port}"
        with self.log.open("wb") as out:
            self.proc = proc = subprocess.Popen(
                [sys.executable, "-m", "spite.server", "--port", str(self.port), "--db", f"sqlite:///{self.db}",
                 "--log-level", "warning", "--bot-delay", "0", "--bot-workers", "0", "--bot-budget", "0.2",
                 "--start-countdown", "0", *_GENEROUS, *self.extra],
                stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ))

        try:
            wait_until(lambda: serves(proc, port), "the web server's answer to /healthz", timeout=60, every=0.1)
        except AssertionError:
            self.stop()
            raise
        if proc.poll() is not None:
            said = self.log.read_text(errors="replace")[-4000:]
            raise (PortTaken if IN_USE in said else RuntimeError)(f"the server exited: {said}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    server = WebServer(tmp_path_factory.mktemp("web") / "spite.db")
    try:
        yield server
    finally:
        server.stop()


class StillBrowser:
    """The tests' Chromium, whose new contexts ask for reduced motion (``prefers-reduced-motion``:
    the table draws no card flights) unless a test asks for motion: ``reduced_motion="no-preference"``
    to ``new_context``, or the ``motion`` mark on a test that uses the ``context`` or ``page``
    fixture. The flights are half of what Chromium spends drawing a move, and a test that waits for a
    still page waits a quarter of a second more a move for them; their own tests keep them
    (``test_web_feel``, ``test_web_picked_card``) and so do a whole game by clicks and a Spit round by
    keys (the ``motion`` mark), where the console watch still catches an error of theirs."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")
        return self._browser.new_context(**options)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # per module, not per session: Playwright's sync API keeps an event loop running in this thread
    # while it is started, and a later test of another folder on the same xdist worker could not
    # call asyncio.run()
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        try:
            yield StillBrowser(b)
        finally:
            b.close()


DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
"""A test marked ``@SIZES`` runs at desktop and at phone size: its ``page`` (and ``context``) get
that viewport, since the parameter overrides the ``viewport`` fixture below."""


@pytest.fixture
def viewport() -> dict[str, int]:
    """The size of the ``context`` fixture's pages: desktop unless a test is parametrized (``SIZES``)."""
    return DESKTOP


NO_PACE = "if (!localStorage.getItem('spite.pace')) localStorage.setItem('spite.pace', 'instant');"
"""An init script: the page's pacing of the computer's moves (anim.js) off, for tests about other things."""


STILL_JS = """() => !document.querySelector('#anim-layer > *') && document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity)"""
"""The page is still: no card in flight (anim.js draws flights in ``#anim-layer``) and no finite
animation or transition running; a pulse that never ends (a hint, a spinner) does not count."""


def shoot(page: Any, name: str, *, full_page: bool = True) -> Path:
    """Write the screenshot ``docs/<name>`` once the page is still, so that it shows a settled table
    and not a card caught in the air (a refill dealt, a move flying, a selected card's lift). What
    moves anyway (a live table's next move in the instant between the check and the picture, an
    endless pulse) is drawn at its end or its start by Playwright's ``animations="disabled"``."""
    page.wait_for_function(STILL_JS, polling="raf")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    path = DOCS / name
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


class ConsoleWatch:
    """Every console error and uncaught exception of a page."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("console", lambda msg: self.errors.append(f"console.{msg.type}: {msg.text}")
                if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))


@pytest.fixture
def context(browser: Any, viewport: dict[str, int], request: pytest.FixtureRequest) -> Iterator[Any]:
    # the flights drawn for a test marked ``motion`` (StillBrowser asks for none otherwise)
    motion = {"reduced_motion": "no-preference"} if request.node.get_closest_marker("motion") else {}
    ctx = browser.new_context(viewport=viewport, locale="en-US", **motion)
    ctx.set_default_timeout(15_000)
    # the computer's moves come at once unless a test sets the pace (tests/web/test_web_feel.py)
    ctx.add_init_script(NO_PACE)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context: Any) -> Iterator[Any]:
    p = context.new_page()
    watch = ConsoleWatch(p)
    yield p
    assert watch.errors == [], f"errors in the browser console: {watch.errors}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test of this folder drives Chromium: mark it ``browser`` (``-m "not browser"`` leaves them out)."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


def remember_seat(page: Any, base: str, table_id: str, token: str, seat: int = 0) -> None:
    """Give this browser a seat's token at ``table_id`` as the lobby does when it seats a person
    (``spite.seats`` in the site's localStorage); the page then opens the table at that seat."""
    page.goto(base + "/")
    page.evaluate("([id, seat, token]) => localStorage.setItem('spite.seats',"
                  " JSON.stringify({[id]: {seat, token, at: Date.now()}}))", [table_id, seat, token])


def open_seat(page: Any, base: str, table_id: str, token: str, seat: int = 0, *, ready: str | None = None) -> None:
    """:func:`remember_seat`, then open the table's link; with ``ready``, wait for that selector."""
    remember_seat(page, base, table_id, token, seat)
    page.goto(f"{base}/t/{table_id}")
    if ready is not None:
        page.wait_for_selector(ready)


NEXT_GAME_JS = """(played) => {
  const over = document.querySelector('.table[data-status=playing][data-over="1"], .table[data-status=finished]');
  const series = document.querySelector(over ? '#game-over #series' : '.table[data-over="0"] .series-bar #series');
  return series?.dataset.games === String(over ? played + 1 : played);
}"""


def wait_for_the_next_game(page: Any, played: int) -> None:
    """After a rematch's yes, with ``played`` games played at the table: the next game has begun. The
    series counts them in the bar over the new game, or, should the computer's first turn end a game
    of small stocks at once (a few % of deals of stocks of 2), in the new game's game-over view."""
    page.wait_for_function(NEXT_GAME_JS, arg=played)


def open_more_options(page: Any) -> None:
    """Open the lobby's more options (another variant, the computer's level, the stock size, rated
    play against the computer, a table for a friend), folded away until asked for: one click."""
    page.wait_for_selector("#more > summary")
    if page.get_attribute("#more", "open") is None:
        page.click("#more > summary")
    page.wait_for_selector("#quick-play")


def open_side_panel(page: Any) -> None:
    """Open a table's side panel (the log and the settings: pace, sound, notation) if it is folded
    away, as a person does with its button (on a phone it is folded at first)."""
    page.wait_for_selector("#panel-toggle")
    if page.get_attribute("#panel-toggle", "aria-expanded") != "true":
        page.click("#panel-toggle")
        page.wait_for_selector('#panel-toggle[aria-expanded="true"]')


def close_side_panel_on_a_phone(page: Any) -> None:
    """Fold the side panel away again where it lies over the table (a narrow screen)."""
    if page.evaluate("innerWidth") <= 760 and page.get_attribute("#panel-toggle", "aria-expanded") == "true":
        page.click("#panel-close")
        page.wait_for_selector('#panel-toggle[aria-expanded="false"]')
