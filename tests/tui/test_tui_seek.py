"""``spite tui --connect URL --seek GAME[:PRESET]``: the terminal seeks a person, is matched with a
seeker from elsewhere (the page's requests), and opens its seat's table; the wait is a screen of the app
(run with Textual's pilot), where Esc or quitting cancels the seek."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from textual.pilot import Pilot
from tui_helpers import run, wait_for
from typer.testing import CliRunner

from spite.cli.play import register
from spite.malice.tui.remote import RemoteMaliceTable
from spite.malice.tui.screen import RemoteMaliceScreen
from spite.tui import seek as seek_module
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.link import connect_table
from spite.tui.seek import OpenSeek, open_seek, seek_table
from spite.tui.seek_screen import SeekScreen

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
    """A seek as the page makes it (its own key), from another person's address (rated seeks of one
    address are never paired)."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=10) as page:
        answer = page.post(server.base + "/api/seeks", json={"preset": "short", "name": name,
                                                             "playerKey": secrets.token_urlsafe(24)})
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


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def shown(app: SpiteApp) -> str:
    return app.screen_text()


def test_the_wait_is_a_screen_then_the_table_opens(server: ServerProcess) -> None:
    """The app shows what is sought, the rating, the time waited (by the app's clock) and the window,
    when the computer comes and the key that cancels; a page's seeker comes, and the terminal's
    long poll is answered at once: the table's screen opens in the wait's place at its own seat."""
    clock = FakeClock()
    opened = open_seek(server.base, "spite-malice", "short", "bob")
    config = TuiConfig(seek=OpenSeek(server.base, opened), clock=clock)
    page: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        assert isinstance(app.screen, SeekScreen)
        text = shown(app)
        for words in ("Looking for a player near your rating", "Spite and Malice · short · rated",
                      "Your rating: 1000 · Classic", "waiting 0 s: players within 100 points",
                      "after 30 s without a person, a computer near your rating plays you", "Esc Cancel"):
            assert words in text, (words, text)
        clock.now += 12  # twelve seconds on: the line counts on between the server's answers
        await wait_for(pilot, lambda: "waiting 12 s" in shown(app), rounds=1000)
        page.update(page_seeks(server, "ann"))  # someone seeks the same game from a page
        await wait_for(pilot, lambda: app.game_screen is not None, rounds=10_000)
        assert isinstance(app.game_screen, RemoteMaliceScreen)

    app = run(config, body)
    remote = app.config.remote
    try:
        theirs = httpx.get(server.base + f"/api/seeks/{page['id']}").json()
        assert isinstance(remote, RemoteMaliceTable) and theirs["state"] == "matched"
        assert remote.table_id == theirs["matched"]["table"] and {remote.seat, theirs["matched"]["seat"]} == {0, 1}
    finally:
        remote.link.stop()


def test_esc_cancels_the_wait_in_german_too(server: ServerProcess) -> None:
    opened = open_seek(server.base, "spite-malice", "match", "cid", computer_after=None)
    config = TuiConfig(seek=OpenSeek(server.base, opened), lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        text = shown(app)
        for words in ("Suche einen Spieler in deiner Wertung", "gewertet",
                      "Deine Wertung: 1000", "seit 0 s: Spieler bis 100 Punkte entfernt", "Abbrechen"):
            assert words in text, (words, text)
        assert "Computer" not in text  # computerAfter null: no computer comes
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running, rounds=5000)

    app = run(config, body)
    assert app.config.remote is None
    assert httpx.get(server.base + f"/api/seeks/{opened['id']}").json()["state"] == "cancelled"


def test_quitting_the_app_while_waiting_cancels_the_seek(server: ServerProcess) -> None:
    opened = open_seek(server.base, "spite-malice", "match", "dee", computer_after=None)

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: not app.is_running, rounds=5000)

    run(TuiConfig(seek=OpenSeek(server.base, opened)), body)
    assert httpx.get(server.base + f"/api/seeks/{opened['id']}").json()["state"] == "cancelled"


def test_the_command_seeks_then_opens_the_app(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    """``spite tui --seek`` makes the seek, then the app opens on the wait; a refusal is one line."""
    opened: list[Any] = []
    monkeypatch.setattr(SpiteApp, "run", lambda self: opened.append(self.config.seek))
    app = typer.Typer()
    register(app)
    app.command("x", hidden=True)(lambda: None)  # two commands: the runner then names them
    result = CliRunner().invoke(app, ["tui", "--connect", server.base, "--seek", "spite-malice:short",
                                      "--name", "fay"])
    assert result.exit_code == 0, result.output
    (seek,) = opened
    assert isinstance(seek, OpenSeek) and seek.answer["state"] == "waiting" and seek.answer["preset"] == "short"
    assert "the seek is cancelled" in result.output  # the app did not open a table (here: it did not run)
    again = CliRunner().invoke(app, ["tui", "--connect", server.base, "--seek", "spite-malice:short"])
    assert again.exit_code == 2 and "you already have a seek waiting" in again.output
    assert "Traceback" not in again.output
    httpx.delete(server.base + f"/api/seeks/{seek.answer['id']}")
    bad = CliRunner().invoke(app, ["tui", "--seek", "chess", "--connect", server.base])
    assert bad.exit_code == 2 and "unknown game" in bad.output and "Traceback" not in bad.output
