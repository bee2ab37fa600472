"""The tables, points of issue 20: the open-stock preset shows all three face-up stock cards with
only the top one to play; the count badge leaves the card's corner index readable; the log is
numbered whole, and a page opened mid-game (a reload, another browser) rebuilds it from the server;
only a seated player is offered the link to share."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from conftest import NO_PACE, ConsoleWatch, WebServer, open_seat
from test_web_page import play_one_move, start_quick_game, wait_for_turn
from websockets.sync.client import connect

from waiting import bounded

STOCK = '.me [data-pile="stock"]'
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


FIXED_RANDOM = "crypto.getRandomValues = (a) => { a.fill(7); return a; };"
"""The page's random numbers (its nonce) always the same: with a server of predictable deals, the
same game is dealt every time."""


OPEN_STOCK_SEED = 99
"""The seeded server's deal seed: its first two quick games of the open-stock preset (stocks of 10, the
page's nonce fixed) let Olga, who begins, play her stock's top card at once (found with the server's own
functions, as ``test_web_picked_card.hand_of_seed`` does): the test picks it without moves before."""


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """A server whose table ids and secrets come from a seed (``--predictable-deals``): seeded deals."""
    server = WebServer(tmp_path_factory.mktemp("seeded") / "spite.db", "--predictable-deals", str(OPEN_STOCK_SEED))
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_open_stock_shows_three_cards_and_plays_the_top(seeded_server: WebServer, browser: Any,
                                                        viewport: dict[str, int]) -> None:
    ctx = browser.new_context(viewport=viewport, locale="en-US")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(NO_PACE)
    ctx.add_init_script(FIXED_RANDOM)
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        start_quick_game(page, seeded_server, name="Olga", stock=10, level="random", preset="open-stock")
        check_the_open_stock(page)
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()


def check_the_open_stock(page: Any) -> None:
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


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_stock_count_leaves_the_corner_index_free(web_server: WebServer, browser: Any,
                                                      viewport: dict[str, int]) -> None:
    ctx = browser.new_context(viewport=viewport, locale="en-US")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(NO_PACE)
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        start_quick_game(page, web_server, name="Cora", stock=10, level="random")
        check_the_stock_count(page)
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()


def check_the_stock_count(page: Any) -> None:
    for side in (".me", ".opponent"):
        index, badge = page.evaluate("""side => {
          const pile = document.querySelector(`${side} [data-pile="stock"]`);
          const box = (e) => { const r = e.getBoundingClientRect();
                               return {x: r.x, y: r.y, width: r.width, height: r.height}; };
          const card = [...pile.querySelectorAll(".card[data-card]")].pop();
          return [[...card.querySelectorAll(".ix-rank, .ix-suit")].map(box), box(pile.querySelector(".count"))];
        }""", side)
        # the card's index: its rank and suit in the top-left and (turned) the bottom-right corner (cards.js)
        assert len(index) in (2, 4), (side, index)  # a joker's index is its star alone
        for part in index:
            assert not overlaps(badge, part), (side, badge, part)


LOG_JS = """() => { const log = document.querySelector('#log').getBoundingClientRect();
  return [...document.querySelectorAll('#log li')].map(li => {
    const n = li.querySelector('.n'); const r = n.getBoundingClientRect();
    return {n: n.textContent, text: li.textContent.slice(n.textContent.length).trim(),
            inside: r.left >= log.left - 0.5};
  }); }"""


MOVES_JS = """() => [...document.querySelectorAll('#log li[data-seat]')].map(
  li => [li.dataset.seat, li.querySelector('code').textContent])"""


def open_in_a_new_browser(browser: Any, base: str, table_id: str, token: str | None, viewport: dict[str, int]) -> Any:
    """A new browser context (nothing kept: no sessionStorage, no localStorage) opens the table, as
    the seat of ``token`` on another device, or as a spectator."""
    ctx = browser.new_context(viewport=viewport, locale="en-US")
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(NO_PACE)
    page = ctx.new_page()
    page.watch = ConsoleWatch(page)
    if token is None:
        page.goto(f"{base}/t/{table_id}?watch=1")
        page.wait_for_selector('.table[data-seat=""]')
    else:
        open_seat(page, base, table_id, token, ready='.table[data-seat="0"]')
    return page


@pytest.mark.timeout(180)  # a long game's log, rebuilt in two more browsers
def test_the_log_numbers_and_a_new_browser_rebuilds_it(web_server: WebServer, browser: Any, page: Any) -> None:
    table_id = start_quick_game(page, web_server, name="Lena", stock=12, level="random")
    page.set_viewport_size({"width": 1280, "height": 560})  # a low window: the log outgrows its box
    for _ in range(40):
        if len(page.evaluate(MOVES_JS)) >= 12 or not wait_for_turn(page):
            break
        play_one_move(page)
    wait_for_turn(page)
    log = page.evaluate(LOG_JS)
    moves = page.evaluate(MOVES_JS)
    assert len(moves) >= 12, log
    # 1., 2., … 10., 11.: every number whole and inside the log's box
    assert [e["n"] for e in log] == [f"{i}." for i in range(1, len(log) + 1)]
    assert all(e["inside"] for e in log), log
    # the log has grown past its box, and the newest entry is in view: it follows the game
    sizes = page.evaluate("() => { const l = document.getElementById('log');"
                          " return [l.scrollHeight, l.clientHeight]; }")
    assert sizes[0] > sizes[1], f"the log never overflowed its box (heights {sizes}): nothing to follow"
    page.wait_for_function("() => { const l = document.getElementById('log');"
                           " return l.scrollTop + l.clientHeight >= l.scrollHeight - 2; }", timeout=5_000)
    token = page.evaluate("id => JSON.parse(localStorage.getItem('spite.seats'))[id].token", table_id)
    # another device (desktop, then a phone as a spectator) has kept nothing: the server tells it the
    # game so far (the moves, and the table's events in their place), numbered from 1
    for who, viewport in ((token, {"width": 1280, "height": 860}), (None, {"width": 390, "height": 844})):
        other = open_in_a_new_browser(browser, web_server.base, table_id, who, viewport)
        try:
            other.wait_for_function("n => document.querySelectorAll('#log li[data-seat]').length >= n", arg=len(moves))
            assert other.evaluate(MOVES_JS)[:len(moves)] == moves
            again = other.evaluate(LOG_JS)
            assert [e["n"] for e in again] == [f"{i}." for i in range(1, len(again) + 1)]
            assert all(e["inside"] for e in again), again
            assert other.watch.errors == [], other.watch.errors
        finally:
            other.context.close()
    # the same tab reloaded: the same moves
    page.reload()
    page.wait_for_selector('.table[data-seat="0"]')
    assert page.evaluate(MOVES_JS)[:len(moves)] == moves


def play_both_seats(base: str, table_id: str, tokens: list[str], plies: int) -> list[tuple[int, str]]:
    """Both seats of a table play ``plies`` moves that keep the game going (over WebSockets, as any
    client); the moves played."""
    url = base.replace("http", "ws", 1) + f"/ws/{table_id}"
    played: list[tuple[int, str]] = []
    rng = random.Random(20)
    with connect(url) as ws0, connect(url) as ws1:
        socks = [ws0, ws1]
        newest: list[dict[str, Any]] = []
        for ws, token in zip(socks, tokens, strict=True):
            ws.send(json.dumps({"type": "hello", "token": token}))
        for ws in socks:
            newest.append(next_of(ws, ("welcome",)))
        # the last hello made the deal (docs/fairness.md): the seat before it gets it as a state
        newest[0] = next_of(ws0, ("state",))
        version = max(m["stateVersion"] for m in newest)
        while len(played) < plies:
            for seat, ws in enumerate(socks):
                newest[seat] = position_at(ws, newest[seat], version)
            mover = next((seat for seat in (0, 1) if newest[seat]["legal"]), None)
            assert mover is not None, (len(played), [(m["stateVersion"], m["view"]["finished"]) for m in newest])
            # mostly builds, never from the stock while there is another move: a long game (Skip-Bo's
            # runs 240 plies this way in 200 of 200 deals)
            legal = newest[mover]["legal"]
            builds = [m for m in legal if "-B" in m and not m.startswith("S")]
            others = [m for m in legal if not m.startswith("S")] or legal
            move = rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(others)
            socks[mover].send(json.dumps({"type": "move", "move": move, "stateVersion": version}))
            version += 1
            played.append((mover, move))
        for ws in socks:
            for _ in bounded(1000, f"the position at version {version}"):
                if json.loads(ws.recv(10)).get("stateVersion", -1) >= version:
                    break
    return played


def position_at(ws: Any, newest: dict[str, Any], version: int) -> dict[str, Any]:
    """A seat's newest position once it is at ``version`` (``newest``: the one it had)."""
    for _ in bounded(1000, f"the position at version {version}"):
        if newest["stateVersion"] >= version:
            break
        newest = next_of(ws, ("state", "welcome"))
    return newest


