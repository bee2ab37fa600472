"""The table's lifecycle in memory (tests/server/table_harness.py): the core with a fake clock, a
store of dictionaries and bots that answer at once. Every timing rule is checked at its very
moment, without a socket or a sleep."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from table_harness import START, Client, Harness, config, play_on

from spite.fairness import commitment, game_seed
from spite.server.protocol import SeatRequest

PERSON = SeatRequest(kind="person")


def bot(level: str = "random") -> SeatRequest:
    return SeatRequest(kind="bot", level=level)


def against_bot(game: str = "spite-malice", preset: str | None = "short", options: dict | None = None,
                level: str = "random", **settings: object) -> tuple[Harness, Client]:
    """A quick-play table: a person at seat 0 (said hello) against a bot."""
    opts = {"stock_size": 5} if options is None and game == "spite-malice" else options or {}
    h = Harness(game, preset, opts, seats=[PERSON, bot(level)], settings=config(**settings))
    h.join("ann")
    return h, h.connect(0, nonce="0a" * 16)


def persons(n: int = 2, preset: str = "short", options: dict | None = None,
            **settings: object) -> tuple[Harness, list[Client]]:
    h = Harness("spite-malice", preset, options or {"stock_size": 5}, settings=config(**settings))
    for i in range(n):
        h.join(f"p{i}")
    return h, [h.connect(i, nonce=f"{i:02x}" * 16) for i in range(n)]


def my_turn(h: Harness, seat: int) -> bool:
    return seat in h.core.state.to_act()


def play_to_the_end(h: Harness, ann: Client, bob: Client, rng: random.Random, moves: int = 3000) -> None:
    """Ann (seat 0) and Bob play random legal moves, each in turn, until the game is over."""
    for _ in range(moves):
        if h.core.state.is_over:
            return
        mover = ann if my_turn(h, 0) else bob
        h.move(mover, rng.choice(mover.legal))
    raise AssertionError(f"the game was not over after {moves} moves")


def undoable_build(h: Harness, client: Client, rng: random.Random) -> str:
    """Play until ``client``'s seat has made a build play it may take back; returns it."""
    for _ in range(500):
        if not my_turn(h, client.seat or 0):
            h.advance(0.1)
            continue
        builds = [m for m in client.legal if m.startswith("H") and "-B" in m]
        if builds:
            move = rng.choice(builds)
            h.move(client, move)
            if client.position and client.position.get("game", {}).get("canUndo"):
                return move
            continue
        h.move(client, rng.choice(client.legal))
    raise AssertionError("no build play to take back came up")


# ====================================================================== fair deals
def test_the_commitment_is_out_before_any_nonce_and_the_deal_follows_from_the_nonces() -> None:
    h = Harness("spite-malice", "short", {"stock_size": 3})
    published = h.first_info["fair"]
    assert published["commitment"] and published["dealt"] is False and "secret" not in published
    h.join("ann")
    h.join("bob")
    nonces = ["01" * 16, "02" * 16]
    ann = h.connect(0, nonce=nonces[0])
    assert ann.position["legal"] == [] and h.core.is_dealt is False  # nothing dealt before every hello
    bob = h.connect(1, nonce=nonces[1])
    assert h.core.is_dealt
    for c in (ann, bob):
        assert all(m["fair"]["commitment"] == published["commitment"] for m in c.received if m.get("fair"))
    rng = random.Random(2)
    play_to_the_end(h, ann, bob, rng)
    fair = ann.last("gameOver")["fair"]
    secret = bytes.fromhex(fair["secret"])
    assert commitment(secret, "T1", 1) == published["commitment"] and fair["nonces"] == nonces
    seed = game_seed(secret, "T1", 1, [bytes.fromhex(n) for n in nonces])
    assert h.store.games[0]["record"]["seed"] == seed
    # the secret went out with the end, never before it
    over_at = next(i for i, (_, _, text) in enumerate(h.sent) if '"gameOver"' in text)
    assert not any(fair["secret"] in text for _, _, text in h.sent[:over_at - len(h.clients)])


