"""``spite tui --connect``: a seat of a real server's table (a subprocess), played by key presses."""

from __future__ import annotations

import contextlib
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import typer
from textual.pilot import Pilot
from tui_helpers import QuietLink, count_setups, keyed_move, keys_for, run, type_keys, wait_for
from typer.testing import CliRunner

from spite.bots import make_bot
from spite.cards import RANKS
from spite.cli.play import register
from spite.errors import IllegalMoveError
from spite.fairness import commitment, fingerprint
from spite.malice import Move
from spite.malice.moves import rank_token
from spite.malice.tui.remote import WELCOME_EXAMPLE, RemoteMaliceTable
from spite.malice.tui.screen import MaliceScreen, RemoteMaliceScreen, SummaryScreen
from spite.malice.tui.words import malice_move_words
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.link import FairNote, LinkStatus, Pending, RemoteError, RemoteUpdate, connect_table, parse_address, probe
from waiting import wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("remote") / "spite.db"
    # --next-game 300: between a match's games the server waits for the person's N (not its own pause);
    # max_open_tables: the tests try fresh tables until a deal suits them and leave the rest playing, all
    # from this one address (the cap has its own tests)
    proc = ServerProcess(f"sqlite:///{db}", None, "--bot-workers", "0", "--bot-delay", "0", "--rate", "200",
                         "--next-game", "300", "--limit", "max_open_tables=1000").start()
    try:
        yield proc
    finally:
        proc.stop()