def next_of(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The next message on ``ws`` of one of the types ``kinds`` (the others are passed over)."""
    for _ in bounded(1000, f"a message of the types {kinds}"):
        msg: dict[str, Any] = json.loads(ws.recv(10))
        if msg["type"] in kinds:
            break
    return msg


@pytest.mark.timeout(180)  # 230 moves played, then the page
def test_a_long_game_shows_its_newest_moves_numbered_as_the_games(web_server: WebServer, browser: Any,
                                                                   page: Any) -> None:
    """Past the 200 moves a page is told, the log starts with one line for the older ones and goes on
    with the game's own move numbers (they never start at 1 again)."""
    r = httpx.post(web_server.base + "/api/tables", json={
        "game": "spite-malice", "preset": "skip-bo", "options": {}, "name": "Lena",
        "seats": [{"kind": "person"}, {"kind": "person"}]})
    assert r.status_code == 200, r.text
    table_id, token = r.json()["table"]["id"], r.json()["token"]
    friend = httpx.post(f"{web_server.base}/api/tables/{table_id}/join", json={"name": "Tom"}).json()["token"]
    played = play_both_seats(web_server.base, table_id, [token, friend], 230)
    open_seat(page, web_server.base, table_id, token, ready='.table[data-seat="0"]')
    check_long_log(page, played)
    # the same on a phone watching (where the log lies under the board), told all of it by the server
    other = open_in_a_new_browser(browser, web_server.base, table_id, None, {"width": 390, "height": 844})
    try:
        check_long_log(other, played)
        assert other.watch.errors == [], other.watch.errors
    finally:
        other.context.close()


ENTRIES_JS = """() => [...document.querySelectorAll('#log li')].map(li => {
  const n = li.querySelector('.n'); return [n ? Number(n.textContent.slice(0, -1)) : null,
  li.dataset.seat ? 'move' : 'event', li.textContent.slice(n ? n.textContent.length : 0).trim()]; })"""


def check_long_log(page: Any, played: list[tuple[int, str]]) -> None:
    """The log of a game of 230 moves and the 4 table events someone was told of (both connections
    made, the first of them lost while the other was there, Lena's page come back): one line for the
    oldest entries, then the newest, numbered as the game's entries (they never start at 1 again),
    the moves in order and the events in their place (the connection lost after the last move, then
    Lena back)."""
    first = page.locator("#log li >> nth=0")
    total = 230 + 4
    # the last event (Lena's page come back) may reach the page a moment after the table is drawn
    page.wait_for_function(f"""() => {{ const n = [...document.querySelectorAll('#log li .n')].at(-1);
      return n !== undefined && n.textContent === '{total}.'; }}""", timeout=15_000)
    entries = page.evaluate(ENTRIES_JS)
    hidden = int(re.fullmatch(r"(\d+) earlier entries \(not shown\)", first.inner_text())[1])
    assert hidden == total - 200 and first.locator(".n").count() == 0
    assert [n for n, _, _ in entries[1:]] == list(range(hidden + 1, total + 1))
    moves = [tuple(m) for m in page.evaluate(MOVES_JS)]
    assert moves == [(str(s), m) for s, m in played[len(played) - len(moves):]]
    assert [kind for _, kind, _ in entries[-3:]] == ["move", "event", "event"]
    dropped, back = (text for _, _, text in entries[-2:])
    assert "dropped from seat" in dropped and back == "Lena is at seat 1"
    log = page.evaluate(LOG_JS.replace("#log li", "#log li[data-seat]"))
    assert all(e["inside"] for e in log)


def test_only_a_seated_player_is_offered_the_link_to_share(web_server: WebServer, browser: Any, page: Any) -> None:
    ctx = browser.new_context(viewport=PHONE, locale="en-US")  # the spectator on a phone
    try:
        watcher = ctx.new_page()
        watch = ConsoleWatch(watcher)
        for game in ("spite-malice", "spit"):
            r = httpx.post(web_server.base + "/api/tables", json={
                "game": game, "options": {}, "name": "Ann", "seats": [{"kind": "person"}, {"kind": "person"}],
                **({"preset": "short"} if game == "spite-malice" else {})})
            assert r.status_code == 200, r.text
            table_id, token = r.json()["table"]["id"], r.json()["token"]
            open_seat(page, web_server.base, table_id, token, ready="#share-link")
            assert "Share this link" in page.inner_text("main")
            watcher.goto(f"{web_server.base}/t/{table_id}?watch=1")
            watcher.wait_for_selector('[data-status="open"][data-seat=""]')
            assert watcher.locator("#share-link").count() == 0, game
            assert "Share this link" not in watcher.inner_text("main")
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()
