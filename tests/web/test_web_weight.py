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
        for path in ("/static/table.js", "/static/i18n.js", "/static/style.css", "/static/spit.css", "/openapi.json"):
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
        plain = httpx.get(web_server.base + "/static/table.js", headers={"Accept-Encoding": "identity"})
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
