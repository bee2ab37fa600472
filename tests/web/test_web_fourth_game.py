"""The fourth game (tests/fourth_game, registered at run time) in the browser: the lobby offers it, the
page opens its table through the module its game type names (served from the game's own folder), and a
person plays it by clicks to the end against its bot; no other game's module is fetched."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from conftest import ConsoleWatch, open_more_options

from fourth_game import NAME
from fourth_game.serve import pebbles_server


def test_the_fourth_game_plays_in_the_page_through_its_own_module(browser: Any, tmp_path: Path) -> None:
    with pebbles_server(tmp_path / "spite.db") as base:
        ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
        try:
            page = ctx.new_page()
            watch = ConsoleWatch(page)
            fetched: list[str] = []
            page.on("request", lambda req: fetched.append(req.url))
            page.goto(base + "/")
            page.fill("#name", "Pia")
            open_more_options(page)
            page.select_option("#quick select[name=game]", NAME)
            page.click("#quick-play")
            page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"), timeout=45_000)
            page.wait_for_selector(f'.pebbles-table[data-game="{NAME}"]', timeout=45_000)
            for _ in range(12):  # at most ten moves a game: each click lays a card, the bot answers
                if page.get_attribute(".pebbles-table", "data-over") == "1":
                    break
                page.wait_for_selector(".pebbles-card:not([disabled]), .pebbles-table[data-over='1']", timeout=20_000)
                if page.get_attribute(".pebbles-table", "data-over") == "1":
                    break
                pile = page.text_content("#pebbles-pile")
                page.locator(".pebbles-card:not([disabled])").first.click()
                page.wait_for_function("(p) => document.getElementById('pebbles-pile')?.textContent !== p"
                                       " || document.querySelector('.pebbles-table')?.dataset.over === '1'",
                                       arg=pile, timeout=20_000)
            page.wait_for_selector(".pebbles-table[data-over='1']", timeout=20_000)
            assert page.text_content("#pebbles-line") in ("You won", "You lost")
            modules = {u.split("/static/", 1)[1] for u in fetched if "/static/" in u and u.endswith(".js")}
            assert f"games/{NAME}/pebbles.js" in modules
            assert not [m for m in modules if m.startswith("games/") and not m.startswith(f"games/{NAME}/")], modules
            # its replay: the board its own module gives (replay.js asks the module, not the game's name)
            table_id = page.url.rsplit("/", 1)[1]
            game_id = httpx.get(f"{base}/api/tables/{table_id}").json()["gameId"]
            page.goto(f"{base}/replay/{game_id}")
            page.wait_for_selector(".pebbles-replay #pebbles-pile")
            start = int(page.text_content("#pebbles-pile"))
            page.keyboard.press("ArrowRight")
            page.wait_for_function("(p) => Number(document.getElementById('pebbles-pile').textContent) < p", arg=start)
            assert watch.errors == [], watch.errors
        finally:
            ctx.close()
