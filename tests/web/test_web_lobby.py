"""The lobby that invites and ratings in words (issue 48, points 5 and 6), at desktop (1366×768) and
phone (390×844) size.

The lobby: a tile per game of the server's list (``GET /api/game-types``, never a list of its own)
with a picture of its table drawn with the page's deck, one click to play the computer or to seek a
person (rated or casual chosen there), the open tables to join and the games in play to watch, more
options one click away, the name easy to set, and a top bar whose links are links. Rated play's
refusals in words. A rated table says so, with each person's rating beside their name; the
computer's pace only where a computer plays; the leaderboard and a player's page say "provisional:
N more games", count in the catalogue's plural forms, date the games and the chart's axis."""

from __future__ import annotations

import json
import re
import secrets
from typing import Any

import httpx
import pytest
from conftest import ConsoleWatch, WebServer, open_more_options, open_side_panel
from test_web_german import not_german
from test_web_ratings import play_rated_quick_game

from spite.server.table.seats import player_id

SIZES = pytest.mark.parametrize("viewport", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
                                ids=["desktop", "phone"])
TABLE = re.compile(r".*/t/([A-Za-z0-9_-]+)$")


def types_of(server: WebServer) -> list[dict[str, Any]]:
    return list(httpx.get(server.base + "/api/game-types").json())


def in_first_screen(page: Any, selector: str) -> bool:
    """The element is whole on the first screen (no scrolling needed to see it)."""
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return bool(box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= size["width"]
                and box["y"] + box["height"] <= size["height"])


def table_id(page: Any) -> str:
    page.wait_for_url(TABLE, timeout=45_000)
    found = TABLE.match(page.url)
    assert found is not None
    return found.group(1)


# ---------------------------------------------------------------------------------------------- point 5
@SIZES
def test_the_lobby_is_a_tile_for_each_game_of_the_servers_list(web_server: WebServer, page: Any,
                                                                viewport: dict[str, int]) -> None:
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url))
    page.goto(web_server.base + "/")
    page.wait_for_selector(".tile [data-play]")
    types = types_of(web_server)
    assert page.eval_on_selector_all(".tile", "els => els.map(e => e.dataset.game)") == [t["name"] for t in types]
    for t in types:
        tile = page.locator(f".tile[data-game='{t['name']}']")
        # a picture of its table: the cards the server names, drawn with the page's deck, one image
        picture = tile.locator(".tile-pic[role=img]")
        assert picture.get_attribute("aria-label").startswith("A table of ")
        assert picture.locator(".card").count() == sum(len(row) for row in t["picture"])
        assert picture.locator(".card svg use").count() > 0
        box = picture.bounding_box()
        assert box is not None and box["width"] >= 100 and box["height"] >= 90, box
        # one click to play the computer, one to seek a person, rated or casual chosen right there
        assert tile.get_by_role("button", name="Play the computer").count() == 1
        seek = tile.get_by_role("group", name="Play a person: rated or casual")
        assert seek.get_by_role("button", name="Play a person").count() == 1
        assert seek.get_by_role("radio", name="rated").is_checked()
        assert not seek.get_by_role("radio", name="casual").is_checked()
    # the first game's ways to play and the name are on the first screen, the page never scrolls sideways
    assert in_first_screen(page, ".tile >> nth=0 >> [data-play=computer]")
    assert in_first_screen(page, ".tile >> nth=0 >> [data-play=person]")
    assert in_first_screen(page, "#name")
    if viewport["width"] > 1000:  # a desktop has every game side by side on the first screen
        assert all(in_first_screen(page, f".tile[data-game='{t['name']}'] [data-play=person]") for t in types)
    width, inner = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width <= inner
    # the lobby fetches no court figure for its pictures (the first table's weight: test_web_weight.py)
    assert not [u for u in fetched if "/static/cards/" in u]
    # the name: one field at the top, kept as it is typed
    page.fill("#name", "Ida")
    assert page.evaluate("localStorage.getItem('spite.name')") == "Ida"
    # the top bar: its links are links (an address, underlined), the page on screen is marked, and
    # nothing else there reads like a link ("Lobby" was a status that looked like one)
    links = page.eval_on_selector_all(".topbar .nav a", """els => els.map(a => [a.textContent, a.getAttribute('href'),
      getComputedStyle(a).textDecorationLine, a.getAttribute('aria-current')])""")
    assert [(text, href) for text, href, _, _ in links] == [("Play", "/"), ("Statistics", "/stats"),
                                                            ("Ratings", "/ratings"), ("Rules", "/rules"),
                                                            ("Account", "/account")]
    assert all(line == "underline" for _, _, line, _ in links)
    assert [text for text, _, _, current in links if current == "page"] == ["Play"]
    assert page.text_content("#status") == ""
    page.click("#nav-ratings")
    page.wait_for_selector("#leaderboard")
    assert page.get_attribute("#nav-ratings", "aria-current") == "page"
    assert page.get_attribute("#nav-play", "aria-current") is None