def test_an_abandoned_dealt_game_keeps_its_secret_and_an_undealt_one_shows_it() -> None:
    h, ann = against_bot(grace_seconds=5.0)
    secret = h.core.fair.secret.hex()
    h.leave(ann)
    spectator = h.connect()
    h.advance(5.0)
    closed = spectator.last("table")
    assert closed["event"]["kind"] == "abandoned" and closed.get("fair") is None
    assert not any(secret in text for _, _, text in h.sent)
    # a table whose game was never dealt (its seats never all taken) may show it: nothing was played
    h = Harness("spite-malice", "short", {"stock_size": 3}, settings=config(open_table_ttl=10.0))
    h.join("ann")
    ann = h.connect(0, nonce="0a" * 16)
    h.advance(10.0)
    closed = ann.last("table")
    assert closed["event"]["kind"] == "abandoned" and closed["fair"]["secret"] == h.core.fair.secret.hex()
    assert ann.closed == 1000


def test_the_next_games_commitment_is_published_at_the_end_and_kept_through_a_restart() -> None:
    h, (ann, bob) = persons(2, "classic", {"match_target": 2, "stock_size": 2})
    rng = random.Random(3)
    play_to_the_end(h, ann, bob, rng)
    over = ann.last("gameOver")
    upcoming = over["fair"]["next"]
    assert over["game"]["match"]["betweenGames"] and upcoming != over["fair"]["commitment"]
    restarted = h.restarted()  # the commitment survives a restart: it was stored with the game's end
    assert restarted.fair_next is not None and restarted.fair_next.commitment == upcoming
    h.next(ann, nonce="0b" * 16)
    h.next(bob, nonce="0c" * 16)
    fair = ann.position["fair"]
    assert fair["game"] == 2 and fair["commitment"] == upcoming and fair["sent"] == [True, True]
    assert fair["scheme"] == "spite-fair/2" and fair["first"] == h.core.state.to_act()[0]


# ====================================================================== the turn clock
def test_an_idle_seat_is_warned_then_played_by_a_bot_until_its_person_acts() -> None:
    h, ann = against_bot(turn_seconds=12.0, turn_warning=4.0, bot_delay=1.0)
    h.run_until(lambda: my_turn(h, 0), dt=0.1)
    start = h.now
    h.advance(7.9)
    assert "turn-clock" not in ann.events()
    h.advance(0.1)
    warned = ann.last("table")
    assert warned["event"]["kind"] == "turn-clock" and warned["event"]["seconds"] == 4
    h.advance(3.9)
    assert h.seat(0).controller == "person"
    h.advance(0.1)
    assert ann.events()[-1] == "idle-takeover" and h.seat(0).controller == "bot"
    assert h.now - start == pytest.approx(12.0)
    # a stale move takes the seat back, and the clock runs again from then
    h.move(ann, "pass", version=0)
    assert ann.events()[-1] == "returned" and h.seat(0).controller == "person"
    h.run_until(lambda: my_turn(h, 0), dt=0.1)
    back = h.now
    h.run_until(lambda: h.seat(0).controller == "bot", dt=0.5)
    assert h.now - back <= 12.0 + 0.5
    assert ann.events()[-1] == "idle-takeover"


def test_build_plays_and_undos_do_not_wind_the_turn_clock_back() -> None:
    h, ann = against_bot(turn_seconds=12.0, turn_warning=4.0)
    rng = random.Random(1)
    move = undoable_build(h, ann, rng)
    began = h.core.clock.since[0]
    for _ in range(10):  # a build play and its undo every 3 s for 30 s: the turn (12 s) still ends
        h.advance(3.0)
        if h.seat(0).controller != "person":
            break
        if ann.position.get("game", {}).get("canUndo"):
            h.undo(ann)
        elif move in ann.legal:
            h.move(ann, move)
    assert ann.events()[-1] == "idle-takeover", f"seat 0 still held its turn {h.now - began:g} s after it began"
    assert h.now - began <= 12.0


