"""Protocol tests over a real WebSocket: every message type, the lobby, records and statistics."""

from __future__ import annotations

import contextlib
import json
import random
import re
from typing import Any

import httpx
import sqlalchemy as sa
from server_helpers import Client, ServerThread, latest_state

from helpers import finished_table
from spite import catalogue
from spite.errors import Phrase
from spite.records import record_from_json, replay
from spite.server import db
from spite.server.protocol import (
    Ack,
    ErrorMessage,
    GameOver,
    HintMessage,
    Pong,
    RematchState,
    StateMessage,
    TableMessage,
    Welcome,
)

MODELS = {"welcome": Welcome, "state": StateMessage, "ack": Ack, "table": TableMessage, "gameOver": GameOver,
          "pong": Pong, "error": ErrorMessage, "rematch": RematchState, "hint": HintMessage}


def check_models(client: Client) -> None:
    """Every message the server sent is exactly one of its models (no field more)."""
    for msg in client.received:
        MODELS[msg["type"]].model_validate(msg)


def two_person_table(srv: ServerThread, preset: str = "short",
                     options: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    r = httpx.post(srv.base + "/api/tables", json={"preset": preset, "name": "ann", "options": options or {}})
    assert r.status_code == 200, r.text
    created = r.json()
    table_id = created["table"]["id"]
    assert created["seat"] == 0 and created["table"]["status"] == "open"
    joined = httpx.post(srv.base + f"/api/tables/{table_id}/join", json={"name": "bob"}).json()
    assert joined["seat"] == 1 and joined["table"]["status"] == "playing"
    return table_id, [created["token"], joined["token"]]


def eager(legal: list[str], rng: random.Random) -> str:
    """A random move of the most eager kind there is: a stock play, else a build play, else any (a game
    of such moves ends with a winner far sooner than one of random moves, which mostly ends blocked)."""
    for kind in ("S-", "-B"):
        found = [m for m in legal if kind in m]
        if found:
            return rng.choice(found)
    return rng.choice(legal)


def play_random(clients: dict[int, Client], rng: random.Random, limit: int = 10_000,
                choose: Any = None) -> int:
    """Every seat plays random legal moves (``choose(legal, rng)``: one picked so; waiting for each ack)
    until the game ends or ``limit``."""
    moves = 0
    quiet = 0  # rounds in a row in which no seat knew a move to make
    while moves < limit:
        mover = None
        for seat, c in clients.items():
            st = c.last_state
            if st is not None and st["stateVersion"] >= c.newest and st["view"]["finished"]:
                return moves
            if st is not None and st["stateVersion"] >= c.newest and st["legal"]:
                mover = seat
        if mover is None:  # nobody knows yet: read from the seat to move
            quiet += 1
            assert quiet < 400, f"no seat was told of a move to make for {quiet} rounds (20 s and more)"
            for c in clients.values():
                with contextlib.suppress(TimeoutError):
                    c.recv(0.05)
            continue
        quiet = 0
        c = clients[mover]
        st = c.last_state
        assert st is not None
        move = choose(st["legal"], rng) if choose is not None else rng.choice(st["legal"])
        c.send({"type": "move", "move": move, "stateVersion": st["stateVersion"],
                "id": f"m{moves}"})
        ack = c.until("ack")
        assert ack["id"] == f"m{moves}" and ack["stateVersion"] == st["stateVersion"] + 1
        moves += 1
    return moves


def test_healthz_and_openapi(server: ServerThread) -> None:
    health = httpx.get(server.base + "/healthz").json()
    assert health["ok"] is True and health["db"] in ("sqlite", "postgresql")
    schema = httpx.get(server.base + "/openapi.json").json()
    assert "/api/tables" in schema["paths"] and "CreateTableRequest" in schema["components"]["schemas"]


def test_lobby_join_play_spectate_record_stats(server: ServerThread) -> None:
    base = server.base
    r = httpx.post(base + "/api/tables", json={"preset": "short", "name": "ann"}).json()
    table_id, token0 = r["table"]["id"], r["token"]
    assert r["ws"] == f"/ws/{table_id}"
    listed = httpx.get(base + "/api/tables").json()
    assert [t["id"] for t in listed] == [table_id]
    assert [s["status"] for s in listed[0]["seats"]] == ["disconnected", "free"]
    assert "token" not in json.dumps(listed)
    link = httpx.get(base + r["table"]["link"]).json()
    assert link["id"] == table_id

    ann = Client(base, table_id)
    welcome = ann.hello(token0)
    assert welcome["seat"] == 0 and welcome["stateVersion"] == 0 and welcome["table"]["status"] == "open"
    ann.send({"type": "move", "move": "pass", "stateVersion": 0})
    assert ann.until("error")["code"] == "not-started"

    joined = httpx.post(base + f"/api/tables/{table_id}/join", json={"name": "bob"}).json()
    token1 = joined["token"]
    assert httpx.get(base + "/api/tables").json() == []
    playing = httpx.get(base + "/api/tables", params={"status": "playing"}).json()
    assert [t["id"] for t in playing] == [table_id]
    # the event's words: the catalogue key and parameters that clients word in the player's language
    assert ann.until("table", event={"kind": "joined", "seat": 1, "text": "bob took seat 1",
                                     "words": {"key": "event.joined", "params": {"name": "bob", "seat": 1}}})
    assert ann.until("table")["event"]["kind"] == "started"

    # before every person said hello the deal is not made: nobody sees a card of it (docs/fairness.md)
    assert all(p["hand"] is None for p in welcome["view"]["players"]) and welcome["legal"] == []
    assert welcome["fair"]["dealt"] is False and len(welcome["fair"]["commitment"]) == 64
    bob = Client(base, table_id)
    assert bob.hello(token1)["seat"] == 1
    welcome = ann.until("state")  # the deal, once bob said hello
    assert welcome["fair"]["dealt"] is True and welcome["view"]["players"][0]["hand"]
    assert ann.until("table")["event"] == {"kind": "connected", "seat": 1, "text": "bob is at seat 1",
                                           "words": {"key": "event.connected", "params": {"name": "bob", "seat": 1}}}
    watcher = Client(base, table_id)
    seen = watcher.hello(spectate=True)
    assert seen["seat"] is None and seen["legal"] == []
    assert all(p["hand"] is None for p in seen["view"]["players"])

    # ping, sync
    ann.send({"type": "ping", "id": "p1"})
    assert ann.until("pong") == {"type": "pong", "id": "p1"}
    ann.send({"type": "sync"})
    synced = ann.until("state")
    assert synced["stateVersion"] == 0 and synced["view"] == welcome["view"]

    # a move: ack to the mover (committed first), state to everyone
    mover, other = (ann, bob) if welcome["view"]["to_move"] == 0 else (bob, ann)
    st = latest_state(mover)
    move = st["legal"][0]
    mover.send({"type": "move", "move": move, "stateVersion": 0, "id": "x"})
    ack = mover.until("ack")
    assert ack == {"type": "ack", "id": "x", "move": move, "stateVersion": 1}
    with server.manager.store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(db.moves)).scalar() == 1
    cards = set()
    for c in (mover, other, watcher):
        state = c.until("state", stateVersion=1)
        told = {k: v for k, v in state["last"].items() if k != "game"}
        assert told == {"seat": 0 if mover is ann else 1, "move": move, "byBot": False}
        cards.add(state["last"].get("game", {}).get("card"))
    assert len(cards) == 1 and None not in cards  # the card the move laid face up, for everyone
    # no REST answer about the unfinished game holds its secret or the seed it gives (docs/fairness.md)
    fair = server.manager.tables[table_id].fair
    for path in ("/api/tables", "/api/tables?status=playing", f"/api/tables/{table_id}", "/healthz",
                 "/api/players/ann/games", "/api/players/ann/stats", "/openapi.json"):
        text = httpx.get(base + path).text
        assert fair.secret.hex() not in text and fair.seed() not in text, path

    # play to the end; game over to everyone, with the record
    play_random({0: ann, 1: bob}, random.Random(3))
    over = ann.until("gameOver")
    assert bob.until("gameOver") == over and watcher.until("gameOver") == over
    record = httpx.get(base + over["recordUrl"])
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    replayed = replay(record_from_json(record.json()))
    assert replayed.check()["finished"] and replayed.check()["result"] == over["result"]
    assert replayed.plies >= over["stateVersion"]
    for c in (ann, bob, watcher):
        check_models(c)
        c.close()

    games = httpx.get(base + "/api/players/ann/games").json()
    assert [g["id"] for g in games] == [over["gameId"]] and games[0]["tableId"] == table_id
    stats = httpx.get(base + "/api/players/ann/stats").json()
    (row,) = stats["presets"]
    assert row["preset"] == "short" and row["games"] == 1 and row["wins"] == int(over["result"]["winner"] == 0)
    assert row["mean_turns"] > 0
    finished = httpx.get(base + f"/api/tables/{table_id}").json()
    assert finished["status"] == "finished" and finished["gameId"] == over["gameId"]
    late = Client(base, table_id)
    late.send({"type": "hello", "spectate": True})
    err = late.until("error")
    assert err["code"] == "no-table" and str(over["gameId"]) in err["message"]


