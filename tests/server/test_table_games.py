"""Games in a row at one table, in memory (tests/server/table_harness.py): the rematch at the same
link (every person asked, a series score that survives a restart), a match's games to its target,
undo inside a turn, and which seats may ask for a hint. Every message a seat is sent is checked
against the protocol's models.

The parts that need a real server stay socket tests: the hint bot's own answer
(tests/server/test_protocol.py), the players' game lists and statistics
(tests/server/test_contract.py, test_players.py) and a finished table brought back from the
database by a person's hello after a restart (tests/server/test_recovery.py).
"""

from __future__ import annotations

import random
from typing import Any

from table_harness import Client, Harness, config, play_out

from spite.cards import parse_cards
from spite.malice import Options, State
from spite.malice.server import undo_floor_of, unpack_view
from spite.records import record_from_json, replay
from spite.server.lobby import stored_info
from spite.server.protocol import RematchRequest, SeatRequest
from waiting import bounded

PERSON = SeatRequest(kind="person")
BIG = {"stock_size": 20}
MATCH = {"match_target": 2, "stock_size": 3}


def bot(level: str = "easy") -> SeatRequest:
    return SeatRequest(kind="bot", level=level)


def two_people(preset: str = "short", options: dict[str, Any] | None = None,
               **settings: Any) -> tuple[Harness, Client, Client]:
    """A table ann made and bob joined, both connected (ann first)."""
    h = Harness("spite-malice", preset, {"stock_size": 5} if options is None else options,
                settings=config(**settings))
    h.join("ann")
    h.join("bob")
    return h, h.connect(0), h.connect(1)


def against_a_bot(preset: str = "short", options: dict[str, Any] | None = None, level: str = "easy",
                  name: str = "cat", **settings: Any) -> tuple[Harness, Client]:
    """Quick play: a person at seat 0 against a bot, connected."""
    h = Harness("spite-malice", preset, {"stock_size": 5} if options is None else options,
                seats=[PERSON, bot(level)], settings=config(**settings))
    h.join(name)
    return h, h.connect(0)


def to_the_end(h: Harness, clients: list[Client], seed: int) -> list[dict[str, Any]]:
    """Random legal moves until the game ends; every client's ``gameOver`` (the same for all)."""
    play_out(h, clients, random.Random(seed))
    overs = [c.last("gameOver") for c in clients]
    assert overs[0] is not None and all(o == overs[0] for o in overs)
    return overs  # type: ignore[return-value]


def told(client: Client, kind: str, text: str, seat: int | None = None) -> dict[str, Any]:
    """The last ``table`` message whose event is ``kind``; its ``seat`` and English ``text`` checked."""
    msg = next((m for m in reversed(client.received) if m["type"] == "table" and m["event"]["kind"] == kind), None)
    assert msg is not None, f"no {kind} event: {client.events()}"
    assert msg["event"]["seat"] == seat and msg["event"]["text"] == text, msg["event"]
    return msg


def new_game_state(client: Client, after: int) -> dict[str, Any]:
    """The first ``state`` of the next game: the version after the finished game's, nothing finished
    (a bot that begins may have moved since)."""
    state = next((m for m in client.received if m["type"] == "state" and m["stateVersion"] == after + 1), None)
    assert state is not None and not state["view"]["finished"], client.kinds()[-5:]
    assert state["last"] is None
    return state


def verdict_of(h: Harness, game_id: int) -> Any:
    """A stored game's record replayed (``spite replay``'s check)."""
    (stored,) = [g for g in h.store.games if g["id"] == game_id]
    return replay(record_from_json(stored["record"])).check()


def stored_listing(h: Harness) -> dict[str, Any]:
    """The table as the lobby lists it from the database once it is no longer in memory."""
    found = {"row": h.store.row, "seats": list(h.store.seats.values()),
             "game_id": h.store.games[-1]["id"] if h.store.games else None}
    return stored_info(found).model_dump()