def test_moving_in_time_keeps_the_seat() -> None:
    h, ann = against_bot(turn_seconds=12.0, turn_warning=4.0)
    rng = random.Random(4)
    for _ in range(6):
        h.run_until(lambda: my_turn(h, 0) or h.core.state.is_over, dt=0.1)
        if h.core.state.is_over:
            break
        h.advance(10.0)
        h.move(ann, rng.choice([m for m in ann.legal if "-D" in m] or ann.legal))  # a discard ends the turn
    assert "idle-takeover" not in ann.events() and h.seat(0).controller == "person"


def test_a_disconnected_seat_is_held_no_longer_than_its_turn() -> None:
    """A person cannot hold the table by dropping and coming back: the turn's clock goes on."""
    h, (ann, bob) = persons(2, turn_seconds=20.0, turn_warning=5.0, grace_seconds=60.0)
    mover = ann if my_turn(h, 0) else bob
    seat = 0 if mover is ann else 1
    began = h.now
    watcher = h.connect()
    for _ in range(3):
        h.advance(4.0)
        h.leave(mover)
        h.advance(1.0)
        mover = h.connect(seat, nonce="0f" * 16)
    h.run_until(lambda: "idle-takeover" in watcher.events(), dt=0.5)
    assert h.now - began <= 20.0


# ====================================================================== real time
def told(h: Harness, client: Client) -> list[tuple[float, dict]]:
    """Every message ``client`` was sent, with the fake clock's time it was sent at."""
    return [(at, json.loads(text)) for at, conn, text in h.sent if conn == client.conn]


def idle_takeover(h: Harness, client: Client) -> tuple[float, float, list[tuple[float, float]], list[float]]:
    """Let the fake clock run until a bot plays ``client``'s seat (a real-time game): when it took the
    seat over, when the person was warned, the spans of time the person held no move, and when the
    bot played."""
    h.run_until(lambda: h.seat(client.seat or 0).controller == "bot", seconds=60, dt=0.25)
    messages = told(h, client)
    events = {m["event"]["kind"]: at for at, m in messages if m["type"] == "table"}
    assert "turn-clock" in events, f"the seat was taken over without a warning: {sorted(events)}"
    took, warned = events["idle-takeover"], events["turn-clock"]
    idle: list[tuple[float, float]] = []
    for at, m in messages:
        if m["type"] in ("welcome", "state") and at <= took:
            if not m["legal"] and (not idle or idle[-1][1] != -1.0):
                idle.append((at, -1.0))  # from here, until it holds a move again
            elif m["legal"] and idle and idle[-1][1] == -1.0:
                idle[-1] = (idle[-1][0], at)
    assert not idle or idle[-1][1] != -1.0, f"the seat was taken over at {took - START:g} s with nothing to play"
    bot_moves = [at for at, m in messages if m["type"] == "state" and (m["last"] or {}).get("seat") == 1]
    return took, warned, idle, bot_moves


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_real_time_player_who_stops_playing_is_taken_over(game: str) -> None:
    """A person who holds a move and makes none is warned and then played by a bot ``idle_seconds``
    after they came to hold it, however often the bot plays meanwhile: its moves do not wind the
    person's clock back."""
    h, ann = against_bot(game, None, {}, level="reflex:1500", idle_seconds=8.0, turn_warning=3.0)
    assert ann.legal
    h.advance(4.99)
    assert "turn-clock" not in ann.events()
    took, warned, idle, bot_moves = idle_takeover(h, ann)
    held_since = idle[-1][1] if idle else START
    assert [at for at in bot_moves if held_since < at < took], "the bot did not move while the person held a move"
    assert took - held_since == pytest.approx(8.0) and took - warned == pytest.approx(3.0), (held_since, warned, took)
    h.move(ann, (ann.legal or ["spit"])[0])
    assert "returned" in ann.events()


