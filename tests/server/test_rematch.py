"""Issue 20, play with people: a rematch at the same table link (every person asked, a series score
that survives a restart), quick play for party and partner presets against bots, and statistics
that leave out the games a takeover bot finished in a person's name."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerThread
from test_protocol import play_random, two_person_table

from spite.server import ServerConfig
from spite.server.protocol import (
    Ack,
    ErrorMessage,
    GameOver,
    Pong,
    RematchState,
    StateMessage,
    TableMessage,
    Welcome,
)

MODELS = {"welcome": Welcome, "state": StateMessage, "ack": Ack, "table": TableMessage, "gameOver": GameOver,
          "pong": Pong, "error": ErrorMessage, "rematch": RematchState}


def check_models(client: Client) -> None:
    """Every message the server sent is exactly one of its models (no field more)."""
    for msg in client.received:
        MODELS[msg["type"]].model_validate(msg)


def to_the_end(clients: dict[int, Client], seed: int) -> dict[int, dict[str, Any]]:
    """Random legal moves until the game ends; every client's ``gameOver``."""
    play_random(clients, random.Random(seed))
    return {seat: c.until("gameOver", timeout=20) for seat, c in clients.items()}


def table_event(client: Client, kind: str, text: str, seat: int | None = None, timeout: float = 10) -> dict[str, Any]:
    """The next ``table`` message whose event is ``kind``; its ``seat`` and English ``text`` checked
    (an event may carry more fields, such as the words for other languages)."""
    deadline = time.monotonic() + timeout
    while True:
        msg = client.until("table", timeout=max(0.1, deadline - time.monotonic()))
        if msg["event"]["kind"] == kind:
            assert msg["event"]["seat"] == seat and msg["event"]["text"] == text, msg["event"]
            return msg


def new_game_state(client: Client, after: int) -> dict[str, Any]:
    """The first ``state`` of the rematch: the version after the finished game's, nothing finished."""
    state = client.until("state", timeout=10)
    assert state["stateVersion"] == after + 1 and not state["view"]["finished"], state
    assert state["last"] is None
    return state


def test_rematch_with_a_friend_at_the_same_table(server: ServerThread) -> None:
    base = server.base
    table_id, tokens = two_person_table(server)
    ann, bob, watcher = Client(base, table_id), Client(base, table_id), Client(base, table_id)
    ann.hello(tokens[0])
    bob.hello(tokens[1])
    watcher.hello(spectate=True)
    try:
        overs = to_the_end({0: ann, 1: bob}, 3)
        first = overs[0]
        winner = first["result"].get("winner")
        assert overs[1] == first and watcher.until("gameOver") == first
        # both persons are asked; the series counts the game
        assert first["rematch"] == {"ready": [], "waiting": [0, 1], "declined": []}
        assert first["series"]["games"] == 1 and first["series"]["gameIds"] == [first["gameId"]]
        assert first["series"]["wins"] == [int(winner == 0), int(winner == 1)]

        # a spectator is not asked; a rematch before the end is refused (another table, in play)
        watcher.send({"type": "rematch"})
        assert watcher.until("error")["code"] == "not-your-seat"

        # bob says no first, then ann yes: nothing begins, both are told who said what
        bob.send({"type": "rematch", "accept": False})
        said_no = ann.until("rematch")
        assert said_no["rematch"] == {"ready": [], "waiting": [0], "declined": [1]}
        assert [m for m in ann.received if m["type"] == "table"][-1]["event"]["kind"] == "rematch-no"
        ann.send({"type": "rematch"})
        asked = bob.until("rematch", rematch={"ready": [0], "waiting": [], "declined": [1]})
        assert asked["series"]["games"] == 1
        assert httpx.get(base + f"/api/tables/{table_id}").json()["status"] == "finished"

        # bob changes his mind: the new game begins at the same table, same seats, next version
        bob.send({"type": "rematch", "id": "r1"})
        for c in (ann, bob, watcher):
            told = table_event(c, "rematch", "everyone wants a rematch: game 2 at this table begins")
            assert told["table"]["id"] == table_id and told["table"]["status"] == "playing"
            assert [(s["player"], s["kind"]) for s in told["table"]["seats"]] == [("ann", "person"), ("bob", "person")]
            assert told["table"]["series"]["games"] == 1
            state = new_game_state(c, first["stateVersion"])
        to_move = state["view"]["to_move"]
        assert [c.last_state["legal"] != [] for c in (ann, bob)] == [to_move == 0, to_move == 1]  # type: ignore[index]
        assert httpx.get(base + f"/api/tables/{table_id}").json()["status"] == "playing"

        # the second game is stored as a game of its own; the series goes on
        second = to_the_end({0: ann, 1: bob}, 4)[0]
        assert second["gameId"] != first["gameId"] and second["stateVersion"] > first["stateVersion"]
        assert second["series"]["games"] == 2 and second["series"]["gameIds"] == [first["gameId"], second["gameId"]]
        assert sum(second["series"]["wins"]) == sum(first["series"]["wins"]) + int(
            second["result"].get("winner") is not None)
        info = httpx.get(base + f"/api/tables/{table_id}").json()
        assert info["status"] == "finished" and info["series"] == second["series"]
        games = httpx.get(base + "/api/players/ann/games").json()
        assert [g["id"] for g in games] == [second["gameId"], first["gameId"]]
        assert {g["tableId"] for g in games} == {table_id}
        for c in (ann, bob, watcher):
            check_models(c)
    finally:
        for c in (ann, bob, watcher):
            c.close()


