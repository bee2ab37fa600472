"""Bad input gets an error message; the game is unchanged and the server stays up."""

from __future__ import annotations

import contextlib

import httpx
import sqlalchemy as sa
from server_helpers import Client, ServerThread, latest_state
from test_protocol import check_models, two_person_table
from websockets.exceptions import ConnectionClosed

from spite import catalogue
from spite.errors import Phrase
from spite.server import db
from spite.server.config import ServerConfig
from waiting import bounded


def stored_moves(srv: ServerThread) -> int:
    with srv.manager.store.engine.connect() as conn:
        return int(conn.execute(sa.select(sa.func.count()).select_from(db.moves)).scalar() or 0)


def snapshot(client: Client) -> dict[str, object]:
    client.send({"type": "sync"})
    return client.until("state")


def test_bad_messages_change_nothing(server: ServerThread) -> None:
    table_id, tokens = two_person_table(server)
    ann, bob = Client(server.base, table_id), Client(server.base, table_id)
    # before hello
    ann.send({"type": "sync"})
    assert ann.until("error")["code"] == "hello-first"
    welcome = ann.hello(tokens[0])
    bob.hello(tokens[1])
    mover, idle = (ann, bob) if welcome["view"]["to_move"] == 0 else (bob, ann)
    st = latest_state(mover)
    before = snapshot(mover)
    moves_before = stored_moves(server)

    cases = [
        ("{not json", "bad-json"),
        ("[1, 2]", "bad-message"),
        ('{"no": "type"}', "bad-message"),
        ('{"type": "teleport"}', "unknown-message"),
        ('{"type": "move"}', "bad-message"),
        ('{"type": "move", "move": "H7-B2", "stateVersion": "x"}', "bad-message"),
        ('{"type": "move", "move": "H7-B2", "stateVersion": 0, "extra": 1}', "bad-message"),
        ('{"type": "hello", "token": "again"}', "already-hello"),
        ('{"type": "ping", "id": "' + "x" * 5000 + '"}', "too-long"),
    ]
    for text, code in cases:
        mover.send(text)
        err = mover.until("error")
        assert err["code"] == code, (text, err)
        assert "\n" not in err["message"]
    mover.ws.send(b"\x00\x01binary")
    assert mover.until("error")["code"] == "bad-message"

    # illegal, stale, not your turn, a move for another seat
    mover.send({"type": "move", "move": "Z-B9", "stateVersion": st["stateVersion"], "id": "a"})
    err = mover.until("error")
    assert err["code"] == "illegal" and err["id"] == "a" and err["stateVersion"] == st["stateVersion"]
    assert err["words"] == {"key": "refuse.no-move", "params": {"move": "Z-B9"}}  # the reason, for the catalogue
    not_legal = next(m for m in ("H7-B2", "HK-D1", "S-B3", "pass", "D1-B1") if m not in st["legal"])
    mover.send({"type": "move", "move": not_legal, "stateVersion": st["stateVersion"], "id": "b"})
    err = mover.until("error")
    assert err["code"] == "illegal" and err["words"]["key"].startswith("refuse.")
    assert catalogue.word("en", Phrase(err["words"]["key"], err["words"]["params"])) != err["words"]["key"]
    mover.send({"type": "move", "move": st["legal"][0], "stateVersion": st["stateVersion"] + 5, "id": "c"})
    assert mover.until("error")["code"] == "stale"
    idle.send({"type": "move", "move": st["legal"][0], "stateVersion": st["stateVersion"], "id": "d"})
    assert idle.until("error")["code"] == "not-your-turn"
    watcher = Client(server.base, table_id)
    watcher.hello(spectate=True)
    watcher.send({"type": "move", "move": st["legal"][0], "stateVersion": st["stateVersion"]})
    assert watcher.until("error")["code"] == "not-your-seat"

    assert snapshot(mover) == {**before}
    assert stored_moves(server) == moves_before
    assert httpx.get(server.base + "/healthz").json()["ok"]
    # and the game goes on
    mover.send({"type": "move", "move": st["legal"][0], "stateVersion": st["stateVersion"], "id": "ok"})
    assert mover.until("ack")["id"] == "ok"
    assert stored_moves(server) == moves_before + 1
    for c in (ann, bob, watcher):
        check_models(c)


def test_wrong_token_is_refused_and_closed(server: ServerThread) -> None:
    table_id, tokens = two_person_table(server)
    eve = Client(server.base, table_id)
    eve.send({"type": "hello", "token": tokens[0][:-2] + "xx"})
    err = eve.until("error")
    assert err["code"] == "wrong-token"
    with contextlib.suppress(ConnectionClosed):  # the server closes the socket after the error
        eve.recv(5)
    assert eve.ws.close_code == 1008
    nobody = Client(server.base, "no-such-table")
    nobody.send({"type": "hello", "spectate": True})
    assert nobody.until("error")["code"] == "no-table"
    assert httpx.get(server.base + "/healthz").json()["ok"]


def test_a_flood_is_refused_and_the_game_goes_on(db_url: str) -> None:
    # a server of its own with a small budget: 1,500 pings are a flood
    with ServerThread(ServerConfig(db_url=db_url, bot_workers=0, rate=200, burst=400)) as server:
        _flood_and_check(server)


def _flood_and_check(server: ServerThread) -> None:
    table_id, tokens = two_person_table(server)
    ann, bob = Client(server.base, table_id, "127.0.0.2"), Client(server.base, table_id)
    ann.hello(tokens[0])
    bob.hello(tokens[1])  # (so no bot takes the seat meanwhile)
    before = snapshot(bob)
    sent = 1500
    for i in range(sent):
        try:
            ann.send({"type": "ping", "id": str(i)})
        except ConnectionClosed:  # closed for flooding while still sending
            break
    got = []
    with contextlib.suppress(ConnectionClosed):
        for _ in bounded(sent + 10, "the flooding socket's close"):
            got.append(ann.recv(5))
    # the budget's worth of pongs, then one flood error, and the flooding socket is closed
    pongs = [m for m in got if m["type"] == "pong"]
    assert 0 < len(pongs) < sent and [m for m in got if m["type"] == "error"] == got[-1:]
    assert got[-1]["type"] == "error" and got[-1]["code"] == "flood" and ann.ws.close_code == 1008
    after = snapshot(bob)
    assert after["view"] == before["view"] and after["stateVersion"] == before["stateVersion"]
    back = Client(server.base, table_id, "127.0.0.3")  # ann is back (from elsewhere): the game goes on
    assert back.hello(tokens[0])["stateVersion"] == before["stateVersion"]
    assert httpx.get(server.base + "/healthz").json()["ok"]
