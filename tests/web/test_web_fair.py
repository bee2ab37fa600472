"""Provably fair deals on the page (docs/fairness.md): the deal fingerprint shows before any card,
the page's nonce goes into the deal, and after the game the table and the replay show "verified",
computed in the browser."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from conftest import WebServer, remember_seat
from test_web_page import start_quick_game

from helpers import finished_table


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
            # the table shows a small mark; its details say in plain words what it is
            assert page.inner_text("#fair-mark").strip() == "fair deal"
            assert not page.is_visible("#fair-details") and "fingerprint" not in page.inner_text(".table-head")
            page.click("#fair-mark")
            assert "dealt once every player is here" in page.inner_text("#fair")
            assert "sealed this deal" in page.inner_text("#fair-details")
            page.keyboard.press("Escape")
            page.wait_for_selector("#fair-details", state="hidden")
    for page in pages:
        page.wait_for_selector('#fair[data-dealt="1"]')
        assert page.get_attribute("#fair", "data-commitment") == commitment
        page.wait_for_selector(".me .hand-card")
    # both pages sent a nonce: nobody is listed as without one
    pages[0].click("#fair-mark")
    assert "No random number" not in pages[0].inner_text("#fair")
    for page in pages:
        page.context.close()


def test_the_table_and_the_replay_show_verified(web_server: WebServer, page: Any) -> None:
    table_id = start_quick_game(page, web_server, name="Vera", stock=2, level="random")
    page.wait_for_selector('#fair[data-dealt="1"]')
    commitment = page.get_attribute("#fair", "data-commitment")
    # the computer adds no random part, and the details say so, by its name
    bot = page.inner_text(".opponent .seat-name")
    page.click("#fair-mark")
    assert f"No random number of their own from {bot}" in page.inner_text("#fair-details")
    page.click("#fair-mark")
    play_out_in_the_background(page, web_server, table_id)
    page.wait_for_selector('#fair[data-verified="1"]')
    assert page.inner_text("#fair-mark").strip() == "fair deal ✓"
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
    assert page.inner_text("#fair-mark").strip() == "faires Geben ✓"
    page.click("#fair-mark")
    assert "geprüft" in page.inner_text("#fair")
    page.click("button.lang[data-lang=en]")


# ---------------------------------------------------------------------------------------------------
# The page's seat link (seat-link.js) against the server itself: the nonce goes only for a commitment
# seen before the socket opened, and a server that changes or bends what it committed to is caught.

ORDER_JS = """
window.__order = [];
const realFetch = window.fetch;
window.fetch = async (...args) => {
  const res = await realFetch(...args);
  const url = String(args[0]?.url ?? args[0]);
  if (/\\/api\\/tables\\/[^/?]+$/.test(url)) {
    const info = await res.clone().json().catch(() => null);
    window.__order.push(['info', info?.fair?.commitment ?? null]);
  }
  return res;
};
const realSend = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  window.__order.push(['send', String(data)]);
  return realSend.call(this, data);
};
"""
"""An init script: the page's table-info answers (with their commitment) and every frame its
WebSockets send, in the order they happened in the page."""

FAKE = "c0ffee" * 10 + "c0ff"
"""A commitment (64 hex digits) no honest server published."""


def hold_seat(page: Any, server: WebServer, table_id: str, token: str, seat: int = 0) -> None:
    """Store ``token`` as this browser's seat at ``table_id`` (as the lobby would)."""
    remember_seat(page, server.base, table_id, token, seat)


def quick_table(server: WebServer, name: str = "Vera", stock: int = 2) -> tuple[str, str]:
    """Quick play against the random computer (stocks of 2: quickly played out), through the REST
    lobby: (table, token). The deal waits for the person's hello (docs/fairness.md)."""
    r = httpx.post(server.base + "/api/quickplay", json={"name": name, "level": "random",
                                                        "options": {"stock_size": stock}})
    assert r.status_code == 200, r.text
    joined = r.json()
    assert joined["table"]["fair"]["dealt"] is False  # the commitment is out before any hello
    return str(joined["table"]["id"]), str(joined["token"])


def hellos(page: Any) -> list[dict[str, Any]]:
    return [json.loads(data) for kind, data in page.evaluate("window.__order")
            if kind == "send" and json.loads(data)["type"] == "hello"]


def stored_nonce(page: Any, table_id: str, game: int = 1) -> str | None:
    return page.evaluate("key => localStorage.getItem(key)", f"spite.nonce.{table_id}.{game}")