# ====================================================================== rematch
def test_rematch_with_a_friend_at_the_same_table() -> None:
    h, ann, bob = two_people()
    watcher = h.connect()
    ann_no = h.rematch(ann)  # not before the end
    assert ann_no[0]["code"] == "no-rematch" and ann_no[0]["message"] == "no rematch now: the game is still in play"
    first = to_the_end(h, [ann, bob, watcher], 3)[0]
    winner = first["result"].get("winner")
    # both persons are asked; the series counts the game
    assert first["rematch"] == {"ready": [], "waiting": [0, 1], "declined": []}
    assert first["series"]["games"] == 1 and first["series"]["gameIds"] == [first["gameId"]]
    assert first["series"]["wins"] == [int(winner == 0), int(winner == 1)]

    # a spectator is not asked
    assert h.rematch(watcher)[0]["code"] == "not-your-seat"

    # bob says no first, then ann yes: nothing begins, both are told who said what
    h.rematch(bob, accept=False)
    said_no = ann.last("rematch")
    assert said_no is not None and said_no["rematch"] == {"ready": [], "waiting": [0], "declined": [1]}
    no = told(ann, "rematch-no", "bob does not want a rematch", seat=1)
    assert no["event"]["words"] == {"key": "event.rematch-no", "params": {"name": "bob", "seat": 1}}
    h.rematch(ann)
    told(bob, "rematch-yes", "ann wants a rematch", seat=0)
    asked = bob.last("rematch")
    assert asked is not None and asked["rematch"] == {"ready": [0], "waiting": [], "declined": [1]}
    assert asked["series"]["games"] == 1
    assert h.core.info().status == "finished" and h.store.row["status"] == "finished"

    # bob changes his mind: the new game begins at the same table, same seats, next version
    h.send(bob, RematchRequest(type="rematch", id="r1"))
    for c in (ann, bob, watcher):
        begun = told(c, "rematch", "everyone wants a rematch: game 2 at this table begins")
        assert begun["event"]["words"] == {"key": "event.rematch", "params": {"n": 2}}
        assert begun["table"]["id"] == "T1" and begun["table"]["status"] == "playing"
        assert [(s["player"], s["kind"]) for s in begun["table"]["seats"]] == [("ann", "person"), ("bob", "person")]
        assert begun["table"]["series"]["games"] == 1
        state = new_game_state(c, first["stateVersion"])
    to_move = state["view"]["to_move"]
    assert [c.legal != [] for c in (ann, bob)] == [to_move == 0, to_move == 1]
    assert h.core.info().status == "playing" and h.store.row["status"] == "playing"

    # the second game is stored as a game of its own; the series goes on
    second = to_the_end(h, [ann, bob, watcher], 4)[0]
    assert second["gameId"] != first["gameId"] and second["stateVersion"] > first["stateVersion"]
    assert second["series"]["games"] == 2 and second["series"]["gameIds"] == [first["gameId"], second["gameId"]]
    assert sum(second["series"]["wins"]) == sum(first["series"]["wins"]) + int(
        second["result"].get("winner") is not None)
    info = h.core.info().model_dump()
    assert info["status"] == "finished" and info["series"] == second["series"]
    assert [g["id"] for g in h.store.games] == [first["gameId"], second["gameId"]]
    for game in h.store.games:
        assert [p["player"] for p in game["players"]] == ["ann", "bob"]
        assert verdict_of(h, game["id"])["finished"]
    for c in (ann, bob, watcher):
        c.check_models()


def test_rematch_against_a_bot_survives_a_restart() -> None:
    h, cat = against_a_bot()
    first = to_the_end(h, [cat], 5)[0]
    assert first["rematch"] == {"ready": [1], "waiting": [0], "declined": []}  # the bot agrees at once
    h.rematch(cat)
    new_game_state(cat, first["stateVersion"])
    second = to_the_end(h, [cat], 6)[0]
    assert second["series"]["games"] == 2

    # the server stops (as a restart would): the finished table is only in the database
    h.leave(cat)
    h.restart()
    stored = stored_listing(h)
    assert stored["status"] == "finished" and stored["series"] == second["series"]
    assert stored["gameId"] == second["gameId"]
    cat = h.connect(0)
    welcome = cat.last("welcome")
    assert welcome is not None and welcome["table"]["status"] == "finished"
    assert welcome["table"]["series"] == second["series"]
    again = cat.last("gameOver")
    assert again is not None and again["gameId"] == second["gameId"] and again["rematch"]["waiting"] == [0]
    h.rematch(cat)
    state = new_game_state(cat, second["stateVersion"])
    assert state["view"]["players"][0]["hand"] is not None
    third = to_the_end(h, [cat], 7)[0]
    assert third["series"]["games"] == 3 and len(set(third["series"]["gameIds"])) == 3
    # a wrong token brings nothing back
    eve = h.connect(token="x" * 32)
    assert eve.kinds() == ["error"] and eve.received[0]["code"] == "wrong-token" and eve.closed == 1008
    cat.check_models()