def create(server: ServerProcess, seats: list[dict[str, Any]], stock: int = 3,
           **options: Any) -> dict[str, Any]:
    answer = httpx.post(server.base + "/api/tables", json={
        "game": "spite-malice", "preset": "classic", "options": {"stock_size": stock, **options}, "seats": seats,
        "name": "ann"}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def bot_move(table: RemoteMaliceTable) -> Move:
    """What the ``hard`` bot would play in this seat's view (the test's player)."""
    bot = make_bot("hard")
    assert table.seat is not None
    bot.start_game(table.opts, table.seat)
    return bot.decide(table.view(), random.Random(f"test/{table.version}"), None).move


class Wire:
    """Stands in for a screen as the link's listener: hands each message to the table and keeps what
    the table made of it."""

    def __init__(self, table: RemoteMaliceTable) -> None:
        self.table, self.updates = table, []

    def link_message(self, msg: dict[str, Any]) -> None:
        self.updates.append(self.table.handle(msg))

    def link_status(self, status: LinkStatus) -> None: ...

    def link_fair(self, note: FairNote) -> None: ...

    def link_dropped(self, dropped: list[Pending]) -> None: ...


def screen_of(app: SpiteApp) -> RemoteMaliceScreen:
    for screen in app.screen_stack:
        if isinstance(screen, RemoteMaliceScreen):
            return screen
    raise AssertionError(app.screen_stack)


@pytest.mark.slow
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
        seen["head"] = app.screen_text()  # the deal fingerprint is on the head line (docs/fairness.md)
        # the server's hint: asked with ?, shown with its reason when it comes
        if not over():
            await type_keys(pilot, "question_mark")
            await wait_for(pilot, lambda: "Hint: " in app.screen_text() or over(), 5000)
        # a move the server refuses: its reason (in the screen's names and suit symbols), nothing changed
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
                assert f"Not allowed: {screen.words(text)}"[:60] in app.screen_text().replace("\n", " ")
                seen["refused"] = text
        # play on by keys (the hint's move each time); drop the connection once on the way
        presses = 0
        while not over():
            await wait_for(pilot, lambda: screen.waiting_for_human or over(), 5000)
            if over():
                break
            acked = len(table.acked)
            view = table.view()
            await type_keys(pilot, *keys_for(view, bot_move(table), screen.hand_slots(view)))
            presses += 1
            await wait_for(pilot, lambda: len(table.acked) > acked or over(), 5000)  # noqa: B023
            if presses == 3 and screen.link is not None:
                await screen.link.drop()
                await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 2
                               and table.connected, 5000)
            assert presses < 400
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 5000)
        await wait_for(pilot, lambda: table.game_over is not None, 5000)
        # the record fetched and every shuffle replayed from the seed, off the event loop
        shown = lambda: app.screen.text.plain if isinstance(app.screen, SummaryScreen) else ""  # noqa: E731
        await wait_for(pilot, lambda: "every shuffle" in shown(), 5000)
        seen["summary"] = app.screen_text()
        seen["summary_text"] = shown()  # the summary's lines before the box wraps them
        seen["presses"] = presses
        seen["log"] = table.turn_log()

    run(config, body)
    assert seen["presses"] >= 3 and seen["refused"]
    assert "Game over" in seen["summary"] and "/api/games/" in seen["summary"]
    assert any(re.match(r"\d+ P[12]: ", line) for line in seen["log"]), seen["log"]
    info = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
    assert info["status"] == "finished" and info["stateVersion"] == remote.version
    # the fingerprint while playing, and at the end the secret checked here: verified
    record = httpx.get(f"{server.base}/api/games/{info['gameId']}/record", timeout=10).json()
    short = fingerprint(record["fairness"]["commitment"])
    assert f"deal {short}" in seen["head"], seen["head"]
    assert f"deal {short} ✓ verified" in seen["summary"]
    assert "verified: the commitment, your random part and every shuffle" in seen["summary_text"]
    # this terminal's random part is in the deal: sent with the first hello, after the commitment was seen
    nonce = remote.link.fair.deals[1].nonce
    assert nonce is not None and record["fairness"]["nonces"] == [nonce, None]
    assert remote.link.hellos[0]["nonce"] == nonce


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
    link = QuietLink(WELCOME_EXAMPLE)
    table = RemoteMaliceTable.from_welcome(link, WELCOME_EXAMPLE)
    wire = Wire(table)
    link.listener, link.connected = wire, True
    sent = link.sent
    assert table.human_to_move
    table.play("S-B1")
    assert sent[-1] == {"type": "move", "move": "S-B1", "stateVersion": 0, "id": "m1"}
    assert not table.human_to_move  # waiting for the answer
    view1 = dict(WELCOME_EXAMPLE["view"], to_move=1)
    link.receive({"type": "ack", "id": "m1", "move": "S-B1", "stateVersion": 1})
    assert table.pending is None and table.acked == ["S-B1"]
    link.receive({"type": "state", "stateVersion": 1, "view": view1, "legal": [],
                  "last": {"seat": 0, "move": "S-B1", "byBot": False}})
    assert table.version == 1 and table.turn_log() == ["1 P1: S-B1"] and not table.human_to_move
    link.receive({"type": "state", "stateVersion": 3, "view": WELCOME_EXAMPLE["view"], "legal": ["S-B1"]})
    assert sent[-1] == {"type": "sync"} and table.version == 1  # not taken: ask for the whole position
    link.receive({"type": "state", "stateVersion": 3, "view": WELCOME_EXAMPLE["view"], "legal": ["S-B1"]})
    assert table.version == 3 and table.human_to_move
    table.play("S-B2")
    link.receive({"type": "error", "code": "stale", "message": "the position has changed", "id": "m2",
                  "stateVersion": 4})
    stale = wire.updates[-1]
    assert sent[-1] == {"type": "sync"} and stale.error == "the position has changed" and table.pending is None
    handed = len(wire.updates)
    link.receive({"type": "state", "stateVersion": 2, "view": view1, "legal": []})
    assert table.version == 3 and len(wire.updates) == handed and sent[-1] == {"type": "sync"}  # an old one: ignored
    assert isinstance(stale, RemoteUpdate)
    assert parse_address("ws://h:1/t/abc", None) == ("http://h:1", "abc")
    with pytest.raises(RemoteError):
        parse_address("ftp://h", "x")


# ---------------------------------------------------------------------- undo and match tables
def flat(text: str) -> str:
    """The screen's text on one line (a long line may wrap)."""
    return " ".join(text.split())


