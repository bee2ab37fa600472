"""The Spite and Malice page when the server refuses its hello (issue 19): a stored seat token the
table does not know (``wrong-token``) or a table that is gone by the time the page says hello
(``no-table``). The page used to open ``/ws/undefined`` and then throw; now it looks the table up
again, opens what it finds, and shows the server's reason."""

from __future__ import annotations

import json
from typing import Any

import httpx
from conftest import ConsoleWatch, WebServer, remember_seat


def two_people_table(server: WebServer) -> str:
    """A playing table of two people, neither of them connected (nobody moves: the grace time is long)."""
    r = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "Ann"})
    assert r.status_code == 200, r.text
    table_id = str(r.json()["table"]["id"])
    r = httpx.post(server.base + f"/api/tables/{table_id}/join", json={"name": "Bob"})
    assert r.status_code == 200, r.text
    return table_id


def hold_seat(page: Any, server: WebServer, table_id: str, token: str) -> list[str]:
    """Store ``token`` as this browser's seat at ``table_id`` (as the lobby would) and note every
    WebSocket the page opens from now on."""
    remember_seat(page, server.base, table_id, token)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    return sockets


def test_a_wrong_stored_token_leaves_the_person_watching_with_the_reason(page: Any, web_server: WebServer) -> None:
    table_id = two_people_table(web_server)
    sockets = hold_seat(page, web_server, table_id, "not-this-tables-token")
    page.goto(f"{web_server.base}/t/{table_id}")
    # the page asks again and watches: the table drawn with no seat of its own, and why
    page.wait_for_selector('.table[data-status=playing][data-seat=""]')
    assert page.text_content(".actions .message") == "that token is no seat's at this table"
    seats = json.loads(page.evaluate("() => localStorage.getItem('spite.seats')"))
    assert table_id not in seats  # the useless token is forgotten
    # the refused hello's socket and the spectator's, both to this table (the page fixture checks the console)
    assert len(sockets) == 2 and all(url.endswith(f"/ws/{table_id}") for url in sockets), sockets


def test_a_table_gone_before_the_hello_shows_why(context: Any, web_server: WebServer) -> None:
    page = context.new_page()
    watch = ConsoleWatch(page)
    ghost = "goneTable123"
    sockets = hold_seat(page, web_server, ghost, "a-token")
    # the first look-up still finds the table (as if it ended and went away right after); the next
    # one is the server's own answer
    info = {"id": ghost, "game": "spite-malice", "preset": "short", "options": {}, "status": "playing",
            "seats": [{"seat": 0, "kind": "person", "player": "Ann", "status": "disconnected"},
                      {"seat": 1, "kind": "person", "player": "Bob", "status": "disconnected"}],
            "stateVersion": 3, "link": f"/t/{ghost}", "gameId": None}
    page.route(f"**/api/tables/{ghost}", lambda route: route.fulfill(json=info), times=1)
    page.goto(f"{web_server.base}/t/{ghost}")
    page.wait_for_selector("#main .panel .error")
    assert page.text_content("#main .panel .error") == f"there is no table {ghost}"
    assert page.text_content("#status") == f"there is no table {ghost} being played"
    assert page.locator('#main a[href="/"]').count() == 1  # the way back to the lobby
    assert sockets == [page.url.replace("http", "ws", 1).replace(f"/t/{ghost}", f"/ws/{ghost}")], sockets
    # the server's 404 to the second look-up is logged by the browser as a failed resource; nothing else
    assert all("404" in e and "Failed to load resource" in e for e in watch.errors), watch.errors
