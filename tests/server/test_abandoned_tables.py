"""Tables nobody plays at are closed, not played out by bots for nobody (docs/protocol.md,
"Disconnects, bots, restarts"): a quick-play table whose person never came or left, and a friend
table every person has left."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
from server_helpers import Client, ServerThread, latest_state

from spite.server import ServerConfig


def server(tmp_path: Path, **settings: Any) -> ServerThread:
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, bot_delay=0.2,
                          replacement_level="easy", rate=200, burst=400, **{"grace_seconds": 1.0, **settings})
    return ServerThread(config)


def status_when_settled(srv: ServerThread, table_id: str, timeout: float = 10) -> dict[str, Any]:
    """The table once it is no longer playing (or as it is at the timeout)."""
    deadline = time.monotonic() + timeout
    while True:
        info: dict[str, Any] = httpx.get(srv.base + f"/api/tables/{table_id}").json()
        if info["status"] != "playing" or time.monotonic() > deadline:
            return info
        time.sleep(0.1)


def test_a_quick_play_table_whose_person_never_came_is_closed(tmp_path: Path) -> None:
    with server(tmp_path) as srv:
        joined = httpx.post(srv.base + "/api/quickplay",
                            json={"name": "ann", "level": "easy", "preset": "short"}).json()
        table_id = joined["table"]["id"]
        info = status_when_settled(srv, table_id)
        assert info["status"] == "abandoned"
        assert table_id not in srv.manager.tables
        time.sleep(1.0)  # and nobody plays on
        later = httpx.get(srv.base + f"/api/tables/{table_id}").json()
        assert later["stateVersion"] == info["stateVersion"] and later["gameId"] is None
        c = Client(srv.base, table_id)
        try:
            c.send({"type": "hello", "token": joined["token"]})
            assert c.until("error")["code"] == "no-table"
        finally:
            c.close()
        stats = httpx.get(srv.base + "/api/players/ann/stats").json()
        assert stats["presets"] == []


def test_a_quick_play_table_whose_person_left_is_closed_and_told(tmp_path: Path) -> None:
    with server(tmp_path) as srv:
        joined = httpx.post(srv.base + "/api/quickplay", json={"name": "bo", "level": "easy", "preset": "short"}).json()
        table_id = joined["table"]["id"]
        c, watcher = Client(srv.base, table_id), Client(srv.base, table_id)
        try:
            c.hello(joined["token"])
            watcher.hello(spectate=True)
            state = latest_state(c)
            c.send({"type": "move", "move": state["legal"][0], "stateVersion": state["stateVersion"]})
            c.until("ack")
            c.close()
            while True:
                msg = watcher.until("table", timeout=10)
                assert msg["event"]["kind"] != "takeover", "a bot took the seat of a quick play's only person"
                if msg["event"]["kind"] == "abandoned":
                    break
            assert msg["table"]["status"] == "abandoned" and msg["event"]["seconds"] == 1.0
            assert "bo did not come back within 1 s" in msg["event"]["text"]
        finally:
            c.close()
            watcher.close()
        assert status_when_settled(srv, table_id)["status"] == "abandoned"


def test_a_friend_table_everyone_left_is_played_by_bots_then_closed(tmp_path: Path) -> None:
    with server(tmp_path, abandon_seconds=3.0) as srv:
        created = httpx.post(srv.base + "/api/tables", json={"preset": "short", "name": "cy"}).json()
        table_id = created["table"]["id"]
        joined = httpx.post(srv.base + f"/api/tables/{table_id}/join", json={"name": "di"}).json()
        cy, di = Client(srv.base, table_id), Client(srv.base, table_id)
        try:
            cy.hello(created["token"])
            di.hello(joined["token"])
            di.close()  # di leaves; cy stays: a bot plays di's seat, and the table lives on
            time.sleep(4.0)
            assert httpx.get(srv.base + f"/api/tables/{table_id}").json()["status"] == "playing"
            left_at = time.monotonic()
            cy.close()  # now nobody is there
            info = status_when_settled(srv, table_id)
            waited = time.monotonic() - left_at
        finally:
            cy.close()
            di.close()
        assert info["status"] == "abandoned" and info["gameId"] is None
        assert 2.5 <= waited < 9, f"closed {waited:.1f} s after the last person left (abandon_seconds 3)"
