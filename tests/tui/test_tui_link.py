"""The terminal app's link to a server's table (``spite.tui.link``) against a server in the test process
(``fake_server.py``) that plays honest or cheats: what the link sends before and after it has seen the
deal's commitment, when it reconnects and when not, and what the person is told about the deal."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
from collections.abc import Awaitable, Callable
from typing import Any

from fake_server import TABLE, VIEW, FakeServer, honest_record, with_one_shuffle_changed
from textual.pilot import Pilot
from tui_helpers import run, wait_for
from websockets.asyncio.server import ServerConnection

from spite.fairness import commitment
from spite.malice.tui.remote import WELCOME_EXAMPLE
from spite.malice.tui.screen import RemoteMaliceScreen, SummaryScreen
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.link import FairNote, LinkStatus, Pending, TableLink, connect_table

OTHER = commitment(bytes(32), TABLE, 1)
"""A commitment this server never published."""


class Ear:
    """The link's listener in these tests: keeps what it is told, and lets a test wait for it."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.statuses: list[LinkStatus] = []
        self.notes: list[FairNote] = []
        self.dropped: list[list[Pending]] = []
        self._told = asyncio.Event()

    def _heard(self) -> None:
        self._told.set()

    def link_message(self, msg: dict[str, Any]) -> None:
        self.messages.append(msg)
        self._heard()

    def link_status(self, status: LinkStatus) -> None:
        self.statuses.append(status)
        self._heard()

    def link_fair(self, note: FairNote) -> None:
        self.notes.append(note)
        self._heard()

    def link_dropped(self, dropped: list[Pending]) -> None:
        self.dropped.append(dropped)
        self._heard()

    async def until(self, done: Callable[[], bool], seconds: float = 30) -> None:
        """Wait until ``done()`` holds after something the link said (or fail after ``seconds``: a bound
        for a busy machine, where a record's full check took over 10 s, not a timing under test)."""
        async with asyncio.timeout(seconds):
            while not done():
                self._told.clear()
                await self._told.wait()

    def alarms(self) -> list[str]:
        return [n.line.english for n in self.notes if n.state == "alarm" and n.line is not None]

    def versions(self) -> list[tuple[str, int]]:
        return [(m["type"], m["stateVersion"]) for m in self.messages if m["type"] in ("welcome", "state")]


def play(server: FakeServer, body: Callable[[TableLink, Ear], Awaitable[None]],
         token: str | None = "tok") -> tuple[TableLink, Ear, list[float]]:
    """Run a link to ``server`` while ``body`` looks on; the waits between reconnects are recorded, not slept."""
    slept: list[float] = []

    async def no_sleep(seconds: float) -> None:
        slept.append(seconds)

    async def main() -> tuple[TableLink, Ear]:
        ear = Ear()
        link = TableLink(server.base, TABLE, token, rng=random.Random(5), sleep=no_sleep)
        task = asyncio.create_task(link.run(ear))
        try:
            await body(link, ear)
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        return link, ear

    link, ear = asyncio.run(main())
    return link, ear, slept


def final_status(ear: Ear) -> LinkStatus:
    finals = [s for s in ear.statuses if s.final]
    assert len(finals) == 1, ear.statuses
    return finals[0]


# ---------------------------------------------------------------------- the nonce and the commitment
def test_the_hello_carries_a_nonce_only_for_a_commitment_seen_and_the_same_one_after_reconnects() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        n = len(server.hellos)
        if n == 2:  # restarting still: closed again before the welcome
            await ws.close(1012)
            return
        await ws.send(server.welcome(server.info["fair"]))
        if n == 1:  # no commitment was published yet; now it is, and the server restarts
            server.info = server.table_info(server.fair(dealt=False))
            await ws.close(1012)
        elif n == 3:  # busy: try later
            await ws.close(1013)
        elif n == 4:  # the deal is made meanwhile; then the network fails
            server.info = server.table_info(server.fair(dealt=True))
            ws.transport.abort()
        else:
            await server.listen(ws)

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: len(server.hellos) == 5 and link.connected)

    with FakeServer(talk) as server:
        server.info = server.table_info(None)
        link, ear, slept = play(server, body)
    nonces = [hello.get("nonce") for hello in server.hellos]
    assert nonces[0] is None and nonces[4] is None  # no commitment seen; the deal already made
    assert nonces[1] is not None and re.fullmatch(r"[0-9a-f]{32}", nonces[1]) and nonces[1:4] == [nonces[1]] * 3
    assert link.fair.deals[1].nonce == nonces[1] and link.fair.deals[1].nonce_sent
    # the table's info fetched before every socket, the deal pinned from it before the hello
    assert server.gets == [f"/api/tables/{TABLE}"] * 5
    # 1012: at once, but not twice in a row (the back-off's second step, 1 s ± 25 %); 1013 and a dropped
    # network: the back-off (0.3 s ± 25 %, its first step again after each welcome)
    assert len(slept) == 4 and slept[0] == 0 and 0.75 <= slept[1] <= 1.25, slept
    assert all(0.225 <= s <= 0.375 for s in slept[2:]), slept
    assert [s.line.phrase.key for s in ear.statuses if s.line is not None and s.line.phrase] == ["tui.link_lost"] * 4
    assert ear.alarms() == []


