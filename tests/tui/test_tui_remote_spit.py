"""``spite tui --connect`` at a Spit or Speed table of a real server (a subprocess): moves by key
presses, the server's answers (``ack`` with ``t``, ``illegal``, ``too-late``) on the screen."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from textual.pilot import Pilot
from tui_helpers import QuietLink, count_setups, run, type_keys, wait_for

from spite.cards import RANK_TOKENS, RANKS, parse_card
from spite.fairness import commitment, fingerprint
from spite.spit.tui.remote import SPIT_WELCOME_EXAMPLE, RemoteSpeedTable, RemoteSpitTable
from spite.spit.tui.screen import RemoteSpitScreen, SpitScreen
from spite.spit.tui.speed_screen import RemoteSpeedScreen
from spite.tui.app import SpiteApp, TuiConfig
from spite.tui.link import TableLink, connect_table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_helpers import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("remote-spit") / "spite.db"
    proc = ServerProcess(f"sqlite:///{db}", None, "--bot-workers", "0", "--bot-delay", "0", "--rate", "200").start()
    try:
        yield proc
    finally:
        proc.stop()


def create(server: ServerProcess, game: str = "spit") -> dict[str, Any]:
    answer = httpx.post(server.base + "/api/tables", json={
        "game": game, "options": {"auto_spit_ms": 300}, "name": "ann",
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "reflex:2000"}]}, timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()  # type: ignore[no-any-return]


def keys_of(move: str) -> list[str]:
    """The keys of a Spit move: ``T2-C1`` → 2 q, ``T1-T3`` → 1 3, ``spit`` → space, ``slap C2`` → w."""
    if move == "spit":
        return ["space"]
    if move.startswith("slap C"):
        return ["qwe"[int(move[-1]) - 1]]
    source, target = move.split("-")
    second = "qwe"[int(target[1]) - 1] if target[0] == "C" else target[1]
    return [source[1], second]


def screen_of(app: SpiteApp) -> RemoteSpitScreen:
    for screen in app.screen_stack:
        if isinstance(screen, RemoteSpitScreen):
            return screen
    raise AssertionError(app.screen_stack)


def test_play_spit_moves_at_a_server_table_by_keys(server: ServerProcess) -> None:
    created = create(server)
    table_id, token = created["table"]["id"], created["token"]
    remote = connect_table(server.base, table_id, token=token)
    assert isinstance(remote, RemoteSpitTable) and remote.seat == 0 and remote.level == "reflex:2000"
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        table = screen.table
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        assert "Spit · Round 1" in app.screen_text() and "P1 (you)" in app.screen_text()
        # a card that fits no center: the server says why, in the screen's words (its names, its suit symbols)
        # (Spit is real time: the bot may change a center between the look and the keys, so that the
        # card fits after all and is acknowledged; then another card is tried)
        for _ in range(5):
            view = table.view()
            bad = next((f"T{i + 1}-C{j + 1}" for i, p in enumerate(view.players[0].tableau) if p.cards
                        for j in range(len(view.centers)) if f"T{i + 1}-C{j + 1}" not in table.legal), None)
            if bad is None:
                break
            acked_before = len(table.acked)
            await type_keys(pilot, *keys_of(bad))
            await wait_for(pilot, lambda: bool(table.refused) or len(table.acked) > acked_before, 5000)  # noqa: B023
            if table.refused:
                code, text = table.refused[-1]
                assert code in ("illegal", "too-late")
                await wait_for(pilot, lambda: screen.words(text)[:40] in app.screen_text().replace("\n", " "), 500)  # noqa: B023
                seen["refused"] = text
                break
        # three moves of the legal list, by keys; each acknowledged with its game time
        played: list[str] = []
        for _ in range(40):
            if len(table.acked) >= 3 or table.over:
                break
            await wait_for(pilot, lambda: bool(table.legal) and table.pending is None, 5000)
            legal = table.legal
            move = next((m for m in legal if "-C" in m), next((m for m in legal if "-T" in m), legal[0]))
            acked, refused = len(table.acked), len(table.refused)
            await type_keys(pilot, *keys_of(move))
            await wait_for(pilot, lambda: len(table.acked) > acked or len(table.refused) > refused, 5000)  # noqa: B023
            if len(table.acked) > acked:
                played.append(move)
        seen["played"], seen["acked"] = played, list(table.acked)
        # the board follows the server: the first acked move's event is in the log line
        await wait_for(pilot, lambda: any(e.kind == "move" and e.seat == 0 for e in table.events), 2000)
        # a lost race: the engine's reason shows for a moment, then goes
        screen.FLASH_SECONDS = 0.3
        screen.link_message({"type": "error", "code": "too-late", "message": "too late: center 1 is now 7S", "id": "x"})
        assert "too late: center 1 is now 7♠" in app.screen_text()
        await wait_for(pilot, lambda: "too late: center 1" not in app.screen_text(), 2000)

    run(TuiConfig(remote=remote), body)
    assert len(seen["played"]) >= 3 and seen["refused"], seen
    assert [m for m, _ in seen["acked"]][:3] == seen["played"][:3]
    assert all(t >= 0 for _, t in seen["acked"])
    info = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
    assert info["game"] == "spit" and info["stateVersion"] >= 3


def test_seat_two_is_drawn_at_the_bottom() -> None:
    table = RemoteSpitTable.from_welcome(TableLink("http://h:1", "s9", "t"), SPIT_WELCOME_EXAMPLE)
    view = table.view()
    # seat 1's own cards (4S) are players[0] of the screen's view
    assert view.players[0].tableau[0].top == parse_card("4S") and view.players[1].tableau[0].top == parse_card("KD")
    table.handle({"type": "state", "stateVersion": 2, "view": SPIT_WELCOME_EXAMPLE["view"], "legal": [],
                  "game": {"events": [{"t": 5, "kind": "round-won", "seat": 1, "text": "emptied"}],
                           "clock": {"now": 5, "phase": "slap", "playFrom": 0, "roundWinner": 1, "roundsWon": [0, 1]}}})
    view = table.view()
    assert view.round_winner == 0 and view.players[0].rounds_won == 1 and table.events[-1].seat == 0
    # a reconnect's welcome says the count as the server keeps it
    table.handle({**SPIT_WELCOME_EXAMPLE, "stateVersion": 9,
                  "game": {"clock": {"now": 9, "phase": "play", "playFrom": 0, "roundsWon": [2, 1]}}})
    assert [p.rounds_won for p in table.view().players] == [1, 2]


def test_play_speed_moves_at_a_server_table_by_keys(server: ServerProcess) -> None:
    """A Speed table: the hand by keys 1-5, then Q/W; the server acknowledges; the bot's hand stays hidden."""
    created = create(server, game="speed")
    table_id, token = created["table"]["id"], created["token"]
    remote = connect_table(server.base, table_id, token=token)
    assert isinstance(remote, RemoteSpeedTable) and remote.seat == 0
    seen: dict[str, Any] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = next(s for s in app.screen_stack if isinstance(s, RemoteSpeedScreen))
        table = screen.table
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        text = app.screen_text()
        assert "Speed · " in text and "P1" in text and "Draw" in text and "Side" in text
        view = table.view()
        assert view.players[1].hand is None and len(view.players[0].hand or ()) == 5
        assert text.count("▒▒▒") == view.players[1].hand_size == 5
        # the side piles, worked out from the counts: one deck, none held twice
        assert sum(p.cards + p.side for p in view.players) + sum(c.cards for c in view.centers) == 52
        played: list[str] = []
        for _ in range(40):
            if len(table.acked) >= 3 or table.over:
                break
            await wait_for(pilot, lambda: any("-C" in m for m in table.legal) and table.pending is None, 5000)
            move = next(m for m in table.legal if "-C" in m)
            rank = move[1:move.index("-")]
            slot = next(i for i, c in enumerate(screen.slots) if c is not None and RANK_TOKENS[RANKS[c]] == rank)
            acked, refused, version = len(table.acked), len(table.refused), table.version
            await type_keys(pilot, str(slot + 1), "qw"[int(move[-1]) - 1])
            # answered; or the computer's move came first and changed the hand or the centers, so the
            # screen kept the keys to itself (that card fits nowhere now): then the next try
            await wait_for(pilot, lambda: len(table.acked) > acked or len(table.refused) > refused  # noqa: B023
                           or (table.pending is None and table.version != version), 5000)  # noqa: B023
            if len(table.acked) > acked:
                played.append(move)
        seen["played"], seen["acked"] = played, [m for m, _ in table.acked]
        await wait_for(pilot, lambda: any(e.kind == "move" and e.seat == 0 for e in table.events), 2000)
        seen["log"] = app.screen_text()

    run(TuiConfig(remote=remote), body)
    assert len(seen["played"]) >= 3 and seen["acked"][:3] == seen["played"][:3], seen
    assert re.search(r"P1 \(you\): \S+ from the hand onto center pile \d", seen["log"])  # this seat's moves, in words
    info = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=10).json()
    assert info["game"] == "speed" and info["stateVersion"] >= 3


