"""The table contract, for every registered game with a ``server`` hook (issue 19).

The table host serves every game the same way; these tests hold each game to it, over real
WebSockets: people join, a spectator watches and sees no hidden card, a seat reconnects with its
token, dropped seats are taken over by bots that then play the game to its end, the finished
game's record replays (through the game's own ``from_record``) to the result the table announced,
the replay viewer's positions and the players' statistics count it, and ``kill -9`` of the server
loses no acknowledged move. A game registered later with a server hook is tested by these without
a line more (:data:`SETUPS` only shortens the known games).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerProcess, ServerThread

from spite.games import game_names, get_game, has_hook
from spite.records import record_from_json
from spite.server import ServerConfig
from waiting import bounded

SETUPS: dict[str, tuple[str, dict[str, Any]]] = {
    "spite-malice": ("short", {"stock_size": 4}),
    "spit": ("spit", {"auto_spit_ms": 150, "auto_slap_ms": 150, "rounds_in_a_row": 2, "time_limit_s": 6}),
    "speed": ("speed", {"auto_spit_ms": 150, "time_limit_s": 6}),
}
"""A short game of each known game (any other: its default preset as it is)."""

GAMES = [pytest.param(name, marks=pytest.mark.skipif(not has_hook(name, "server"), reason=f"{name} has no server"))
         for name in game_names()]


def setup_of(game: str) -> tuple[str, dict[str, Any]]:
    return SETUPS.get(game, (get_game(game).default_preset, {}))


def open_table(base: str, game: str) -> tuple[str, list[str]]:
    """A table of ``game`` whose every seat a person took (p0, p1, ...): its id and the seats' tokens."""
    preset, options = setup_of(game)
    seats = get_game(game).seats(preset, options)
    r = httpx.post(base + "/api/tables", json={"game": game, "preset": preset, "options": options, "name": "p0"})
    assert r.status_code == 200, r.text
    created = r.json()
    table_id = created["table"]["id"]
    assert created["table"]["game"] == game and created["seat"] == 0
    tokens = [created["token"]]
    for i in range(1, seats):
        joined = httpx.post(base + f"/api/tables/{table_id}/join", json={"name": f"p{i}"}).json()
        assert joined["seat"] == i, joined
        tokens.append(joined["token"])
    assert httpx.get(base + f"/api/tables/{table_id}").json()["status"] == "playing"
    return table_id, tokens


def drain(client: Client, quiet: float = 0.1) -> None:
    """Read what the client was sent until ``quiet`` seconds pass without a message."""
    for _ in bounded(10_000, "a quiet spell on the socket"):
        try:
            client.recv(quiet)
        except TimeoutError:
            return


def over_in(client: Client) -> dict[str, Any] | None:
    return next((m for m in client.received if m["type"] == "gameOver"), None)


def play_moves(clients: dict[int, Client], rng: random.Random, want: int, timeout: float = 30) -> int:
    """The people play random legal moves of their newest views until ``want`` were acknowledged (or
    the game is over); the number acknowledged."""
    acked = 0
    sent = 0
    deadline = time.monotonic() + timeout
    while acked < want:
        assert time.monotonic() < deadline, f"only {acked} moves acknowledged in {timeout} s"
        for client in clients.values():
            drain(client, 0.02)
            if over_in(client) is not None:
                return acked
            last = client.last_state
            if last is None or not last["legal"] or last["stateVersion"] < client.newest:
                continue
            sent += 1
            msg_id = f"m{sent}"
            client.send({"type": "move", "move": rng.choice(last["legal"]), "stateVersion": last["stateVersion"],
                         "id": msg_id})
            for _ in bounded(1000, f"the answer to move {msg_id}"):
                reply = client.recv(10)
                if reply["type"] in ("ack", "error") and reply.get("id") == msg_id:
                    break
            if reply["type"] == "ack":
                acked += 1
                if acked >= want:
                    break
    return acked


def check_record(base: str, game: str, over: dict[str, Any], player: str, taken_over: bool = False) -> None:
    """The finished game's record replays to the announced result; its positions and the player's
    statistics count it (a game a takeover bot finished in the player's name: marked, not counted)."""
    raw = httpx.get(base + over["recordUrl"]).json()
    assert raw["game"] == game
    record = record_from_json(raw)
    state = get_game(game).from_record(record)
    assert state.is_over and state.result == over["result"] == raw["result"]
    positions = httpx.get(base + f"/api/games/{over['gameId']}/positions").json()
    assert positions["game"] == game and positions["result"] == over["result"]
    assert positions["moves"] and len(positions["positions"]) == len(positions["moves"]) + 1
    stats = httpx.get(base + f"/api/players/{player}/stats").json()["presets"]
    expected = (0, 1) if taken_over else (1, 0)
    assert [(s["game"], s["preset"], s["games"], s["takenOver"]) for s in stats] == [(game, raw["preset"], *expected)]
    if taken_over:  # kept and marked in the player's games, left out of their wins and points
        assert stats[0]["wins"] == 0 and stats[0]["points"] == 0
    listed = httpx.get(base + f"/api/players/{player}/games").json()
    assert [g["id"] for g in listed] == [over["gameId"]]
    assert [p["takenOver"] for p in listed[0]["players"] if p["player"] == player] == [taken_over]