def test_a_real_time_players_clock_stands_while_they_have_nothing_to_play() -> None:
    """In Speed a person may hold no card that fits (the bot played, the centers changed) for longer
    than the idle limit: they keep the seat meanwhile, and their clock runs from the moment they
    hold a move again."""
    h, ann = against_bot("speed", None, {}, level="reflex:5000", idle_seconds=8.0, turn_warning=3.0)
    took, _warned, idle, _bot_moves = idle_takeover(h, ann)
    assert [(a, b) for a, b in idle if b - a > 8.0], f"the person never had nothing to play for 8 s: {idle}"
    assert took - idle[-1][1] == pytest.approx(8.0)


def test_a_real_time_player_who_keeps_playing_keeps_the_seat() -> None:
    h, ann = against_bot("spit", None, {}, level="reflex:20000", idle_seconds=8.0, turn_warning=3.0)
    played = 0
    for _ in range(20):
        if h.core.state.is_over or not ann.legal:
            break
        h.advance(5.0)
        if ann.legal:
            h.move(ann, ann.legal[0])
            played += 1
    assert played >= 2, "the person played for less than the idle limit (the test proves nothing)"
    assert "idle-takeover" not in ann.events()


def test_a_spit_game_counts_down_then_shows_the_center_cards_at_once() -> None:
    h, ann = against_bot("spit", None, {}, level="reflex:500", start_countdown=3.0)
    welcome = ann.last("welcome")
    assert welcome["game"]["clock"]["startsIn"] == 3000 and welcome["legal"] == []
    assert all(c["top"] is None for c in welcome["view"]["centers"])
    refused = h.move(ann, "T1-C1")
    assert refused[0]["code"] == "not-started"
    h.advance(3.0)
    shown = ann.position
    assert shown["legal"] and all(c["top"] is not None for c in shown["view"]["centers"])


# ====================================================================== grace and desertion
def test_a_quick_play_table_whose_person_left_is_closed_and_told() -> None:
    h, ann = against_bot(grace_seconds=5.0)
    watcher = h.connect()
    h.leave(ann)
    assert watcher.events()[-1] == "disconnected"
    h.advance(4.9)
    assert h.core.status == "playing"
    h.advance(0.1)
    assert h.core.status == "abandoned" and h.store.row["status"] == "abandoned"
    assert watcher.events()[-1] == "abandoned" and watcher.closed == 1000 and h.gone


def test_a_quick_play_table_whose_person_never_came_is_closed() -> None:
    h = Harness("spite-malice", "short", {"stock_size": 3}, seats=[PERSON, bot()], settings=config(grace_seconds=5.0))
    h.join("ann")
    h.advance(5.0)
    assert h.core.status == "abandoned"


def test_a_friend_table_everyone_left_is_played_by_bots_for_its_watchers_then_closed() -> None:
    h, (ann, bob) = persons(2, "classic", {"stock_size": 20}, grace_seconds=5.0, abandon_seconds=30.0, bot_delay=1.0)
    watcher = h.connect()
    h.leave(ann)
    h.leave(bob)
    h.advance(5.0)
    assert h.seat(0).controller == "bot" and h.seat(1).controller == "bot"
    assert watcher.events().count("takeover") == 2
    h.advance(24.9)
    assert h.core.status == "playing"
    h.advance(0.1)
    assert h.core.status == "abandoned" and watcher.events()[-1] == "abandoned"