def test_a_welcome_with_another_commitment_raises_the_alarm() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        await ws.send(server.welcome(server.fair(dealt=True, commitment=OTHER)))
        await server.listen(ws)

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: bool(ear.notes))

    with FakeServer(talk) as server:
        link, ear, _ = play(server, body)
    assert ear.alarms() == ["The server changed its commitment to this deal after you sat down: "
                            "this deal cannot be trusted."]
    head = link.fair.head()
    assert head is not None and head[1] is False and head[0] == server.commitment[:4] + "-" + server.commitment[4:8] \
        + "-" + server.commitment[8:12]  # the commitment pinned before the hello is the one shown


def test_a_reveal_without_our_nonce_raises_the_alarm() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        await ws.send(server.welcome(server.fair(dealt=True, sent=[True, False])))
        nonces = ["00" * 16, None]  # the server dealt with a nonce of its own choosing in our seat
        server.record = honest_record(TABLE, server.secret, nonces)
        await server.end_game(ws, server.revealed(nonces))
        await server.listen(ws)

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: any(m["type"] == "gameOver" for m in ear.messages))
        await link.settled()  # the record's check too

    with FakeServer(talk) as server:
        link, ear, _ = play(server, body)
    assert server.gets[-1] == "/api/games/1/record"
    assert server.hellos[0]["nonce"] == link.fair.deals[1].nonce
    assert ear.alarms() == ["Your random part is not among the revealed ones: the server dealt without it."]
    assert [n.state for n in ear.notes] == ["alarm"]  # once, however many checks find it


def test_a_record_with_one_shuffle_changed_shows_the_verify_line() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        nonces = [hello["nonce"], None]
        await ws.send(server.welcome(server.fair(dealt=True, sent=[True, False])))
        server.record = with_one_shuffle_changed(honest_record(TABLE, server.secret, nonces))
        await server.end_game(ws, server.revealed(nonces))
        await server.listen(ws)

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: any(n.state == "alarm" for n in ear.notes))

    with FakeServer(talk) as server:
        link, ear, _ = play(server, body)
    # the secret gives the commitment and our nonce is in: ✓ at first; the record's replay then finds the shuffle
    assert [n.state for n in ear.notes] == ["revealed", "alarm"]
    (alarm,) = ear.alarms()
    assert re.fullmatch(r"The record of this game does not check out: not fair: moves\[\d+\], chance entry 2: "
                        r"the shuffle does not follow from the secret and the nonces", alarm), alarm
    assert link.fair.head() is not None and link.fair.head()[1] is False  # type: ignore[index]
    assert server.gets == [f"/api/tables/{TABLE}", "/api/games/1/record"]


def test_an_honest_server_is_verified() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        nonces = [hello["nonce"], None]
        await ws.send(server.welcome(server.fair(dealt=True, sent=[True, False])))
        server.record = honest_record(TABLE, server.secret, nonces)
        await server.end_game(ws, server.revealed(nonces))
        await server.listen(ws)

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: any(n.state == "verified" for n in ear.notes))

    with FakeServer(talk) as server:
        link, ear, _ = play(server, body)
    assert [n.state for n in ear.notes] == ["revealed", "verified"]
    assert ear.notes[-1].line is not None
    assert ear.notes[-1].line.english == "verified: the commitment, your random part and every shuffle"
    assert link.fair.head() == (server.commitment[:4] + "-" + server.commitment[4:8] + "-" + server.commitment[8:12],
                                True)