def welcome_on_seat_0s_turn(base: str, table_id: str, token: str) -> dict[str, Any]:
    """Seat 0's welcome at a table once it is its turn (a bot may still be playing the first turn), or
    as it stands 2 s on."""
    seen: list[dict[str, Any]] = []

    def turn() -> bool:
        seen.append(probe(base, table_id, token))
        return bool(seen[-1]["view"]["to_move"] == 0)

    with contextlib.suppress(AssertionError):  # not its turn yet: the caller looks at what it got
        wait_until(turn, "seat 0's turn", timeout=2)
    return seen[-1]


def a_table_with_a_hand_build(server: ServerProcess) -> tuple[str, str, str]:
    """A fresh table (ann against an easy bot) where ann is to move and may build from her hand:
    ``(table id, token, the move)``. Deals differ: try fresh tables until one offers it."""
    for _ in range(40):
        joined = create(server, [{"kind": "person"}, {"kind": "bot", "level": "easy"}], stock=8)
        table_id, token = joined["table"]["id"], joined["token"]
        welcome = welcome_on_seat_0s_turn(server.base, table_id, token)
        build = next((m for m in welcome["legal"] if m.startswith("H") and "-B" in m), None)
        if welcome["view"]["to_move"] == 0 and build is not None and welcome["game"]["canUndo"] is False:
            return table_id, token, build
    raise AssertionError("no deal offered a build play from the hand")


def test_undo_a_build_play_by_key_on_a_server_table(server: ServerProcess) -> None:
    table_id, token, build = a_table_with_a_hand_build(server)
    remote = connect_table(server.base, table_id, token=token)
    hand_before = sorted(remote.view_json["players"][0]["hand"])
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        table = screen.table
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        await wait_for(pilot, lambda: screen.waiting_for_human, 5000)
        start = table.version
        # nothing played this turn: the server says no undo, and U says so without asking
        assert not table.can_undo()
        await type_keys(pilot, "u")
        assert "Nothing to undo" in app.screen_text() and table.pending is None and not table.undone
        # the build play by keys, then U: the server takes it back
        move = next(m for m in table.view().legal_moves if m.text == build)
        sent = seen["sent"] = keyed_move(table.view(), move, screen.hand_slots(table.view())).text  # names its card
        await type_keys(pilot, *keys_for(table.view(), move))
        await wait_for(pilot, lambda: table.version == start + 1 and table.pending is None, 5000)
        assert table.acked == [sent] and table.can_undo() and table.turn_log()[-1].endswith(sent)
        assert sorted(table.view_json["players"][0]["hand"]) != hand_before
        seen["words"] = malice_move_words("en", move, table.view().builds[move.target][-1])  # the card put there
        real_send, held = table.link.send, []
        table.link.send = lambda msg: held.append(msg) is None  # the undo waits until the test has looked
        await type_keys(pilot, "u")
        table.link.send = real_send
        assert held == [{"type": "undo", "stateVersion": start + 1, "id": held[0]["id"]}] and not table.can_undo()
        seen["asked"] = flat(app.screen_text())
        assert real_send(held[0])
        await wait_for(pilot, lambda: table.undone == [sent] and table.version == start + 2, 5000)
        await pilot.pause()
        seen["after_undo"] = flat(app.screen_text())
        seen["version"] = table.version
        seen["log"] = table.turn_log()
        assert screen.waiting_for_human and not table.can_undo()  # the server's canUndo: nothing left
        # a client whose canUndo is out of date asks anyway: the server refuses, with its reason
        table.server_can_undo = True
        await type_keys(pilot, "u")
        await wait_for(pilot, lambda: bool(table.refused), 5000)
        await pilot.pause()
        seen["refused"] = table.refused[-1]
        seen["refused_screen"] = flat(app.screen_text())
        seen["refused_version"] = table.version

    run(TuiConfig(remote=remote), body, size=(100, 30))
    words = seen["words"]
    assert f"asked to take back {words}, waiting for the server" in seen["asked"], seen["asked"]
    assert f"Took back {words}" in seen["after_undo"], seen["after_undo"]
    assert all(not line.endswith(seen["sent"]) for line in seen["log"]), seen["log"]
    # the server's position is back: the card in the hand again, one version more than the move's
    welcome = probe(server.base, table_id, token)
    assert welcome["stateVersion"] == seen["version"] and sorted(welcome["view"]["players"][0]["hand"]) == hand_before
    info = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
    assert info["stateVersion"] == seen["version"]
    code, text = seen["refused"]
    assert code == "nothing-to-undo" and seen["refused_version"] == seen["version"]
    assert f"Not allowed: {text}"[:70] in seen["refused_screen"], seen["refused_screen"]