def test_the_nonce_goes_only_after_the_commitment_and_a_reload_sends_the_same(
        web_server: WebServer, browser: Any, page: Any) -> None:
    r = httpx.post(web_server.base + "/api/tables", json={"preset": "short", "name": "Ann"})
    assert r.status_code == 200, r.text
    table_id, token = str(r.json()["table"]["id"]), str(r.json()["token"])
    commitment = r.json()["table"]["fair"]["commitment"]
    page.add_init_script(ORDER_JS)
    hold_seat(page, web_server, table_id, token)
    page.goto(f"{web_server.base}/t/{table_id}")
    page.wait_for_selector('#fair[data-dealt="0"]')  # Ann is seated; Bob has not come: not dealt
    order = page.evaluate("window.__order")
    # the table info with the commitment came first, then the hello with this browser's nonce
    assert order[0] == ["info", commitment], order
    first_send = next(i for i, (kind, _) in enumerate(order) if kind == "send")
    assert first_send > 0 and json.loads(order[first_send][1])["type"] == "hello"
    nonce = stored_nonce(page, table_id)
    assert re.fullmatch(r"[0-9a-f]{32}", nonce or ""), nonce
    assert hellos(page) == [{"type": "hello", "token": token, "nonce": nonce}]
    # the commitment the nonce went out under is kept with it
    assert page.evaluate("key => localStorage.getItem(key)", f"spite.pin.{table_id}.1") == commitment

    # a reload, and a second tab of the same seat, send the same nonce (the server counts the last one)
    page.reload()
    page.wait_for_selector('#fair[data-dealt="0"]')
    assert hellos(page) == [{"type": "hello", "token": token, "nonce": nonce}]
    tab = page.context.new_page()
    tab.add_init_script(ORDER_JS)
    tab.goto(f"{web_server.base}/t/{table_id}")
    tab.wait_for_selector('#fair[data-dealt="0"]')
    assert hellos(tab) == [{"type": "hello", "token": token, "nonce": nonce}]
    tab.close()

    # Bob comes: dealt, Ann's nonce counts; at the end it is the one revealed as seat 0's
    bob = httpx.post(f"{web_server.base}/api/tables/{table_id}/join", json={"name": "Bob"}).json()
    from websockets.sync.client import connect

    with connect(web_server.base.replace("http", "ws", 1) + f"/ws/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": bob["token"], "nonce": "ab" * 16}))
        welcome = json.loads(ws.recv(10))
        assert welcome["type"] == "welcome" and welcome["fair"]["dealt"] and welcome["fair"]["sent"] == [True, True]
        page.wait_for_selector('#fair[data-dealt="1"]')
        assert "no random part" not in page.inner_text("#fair")


def test_a_changed_commitment_is_told_plainly(web_server: WebServer, page: Any) -> None:
    """The table info the page fetches names another commitment than the one the game is dealt
    from (as a server would that saw the nonce first): the person is told, in English and German."""
    # a stock the computer cannot play out in its first turn: no game-over view over the language buttons
    table_id, token = quick_table(web_server, stock=20)

    def bend(route: Any) -> None:
        response = route.fetch()
        info = response.json()
        info["fair"]["commitment"] = FAKE
        route.fulfill(response=response, json=info)

    page.route(f"**/api/tables/{table_id}", bend)
    hold_seat(page, web_server, table_id, token)
    page.goto(f"{web_server.base}/t/{table_id}")
    page.wait_for_selector('#fair[data-verified="0"]')
    assert page.inner_text("#fair-verified") == ("✗ The server changed its commitment to this deal after you sat down: "
                                                 "this deal cannot be trusted.")
    # the fingerprint shown stays the one the page was first shown (and sent its nonce under)
    assert page.get_attribute("#fair", "data-commitment") == FAKE
    page.click("button.lang[data-lang=de]")
    assert page.inner_text("#fair-verified") == ("✗ Der Server hat seine Festlegung auf dieses Geben geändert, nachdem "
                                                 "du Platz genommen hast: diesem Geben ist nicht zu trauen.")
    page.click("button.lang[data-lang=en]")


def rewrite_server_frames(page: Any, rewrite: Any) -> None:
    """Every frame the server sends the page passes through ``rewrite(message) -> message`` (the page's
    own frames go to the server as they are)."""

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()

        def on_message(frame: str | bytes) -> None:
            ws.send(json.dumps(rewrite(json.loads(frame))) if isinstance(frame, str) else frame)

        server.on_message(on_message)

    page.route_web_socket(re.compile(r"/ws/"), handler)


def fairs(msg: dict[str, Any]) -> list[dict[str, Any]]:
    """The FairInfo objects a server message carries (its own and its table info's)."""
    return [f for f in (msg.get("fair"), (msg.get("table") or {}).get("fair")) if isinstance(f, dict)]


