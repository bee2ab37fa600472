"""Crash recovery: the real server in a subprocess, ``kill -9`` mid-game, restart, play on to the end;
and a finished table brought back from the database by its person's hello after a restart.

(What a restarted table is made of, in memory: tests/server/test_table_*.py with the harness's
``restart``.)"""

from __future__ import annotations

import random

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import Client, ServerProcess, ServerThread, latest_state
from test_protocol import check_models, play_random

from helpers import finished_table
from spite.records import record_from_json, replay
from spite.server import ServerConfig, db
from spite.server.db import make_engine
from waiting import wait_until

SMALL = {"stock_size": 8}
ARGS = ("--grace", "30", "--bot-workers", "0", "--bot-delay", "0.02", "--rate", "2000")


def stored(db_url: str, table_id: str) -> tuple[str, int]:
    """A table's status and the number of its moves, as stored in the database."""
    engine = make_engine(db_url)
    try:
        with engine.connect() as conn:
            status = conn.execute(sa.select(db.tables.c.status).where(db.tables.c.id == table_id)).scalar()
            plies = conn.execute(sa.select(sa.func.count()).select_from(db.moves)
                                 .where(db.moves.c.table_id == table_id)).scalar()
    finally:
        engine.dispose()
    return str(status), int(plies or 0)


def wait_finished(base: str, table_id: str, timeout: float = 40) -> dict[str, object]:
    return finished_table(base, table_id, timeout)


@pytest.mark.timeout(180)  # a server process started twice, games played to their end
@pytest.mark.slow
def test_kill_9_and_play_on(db_url: str) -> None:
    server = ServerProcess(db_url, None, *ARGS).start()
    try:
        base = server.base
        # a table of two people
        created = httpx.post(base + "/api/tables", json={"preset": "short", "options": SMALL, "name": "ann"}).json()
        table_a = created["table"]["id"]
        joined = httpx.post(base + f"/api/tables/{table_a}/join", json={"name": "bob"}).json()
        tokens = [created["token"], joined["token"]]
        ann, bob = Client(base, table_a), Client(base, table_a)
        ann.hello(tokens[0])
        bob.hello(tokens[1])
        rng = random.Random(11)
        play_random({0: ann, 1: bob}, rng, limit=15)
        # a quick game against a bot, and a table of bots alone
        quick = httpx.post(base + "/api/quickplay", json={"name": "cat", "level": "easy", "preset": "short",
                                                          "options": SMALL}).json()
        cat = Client(base, quick["table"]["id"])
        cat.hello(quick["token"])
        play_random({0: cat}, rng, limit=6)
        # (a longer stock, so that the bots are still playing at the kill below)
        bots = httpx.post(base + "/api/tables", json={"preset": "short", "options": {"stock_size": 20}, "join": False,
                                                      "seats": [{"kind": "bot", "level": "easy"},
                                                                {"kind": "bot", "level": "random"}]}).json()
        wait_until(lambda: stored(db_url, bots["id"])[1] > 0, "the bots' first stored move")
        for c in (ann, bob):  # read everything sent so far (nobody moves at their table now)
            for _ in range(1000):
                try:
                    c.recv(0.1)
                except TimeoutError:
                    break
            else:
                raise AssertionError("the table kept sending with nobody moving")
        before_a = {0: ann.last_state, 1: bob.last_state}
        before_cat = latest_state(cat)

        server.kill9()
        for c in (ann, bob, cat):
            c.close()
        status, plies = stored(db_url, bots["id"])
        assert status == "playing" and plies > 0, "the bots' table should be mid-game at the kill"

        server = ServerProcess(db_url, None, *ARGS).start()
        base = server.base
        # every seat goes on exactly where it was
        ann, bob, cat = Client(base, table_a), Client(base, table_a), Client(base, quick["table"]["id"])
        for client, token, before in ((ann, tokens[0], before_a[0]), (bob, tokens[1], before_a[1]),
                                      (cat, quick["token"], before_cat)):
            assert before is not None
            welcome = client.hello(token)
            assert welcome["stateVersion"] == before["stateVersion"]
            assert welcome["view"] == before["view"] and welcome["legal"] == before["legal"]
        play_random({0: ann, 1: bob}, rng)
        over_a = ann.until("gameOver")
        play_random({0: cat}, rng)
        over_cat = cat.until("gameOver")
        info = wait_finished(base, bots["id"])
        for game_id, result in ((over_a["gameId"], over_a["result"]), (over_cat["gameId"], over_cat["result"]),
                                (info["gameId"], None)):
            record = httpx.get(base + f"/api/games/{game_id}/record").json()
            check = replay(record_from_json(record)).check()
            assert check["finished"]
            if result is not None:
                assert check["result"] == result
        assert httpx.get(base + "/api/players/ann/stats").json()["presets"][0]["games"] == 1
    finally:
        server.stop()


def test_a_finished_table_comes_back_for_its_person_after_a_restart(db_url: str) -> None:
    """A finished table leaves memory; after a restart its person's hello brings it back from the
    database, with the final position, the rematch question and the series (the rematch's own rules:
    tests/server/test_table_games.py)."""
    config = ServerConfig(db_url=db_url, bot_workers=0, grace_seconds=30.0, rate=1000, burst=2000)
    body = {"name": "cat", "level": "easy", "preset": "short", "options": {"stock_size": 3}}
    with ServerThread(config) as server:
        r = httpx.post(server.base + "/api/quickplay", json=body).json()
        table_id, token = r["table"]["id"], r["token"]
        cat = Client(server.base, table_id)
        cat.hello(token)
        play_random({0: cat}, random.Random(5))
        first = cat.until("gameOver")
        assert first["series"]["games"] == 1 and first["rematch"]["waiting"] == [0]
        cat.close()
    # the server stops (as a restart would): the finished table is only in the database
    with ServerThread(config) as server:
        stored = httpx.get(server.base + f"/api/tables/{table_id}").json()
        assert stored["status"] == "finished" and stored["series"] == first["series"]
        assert stored["gameId"] == first["gameId"]
        cat = Client(server.base, table_id)
        welcome = cat.hello(token)
        assert welcome["table"]["status"] == "finished" and welcome["table"]["series"] == first["series"]
        assert welcome["stateVersion"] == first["stateVersion"] and welcome["view"]["finished"]
        again = cat.until("gameOver")
        assert again["gameId"] == first["gameId"] and again["rematch"]["waiting"] == [0]
        cat.send({"type": "rematch"})
        state = cat.until("state", stateVersion=first["stateVersion"] + 1)
        assert state["last"] is None and state["view"]["players"][0]["hand"] is not None
        play_random({0: cat}, random.Random(6))
        second = cat.until("gameOver")
        assert second["series"]["games"] == 2 and second["series"]["gameIds"] == [first["gameId"], second["gameId"]]
        # both games are the player's, newest first, at the same table
        games = httpx.get(server.base + "/api/players/cat/games").json()
        assert [(g["id"], g["tableId"]) for g in games] == [(second["gameId"], table_id), (first["gameId"], table_id)]
        # a wrong token brings nothing back
        eve = Client(server.base, table_id)
        eve.send({"type": "hello", "token": "x" * 32})
        assert eve.until("error")["code"] == "wrong-token"
        check_models(cat)
        for c in (cat, eve):
            c.close()
