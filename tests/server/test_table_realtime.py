"""Spit and Speed tables in real time, in memory (tests/server/table_harness.py: the fake clock runs the
game's own timers and the reflex bots at their very moments): a person against a fast bot to the
end, a race between two people (exactly one move lands, the other is told why), the countdown, a
dropped seat a bot plays to the end and its person coming back, a restart mid-round, a rematch, and
the requests these tables do not have. (``kill -9`` of a real server mid-game: test_contract.py.)"""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_harness import Client, Harness, config, play_realtime

from spite.records import record_from_json, replay
from spite.server.protocol import SeatRequest
from spite.server.table.seats import LobbyError

PERSON = SeatRequest(kind="person")
FAST = {"auto_spit_ms": 150, "auto_slap_ms": 150, "rounds_in_a_row": 2, "time_limit_s": 12}
"""Short timeouts, so that games end quickly."""

TAKEOVER_OPTIONS = {"spit": {"auto_spit_ms": 150, "auto_slap_ms": 150, "rounds_in_a_row": 2, "time_limit_s": 10},
                    "speed": {"auto_spit_ms": 150, "time_limit_s": 10}}


def bot(level: str) -> SeatRequest:
    return SeatRequest(kind="bot", level=level)


def against_a_bot(game: str, options: dict[str, Any], level: str = "reflex:40", name: str = "ann",
                  **settings: Any) -> tuple[Harness, Client]:
    h = Harness(game, None, options, seats=[PERSON, bot(level)], settings=config(**settings))
    h.join(name)
    return h, h.connect(0)


def two_people(game: str = "spit", options: dict[str, Any] | None = None, seed: int = 0,
               **settings: Any) -> tuple[Harness, Client, Client]:
    h = Harness(game, None, options or {}, settings=config(**settings), seed=seed)
    h.join("ann")
    h.join("bob")
    return h, h.connect(0), h.connect(1)


def replayed(h: Harness, over: dict[str, Any]) -> dict[str, Any]:
    """The stored record of the game ``over`` ended, checked by a replay to the announced result."""
    (game,) = [g for g in h.store.games if g["id"] == over["gameId"]]
    record: dict[str, Any] = game["record"]
    assert replay(record_from_json(record)).check()["result"] == over["result"]
    return record


def test_person_against_a_fast_bot_to_the_end() -> None:
    h, ann = against_a_bot("spit", FAST)
    table = h.core.info()
    assert table.game == "spit" and table.status == "playing"
    welcome = ann.last("welcome")
    assert welcome is not None and welcome["seat"] == 0 and welcome["game"]["clock"]["phase"] == "play"
    assert "players" in welcome["view"] and welcome["view"]["centers"]
    over = play_realtime(h, [ann], random.Random(3))
    # every state message carries the engine's events and the clock; the bot's moves arrive
    states = [m for m in ann.received if m["type"] == "state"]
    assert states and all(m["game"]["clock"] is not None and m["game"]["events"] for m in states)
    assert any(e["kind"] == "move" and e["seat"] == 1 for m in states for e in m["game"]["events"])
    assert [m["stateVersion"] for m in states] == sorted(m["stateVersion"] for m in states)
    # the clock counts the rounds each seat has won: the round-won events so far, and the winner's
    assert welcome["game"]["clock"]["roundsWon"] == [0, 0]
    won = [0, 0]
    for m in states:
        for e in m["game"]["events"]:
            if e["kind"] == "round-won":
                won[e["seat"]] += 1
        assert m["game"]["clock"]["roundsWon"] == won
    if over["result"]["reason"] == "rounds":  # two rounds in a row won the game
        assert won[over["result"]["winner"]] >= 2
    acks = [m for m in ann.received if m["type"] == "ack"]
    assert acks and all(isinstance(a["game"]["t"], int) for a in acks)
    record = replayed(h, over)
    assert record["game"] == "spit" and all("t" in e for e in record["moves"] if "p" in e)
    info = h.core.info()
    assert info.status == "finished" and info.gameId == over["gameId"]
    (game,) = h.store.games
    assert game["players"][0]["player"] == "ann" and not game["players"][0]["taken_over"]
    ann.check_models()