def test_quick_play_party_and_partners_against_bots() -> None:
    for preset, seats in (("party", 3), ("partners", 4)):
        h = Harness("spite-malice", preset, {}, seats=[PERSON] + [bot()] * (seats - 1))
        h.join("dan")
        table = h.core.info().model_dump()
        assert table["status"] == "playing" and table["preset"] == preset and len(table["seats"]) == seats
        assert table["seats"][0] == {"seat": 0, "kind": "person", "level": None, "player": "dan",
                                     "status": "disconnected", "botLevel": None}
        assert all(s["kind"] == "bot" and s["level"] == "easy" and s["status"] == "bot" for s in table["seats"][1:])
        dan = h.connect(0)
        welcome = dan.last("welcome")
        assert welcome is not None and len(welcome["view"]["players"]) == seats
        # the bots play their turns: every other seat moves while dan plays his
        rng = random.Random(8)

        def movers(dan: Client = dan) -> set[int]:
            return {m["last"]["seat"] for m in dan.received if m["type"] == "state" and m["last"]}

        for _ in range(300):
            if movers() >= set(range(1, seats)) or h.core.state.is_over:
                break
            play_out(h, [dan], rng, moves=1)
        assert movers() >= set(range(1, seats))
        assert all(m["last"]["byBot"] == (m["last"]["seat"] != 0)
                   for m in dan.received if m["type"] == "state" and m["last"])
        dan.check_models()