def test_the_lobby_names_no_game_of_its_own(web_server: WebServer, page: Any) -> None:
    """A game the server lists (and the catalogue has no word for) gets a tile like any other, its
    picture drawn from the cards the list names; a game left out of the list gets none."""
    types = types_of(web_server)
    other = {**types[0], "name": "nine-men", "picture": [["AS", "#"]]}
    listed = [types[1], other]
    page.route("**/api/game-types", lambda route: route.fulfill(json=listed))
    page.goto(web_server.base + "/")
    page.wait_for_selector(".tile [data-play]")
    assert page.eval_on_selector_all(".tile", "els => els.map(e => e.dataset.game)") == [types[1]["name"], "nine-men"]
    tile = page.locator(".tile[data-game='nine-men']")
    assert tile.locator("h2").inner_text() == "nine-men"
    assert tile.locator(".tile-pic svg[aria-label]").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))") \
        == ["Ace of spades", "face-down card"]


@SIZES
def test_one_click_plays_the_computer_at_a_casual_table(web_server: WebServer, page: Any) -> None:
    page.goto(web_server.base + "/")
    page.fill("#name", "Ola")
    page.click(".tile[data-game=spite-malice] [data-play=computer]")
    table = table_id(page)
    page.wait_for_selector(".table[data-status=playing]")
    info = httpx.get(f"{web_server.base}/api/tables/{table}").json()
    assert info["rated"] is False and info["preset"] == "short"
    assert [s["kind"] for s in info["seats"]] == ["person", "bot"] and info["seats"][0]["player"] == "Ola"
    # a casual table: no rated mark, no rating beside a name; a computer plays, so its pace is a setting
    assert page.locator("#rated-mark").count() == 0 and page.locator(".seat-rating").count() == 0
    open_side_panel(page)
    assert page.locator("#pace").count() == 1


@SIZES
def test_a_person_is_sought_rated_or_casual_as_chosen_at_the_tile(web_server: WebServer, page: Any) -> None:
    for choice, word in (("casual", "casual"), ("rated", "rated")):
        page.goto(web_server.base + "/")
        page.fill("#name", "Sam")
        tile = page.locator(".tile[data-game=spite-malice]")
        tile.get_by_role("radio", name=choice).check()
        tile.get_by_role("button", name="Play a person").click()
        page.wait_for_selector("#seek[data-state=waiting]")
        assert page.inner_text("#seek-what").endswith(f"· {word}")
        seek = httpx.get(f"{web_server.base}/api/seeks/{page.get_attribute('#seek', 'data-seek')}").json()
        assert seek["rated"] is (choice == "rated") and seek["preset"] == "short" and seek["game"] == "spite-malice"
        page.click("#seek-cancel")
        page.wait_for_selector(".tile [data-play]")  # back in the lobby
        assert httpx.get(f"{web_server.base}/api/seeks/{seek['id']}").json()["state"] == "cancelled"


