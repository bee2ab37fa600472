"""The turn clock (docs/protocol.md, "Disconnects, bots, restarts"): a connected seat that does not
act in time is warned, then played by a bot until its person acts again; Spit's tables have no
turn clock (their own timers keep them going)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerThread, latest_state

from spite.server import ServerConfig


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, bot_delay=0.4,
                          turn_seconds=1.5, turn_warning=0.7, replacement_level="easy", rate=200, burst=400,
                          spit_countdown=0.0)
    with ServerThread(config) as srv:
        yield srv


def table_event(client: Client, kind: str, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = client.until("table", max(0.01, deadline - time.monotonic()))
        if msg["event"]["kind"] == kind:
            return msg


def test_an_idle_seat_is_warned_then_played_by_a_bot_until_its_person_acts(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/quickplay", json={"name": "ann", "level": "easy", "preset": "short"}).json()
    c = Client(server.base, r["table"]["id"])
    try:
        c.hello(r["token"])
        latest_state(c)  # our turn: from now on we do nothing
        idle_since = time.monotonic()
        warned = table_event(c, "turn-clock")
        waited = time.monotonic() - idle_since
        assert warned["event"]["seat"] == 0 and warned["event"]["seconds"] == 0.7
        assert 0.6 <= waited < 1.5, f"warned after {waited:.2f} s of a 1.5 s turn clock with 0.7 s warning"
        taken = table_event(c, "idle-takeover")
        assert time.monotonic() - idle_since >= 1.4
        assert taken["event"]["seat"] == 0 and "ann did not move within 1.5 s" in taken["event"]["text"]
        assert taken["table"]["seats"][0]["status"] == "bot" and taken["table"]["seats"][0]["botLevel"] == "easy"
        by_bot = c.until("state", timeout=10)
        while not (by_bot["last"] and by_bot["last"]["seat"] == 0):
            by_bot = c.until("state", timeout=10)
        assert by_bot["last"]["byBot"], "the bot did not play the idle seat"
        # acting again takes the seat back (the move itself may come too late: the position moved on)
        c.send({"type": "move", "move": "S-B1", "stateVersion": c.newest})
        back = table_event(c, "returned")
        assert back["event"]["seat"] == 0 and back["table"]["seats"][0]["status"] == "connected"
        seat = server.manager.tables[r["table"]["id"]].seats[0]
        assert seat.controller == "person"
    finally:
        c.close()


def test_moving_in_time_keeps_the_seat(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/quickplay", json={"name": "bo", "level": "easy", "preset": "short"}).json()
    c = Client(server.base, r["table"]["id"])
    try:
        c.hello(r["token"])
        until = time.monotonic() + 4.0  # well past the 1.5 s clock, moving every few tenths of a second
        while time.monotonic() < until:
            state = latest_state(c)
            if state["view"]["finished"]:
                break
            time.sleep(0.3)
            legal = state["legal"]
            builds = [m for m in legal if "-B" in m]  # builds keep the turn going; a discard ends it
            c.send({"type": "move", "move": (builds or legal)[0], "stateVersion": state["stateVersion"]})
            c.until("ack", timeout=10)
        kinds = [m["event"]["kind"] for m in c.received if m["type"] == "table"]
        assert "idle-takeover" not in kinds and "turn-clock" not in kinds
    finally:
        c.close()


def test_spit_tables_have_no_turn_clock(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/tables", json={
        "game": "spit", "name": "cy", "options": {"auto_spit_ms": 150, "auto_slap_ms": 150, "time_limit_s": 30},
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "reflex:400"}]}).json()
    c = Client(server.base, r["table"]["id"])
    try:
        c.hello(r["token"])
        time.sleep(3.0)  # twice the turn clock, doing nothing
        while True:
            try:
                c.recv(0.2)
            except TimeoutError:
                break
        kinds = [m["event"]["kind"] for m in c.received if m["type"] == "table"]
        assert "idle-takeover" not in kinds and "turn-clock" not in kinds
        assert server.manager.tables[r["table"]["id"]].seats[0].controller == "person"
    finally:
        c.close()