def test_rematch_of_a_match_starts_a_new_match() -> None:
    """At a match table the question comes once the match is over (not between its games), the
    series counts the match once (for its winner), and the rematch is a new match from 0 points."""
    h, cat = against_a_bot("classic", {"match_target": 2, "stock_size": 2})
    rng = random.Random(21)
    for _ in bounded(20, "the match's end"):
        play_out(h, [cat], rng)
        over = cat.last("gameOver")
        assert over is not None
        if over["game"]["match"]["over"]:
            break
        assert "rematch" not in over and "series" not in over  # between the match's games: no question
        refused = h.rematch(cat)
        assert refused[0]["code"] == "no-rematch"
        h.next(cat)
        new_game_state(cat, over["stateVersion"])
    winner = over["game"]["match"]["winner"]
    assert over["series"]["games"] == 1 and over["series"]["wins"] == [int(winner == 0), int(winner == 1)]
    assert over["series"]["gameIds"] == [over["gameId"]]
    assert over["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
    h.rematch(cat)
    state = new_game_state(cat, over["stateVersion"])
    match = state["game"]["match"]
    assert match["scores"] == [0, 0] and match["game"] == 1 and not match["over"]
    cat.check_models()


def test_a_seat_taken_over_is_asked_for_a_rematch_only_when_its_person_is_back() -> None:
    """The game a takeover bot finished is stored in the person's name, marked; no new game starts in
    an absent person's name: their seat waits for their own answer."""
    h, ann, bob = two_people(grace_seconds=2.0)
    h.leave(ann)
    dropped = told(bob, "disconnected", "ann dropped from seat 0; a bot takes over in 2 s", seat=0)
    assert dropped["event"]["words"] == {"key": "event.disconnected", "params": {"name": "ann", "seat": 0, "s": "2"}}
    h.advance(1.9)
    assert h.seat(0).controller == "person"
    h.advance(0.1)
    took = told(bob, "takeover", "ann did not come back within 2 s: a medium bot plays seat 0", seat=0)
    assert took["table"]["seats"][0]["status"] == "bot" and took["table"]["seats"][0]["botLevel"] == "medium"
    over = to_the_end(h, [bob], 9)[0]
    (game,) = h.store.games
    assert [(p["player"], p["taken_over"]) for p in game["players"]] == [("ann", True), ("bob", False)]

    assert over["rematch"] == {"ready": [], "waiting": [0, 1], "declined": []}
    h.rematch(bob)
    asked = bob.last("rematch")
    assert asked is not None and asked["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
    assert h.core.status == "finished"
    ann = h.connect(0)
    again = ann.last("gameOver")
    assert again is not None and again["rematch"]["waiting"] == [0]
    told(bob, "returned", "ann is back at seat 0; the bot leaves", seat=0)
    h.rematch(ann)
    begun = told(bob, "rematch", "everyone wants a rematch: game 2 at this table begins")
    assert [s["status"] for s in begun["table"]["seats"]] == ["connected", "connected"]
    new_game_state(bob, over["stateVersion"])
    for c in (ann, bob):
        c.check_models()


def test_a_person_who_left_after_saying_yes_is_taken_over_after_the_grace_time() -> None:
    h, ann, bob = two_people(grace_seconds=5.0)
    to_the_end(h, [ann, bob], 1)
    h.rematch(ann)
    h.leave(ann)
    h.rematch(bob)
    assert h.core.status == "playing" and not h.seat(0).conns
    h.advance(5.0)
    assert h.seat(0).controller == "bot" and bob.events()[-1] == "takeover"


def test_a_connected_person_whose_idle_seat_a_bot_finished_may_answer_the_rematch() -> None:
    h, cat = against_a_bot(options={"stock_size": 3}, turn_seconds=10.0, turn_warning=2.0, bot_delay=0.5)
    h.run_until(lambda: h.core.state.is_over, dt=1.0)  # cat sits and watches: the bot plays the seat
    assert "idle-takeover" in cat.events() and cat.closed is None
    over = cat.last("gameOver")
    assert over is not None and over["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
    answer = h.rematch(cat)
    assert not [m for m in answer if m["type"] == "error"], answer
    assert h.core.status == "playing"  # the bot said yes already: the rematch begins


# ====================================================================== hints
def test_a_hint_is_asked_of_the_hint_bot_for_the_seat_to_move_alone() -> None:
    """What the hint bot answers goes out from the bot workers (tests/server/test_protocol.py); the
    table asks it from the asking seat's view, in the position of now, and refuses everyone else."""
    h, ann, bob = two_people("classic", BIG)
    watcher = h.connect()
    for _ in range(6):
        mover, other = (ann, bob) if ann.legal else (bob, ann)
        seat = mover.seat
        assert seat is not None
        version = h.core.version
        sent = len(h.sent)
        assert h.hint(mover, msg_id="h1") == []  # the answer comes from the bot, to the asker alone
        asked = h.hints[-1]
        assert (asked.conn, asked.msg_id, asked.version, asked.level) == (mover.conn, "h1", version, "hard")
        seen = unpack_view(asked.ask.view)  # what goes to the bot worker: the asking seat's view alone
        assert asked.ask.seat == seen.seat == seat and seen.to_json() == mover.position["view"]  # type: ignore[index]
        assert len(h.sent) == sent and h.core.version == version  # a hint changes nothing
        refused = h.hint(other, msg_id="h2")
        assert [m["type"] for m in refused] == ["error"]
        assert refused[0]["code"] == "not-your-turn" and refused[0]["id"] == "h2"
        assert refused[0]["words"] == {"key": "error.not-your-turn.seat", "params": {"seat": seat}}
        h.move(mover, mover.legal[0])
    assert h.hint(watcher)[0]["code"] == "not-your-seat"
    assert len(h.hints) == 6
    for c in (ann, bob, watcher):
        c.check_models()


def test_hint_undo_and_next_refused_once_the_game_is_over() -> None:
    h, ann, bob = two_people(options={"stock_size": 2})
    to_the_end(h, [ann, bob], 3)
    assert h.hint(ann, msg_id="late")[0]["code"] == "game-over"
    assert h.undo(ann)[0]["code"] == "game-over"
    refused = h.next(ann)[0]
    assert refused["code"] == "no-next-game" and "single game" in refused["message"]
    assert not h.hints


def test_no_hint_before_the_deal_nor_for_a_seat_a_bot_plays() -> None:
    h = Harness("spite-malice", "short", {"stock_size": 5})
    h.join("ann")
    h.join("bob")
    ann = h.connect(0)
    assert h.hint(ann)[0]["code"] == "not-started"  # bob has not said hello: nothing is dealt
    h, cat = against_a_bot(options=BIG, turn_seconds=20.0, turn_warning=5.0, bot_delay=1.0)
    h.run_until(lambda: h.seat(0).controller == "bot", dt=0.5)  # cat sat idle: a bot plays the seat
    refused = h.hint(cat)[0]
    assert refused["code"] == "not-your-seat" and refused["words"] == {"key": "error.not-your-seat.bot", "params": {}}
    assert h.seat(0).controller == "bot"  # asking is not acting: the seat stays the bot's
    assert not h.hints


# ====================================================================== undo
def hand_build(h: Harness, client: Client) -> str | None:
    """A build play from a hand of more than one card (it cannot refill the hand)."""
    pos = client.position
    assert pos is not None
    if pos["view"]["players"][client.seat]["hand_size"] < 2:  # type: ignore[index]
        return None
    return next((m for m in client.legal if m.startswith("H") and "-B" in m), None)


def play_until(h: Harness, clients: list[Client], want: Any, rng: random.Random,
               limit: int = 400) -> tuple[Client, str]:
    """Random moves (builds first, so cards flow) until the seat to move has a move ``want`` picks."""
    for _ in range(limit):
        assert not h.core.state.is_over, "the game ended first"
        mover = next(c for c in clients if c.legal)
        chosen = want(h, mover)
        if chosen is not None:
            return mover, chosen
        builds = [m for m in mover.legal if "-B" in m]
        h.move(mover, rng.choice(builds or mover.legal))
    raise AssertionError("no such position came up")


def test_undo_takes_back_a_build_play_and_only_that() -> None:
    h, ann, bob = two_people("classic", BIG)
    watcher = h.connect()
    for c in (ann, bob):
        welcome = c.last("welcome")
        assert welcome is not None and welcome["game"]["canUndo"] is False and "match" not in welcome.get("game", {})
    rng = random.Random(8)
    c, move = play_until(h, [ann, bob], hand_build, rng)
    seat = c.seat
    other = bob if c is ann else ann
    v = h.core.version
    before = c.position
    assert before is not None
    plies_before = len(h.store.moves)

    acked = h.move(c, move, msg_id=f"mv{v}")
    assert acked[0] == {"type": "ack", "id": f"mv{v}", "move": move, "stateVersion": v + 1}
    assert c.position["game"]["canUndo"] is True  # type: ignore[index]
    assert other.position["game"]["canUndo"] is False and watcher.position["game"]["canUndo"] is False  # type: ignore[index]
    assert len(h.store.moves) == plies_before + 1
    told = {client.conn: client.last("state")["last"] for client in (c, other, watcher)}  # type: ignore[index]
    target = int(move.split("-B")[1]) - 1
    assert told[c.conn]["game"]["card"] == c.position["view"]["builds"][target]["top"]  # type: ignore[index]

    # the opponent cannot take it back, nor the mover with a stale version, nor a spectator
    assert h.undo(other, msg_id="o")[0]["code"] == "not-your-turn"
    assert h.undo(c, version=v, msg_id="s")[0]["code"] == "stale"
    assert h.undo(watcher)[0]["code"] == "not-your-seat"

    ack = h.undo(c, msg_id="u")[0]
    assert ack == {"type": "ack", "id": "u", "move": move, "stateVersion": v + 2, "undone": True}
    for client in (c, other, watcher):
        st = client.last("state")
        assert st is not None and st["stateVersion"] == v + 2
        # the move taken back, told as the move was (its card too)
        assert st["last"] == {**told[client.conn], "undone": True}
        assert {k: st["last"][k] for k in ("seat", "move", "byBot")} == {"seat": seat, "move": move, "byBot": False}
    back = c.position
    assert back is not None and back["view"] == before["view"] and back["legal"] == before["legal"]
    assert len(h.store.moves) == plies_before  # the row is gone, committed before the broadcast
    assert h.core.version == v + 2 and h.store.row["version_base"] == 2

    # the same move again: it goes on at v + 3
    assert h.move(c, move)[0]["stateVersion"] == v + 3

    # a discard ends the turn: nothing of it can be taken back (it is the other seat's turn)
    c, discard = play_until(h, [ann, bob], lambda _h, cl: next((m for m in cl.legal if "-D" in m), None), rng)
    h.move(c, discard)
    err = h.undo(c, msg_id="d")[0]
    assert err["code"] == "not-your-turn" and err["stateVersion"] == h.core.version

    # a stock play shows the next stock card: no undo
    c, stock = play_until(h, [ann, bob], lambda _h, cl: next((m for m in cl.legal if m.startswith("S-B")), None), rng)
    h.move(c, stock)
    if not h.core.state.is_over:
        assert c.position["game"]["canUndo"] is False  # type: ignore[index]
        err = h.undo(c, msg_id="st")[0]
        assert err["code"] == "nothing-to-undo" and "\n" not in err["message"]
        assert err["words"] == {"key": "refuse.nothing-to-undo", "params": {}}
    for client in (ann, bob, watcher):
        client.check_models()
        # versions only ever rose
        versions = [m["stateVersion"] for m in client.received if m["type"] == "state" and m.get("last")]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)


def test_undo_refused_after_a_refill() -> None:
    """With a hand of one card every build play from the hand refills it: never taken back."""
    for seed in range(8):  # the deal is random: a game may end before such a play comes up
        h = Harness("spite-malice", "classic", {"hand_size": 1, "stock_size": 20}, seed=seed)
        h.join("ann")
        h.join("bob")
        clients = [h.connect(0), h.connect(1)]
        try:
            c, move = play_until(h, clients, lambda _h, cl: next(
                (m for m in cl.legal if m.startswith("H") and "-B" in m), None), random.Random(6 + seed))
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("no game reached a build play from a one-card hand")
    v = h.core.version
    h.move(c, move)
    after = c.position
    assert after is not None
    if after["view"]["finished"]:
        return
    assert after["game"]["canUndo"] is False and after["view"]["players"][c.seat]["hand_size"] == 1
    err = h.undo(c, msg_id="r")[0]
    assert err["code"] == "nothing-to-undo" and err["id"] == "r" and err["stateVersion"] == v + 1
    assert len(h.store.moves) == v + 1  # nothing was taken back


def test_the_undo_floor_moves_past_a_refill() -> None:
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


def test_an_undone_move_is_not_stored_and_a_restart_goes_on_without_it() -> None:
    """An undone move is deleted in the same commit: after a restart the table resumes without it."""
    h, ann, bob = two_people("classic", BIG)
    rng = random.Random(21)
    c, move = play_until(h, [ann, bob], hand_build, rng)
    seat = c.seat
    assert seat is not None
    v = h.core.version
    h.move(c, move)
    assert h.undo(c)[0]["undone"] is True
    before = {0: ann.position, 1: bob.position}
    assert before[seat]["stateVersion"] == v + 2  # type: ignore[index]

    h.restart()
    assert sorted(h.store.moves) == list(range(v))  # the undone move is not stored: v moves before it
    again = {s: h.connect(s) for s in (0, 1)}
    for s, client in again.items():
        welcome = client.last("welcome")
        old = before[s]
        assert welcome is not None and old is not None
        assert welcome["stateVersion"] == v + 2
        assert welcome["view"] == old["view"] and welcome["legal"] == old["legal"]
    # the floor after a restart: the undone play can be made and taken back again
    h.move(again[seat], move)
    assert again[seat].position["game"]["canUndo"] is True  # type: ignore[index]
    over = to_the_end(h, list(again.values()), 22)[0]
    (game,) = h.store.games
    assert move in game["record"]["moves"]
    check = verdict_of(h, game["id"])
    assert check["finished"] and check["result"] == over["result"]


# ====================================================================== matches
def finish_game(h: Harness, clients: list[Client], rng: random.Random) -> dict[str, Any]:
    """Play the game in play to its end; the ``gameOver`` every client got."""
    play_out(h, clients, rng)
    overs = [c.last("gameOver") for c in clients]
    assert overs[0] is not None and all(o == overs[0] for o in overs)
    return overs[0]


def next_game(h: Harness, clients: list[Client], version: int) -> None:
    """Every seat says next; the next game's state comes at ``version + 1``."""
    for c in clients:
        h.next(c)
    for c in clients:
        st = new_game_state(c, version)
        assert st["game"]["match"]["betweenGames"] is False


def test_a_match_plays_games_to_the_target() -> None:
    h, ann, bob = two_people("classic", MATCH)
    for c in (ann, bob):
        welcome = c.last("welcome")
        assert welcome is not None and welcome["game"]["match"] == {
            "scores": [0, 0], "target": 2, "game": 1, "over": False, "winner": None, "betweenGames": False,
            "ready": [], "nextIn": None}
    watcher = h.connect()
    assert h.next(watcher)[0]["code"] == "not-your-seat"
    assert h.next(ann)[0]["code"] == "no-next-game"
    rng = random.Random(2)
    overs: list[dict[str, Any]] = []
    last_version = -1
    for _ in bounded(20, "the match's end"):
        over = finish_game(h, [ann, bob, watcher], rng)
        overs.append(over)
        match = over["game"]["match"]
        assert match["game"] == len(overs) and over["gameId"] is not None
        assert over["stateVersion"] > last_version
        last_version = over["stateVersion"]
        if match["over"]:
            break
        assert match["betweenGames"] is True and max(match["scores"]) < 2 and match["nextIn"] == 30.0
        # moves are refused between games; a seat says next, the other is told
        assert h.hint(ann)[0]["code"] == "game-over"
        assert h.move(ann, "pass")[0]["code"] == "game-over"
        h.next(ann)
        ready = bob.last("table")
        assert ready is not None and ready["event"] == {
            "kind": "ready", "seat": 0, "text": "ann is ready for the next game",
            "words": {"key": "event.ready", "params": {"name": "ann", "seat": 0}}}
        assert ready["game"]["match"]["ready"] == [0]
        h.next(bob)
        for c in (ann, bob, watcher):
            st = c.last("state")
            assert st is not None and st["stateVersion"] == last_version + 1
            assert st["game"]["match"]["game"] == len(overs) + 1 and st["game"]["match"]["scores"] == match["scores"]
            assert not st["view"]["finished"]
        starter = h.core.state.to_act()[0]
        name = ["ann", "bob"][starter]
        told(watcher, "next-game", f"game {len(overs) + 1} of the match begins: {name} (seat {starter}) plays first",
             seat=starter)
    final = overs[-1]["game"]["match"]
    assert final["over"] and max(final["scores"]) >= 2
    assert final["winner"] == final["scores"].index(max(final["scores"]))
    assert len(overs) >= 2
    # wins add up: one point a won game
    wins = [0, 0]
    for o in overs:
        if o["result"]["winner"] is not None:
            wins[o["result"]["winner"]] += 1
    assert wins == final["scores"]
    # every game is its own record, replayable, stored with the table, counted for its players
    assert [g["id"] for g in h.store.games] == [o["gameId"] for o in overs]
    for o in overs:
        check = verdict_of(h, o["gameId"])
        assert check["finished"] and check["result"] == o["result"]
    assert all(g["players"][0]["player"] == "ann" for g in h.store.games)
    info = h.core.info()
    assert info.status == "finished" and info.gameId == overs[-1]["gameId"]
    for c in (ann, bob, watcher):
        c.check_models()


def test_a_table_of_one_game_has_no_match() -> None:
    h, ann, _bob = two_people()
    welcome = ann.last("welcome")
    assert welcome is not None and "match" not in welcome.get("game", {}) and welcome["game"]["canUndo"] is False
    err = h.next(ann)[0]
    assert err["code"] == "no-next-game" and "single game" in err["message"]


def test_bots_alone_go_straight_on_and_against_a_bot_only_the_person_is_awaited() -> None:
    h = Harness("spite-malice", "match", {"match_target": 3, "stock_size": 3}, seats=[bot("easy"), bot("random")],
                settings=config(bot_delay=1.0, next_game_seconds=60.0))
    h.run_until(lambda: h.core.series.between, dt=0.5)  # no pause for people: the bots' own delay
    assert 0 < h.core.series.next_at - h.now <= 1.0  # type: ignore[operator]
    h.run_until(lambda: h.core.status == "finished", dt=10.0)
    assert len(h.store.games) >= 2 and h.store.row["status"] == "finished"
    match = h.core.play.match_info()  # type: ignore[attr-defined]
    assert match.over and max(match.scores) == 3

    h, cat = against_a_bot("classic", {"match_target": 2, "stock_size": 2}, next_game_seconds=60.0)
    rng = random.Random(4)
    for _ in bounded(20, "the match's end"):
        play_out(h, [cat], rng)
        over = cat.last("gameOver")
        assert over is not None
        if over["game"]["match"]["over"]:
            break
        assert over["game"]["match"]["ready"] == [1]  # the bot is always ready
        h.next(cat)
        new_game_state(cat, over["stateVersion"])
    cat.check_models()


def test_the_pause_between_two_games_ends_by_itself() -> None:
    h, ann, bob = two_people("classic", MATCH, next_game_seconds=30.0)
    over = finish_game(h, [ann, bob], random.Random(6))
    assert over["game"]["match"]["betweenGames"] and over["game"]["match"]["nextIn"] == 30.0
    h.advance(29.9)
    assert ann.last("state")["stateVersion"] == over["stateVersion"]  # type: ignore[index]
    h.advance(0.1)
    new_game_state(ann, over["stateVersion"])
    starter = h.core.state.to_act()[0]
    name = ["ann", "bob"][starter]
    begun = told(bob, "next-game", f"game 2 of the match begins: {name} (seat {starter}) plays first", seat=starter)
    assert begun["event"]["words"] == {"key": "event.next-game", "params": {"game": 2, "name": name, "seat": starter}}


def test_the_next_game_begins_once_the_last_seat_not_ready_is_taken_over() -> None:
    h, ann, bob = two_people("classic", MATCH, grace_seconds=5.0, next_game_seconds=30.0)
    over = finish_game(h, [ann, bob], random.Random(6))
    assert not over["game"]["match"]["over"]
    h.next(bob)
    h.leave(ann)
    h.advance(5.0)
    took = next(m for m in bob.received if m["type"] == "table" and m["event"]["kind"] == "takeover")
    assert h.seat(0).controller == "bot" and took["game"]["match"]["ready"] == [0, 1]
    assert not h.core.series.between, "every seat is ready, yet the next game waits for the pause"
    assert bob.events()[-1] == "next-game"


def test_a_match_resumes_after_a_restart() -> None:
    h, ann, bob = two_people("classic", MATCH)
    rng = random.Random(9)
    over = finish_game(h, [ann, bob], rng)
    assert not over["game"]["match"]["over"]
    score = over["game"]["match"]["scores"]
    # stopped between games: the finished game and the score are back, the next game waits for next
    h.restart()
    clients = [h.connect(0), h.connect(1)]
    for c in clients:
        welcome = c.last("welcome")
        assert welcome is not None
        assert welcome["stateVersion"] == over["stateVersion"] and welcome["view"]["finished"]
        assert welcome["game"]["match"]["scores"] == score and welcome["game"]["match"]["betweenGames"] is True
        again = c.last("gameOver")
        assert again is not None and again["gameId"] == over["gameId"] and again["result"] == over["result"]
    next_game(h, clients, over["stateVersion"])
    # stopped in the middle of the second game
    play_out(h, clients, rng, moves=3)
    before = [c.position for c in clients]
    h.restart()
    clients = [h.connect(0), h.connect(1)]
    for c, old in zip(clients, before, strict=True):
        welcome = c.last("welcome")
        assert welcome is not None and old is not None
        if old["view"]["finished"]:
            continue
        assert welcome["stateVersion"] == old["stateVersion"] and welcome["view"] == old["view"]
        assert welcome["game"]["match"]["scores"] == score and welcome["game"]["match"]["game"] == 2
    for _ in bounded(20, "the match's end"):
        over = finish_game(h, clients, rng)
        if over["game"]["match"]["over"]:
            break
        next_game(h, clients, over["stateVersion"])
    assert len(h.store.games) == over["game"]["match"]["game"] >= 2
    for c in clients:
        c.check_models()


def test_a_rematch_answer_is_kept_with_the_table() -> None:
    """A no (or a yes) survives a restart and a reload: the other seat is not left waiting on an answer
    the server forgot."""
    h, ann, bob = two_people()
    to_the_end(h, [ann, bob], 2)
    h.rematch(bob, accept=False)
    h.rematch(ann)
    assert ann.last("rematch")["rematch"] == {"ready": [0], "waiting": [], "declined": [1]}  # type: ignore[index]
    h.restart()
    ann = h.connect(0)
    assert ann.last("gameOver")["rematch"] == {"ready": [0], "waiting": [], "declined": [1]}  # type: ignore[index]
    listed = stored_info({"row": h.store.row, "seats": list(h.store.seats.values()), "game_id": None})
    assert listed.series is not None and listed.series.games == 1  # the lobby shows the series, not the answers
    bob = h.connect(1)
    h.rematch(bob)  # bob changes his mind: everyone said yes
    assert h.core.status == "playing" and ann.events()[-1] == "rematch"
