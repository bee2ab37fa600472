"""The page's weight: responses are gzip-compressed (WebSockets are not touched) and a Spite and
Malice table loads only the modules it uses, never the Spit screen (its script or its styles) or the
rules texts."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from conftest import WebServer
from test_web_page import start_quick_game, wait_for_turn

PHONE = {"width": 390, "height": 844}


def test_html_js_and_css_come_gzip_compressed(web_server: WebServer) -> None:
    with httpx.Client(headers={"Accept-Encoding": "gzip"}) as client:
        for path in ("/static/games/spite-malice/table.js", "/static/i18n.js", "/static/style.css",
                     "/static/games/spit/spit.css", "/openapi.json"):
            r = client.get(web_server.base + path)
            assert r.status_code == 200, path
            assert r.headers.get("content-encoding") == "gzip", path
            assert int(r.headers["content-length"]) < len(r.content), path  # sent smaller than it is
        # the page itself is under the 1000 bytes worth compressing (GZipMiddleware's minimum_size):
        # it comes whole, and small
        page = client.get(web_server.base + "/")
        assert page.status_code == 200 and "<html" in page.text
        assert page.headers.get("content-encoding") == "gzip" or len(page.content) < 1000
        # a client that does not take gzip gets the plain text
        plain = httpx.get(web_server.base + "/static/games/spite-malice/table.js",
                          headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.text.startswith("//")


def test_the_websocket_still_speaks_plain_json_next_to_gzip(web_server: WebServer, page: Any) -> None:
    """The table's socket works through the compression middleware: a whole exchange in the page."""
    start_quick_game(page, web_server, name="Zip")
    assert wait_for_turn(page, timeout=30)
    assert page.locator(".board [data-playable='1']").count() > 0


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_spite_and_malice_table_loads_no_spit_module_nor_rules(web_server: WebServer, browser: Any,
                                                               viewport: dict[str, int] | None) -> None:
    ctx = browser.new_context(viewport=viewport or {"width": 1280, "height": 860}, locale="en-US")
    try:
        page = ctx.new_page()
        fetched: list[str] = []
        page.on("request", lambda req: fetched.append(req.url))
        start_quick_game(page, web_server, name="Light")
        wait_for_turn(page, timeout=30)
        scripts = sorted({u.rsplit("/", 1)[1] for u in fetched if u.endswith(".js")})
        assert "table.js" in scripts and "app.js" in scripts
        assert "spit.js" not in scripts and "rules.js" not in scripts, scripts
        # nor the Spit module's styles (they come with its module, as a Spit table shows)
        styles = sorted({u.rsplit("/", 1)[1] for u in fetched if u.endswith(".css")})
        assert "style.css" in styles and "spit.css" not in styles, styles
        assert page.locator('link[href*="spit.css"]').count() == 0
        assert "replay.js" not in scripts and "stats.js" not in scripts, scripts
        # the lobby before it did not load them either, and the rules page does when it is opened
        fetched.clear()
        page.goto(web_server.base + "/rules/spit")
        page.wait_for_selector(".rules")
        assert any(u.endswith("/rules.js") for u in fetched)
        assert json.loads(page.evaluate("JSON.stringify(performance.getEntriesByType('resource')"
                                        ".map(e => e.name).filter(n => n.endsWith('spit.js')))")) == []
    finally:
        ctx.close()


FIRST_TABLE_BUDGET = 170_000
"""Bytes (as sent: gzip, headers included) a first visit may load from the lobby to its first table,
cold cache. The page with its deck came to 116–125 kB in December 2026 (98 kB before the deck): the
deck's shared symbols are 6 kB in cards.js, and each court figure drawn is a file of 5–9 kB fetched
when such a card is first shown; with seven different courts on the first table it would be 165 kB."""


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_a_first_visit_to_its_first_table_loads_little_and_only_the_courts_it_shows(
        web_server: WebServer, browser: Any, viewport: dict[str, int] | None) -> None:
    ctx = browser.new_context(viewport=viewport or {"width": 1366, "height": 768}, locale="en-US")
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Network.enable")
        sizes: dict[str, int] = {}
        urls: dict[str, str] = {}
        cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], int(e["encodedDataLength"])))
        start_quick_game(page, web_server, name="Light", stock=12)
        page.wait_for_selector('.me [data-playable="1"]')
        page.evaluate("() => new Promise((done) => setTimeout(done, 500))")  # the last figures' answers
        total = sum(sizes.values())
        largest = sorted(((s, urls.get(r)) for r, s in sizes.items()), reverse=True)[:12]
        assert total <= FIRST_TABLE_BUDGET, (total, largest)
        # the court figures come one file each, and only for the courts on the table
        figures = {u.rsplit("/", 1)[1].removesuffix(".svg") for u in urls.values() if "/static/cards/" in u}
        shown = set(page.eval_on_selector_all(".board .card[data-card]", "els => els.map(e => e.dataset.card)"))
        courts = {c for c in shown if c[:-1] in ("J", "Q", "K")}
        assert figures >= courts, (figures, courts)
        # fetched when first drawn, not all twelve up front (a court the computer's opening moves
        # covered may have been drawn for a moment)
        assert len(figures - courts) <= 2, (figures, courts)
    finally:
        ctx.close()
