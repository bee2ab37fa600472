"""Provably fair deals on the page (docs/fairness.md): the deal fingerprint shows before any card,
the page's nonce goes into the deal, and after the game the table and the replay show "verified",
computed in the browser."""

from __future__ import annotations

import re
from typing import Any

import httpx
from conftest import WebServer
from test_web_page import play_to_the_end, start_quick_game


def test_the_fingerprint_shows_before_the_first_card(web_server: WebServer, browser: Any) -> None:
    created = httpx.post(web_server.base + "/api/tables", json={"preset": "short", "join": False}).json()
    table_id = created["id"]
    pages = []
    for name in ("Ann", "Bob"):
        ctx = browser.new_context(viewport={"width": 1280, "height": 860}, locale="en-US")
        ctx.set_default_timeout(15_000)
        page = ctx.new_page()
        page.goto(f"{web_server.base}/t/{table_id}")
        page.fill("#join-form input[name=name]", name)
        page.click("#join")
        pages.append(page)
        if name == "Ann":
            # seated, waiting for Bob: the fingerprint is there, not a single card of the deal
            page.wait_for_selector('#fair[data-dealt="0"]')
            commitment = page.get_attribute("#fair", "data-commitment")
            assert re.fullmatch(r"[0-9a-f]{64}", commitment or "")
            shown = page.text_content("#fair-copy")
            assert shown == f"{commitment[:4]}-{commitment[4:8]}-{commitment[8:12]}"
            assert commitment in (page.get_attribute("#fair-copy", "title") or "")
            assert page.locator(".me .hand-card").count() == 0
            assert "dealt once every player is here" in page.inner_text("#fair")
    for page in pages:
        page.wait_for_selector('#fair[data-dealt="1"]')
        assert page.get_attribute("#fair", "data-commitment") == commitment
        page.wait_for_selector(".me .hand-card")
    # both pages sent a nonce: nobody is listed as without one
    assert "no random part" not in pages[0].inner_text("#fair")
    for page in pages:
        page.context.close()


def test_the_table_and_the_replay_show_verified(web_server: WebServer, page: Any) -> None:
    table_id = start_quick_game(page, web_server, name="Vera", stock=3, level="random")
    page.wait_for_selector('#fair[data-dealt="1"]')
    commitment = page.get_attribute("#fair", "data-commitment")
    # the computer adds no random part, and the page says so
    assert "no random part from Computer (random)" in page.inner_text("#fair")
    play_to_the_end(page)
    page.wait_for_selector('#fair[data-verified="1"]')
    assert "verified" in page.inner_text("#fair-verified")
    info = httpx.get(f"{web_server.base}/api/tables/{table_id}").json()
    record = httpx.get(f"{web_server.base}/api/games/{info['gameId']}/record").json()
    proof = record["fairness"]
    assert proof["commitment"] == commitment and proof["table"] == table_id
    assert re.fullmatch(r"[0-9a-f]{32}", proof["nonces"][0]) and proof["nonces"][1] is None

    page.goto(f"{web_server.base}/replay/{info['gameId']}")
    page.wait_for_selector('#fair[data-verified="1"]')
    assert page.get_attribute("#fair", "data-commitment") == commitment
    assert "spite verify" in (page.get_attribute("#fair-verified", "title") or "")
    page.click("button.lang[data-lang=de]")
    assert "geprüft" in page.inner_text("#fair")
    page.click("button.lang[data-lang=en]")


def test_a_match_game_whose_first_player_the_rules_chose_checks_out_in_the_replay(
        web_server: WebServer, page: Any) -> None:
    """A match's later game is dealt under spite-fair/2 (the loser of the game before begins, and the
    commitment binds that seat): the replay's check takes the seat in and shows "verified"."""
    import time

    r = httpx.post(web_server.base + "/api/tables", json={
        "preset": "short", "join": False, "options": {"stock_size": 2, "match_target": 2},
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 200, r.text
    table_id = r.json()["id"]
    deadline = time.monotonic() + 60
    while (info := httpx.get(f"{web_server.base}/api/tables/{table_id}").json())["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' match did not end"
        time.sleep(0.2)
    record = httpx.get(f"{web_server.base}/api/games/{info['gameId']}/record").json()
    assert record["fairness"]["scheme"] == "spite-fair/2" and record["fairness"]["game"] >= 2
    page.goto(f"{web_server.base}/replay/{info['gameId']}")
    page.wait_for_selector('#fair[data-verified="1"]')
    assert page.get_attribute("#fair", "data-commitment") == record["fairness"]["commitment"]
