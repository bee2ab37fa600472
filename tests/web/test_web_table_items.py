"""The tables, points of issue 20: the open-stock preset shows all three face-up stock cards with
only the top one to play; the count badge leaves the card's corner index readable; the log is
numbered whole and survives a reload; only a seated player is offered the link to share."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import ConsoleWatch, WebServer
from test_web_page import play_one_move, start_quick_game, wait_for_turn

STOCK = '.me [data-pile="stock"]'


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_open_stock_shows_three_cards_and_plays_the_top(web_server: WebServer, page: Any) -> None:
    start_quick_game(page, web_server, name="Olga", stock=10, level="random", preset="open-stock")
    for side in (".me", ".opponent"):
        # fanned: each card's corner (rank and suit) can be read (one read: the table redraws as the bot plays)
        tops = page.eval_on_selector_all(f'{side} [data-pile="stock"] .card[data-card]',
                                         "els => els.map(e => e.getBoundingClientRect().top)")
        assert len(tops) == 3, side
        assert tops[0] < tops[1] < tops[2]
    top = page.get_attribute(f"{STOCK} .card[data-card] >> nth=2", "data-card")
    assert page.locator(f"{STOCK} .card.under").count() == 2
    # wait for a turn where the top stock card plays (the stock is played first when it can be)
    for _ in range(30):
        if not wait_for_turn(page):
            break
        if page.locator(f'{STOCK}[data-playable="1"]').count():
            # a card under the top: nothing is picked
            page.click(f"{STOCK} .card.under >> nth=0", position={"x": 10, "y": 8})
            assert page.locator('[data-selected="1"]').count() == 0
            assert page.locator('[data-legal="1"]').count() == 0
            # the top card: picked, its build piles light up
            page.click(f"{STOCK} .card[data-card] >> nth=2")
            assert page.get_attribute(STOCK, "data-selected") == "1"
            assert page.locator('[data-legal="1"]').count() > 0
            assert top == page.get_attribute(f"{STOCK} .card[data-card] >> nth=2", "data-card")
            return
        play_one_move(page)
    raise AssertionError("the stock never became playable")


def test_the_stock_count_leaves_the_corner_index_free(web_server: WebServer, page: Any) -> None:
    start_quick_game(page, web_server, name="Cora", stock=10, level="random")
    for side in (".me", ".opponent"):
        card, badge = page.evaluate("""side => {
          const pile = document.querySelector(`${side} [data-pile="stock"]`);
          const box = (e) => { const r = e.getBoundingClientRect();
                               return {x: r.x, y: r.y, width: r.width, height: r.height}; };
          return [box([...pile.querySelectorAll(".card[data-card]")].pop()), box(pile.querySelector(".count"))];
        }""", side)
        # the rank index in the card's bottom-right corner (cards.js draws it there, 15 of 84 units high)
        corner = {"x": card["x"] + card["width"] * 0.6, "y": card["y"] + card["height"] * 0.78,
                  "width": card["width"] * 0.4, "height": card["height"] * 0.22}
        assert not overlaps(badge, corner), (side, badge, corner)


LOG_JS = """() => { const log = document.querySelector('#log').getBoundingClientRect();
  return [...document.querySelectorAll('#log li')].map(li => {
    const n = li.querySelector('.n'); const r = n.getBoundingClientRect();
    return {n: n.textContent, text: li.textContent.slice(n.textContent.length).trim(),
            inside: r.left >= log.left - 0.5};
  }); }"""


def test_the_log_numbers_and_survives_a_reload(web_server: WebServer, page: Any) -> None:
    table_id = start_quick_game(page, web_server, name="Lena", stock=12, level="random")
    for _ in range(40):
        if len(page.evaluate(LOG_JS)) >= 12 or not wait_for_turn(page):
            break
        play_one_move(page)
    wait_for_turn(page)
    log = page.evaluate(LOG_JS)
    assert len(log) >= 12, log
    # 1., 2., … 10., 11.: every number whole and inside the log's box
    assert [e["n"] for e in log] == [f"{i}." for i in range(1, len(log) + 1)]
    assert all(e["inside"] for e in log), log
    # a reload keeps the log (and a line may follow: "Lena is at seat 0")
    page.reload()
    page.wait_for_selector('.table[data-seat="0"]')
    again = page.evaluate(LOG_JS)
    assert again[:len(log)] == log, again
    # a long game: the numbers go on past the 200 entries kept, they do not start at 1 again
    page.evaluate("id => { const k = `spite.log.${id}`; const d = JSON.parse(sessionStorage.getItem(k));"
                  " d.count += 300; sessionStorage.setItem(k, JSON.stringify(d)); }", table_id)
    page.reload()
    page.wait_for_selector('.table[data-seat="0"]')
    numbers = [int(e["n"][:-1]) for e in page.evaluate(LOG_JS)]
    assert numbers[0] == 301 and numbers == list(range(301, 301 + len(numbers))), numbers
    assert all(e["inside"] for e in page.evaluate(LOG_JS))


def test_only_a_seated_player_is_offered_the_link_to_share(web_server: WebServer, browser: Any, page: Any) -> None:
    for game in ("spite-malice", "spit"):
        r = httpx.post(web_server.base + "/api/tables", json={
            "game": game, "options": {}, "name": "Ann", "seats": [{"kind": "person"}, {"kind": "person"}],
            **({"preset": "short"} if game == "spite-malice" else {})})
        assert r.status_code == 200, r.text
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        page.goto(web_server.base + "/")
        page.evaluate("([id, token]) => localStorage.setItem('spite.seats',"
                      " JSON.stringify({[id]: {seat: 0, token, at: Date.now()}}))", [table_id, token])
        page.goto(f"{web_server.base}/t/{table_id}")
        page.wait_for_selector("#share-link")
        assert "Share this link" in page.inner_text("main")
        ctx = browser.new_context(locale="en-US")
        try:
            watcher = ctx.new_page()
            watch = ConsoleWatch(watcher)
            watcher.goto(f"{web_server.base}/t/{table_id}?watch=1")
            watcher.wait_for_selector('[data-status="open"][data-seat=""]')
            assert watcher.locator("#share-link").count() == 0, game
            assert "Share this link" not in watcher.inner_text("main")
            assert watch.errors == [], watch.errors
        finally:
            ctx.close()
