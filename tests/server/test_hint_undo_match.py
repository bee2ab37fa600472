"""Hints, undo inside a turn and match play at server tables, over a real WebSocket.

Hints answer a legal move of the asking seat (its view only) and are refused out of turn; undo takes
back a build play of this turn that showed nothing hidden (never a stock play, a discard, a refill,
someone else's move), versions keep rising and the undone move leaves the database (also across a
``kill -9``); a match table plays games until a side reaches the target, with the score in the
messages and every game stored as its own record.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import Client, ServerProcess, ServerThread
from test_protocol import MODELS, check_models, play_random, two_person_table
from test_recovery import ARGS

from spite import catalogue
from spite.cards import parse_cards
from spite.errors import Phrase
from spite.malice import Options, State
from spite.records import record_from_json, replay
from spite.server import ServerConfig, db
from spite.server.db import make_engine
from spite.server.malice_play import undo_floor_of
from spite.server.protocol import HintMessage

MODELS["hint"] = HintMessage
BIG = {"stock_size": 20}


def stored_plies(engine: sa.engine.Engine, table_id: str) -> list[int]:
    with engine.connect() as conn:
        return [int(p) for p in conn.execute(sa.select(db.moves.c.ply).where(db.moves.c.table_id == table_id)
                                             .order_by(db.moves.c.ply)).scalars()]


def drain(*clients: Client, wait: float = 0.15) -> None:
    """Read everything the clients were sent so far."""
    for c in clients:
        while True:
            try:
                c.recv(wait)
            except TimeoutError:
                break


def close_all(*clients: Client) -> None:
    """Read what is left, then close (a client with many unread messages closes slowly)."""
    drain(*clients, wait=0.05)
    for c in clients:
        c.close()


class GameEnded(Exception):
    """The game ended before the position a test waited for came up (the deal is random)."""


def mover_of(clients: dict[int, Client]) -> tuple[int, Client, dict[str, Any]]:
    """The seat to move, its client and its newest state."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for seat, c in clients.items():
            st = c.last_state
            if st is not None and st["stateVersion"] >= c.newest and st["view"]["finished"]:
                raise GameEnded
            if st is not None and st["stateVersion"] >= c.newest and st["legal"]:
                return seat, c, st
        for c in clients.values():
            with contextlib.suppress(TimeoutError):
                c.recv(0.05)
    seen = [(c.newest, c.last_state and (c.last_state["stateVersion"], c.last_state["legal"],
                                         c.last_state["view"]["finished"])) for c in clients.values()]
    raise TimeoutError(f"nobody to move: {seen}")


def send_move(c: Client, move: str, version: int) -> dict[str, Any]:
    c.send({"type": "move", "move": move, "stateVersion": version, "id": f"mv{version}"})
    ack = c.until("ack")
    assert ack["stateVersion"] == version + 1 and not ack.get("undone")
    return ack


def play_until(clients: dict[int, Client], want: Callable[[dict[str, Any]], str | None], rng: random.Random,
               limit: int = 400) -> tuple[int, Client, dict[str, Any], str]:
    """Play random moves (builds first) until the seat to move has a move ``want`` picks."""
    for _ in range(limit):
        seat, c, st = mover_of(clients)
        assert not st["view"]["finished"]
        chosen = want(st)
        if chosen is not None:
            return seat, c, st, chosen
        builds = [m for m in st["legal"] if "-B" in m]  # cards flow, so the game is not blocked soon
        send_move(c, rng.choice(builds or st["legal"]), st["stateVersion"])
    raise AssertionError("no such position came up")


def hand_build(st: dict[str, Any]) -> str | None:
    """A build play from a hand of more than one card (it cannot refill the hand)."""
    me = st["view"]["players"][st["view"]["to_move"]]
    if me["hand_size"] < 2:
        return None
    return next((m for m in st["legal"] if m.startswith("H") and "-B" in m), None)


def stock_build(st: dict[str, Any]) -> str | None:
    return next((m for m in st["legal"] if m.startswith("S-B")), None)


