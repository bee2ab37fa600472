"""``spite tui --connect URL --seek GAME[:PRESET]``: the terminal seeks a person, is matched with a
seeker from elsewhere (the page's requests), and opens its seat's table; Ctrl-C while waiting cancels."""

from __future__ import annotations

import secrets
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from typer.testing import CliRunner

from spite.cli.play import register
from spite.tui import seek as seek_module
from spite.tui.app import SpiteApp
from spite.tui.link import connect_table
from spite.tui.remote import RemoteMaliceTable
from spite.tui.seek import seek_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("seek") / "spite.db"
    proc = ServerProcess(f"sqlite:///{db}", None, "--bot-workers", "0", "--bot-delay", "0", "--rate", "200").start()
    try:
        yield proc
    finally:
        proc.stop()


@pytest.fixture(autouse=True)
def own_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))  # this terminal's player key, not the user's


def page_seeks(server: ServerProcess, name: str) -> dict[str, Any]:
    """A seek as the page makes it (its own key)."""
    answer = httpx.post(server.base + "/api/seeks", json={"preset": "short", "name": name,
                                                          "playerKey": secrets.token_urlsafe(24)}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def test_the_terminal_and_a_page_seeking_one_game_meet_at_one_table(server: ServerProcess) -> None:
    page = page_seeks(server, "ann")
    said: list[str] = []
    matched = seek_table(server.base, "spite-malice", "short", "bob", say=lambda key, _v: said.append(key))
    assert said == ["tui.seek_waiting", "tui.seek_matched"]
    theirs = httpx.get(server.base + f"/api/seeks/{page['id']}").json()
    assert theirs["state"] == "matched" and theirs["matched"]["table"] == matched["table"]
    remote = connect_table(server.base, matched["table"], token=matched["token"])
    try:
        assert isinstance(remote, RemoteMaliceTable) and remote.seat == matched["seat"]
        assert {remote.seat, theirs["matched"]["seat"]} == {0, 1}
    finally:
        remote.link.stop()


def test_ctrl_c_while_waiting_cancels_the_seek(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def interrupted(_base: str, _seek: str, _wait: float = 0) -> dict[str, Any]:
        raise KeyboardInterrupt  # the person pressed Ctrl-C while the terminal waited

    monkeypatch.setattr(seek_module, "ask_seek", interrupted)
    with pytest.raises(KeyboardInterrupt):
        seek_table(server.base, "spite-malice", "match", "cid", computer_after=None,
                   say=lambda key, values: seen.setdefault(key, values))
    monkeypatch.undo()
    assert "tui.seek_cancelled" in seen
    # cancelled, so another seeker of the same game is not paired with it
    other = page_seeks(server, "dan")
    assert httpx.get(server.base + f"/api/seeks/{other['id']}").json()["state"] == "waiting"
    httpx.delete(server.base + f"/api/seeks/{other['id']}")


def test_the_command_seeks_then_opens_the_seat(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[Any] = []
    monkeypatch.setattr(SpiteApp, "run", lambda self: opened.append(self.config.remote))
    app = typer.Typer()
    register(app)
    app.command("x", hidden=True)(lambda: None)  # two commands: the runner then names them
    other = threading.Timer(0.3, page_seeks, (server, "eve"))
    other.start()
    result = CliRunner().invoke(app, ["tui", "--connect", server.base, "--seek", "spite-malice:short",
                                      "--name", "fay"])
    other.join()
    assert result.exit_code == 0, result.output
    assert "looking for a player" in result.output and "found a player" in result.output
    (remote,) = opened
    try:
        assert isinstance(remote, RemoteMaliceTable)
    finally:
        remote.link.stop()
    bad = CliRunner().invoke(app, ["tui", "--seek", "chess", "--connect", server.base])
    assert bad.exit_code == 2 and "unknown game" in bad.output and "Traceback" not in bad.output
