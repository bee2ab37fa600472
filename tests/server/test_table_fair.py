"""Fair deals at a table, in memory (docs/fairness.md; tests/server/table_harness.py): the commitment
before any card, the deal made from the secret and the seats' nonces once every person said hello,
the reveal at the end (to every seat and in the stored record, which ``spite verify`` accepts), a
commitment of its own for each game of a match and for a rematch, and the nonce a hello may carry."""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
from typing import Any, NoReturn

import pytest
from table_harness import Harness, config, play_out, play_realtime

from spite.fairness import commitment, game_seed
from spite.records import record_from_json
from spite.records.verify import verify_record
from spite.server.config import ServerConfig
from spite.server.connection import Connection
from spite.server.dispatch import Dispatch
from spite.server.protocol import SeatRequest
from waiting import bounded

PERSON = SeatRequest(kind="person")


def bot(level: str = "random") -> SeatRequest:
    return SeatRequest(kind="bot", level=level)


def nonce(rng: random.Random) -> str:
    return rng.randbytes(16).hex()


def check_reveal(fair: dict[str, Any], game: int, nonces: list[str | None], table_id: str = "T1") -> str:
    """The revealed secret gives the commitment; the nonces are the ones sent. Returns the seed."""
    secret = bytes.fromhex(fair["secret"])
    assert commitment(secret, table_id, game, fair["first"]) == fair["commitment"]
    assert fair["scheme"] == ("spite-fair/1" if fair["first"] is None else "spite-fair/2")
    assert fair["game"] == game and fair["nonces"] == nonces
    return game_seed(secret, table_id, game, [None if n is None else bytes.fromhex(n) for n in nonces])


def stored_record(h: Harness, game_id: int) -> dict[str, Any]:
    """A finished game's record as stored (what ``/api/games/{id}/record`` answers)."""
    (game,) = [g for g in h.store.games if g["id"] == game_id]
    record: dict[str, Any] = game["record"]
    return record


def verified(record: dict[str, Any]) -> None:
    """``spite verify`` finds the record's deal fair."""
    verdict = verify_record(record_from_json(record))
    assert verdict.fair, verdict.line


def test_commitment_before_any_card_and_the_reveal_at_the_end() -> None:
    rng = random.Random(1)
    h = Harness("spite-malice", "short", {"stock_size": 3})
    published = h.first_info["fair"]  # the creator's answer: pinned before any nonce is sent
    h.join("ann")
    h.join("bob")
    nonces = [nonce(rng), nonce(rng)]
    ann = h.connect(0, nonce=nonces[0])
    welcome = ann.last("welcome")
    assert welcome is not None
    # the commitment is out, not a card of the deal: no hand, nothing legal, moves refused
    fair = welcome["fair"]
    assert fair == {"game": 1, "commitment": published["commitment"], "dealt": False, "sent": [True, False],
                    "scheme": "spite-fair/1", "first": None}
    assert all(p["hand"] is None for p in welcome["view"]["players"]) and welcome["legal"] == []
    assert h.move(ann, "pass", version=0)[0]["code"] == "not-started"
    watcher = h.connect()
    seen = watcher.last("welcome")
    assert seen is not None and seen["fair"]["commitment"] == fair["commitment"] and "secret" not in seen["fair"]

    # bob's hello completes the seats: his welcome has the deal, the others get it in a state
    bob = h.connect(1, nonce=nonces[1])
    assert bob.last("welcome")["fair"] == {**fair, "dealt": True, "sent": [True, True]}  # type: ignore[index]
    for c in (ann, watcher):
        dealt = c.last("state")
        assert dealt is not None and dealt["stateVersion"] == 0 and dealt["last"] is None
        assert dealt["fair"] == {**fair, "dealt": True, "sent": [True, True]}
    assert ann.position["view"]["players"][0]["hand"]  # type: ignore[index]
    # a nonce sent after the deal changes nothing
    seed = h.core.fair.seed()  # type: ignore[union-attr]
    late = h.connect(0, nonce=nonce(rng))
    assert late.last("welcome")["fair"]["sent"] == [True, True]  # type: ignore[index]
    assert h.core.fair.seed() == seed  # type: ignore[union-attr]

    play_out(h, [ann, bob], random.Random(5))
    overs = [c.last("gameOver") for c in (ann, bob, watcher, late)]
    assert overs[0] is not None and all(o == overs[0] for o in overs)
    assert check_reveal(overs[0]["fair"], 1, nonces) == seed
    record = stored_record(h, overs[0]["gameId"])
    assert record["seed"] == seed and record["fairness"]["nonces"] == nonces
    assert record["fairness"]["commitment"] == fair["commitment"]
    verified(record)
    for c in (ann, bob, watcher, late):
        c.check_models()