class TwoPeople(NamedTuple):
    table_id: str
    clients: dict[int, Client]
    welcomes: dict[int, dict[str, Any]]
    tokens: dict[int, str]


def ann_and_bob(base: str, body: dict[str, Any]) -> TwoPeople:
    """A table made from ``body`` by ann, joined by bob, both seats connected."""
    r = httpx.post(base + "/api/tables", json={**body, "name": "ann"}).json()
    table_id = r["table"]["id"]
    bob = httpx.post(base + f"/api/tables/{table_id}/join", json={"name": "bob"}).json()
    tokens = {0: r["token"], 1: bob["token"]}
    clients = {0: Client(base, table_id), 1: Client(base, table_id)}
    welcomes = {seat: clients[seat].hello(tokens[seat]) for seat in (0, 1)}
    return TwoPeople(table_id, clients, welcomes, tokens)


@pytest.fixture
def table(server: ServerThread) -> Iterator[tuple[str, dict[int, Client], Client]]:
    """A two-person table (stock 20), both seats connected, and a spectator."""
    table_id, clients, welcomes, _ = ann_and_bob(server.base, {"preset": "classic", "options": BIG})
    for welcome in welcomes.values():
        assert welcome["canUndo"] is False and "match" not in welcome
    watcher = Client(server.base, table_id)
    watcher.hello(spectate=True)
    yield table_id, clients, watcher
    close_all(*clients.values(), watcher)


# ---------------------------------------------------------------------- hints
def test_hint_answers_a_legal_move_of_the_seat_to_move(server: ServerThread,
                                                       table: tuple[str, dict[int, Client], Client]) -> None:
    _table_id, clients, watcher = table
    for _ in range(6):
        seat, c, st = mover_of(clients)
        c.send({"type": "hint", "id": "h1"})
        hint = c.until("hint")
        assert hint["id"] == "h1" and hint["stateVersion"] == st["stateVersion"]
        assert hint["move"] in st["legal"] and hint["why"] and "\n" not in hint["why"]
        # the why as catalogue phrases too: English worded from them is the bot's own line's start
        assert hint["whyWords"] and all(catalogue.has(w["key"]) for w in hint["whyWords"])
        phrases = [Phrase(w["key"], w["params"]) for w in hint["whyWords"]]
        assert catalogue.words("de", phrases) != hint["why"]
        other = clients[1 - seat]
        other.send({"type": "hint", "id": "h2"})
        err = other.until("error")
        assert err["code"] == "not-your-turn" and err["id"] == "h2"
        assert err["words"] == {"key": "error.not-your-turn.seat", "params": {"seat": seat}}
        # the hint changes nothing: the seat plays on (the hinted move, here)
        send_move(c, hint["move"], st["stateVersion"])
        drain(*clients.values())
    watcher.send({"type": "hint"})
    assert watcher.until("error")["code"] == "not-your-seat"
    for c in (*clients.values(), watcher):
        check_models(c)


def test_hint_refused_once_the_game_is_over(server: ServerThread) -> None:
    # two people, so that no move is made before both have said hello: against a bot that starts,
    # a two-card stock can be played out before the person's hello arrives
    table_id, tokens = two_person_table(server, options={"stock_size": 2})
    clients = {seat: Client(server.base, table_id) for seat in (0, 1)}
    for seat, c in clients.items():
        c.hello(tokens[seat])
    play_random(clients, random.Random(3))
    c = clients[0]
    c.until("gameOver")
    c.send({"type": "hint", "id": "late"})
    assert c.until("error")["code"] == "game-over"
    c.send({"type": "undo", "stateVersion": c.newest})
    assert c.until("error")["code"] == "game-over"
    c.send({"type": "next"})
    assert c.until("error")["code"] == "no-next-game"
    close_all(*clients.values())