GAME_TIMEOUT = 40.0


def eager_move(legal: list[str]) -> str:
    """The move a player in a hurry makes: the stock onto a build pile, else any card onto one, else a
    discard (the turn's end). Random moves would discard at once half the time and make a game of
    stocks of 2 last a hundred moves, each a frame the page draws."""
    for prefix in ("S-B", "H", "D"):
        builds = [m for m in legal if m.startswith(prefix) and "-B" in m]
        if builds:
            return builds[0]
    return legal[0]


def eager_player_to_the_end(base: str, table_id: str, token: str) -> dict[str, Any]:
    """A seat played over the WebSocket (:func:`eager_move` of its newest position) until ``gameOver``."""
    from websockets.sync.client import connect

    deadline = time.monotonic() + GAME_TIMEOUT
    sent = -1
    with connect(base.replace("http", "ws", 1) + f"/ws/{table_id}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            assert time.monotonic() < deadline, f"the game did not end within {GAME_TIMEOUT} s"
            msg = json.loads(ws.recv(10))
            if msg["type"] == "gameOver":
                return dict(msg)
            if msg["type"] in ("welcome", "state") and msg["legal"] and msg["stateVersion"] > sent:
                sent = msg["stateVersion"]
                ws.send(json.dumps({"type": "move", "move": eager_move(msg["legal"]), "stateVersion": sent}))


def play_out_in_the_background(page: Any, server: WebServer, table_id: str) -> dict[str, Any]:
    """The page's seat (its token from the lobby, in the browser's storage) played to the end by a
    second connection of the seat, while the page looks on: what these tests check comes at the end,
    and clicks are test_web_page.py's. Returns the gameOver."""
    token = page.evaluate("id => JSON.parse(localStorage.getItem('spite.seats'))[id].token", table_id)
    over = eager_player_to_the_end(server.base, table_id, token)
    # the page draws every position of the game it was sent in a few seconds: on a busy machine that
    # takes a while
    page.wait_for_selector('.table[data-over="1"]', timeout=60_000)
    return over


def play_out(web_server: WebServer, page: Any, table_id: str, token: str) -> dict[str, Any]:
    """The page holds the seat (its hello made the deal); a second connection of the seat plays it to
    the end (quicker than clicks). Returns the gameOver."""
    hold_seat(page, web_server, table_id, token)
    page.goto(f"{web_server.base}/t/{table_id}")
    page.wait_for_selector('#fair[data-dealt="1"]')
    return eager_player_to_the_end(web_server.base, table_id, token)


def test_an_honest_game_is_verified_and_a_rematch_from_another_commitment_is_caught(
        web_server: WebServer, page: Any) -> None:
    table_id, token = quick_table(web_server)
    # the honest server's frames, except that the rematch (game 2) is dealt from another commitment
    # than the "next" one published at the end of game 1
    def second_game_bent(msg: dict[str, Any]) -> dict[str, Any]:
        for fair in fairs(msg):
            if fair.get("game") == 2:
                fair["commitment"] = FAKE
        return msg

    rewrite_server_frames(page, second_game_bent)
    over = play_out(web_server, page, table_id, token)
    page.wait_for_selector('#fair[data-verified="1"]')
    assert page.inner_text("#fair-verified") == ("✓ verified: the commitment, your random part and the seed "
                                                 "(every shuffle: spite verify)")
    assert over["fair"]["nonces"][0] == stored_nonce(page, table_id)
    assert over["fair"]["next"] != FAKE
    page.click("#rematch")
    page.wait_for_selector('#fair[data-verified="0"]')
    assert page.inner_text("#fair-verified") == ("✗ Game 2 was dealt from another commitment than the one published "
                                                 "at the end of the game before: this deal cannot be trusted.")
    # the rematch's yes carried this browser's nonce for game 2, made after its commitment was seen
    assert stored_nonce(page, table_id, 2) is not None


@pytest.mark.timeout(120)  # the rewritten frames reach the page only while the test waits on it: all at the end
@pytest.mark.parametrize("bent", ["secret", "nonce", "seed"])
def test_a_bent_reveal_is_caught(web_server: WebServer, page: Any, bent: str) -> None:
    """The server reveals a secret that does not give its commitment, leaves this browser's nonce
    out, or stores a record whose seed does not follow: the person is told which."""
    table_id, token = quick_table(web_server)

    def reveal_bent(msg: dict[str, Any]) -> dict[str, Any]:
        for fair in fairs(msg):
            if fair.get("secret") and bent == "secret":
                fair["secret"] = "5e" * 32
            if fair.get("nonces") and bent == "nonce":
                fair["nonces"][0] = "00" * 16
        return msg

    def record_bent(route: Any) -> None:
        response = route.fetch()
        record = response.json()
        record["seed"] = "0" * 64
        route.fulfill(response=response, json=record)

    rewrite_server_frames(page, reveal_bent)
    if bent == "seed":
        page.route("**/api/games/*/record", record_bent)
    play_out(web_server, page, table_id, token)
    # the page is handed the game's frames now, one by one through this test's frame rewriter, and
    # draws each: on a busy machine that takes a while
    page.wait_for_selector('#fair[data-verified="0"]', timeout=60_000)
    expected = {
        "secret": "The revealed secret does not give the commitment published before the deal: this deal was not fair.",
        "nonce": "Your random part is not among the revealed ones: the server dealt without it.",
        "seed": "The record's seed does not follow from the secret and the random parts: this deal was not fair.",
    }[bent]
    assert page.inner_text("#fair-verified") == f"✗ {expected}"


def test_a_match_game_whose_first_player_the_rules_chose_checks_out_in_the_replay(
        web_server: WebServer, page: Any) -> None:
    """A match's later game is dealt under spite-fair/2 (the loser of the game before begins, and the
    commitment binds that seat): the replay's check takes the seat in and shows "verified"."""
    r = httpx.post(web_server.base + "/api/tables", json={
        "preset": "short", "join": False, "options": {"stock_size": 2, "match_target": 2},
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]})
    assert r.status_code == 200, r.text
    info = finished_table(web_server.base, r.json()["id"], timeout=60)
    record = httpx.get(f"{web_server.base}/api/games/{info['gameId']}/record").json()
    assert record["fairness"]["scheme"] == "spite-fair/2" and record["fairness"]["game"] >= 2
    page.goto(f"{web_server.base}/replay/{info['gameId']}")
    page.wait_for_selector('#fair[data-verified="1"]')
    assert page.get_attribute("#fair", "data-commitment") == record["fairness"]["commitment"]