def test_a_friend_table_everyone_left_unwatched_is_closed_not_played_out_by_computers() -> None:
    """The first to leave is taken over while the other still plays; when the last person's grace time
    ends too and nobody watches, nobody is left to play for: the table is closed, no computer plays it
    out (a client that has people seated who never come gets no bot work beyond their grace time)."""
    h, (ann, bob) = persons(2, "classic", {"stock_size": 20}, grace_seconds=5.0, abandon_seconds=30.0, bot_delay=1.0)
    h.leave(ann)
    h.advance(5.0)
    assert h.seat(0).controller == "bot" and bob.events()[-1] == "takeover"
    h.leave(bob)
    h.advance(4.9)
    assert h.core.status == "playing"
    h.advance(0.1)
    assert h.core.status == "abandoned" and h.store.row["status"] == "abandoned"
    assert h.seat(1).controller == "person" and not h.thinking


def test_a_person_back_within_the_grace_keeps_the_seat_and_after_it_takes_it_back() -> None:
    h, (ann, _bob) = persons(2, grace_seconds=5.0)
    h.leave(ann)
    h.advance(4.0)
    ann = h.connect(0, nonce="0a" * 16)
    h.advance(10.0)
    assert h.seat(0).controller == "person"
    h.leave(ann)
    h.advance(5.0)
    assert h.seat(0).controller == "bot"
    ann = h.connect(0, nonce="0a" * 16)
    assert h.seat(0).controller == "person" and ann.events()[-1] == "returned"


# ====================================================================== the path of a move
def test_a_failed_commit_changes_nothing_and_tells_the_mover() -> None:
    h, ann = against_bot()
    h.run_until(lambda: my_turn(h, 0), dt=0.1)
    before = h.core.state.to_record().to_json()
    version = h.core.version
    h.store.fail = 1
    answer = h.move(ann, ann.legal[0])
    assert [m["type"] for m in answer] == ["error"] and answer[0]["code"] == "storage"
    assert h.core.state.to_record().to_json() == before and h.core.version == version
    answer = h.move(ann, ann.legal[0])
    assert answer[0]["type"] == "ack" and answer[0]["stateVersion"] == version + 1


def test_every_acknowledged_move_is_stored_and_a_restart_shows_the_same_views() -> None:
    h, (ann, bob) = persons(2, "classic", {"match_target": 2, "stock_size": 3})
    rng = random.Random(8)
    for _ in range(300):
        if h.core.status != "playing":
            break
        if h.core.series.between:
            h.next(ann)
            h.next(bob)
            continue
        mover = ann if my_turn(h, 0) else bob
        acked = [m for m in h.move(mover, rng.choice(mover.legal)) if m["type"] == "ack"]
        assert acked and acked[0]["stateVersion"] == h.core.version
        again = h.restarted()
        assert again.version == h.core.version
        for seat in (None, 0, 1):
            assert again.view.view_for(seat) == h.core.view.view_for(seat)
            # the game's steps (the table's events are kept in memory only)
            assert json.dumps(again.play.move_log(seat)) == json.dumps(h.core.play.move_log(seat))
        assert again.view.move_log() == [e for e in h.core.view.move_log() if "event" not in e]


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_real_time_table_restarts_with_the_same_views_and_log(game: str) -> None:
    h, ann = against_bot(game, None, {}, level="reflex:300")
    rng = random.Random(2)
    for _ in range(40):
        if h.core.state.is_over:
            break
        h.advance(0.7)
        if ann.legal:
            h.move(ann, rng.choice(ann.legal))
        again = h.restarted()
        assert again.version == h.core.version
        # the game's steps as they were (the table's events are kept in memory only)
        assert again.view.view_for(1) == h.core.view.view_for(1)
        assert again.view.move_log() == [e for e in h.core.view.move_log() if "event" not in e]