# ---------------------------------------------------------------------- undo
def test_undo_takes_back_a_build_play_and_only_that(server: ServerThread,
                                                    table: tuple[str, dict[int, Client], Client]) -> None:
    table_id, clients, watcher = table
    engine = server.manager.store.engine
    rng = random.Random(8)
    seat, c, st, move = play_until(clients, hand_build, rng)
    other = clients[1 - seat]
    v = st["stateVersion"]
    before_view = st["view"]
    plies_before = stored_plies(engine, table_id)

    send_move(c, move, v)
    after = c.until("state", stateVersion=v + 1)
    assert after["canUndo"] is True
    assert other.until("state", stateVersion=v + 1)["canUndo"] is False
    assert watcher.until("state", stateVersion=v + 1)["canUndo"] is False
    assert len(stored_plies(engine, table_id)) == len(plies_before) + 1

    # the opponent cannot take it back, nor the mover with a stale version, nor a spectator
    other.send({"type": "undo", "stateVersion": v + 1, "id": "o"})
    assert other.until("error")["code"] == "not-your-turn"
    c.send({"type": "undo", "stateVersion": v, "id": "s"})
    assert c.until("error")["code"] == "stale"
    watcher.send({"type": "undo", "stateVersion": v + 1})
    assert watcher.until("error")["code"] == "not-your-seat"

    c.send({"type": "undo", "stateVersion": v + 1, "id": "u"})
    ack = c.until("ack")
    assert ack == {"type": "ack", "id": "u", "move": move, "stateVersion": v + 2, "undone": True}
    for client in (c, other, watcher):
        st2 = client.until("state", stateVersion=v + 2)
        assert st2["last"] == {"seat": seat, "move": move, "byBot": False, "undone": True}
    back = c.last_state
    assert back is not None and back["view"] == before_view and back["legal"] == st["legal"]
    assert stored_plies(engine, table_id) == plies_before  # the row is gone, committed before the broadcast
    assert server.manager.tables[table_id].version == v + 2

    # the same move again: it goes on at v + 3
    send_move(c, move, v + 2)
    c.until("state", stateVersion=v + 3)
    drain(*clients.values(), watcher)

    # a discard ends the turn: nothing of it can be taken back (it is the other seat's turn)
    seat, c, st, discard = play_until(clients, lambda s: next((m for m in s["legal"] if "-D" in m), None), rng)
    send_move(c, discard, st["stateVersion"])
    c.send({"type": "undo", "stateVersion": st["stateVersion"] + 1, "id": "d"})
    err = c.until("error")
    assert err["code"] == "not-your-turn" and err["stateVersion"] == st["stateVersion"] + 1

    # a stock play shows the next stock card: no undo
    seat, c, st, stock = play_until(clients, stock_build, rng)
    send_move(c, stock, st["stateVersion"])
    shown = c.until("state", stateVersion=st["stateVersion"] + 1)
    if not shown["view"]["finished"]:
        assert shown["canUndo"] is False
        c.send({"type": "undo", "stateVersion": st["stateVersion"] + 1, "id": "st"})
        err = c.until("error")
        assert err["code"] == "nothing-to-undo" and "\n" not in err["message"]
        assert err["words"] == {"key": "refuse.nothing-to-undo", "params": {}}
    for client in (*clients.values(), watcher):
        check_models(client)
    # versions only ever rose
    for client in (*clients.values(), watcher):
        versions = [m["stateVersion"] for m in client.received if m["type"] == "state" and m.get("last")]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)


def refilling(st: dict[str, Any]) -> str | None:
    """A build play from the hand (with a one-card hand it empties the hand, which is refilled)."""
    return next((m for m in st["legal"] if m.startswith("H") and "-B" in m), None)