@pytest.mark.timeout(180)  # a match of several games by keys against a server
@pytest.mark.slow
def test_a_match_table_game_after_game_by_keys(server: ServerProcess) -> None:
    # a bot that begins may win a game of two stock cards before we connect: start where we are to move
    for _ in range(30):
        joined = create(server, [{"kind": "person"}, {"kind": "bot", "level": "easy"}], stock=2, match_target=2)
        table_id, token = joined["table"]["id"], joined["token"]
        remote = connect_table(server.base, table_id, token=token)
        if remote.to_move == 0 and not remote.state.is_over:
            break
    assert remote.to_move == 0 and not remote.state.is_over
    assert remote.match is not None and remote.match.scores == [0, 0] and not remote.match_over
    seen: dict[str, Any] = {"summaries": [], "heads": []}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        table = screen.table
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        real_send = table.link.send
        held: list[dict[str, Any]] = []

        def holding(msg: dict[str, Any]) -> bool:  # the first next waits until the test has looked
            if msg["type"] == "next" and not seen.get("held"):
                seen["held"] = True
                held.append(msg)
                return True
            return real_send(msg)

        table.link.send = holding
        over = lambda: table.state.is_over  # noqa: E731
        presses = 0
        for _ in range(20):  # the games of the match (to a few points)
            game = table.games
            while not over():
                await wait_for(pilot, lambda: screen.waiting_for_human or over(), 5000)
                if over():
                    break
                if presses == 0:
                    seen["heads"].append((table.games, app.screen_text().splitlines()[0]))
                acked = len(table.acked)
                await type_keys(pilot, *keys_for(table.view(), bot_move(table), screen.hand_slots(table.view())))
                presses += 1
                await wait_for(pilot, lambda: len(table.acked) > acked or over(), 5000)  # noqa: B023
                assert presses < 300
            await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen)
                           and table.game_over is not None, 5000)
            await pilot.pause()
            assert table.match is not None
            seen["summaries"].append((list(table.match.scores), table.match.is_over, flat(app.screen_text()),
                                      table.game_over["gameId"]))
            if table.match.is_over:
                break
            await type_keys(pilot, "n")
            if held:  # the next is on its way: the table waits for the server's deal
                await pilot.pause()
                seen["waiting"] = (flat(app.screen_text()), isinstance(app.screen, SummaryScreen))
                assert real_send(held.pop())
            # the next game's position (a bot that begins it may even finish it at once with a small stock)
            await wait_for(pilot, lambda: table.games == game + 1, 5000)  # noqa: B023
            await wait_for(pilot, lambda: screen.waiting_for_human or over(), 5000)
            await pilot.pause()
            seen["heads"].append((table.games, app.screen_text().splitlines()[0]))
            assert over() or not isinstance(app.screen, SummaryScreen)
            assert len(table.log) <= table.state.plies, table.turn_log()  # the log of this game only
        else:
            raise AssertionError(f"the match was not over after {table.games} games")
        seen["games"] = table.games

    run(TuiConfig(remote=remote), body, size=(110, 30))
    summaries = seen["summaries"]
    assert len(summaries) == seen["games"] >= 2
    for scores, is_over, text, game_id in summaries:
        assert "Game over" in text and f"Match {scores[0]}:{scores[1]} (to 2)" in text, text
        # the moves of this game (not the table's stateVersion, which goes on over the match)
        moves = httpx.get(f"{server.base}/api/games/{game_id}/positions", timeout=10).json()["moves"]
        assert re.search(rf"\b{len(moves)} moves\b", text), (len(moves), text)
        if is_over:
            assert "wins the match" in text and "Q quit" in text and "N next game" not in text, text
        else:
            assert "N next game · Q quit" in text, text
    assert summaries[-1][1] and max(summaries[-1][0]) == 2 and sum(summaries[-1][0]) == seen["games"]
    waiting, summary_on_top = seen["waiting"]
    assert "waiting for the next game" in waiting and not summary_on_top, waiting
    assert "Match 0:0 (to 2)" in seen["heads"][0][1], seen["heads"]
    games_heads = [h for g, h in seen["heads"] if g >= 2]
    assert games_heads and all(re.search(r"Match \d:\d \(to 2\)", h) for h in games_heads), seen["heads"]
    # the server: every game stored, the table finished at the client's version
    info = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
    assert info["status"] == "finished" and info["stateVersion"] == remote.version
    assert len({game_id for *_, game_id in summaries}) == seen["games"]


