"""Fair deals at server tables (docs/fairness.md): the commitment before any card, the deal made from
the secret and the seats' nonces once every person said hello, the reveal at the end (to every seat
and in the record, which ``spite verify`` accepts), a commitment of its own for each game of a match."""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

import httpx
from server_helpers import Client, ServerThread
from test_protocol import check_models, play_random

from spite.fairness import commitment, game_seed
from spite.records import record_from_json
from spite.records.verify import verify_record
from spite.server import ServerConfig


def seat_hello(client: Client, token: str, nonce: str | None) -> dict[str, Any]:
    client.send({"type": "hello", "token": token, **({"nonce": nonce} if nonce is not None else {})})
    return client.until("welcome")


def check_reveal(fair: dict[str, Any], table_id: str, game: int, nonces: list[str | None]) -> str:
    """The revealed secret gives the commitment; the nonces are the ones sent. Returns the seed."""
    secret = bytes.fromhex(fair["secret"])
    assert commitment(secret, table_id, game, fair["first"]) == fair["commitment"]
    assert fair["scheme"] == ("spite-fair/1" if fair["first"] is None else "spite-fair/2")
    assert fair["game"] == game and fair["nonces"] == nonces
    return game_seed(secret, table_id, game, [None if n is None else bytes.fromhex(n) for n in nonces])


def test_commitment_before_any_card_and_the_reveal_at_the_end(server: ServerThread) -> None:
    base = server.base
    r = httpx.post(base + "/api/tables", json={"preset": "short", "name": "ann", "options": {"stock_size": 3}}).json()
    table_id = r["table"]["id"]
    bob_token = httpx.post(base + f"/api/tables/{table_id}/join", json={"name": "bob"}).json()["token"]
    nonces = [secrets.token_hex(16), secrets.token_hex(16)]
    ann, bob, watcher = Client(base, table_id), Client(base, table_id), Client(base, table_id)
    welcome = seat_hello(ann, r["token"], nonces[0])
    # the commitment is out, not a card of the deal: no hand, nothing legal, moves refused
    fair = welcome["fair"]
    assert fair == {"game": 1, "commitment": fair["commitment"], "dealt": False, "sent": [True, False],
                    "scheme": "spite-fair/1", "first": None}
    assert all(p["hand"] is None for p in welcome["view"]["players"]) and welcome["legal"] == []
    ann.send({"type": "move", "move": "pass", "stateVersion": 0})
    assert ann.until("error")["code"] == "not-started"
    seen = watcher.hello(spectate=True)
    assert seen["fair"]["commitment"] == fair["commitment"] and "secret" not in seen["fair"]

    # bob's hello completes the seats: his welcome has the deal, the others get it in a state
    assert seat_hello(bob, bob_token, nonces[1])["fair"] == {**fair, "dealt": True, "sent": [True, True]}
    for c in (ann, watcher):
        dealt = c.until("state", stateVersion=0)
        assert dealt["fair"] == {**fair, "dealt": True, "sent": [True, True]} and dealt["last"] is None
    assert ann.last_state is not None and ann.last_state["view"]["players"][0]["hand"]
    # a nonce sent after the deal changes nothing
    late = Client(base, table_id)
    assert seat_hello(late, r["token"], secrets.token_hex(16))["fair"]["sent"] == [True, True]

    play_random({0: ann, 1: bob}, random.Random(5))
    overs = [c.until("gameOver") for c in (ann, bob, watcher)]
    assert all(o["fair"] == overs[0]["fair"] for o in overs)
    seed = check_reveal(overs[0]["fair"], table_id, 1, nonces)
    record = httpx.get(base + overs[0]["recordUrl"]).json()
    assert record["seed"] == seed and record["fairness"]["nonces"] == nonces
    assert record["fairness"]["commitment"] == fair["commitment"]
    verdict = verify_record(record_from_json(record))
    assert verdict.fair, verdict.line
    for c in (ann, bob, watcher):
        check_models(c)
        c.close()
    late.close()


