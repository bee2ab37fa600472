"""The page through the TLS proxy (docs/deploy.md): Chromium loads it over https, plays over wss, and
under the proxy's Content-Security-Policy nothing is blocked and nothing fails; the Report … button
sends a report to the operator's queue."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import NO_PACE, ConsoleWatch
from test_web_page import play_one_move, start_quick_game, wait_for_turn

from spite.server.cluster import find_haproxy
from tls_helpers import tls_server

pytestmark = pytest.mark.skipif(find_haproxy() is None or shutil.which("openssl") is None,
                                reason="HAProxy or openssl is not installed: the page is not tried behind TLS")

VIOLATIONS = """window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


def test_the_page_plays_over_https_under_the_security_headers(browser: Any, tmp_path: Path) -> None:
    with tls_server(tmp_path) as (base, _plain, _cert):
        ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US", ignore_https_errors=True)
        ctx.set_default_timeout(15_000)
        ctx.add_init_script(NO_PACE)
        ctx.add_init_script(VIOLATIONS)
        try:
            page = ctx.new_page()
            watch = ConsoleWatch(page)
            answer = page.goto(base + "/")
            assert answer is not None and "default-src 'self'" in answer.headers["content-security-policy"]
            # stocks of 10: three moves cannot end the game (at 3 they once did, and the game-over view
            # lay over the report button)
            table = start_quick_game(page, SimpleNamespace(base=base), stock=10)
            played = 0
            for _ in range(3):
                if not wait_for_turn(page):
                    break
                play_one_move(page)
                played += 1
            assert played >= 1
            page.click("#report")
            page.select_option("#report-what", "table")
            page.fill("#report-reason", "a test")
            page.click("#report-send")
            page.wait_for_function("() => document.querySelector('#report-message')?.textContent.includes('Thank')")
            assert page.evaluate("() => window.__csp") == []
            assert watch.errors == []
        finally:
            ctx.close()
    with sqlite3.connect(tmp_path / "tls.db") as conn:
        assert conn.execute("SELECT kind, table_id, reason, status FROM spite_reports").fetchall() == \
            [("table", table, "a test", "open")]
