"""The page's seat link (``seat-link.js``): one WebSocket protocol for every table screen. A table
opened again answers a key once (its old link and key listener are gone), a lost connection is
opened again after the table info is fetched again (a move it swallowed can be played again), and a
refusal the server closes the socket after is shown and not retried."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from conftest import WebServer, sync_api
from test_web_fair import ORDER_JS, hold_seat, quick_table
from test_web_page import play_one_move, start_quick_game, version, wait_for_turn

SOCKETS_JS = """
window.__sockets = [];
window.__received = [];
const RealSocket = window.WebSocket;
window.WebSocket = class extends RealSocket {
  constructor(...args) {
    super(...args);
    window.__sockets.push(this);
    this.addEventListener('message', (ev) => window.__received.push(JSON.parse(ev.data).type));
  }
};
"""
"""An init script: every WebSocket the page opens, and the type of every message they receive."""


def sent(page: Any, kind: str) -> list[dict[str, Any]]:
    """The frames of type ``kind`` the page's sockets sent (ORDER_JS)."""
    return [json.loads(data) for k, data in page.evaluate("window.__order")
            if k == "send" and json.loads(data)["type"] == kind]


def test_a_table_opened_again_answers_a_key_once(web_server: WebServer, page: Any) -> None:
    page.add_init_script(ORDER_JS)
    page.add_init_script(SOCKETS_JS)
    table_id = start_quick_game(page, web_server, name="Kai", stock=10, level="random")
    assert wait_for_turn(page)
    # the page opens the table again, as it does after a refused hello or a join (seatpage.js)
    page.evaluate("""async (id) => {
      const info = await (await fetch(`/api/tables/${id}`)).json();
      (await import('/static/games/spite-malice/table.js')).openTable(info);
    }""", table_id)
    # the new table's welcome is drawn (the old one's socket was closed, not left open beside it)
    page.wait_for_function("() => window.__received.filter(t => t === 'welcome').length === 2")
    page.wait_for_function("() => window.__sockets[0].readyState === WebSocket.CLOSED")
    assert page.evaluate("window.__sockets.map(ws => ws.readyState)") == [3, 1]  # CLOSED, OPEN
    assert wait_for_turn(page)
    page.keyboard.press("h")
    page.wait_for_selector("#hint-text[data-move]")
    assert len(sent(page, "hint")) == 1  # one key press, one hint asked (not one per table opened)
    # and a move by keys lands once
    before = version(page)
    page.keyboard.press("Escape")
    play_by_one_key_sequence(page)
    page.wait_for_function(f"() => Number(document.querySelector('.table').dataset.version) > {before}")
    assert len(sent(page, "move")) == 1


def play_by_one_key_sequence(page: Any) -> None:
    """One move by keys: the first playable hand card (or the stock), then its first legal target."""
    if page.locator('.me [data-source="S"][data-playable="1"]').count():
        page.keyboard.press("s")
    else:
        index = int(page.get_attribute('.me .hand-card[data-playable="1"] >> nth=0', "data-index"))
        page.keyboard.press(str(index + 1))
    page.wait_for_selector('[data-selected="1"]')
    target = page.get_attribute('[data-legal="1"] >> nth=0', "data-target")
    page.keyboard.press(target[0].lower())
    page.keyboard.press(target[1:])


def test_a_lost_connection_is_opened_again_after_the_table_info(web_server: WebServer, page: Any) -> None:
    """The connection drops with the seat's move in flight (as when another server process takes the
    table over: 1012): the page fetches the table info again, says hello again, and the seat, back at
    the position the server holds, plays again."""
    routes: list[Any] = []

    def handler(ws: Any) -> None:
        server = ws.connect_to_server()
        routes.append(ws)

        def from_page(frame: str | bytes) -> None:
            if isinstance(frame, str) and json.loads(frame)["type"] == "move" and len(routes) == 1:
                ws.close(code=1012, reason="another server process serves the table now")  # the move is lost
                server.close()
                return
            server.send(frame)

        ws.on_message(from_page)

    page.add_init_script(ORDER_JS)
    page.route_web_socket(re.compile(r"/ws/"), handler)
    start_quick_game(page, web_server, name="Rolf", stock=10, level="random")
    assert wait_for_turn(page)
    before = version(page)
    src = page.get_attribute('.board [data-playable="1"] >> nth=0', "data-source")
    page.click(f'.board [data-source="{src}"][data-playable="1"] >> nth=0')
    page.click('[data-legal="1"] >> nth=0')
    # the second connection's welcome: the seat to move at the same position (the move never landed)
    page.wait_for_function("() => window.__order.filter(([k, d]) => k === 'send' && JSON.parse(d).type === 'hello')"
                           ".length === 2")
    assert wait_for_turn(page)
    assert version(page) == before
    order = [kind if kind == "info" else json.loads(data)["type"] for kind, data in page.evaluate("window.__order")]
    first, second = [i for i, kind in enumerate(order) if kind == "hello"]
    assert "info" in order[first + 1:second], order  # the table info fetched again before the new hello
    assert len(routes) == 2
    assert play_one_move(page)  # played over the new connection
    assert version(page) > before


def test_a_refusal_that_closes_the_socket_is_shown_and_not_retried(web_server: WebServer, page: Any) -> None:
    """A server that refuses the hello and closes the socket (1008, here: a flood from the address)
    is not asked again and again: the page says why and opens no other socket."""
    table_id, token = quick_table(web_server, name="Fred")
    sockets: list[str] = []

    def refuse(ws: Any) -> None:
        sockets.append(ws.url)

        def hello(frame: str | bytes) -> None:
            ws.send(json.dumps({"type": "error", "code": "flood", "message": "too many messages from your address",
                                "words": {"key": "error.flood.rate", "params": {"n": "30"}}}))
            ws.close(code=1008)

        ws.on_message(hello)

    page.add_init_script(SOCKETS_JS)
    page.route_web_socket(re.compile(r"/ws/"), refuse)
    hold_seat(page, web_server, table_id, token)
    page.goto(f"{web_server.base}/t/{table_id}")
    page.wait_for_function("() => document.getElementById('status').textContent"
                           " === 'too many messages from your address: at most 30 a second'")
    # the first retry of a lost connection would come within 0.625 s: none comes
    with pytest.raises(sync_api.TimeoutError):
        page.wait_for_function("() => window.__sockets.length > 1", timeout=2000)
    assert len(sockets) == 1