def test_undo_refused_after_a_refill_over_the_socket(server: ServerThread) -> None:
    """With a hand of one card every build play from the hand refills it: never taken back."""
    for attempt in range(8):  # the deal is random: a game may end before such a play comes up
        table_id, clients, _, _ = ann_and_bob(server.base, {"preset": "classic",
                                                          "options": {"hand_size": 1, "stock_size": 20}})
        try:
            seat, c, st, move = play_until(clients, refilling, random.Random(6 + attempt))
            break
        except GameEnded:
            close_all(*clients.values())
    else:
        raise AssertionError("no game reached a build play from a one-card hand")
    try:
        engine = server.manager.store.engine
        v = st["stateVersion"]
        send_move(c, move, v)
        after = c.until("state", stateVersion=v + 1)
        if after["view"]["finished"]:
            return
        assert after["canUndo"] is False and after["view"]["players"][seat]["hand_size"] == 1
        c.send({"type": "undo", "stateVersion": v + 1, "id": "r"})
        err = c.until("error")
        assert err["code"] == "nothing-to-undo" and err["id"] == "r" and err["stateVersion"] == v + 1
        assert len(stored_plies(engine, table_id)) == v + 1  # nothing was taken back
    finally:
        close_all(*clients.values())


def test_undo_refused_after_a_refill() -> None:
    """A build play that empties the hand refills it (hidden cards show): the floor moves past it."""
    opts = Options.from_preset("classic")
    deck = opts.deck_cards()
    hand = parse_cards(["AS"])
    stocks = [parse_cards(["5C", "5D"]), parse_cards(["6C", "6D"])]
    rest = list(deck)
    for card in [*hand, *stocks[0], *stocks[1]]:
        rest.remove(card)
    other = rest[:5]
    draw = rest[5:]
    # seat 0 holds one ace (the engine draws first: hand size 1 → 5, so use hand_size 1)
    opts1 = Options.from_preset("classic", {"hand_size": 1})
    state = State.from_deal(opts1, stocks=stocks, hands=[hand, other[:1]], draw=other[1:] + draw, to_move=0)
    assert undo_floor_of(state) == 0
    state.play("HA-B1")  # the hand is empty: refilled from the draw pile
    assert len(state.hands[0]) == 1 and undo_floor_of(state) == 1
    state2 = State.new(opts, seed=4)
    assert undo_floor_of(state2) == 0


def test_undo_survives_kill_9(db_url: str) -> None:
    """An undone move is deleted in the same commit: after kill -9 the table resumes without it."""
    server = ServerProcess(db_url, None, *ARGS).start()
    try:
        base = server.base
        table_id, clients, _, tokens = ann_and_bob(base, {"preset": "classic", "options": BIG})
        rng = random.Random(21)
        seat, c, st, move = play_until(clients, hand_build, rng)
        v = st["stateVersion"]
        send_move(c, move, v)
        c.send({"type": "undo", "stateVersion": v + 1, "id": "u"})
        assert c.until("ack")["undone"] is True
        drain(*clients.values())
        before = {s: clients[s].last_state for s in (0, 1)}
        assert before[seat] is not None and before[seat]["stateVersion"] == v + 2
        server.kill9()
        for cl in clients.values():
            cl.close()
        engine = make_engine(db_url)
        plies = stored_plies(engine, table_id)
        engine.dispose()
        assert plies == list(range(len(plies)))

        server = ServerProcess(db_url, None, *ARGS).start()
        base = server.base
        clients = {s: Client(base, table_id) for s in (0, 1)}
        for s in (0, 1):
            welcome = clients[s].hello(tokens[s])
            old = before[s]
            assert old is not None
            assert welcome["stateVersion"] == v + 2
            assert welcome["view"] == old["view"] and welcome["legal"] == old["legal"]
        assert len(plies) == v  # the undone move is not stored: v moves before it
        # the floor after a restart: the undone play can be made and taken back again
        c = clients[seat]
        send_move(c, move, v + 2)
        assert c.until("state", stateVersion=v + 3)["canUndo"] is True
        play_random(clients, rng)
        over = clients[0].until("gameOver")
        record = httpx.get(base + over["recordUrl"]).json()
        assert move in record["moves"]
        check = replay(record_from_json(record)).check()
        assert check["finished"] and check["result"] == over["result"]
        close_all(*clients.values())
    finally:
        server.stop()


# ---------------------------------------------------------------------- matches
MATCH = {"preset": "classic", "options": {"match_target": 2, "stock_size": 3}}