def test_a_server_spit_table_starts_one_drawing_timer(server: ServerProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen starts its clock and drawing timer once when it opens, so it is drawn once a tick,
    not twice (Textual calls each class's ``on_mount`` itself)."""
    setups = count_setups(monkeypatch, SpitScreen)
    created = create(server)
    remote = connect_table(server.base, created["table"]["id"], token=created["token"])

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        await wait_for(pilot, lambda: screen.link is not None and screen.link.connects == 1, 5000)
        ticking = [t for t in screen._timers if getattr(t, "_callback", None) == screen.tick]
        assert setups == [screen] and len(ticking) == 1

    run(TuiConfig(remote=remote), body)
    assert len(setups) == 1


def test_a_spit_table_says_at_the_end_that_the_deal_did_not_check_out() -> None:
    """No summary in Spit: at the end the message line keeps what the deal's checks found (here a
    revealed secret that does not give the commitment published before the deal), the head line ✗."""
    committed = commitment(bytes(range(32)), "s9", 1)
    fair = {"game": 1, "commitment": committed, "dealt": True, "sent": [False, True]}
    welcome = {**SPIT_WELCOME_EXAMPLE, "fair": fair}
    link = QuietLink(welcome)
    remote = RemoteSpitTable.from_welcome(link, welcome)
    seen: dict[str, str] = {}

    async def body(app: SpiteApp, pilot: Pilot[Any]) -> None:
        screen = screen_of(app)
        revealed = {**fair, "secret": bytes(32).hex(), "nonces": [None, None]}
        final = dict(SPIT_WELCOME_EXAMPLE["view"], finished=True, result={"winner": 1, "reason": "out of cards"})
        link.receive({"type": "state", "stateVersion": 2, "view": final, "legal": [], "fair": revealed,
                      "game": {"events": [{"t": 9, "kind": "game-over", "seat": 1, "text": "out of cards"}],
                               "clock": {"now": 9, "phase": "over", "playFrom": 0}}})
        link.receive({"type": "gameOver", "stateVersion": 2, "result": {"winner": 1, "reason": "out of cards"},
                      "gameId": None, "recordUrl": None, "fair": revealed})
        await wait_for(pilot, lambda: "does not give" in " ".join(app.screen_text().split()), 2000)
        await wait_for(pilot, lambda: not screen.table.fresh, 2000)  # the game-over event drawn too
        seen["text"] = " ".join(app.screen_text().split())

    run(TuiConfig(remote=remote), body, size=(120, 30))  # the head line with the fingerprint needs the width
    assert "The revealed secret does not give the commitment published before the deal" in seen["text"], seen
    assert f"deal {fingerprint(committed)} ✗ does not match!" in seen["text"], seen
    assert "Game over: P1 (you) wins" in seen["text"], seen