def test_undo_and_match_messages_without_a_server() -> None:
    match = {"scores": [0, 0], "target": 2, "game": 1, "over": False, "winner": None, "betweenGames": False,
             "ready": [], "nextIn": None}
    # the deal of game 1 (its secret revealed at its end) and the commitment of game 2 published then
    secret = bytes(range(32))
    fair1 = {"game": 1, "commitment": commitment(secret, "k3J9x", 1), "dealt": True, "sent": [False, False]}
    next2 = commitment(bytes(32), "k3J9x", 2, first=1)
    welcome = {**WELCOME_EXAMPLE, "game": {"match": match}, "fair": fair1}
    link = QuietLink(welcome)
    table = RemoteMaliceTable.from_welcome(link, welcome)
    wire = Wire(table)
    link.listener, link.connected = wire, True
    sent = link.sent
    assert table.match is not None and not table.match_over and not table.can_undo()
    view1 = dict(WELCOME_EXAMPLE["view"])
    table.play("H2-D1")
    link.receive({"type": "ack", "id": "m1", "move": "H2-D1", "stateVersion": 1})
    link.receive({"type": "state", "stateVersion": 1, "view": view1, "legal": ["S-B1"],
                  "last": {"seat": 0, "move": "H2-D1", "byBot": False}, "game": {"canUndo": True, "match": match}})
    assert table.can_undo() and table.undo() == "H2-D1"
    assert sent[-1] == {"type": "undo", "stateVersion": 1, "id": "u2"} and not table.can_undo()
    with pytest.raises(IllegalMoveError):
        table.undo()  # one request at a time
    link.receive({"type": "ack", "id": "u2", "move": "H2-D1", "stateVersion": 2, "undone": True})
    assert wire.updates[-1].undone == "H2-D1" and table.pending is None and table.acked == ["H2-D1"]
    link.receive({"type": "state", "stateVersion": 2, "view": view1, "legal": ["S-B1"],
                  "last": {"seat": 0, "move": "H2-D1", "byBot": False, "undone": True},
                  "game": {"canUndo": False, "match": match}})
    assert table.turn_log() == [] and not table.can_undo() and table.state.plies == 0
    # the game ends, the match goes on: next, then the next game's deal
    between = {**match, "scores": [1, 0], "betweenGames": True, "ready": [1], "nextIn": 30.0}
    link.receive({"type": "state", "stateVersion": 3, "legal": [],
                  "view": dict(view1, finished=True, result={"winner": 0, "reason": "stock"}),
                  "last": {"seat": 0, "move": "S-B1", "byBot": False}, "game": {"match": between}})
    link.receive({"type": "gameOver", "stateVersion": 3, "result": {"winner": 0, "reason": "stock"}, "gameId": 1,
                  "recordUrl": "/api/games/1/record", "final": False, "game": {"match": between},
                  "fair": {**fair1, "secret": secret.hex(), "nonces": [None, None], "next": next2}})
    assert table.state.is_over and not table.match_over and table.match.scores == [1, 0]
    table.new_game()
    # a random part for the next game's deal, whose commitment was seen (docs/fairness.md)
    nonce = sent[-1].pop("nonce")
    assert re.fullmatch(r"[0-9a-f]{32}", nonce) and nonce == link.fair.deals[2].nonce and link.fair.deals[2].nonce_sent
    assert sent[-1] == {"type": "next", "id": "n3"} and table.awaiting_next == "n3"
    link.receive({"type": "state", "stateVersion": 4, "view": view1, "legal": ["S-B1"], "last": None,
                  "game": {"canUndo": False, "match": {**match, "scores": [1, 0], "game": 2}},
                  "fair": {"game": 2, "commitment": next2, "dealt": True, "sent": [True, False],
                       "scheme": "spite-fair/2", "first": 1}})
    assert wire.updates[-1].new_game and table.games == 2 and table.game_over is None and table.awaiting_next is None
    assert table.match.game == 2 and not table.state.is_over and table.turn_log() == [] and table.state.plies == 0
    assert link.fair.deals[2].alarm is None and link.fair.deals[1].revealed  # both deals check out
    link.receive({"type": "error", "code": "no-next-game", "message": "a game is in play", "id": "n9"})
    assert wire.updates[-1].error is None  # a next that crossed the server's own deal
    final = {**match, "scores": [2, 0], "game": 2, "over": True, "winner": 0}
    link.receive({"type": "gameOver", "stateVersion": 9, "result": {"winner": 0, "reason": "stock"},
                  "game": {"match": final}})
    assert table.match_over and table.match.winner == 0
    with pytest.raises(IllegalMoveError):
        table.new_game()
    watched = {**WELCOME_EXAMPLE, "seat": None, "game": {"match": match}}
    watcher = RemoteMaliceTable.from_welcome(QuietLink(watched, None), watched)
    assert watcher.match_over and not watcher.can_undo()  # a spectator starts no games and undoes nothing
    with pytest.raises(IllegalMoveError):
        watcher.undo()