def finish_game(clients: dict[int, Client], rng: random.Random) -> dict[str, Any]:
    """Play the current game to its end; the gameOver every client got."""
    play_random(clients, rng)
    overs = [c.until("gameOver") for c in clients.values()]
    assert all(o == overs[0] for o in overs)
    return overs[0]


def next_game(clients: dict[int, Client], version: int) -> None:
    """Every seat says next; the next game's state comes at ``version + 1``."""
    for c in clients.values():
        c.send({"type": "next", "id": "n"})
    for c in clients.values():
        st = c.until("state", stateVersion=version + 1)
        assert not st["view"]["finished"] and st["last"] is None
        assert st["match"]["betweenGames"] is False


def test_a_match_plays_games_to_the_target(server: ServerThread) -> None:
    table_id, clients, welcomes, _ = ann_and_bob(server.base, MATCH)
    for welcome in welcomes.values():
        assert welcome["match"] == {"scores": [0, 0], "target": 2, "game": 1, "over": False, "winner": None,
                                    "betweenGames": False, "ready": [], "nextIn": None}
    watcher = Client(server.base, table_id)
    watcher.hello(spectate=True)
    watcher.send({"type": "next"})
    assert watcher.until("error")["code"] == "not-your-seat"
    clients[0].send({"type": "next", "id": "early"})
    assert clients[0].until("error")["code"] == "no-next-game"
    rng = random.Random(2)
    overs = []
    last_version = -1
    while True:
        over = finish_game(clients, rng)
        overs.append(over)
        match = over["match"]
        assert match["game"] == len(overs) and over["gameId"] is not None
        assert over["stateVersion"] > last_version
        last_version = over["stateVersion"]
        if match["over"]:
            break
        assert match["betweenGames"] is True and max(match["scores"]) < 2
        # moves are refused between games; a seat says next, the other is told
        clients[0].send({"type": "hint"})
        assert clients[0].until("error")["code"] == "game-over"
        clients[0].send({"type": "next"})
        ready = clients[1].until("table", event={"kind": "ready", "seat": 0, "text": "ann is ready for the next game",
                                                 "words": {"key": "event.ready", "params": {"name": "ann", "seat": 0}}})
        assert ready["match"]["ready"] == [0]
        clients[1].send({"type": "next"})
        for c in (*clients.values(), watcher):
            st = c.until("state", stateVersion=last_version + 1)
            assert st["match"]["game"] == len(overs) + 1 and st["match"]["scores"] == match["scores"]
            assert not st["view"]["finished"]
        assert any(m["type"] == "table" and m["event"]["kind"] == "next-game" for m in watcher.received)
    final = overs[-1]["match"]
    assert final["over"] and max(final["scores"]) >= 2
    assert final["winner"] == final["scores"].index(max(final["scores"]))
    assert len(overs) >= 2
    # wins add up: one point a won game
    wins = [0, 0]
    for o in overs:
        if o["result"]["winner"] is not None:
            wins[o["result"]["winner"]] += 1
    assert wins == final["scores"]
    # every game is its own record, replayable, stored with the table
    with server.manager.store.engine.connect() as conn:
        ids = list(conn.execute(sa.select(db.games.c.id).where(db.games.c.table_id == table_id)
                                .order_by(db.games.c.id)).scalars())
    assert ids == [o["gameId"] for o in overs]
    for o in overs:
        record = httpx.get(server.base + o["recordUrl"]).json()
        check = replay(record_from_json(record)).check()
        assert check["finished"] and check["result"] == o["result"]
    info = httpx.get(server.base + f"/api/tables/{table_id}").json()
    assert info["status"] == "finished" and info["gameId"] == overs[-1]["gameId"]
    assert httpx.get(server.base + "/api/players/ann/stats").json()["presets"][0]["games"] == len(overs)
    for c in (*clients.values(), watcher):
        check_models(c)
    close_all(*clients.values(), watcher)


