"""The browser page against the real server, in headless Chromium (Playwright's sync API).

The tests play only through the page: a move is chosen from the sources the page marks playable
(``data-playable``) and the targets it highlights after a click (``data-legal``), never by asking
the engine.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from conftest import WebServer, open_more_options, shoot, wait_for_the_next_game

GAME_TIMEOUT = 60.0
"""A bound on one game by clicks, not what it takes: the deals are random, and a stock of 2 has run to
38 moves of ours (a second a move on a busy machine)."""


def start_quick_game(page: Any, server: WebServer, *, name: str = "Ann", stock: int = 3, level: str = "easy",
                     preset: str = "short", shot: str | None = None, until_my_turn: bool = True) -> str:
    """From the lobby: quick play against the computer; returns the table id.

    The deal is random, so with a short stock the computer may now and then start and play out its
    whole stock before the person's first move (about 3 % of deals with stocks of 2): such a game is
    over before it could be played, and quick play is asked again for another. So that this is
    seen, the call waits (unless ``until_my_turn`` is false) for the person's first turn; the
    table showing "playing" is not enough, as the computer's opening turn may still end the game."""
    for _ in range(5):
        page.goto(server.base + "/")
        page.fill("#name", name)
        open_more_options(page)
        page.select_option("#quick select[name=preset]", preset)
        page.select_option("#quick select[name=level]", level)
        page.fill("#quick input[name=stock_size]", str(stock))
        if shot:
            shoot(page, shot)
        page.click("#quick-play")
        # generous: the first table of a fresh machine also pays for the server's and the browser's cold start
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"), timeout=45_000)
        page.wait_for_selector('.table[data-status=playing], .table[data-over="1"]', timeout=45_000)
        started = wait_for_turn(page, timeout=45) if until_my_turn else \
            page.query_selector(".table[data-status=playing]") is not None
        if started:
            return str(page.url.rsplit("/", 1)[1])
    raise AssertionError("five quick games in a row were over before the person's first move")


def wait_for_turn(page: Any, timeout: float = 20.0) -> bool:
    """Wait until it is this seat's turn (True) or the game is over (False)."""
    page.wait_for_selector('.table[data-my-turn="1"], .table[data-over="1"]', timeout=timeout * 1000)
    return bool(page.locator('.table[data-my-turn="1"]').count())


def version(page: Any) -> int:
    return int(page.get_attribute(".table", "data-version"))


def play_one_move(page: Any) -> str:
    """Play one move by clicks: a build play if the page offers one (stock first, then discard piles,
    then the hand), else a discard from the hand, else pass. The choice comes from the page's marks:
    ``data-playable`` sources and their ``data-targets``; the click then highlights the target
    (``data-legal``), which is clicked. Returns the move played, as the page sent it (a hand card
    named: ``H7H-B2``)."""
    before = version(page)
    offers = page.eval_on_selector_all('.board [data-playable="1"]',
                                       "els => els.map(e => [e.dataset.source, e.dataset.targets])")
    options = [(src, target) for src, targets in offers for target in targets.split()]
    options.sort(key=lambda m: (not m[1].startswith("B"), m[0] != "S", not m[0].startswith("D")))
    if not options:
        page.click("#pass")
        move = "pass"
    else:
        src, target = options[0]
        picked = f'.board [data-source="{src}"][data-playable="1"] >> nth=0'
        card = page.get_attribute(picked, "data-card") if src.startswith("H") else None
        page.click(picked)
        page.click(f'[data-legal="1"][data-target="{target}"] >> nth=0')
        # a hand card is sent as the very card picked (records.md §2: H7H-B2)
        move = f"H{card}-{target}" if card and card[-1] in "SHDC" else f"{src}-{target}"
    page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}"
                           " || document.querySelector('.table').dataset.over === '1'")
    return move


def play_to_the_end(page: Any, shot_after: int | None = None, shot: str | None = None) -> int:
    """Play by clicks until the game is over; returns the number of our moves."""
    moves = 0
    deadline = time.monotonic() + GAME_TIMEOUT
    while wait_for_turn(page):
        assert time.monotonic() < deadline, f"the game did not end within {GAME_TIMEOUT} s ({moves} moves)"
        if shot and moves == shot_after:
            # show a selected card with its highlighted targets
            page.click('.board [data-playable="1"] >> nth=0')
            shoot(page, shot)
            page.click('.board [data-playable="1"][data-selected="1"] >> nth=0')
        play_one_move(page)
        moves += 1
    return moves