def test_quick_play_against_a_bot(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/quickplay", json={"name": "cat", "level": "easy", "preset": "short"}).json()
    assert r["table"]["status"] == "playing" and r["table"]["seats"][1]["status"] == "bot"
    c = Client(server.base, r["table"]["id"])
    c.hello(r["token"])
    play_random({0: c}, random.Random(1))
    over = c.until("gameOver")
    assert any(m["type"] == "state" and m["last"] and m["last"]["byBot"] for m in c.received)
    stats = httpx.get(server.base + "/api/players/bot:easy/stats").json()
    assert stats["presets"][0]["games"] == 1
    assert over["result"]["reason"] in ("stock", "blocked", "turn-limit", "draw-pile-empty")
    check_models(c)


def test_quick_play_takes_any_game_preset_and_level_of_the_registry(server: ServerThread) -> None:
    """Quick play seats you at seat 0 against bots at every other seat of the preset (what the bots do
    there: tests/server/test_table_games.py)."""
    for preset, seats in (("party", 3), ("partners", 4)):
        r = httpx.post(server.base + "/api/quickplay", json={"name": "dan", "level": "easy", "preset": preset})
        assert r.status_code == 200, r.text
        table = r.json()["table"]
        assert table["status"] == "playing" and table["preset"] == preset and len(table["seats"]) == seats
        assert table["seats"][0] == {"seat": 0, "kind": "person", "level": None, "player": "dan",
                                     "status": "disconnected", "botLevel": None}
        assert all(s["kind"] == "bot" and s["level"] == "easy" for s in table["seats"][1:])
    r = httpx.post(server.base + "/api/quickplay", json={"name": "eli", "game": "spit"})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["game"] == "spit" and [s["kind"] for s in table["seats"]] == ["person", "bot"]
    assert table["seats"][1]["level"] == "club"  # the game's own default level
    bad = httpx.post(server.base + "/api/quickplay", json={"preset": "no-such-preset"})
    assert bad.status_code == 400 and "no-such-preset" in bad.json()["detail"]
    # the levels of every game are a Spit table's too (the same words as spite tui and spite tournament)
    medium = httpx.post(server.base + "/api/quickplay", json={"game": "spit", "level": "medium"})
    assert medium.status_code == 200 and medium.json()["table"]["seats"][1]["level"] == "medium"
    wrong = httpx.post(server.base + "/api/quickplay", json={"game": "spit", "level": "random"})
    assert wrong.status_code == 400


def test_a_refusal_of_bad_options_carries_the_engines_words(server: ServerThread) -> None:
    """Options that cannot be dealt are refused with the engine's one line and its catalogue words,
    so that the page says it in the person's language (issue 41: the lobby's refusal was English)."""
    r = httpx.post(server.base + "/api/quickplay",
                   json={"name": "dan", "preset": "party", "options": {"stock_size": 50}})
    assert r.status_code == 400
    body = r.json()
    assert body["detail"] == "3 stocks of 50 and 3 hands of 5 need 165 cards, the deck has 162"
    assert body["words"] == {"key": "options.too-few-cards",
                             "params": {"stocks": 3, "stock": 50, "hands": 3, "hand": 5, "need": 165, "have": 162}}
    german = catalogue.word("de", Phrase(body["words"]["key"], body["words"]["params"]), body["detail"])
    assert german.startswith("3 Vorratsstapel mit je 50 Karten"), german
    spit = httpx.post(server.base + "/api/quickplay", json={"game": "spit", "options": {"centers": 4}})
    assert spit.status_code == 400
    assert spit.json()["words"] == {"key": "options.choice",
                                    "params": {"option": "centers", "value": 4, "choices": "2, 3"}}


def test_a_hint_is_the_hint_bots_answer_to_the_asker(server: ServerThread) -> None:
    """``hint``: what the hint bot would play, worked out in the bot workers from the asking seat's view
    (who may ask, and when: tests/server/test_table_games.py)."""
    table_id, tokens = two_person_table(server, "classic", {"stock_size": 20})
    ann, bob = Client(server.base, table_id), Client(server.base, table_id)
    ann.hello(tokens[0])
    bob.hello(tokens[1])
    version = ann.until("state", stateVersion=0)["stateVersion"]  # the deal, once bob said hello
    for _ in range(3):
        mover = next(c for c in (ann, bob) if c.last_state is not None and c.last_state["legal"])
        st = mover.last_state
        assert st is not None and st["stateVersion"] == version
        mover.send({"type": "hint", "id": "h1"})
        hint = mover.until("hint")
        assert hint["id"] == "h1" and hint["stateVersion"] == version
        assert hint["move"] in st["legal"] and hint["why"] and "\n" not in hint["why"]
        # the why as catalogue phrases too: English worded from them is the bot's own line's start
        assert hint["whyWords"] and all(catalogue.has(w["key"]) for w in hint["whyWords"])
        phrases = [Phrase(w["key"], w["params"]) for w in hint["whyWords"]]
        assert catalogue.words("de", phrases) != hint["why"]
        # the hint changes nothing: the seat plays on (the hinted move, here)
        mover.send({"type": "move", "move": hint["move"], "stateVersion": version, "id": "m"})
        assert mover.until("ack")["stateVersion"] == version + 1
        version += 1
        for c in (ann, bob):
            c.until("state", stateVersion=version)
    for c in (ann, bob):
        check_models(c)
        c.close()


def test_bots_only_table_plays_itself(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/tables", json={
        "preset": "short", "join": False,
        "seats": [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]})
    info = r.json()
    assert info["status"] == "playing" and "token" not in info
    assert finished_table(server.base, info["id"])["gameId"] is not None