class Recorder(Connection[Any]):
    """A connection without a socket: it keeps what it is sent."""

    def __init__(self) -> None:
        super().__init__(None, rate=100.0, burst=100.0)  # type: ignore[arg-type]
        self.sent: list[dict[str, Any]] = []

    def send(self, msg: Any) -> None:
        self.sent.append(json.loads(msg if isinstance(msg, str) else msg.model_dump_json()))


@pytest.mark.parametrize("bad", ["AB" * 16, "ab" * 15, "ab" * 17, 12345, ["ab" * 16], "zz" * 16])
def test_a_nonce_is_32_lower_case_hex_digits(bad: object) -> None:
    """A hello with another nonce is refused in one line before it reaches a table."""
    conn = Recorder()
    dispatch = Dispatch(None, ServerConfig(db_url="sqlite://"))  # type: ignore[arg-type]  # (no lobby is asked)
    asyncio.run(dispatch.handle(conn, "T1", json.dumps({"type": "hello", "token": "t" * 32, "nonce": bad})))
    (error,) = conn.sent
    assert error["code"] == "bad-message" and error["message"].startswith("hello: nonce"), error
    assert not conn.hello and conn.table is None


def test_a_seat_without_a_nonce_is_allowed_and_shown() -> None:
    """A person against a bot: dealt at the person's hello; the bot adds no nonce, nor does this seat."""
    h = Harness("spite-malice", "short", {"stock_size": 2}, seats=[PERSON, bot()])
    h.join("ann")
    ann = h.connect(0)  # the only person: dealt at once
    dealt = ann.last("welcome")
    assert dealt is not None and dealt["fair"]["dealt"] is True and dealt["fair"]["sent"] == [False, False]
    assert dealt["view"]["players"][0]["hand"]
    play_out(h, [ann], random.Random(1))
    over = ann.last("gameOver")
    assert over is not None
    check_reveal(over["fair"], 1, [None, None])
    verified(stored_record(h, over["gameId"]))


def test_each_game_of_a_match_has_its_own_commitment() -> None:
    rng = random.Random(7)
    h = Harness("spite-malice", "classic", {"match_target": 2, "stock_size": 2})
    h.join("ann")
    h.join("bob")
    nonces: list[str | None] = [nonce(rng), None]
    clients = [h.connect(0, nonce=nonces[0]), h.connect(1)]
    current = clients[1].last("welcome")["fair"]  # type: ignore[index]
    moves = random.Random(3)
    game, commitments = 1, []
    for _ in bounded(20, "the match's end"):
        assert current["game"] == game and current["dealt"] is True
        commitments.append(current["commitment"])
        play_out(h, clients, moves)
        over = clients[0].last("gameOver")
        assert over is not None and clients[1].last("gameOver") == over
        seed = check_reveal(over["fair"], game, nonces)
        record = stored_record(h, over["gameId"])
        assert record["seed"] == seed and record["fairness"]["game"] == game
        assert ("first" in record["fairness"]) == (game > 1)
        assert record["fairness"]["scheme"] == ("spite-fair/2" if game > 1 else "spite-fair/1")
        verified(record)
        if over["game"]["match"]["over"]:  # the next commitment is a rematch's, at this table of persons
            assert over["fair"]["next"] not in commitments
            break
        # the next game's commitment is out before its cards; the seats send fresh nonces with next
        upcoming = over["fair"]["next"]
        assert upcoming not in commitments
        nonces = [nonce(rng), nonce(rng)]
        for seat, c in enumerate(clients):
            h.next(c, nonce=nonces[seat])
        state = next(m for m in clients[0].received if m["type"] == "state"
                     and m["stateVersion"] == over["stateVersion"] + 1)
        current = state["fair"]
        assert current["commitment"] == upcoming and current["sent"] == [True, True]
        game += 1
    assert game >= 2 and len(set(commitments)) == game


def test_a_spit_table_deals_from_the_nonce() -> None:
    h = Harness("spit", None, {"time_limit_s": 2}, seats=[PERSON, bot("reflex:40")])
    h.join("ann")
    sent = nonce(random.Random(2))
    ann = h.connect(0, nonce=sent)
    welcome = ann.last("welcome")
    assert welcome is not None and welcome["fair"] == {
        "game": 1, "commitment": h.first_info["fair"]["commitment"], "dealt": True, "sent": [True, False],
        "scheme": "spite-fair/1", "first": None}
    over = play_realtime(h, [ann], random.Random(4))
    check_reveal(over["fair"], 1, [sent, None])
    verified(stored_record(h, over["gameId"]))