@pytest.mark.parametrize("seat", [0, None])
def test_the_next_game_closes_the_summary_for_players_and_spectators(seat: int | None) -> None:
    """The server deals the next game by itself (its pause ran out, or the players were ready): the
    summary goes and the new game is shown; a spectator sees the score but is offered no N."""
    match = {"scores": [0, 0], "target": 2, "game": 1, "over": False, "winner": None, "betweenGames": False,
             "ready": [], "nextIn": None}
    view = dict(WELCOME_EXAMPLE["view"])
    if seat is None:
        view["players"] = [dict(p, hand=None) for p in view["players"]]
    legal = ["S-B1"] if seat is not None else []
    welcome = {**WELCOME_EXAMPLE, "seat": seat, "view": view, "legal": legal, "game": {"match": match}}
    link = QuietLink(welcome, "t" if seat is not None else None)
    remote = RemoteMaliceTable.from_welcome(link, welcome)
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        seen["start"] = flat(app.screen_text())
        between = {**match, "scores": [1, 0], "betweenGames": True, "ready": [1], "nextIn": 30.0}
        final = dict(view, finished=True, result={"winner": 0, "reason": "stock"})
        link.receive({"type": "state", "stateVersion": 1, "view": final, "legal": [],
                      "last": {"seat": 0, "move": "S-B1", "byBot": False}, "game": {"match": between}})
        link.receive({"type": "gameOver", "stateVersion": 1, "result": {"winner": 0, "reason": "stock"},
                      "gameId": 1, "recordUrl": "/api/games/1/record", "final": False, "game": {"match": between}})
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 5000)
        await pilot.pause()
        seen["summary"] = flat(app.screen_text())
        await type_keys(pilot, "escape")  # a look at the table; N brings the summary back
        await wait_for(pilot, lambda: not isinstance(app.screen, SummaryScreen), 5000)
        await type_keys(pilot, "n")
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 5000)
        await type_keys(pilot, "n")  # a spectator's N does nothing; a player's sends next
        seen["sent"] = list(screen.link.sent) if screen.link is not None else []
        # another person of the table says next: the table waits on (no summary again)
        link.receive({"type": "table", "table": remote.info, "game": {"match": {**between, "ready": [0, 1]}},
                      "event": {"kind": "ready", "seat": 1, "text": "bob is ready for the next game"}})
        await pilot.pause()
        seen["after_n"] = isinstance(app.screen, SummaryScreen)
        seen["waiting"] = flat(app.screen_text())
        link.receive({"type": "table", "table": remote.info, "game": {"match": {**match, "scores": [1, 0], "game": 2}},
                      "event": {"kind": "next-game", "seat": 1, "text": "game 2 of the match begins"}})
        link.receive({"type": "state", "stateVersion": 2, "view": dict(view, to_move=1), "legal": [],
                      "last": None, "game": {"match": {**match, "scores": [1, 0], "game": 2}}})
        await wait_for(pilot, lambda: not isinstance(app.screen, SummaryScreen), 5000)
        await pilot.pause()
        seen["game2"] = flat(app.screen_text())
        # the next game ends too: its summary opens again
        link.receive({"type": "state", "stateVersion": 3, "view": final, "legal": [],
                      "last": {"seat": 0, "move": "S-B1", "byBot": False},
                      "game": {"match": {**match, "scores": [2, 0], "game": 2, "over": True, "winner": 0}}})
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 5000)
        await pilot.pause()
        seen["final"] = flat(app.screen_text())

    run(TuiConfig(remote=remote), body, size=(100, 30))
    assert "Match 0:0 (to 2)" in seen["start"], seen["start"]
    assert "Match 1:0 (to 2)" in seen["summary"]
    if seat is None:
        assert "N next game" not in seen["summary"] and "Q quit" in seen["summary"]
        assert "the next game begins when the players are ready" in seen["summary"]
        assert seen["after_n"] and seen["sent"] == []
        assert "watching table" in seen["game2"]
    else:
        assert "N next game · Q quit" in seen["summary"], seen["summary"]
        assert not seen["after_n"] and [{k: v for k, v in m.items() if k != "nonce"} for m in seen["sent"]] == [
            {"type": "next", "id": "n1"}]
        assert "nonce" not in seen["sent"][0]  # no next game's commitment was seen: no random part goes out
        assert "waiting for the next game … (ready: P1, P2)" in seen["waiting"], seen["waiting"]
        assert "bob is ready for the next game" in seen["waiting"]
        assert "waiting for the next game" not in seen["game2"]
    assert "game 2 of the match begins" in seen["game2"] and "Match 1:0 (to 2)" in seen["game2"], seen["game2"]
    assert "Game over" not in seen["game2"]
    assert "wins the match" in seen["final"] and "N next game" not in seen["final"], seen["final"]