def test_rematch_against_a_bot_survives_a_restart(db_url: str) -> None:
    config = ServerConfig(db_url=db_url, bot_workers=0, grace_seconds=30.0, rate=1000, burst=2000)
    with ServerThread(config) as server:
        r = httpx.post(server.base + "/api/quickplay", json={"name": "cat", "level": "easy", "preset": "short"}).json()
        table_id, token = r["table"]["id"], r["token"]
        cat = Client(server.base, table_id)
        cat.hello(token)
        first = to_the_end({0: cat}, 5)[0]
        assert first["rematch"] == {"ready": [1], "waiting": [0], "declined": []}  # the bot agrees at once
        cat.send({"type": "rematch"})
        new_game_state(cat, first["stateVersion"])
        second = to_the_end({0: cat}, 6)[0]
        assert second["series"]["games"] == 2
        cat.close()
    # the server stops (as a restart would): the finished table is only in the database
    with ServerThread(config) as server:
        stored = httpx.get(server.base + f"/api/tables/{table_id}").json()
        assert stored["status"] == "finished" and stored["series"] == second["series"]
        cat = Client(server.base, table_id)
        welcome = cat.hello(token)
        assert welcome["table"]["status"] == "finished" and welcome["table"]["series"] == second["series"]
        again = cat.until("gameOver")
        assert again["gameId"] == second["gameId"] and again["rematch"]["waiting"] == [0]
        cat.send({"type": "rematch"})
        state = new_game_state(cat, second["stateVersion"])
        assert state["view"]["players"][0]["hand"] is not None
        third = to_the_end({0: cat}, 7)[0]
        assert third["series"]["games"] == 3 and len(set(third["series"]["gameIds"])) == 3
        # a wrong token still brings nothing back; a stranger sees no finished table
        eve = Client(server.base, table_id)
        eve.send({"type": "hello", "token": "x" * 32})
        assert eve.until("error")["code"] == "wrong-token"
        check_models(cat)
        cat.close()


@pytest.mark.parametrize(("preset", "seats"), [("party", 3), ("partners", 4)])
def test_quick_play_party_and_partners_against_bots(server: ServerThread, preset: str, seats: int) -> None:
    r = httpx.post(server.base + "/api/quickplay", json={"name": "dan", "level": "easy", "preset": preset})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["status"] == "playing" and table["preset"] == preset and len(table["seats"]) == seats
    assert table["seats"][0] == {"seat": 0, "kind": "person", "level": None, "player": "dan", "status": "disconnected",
                                 "botLevel": None}
    assert all(s["kind"] == "bot" and s["level"] == "easy" for s in table["seats"][1:])
    dan = Client(server.base, table["id"])
    welcome = dan.hello(r.json()["token"])
    assert len(welcome["view"]["players"]) == seats
    # the bots play their turns: every other seat moves in turn while dan plays his (a turn of dan's may be
    # many moves, and any seat may begin, so dan plays move by move until each bot has moved or the game ends)
    rng = random.Random(8)

    def movers() -> set[int]:
        return {m["last"]["seat"] for m in dan.received if m["type"] == "state" and m["last"]}

    for _ in range(300):
        if movers() >= set(range(1, seats)) or dan.last_state["view"]["finished"]:  # type: ignore[index]
            break
        play_random({0: dan}, rng, limit=1)
    assert movers() >= set(range(1, seats)) or dan.last_state["view"]["finished"]  # type: ignore[index]
    dan.close()