def contract_server(db_url: str, grace: float) -> ServerThread:
    """A server whose dropped seats go to a bot after ``grace`` seconds, with bots that think briefly."""
    return ServerThread(ServerConfig(db_url=db_url, bot_workers=0, grace_seconds=grace, rate=500, burst=1000,
                                     bot_budget=0.05, start_countdown=0.0))


@pytest.fixture
def server(db_url: str) -> Iterator[ServerThread]:
    """10 s of grace. It also runs for seats that have not come yet once the game has begun, and a
    table that nobody is at (no seat, no spectator) when it runs out is closed: on a busy machine a
    table's joins and sockets took more than 1.5 s, and the table was gone before its hellos."""
    with contract_server(db_url, 10.0) as srv:
        yield srv


@pytest.fixture
def takeover_server(db_url: str) -> Iterator[ServerThread]:
    """1.5 s of grace: long enough to reconnect on a busy machine, short enough for the takeover test."""
    with contract_server(db_url, 1.5) as srv:
        yield srv


@pytest.mark.parametrize("game", GAMES)
def test_join_watch_reconnect_takeover_and_the_record(takeover_server: ServerThread, game: str) -> None:
    base = takeover_server.base
    table_id, tokens = open_table(base, game)
    watcher = Client(base, table_id)
    clients = {seat: Client(base, table_id) for seat in range(len(tokens))}
    try:
        # join: each seat is welcomed as itself; the spectator as nobody, with no move to make
        for seat, client in clients.items():
            welcome = client.hello(tokens[seat])
            assert welcome["seat"] == seat and welcome["table"]["game"] == game
        seen = watcher.hello(spectate=True)
        assert seen["seat"] is None and seen["legal"] == []
        rng = random.Random(19)
        play_moves(clients, rng, 3)

        # reconnect: seat 0 comes back on a new connection with its token, where it was
        drain(clients[0])
        before = clients[0].last_state
        assert before is not None
        clients[0].close()
        clients[0] = Client(base, table_id)
        again = clients[0].hello(tokens[0])
        assert again["seat"] == 0 and again["table"]["seats"][0]["status"] == "connected"
        if again["stateVersion"] == before["stateVersion"]:  # (a real-time game may have moved on by itself)
            assert again["view"] == before["view"] and again["legal"] == before["legal"]
        wrong = Client(base, table_id)
        wrong.send({"type": "hello", "token": "not-a-token"})
        assert wrong.until("error")["code"] == "wrong-token"
        wrong.close()

        # every person drops: bots take the seats over and play the game to its end
        for client in clients.values():
            client.close()
        taken: set[int] = set()
        for _ in bounded(100, "a bot in every dropped seat", until=lambda: taken == set(range(len(tokens)))):
            msg = watcher.until("table", timeout=15)
            if msg["event"]["kind"] == "takeover":
                taken.add(msg["event"]["seat"])
                assert msg["table"]["seats"][msg["event"]["seat"]]["status"] == "bot"
        over = watcher.until("gameOver", timeout=60)
        by_bot = [m for m in watcher.received if m["type"] == "state" and m["last"] and m["last"]["byBot"]]
        assert by_bot, "no bot played a dropped seat"

        # the spectator never got a legal move or a token, and what it was sent first and last is exactly
        # the game's spectator view of the deal and of the final position (the record replayed), no more
        raw = httpx.get(base + over["recordUrl"]).json()
        final = get_game(game).from_record(record_from_json(raw))
        states = [m for m in watcher.received if m["type"] in ("welcome", "state")]
        assert all(m["legal"] == [] for m in states)
        assert all(token not in text for text in watcher.raw for token in tokens)
        last = max(states, key=lambda m: m["stateVersion"])
        assert last["stateVersion"] == over["stateVersion"]
        assert last["view"] == final.view(None).to_json()
        start = get_game(game).new(raw["preset"], raw["options"], seed=raw.get("seed"), deal=raw["deal"])
        if seen["stateVersion"] == 0:  # (a real-time game may have moved on by itself before the hello)
            assert seen["view"] == start.view(None).to_json()

        check_record(base, game, over, "p0", taken_over=True)
        info = httpx.get(base + f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["gameId"] == over["gameId"]
    finally:
        for client in (watcher, *clients.values()):
            client.close()


@pytest.mark.timeout(180)  # a server process started twice and killed
@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_kill_9_loses_no_acknowledged_move(db_url: str, game: str) -> None:
    """The server process dies mid-game (``kill -9``); restarted, every seat is welcomed back at the
    last acknowledged position, the game goes on, and bots finish it once the people drop."""
    args = ("--grace", "1.5", "--bot-workers", "0", "--bot-budget", "0.05", "--rate", "2000")
    server = ServerProcess(db_url, None, *args).start()
    clients: dict[int, Client] = {}
    try:
        table_id, tokens = open_table(server.base, game)
        clients = {seat: Client(server.base, table_id) for seat in range(len(tokens))}
        for seat, client in clients.items():
            client.hello(tokens[seat])
        rng = random.Random(9)
        assert play_moves(clients, rng, 4) == 4
        acked = max(m["stateVersion"] for c in clients.values() for m in c.received if m["type"] == "ack")
        for client in clients.values():
            # every seat hears of the last acknowledged move (on a loaded machine the broadcast may
            # trail its ack by more than a quiet spell), then whatever follows it
            deadline = time.monotonic() + 15
            while client.last_state is None or client.last_state["stateVersion"] < acked:
                assert time.monotonic() < deadline, f"the last acknowledged move ({acked}) was not told in 15 s"
                client.recv(max(0.01, deadline - time.monotonic()))
            drain(client, 0.3)
        before = {seat: client.last_state for seat, client in clients.items()}
        heard = {seat: told(client.received) for seat, client in clients.items()}

        server.kill9()
        for client in clients.values():
            client.close()
        server = ServerProcess(db_url, None, *args).start()
        clients = {seat: Client(server.base, table_id) for seat in range(len(tokens))}
        for seat, client in clients.items():
            try:
                welcome = client.hello(tokens[seat])
            except AssertionError as refused:  # why the restarted server would not have this seat back
                raise AssertionError(f"{refused}\nthe restarted server said: {server.said()[-3000:]}") from None
            old = before[seat]
            assert old is not None
            assert welcome["stateVersion"] == old["stateVersion"] >= acked
            assert welcome["view"] == old["view"] and welcome["legal"] == old["legal"]
            # the moves so far, replayed from the database, as they were told before the crash
            assert logged(welcome["moveLog"])[:len(heard[seat])] == heard[seat] != []
        play_moves(clients, rng, 2)
        for client in clients.values():
            client.close()
        watcher = Client(server.base, table_id)
        watcher.hello(spectate=True)
        over = over_in(watcher) or watcher.until("gameOver", timeout=60)
        watcher.close()
        check_record(server.base, game, over, "p0", taken_over=True)  # the bots finished it
    finally:
        for client in clients.values():
            client.close()
        server.stop()


def told(messages: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What the ``state`` messages told of the moves: each move's seat and text, and in a real-time
    game every event (its time, kind, seat and text), in order."""
    out: list[tuple[Any, ...]] = []
    for msg in messages:
        if msg["type"] != "state":
            continue
        if msg.get("game", {}).get("events") is not None:
            out.extend((e["t"], e["kind"], e["seat"], e["text"]) for e in msg["game"]["events"])
        elif msg["last"] and not msg["last"].get("undone"):
            out.append((msg["last"]["seat"], msg["last"]["move"]))
    return out


def logged(steps: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The same of a ``welcome``'s ``moveLog``."""
    out: list[tuple[Any, ...]] = []
    for step in steps:
        if "event" in step or step.get("undone"):  # the table's events and the undos are no steps
            continue
        game = step.get("game", {})
        if "events" not in game:
            out.append((step["seat"], step["move"]))
            continue
        if step["move"] is not None:
            out.append((game["t"], "move", step["seat"], step["move"]))
        out.extend((e["t"], e["kind"], e["seat"], e["text"]) for e in game["events"])
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_page_opened_mid_game_gets_the_moves_so_far(server: ServerThread, game: str) -> None:
    """The ``welcome``'s ``moveLog`` is the game so far exactly as a spectator who watched from the
    start was told it (so a page opened now rebuilds its log), nothing more: no hidden card, no
    chance entry; the same for a seat and for a spectator, and it is empty before the first move."""
    base = server.base
    table_id, tokens = open_table(base, game)
    watcher = Client(base, table_id)
    clients = {seat: Client(base, table_id) for seat in range(len(tokens))}
    late: list[Client] = []
    try:
        first = watcher.hello(spectate=True)
        for seat, client in clients.items():
            client.hello(tokens[seat])
        # before the first move: the table's events only (the seats taken, the start)
        assert logged(first["moveLog"]) == [] and "moveLogStart" not in first
        assert all("event" in step for step in first["moveLog"])
        assert play_moves(clients, random.Random(5), 8) >= 1
        drain(watcher, 0.3)
        late = [Client(base, table_id), Client(base, table_id)]
        seen = late[0].hello(spectate=True)
        back = late[1].hello(tokens[0])
        drain(watcher, 0.3)
        # the watcher heard of every move the late pages were told of (it may have heard more since)
        heard = told([m for m in watcher.received if m["type"] != "state" or m["stateVersion"] <= seen["stateVersion"]])
        assert logged(seen["moveLog"]) == heard
        assert len(heard) >= 1
        assert back["moveLog"][:len(seen["moveLog"])] == seen["moveLog"]
        for step in seen["moveLog"]:
            assert set(step) <= {"seat", "move", "game", "undone", "event"}
            assert set(step.get("game", {})) <= {"t", "events", "card", "wildAs", "completed"}
            assert all(set(e) <= {"t", "kind", "seat", "text", "auto"} for e in step.get("game", {}).get("events", []))
    finally:
        for client in (watcher, *clients.values(), *late):
            client.close()