def test_a_server_table_is_set_up_once(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's screen is set up (and its first position drawn) once when it opens, not twice
    (Textual calls each class's ``on_mount`` itself)."""
    setups = count_setups(monkeypatch, MaliceScreen)
    joined = create(server, [{"kind": "person"}, {"kind": "bot", "level": "easy"}], stock=6)
    remote = connect_table(server.base, joined["table"]["id"], token=joined["token"])

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        assert setups == [screen]

    run(TuiConfig(remote=remote), body)
    assert len(setups) == 1


def test_another_game_at_the_same_table_after_its_last_one() -> None:
    """After the table's last game N asks for another one there (a rematch, with this seat's random part
    for its deal, whose commitment came with the end); the prompt line waits for the others, and the
    new game closes the summary."""
    secret = bytes(range(32))
    fair1 = {"game": 1, "commitment": commitment(secret, "k3J9x", 1), "dealt": True, "sent": [False, False]}
    next2 = commitment(bytes(32), "k3J9x", 2)
    welcome = {**WELCOME_EXAMPLE, "fair": fair1}
    link = QuietLink(welcome)
    remote = RemoteMaliceTable.from_welcome(link, welcome)
    view = WELCOME_EXAMPLE["view"]
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        revealed = {**fair1, "secret": secret.hex(), "nonces": [None, None], "next": next2}
        final = dict(view, finished=True, result={"winner": 1, "reason": "stock"})
        link.receive({"type": "state", "stateVersion": 1, "view": final, "legal": [], "fair": revealed,
                      "last": {"seat": 1, "move": "S-B1", "byBot": True}})
        link.receive({"type": "gameOver", "stateVersion": 1, "result": {"winner": 1, "reason": "stock"},
                      "gameId": None, "recordUrl": None, "fair": revealed,
                      "rematch": {"ready": [1], "waiting": [0], "declined": []}})
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen), 5000)
        await pilot.pause()
        seen["summary"] = flat(app.screen_text())
        await type_keys(pilot, "n")
        await pilot.pause()
        seen["waiting"] = flat(app.screen_text())
        link.receive({"type": "table", "table": {**remote.info, "status": "playing"},
                      "event": {"kind": "rematch", "seat": None, "text": "everyone wants a rematch"}})
        link.receive({"type": "state", "stateVersion": 2, "view": view, "legal": ["S-B1"], "last": None,
                      "fair": {"game": 2, "commitment": next2, "dealt": True, "sent": [True, False]}})
        await wait_for(pilot, lambda: not isinstance(app.screen, SummaryScreen), 5000)
        await pilot.pause()
        seen["game2"] = flat(app.screen_text())

    run(TuiConfig(remote=remote), body, size=(100, 30))
    assert "N another game · Q quit" in seen["summary"], seen["summary"]
    assert link.sent == [{"type": "rematch", "accept": True, "id": "r1", "nonce": link.fair.deals[2].nonce}]
    assert "waiting for the others to want another game … (ready: P2)" in seen["waiting"], seen["waiting"]
    assert "Game over" not in seen["game2"] and remote.games == 2 and not remote.state.is_over
    assert link.fair.deals[2].alarm is None and link.fair.deals[2].nonce_sent
    short = fingerprint(next2)
    assert f"deal {short}" in seen["game2"] and "✗" not in seen["game2"], seen["game2"]