def test_a_rematch_begins_from_the_commitment_published_at_the_end() -> None:
    h, ann = against_bot()
    play_on(h, ann)
    over = ann.last("gameOver")
    assert over["rematch"] == {"ready": [1], "waiting": [0], "declined": []}
    upcoming = over["fair"]["next"]
    h.rematch(ann, nonce="0d" * 16)
    assert ann.events()[-1] == "rematch" and h.core.status == "playing"
    fair = ann.position["fair"]
    assert fair["game"] == 2 and fair["commitment"] == upcoming and fair["dealt"] and fair["sent"] == [True, False]
    assert ann.position["stateVersion"] == over["stateVersion"] + 1


def test_a_deal_whose_commit_failed_is_made_again_without_another_hello() -> None:
    h = Harness("spite-malice", "short", {"stock_size": 3}, seats=[PERSON, bot()])
    h.join("ann")
    h.store.fail = 1
    ann = h.connect(0, nonce="0a" * 16)
    assert not h.core.is_dealt and ann.position["legal"] == []
    h.advance(1.0)
    assert h.core.is_dealt and ann.position["legal"]
    assert ann.position["fair"]["sent"] == [True, False]


# ====================================================================== the game so far
def page_log(client: Client) -> list[dict[str, Any]]:
    """The log a page open since ``client``'s hello shows: its welcome's ``moveLog``, then each move's
    ``last`` (with what it told: the card, ``wildAs``, ``completed``; a move taken back) and each table
    event, in the order they came."""
    welcome = client.received[0]
    assert welcome["type"] == "welcome"
    out = list(welcome["moveLog"])
    for msg in client.received[1:]:
        if msg["type"] == "state" and msg["last"]:
            out.append({k: v for k, v in msg["last"].items() if k != "byBot"})
        elif msg["type"] == "table":
            out.append({"seat": msg["event"]["seat"], "move": None, "event": msg["event"]})
    return out


def test_a_page_opened_later_is_told_the_game_so_far_as_a_page_open_from_the_start_was() -> None:
    """Issue 48: a reload shows the same log. The ``moveLog`` carries each move with its card (a hand
    card as the mover named it), the moves taken back where they were taken back, and the table's
    events (seats taken, a player gone and back) in their place, not at the end."""
    h = Harness("spite-malice", "short", {"stock_size": 5}, settings=config())
    watcher = h.connect()
    h.join("ann")
    h.join("bob")
    ann, bob = h.connect(0, nonce="01" * 16), h.connect(1, nonce="02" * 16)
    rng = random.Random(3)
    for _ in range(6):  # a few moves, each hand card named as the page names it
        mover = ann if my_turn(h, 0) else bob
        move = rng.choice(mover.legal)
        hand = mover.position["view"]["players"][mover.seat]["hand"]  # type: ignore[index]
        if move.startswith("H") and move != "pass":
            card = next(c for c in hand if f"H{c[:-1]}" == move.split("-")[0])
            move = f"H{card}-{move.split('-')[1]}"
        h.move(mover, move)
    build = undoable_build(h, ann, rng)
    h.leave(bob)  # an event between the move and its undo
    assert h.undo(ann)[0]["type"] == "ack"
    bob = h.connect(1)
    h.move(ann, build)
    steps = [e for e in page_log(watcher) if "event" not in e]
    assert any("card" in e.get("game", {}) and e["move"].startswith("S") is False for e in steps)
    assert [e.get("undone") for e in steps][-3:] == [None, True, None]  # the move, its undo, the move again
    shape = [e["event"]["kind"] if "event" in e else "undo" if e.get("undone") else e["move"]
             for e in page_log(watcher)[-5:]]
    assert shape == [build, "disconnected", "undo", "connected", build]  # each where it happened
    kinds = [e["event"]["kind"] for e in page_log(watcher) if "event" in e]
    assert kinds[:3] == ["joined", "joined", "started"] and kinds[-2:] == ["disconnected", "connected"]
    for seat, since_start in ((None, watcher), (0, ann)):
        later = h.connect(seat)
        assert later.received[0]["moveLog"] == page_log(since_start), seat
        assert later.received[0].get("moveLogStart") is None