def test_routes_serve_the_page_and_keep_the_api(web_server: WebServer) -> None:
    # one client for every request: a new one each time loads the CA bundle again (a busy machine's
    # seconds, for a test that speaks plain HTTP)
    with httpx.Client(base_url=web_server.base) as http:
        root = http.get("/")
        assert root.status_code == 200 and "text/html" in root.headers["content-type"]
        assert '<script type="module" src="/static/app.js">' in root.text
        for name in ("app.js", "lobby.js", "cards.js", "i18n.js", "store.js", "style.css"):
            assert http.get(f"/static/{name}").status_code == 200, name
        # each game's page module comes from its own folder, at the URL its game type names
        for game_type in http.get("/api/game-types").json():
            assert game_type["page"].startswith(f"/static/games/{game_type['name']}/"), game_type
            module = http.get(game_type["page"])
            assert module.status_code == 200 and "openGame" in module.text, game_type
        joined = http.post("/api/quickplay", json={"name": "api", "level": "random"}).json()
        link = joined["table"]["link"]
        assert http.get(link, headers={"Accept": "text/html"}).text == root.text
        assert http.get(link).json()["id"] == joined["table"]["id"]          # API clients still get the JSON
        assert http.get("/replay/1", headers={"Accept": "text/html"}).status_code == 200


@pytest.mark.timeout(180)  # a whole game by clicks
@pytest.mark.motion  # with the card flights: a whole game of them under the console watch
def test_a_whole_game_against_a_bot_by_clicks(web_server: WebServer, page: Any) -> None:
    table_id = start_quick_game(page, web_server, stock=2)   # a whole game in about 10 moves (15 at stocks of 3)
    assert page.evaluate("localStorage.getItem('spite.name')") == "Ann"
    assert json.loads(page.evaluate("localStorage.getItem('spite.seats')"))[table_id]["seat"] == 0
    # the computer player has a name of its own, with its level beside it
    bot = page.inner_text(".opponent .seat-name")
    assert bot and "Computer" not in bot and "easy" in page.inner_text(".opponent .seat-status")
    moves = play_to_the_end(page, shot_after=1, shot="web-table.png")
    assert moves > 0
    over = page.locator("#game-over")
    over.wait_for()
    assert re.search(rf"(Ann|{re.escape(bot)}).*wins", over.inner_text())
    assert page.locator("#game-over a[href^='/api/games/']").count() == 1
    info = httpx.get(f"{web_server.base}/api/tables/{table_id}").json()
    assert info["status"] == "finished"
    # the log tells the moves in words (the notation stays in the entries' data and the notation view)
    log = page.eval_on_selector_all("#log li[data-move]", "els => els.map(e => e.dataset.move)")
    assert log and all(re.fullmatch(r"(S|H\w+|D\d+)-[BD]\d+|pass", m) for m in log)
    said = page.locator("#log li[data-move] .what").all_inner_texts()
    worded = re.compile(r"(from the (hand|stock)|from discard pile \d)( onto (build|discard) pile \d)|passes")
    assert said and all(worded.search(w) for w in said), said
    # the rematch is at the same table link: the bot agrees at once, the series counts the first game
    page.click("#rematch")
    wait_for_the_next_game(page, 1)
    assert page.url.endswith(f"/t/{table_id}")


def test_reload_resumes_the_seat(web_server: WebServer, page: Any) -> None:
    table_id = start_quick_game(page, web_server, name="Rita", stock=10, level="random")
    assert wait_for_turn(page)
    play_one_move(page)
    wait_for_turn(page)
    hand = page.eval_on_selector_all(".me .hand-card", "els => els.map(e => e.dataset.card)")
    v = version(page)
    page.reload()
    page.wait_for_selector(f'.table[data-seat="0"][data-version="{v}"]')
    assert page.eval_on_selector_all(".me .hand-card", "els => els.map(e => e.dataset.card)") == hand
    assert table_id in page.url
    assert wait_for_turn(page)
    play_by_keys(page)   # the resumed seat still plays, here with the keyboard