def test_the_next_games_nonce_waits_for_its_commitment_and_a_changed_one_raises_the_alarm() -> None:
    match = {"scores": [0, 0], "target": 2, "game": 1, "over": False, "winner": None, "betweenGames": False,
             "ready": [], "nextIn": None}
    published = commitment(bytes([9] * 32), TABLE, 2, first=1)
    dealt_from = commitment(bytes([8] * 32), TABLE, 2, first=1)

    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        nonces = [hello["nonce"], None]
        await ws.send(server.welcome(server.fair(dealt=True, sent=[True, False]), game={"match": match}))
        async for raw in ws:
            msg = json.loads(raw)
            server.received.append(msg)
            if msg["type"] == "next" and len(server.received) == 1:  # too early: game 1 is on; then it ends
                await server.end_game(ws, server.revealed(nonces, next=published), record=False,
                                      final=False, game={"match": {**match, "scores": [1, 0], "betweenGames": True}})
            elif msg["type"] == "next":  # game 2, from another commitment than the one published
                await ws.send(json.dumps({"type": "state", "stateVersion": 2, "view": VIEW, "legal": [],
                                          "last": None, "game": {"match": {**match, "game": 2}},
                                          "fair": server.fair(game=2, commitment=dealt_from, scheme="spite-fair/2",
                                                              first=1)}))

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: link.connected)
        link.next_game()
        await ear.until(lambda: 2 in link.fair.deals)
        link.next_game()
        await ear.until(lambda: bool(ear.alarms()))

    with FakeServer(talk) as server:
        link, ear, _ = play(server, body)
    early, ready = server.received
    assert "nonce" not in early  # no commitment of the next game had been published
    assert ready["nonce"] == link.fair.deals[2].nonce and ready["nonce"] != server.hellos[0]["nonce"]
    assert ear.alarms() == ["Game 2 was dealt from another commitment than the one published at the end of the "
                            "game before: this deal cannot be trusted."]
    assert link.fair.deals[1].revealed  # game 1 itself checked out


# ---------------------------------------------------------------------- the connection
def test_a_refused_token_ends_the_link_with_the_servers_reason() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        await ws.send(json.dumps({"type": "error", "code": "wrong-token", "message": "that token is no seat's",
                                  "words": {"key": "error.wrong-token", "params": {}}}))
        await ws.close(1008)

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: any(s.final for s in ear.statuses))

    with FakeServer(talk) as server:
        _, ear, slept = play(server, body)
    status = final_status(ear)
    assert status.line is not None and status.line.phrase is not None
    assert status.line.phrase.key == "error.wrong-token" and not status.connected
    assert len(server.hellos) == 1 and slept == []  # never again


def test_an_abandoned_table_is_not_reconnected() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        await ws.send(server.welcome(server.fair()))
        await ws.send(json.dumps({"type": "table", "table": server.table_info(server.fair(), "abandoned"),
                                  "event": {"kind": "abandoned", "seat": None, "text": "the table is closed",
                                            "words": {"key": "event.abandoned.deserted", "params": {"s": 600}}}}))
        await ws.close(1000)

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: any(s.final for s in ear.statuses))

    with FakeServer(talk) as server:
        _, ear, slept = play(server, body)
        assert len(server.hellos) == 1 and slept == []
        line = final_status(ear).line
        assert line is not None and line.phrase is not None and line.phrase.key == "event.abandoned.deserted"
        # a table the lobby already calls abandoned: no socket at all
        server.info = server.table_info(server.fair(), "abandoned")
        _, ear, _ = play(server, body)
        assert len(server.hellos) == 1 and final_status(ear).line is not None