def test_bots_alone_play_a_match_of_fair_games() -> None:
    h = Harness("spite-malice", "match", {"match_target": 3, "stock_size": 2}, seats=[bot("random"), bot("easy")],
                settings=config(bot_delay=0.5))
    h.run_until(lambda: h.core.status == "finished", dt=5.0)
    assert len(h.store.games) >= 2
    seen = set()
    for game in h.store.games:
        record = game["record"]
        assert record["fairness"]["nonces"] == [None, None]
        seen.add(record["fairness"]["commitment"])
        verified(record)
    assert len(seen) == len(h.store.games)


def test_an_abandoned_table_reveals_its_secret() -> None:
    """Nobody took the free seat in time: the game was never dealt, so its secret may show."""
    h = Harness("spite-malice", "short", {}, settings=config(open_table_ttl=1.0))
    h.join("ann")
    ann = h.connect(0, nonce=nonce(random.Random(3)))
    fair = ann.last("welcome")["fair"]  # type: ignore[index]
    h.advance(0.99)
    assert h.core.status == "open"
    h.advance(0.01)
    closed = ann.last("table")
    assert closed is not None and closed["event"]["kind"] == "abandoned"
    assert closed["event"]["text"] == "nobody took the free seats in time; the table is closed"
    assert closed["fair"]["commitment"] == fair["commitment"]
    assert commitment(bytes.fromhex(closed["fair"]["secret"]), "T1", 1) == fair["commitment"]
    assert ann.closed == 1000 and h.store.row["status"] == "abandoned"
    ann.check_models()


def test_a_rematch_is_dealt_fairly_from_the_commitment_published_at_the_end() -> None:
    """The rematch's commitment goes out with the last game's gameOver (``fair.next``), before any nonce
    for it; the nonces come with ``rematch``; the new game's record proves its deal."""
    rng = random.Random(8)
    h = Harness("spite-malice", "short", {"stock_size": 3})
    h.join("ann")
    h.join("bob")
    ann, bob = h.connect(0, nonce=nonce(rng)), h.connect(1, nonce=nonce(rng))
    play_out(h, [ann, bob], random.Random(8))
    over = ann.last("gameOver")
    assert over is not None and bob.last("gameOver") == over
    promised = over["fair"]["next"]
    assert over["fair"]["game"] == 1 and promised != over["fair"]["commitment"]
    nonces: list[str | None] = [nonce(rng), nonce(rng)]
    h.rematch(ann, nonce=nonces[0])
    assert ann.last("rematch") is not None
    h.rematch(bob, nonce=nonces[1])
    for c in (ann, bob):
        state = next(m for m in c.received if m["type"] == "state" and m["stateVersion"] == over["stateVersion"] + 1)
        assert state["fair"]["game"] == 2 and state["fair"]["commitment"] == promised
        assert state["fair"]["dealt"] and "secret" not in state["fair"]
    play_out(h, [ann, bob], random.Random(9))
    second = ann.last("gameOver")
    assert second is not None and second["gameId"] != over["gameId"]
    seed = check_reveal(second["fair"], 2, nonces)
    record = stored_record(h, second["gameId"])
    assert record["seed"] == seed and record["fairness"]["commitment"] == promised
    verified(record)
    for c in (ann, bob):
        c.check_models()



def test_every_secret_a_table_draws_comes_from_its_entropy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first game's secret, each next game's of a match and a rematch's all come from the entropy
    the table was given (the server's is :mod:`secrets`): with the process's own sources of chance
    closed, a match and its rematch still play, each secret revealed one the table drew."""
    def closed(*_args: object) -> NoReturn:
        raise AssertionError("a secret drawn past the table's entropy")

    for name in ("token_bytes", "token_hex", "token_urlsafe", "randbits", "randbelow", "choice"):
        monkeypatch.setattr(secrets, name, closed)
    monkeypatch.setattr(os, "urandom", closed)
    h = Harness("spite-malice", "classic", {"match_target": 2, "stock_size": 2})
    h.join("ann")
    h.join("bob")
    clients = [h.connect(0), h.connect(1)]
    revealed: list[str] = []
    for _ in bounded(20, "the match's end"):
        play_out(h, clients, random.Random(len(revealed)))
        over = clients[0].last("gameOver")
        assert over is not None
        revealed.append(over["fair"]["secret"])
        if over["game"]["match"]["over"]:
            break
        for c in clients:
            h.next(c)
    for c in clients:
        h.rematch(c)
    play_out(h, clients, random.Random(99))
    again = clients[0].last("gameOver")
    assert again is not None and again["fair"]["game"] == len(revealed) + 1
    revealed.append(again["fair"]["secret"])
    assert len(revealed) >= 3 and len(set(revealed)) == len(revealed)
    assert set(revealed) <= {drawn.hex() for drawn in h.drawn}
