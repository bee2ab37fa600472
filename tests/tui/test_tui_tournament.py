"""``spite tui --connect URL --tournament ID``: the terminal joins a tournament someone else made and filled with
a computer, follows it on a screen of the app (run with Textual's pilot) against the real server, plays
each of its tables by key presses as the server makes it (the same remote game screen a seek opens),
comes back to the tournament's view between games, until the tournament is over."""

from __future__ import annotations

import asyncio
import random
import secrets
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

from spite.bots import make_bot
from spite.cli.play import register
from spite.malice import Move
from spite.malice.tui.remote import RemoteMaliceTable
from spite.malice.tui.screen import RemoteMaliceScreen, SummaryScreen
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.link import RemoteError
from spite.tui.tournament import join_tournament
from spite.tui.tournament_screen import TournamentScreen
from waiting import bounded

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("tournament") / "spite.db"
    proc = ServerProcess(f"sqlite:///{db}", None, "--bot-workers", "0", "--bot-delay", "0", "--rate", "200",
                         "--limit", "max_tournaments=20").start()
    try:
        yield proc
    finally:
        proc.stop()


class Maker:
    """Another person (their own key, from another address) who makes a tournament, enters computers, starts it."""

    def __init__(self, server: ServerProcess) -> None:
        self.base = server.base
        self.key = secrets.token_urlsafe(24)
        self.http = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=10)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = self.http.post(self.base + path, json={"playerKey": self.key, **body})
        assert answer.status_code == 200, answer.text
        return answer.json()  # type: ignore[no-any-return]

    def make(self, **body: Any) -> str:
        """A tournament of the short preset with stocks of three cards (games of a few dozen moves)."""
        info = self.post("/api/tournaments", {"game": "spite-malice", "preset": "short", "name": "cat",
                                              "options": {"stock_size": 3}, **body})
        return str(info["id"])


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def bot_move(table: RemoteMaliceTable) -> Move:
    """What the ``hard`` bot would play in this seat's view (the test's player: quick to an end)."""
    bot = make_bot("hard")
    assert table.seat is not None
    bot.start_game(table.opts, table.seat)
    return bot.decide(table.view(), random.Random(f"test/{table.version}"), None).move


async def play_to_the_end(pilot: Pilot[Any], screen: RemoteMaliceScreen) -> int:
    """Play the table of ``screen`` by key presses until its game is over; the presses."""
    table = screen.table
    over = lambda: table.state.is_over  # noqa: E731
    presses = 0
    for _ in bounded(600, "the tournament game's end", until=over):
        await wait_for(pilot, lambda: screen.waiting_for_human or over(), 20_000)
        if over():
            break
        acked = len(table.acked)
        view = table.view()
        await type_keys(pilot, *keys_for(view, bot_move(table), screen.hand_slots(view)))
        presses += 1
        await wait_for(pilot, lambda: len(table.acked) > acked or over(), 20_000)  # noqa: B023
    return presses


def flat(text: str) -> str:
    """The screen's words as one line: a line the box wrapped reads on."""
    return " ".join(text.replace("║", " ").split())


def the_table(app: SpiteApp) -> RemoteMaliceScreen | None:
    screen = app.game_screen
    return screen if isinstance(screen, RemoteMaliceScreen) else None


@pytest.mark.slow
@pytest.mark.timeout(240)  # two whole games by key presses: the Swiss pairing plays its deal twice, seats swapped
def test_the_terminal_plays_a_tournament_of_computers_to_its_end(server: ServerProcess) -> None:
    maker = Maker(server)
    tid = maker.make(system="swiss", rounds=1)
    maker.post(f"/api/tournaments/{tid}/join", {"computer": "easy"})
    entered = join_tournament(server.base, tid, "bob")
    assert entered.entrant["name"] == "bob" and entered.info["state"] == "open"
    clock = FakeClock()
    config = TuiConfig(tournament=entered, clock=clock, between_games=5)
    seen: dict[str, Any] = {"tables": []}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        view = app.screen
        assert isinstance(view, TournamentScreen)
        text = app.screen_text()
        for words in ("Tournament: Spite and Malice · short", "Swiss system · 1 round · casual · made by cat",
                      "Options — the stock size: 3", "entered as bob", "Standings"):
            assert words in text, (words, text)
        assert "It begins when its maker starts it." in text
        await asyncio.to_thread(maker.post, f"/api/tournaments/{tid}/start", {})
        # the first table opens by itself, at once
        await wait_for(pilot, lambda: the_table(app) is not None, 20_000)
        first = the_table(app)
        assert first is not None
        seen["tables"].append(first.table.table_id)
        seen["presses"] = [await play_to_the_end(pilot, first)]
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 20_000)
        # the server says the game is over: the game's summary stays while the pause runs (the app's clock) ...
        await wait_for(pilot, lambda: first.table.table_id in view.done, 20_000)
        assert isinstance(app.screen, SummaryScreen)
        clock.now += 5
        # ... then the tournament's view comes back, and the next table (seats swapped) is ready
        await wait_for(pilot, lambda: app.screen is view and view.ready is not None, 20_000)
        assert "your next table opens in 5 s (Enter: now)" in app.screen_text()
        await type_keys(pilot, "enter")
        await wait_for(pilot, lambda: the_table(app) not in (None, first), 20_000)
        second = the_table(app)
        assert second is not None and second.table.seat != first.table.seat
        seen["tables"].append(second.table.table_id)
        seen["presses"].append(await play_to_the_end(pilot, second))
        # the tournament's fixed deal raises no fair-deal alarm at its tables
        seen["alarms"] = [d.alarm for t in (first, second) for d in t.link.fair.deals.values() if d.alarm]
        # Q at the game's summary goes back to the tournament at once (the app goes on)
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 20_000)
        await type_keys(pilot, "q")
        await wait_for(pilot, lambda: app.screen is view, 20_000)
        assert app.is_running
        await wait_for(pilot, lambda: view.info["state"] == "finished", 20_000)
        seen["text"] = app.screen_text()
        seen["info"] = view.info

    run(config, body, size=(100, 30))
    info = seen["info"]
    # keys played the games; one of the two may have had none to play (a computer that begins can
    # empty a stock of three before the person's first turn, at random deals a game in a few dozen)
    assert sum(seen["presses"]) > 0 and len(seen["presses"]) == 2 and len(set(seen["tables"])) == 2
    assert seen["alarms"] == []
    (pairing,) = info["rounds"][0]["pairings"]
    assert pairing["tables"] == seen["tables"]
    bob = next(s for s in info["standings"] if s["name"] == "bob")
    assert bob["games"] == 2
    # the view's last words: over, with its winner, and the final standings
    top = info["standings"][0]["name"]
    assert f"The tournament is over. {top} wins the tournament" in seen["text"], seen["text"]
    assert "bob (you)" in seen["text"]