def test_a_table_of_one_game_has_no_match(server: ServerThread) -> None:
    table_id, tokens = two_person_table(server)
    c = Client(server.base, table_id)
    welcome = c.hello(tokens[0])
    assert "match" not in welcome and welcome["canUndo"] is False
    c.send({"type": "next"})
    err = c.until("error")
    assert err["code"] == "no-next-game" and "single game" in err["message"]
    close_all(c)


def test_bots_play_a_match_alone(db_url: str) -> None:
    """Bots do not wait between games; a quick match against a bot: the person says next."""
    config = ServerConfig(db_url=db_url, bot_workers=0, grace_seconds=30, rate=500, burst=1000,
                          next_game_seconds=60)
    with ServerThread(config) as srv:
        r = httpx.post(srv.base + "/api/tables", json={
            "preset": "match", "options": {"match_target": 3, "stock_size": 3}, "join": False,
            "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]}).json()
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            info = httpx.get(srv.base + f"/api/tables/{r['id']}").json()
            if info["status"] == "finished":
                break
            time.sleep(0.1)
        assert info["status"] == "finished"
        with srv.manager.store.engine.connect() as conn:
            games = conn.execute(sa.select(db.games.c.result).where(db.games.c.table_id == r["id"])).scalars().all()
        assert len(games) >= 1
        # against a bot: only the person's next is awaited
        q = httpx.post(srv.base + "/api/quickplay", json={"name": "cat", "level": "easy", "preset": "classic",
                                                          "options": {"match_target": 2, "stock_size": 2}}).json()
        c = Client(srv.base, q["table"]["id"])
        c.hello(q["token"])
        rng = random.Random(4)
        while True:
            play_random({0: c}, rng)
            over = c.until("gameOver")
            if over["match"]["over"]:
                break
            assert over["match"]["ready"] == [1]
            c.send({"type": "next"})
            c.until("state", stateVersion=over["stateVersion"] + 1)
        check_models(c)
        close_all(c)


def test_a_match_resumes_after_kill_9(db_url: str) -> None:
    server = ServerProcess(db_url, None, *ARGS).start()
    try:
        base = server.base
        table_id, clients, _, tokens = ann_and_bob(base, MATCH)
        rng = random.Random(9)
        over = finish_game(clients, rng)
        assert not over["match"]["over"]
        score = over["match"]["scores"]
        # killed between games: the finished game and the score are back, the next game waits for next
        server.kill9()
        server = ServerProcess(db_url, None, *ARGS).start()
        base = server.base
        clients = {s: Client(base, table_id) for s in (0, 1)}
        for s in (0, 1):
            welcome = clients[s].hello(tokens[s])
            assert welcome["stateVersion"] == over["stateVersion"] and welcome["view"]["finished"]
            assert welcome["match"]["scores"] == score and welcome["match"]["betweenGames"] is True
            again = clients[s].until("gameOver")
            assert again["gameId"] == over["gameId"] and again["result"] == over["result"]
        next_game(clients, over["stateVersion"])
        # killed in the middle of the second game
        play_random(clients, rng, limit=3)
        drain(*clients.values())
        before = {s: clients[s].last_state for s in (0, 1)}
        server.kill9()
        server = ServerProcess(db_url, None, *ARGS).start()
        base = server.base
        clients = {s: Client(base, table_id) for s in (0, 1)}
        for s in (0, 1):
            welcome = clients[s].hello(tokens[s])
            old = before[s]
            assert old is not None
            if old["view"]["finished"]:
                continue
            assert welcome["stateVersion"] == old["stateVersion"] and welcome["view"] == old["view"]
            assert welcome["match"]["scores"] == score and welcome["match"]["game"] == 2
        while True:
            over = finish_game(clients, rng)
            if over["match"]["over"]:
                break
            next_game(clients, over["stateVersion"])
        engine = make_engine(db_url)
        with engine.connect() as conn:
            ids = list(conn.execute(sa.select(db.games.c.id).where(db.games.c.table_id == table_id)).scalars())
        engine.dispose()
        assert len(ids) == over["match"]["game"] >= 2
        close_all(*clients.values())
    finally:
        server.stop()
