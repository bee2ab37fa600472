"""The end of a game (issue 41, point 7): a declined rematch is shown to everyone at once, with the
ways on (the lobby, a new table of the same kind), and survives a reload; the tab title says won or
lost. Two people at a friend's table, one on a desktop and one on a phone."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from conftest import DESKTOP, NO_PACE, PHONE, ConsoleWatch, WebServer, open_seat
from test_web_rematch import play_both_to_the_end


def seat_page(browser: Any, server: WebServer, table_id: str, seat: int, token: str, viewport: dict[str, int],
              **extra: Any) -> Any:
    """A new browser holding seat ``seat``'s token opens the table (as after a join)."""
    ctx = browser.new_context(viewport=viewport, locale="en-US", **extra)
    ctx.set_default_timeout(15_000)
    ctx.add_init_script(NO_PACE)
    page = ctx.new_page()
    page.watch = ConsoleWatch(page)
    open_seat(page, server.base, table_id, token, seat, ready=f'.table[data-seat="{seat}"]')
    return page


STOCK = 1
"""Stocks of one card: the end of a game, which is what these tests are about, in a few moves."""


def friends_table(server: WebServer) -> tuple[str, str, str]:
    """A short table of two people, Ann (seat 0) and Bob (seat 1): its id and both tokens."""
    r = httpx.post(server.base + "/api/tables", json={
        "game": "spite-malice", "preset": "short", "options": {"stock_size": STOCK}, "name": "Ann",
        "seats": [{"kind": "person"}, {"kind": "person"}]})
    assert r.status_code == 200, r.text
    table_id, ann = r.json()["table"]["id"], r.json()["token"]
    bob = httpx.post(f"{server.base}/api/tables/{table_id}/join", json={"name": "Bob"}).json()["token"]
    return table_id, ann, bob


def test_a_declined_rematch_is_shown_to_everyone_and_survives_a_reload(web_server: WebServer, browser: Any) -> None:
    table_id, ann_token, bob_token = friends_table(web_server)
    ann = seat_page(browser, web_server, table_id, 0, ann_token, DESKTOP)
    bob = seat_page(browser, web_server, table_id, 1, bob_token, PHONE, has_touch=True, is_mobile=True)
    try:
        play_both_to_the_end([ann, bob])
        for p in (ann, bob):
            p.wait_for_selector("#game-over #rematch-ask")
        # the tab says who won, in the person's own words
        winner = int(ann.get_attribute("#game-over", "data-winner"))
        titles = {0: ann.title(), 1: bob.title()}
        assert titles[winner] == "You won · spite" and titles[1 - winner] == "You lost · spite", titles

        # Ann asks for a rematch and waits for Bob
        ann.click("#rematch")
        ann.wait_for_selector("#rematch-wait")
        # Bob says no thanks: he is told so at once, with the ways on
        bob.wait_for_selector('#rematch-ask li.yes[data-seat="0"]')
        bob.click("#rematch-no")
        bob.wait_for_selector("#rematch-declined")
        assert bob.inner_text("#rematch-declined") == "You said no thanks: no rematch at this table."
        assert bob.is_visible("#to-lobby") and bob.is_visible("#new-table")
        # … and Ann, at once: no more waiting for Bob
        ann.wait_for_selector("#rematch-declined")
        assert ann.inner_text("#rematch-declined") == "Bob said no thanks: no rematch at this table."
        assert ann.locator("#rematch-wait").count() == 0 and "Waiting" not in ann.inner_text("#game-over")
        assert ann.is_visible("#to-lobby") and ann.is_visible("#new-table")
        # a reload keeps it (the server keeps each seat's answer with the table)
        for p, line in ((ann, "Bob said no thanks"), (bob, "You said no thanks")):
            p.reload()
            p.wait_for_selector("#rematch-declined")
            assert p.inner_text("#rematch-declined").startswith(line)
        assert re.fullmatch(r"You (won|lost) · spite", bob.title())

        # a way on: a new table like this one (a free seat for the friend), with Ann's seat kept
        ann.click("#new-table")
        ann.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        ann.wait_for_selector(".table[data-status=open]")
        new_id = ann.url.rsplit("/", 1)[1]
        assert new_id != table_id
        assert ann.is_visible("#share-link")
        info = httpx.get(f"{web_server.base}/api/tables/{new_id}").json()
        assert info["preset"] == "short" and info["options"].get("stock_size") == STOCK
        assert [s["kind"] for s in info["seats"]] == ["person", "person"]
        for p in (ann, bob):
            assert p.watch.errors == [], p.watch.errors
    finally:
        ann.context.close()
        bob.context.close()


@pytest.mark.timeout(180)  # two browsers play a whole game by clicks
def test_a_watcher_sees_the_decline_and_the_tab_names_the_winner(web_server: WebServer, browser: Any) -> None:
    """A watcher's tab names the winner; when a person declines, the watcher sees it too (on a phone)."""
    table_id, ann_token, bob_token = friends_table(web_server)
    ann = seat_page(browser, web_server, table_id, 0, ann_token, PHONE)
    bob = seat_page(browser, web_server, table_id, 1, bob_token, DESKTOP)
    ctx = browser.new_context(viewport=PHONE, locale="en-US")
    ctx.add_init_script(NO_PACE)
    watcher = ctx.new_page()
    watch = ConsoleWatch(watcher)
    try:
        watcher.goto(f"{web_server.base}/t/{table_id}?watch=1")
        watcher.wait_for_selector('.table[data-seat=""]')
        play_both_to_the_end([ann, bob])
        watcher.wait_for_selector("#game-over")
        names = {0: "Ann", 1: "Bob"}
        winner = int(watcher.get_attribute("#game-over", "data-winner"))
        deadline = time.monotonic() + 5
        while watcher.title() != f"{names[winner]} won · spite":
            assert time.monotonic() < deadline, watcher.title()
            watcher.wait_for_timeout(50)
        ann.wait_for_selector("#game-over #rematch-no")
        ann.click("#rematch-no")
        watcher.wait_for_selector('#rematch-ask li.no[data-seat="0"]')
        assert watcher.inner_text('#rematch-ask li.no[data-seat="0"]') == "Ann does not want a rematch"
        bob.wait_for_selector("#rematch-declined")
        assert watch.errors == [], watch.errors
    finally:
        ctx.close()
        ann.context.close()
        bob.context.close()