def play_by_keys(page: Any) -> None:
    """One move with the keyboard: the stock (S), a hand card by its digit or a discard pile (D+n), then
    its target, B+n or D+n. A build first, the stock's before the others, as a person plays: with the
    first hand card and its first target (often a discard) a game of stocks of 2 ran long (26 s)."""
    before = version(page)
    offers = page.eval_on_selector_all('.me [data-playable="1"]',
                                       "els => els.map(e => [e.dataset.source, e.dataset.targets,"
                                       " e.classList.contains('hand-card') ? e.dataset.index : null])")
    moves = [(src, target, index) for src, targets, index in offers for target in targets.split()]
    builds = sorted((m for m in moves if m[1].startswith("B")), key=lambda m: m[0] != "S")
    src, target, index = (builds or [m for m in moves if m[2] is not None])[0]
    if src == "S":
        page.keyboard.press("s")
    elif index is not None:
        page.keyboard.press(str(int(index) + 1))
    else:  # a discard pile (D1 … D4)
        page.keyboard.press("d")
        page.keyboard.press(src[1:])
    page.wait_for_selector('[data-selected="1"]')
    assert page.get_attribute(f'[data-target="{target}"]', "data-legal") == "1", target
    page.keyboard.press(target[0].lower())
    page.keyboard.press(target[1:])
    page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")


def test_german_page(web_server: WebServer, page: Any) -> None:
    page.goto(web_server.base + "/")
    page.wait_for_selector(".tile [data-play]")
    page.click("button.lang[data-lang=de]")
    page.locator("main", has_text="Gegen den Computer").wait_for()  # (the lobby is drawn after the load)
    assert page.evaluate("document.documentElement.lang") == "de"
    start_quick_game(page, web_server, name="Udo", stock=5, level="random")
    text = page.inner_text("main")
    for term in ("Vorratsstapel", "Mittelstapel", "Ablagestapel", "Blatt", "Nachziehstapel"):
        assert term in text, term
    shoot(page, "web-table-de.png")
    # drag and drop: a playable card onto the first target the page highlights for it
    assert wait_for_turn(page)
    before = version(page)
    source = '.board [data-playable="1"] >> nth=0'
    page.click(source)
    target = page.get_attribute('[data-legal="1"] >> nth=0', "data-target")
    page.click('.board [data-selected="1"] >> nth=0')  # deselect
    page.drag_and_drop(source, f'[data-target="{target}"] >> nth=0')
    page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
    page.click("button.lang[data-lang=en]")
    assert "Build piles" in page.inner_text("main")


def test_a_table_for_a_friend_join_and_spectate(web_server: WebServer, browser: Any, page: Any) -> None:
    page.goto(web_server.base + "/")
    page.fill("#name", "Ann")
    open_more_options(page)
    page.select_option("#friend select[name=preset]", "short")
    page.click("#create-table")
    page.wait_for_selector(".table[data-status=open]")
    link = page.input_value("#share-link")
    assert re.fullmatch(re.escape(web_server.base) + r"/t/[A-Za-z0-9_-]+", link)
    friend_ctx = browser.new_context()
    watch_ctx = browser.new_context()
    try:
        friend = friend_ctx.new_page()
        friend.goto(link)
        friend.fill("#join-form input[name=name]", "Bob")
        friend.click("#join")
        friend.wait_for_selector('.table[data-status=playing][data-seat="1"]')
        page.wait_for_selector(".table[data-status=playing]")
        assert "Bob" in page.inner_text(".opponents")
        watcher = watch_ctx.new_page()
        watcher.goto(web_server.base + "/")
        watcher.click("#play-list a[data-action=watch] >> nth=-1")
        watcher.wait_for_selector('.table[data-seat=""]')
        assert watcher.locator(".hand-card").count() == 0       # a spectator sees no hand
        assert watcher.locator("[data-playable]").count() == 0
        # whoever is to move plays one move; the other and the watcher see it in the log
        deadline = time.monotonic() + 10
        while not any(p.locator('.table[data-my-turn="1"]').count() for p in (page, friend)):
            assert time.monotonic() < deadline, "nobody is to move"
            page.wait_for_timeout(50)
        mover, other = (page, friend) if page.locator('.table[data-my-turn="1"]').count() else (friend, page)
        move = play_one_move(mover)
        for p in (other, watcher):
            p.wait_for_selector(f'#log li[data-move="{move}"] .what')
    finally:
        friend_ctx.close()
        watch_ctx.close()