def test_old_states_are_dropped_a_gap_is_synced_and_unanswered_moves_are_dropped_on_reconnect() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        if len(server.hellos) == 1:
            await ws.send(server.welcome(server.fair(), version=5))
            async for raw in ws:
                if json.loads(raw)["type"] == "move":
                    ws.transport.abort()  # the move never answered
            return
        await ws.send(server.welcome(server.fair(), version=7))  # the truth after a reconnect
        for version in (6, 8, 11):  # an old state, the next one, and one after a gap
            await ws.send(json.dumps({"type": "state", "stateVersion": version, "view": VIEW, "legal": []}))
        async for raw in ws:
            server.received.append(json.loads(raw))
            if server.received[-1]["type"] == "sync":  # the whole position
                await ws.send(json.dumps({"type": "state", "stateVersion": 11, "view": VIEW, "legal": []}))

    async def body(link: TableLink, ear: Ear) -> None:
        await ear.until(lambda: link.connected)
        link.move("S-B1")
        await ear.until(lambda: ("state", 11) in ear.versions())

    with FakeServer(talk) as server:
        link, ear, _ = play(server, body)
    assert ear.dropped == [[Pending("m1", "move", "S-B1")]] and link.pending == {}
    assert ear.versions() == [("welcome", 5), ("welcome", 7), ("state", 8), ("state", 11)]
    assert server.received == [{"type": "sync"}] and not link.syncing


# ---------------------------------------------------------------------- on the screen
FINAL_VIEW = dict(WELCOME_EXAMPLE["view"], finished=True, result={"winner": 0, "reason": "stock"})


def at_the_table(talk: Any, body: Callable[[SpiteApp, Pilot[Any]], Awaitable[None]]) -> FakeServer:
    """``spite tui --connect`` to ``talk``'s table (a Spite and Malice one: the example's view): the
    command's first hello, then the app's."""
    with FakeServer(talk) as server:
        server.info = {**WELCOME_EXAMPLE["table"], "id": TABLE, "fair": server.fair(dealt=False)}
        remote = connect_table(server.base, TABLE, token="tok")
        run(TuiConfig(remote=remote), body, size=(100, 30))
    return server


def test_the_screen_says_plainly_that_the_commitment_changed() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        await ws.send(server.welcome(server.fair(dealt=True, commitment=OTHER), view=WELCOME_EXAMPLE["view"],
                                     legal=WELCOME_EXAMPLE["legal"]))
        await server.listen(ws)

    seen: dict[str, str] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = next(s for s in app.screen_stack if isinstance(s, RemoteMaliceScreen))
        await wait_for(pilot, lambda: screen.link.connects == 1, 5000)
        await pilot.pause()
        seen["text"] = " ".join(app.screen_text().split())

    server = at_the_table(talk, body)
    short = server.commitment[:4] + "-" + server.commitment[4:8] + "-" + server.commitment[8:12]
    assert f"deal {short} ✗ does not match!" in seen["text"], seen["text"]  # the fingerprint published first
    assert "The server changed its commitment to this deal after you sat down" in seen["text"], seen["text"]


def test_the_summary_shows_the_verify_line_of_a_record_that_does_not_replay() -> None:
    async def talk(server: FakeServer, ws: ServerConnection, hello: dict[str, Any]) -> None:
        await ws.send(server.welcome(server.fair(dealt=True, sent=[True, False]), view=WELCOME_EXAMPLE["view"],
                                     legal=WELCOME_EXAMPLE["legal"]))
        server.info = {**server.info, "fair": server.fair(dealt=True, sent=[True, False])}  # dealt at this hello
        if len(server.hellos) == 2:  # the app's socket (the first hello was the command's, before the app)
            nonces = [server.hellos[0]["nonce"], None]
            server.record = with_one_shuffle_changed(honest_record(TABLE, server.secret, nonces))
            await server.end_game(ws, server.revealed(nonces), view=FINAL_VIEW)
        await server.listen(ws)

    seen: dict[str, str] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = next(s for s in app.screen_stack if isinstance(s, RemoteMaliceScreen))
        shown = lambda: app.screen.text.plain if isinstance(app.screen, SummaryScreen) else ""  # noqa: E731
        # the record fetched, replayed and checked: more than 10 s once on a full machine (four workers)
        await wait_for(pilot, lambda: "does not check out" in shown(), 15000)
        seen["summary"], seen["message"] = shown(), screen.message

    server = at_the_table(talk, body)
    assert "nonce" in server.hellos[0] and "nonce" not in server.hellos[1]  # the deal was made at the first
    assert re.search(r"The record of this game does not check out: not fair: moves\[\d+\], chance entry 2",
                     seen["summary"]), seen["summary"]
    assert "✗ does not match!" in seen["summary"] and "does not check out" in seen["message"]
