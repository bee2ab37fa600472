"""The statistics page (``/stats``), the rules pages (``/rules/{game}``), the record download and the
page on a phone-sized screen (390×844), in headless Chromium against the real server."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import ConsoleWatch, WebServer, open_more_options, shoot
from websockets.sync.client import connect

from helpers import finished_bot_game

PHONE = {"width": 390, "height": 844}
SEED_TERMS = {
    "spite-malice": ["Vorratsstapel", "Mittelstapel", "Ablagestapel", "Blatt", "Nachziehstapel"],
    "spit": ["Tableau", "Spit-Stapel", "Mittelstapel", "Aufschlagen", "Feststecken"],
}


def pick(legal: list[str]) -> str:
    """A quick game: the stock first, then any build play, then a discard (or pass)."""
    for prefix in ("S-",):
        for m in legal:
            if m.startswith(prefix):
                return m
    builds = [m for m in legal if "-B" in m]
    return (builds or legal)[0]


def play_quick_game(base: str, name: str, stock: int = 3, preset: str = "short", timeout: float = 40.0) -> int:
    """``name`` plays a quick game against the ``random`` bot over the WebSocket; its stored game id."""
    joined = httpx.post(base + "/api/quickplay", json={"name": name, "preset": preset, "level": "random",
                                                      "options": {"stock_size": stock}}).json()
    table_id, seat = joined["table"]["id"], joined["seat"]
    url = base.replace("http", "ws", 1) + f"/ws/{table_id}"
    deadline = time.monotonic() + timeout
    with connect(url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": joined["token"]}))
        newest = -1
        while time.monotonic() < deadline:
            msg = json.loads(ws.recv(timeout))
            if msg["type"] == "gameOver":
                return int(msg["gameId"])
            if msg["type"] == "error" and msg["code"] == "stale":
                ws.send(json.dumps({"type": "sync"}))
            if msg["type"] not in ("welcome", "state") or msg["stateVersion"] < newest:
                continue
            newest = msg["stateVersion"]
            view = msg["view"]
            if msg["legal"] and view["to_move"] == seat and not view["finished"]:
                ws.send(json.dumps({"type": "move", "move": pick(msg["legal"]), "stateVersion": newest}))
    raise AssertionError(f"the game at table {table_id} did not end within {timeout} s")


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport=PHONE, locale="en-US", device_scale_factor=1, has_touch=True)
    ctx.set_default_timeout(15_000)
    p = ctx.new_page()
    watch = ConsoleWatch(p)
    try:
        yield p
    finally:
        ctx.close()
    assert watch.errors == [], f"errors in the browser console: {watch.errors}"


def no_horizontal_scroll(page: Any) -> None:
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url}: the page scrolls sideways ({width} > {inner})"


def stats_row(page: Any, game: str, preset: str) -> dict[str, str]:
    row = page.locator(f'#stats-table tbody tr[data-game="{game}"][data-preset="{preset}"]')
    return {col: row.locator(f'[data-col="{col}"]').inner_text().strip() for col in ("games", "wins", "rate")}


def test_routes_serve_the_new_pages(web_server: WebServer) -> None:
    root = httpx.get(web_server.base + "/").text
    for path in ("/stats", "/stats/Ann", "/stats/bot%3Aeasy", "/rules", "/rules/spite-malice", "/rules/spit"):
        r = httpx.get(web_server.base + path, headers={"Accept": "text/html"})
        assert r.status_code == 200 and r.text == root, path
    for name in ("stats.js", "rules.js"):
        r = httpx.get(f"{web_server.base}/static/{name}")
        assert r.status_code == 200 and "javascript" in r.headers["content-type"], name
    assert 'href="/stats"' in root and 'href="/rules"' in root   # the header links


def test_stats_page_counts_games_and_downloads_the_record(web_server: WebServer, page: Any) -> None:
    name = "Stat Ann"
    earlier = [play_quick_game(web_server.base, name, preset=p) for p in ("match", "short")]
    game_id = play_quick_game(web_server.base, name)
    games = httpx.get(web_server.base + f"/api/players/{name}/games").json()
    assert [g["id"] for g in games] == [game_id, *earlier[::-1]]
    won = games[0]["players"][0]["won"]
    short_wins = sum(g["players"][0]["won"] for g in games if g["preset"] == "short")

    # the header link from the lobby; the page shows the name the browser keeps
    page.goto(web_server.base + "/")
    page.fill("#name", name)
    page.click("#nav-stats")
    page.wait_for_url(re.compile(r"/stats$"))
    page.wait_for_selector('.stats-page[data-loaded="1"]')
    assert page.text_content("#stats-name") == name
    row = stats_row(page, "spite-malice", "short")
    assert row["games"] == "2" and row["wins"] == str(short_wins)
    assert row["rate"].endswith(f"{50 * short_wins}%")
    assert stats_row(page, "spite-malice", "match")["games"] == "1"
    assert page.locator("#games-list li").count() == 3
    item = page.locator(f'#games-list li[data-game-id="{game_id}"]')
    assert item.locator(".outcome").inner_text() == ("won" if won else "lost")
    # the computer by the name it had at the table (the replay's), with its level
    assert "computer · random" in item.inner_text() and "Computer (random)" not in item.inner_text()
    replay_names = page.evaluate("""async (id) => {
      const data = await (await fetch(`/api/games/${id}/positions`)).json();
      const { gamePlayerName } = await import('/static/people.js');
      return data.players.map((p) => gamePlayerName(data.tableId, data.players, p.seat)); }""", game_id)
    assert all(n in item.inner_text() for n in replay_names), (replay_names, item.inner_text())
    shoot(page, "web-stats.png")

    # the download link: a file download of the record
    link = item.locator("a.download")
    assert link.get_attribute("href") == f"/api/games/{game_id}/record"
    assert link.get_attribute("download") == f"spite-game-{game_id}.json"
    with page.expect_download() as got:
        link.click()
    download = got.value
    record = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert record["game"] == "spite-malice" and record["preset"] == "short" and record["result"]
    r = httpx.get(web_server.base + f"/api/games/{game_id}/record")
    assert r.json() == record and "attachment" in r.headers["content-disposition"]

    # another player by the field: the bot (stored as bot:random)
    page.fill("#stats-player", "bot:random")
    page.click("#stats-show")
    page.wait_for_url(re.compile(r"/stats/bot%3Arandom$"))
    page.wait_for_selector('.stats-page[data-loaded="1"]')
    assert page.text_content("#stats-name") == "Computer (random)"
    assert int(stats_row(page, "spite-malice", "short")["games"]) >= 1

    # an unknown player: no games; German labels
    page.goto(web_server.base + "/stats/nobody-at-all")
    page.wait_for_selector('.stats-page[data-loaded="1"]')
    assert page.is_visible("#stats-empty")
    page.click("button.lang[data-lang=de]")
    assert "Statistik" in page.text_content(".stats-page h2")
    assert page.text_content("#stats-empty") == "Noch keine beendeten Spiele."
    page.click("button.lang[data-lang=en]")

    # the replay link, and the replay viewer's own download link
    page.goto(web_server.base + f"/stats/{name}")
    page.click(f'#games-list li[data-game-id="{game_id}"] a.replay-link')
    page.wait_for_selector(".table.replay")
    rec = page.locator("#replay-record")
    assert rec.get_attribute("download") == f"spite-game-{game_id}.json"
    with page.expect_download() as got:
        rec.click()
    assert json.loads(Path(got.value.path()).read_text(encoding="utf-8")) == record


def test_rules_pages_in_english_and_german(web_server: WebServer, page: Any) -> None:
    page.goto(web_server.base + "/")
    page.click("#nav-rules")
    page.wait_for_url(re.compile(r"/rules$"))
    pages = (("spite-malice", "Spite and Malice — the rules", ["stock", "build pile", "discard pile", "jokers"]),
             ("spit", "Spit and Speed — the rules", ["tableau", "spit pile", "slap", "Speed: the difference"]))
    for game, heading, words in pages:
        page.goto(web_server.base + f"/rules/{game}")
        page.wait_for_selector(f'.rules[data-game="{game}"][data-lang="en"]')
        assert page.text_content(".rules h2") == heading
        text = page.inner_text(".rules")
        for w in words:
            assert w in text, (game, w)
        for term in SEED_TERMS[game]:          # the seeds' German terms, in the glossary
            assert term in page.inner_text("#terms"), (game, term)
        assert page.locator("section#presets dt").count() >= 7
        page.click("button.lang[data-lang=de]")
        page.wait_for_selector(f'.rules[data-game="{game}"][data-lang="de"]')
        text = page.inner_text(".rules")
        assert "die Regeln" in page.text_content(".rules h2")
        # the terms in the German text itself, not only in the glossary
        body = page.eval_on_selector_all(".rules > section:not(#terms)", "els => els.map(e => e.innerText).join(' ')")
        for term in SEED_TERMS[game]:
            assert term in body, (game, term)
        assert page.text_content("#nav-rules") == "Regeln"
        # the variants by their German names, not by their ids ("kurz", not "short")
        variants = page.eval_on_selector_all("section#presets dt", "els => els.map(e => e.textContent)")
        assert ("kurz" if game == "spite-malice" else "Schnecke") in variants, variants
        assert not {"short", "classic", "slowpoke", "kings-only", "timed"} & set(variants), variants
        if game == "spite-malice":
            shoot(page, "web-rules.png", full_page=False)
        page.click("button.lang[data-lang=en]")
        page.wait_for_selector(f'.rules[data-game="{game}"][data-lang="en"]')
    # the tab to the other game, and an unknown game
    page.click('.tabs a[href="/rules/spite-malice"]')
    page.wait_for_selector('.rules[data-game="spite-malice"]')
    page.goto(web_server.base + "/rules/chess")
    assert "chess" in page.text_content("#rules-error")


def test_phone_sized_screens(web_server: WebServer, phone: Any) -> None:
    page = phone
    base = web_server.base
    page.goto(base + "/")
    page.wait_for_selector(".tile [data-play]")
    no_horizontal_scroll(page)
    open_more_options(page)
    no_horizontal_scroll(page)
    # a live table against the computer
    page.fill("#name", "Phone")
    page.select_option("#quick select[name=preset]", "short")
    page.select_option("#quick select[name=level]", "easy")
    page.click("#quick-play")
    page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"), timeout=45_000)
    page.wait_for_selector(".table[data-status=playing]", timeout=45_000)
    page.wait_for_selector('.table[data-my-turn="1"], .table[data-over="1"]', timeout=20_000)
    no_horizontal_scroll(page)
    # the cards as large as the screen allows, the own hand whole and in view at the bottom, no scrolling
    hand = page.eval_on_selector_all(".me .hand-card", "els => els.map(e => e.getBoundingClientRect().toJSON())")
    assert hand and all(c["left"] >= 0 and c["right"] <= PHONE["width"] and c["bottom"] <= PHONE["height"]
                        for c in hand), hand
    assert page.evaluate("document.documentElement.scrollHeight") <= PHONE["height"]
    if page.locator('.board [data-playable="1"]').count():           # a selected card with its targets
        page.click('.board [data-playable="1"] >> nth=0')
        no_horizontal_scroll(page)
    shoot(page, "web-phone.png")
    page.click("button.lang[data-lang=de]")
    no_horizontal_scroll(page)
    page.click("button.lang[data-lang=en]")

    game_id = finished_bot_game(base, stock_size=3)
    for path, ready in ((f"/stats/{'bot:easy'}", '.stats-page[data-loaded="1"]'),
                        ("/stats/Phone", '.stats-page[data-loaded="1"]'),
                        ("/rules/spite-malice", ".rules"), ("/rules/spit", ".rules"),
                        (f"/replay/{game_id}", ".table.replay")):
        page.goto(base + path)
        page.wait_for_selector(ready)
        no_horizontal_scroll(page)
        page.click("button.lang[data-lang=de]")
        no_horizontal_scroll(page)
        page.click("button.lang[data-lang=en]")
    # (the replay, the last page) the computers are named as people read it, on a phone too
    text = page.inner_text("main")
    assert "bot:" not in text and "computer · easy" in text, text