def _race(legal: list[list[str]]) -> tuple[str, str, int] | None:
    """Two plays (seat 0's, seat 1's) onto the same center pile, if the deal offers one."""
    for m0 in legal[0]:
        for m1 in legal[1]:
            if "-C" in m0 and "-C" in m1 and m0[m0.index("-C"):] == m1[m1.index("-C"):]:
                return m0, m1, int(m0.split("-C")[1])
    return None


def test_a_race_one_move_lands_and_the_loser_is_told_why() -> None:
    for seed in range(40):
        h, ann, bob = two_people(seed=seed)
        race = _race([ann.legal, bob.legal])
        if race is not None:
            break
    else:
        pytest.fail("no deal with a race in 40 tables")
    m0, m1, center = race
    version = h.core.version
    # both reach for the same pile at the same moment; the table takes them in arrival order
    answers = {"a": h.move(ann, m0, msg_id="a"), "b": h.move(bob, m1, msg_id="b")}
    mine = {name: next(m for m in got if m["type"] in ("ack", "error") and m.get("id") == name)
            for name, got in answers.items()}
    assert sorted(m["type"] for m in mine.values()) == ["ack", "error"], mine
    loser = next(m for m in mine.values() if m["type"] == "error")
    winner = next(m for m in mine.values() if m["type"] == "ack")
    assert loser["code"] == "too-late"
    assert loser["message"].startswith(f"too late: center {center} is now "), loser
    assert loser["words"]["key"].startswith("refuse.")
    # both see the winner's card on the pile, and only one move was stored
    for client in (ann, bob):
        assert client.position["last"]["move"] == winner["move"]  # type: ignore[index]
        assert client.position["stateVersion"] == version + 1  # type: ignore[index]
    assert ann.position["view"] == bob.position["view"]  # type: ignore[index]
    assert len(h.store.moves) == 1
    for client in (ann, bob):
        client.check_models()


def test_speed_table_plays() -> None:
    h, cat = against_a_bot("speed", {"auto_spit_ms": 150, "time_limit_s": 6}, name="cat")
    welcome = cat.last("welcome")
    assert welcome is not None and welcome["view"]["players"][0]["hand"]
    assert welcome["view"]["players"][1]["hand"] is None  # the bot's hand is never sent
    over = play_realtime(h, [cat], random.Random(5))
    assert replayed(h, over)["game"] == "speed"
    assert all(m["view"]["players"][1]["hand"] is None for m in cat.received if "view" in m)


def test_bad_spit_requests() -> None:
    with pytest.raises(LobbyError, match="reflex") as refused:
        Harness("spit", None, {}, seats=[PERSON, bot("random")])  # medium, like every game's levels, is a level
    assert refused.value.status == 400
    with pytest.raises(LobbyError, match="centers") as refused:
        Harness("spit", None, {"centers": 4})
    assert refused.value.status == 400
    with pytest.raises(LobbyError, match="2 seats, not 3") as refused:
        Harness("spit", None, {}, seats=[PERSON] * 3)
    assert refused.value.status == 400
    h = Harness("spit", None, {})
    h.join("ann")
    h.join("bob")
    ann = h.connect(0)
    err = h.move(ann, "H7-C1", version=0, msg_id="x")[0]  # not dealt before every person said hello
    assert err["code"] == "not-started" and err["id"] == "x"
    h.connect(1)
    assert ann.last("state") is not None
    assert "H7-C1" not in ann.legal
    err = h.move(ann, "H7-C1", version=0, msg_id="x")[0]
    assert err["code"] == "illegal" and err["id"] == "x"


def test_a_restart_mid_round_and_play_on() -> None:
    h, ann, bob = two_people(options={"auto_spit_ms": 150, "auto_slap_ms": 150, "rounds_in_a_row": 2,
                                      "time_limit_s": 6})
    rng = random.Random(8)
    for _ in range(12):  # a few moves each, mid-round
        for client in (ann, bob):
            h.advance(0.03)
            if client.legal:
                h.move(client, rng.choice(client.legal))
    before = {0: ann.position, 1: bob.position}
    assert before[0] is not None and before[0]["stateVersion"] > 0 and not before[0]["view"]["finished"]

    h.restart()
    clients = {0: h.connect(0), 1: h.connect(1)}
    for seat, client in clients.items():
        welcome = client.last("welcome")
        old = before[seat]
        assert welcome is not None and old is not None
        assert welcome["stateVersion"] == old["stateVersion"]
        assert welcome["view"] == old["view"] and welcome["legal"] == old["legal"]
        assert welcome["game"]["clock"]["now"] >= old["game"]["clock"]["now"]
    over = play_realtime(h, [clients[0], clients[1]], rng)
    replayed(h, over)


