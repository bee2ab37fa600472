"""``spite tui --connect``: a seat of a real server's table (a subprocess), played by key presses."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from textual.pilot import Pilot
from tui_helpers import keys_for, run, type_keys, wait_for
from typer.testing import CliRunner

from spite.cards import RANKS
from spite.malice.moves import rank_token
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.cli import register
from spite.tui.malice_screen import SummaryScreen
from spite.tui.remote import WELCOME_EXAMPLE, RemoteError, RemoteMaliceTable, connect_table, parse_address
from spite.tui.remote_screen import RemoteMaliceScreen

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("remote") / "spite.db"
    proc = ServerProcess(f"sqlite:///{db}", None, "--bot-workers", "0", "--bot-delay", "0", "--rate", "200").start()
    try:
        yield proc
    finally:
        proc.stop()


def create(server: ServerProcess, seats: list[dict[str, Any]], stock: int = 3) -> dict[str, Any]:
    answer = httpx.post(server.base + "/api/tables", json={
        "game": "spite-malice", "preset": "classic", "options": {"stock_size": stock}, "seats": seats,
        "name": "ann"}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def screen_of(app: SpiteApp) -> RemoteMaliceScreen:
    for screen in app.screen_stack:
        if isinstance(screen, RemoteMaliceScreen):
            return screen
    raise AssertionError(app.screen_stack)


def test_play_a_server_seat_to_the_end_by_keys(server: ServerProcess) -> None:
    # a stock of 6: long enough for three presses and a refused move whatever the deal
    joined = create(server, [{"kind": "person"}, {"kind": "bot", "level": "easy"}], stock=6)
    table_id, token = joined["table"]["id"], joined["token"]
    watcher = connect_table(server.base, table_id)  # no token: a spectator, no hand
    assert watcher.seat is None and watcher.view().hand is None
    remote = connect_table(server.base, f"/t/{table_id}", token=token)
    assert remote.seat == 0 and remote.view().hand is not None
    config = TuiConfig(remote=remote)
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        table = screen.table
        over = lambda: table.state.is_over  # noqa: E731
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        await wait_for(pilot, lambda: screen.waiting_for_human or over(), 5000)
        assert "P1 (you)" in app.screen_text() and "P2 (easy)" in app.screen_text()
        # a move the server refuses: its reason, word for word, and nothing changed
        if not over():
            view = table.view()
            legal = {m.text for m in view.legal_moves}
            hand = sorted(view.hand or (), key=lambda c: (RANKS[c], c))
            bad = next(((i, b) for i, c in enumerate(hand) for b in range(4)
                        if f"H{rank_token(RANKS[c], False)}-B{b + 1}" not in legal), None)
            if bad is not None:
                version = table.version
                await type_keys(pilot, str(bad[0] + 1), "b", str(bad[1] + 1))
                await wait_for(pilot, lambda: bool(table.refused), 5000)
                code, text = table.refused[-1]
                assert code == "illegal" and table.version == version
                assert f"Not allowed: {text}"[:60] in app.screen_text().replace("\n", " ")
                seen["refused"] = text
        # play on by keys (the hint's move each time); drop the connection once on the way
        presses = 0
        while not over():
            await wait_for(pilot, lambda: screen.waiting_for_human or over(), 5000)
            if over():
                break
            acked = len(table.acked)
            view = table.view()
            await type_keys(pilot, *keys_for(view, table.hint().move))
            presses += 1
            await wait_for(pilot, lambda: len(table.acked) > acked or over(), 5000)  # noqa: B023
            if presses == 3 and screen.link is not None:
                await screen.link.drop()
                await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 2
                               and table.connected, 5000)
            assert presses < 400
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 5000)
        await wait_for(pilot, lambda: table.game_over is not None, 5000)
        await pilot.pause()
        seen["summary"] = app.screen_text()
        seen["presses"] = presses
        seen["log"] = table.turn_log()

    run(config, body)
    assert seen["presses"] >= 3 and seen["refused"]
    assert "Game over" in seen["summary"] and "/api/games/" in seen["summary"]
    assert any(re.match(r"\d+ P[12]: ", line) for line in seen["log"]), seen["log"]
    info = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
    assert info["status"] == "finished" and info["stateVersion"] == remote.version


def test_join_by_name_and_wrong_token(server: ServerProcess) -> None:
    joined = create(server, [{"kind": "person"}, {"kind": "person"}], stock=5)
    table_id = joined["table"]["id"]
    bob = connect_table(server.base, table_id, name="bob")
    assert bob.seat == 1 and bob.token and bob.seats[0].name == "ann" and bob.seats[1].human
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:  # a second command, so that typer keeps subcommand names
        """Nothing."""

    result = CliRunner().invoke(app, ["tui", "--connect", server.base, "--table", table_id, "--token", "nope"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("spite: the server refused (wrong-token)"), lines
    result = CliRunner().invoke(app, ["tui", "--connect", server.base, "--table", "no-such-table", "--name", "x"])
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1, result.output
    result = CliRunner().invoke(app, ["tui", "--table", table_id])
    assert result.exit_code == 2 and "--connect" in result.output


def test_versions_gaps_and_refusals_without_a_server() -> None:
    table = RemoteMaliceTable.from_welcome("http://h:1", WELCOME_EXAMPLE, token="t")
    sent: list[dict[str, Any]] = []

    def send(msg: dict[str, Any]) -> bool:
        sent.append(msg)
        return True

    table.send = send
    assert table.human_to_move
    table.play("S-B1")
    assert sent[-1] == {"type": "move", "move": "S-B1", "stateVersion": 0, "id": "m1"}
    assert not table.human_to_move  # waiting for the answer
    view1 = dict(WELCOME_EXAMPLE["view"], to_move=1)
    table.handle({"type": "ack", "id": "m1", "move": "S-B1", "stateVersion": 1})
    assert table.pending is None and table.acked == ["S-B1"]
    table.handle({"type": "state", "stateVersion": 1, "view": view1, "legal": [],
                  "last": {"seat": 0, "move": "S-B1", "byBot": False}})
    assert table.version == 1 and table.turn_log() == ["1 P1: S-B1"] and not table.human_to_move
    gap = table.handle({"type": "state", "stateVersion": 3, "view": WELCOME_EXAMPLE["view"], "legal": ["S-B1"]})
    assert gap.sync and table.version == 1  # not taken: ask for the whole position
    table.handle({"type": "state", "stateVersion": 3, "view": WELCOME_EXAMPLE["view"], "legal": ["S-B1"]})
    assert table.version == 3 and table.human_to_move
    table.play("S-B2")
    stale = table.handle({"type": "error", "code": "stale", "message": "the position has changed", "id": "m2",
                          "stateVersion": 4})
    assert stale.sync and stale.error == "the position has changed" and table.pending is None
    old = table.handle({"type": "state", "stateVersion": 2, "view": view1, "legal": []})
    assert table.version == 3 and not old.sync  # an old position is ignored
    assert parse_address("ws://h:1/t/abc", None) == ("http://h:1", "abc")
    with pytest.raises(RemoteError):
        parse_address("ftp://h", "x")