def test_the_command_joins_then_opens_the_app_and_says_a_refusal_in_one_line(
        server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    maker = Maker(server)
    tid = maker.make(system="arena", minutes=5)
    opened: list[Any] = []
    monkeypatch.setattr(SpiteApp, "run", lambda self: opened.append(self.config.tournament))
    app = typer.Typer()
    register(app)
    app.command("x", hidden=True)(lambda: None)  # two commands: the runner then names them
    result = CliRunner().invoke(app, ["tui", "--connect", server.base, "--tournament", f"/tournament/{tid}",
                                      "--name", "dee"])
    assert result.exit_code == 0, result.output
    (entered,) = opened
    assert entered.id == tid and entered.entrant["name"] == "dee"
    assert f"come back with: spite tui --connect {server.base} --tournament {tid}" in result.output
    names = [e["name"] for e in httpx.get(f"{server.base}/api/tournaments/{tid}", timeout=10).json()["entrants"]]
    assert names == ["dee"]
    # the same terminal again: still entered, no second entrant
    again = CliRunner().invoke(app, ["tui", "--connect", server.base, "--tournament", tid, "--name", "dee"])
    assert again.exit_code == 0, again.output
    assert len(httpx.get(f"{server.base}/api/tournaments/{tid}", timeout=10).json()["entrants"]) == 1
    # a tournament that is not there: one line, exit code 2
    bad = CliRunner().invoke(app, ["tui", "--connect", server.base, "--tournament", "nope"])
    assert bad.exit_code == 2 and "there is no tournament nope" in bad.output and "Traceback" not in bad.output
    no_server = CliRunner().invoke(app, ["tui", "--tournament", tid])
    assert no_server.exit_code == 2 and "--tournament goes with --connect" in no_server.output


def test_joining_a_swiss_that_has_begun_is_refused_in_one_line(server: ServerProcess) -> None:
    maker = Maker(server)
    tid = maker.make(system="swiss", rounds=2)
    for _ in range(2):
        maker.post(f"/api/tournaments/{tid}/join", {"computer": "easy"})
    maker.post(f"/api/tournaments/{tid}/start", {})
    with pytest.raises(RemoteError) as refused:
        join_tournament(server.base, tid, "eve")
    assert refused.value.status == 409 and "takes no more entrants" in str(refused.value)
    assert "\n" not in str(refused.value)


def test_the_view_in_german_and_esc_leaves_the_app_entered(server: ServerProcess) -> None:
    """The view says everything in German (the catalogue's words, as the page); Esc leaves the app, the entry stays."""
    maker = Maker(server)
    tid = maker.make(system="swiss", rounds=2)
    entered = join_tournament(server.base, tid, "udo")
    config = TuiConfig(tournament=entered, lang="de")

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: "Turnier:" in app.screen_text(), 5000)
        text = flat(app.screen_text())
        for words in ("Turnier: Spite and Malice · kurz", "Schweizer System · 2 Runden · ungewertet · gemacht von cat",
                      "offen für Anmeldungen · 1 Teilnehmer", "Optionen — die Größe des Vorratsstapels: 3",
                      "Es beginnt, wenn es sein Macher startet.",
                      "angemeldet als udo", "Warte auf deinen nächsten Tisch", "Tabelle", "udo (du)",
                      "Zum Tisch", "Verlassen"):
            assert words in text, (words, text)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.is_running, 5000)

    run(config, body, size=(100, 30))
    info = httpx.get(f"{server.base}/api/tournaments/{tid}", timeout=10).json()
    assert [e["name"] for e in info["entrants"]] == ["udo"]