def test_a_nonce_is_32_lower_case_hex_digits(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "ann"}).json()
    for bad in ("AB" * 16, "ab" * 15, "ab" * 17, 12345, ["ab" * 16], "zz" * 16):
        c = Client(server.base, r["table"]["id"])
        c.send({"type": "hello", "token": r["token"], "nonce": bad})
        error = c.until("error")
        assert error["code"] == "bad-message" and error["message"].startswith("hello: nonce"), error
        c.close()


def test_a_seat_without_a_nonce_is_allowed_and_shown(server: ServerThread) -> None:
    """A person against a bot: dealt at the person's hello; the bot adds no nonce, nor does this seat."""
    r = httpx.post(server.base + "/api/tables", json={
        "preset": "short", "name": "ann", "options": {"stock_size": 2},
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}]}).json()
    table_id = r["table"]["id"]
    ann = Client(server.base, table_id)
    dealt = seat_hello(ann, r["token"], None)  # the only person: dealt at once
    assert dealt["fair"]["dealt"] is True and dealt["fair"]["sent"] == [False, False]
    assert dealt["view"]["players"][0]["hand"]
    play_random({0: ann}, random.Random(1))
    over = ann.until("gameOver")
    check_reveal(over["fair"], table_id, 1, [None, None])
    record = httpx.get(server.base + over["recordUrl"]).json()
    assert verify_record(record_from_json(record)).fair
    ann.close()


def test_each_game_of_a_match_has_its_own_commitment(server: ServerThread) -> None:
    base = server.base
    r = httpx.post(base + "/api/tables", json={"preset": "classic", "name": "ann",
                                               "options": {"match_target": 2, "stock_size": 2}}).json()
    table_id = r["table"]["id"]
    bob_token = httpx.post(base + f"/api/tables/{table_id}/join", json={"name": "bob"}).json()["token"]
    clients = {0: Client(base, table_id), 1: Client(base, table_id)}
    nonces: list[str | None] = [secrets.token_hex(16), None]
    seat_hello(clients[0], r["token"], nonces[0])
    current = seat_hello(clients[1], bob_token, nonces[1])["fair"]
    rng = random.Random(3)
    game, commitments = 1, []
    while True:
        assert current["game"] == game and current["dealt"] is True
        commitments.append(current["commitment"])
        play_random(clients, rng)
        over = clients[0].until("gameOver")
        clients[1].until("gameOver")
        seed = check_reveal(over["fair"], table_id, game, nonces)
        record = httpx.get(base + over["recordUrl"]).json()
        assert record["seed"] == seed and record["fairness"]["game"] == game
        assert ("first" in record["fairness"]) == (game > 1)
        assert record["fairness"]["scheme"] == ("spite-fair/2" if game > 1 else "spite-fair/1")
        assert verify_record(record_from_json(record)).fair
        if over["match"]["over"]:  # the next commitment is a rematch's, at this table of persons
            assert over["fair"]["next"] not in commitments
            break
        # the next game's commitment is out before its cards; the seats send fresh nonces with next
        upcoming = over["fair"]["next"]
        assert upcoming not in commitments
        nonces = [secrets.token_hex(16), secrets.token_hex(16)]
        for seat, c in clients.items():
            c.send({"type": "next", "nonce": nonces[seat]})
        version = over["stateVersion"] + 1
        current = clients[0].until("state", stateVersion=version)["fair"]
        clients[1].until("state", stateVersion=version)
        assert current["commitment"] == upcoming and current["sent"] == [True, True]
        game += 1
    assert game >= 2 and len(set(commitments)) == game
    for c in clients.values():
        c.close()


def test_a_spit_table_deals_from_the_nonce(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/tables", json={
        "game": "spit", "name": "ann", "options": {"time_limit_s": 2},
        "seats": [{"kind": "person"}, {"kind": "bot", "level": "reflex:40"}]}).json()
    table_id = r["table"]["id"]
    nonce = secrets.token_hex(16)
    ann = Client(server.base, table_id)
    welcome = seat_hello(ann, r["token"], nonce)
    assert welcome["fair"] == {"game": 1, "commitment": welcome["fair"]["commitment"], "dealt": True,
                               "sent": [True, False], "scheme": "spite-fair/1", "first": None}
    over = ann.until("gameOver", timeout=30)
    check_reveal(over["fair"], table_id, 1, [nonce, None])
    record = httpx.get(server.base + over["recordUrl"]).json()
    verdict = verify_record(record_from_json(record))
    assert verdict.fair, verdict.line
    ann.close()