def people_listed(page: Any) -> list[str]:
    """The names of the people at the tables the lobby lists (names are no words of a language)."""
    return list(page.eval_on_selector_all(".tables .tseats", "els => els.flatMap(e => e.innerText.split(/\\W+/))"))


@SIZES
def test_rated_plays_the_variant_as_it_is_and_says_so_in_words(web_server: WebServer, context: Any) -> None:
    """The server refuses a changed option and a computer level never measured at a rated table; the
    lobby shows why in words, in English and in German, and casual play takes both."""
    page = context.new_page()
    watch = ConsoleWatch(page)
    page.goto(web_server.base + "/")
    page.fill("#name", "Udo")
    open_more_options(page)
    page.check("#quick input[name=rated]")
    page.select_option("#quick select[name=level]", "easy")
    page.fill("#quick input[name=stock_size]", "5")
    page.click("#quick-play")
    page.wait_for_function("() => document.querySelector('#quick .error').textContent")
    assert page.inner_text("#quick .error") == ("rated games play the variant as it is: short without changes "
                                                "(the stock size: 5); play casual to change it")
    page.fill("#quick input[name=stock_size]", "")
    page.select_option("#quick select[name=level]", "random")
    page.click("#quick-play")
    page.wait_for_function("() => document.querySelector('#quick .error').textContent.includes('measured')")
    assert page.inner_text("#quick .error") == (
        "rated games against the computer are at its measured levels (easy, expert, hard, medium), not random: "
        "play casual against that one")
    page.click("button.lang[data-lang=de]")
    open_more_options(page)
    page.check("#quick input[name=rated]")
    page.fill("#quick input[name=stock_size]", "5")
    page.click("#quick-play")
    page.wait_for_function("() => document.querySelector('#quick .error').textContent")
    assert page.inner_text("#quick .error") == (
        "gewertet wird die Variante gespielt, wie sie ist: kurz ohne Änderungen (die Größe des Vorratsstapels: 5); "
        "spiel ungewertet, um etwas zu ändern")
    assert not_german(page, "Udo", *people_listed(page)) == []
    page.uncheck("#quick input[name=rated]")  # casual: the same options are played
    page.click("#quick-play")
    table_id(page)
    # the browser's own notes of the three refused requests are the only ones
    assert watch.errors == ["console.error: Failed to load resource: the server responded with a status of 400"
                            " (Bad Request)"] * 3, watch.errors


@SIZES
def test_open_tables_to_join_and_games_in_play_to_watch(web_server: WebServer, page: Any) -> None:
    key = secrets.token_urlsafe(24)
    waiting = httpx.post(web_server.base + "/api/tables", json={"preset": "classic", "name": "Vic", "playerKey": key,
                                                                "rated": True}).json()["table"]["id"]
    playing = httpx.post(web_server.base + "/api/quickplay", json={"name": "Wes", "level": "easy",
                                                                   "options": {"stock_size": 30}}).json()["table"]["id"]
    page.goto(web_server.base + "/")
    join = page.locator(f"#open-list li[data-table='{waiting}']")
    join.wait_for()
    assert "Vic" in join.inner_text() and join.locator(".rated-tag").inner_text() == "rated"
    watch = page.locator(f"#play-list li[data-table='{playing}']")
    assert "Wes" in watch.inner_text()
    assert watch.get_by_role("link", name="Watch").get_attribute("href") == f"/t/{playing}?watch=1"
    join.get_by_role("link", name="Join").click()
    page.wait_for_selector("#join-form")
    assert table_id(page) == waiting
    assert page.inner_text("#rated-mark") == "Rated game"  # the table to join says it is rated