def test_quick_play_takes_any_game_from_the_registry(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/quickplay", json={"name": "eli", "game": "spit"})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["game"] == "spit" and [s["kind"] for s in table["seats"]] == ["person", "bot"]
    assert table["seats"][1]["level"] == "club"  # the game's own default level
    bad = httpx.post(server.base + "/api/quickplay", json={"preset": "no-such-preset"})
    assert bad.status_code == 400 and "no-such-preset" in bad.json()["detail"]
    wrong = httpx.post(server.base + "/api/quickplay", json={"game": "spit", "level": "medium"})
    assert wrong.status_code == 400


def test_statistics_leave_out_games_a_takeover_bot_finished(server: ServerThread) -> None:
    base = server.base
    table_id, tokens = two_person_table(server)
    ann, bob = Client(base, table_id), Client(base, table_id)
    ann.hello(tokens[0])
    bob.hello(tokens[1])
    ann.close()
    table_event(bob, "disconnected", "ann dropped from seat 0; a bot takes over in 2 s", seat=0)
    took = bob.until("table", timeout=10)
    assert took["event"]["kind"] == "takeover"
    over = to_the_end({1: bob}, 9)[1]
    games = httpx.get(base + "/api/players/ann/games").json()
    assert [g["id"] for g in games] == [over["gameId"]]
    assert [(p["player"], p["takenOver"]) for p in games[0]["players"]] == [("ann", True), ("bob", False)]
    (ann_row,) = httpx.get(base + "/api/players/ann/stats").json()["presets"]
    assert ann_row["preset"] == "short" and ann_row["games"] == 0 and ann_row["wins"] == 0
    assert ann_row["takenOver"] == 1 and ann_row["points"] == 0
    (bob_row,) = httpx.get(base + "/api/players/bob/stats").json()["presets"]
    assert bob_row["games"] == 1 and bob_row["takenOver"] == 0
    assert bob_row["wins"] == int(over["result"].get("winner") == 1)

    # no new game starts in ann's name while she is away: her seat waits for her own answer
    assert over["rematch"] == {"ready": [], "waiting": [0, 1], "declined": []}
    bob.send({"type": "rematch"})
    assert bob.until("rematch")["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
    ann = Client(base, table_id)
    ann.hello(tokens[0])
    assert ann.until("gameOver")["rematch"]["waiting"] == [0]
    table_event(bob, "returned", "ann is back at seat 0; the bot leaves", seat=0)
    ann.send({"type": "rematch"})
    told = table_event(bob, "rematch", "everyone wants a rematch: game 2 at this table begins")
    assert [s["status"] for s in told["table"]["seats"]] == ["connected", "connected"]
    new_game_state(bob, over["stateVersion"])
    for c in (ann, bob):
        c.close()


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_rematch_of_a_real_time_game_against_a_bot(server: ServerThread, game: str) -> None:
    """The same host and messages serve Spit and Speed: quick play, the end, a rematch at the same
    table (the bot agrees at once) whose clock starts from 0 again, and the series."""
    from test_spit_tables import TAKEOVER_OPTIONS, play_until_over

    r = httpx.post(server.base + "/api/quickplay", json={"name": "fay", "game": game, "level": "reflex:40",
                                                        "options": TAKEOVER_OPTIONS[game]})
    assert r.status_code == 200, r.text
    table_id = r.json()["table"]["id"]
    fay = Client(server.base, table_id)
    try:
        fay.hello(r.json()["token"])
        first = play_until_over({0: fay}, random.Random(13))
        assert first["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
        assert first["series"]["games"] == 1
        fay.send({"type": "rematch"})
        told = table_event(fay, "rematch", "everyone wants a rematch: game 2 at this table begins")
        assert told["table"]["id"] == table_id and told["table"]["game"] == game
        state = new_game_state(fay, first["stateVersion"])
        assert state["clock"]["now"] < 1000 and state["clock"]["phase"] == "play"
        second = play_until_over({0: fay}, random.Random(14))
        assert second["stateVersion"] > state["stateVersion"] and second["gameId"] != first["gameId"]
        assert second["series"]["games"] == 2
        record = httpx.get(server.base + second["recordUrl"]).json()
        assert record["game"] == game and record["seed"] != httpx.get(server.base + first["recordUrl"]).json()["seed"]
        check_models(fay)
    finally:
        fay.close()


def test_rematch_of_a_match_starts_a_new_match(server: ServerThread) -> None:
    """At a match table the question comes once the match is over (not between its games), the
    series counts the match once (for its winner), and the rematch is a new match from 0 points."""
    q = httpx.post(server.base + "/api/quickplay", json={"name": "cat", "level": "easy", "preset": "classic",
                                                        "options": {"match_target": 2, "stock_size": 2}}).json()
    cat = Client(server.base, q["table"]["id"])
    cat.hello(q["token"])
    rng = random.Random(21)
    games = 0
    while True:
        play_random({0: cat}, rng)
        over = cat.until("gameOver")
        games += 1
        if over["match"]["over"]:
            break
        assert "rematch" not in over and "series" not in over  # between the match's games: no question
        cat.send({"type": "rematch"})
        assert cat.until("error")["code"] == "no-rematch"
        cat.send({"type": "next"})
        cat.until("state", stateVersion=over["stateVersion"] + 1)
    winner = over["match"]["winner"]
    assert over["series"]["games"] == 1 and over["series"]["wins"] == [int(winner == 0), int(winner == 1)]
    assert len(over["series"]["gameIds"]) == 1 and over["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
    cat.send({"type": "rematch"})
    state = new_game_state(cat, over["stateVersion"])
    assert state["match"]["scores"] == [0, 0] and state["match"]["game"] == 1 and not state["match"]["over"]
    check_models(cat)
    cat.close()