def test_bots_alone_play_a_match_of_fair_games(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/tables", json={
        "preset": "match", "options": {"match_target": 3, "stock_size": 2}, "join": False,
        "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "easy"}]}).json()
    deadline = time.monotonic() + 60
    while httpx.get(server.base + f"/api/tables/{r['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the match"
        time.sleep(0.1)
    games = httpx.get(server.base + "/api/players/bot:random/games").json()
    assert len(games) >= 2
    seen = set()
    for game in games:
        record = httpx.get(server.base + game["recordUrl"]).json()
        assert record["fairness"]["nonces"] == [None, None]
        seen.add(record["fairness"]["commitment"])
        verdict = verify_record(record_from_json(record))
        assert verdict.fair, verdict.line
    assert len(seen) == len(games)


def test_an_abandoned_table_reveals_its_secret(db_url: str) -> None:
    config = ServerConfig(db_url=db_url, bot_workers=0, open_table_ttl=1.0, rate=1000, burst=2000)
    with ServerThread(config) as srv:
        r = httpx.post(srv.base + "/api/tables", json={"preset": "short", "name": "ann"}).json()
        ann = Client(srv.base, r["table"]["id"])
        fair = seat_hello(ann, r["token"], secrets.token_hex(16))["fair"]
        closed = ann.until("table", timeout=20)
        while closed["event"]["kind"] != "abandoned":
            closed = ann.until("table", timeout=20)
        assert closed["fair"]["commitment"] == fair["commitment"]
        assert commitment(bytes.fromhex(closed["fair"]["secret"]), r["table"]["id"], 1) == fair["commitment"]
        ann.close()


def test_a_rematch_is_dealt_fairly_from_the_commitment_published_at_the_end(server: ServerThread) -> None:
    """The rematch's commitment goes out with the last game's gameOver (``fair.next``), before any nonce
    for it; the nonces come with ``rematch``; the new game's record proves its deal."""
    base = server.base
    r = httpx.post(base + "/api/tables", json={"preset": "short", "name": "ann", "options": {"stock_size": 3}}).json()
    table_id = r["table"]["id"]
    bob_token = httpx.post(base + f"/api/tables/{table_id}/join", json={"name": "bob"}).json()["token"]
    ann, bob = Client(base, table_id), Client(base, table_id)
    seat_hello(ann, r["token"], secrets.token_hex(16))
    seat_hello(bob, bob_token, secrets.token_hex(16))
    try:
        play_random({0: ann, 1: bob}, random.Random(8))
        over = ann.until("gameOver")
        bob.until("gameOver")
        promised = over["fair"]["next"]
        assert over["fair"]["game"] == 1 and promised != over["fair"]["commitment"]
        nonces = [secrets.token_hex(16), secrets.token_hex(16)]
        ann.send({"type": "rematch", "nonce": nonces[0]})
        ann.until("rematch")
        bob.send({"type": "rematch", "nonce": nonces[1]})
        state = ann.until("state", timeout=10, stateVersion=over["stateVersion"] + 1)
        assert state["fair"]["game"] == 2 and state["fair"]["commitment"] == promised
        assert state["fair"]["dealt"] and "secret" not in state["fair"]
        bob.until("state", timeout=10, stateVersion=over["stateVersion"] + 1)
        play_random({0: ann, 1: bob}, random.Random(9))
        second = ann.until("gameOver", timeout=20)
        seed = check_reveal(second["fair"], table_id, 2, nonces)
        record = httpx.get(base + second["recordUrl"]).json()
        assert record["seed"] == seed and record["fairness"]["commitment"] == promised
        assert verify_record(record_from_json(record)).fair
    finally:
        ann.close()
        bob.close()