def test_another_game_at_a_server_table_by_n(server: ServerProcess) -> None:
    """The same at a real server against a bot (who always says yes): the new game is dealt from the
    commitment published at the end of the last one, with this terminal's random part."""
    joined = create(server, [{"kind": "person"}, {"kind": "bot", "level": "easy"}], stock=2)
    table_id, token = joined["table"]["id"], joined["token"]
    remote = connect_table(server.base, table_id, token=token)
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        table = screen.table
        over = lambda: table.state.is_over  # noqa: E731
        await wait_for(pilot, lambda: screen.link.connects == 1, 5000)
        for _ in range(300):
            await wait_for(pilot, lambda: screen.waiting_for_human or over(), 5000)
            if over():
                break
            acked = len(table.acked)
            view = table.view()
            await type_keys(pilot, *keys_for(view, bot_move(table), screen.hand_slots(view)))
            await wait_for(pilot, lambda: len(table.acked) > acked or over(), 5000)  # noqa: B023
        await wait_for(pilot, lambda: isinstance(app.screen, SummaryScreen) and table.rematch_open, 5000)
        await pilot.pause()
        seen["summary"] = flat(app.screen_text())
        await type_keys(pilot, "n")
        await wait_for(pilot, lambda: table.games == 2, 5000)
        await pilot.pause()
        seen["game2"] = flat(app.screen_text())

    run(TuiConfig(remote=remote), body, size=(100, 30))
    assert "N another game · Q quit" in seen["summary"], seen["summary"]
    deals = remote.link.fair.deals
    assert deals[2].nonce_sent and deals[2].alarm is None and deals[1].alarm is None
    info = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
    assert info["fair"]["game"] == 2 and info["fair"]["commitment"] == deals[2].commitment
    assert info["fair"]["sent"] == [True, False]  # the rematch's yes carried this terminal's random part
    assert f"deal {fingerprint(deals[2].commitment)}" in seen["game2"], seen["game2"]
