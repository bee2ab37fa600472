"""The replay viewer (``/replay/{id}``) in headless Chromium: a finished game stepped forwards and back."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import DOCS, ConsoleWatch, WebServer

from helpers import finished_bot_game


def ply(page: Any) -> int:
    return int(page.get_attribute(".table.replay", "data-ply"))


def stock_count(page: Any, seat: int) -> int:
    return int(page.text_content(f'.pile.stock[data-seat="{seat}"] .count'))


def test_replay_steps_forwards_and_back(page: Any, web_server: WebServer) -> None:
    game_id = finished_bot_game(web_server.base, stock_size=3)
    data = httpx.get(web_server.base + f"/api/games/{game_id}/positions").json()
    moves, positions = data["moves"], data["positions"]
    # the first stock play: the mover's stock count drops by one
    k = next(i for i, m in enumerate(moves) if m["move"].startswith("S-"))
    seat = moves[k]["seat"]

    page.goto(web_server.base + f"/replay/{game_id}")
    page.wait_for_selector(".table.replay")
    assert ply(page) == 0 and page.text_content("#replay-move") == "The deal"
    assert int(page.get_attribute("#replay-ply", "max")) == len(moves)
    assert page.locator("#log li").count() == len(moves)

    page.click("#replay-next")
    assert ply(page) == 1 and moves[0]["move"] in page.text_content("#replay-move")
    page.keyboard.press("ArrowRight")
    assert ply(page) == 2
    page.keyboard.press("ArrowLeft")
    page.click("#replay-prev")
    assert ply(page) == 0

    # the slider to just before the stock play, then ▶ and ◀
    page.fill("#replay-ply", str(k))
    assert ply(page) == k
    before = stock_count(page, seat)
    assert before == positions[k]["players"][seat]["stock"]
    page.click("#replay-next")
    assert ply(page) == k + 1 and page.text_content("#replay-move").endswith(moves[k]["move"])
    assert stock_count(page, seat) == before - 1
    assert page.locator("#log li.current").get_attribute("data-ply") == str(k + 1)
    page.screenshot(path=str(DOCS / "web-replay.png"), full_page=True)
    page.click("#replay-prev")
    assert stock_count(page, seat) == before

    # the end: the result; ▶ stays there
    page.keyboard.press("End")
    assert ply(page) == len(moves)
    assert page.is_visible("#replay-result")
    page.click("#replay-next")
    assert ply(page) == len(moves)
    # a click in the move list
    page.click('#log li[data-ply="1"]')
    assert ply(page) == 1

    # the finished table's page links the replay
    page.goto(web_server.base + f"/t/{data['tableId']}")
    page.click("#replay-link")
    page.wait_for_selector(".table.replay")
    assert ply(page) == 0


def test_replay_of_an_unknown_game(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    watch = ConsoleWatch(page)
    page.goto(web_server.base + "/replay/99999")
    page.wait_for_selector("#replay-error")
    assert "no finished game" in page.text_content("#replay-error")
    # the page's own 404 answer is logged by the browser as a failed resource; nothing else
    assert all("404" in e and "Failed to load resource" in e for e in watch.errors), watch.errors