def test_a_spit_table_checks_its_deal_through_the_same_link(web_server: WebServer, page: Any) -> None:
    """Spit speaks through the same seat link: its hello carries this browser's nonce for the
    commitment it was shown, and when the time limit ends the game the deal is verified."""
    r = httpx.post(web_server.base + "/api/tables", json={
        "game": "spit", "name": "Sam", "options": {"time_limit_s": 2},
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "reflex:60000"}]})
    assert r.status_code == 200, r.text
    table_id, token = str(r.json()["table"]["id"]), str(r.json()["token"])
    page.add_init_script(ORDER_JS)
    hold_seat(page, web_server, table_id, token)
    page.goto(f"{web_server.base}/t/{table_id}")
    page.wait_for_selector('.spit-table[data-over="1"]')
    nonce = stored_nonce(page, table_id)
    assert hellos(page) == [{"type": "hello", "token": token, "nonce": nonce}]
    page.wait_for_selector('#fair[data-verified="1"]')
    assert page.inner_text("#fair-verified") == ("✓ verified: the commitment, your random part and the seed "
                                                 "(every shuffle: spite verify)")


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 768}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_during_play_the_details_say_the_deal_is_checked_when_the_game_ends(
        web_server: WebServer, page: Any, viewport: dict[str, int]) -> None:
    """Issue 48: no verdict yet is not "cannot check": until the reveal the details say when the check
    comes, in both languages; at the end the same place says it was verified."""
    table_id = start_quick_game(page, web_server, name="Nora", stock=2, level="random")
    page.wait_for_selector('#fair[data-dealt="1"]')
    page.click("#fair-mark")
    page.wait_for_selector("#fair-details:not([hidden])")
    assert page.inner_text("#fair-pending") == "checked when the game ends"
    assert "cannot check" not in page.inner_text("#fair-details") and page.get_attribute("#fair", "data-verified") == ""
    page.click("button.lang[data-lang=de]")
    page.wait_for_function("() => document.getElementById('fair-pending')?.textContent"
                           " === 'wird geprüft, wenn das Spiel endet'")
    assert "nicht prüfen" not in page.inner_text("#fair-details")
    page.click("button.lang[data-lang=en]")
    page.wait_for_function("() => document.getElementById('fair-pending')?.textContent"
                           " === 'checked when the game ends'")
    if page.get_attribute("#fair-mark", "aria-expanded") == "true":
        page.click("#fair-mark")
    play_out_in_the_background(page, web_server, table_id)
    page.wait_for_selector('#fair[data-verified="1"]')
    assert page.locator("#fair-pending").count() == 0