@SIZES
def test_more_options_are_one_click_away_for_each_game(web_server: WebServer, page: Any) -> None:
    page.goto(web_server.base + "/")
    page.wait_for_selector(".tile [data-play]")
    assert not page.locator("#quick-play").is_visible()  # folded away until asked for
    for t in types_of(web_server):
        page.click(f".tile[data-game='{t['name']}'] [data-more]")
        page.wait_for_selector("#quick-play")
        assert page.input_value("#quick select[name=game]") == t["name"]
        assert page.eval_on_selector_all("#quick select[name=preset] option", "els => els.map(e => e.value)") == \
            [p["name"] for p in t["presets"]]
        assert page.eval_on_selector_all("#quick select[name=level] option", "els => els.map(e => e.value)") == \
            t["levels"]
        assert page.locator("#quick input[name=stock_size]").count() == int("stock_size" in t["lobbyOptions"])
        assert page.input_value("#friend select[name=game]") == t["name"]
        seats = next(p["seats"] for p in t["presets"] if p["name"] == t["defaultPreset"])
        assert page.locator("#friend select[data-seat]").count() == seats - 1
        assert page.locator("#quick select[name=preset]").is_visible()


# ---------------------------------------------------------------------------------------------- point 6
def rated_browser(browser: Any, viewport: dict[str, int], key: str, lang: str = "en") -> Any:
    """A browser context whose page keeps ``key`` as its player key (so that its games count for it)."""
    ctx = browser.new_context(viewport=viewport, locale="en-US")
    ctx.set_default_timeout(20_000)
    ctx.add_init_script(f"localStorage.setItem('spite.playerKey', {json.dumps(key)});"
                        f"localStorage.setItem('spite.lang', {json.dumps(lang)});"
                        "localStorage.setItem('spite.pace', 'instant');")
    return ctx


@SIZES
def test_a_rated_table_says_so_with_each_persons_rating_beside_their_name(
        web_server: WebServer, browser: Any, viewport: dict[str, int]) -> None:
    key = secrets.token_urlsafe(24)
    play_rated_quick_game(web_server.base, key, "Rea")  # a rating of one game
    mine = httpx.get(f"{web_server.base}/api/players/{player_id(key)}/ratings").json()["groups"][0]
    ctx = rated_browser(browser, viewport, key)
    try:
        page = ctx.new_page()
        watch = ConsoleWatch(page)
        page.goto(web_server.base + "/")
        page.fill("#name", "Rea")
        open_more_options(page)
        page.check("#quick input[name=rated]")
        page.select_option("#quick select[name=level]", "easy")
        page.click("#quick-play")
        table = table_id(page)
        page.wait_for_selector(".table[data-status=playing]")
        assert httpx.get(f"{web_server.base}/api/tables/{table}").json()["rated"] is True
        mark = page.locator("#rated-mark")
        assert mark.inner_text() == "Rated game" and mark.is_visible()
        assert mark.get_attribute("title") == "This game counts for the players' ratings."
        mine_shown = page.locator(".player.me .seat-rating")
        assert mine_shown.inner_text() == f"{mine['rating']} provisional"
        assert mine_shown.get_attribute("title") == f"rating {mine['rating']}, provisional"
        assert page.locator(".player.opponent .seat-rating").count() == 0  # a computer has no rating of a person
        assert page.locator("#hint").count() == 0
        # one screen at this size still: nothing to scroll
        assert page.evaluate("[document.documentElement.scrollHeight <= innerHeight,"
                             " document.documentElement.scrollWidth <= innerWidth]") == [True, True]
        page.click("button.lang[data-lang=de]")
        page.wait_for_function("() => document.querySelector('#rated-mark').textContent === 'Gewertetes Spiel'")
        assert page.inner_text(".player.me .seat-rating") == f"{mine['rating']} vorläufig"
        assert not_german(page, "Rea") == []
        # Spit's table says it too
        page.goto(web_server.base + "/")
        page.click("button.lang[data-lang=en]")
        open_more_options(page)
        page.select_option("#quick select[name=game]", "spit")
        page.check("#quick input[name=rated]")
        page.click("#quick-play")
        table_id(page)
        page.wait_for_selector(".spit-table #rated-mark")
        assert page.inner_text(".sp-side.me .seat-rating") == "1000 provisional"
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()


