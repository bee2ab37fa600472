"""Play a person, the leaderboard and a player's page in the browser (docs/ratings.md): two browsers
that press "Play a person" for the same game are seated at one table; so are a browser and the
terminal's ``--seek``; a rated game shows on the leaderboard and on the player's page, with its
chart and links to the replay and the review. At desktop (1366×768) and phone (390×844) size."""

from __future__ import annotations

import random
import re
import secrets
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import open_side_panel

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import Client
from test_protocol import eager, play_random

from spite.server.table.seats import player_id

SIZES = pytest.mark.parametrize("viewport", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
                                ids=["desktop", "phone"])
TABLE = re.compile(r".*/t/([A-Za-z0-9_-]+)$")


def seek_from_lobby(page: Any, base: str, name: str) -> None:
    """One click on Spite and Malice's "Play a person" (rated, as the tile offers it first)."""
    page.goto(base + "/")
    page.fill("#name", name)
    page.click(SEEK_BUTTON)
    page.wait_for_selector("#seek[data-state=waiting]")


SEEK_BUTTON = ".tile[data-game=spite-malice] [data-play=person]"


def table_of(page: Any) -> str:
    page.wait_for_url(TABLE, timeout=20_000)
    found = TABLE.match(page.url)
    assert found is not None
    return found.group(1)


@SIZES
def test_two_browsers_seeking_one_game_meet_at_one_table(browser: Any, web_server: Any,
                                                         viewport: dict[str, int]) -> None:
    # two people, two keys, two addresses (uvicorn takes a local proxy's X-Forwarded-For, as behind HAProxy):
    # rated seeks of one address are never paired
    contexts = [browser.new_context(viewport=viewport, locale="en-US",
                                    extra_http_headers={"X-Forwarded-For": f"203.0.113.{i + 1}"}) for i in range(2)]
    try:
        ann, bob = (c.new_page() for c in contexts)
        asked: list[str] = []  # ann's questions about her seek while she waits
        ann.on("request", lambda r: asked.append(r.url) if "/api/seeks/" in r.url and r.method == "GET" else None)
        seek_from_lobby(ann, web_server.base, "ann")
        assert "Your rating: 1000" in ann.inner_text("#seek-rating")
        box = ann.locator("#seek-cancel").bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport["width"], "the cancel button is off screen"
        bob.goto(web_server.base + "/")
        bob.fill("#name", "bob")
        bob.click(SEEK_BUTTON)
        table = table_of(ann)
        assert table_of(bob) == table
        # she learnt it from a long poll the server answered at the pairing, not by asking again and again
        assert asked and all("wait=" in url for url in asked) and len(asked) <= 3, asked
        info = httpx.get(f"{web_server.base}/api/tables/{table}").json()
        assert info["rated"] and sorted(s["player"] for s in info["seats"]) == ["ann", "bob"]
        # each is at their own seat of the table: their hand is drawn; the table says it is rated, both
        # ratings stand beside the names, and with no computer at the table there is no computer's pace
        assert [s["rating"]["rating"] for s in info["seats"]] == [1000, 1000]
        for page in (ann, bob):
            page.wait_for_selector("#hand, .hand", timeout=20_000)
            assert page.inner_text("#rated-mark") == "Rated game"
            ratings = page.eval_on_selector_all(".player .seat-rating", "els => els.map(e => e.innerText)")
            assert ratings == ["1000 provisional", "1000 provisional"], ratings
            open_side_panel(page)
            assert page.locator("#sound").count() == 1 and page.locator("#pace").count() == 0
    finally:
        for c in contexts:
            c.close()


def test_a_cancelled_seek_goes_back_to_the_lobby(page: Any, web_server: Any) -> None:
    seek_from_lobby(page, web_server.base, "cid")
    seek_id = page.get_attribute("#seek", "data-seek")
    page.click("#seek-cancel")
    page.wait_for_url(web_server.base + "/")
    assert httpx.get(f"{web_server.base}/api/seeks/{seek_id}").json()["state"] == "cancelled"


@SIZES
def test_the_terminal_and_a_browser_meet(page: Any, web_server: Any, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch, viewport: dict[str, int]) -> None:
    from spite.tui.seek import seek_table

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # the terminal's own player key
    page.set_extra_http_headers({"X-Forwarded-For": "203.0.113.9"})  # the browser is another person's
    seek_from_lobby(page, web_server.base, "dee")
    got: dict[str, Any] = {}
    terminal = threading.Thread(target=lambda: got.update(seek_table(web_server.base, "spite-malice", "short",
                                                                     "eve")))
    terminal.start()
    table = table_of(page)
    terminal.join(20)
    assert got["table"] == table and got["computer"] is None


def play_rated_quick_game(base: str, key: str, name: str) -> int:
    """A rated game against the ``easy`` computer (rated play is at the presets as they are and the
    measured levels), played to its end; its id."""
    joined = httpx.post(base + "/api/quickplay", json={"name": name, "playerKey": key, "rated": True, "level": "easy",
                                                       "preset": "short"}).json()
    c = Client(base, joined["table"]["id"])
    try:
        c.hello(joined["token"])
        play_random({0: c}, random.Random(3), choose=eager)
        return int(c.until("gameOver", timeout=30)["gameId"])
    finally:
        c.close()


@SIZES
def test_the_leaderboard_and_a_players_page(page: Any, web_server: Any, viewport: dict[str, int]) -> None:
    key = secrets.token_urlsafe(24)
    name = f"fay{viewport['width']}"
    game_id = play_rated_quick_game(web_server.base, key, name)
    page.goto(web_server.base + "/ratings?group=classic")
    row = page.locator(f"#board tr[data-player='{player_id(key)}']")
    row.wait_for()
    assert re.search(r"\d+ ± \d+", row.inner_text()) and "provisional" in row.inner_text()
    assert page.locator("nav.groups a").count() == 7
    row.locator("a").click()
    page.wait_for_selector(f"#player[data-player='{player_id(key)}']")
    # one game is no chart yet: it is said in words (test_web_lobby.py shows the chart of two)
    first = page.locator(".rating-group[data-group=classic] .first-game")
    assert first.get_attribute("data-points") == "1"
    box = first.bounding_box()
    assert box is not None and box["width"] <= viewport["width"]
    replay = page.locator(f"#player-games li[data-game='{game_id}'] a.replay-link")
    assert replay.get_attribute("href") == f"/replay/{game_id}"
    # in German too
    page.click("button.lang[data-lang=de]")
    page.wait_for_selector("text=Letzte Spiele")
    assert "Klassisch" in page.inner_text(".rating-group[data-group=classic] h3")
    # the game's review, a click away: the replay opens with the review asked for
    review = page.locator(f"#player-games li[data-game='{game_id}'] a.review-link")
    assert review.inner_text() == "Analyse" and review.get_attribute("href") == f"/replay/{game_id}?review=1"
    review.click()
    page.wait_for_selector(".table.replay")
    page.wait_for_selector("#review[data-state=loading], #review[data-state=done]")
