"""``!`` at a server table in the terminal app: report the table or a player's name to the operator
(docs/protocol.md, "Moderation"); the report waits in the operator's queue."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from tui_helpers import run, type_keys, wait_for

from spite.malice.tui.screen import RemoteMaliceScreen
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.i18n import tr
from spite.tui.link import connect_table
from spite.tui.report import ReportScreen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerProcess, http_from


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(f"sqlite:///{tmp_path / 'spite.db'}", None, "--bot-workers", "0").start()
    try:
        yield proc
    finally:
        proc.stop()


def test_report_a_name_from_the_terminal(server: ServerProcess) -> None:
    made = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "ann"}, timeout=10).json()
    table_id = made["table"]["id"]
    with http_from("127.0.0.2") as other:
        assert other.post(server.base + f"/api/tables/{table_id}/join", json={"name": "rude"}).status_code == 200
    remote = connect_table(server.base, table_id, token=made["token"])
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = next(s for s in app.screen_stack if isinstance(s, RemoteMaliceScreen))
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        await type_keys(pilot, "exclamation_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportScreen), 2000)
        seen["asked"] = app.screen_text()
        await type_keys(pilot, "2")
        await wait_for(pilot, lambda: screen.message == tr("en", "rp_sent"), 5000)

    run(TuiConfig(remote=remote), body, size=(100, 30))
    assert "1  this table" in seen["asked"] and "2  the name rude" in seen["asked"]
    db = server.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT kind, table_id, seat, name, status FROM spite_reports").fetchall() == \
            [("name", table_id, 1, "rude", "open")]