def test_disconnect_grace_takeover_and_return(server: ServerThread) -> None:
    table_id, tokens = two_person_table(server)
    ann, bob = Client(server.base, table_id), Client(server.base, table_id)
    ann.hello(tokens[0])
    bob.hello(tokens[1])
    bob.close()
    dropped = ann.until("table", event={"kind": "disconnected", "seat": 1,
                                        "text": "bob dropped from seat 1; a bot takes over in 2 s",
                                        "words": {"key": "event.disconnected",
                                                  "params": {"name": "bob", "seat": 1, "s": "2"}}})
    assert dropped["table"]["seats"][1]["status"] == "disconnected"
    took = ann.until("table", timeout=5)
    assert took["event"]["kind"] == "takeover" and took["table"]["seats"][1]["status"] == "bot"
    assert took["table"]["seats"][1]["botLevel"] == "easy"
    # the bot plays seat 1 whenever it is to move; ann plays a few moves
    play_random({0: ann}, random.Random(2), limit=12)
    bob = Client(server.base, table_id)
    welcome = bob.hello(tokens[1])
    assert welcome["seat"] == 1
    back = bob.until("table")
    assert back["event"]["kind"] == "returned" and back["table"]["seats"][1]["status"] == "connected"
    assert ann.until("table", event=back["event"])
    play_random({0: ann, 1: bob}, random.Random(4))
    ann.until("gameOver")