def test_a_new_spit_game_begins_with_a_countdown() -> None:
    """During the start countdown the center cards are face down (sizes only) and nothing is legal,
    for the players and a spectator alike, so nobody can plan ahead; moves sent are refused
    (``not-started``, the time left in the message); the clock says how long is left and stands at
    0. At "go" the server sends everyone the center cards and the legal moves, and a move lands."""
    for seed in range(20):  # a deal may offer no play at all until the first spit: deal again
        h = Harness("spit", None, {}, seats=[PERSON, bot("reflex:60000")], settings=config(start_countdown=1.0),
                    seed=seed)
        h.join("ann")
        ann = h.connect(0)
        watcher = h.connect()
        welcome, seen = ann.last("welcome"), watcher.last("welcome")
        assert welcome is not None and seen is not None
        clock = welcome["game"]["clock"]
        assert clock["now"] == 0 and 0 < clock["startsIn"] <= 1000
        for msg in (welcome, seen):
            assert msg["legal"] == []
            assert [c["top"] for c in msg["view"]["centers"]] == [None, None]
            assert all(c["cards"] > 0 for c in msg["view"]["centers"])
        err = h.move(ann, "T1-C1", msg_id="early")[0]
        assert err["code"] == "not-started" and "starts in" in err["message"] and err["id"] == "early"
        assert err["words"]["key"] == "error.not-started.in"
        h.advance(0.99)
        assert ann.last("state") is None
        # at "go", unasked: the center cards and the legal moves
        h.advance(0.01)
        state, shown = ann.last("state"), watcher.last("state")
        assert state is not None and shown is not None
        assert state["game"]["clock"].get("startsIn") is None and state["game"]["clock"]["now"] >= 0
        assert all(c["top"] for c in state["view"]["centers"])
        assert shown["view"]["centers"] == state["view"]["centers"] and shown["legal"] == []
        if not state["legal"]:
            continue
        move = state["legal"][0]
        ack = h.move(ann, move, msg_id="on-time")[0]
        assert ack["type"] == "ack" and ack["id"] == "on-time" and ack["move"] == move
        ann.check_models()
        watcher.check_models()
        return
    raise AssertionError("no deal with a play at the start in 20 tables")


def drop_and_see_the_bot_play(game: str) -> tuple[Harness, Client]:
    """Ann and bob sit down; ann's connection drops; bob sees the takeover, then plays slowly (at Speed
    a seat may have to wait for the other's play) until a move of ann's seat arrives: the bot's, as
    nobody else can make one."""
    h, ann, bob = two_people(game, TAKEOVER_OPTIONS[game], grace_seconds=1.0, replacement_level="hard")
    h.leave(ann)
    assert bob.last("table")["event"] == {  # type: ignore[index]
        "kind": "disconnected", "seat": 0, "text": "ann dropped from seat 0; a bot takes over in 1 s",
        "words": {"key": "event.disconnected", "params": {"name": "ann", "seat": 0, "s": "1"}}}
    h.advance(1.0)
    took = bob.last("table")
    assert took is not None and took["event"]["kind"] == "takeover", took
    assert took["table"]["seats"][0]["status"] == "bot" and took["table"]["seats"][0]["botLevel"] == "hard"
    rng = random.Random(7)
    seen = len(bob.received)
    for _ in range(25):
        h.advance(0.4)
        new, seen = bob.received[seen:], len(bob.received)
        assert not any(m["type"] == "gameOver" for m in new), "the game ended before the bot played the seat"
        if any(m["type"] == "state" and m["last"] is not None and m["last"]["seat"] == 0 for m in new):
            assert all(m["last"]["byBot"] for m in new if m["type"] == "state" and m["last"] and m["last"]["seat"] == 0)
            return h, bob
        if bob.legal:
            h.move(bob, rng.choice(bob.legal))
            seen = len(bob.received)
    raise AssertionError("the bot never played the dropped seat")


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_dropped_seat_is_played_by_a_bot_to_the_end(game: str) -> None:
    """Issue 19: the takeover of a Spit or Speed seat used to fail (the table froze, listed under the
    games in play for ever); now the bot plays the seat and the game ends."""
    h, bob = drop_and_see_the_bot_play(game)
    over = play_realtime(h, [bob], random.Random(11))
    record = replayed(h, over)
    assert any(e.get("p") == 0 for e in record["moves"])  # the bot's moves for ann's seat are kept
    info = h.core.info()
    assert info.status == "finished" and info.seats[0].status == "bot"
    assert h.store.row["status"] == "finished"  # not listed under the games in play
    (stored,) = h.store.games
    assert [p["taken_over"] for p in stored["players"]] == [True, False]
    bob.check_models()