@SIZES
def test_ratings_in_words_counts_in_plural_forms_and_a_dated_chart(web_server: WebServer, page: Any,
                                                                    viewport: dict[str, int]) -> None:
    key = secrets.token_urlsafe(24)
    name = "Patwide" if viewport["width"] > 1000 else "Patnarrow"
    play_rated_quick_game(web_server.base, key, name)
    page.goto(f"{web_server.base}/player/{player_id(key)}")
    group = page.locator(".rating-group[data-group=classic]")
    group.wait_for()
    mine = httpx.get(f"{web_server.base}/api/players/{player_id(key)}/ratings").json()
    classic = mine["groups"][0]
    assert classic["provisional"] and classic["provisionalGames"] > 0
    # in words: how many more games, one game (not "1 rated games"), and a first game is a sentence
    assert group.locator(".provisional").inner_text() == f"provisional: {classic['provisionalGames']} more games"
    assert group.locator("p.muted").inner_text() == "1 rated game"
    first = group.locator(".first-game")
    assert re.fullmatch(rf"The first rated game, on \w+ \d+, \d{{4}}: {classic['rating']}\. "
                        r"The chart begins with the next one\.", first.inner_text()), first.inner_text()
    assert group.locator("svg.rating-chart").count() == 0
    # the game carries its date
    (game,) = mine["games"]
    date = page.locator(f"#player-games li[data-game='{game['id']}'] > time.game-date:first-child")
    assert re.fullmatch(r"\w+ \d+, \d{4}", date.inner_text()), date.inner_text()
    page.click("button.lang[data-lang=de]")
    assert group.locator("p.muted").inner_text() == "1 gewertetes Spiel"
    assert group.locator(".provisional").inner_text() == f"vorläufig: noch {classic['provisionalGames']} Spiele"
    assert re.fullmatch(r"\d\d\.\d\d\.\d{4}", date.inner_text()), date.inner_text()
    assert not_german(page, name) == []
    # a second game: a chart with a rating axis of round numbers that differ and a date axis
    play_rated_quick_game(web_server.base, key, name)
    page.click("button.lang[data-lang=en]")
    page.reload()
    chart = page.locator(".rating-group[data-group=classic] svg.rating-chart")
    chart.wait_for()
    assert chart.get_attribute("data-points") == "2"
    assert page.locator(".rating-group[data-group=classic] p.muted").inner_text() == "2 rated games"
    ticks = [int(v) for v in chart.locator("text.axis:not(.date)").all_text_contents()]
    assert len(ticks) >= 2 and len(set(ticks)) == len(ticks) and all(v % 10 == 0 for v in ticks), ticks
    history = [p["rating"] for p in httpx.get(f"{web_server.base}/api/players/{player_id(key)}/ratings")
               .json()["groups"][0]["history"]]
    assert min(ticks) <= min(history) and max(history) <= max(ticks)
    dates = chart.locator("text.date").all_text_contents()
    assert len(dates) == 2 and re.match(r"\w+ \d+, \d{4}", dates[0]), dates  # played today: the times beside
    box = chart.bounding_box()
    assert box is not None and box["x"] + box["width"] <= viewport["width"]
    # the leaderboard: the same words, and no formula anywhere
    page.goto(f"{web_server.base}/ratings?group=classic")
    row = page.locator(f"#board tr[data-player='{player_id(key)}']")
    row.wait_for()
    assert re.search(r"provisional: \d+ more games", row.inner_text())
    text = page.inner_text("main")
    assert "sigma" not in text and "mu " not in text and "starts at 1000" in text
    page.click("button.lang[data-lang=de]")
    page.wait_for_selector("text=vorläufig: noch")
    assert not_german(page, *re.findall(r"\w+", page.inner_text("#board tbody"))) == []