REFUSALS = [
    ({"preset": "chess"}, 400, "unknown preset 'chess'"),
    ({"options": {"players": 3, "partnerships": True}}, 400, "partnerships need exactly 4 players"),
    ({"seats": [{"kind": "person"}]}, 400, "has 2 seats, not 1"),
    ({"seats": [{"kind": "person"}, {"kind": "bot", "level": "cmd:rm"}]}, 422, ""),
    ({"seats": [{"kind": "person"}, {"kind": "bot"}]}, 400, "a bot seat needs a level"),
    ({"seats": [{"kind": "person"}, {"kind": "bot", "level": "club"}]}, 400, "a bot seat needs a level"),
    ({"game": "spit", "options": {"centers": 4}}, 400, "centers must be 2 or 3"),
    ({"game": "spit", "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}]}, 400, "reflex:MS"),
    ({"name": ""}, 422, ""),
    ({"game": "chess"}, 422, "unknown game 'chess'"),
]


def test_lobby_refusals(server: ServerThread) -> None:
    for body, status, text in REFUSALS:
        r = httpx.post(server.base + "/api/tables", json=body)
        assert r.status_code == status, (body, r.text)
        if text:
            assert text in r.json()["detail"] and "\n" not in r.json()["detail"]
    assert httpx.get(server.base + "/api/tables").json() == []


def test_join_refusals(server: ServerThread) -> None:
    table_id, _tokens = two_person_table(server)
    r = httpx.post(server.base + f"/api/tables/{table_id}/join", json={"name": "eve"})
    assert r.status_code == 409 and "playing" in r.json()["detail"]
    assert httpx.post(server.base + "/api/tables/nope/join", json={}).status_code == 404
    assert httpx.get(server.base + "/api/tables/nope").status_code == 404
    assert httpx.get(server.base + "/api/games/999/record").status_code == 404


def test_game_types_describe_every_served_game_for_the_page(server: ServerThread) -> None:
    """The page builds its lobby and opens a table's screen from this list, never from a game's name:
    every registered game with a server hook is in it, with its presets' seats and its levels."""
    from spite.games import get_game
    from spite.server.manager import served_games, server_game

    types = httpx.get(server.base + "/api/game-types").json()
    assert [t["name"] for t in types] == list(served_games())
    for t in types:
        game = get_game(t["name"])
        assert t["realtime"] == game.realtime and t["defaultPreset"] == game.default_preset
        assert [(p["name"], p["seats"]) for p in t["presets"]] == [(p, game.seats(p)) for p in game.presets]
        assert t["defaultLevel"] in t["levels"] or t["realtime"]
        assert t["quickPreset"] in [p["name"] for p in t["presets"]]
        # the page module comes from the game's own folder (its family's package, which its hook names)
        listing = server_game(t["name"]).listing
        assert listing.web is not None and t["page"] == f"/static/games/{t['name']}/{listing.page}"
        module = httpx.get(server.base + t["page"])
        assert module.status_code == 200 and module.text == (listing.web / listing.page).read_text()
        assert "export const openGame" in module.text
        board = httpx.get(server.base + t["page"].rsplit("/", 1)[0] + "/replay-board.js")
        assert board.status_code == 200 and "ReplayBoard" in board.text  # the replay board beside it
        for level in t["levels"]:  # a bot seat of every level offered is accepted (raises otherwise)
            server_game(t["name"]).check_bot(t["name"], level)
        # the lobby's picture of the table: card tokens the deck knows, backs, places; no court card
        # (its figure would be one more file for the lobby to fetch)
        assert t["picture"], t["name"]
        cards = [c for row in t["picture"] for c in row if c not in ("#", "")]
        assert cards and all(re.fullmatch(r"(A|[2-9]|10)[SHDC]|X", c) for c in cards), cards
    party = next(p for t in types for p in t["presets"] if p["name"] == "party")
    assert party["seats"] == 3


def test_an_ack_made_as_text_is_the_ack_message_clients_were_always_sent() -> None:
    from spite.server.protocol import Ack, ack_text

    cases = [dict(id=None, move="S1>B0", stateVersion=3), dict(id="m-7", move="H3>D2", stateVersion=12),
             dict(id="ü\"\\/\n", move="D", stateVersion=1, undone=True),
             dict(id=None, move="a>b", stateVersion=5, game={"t": 1250})]
    for fields in cases:
        text = ack_text(fields["move"], fields["stateVersion"], msg_id=fields["id"], undone=fields.get("undone"),
                        game=fields.get("game"))
        assert text == Ack(**fields).model_dump_json()