def test_a_person_comes_back_after_the_takeover() -> None:
    """Ann returns after the bot took her Spit seat: she is told so, the bot leaves, her moves land."""
    h, bob = drop_and_see_the_bot_play("spit")
    ann = h.connect(0)
    assert ann.last("welcome")["seat"] == 0  # type: ignore[index]
    back = ann.last("table")
    assert back is not None and back["event"]["kind"] == "returned"
    assert back["event"]["text"] == "ann is back at seat 0; the bot leaves"
    assert back["table"]["seats"][0]["status"] == "connected"
    assert bob.last("table")["event"] == back["event"]  # type: ignore[index]
    over = play_realtime(h, [ann, bob], random.Random(12))
    assert not [m for m in ann.received if m["type"] == "error"]
    assert [m for m in ann.received if m["type"] == "ack"]  # ann's own moves were taken
    assert over["result"]
    (stored,) = h.store.games
    # a takeover at any point of the game counts (docs/ratings.md): ann's game is marked, not hers alone
    assert [p["taken_over"] for p in stored["players"]] == [True, False]


def test_a_spit_table_refuses_hint_undo_and_next() -> None:
    """Hints, undo and a match's next game belong to Spite and Malice: a Spit table says so in one line,
    to the asker only, and the game goes on."""
    h, ann, bob = two_people()
    version = h.core.version
    for kind, answer in (("hint", h.hint(ann, msg_id="h")), ("undo", h.undo(ann, version=version, msg_id="u")),
                         ("next", h.next(ann))):
        (err,) = answer
        assert err["code"] == "bad-message" and err["id"] == ({"hint": "h", "undo": "u"}.get(kind))
        assert err["message"] == f"{kind}: Spit and Speed tables have no hints, undo or matches"
        assert err["words"] == {"key": f"error.no-{kind}", "params": {}}
    assert not [m for m in bob.received if m["type"] == "error"]
    (state,) = h.sync(ann)
    assert not state["view"]["finished"] and not state.get("game", {}).get("canUndo") and h.core.version == version


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_rematch_of_a_real_time_game_against_a_bot(game: str) -> None:
    """The same table and messages serve Spit and Speed: quick play, the end, a rematch at the same
    table (the bot agrees at once) whose clock starts from 0 again, and the series."""
    h, fay = against_a_bot(game, TAKEOVER_OPTIONS[game], name="fay")
    first = play_realtime(h, [fay], random.Random(13))
    assert first["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
    assert first["series"]["games"] == 1
    h.rematch(fay)
    told = fay.last("table")
    assert told is not None and told["event"]["kind"] == "rematch"
    assert told["event"]["text"] == "everyone wants a rematch: game 2 at this table begins"
    assert told["table"]["id"] == "T1" and told["table"]["game"] == game
    state = next(m for m in fay.received if m["type"] == "state" and m["stateVersion"] == first["stateVersion"] + 1)
    assert state["last"] is None and not state["view"]["finished"]
    assert state["game"]["clock"]["now"] < 1000 and state["game"]["clock"]["phase"] == "play"
    second = play_realtime(h, [fay], random.Random(14))
    assert second["stateVersion"] > state["stateVersion"] and second["gameId"] != first["gameId"]
    assert second["series"]["games"] == 2
    records = [replayed(h, first), replayed(h, second)]
    assert [r["game"] for r in records] == [game, game] and records[0]["seed"] != records[1]["seed"]
    fay.check_models()
