"""Rated play that holds (docs/ratings.md, "What rated play guards against"), in the table's core with
a fake clock (tests/server/table_harness.py): at a rated table no computer plays for a person. A
person who leaves (or lets the turn clock run out) once every side has moved loses the game there and
then, against a person or the computer alike, stored and rated as a loss; before that the game is
aborted, rated for nobody, and the abort is counted against them. No hints. One address plays one
side only. At a casual table a takeover at any point of the game marks it as taken over."""

from __future__ import annotations

import random
from typing import Any

import pytest
from table_harness import Client, Harness, config, play_out

from spite.server.protocol import SeatRequest
from spite.server.table.seats import LobbyError

PERSON = SeatRequest(kind="person")
ANN, BOB, CAT, DAN = (f"p-{i:024x}" for i in range(1, 5))


def medium() -> SeatRequest:
    return SeatRequest(kind="bot", level="medium")


def duel(rated: bool = True, options: dict[str, Any] | None = None, preset: str = "short",
         **settings: Any) -> tuple[Harness, Client, Client]:
    """Two keyed people from two addresses at a table (rated unless said), both said hello."""
    h = Harness("spite-malice", preset, options or {}, settings=config(**settings), rated=rated)
    h.join("ann", player_id=ANN, address="addr-a")
    h.join("bob", player_id=BOB, address="addr-b")
    return h, h.connect(0, nonce="0a" * 16), h.connect(1, nonce="0b" * 16)


def against_computer(**settings: Any) -> tuple[Harness, Client]:
    """A rated quick-play table: ann against ``medium``."""
    h = Harness("spite-malice", "short", {}, seats=[PERSON, medium()], settings=config(**settings), rated=True)
    h.join("ann", player_id=ANN, address="addr-a")
    return h, h.connect(0, nonce="0a" * 16)


def until_both_moved(h: Harness, clients: list[Client], rng: random.Random) -> None:
    """The persons play random moves (the computer answers in between) until every seat has moved."""
    for _ in range(2000):
        if all(s in h.core.moved for s in range(len(h.core.seats))):
            return
        mover = next((c for c in clients if c.closed is None and c.legal), None)
        if mover is None:
            h.advance(0.1)
            continue
        h.move(mover, rng.choice(mover.legal))
    raise AssertionError("the seats did not all move")


def to_move(h: Harness, seat: int) -> None:
    """Let the others play (randomly, from their clients) until ``seat`` is to move."""
    rng = random.Random(3)
    for _ in range(2000):
        if seat in h.core.state.to_act():
            return
        movers = [c for c in h.clients.values() if c.seat is not None and c.seat != seat and c.closed is None
                  and c.legal]
        if movers:
            h.move(movers[0], rng.choice(movers[0].legal))
        else:
            h.advance(0.1)
    raise AssertionError(f"seat {seat} never came to move")


# ====================================================================== leaving is losing
def test_leaving_a_rated_game_against_a_person_loses_it_at_once() -> None:
    h, ann, bob = duel(grace_seconds=5.0)
    until_both_moved(h, [ann, bob], random.Random(1))
    h.leave(bob)
    assert ann.last("table")["event"]["words"]["key"] == "event.disconnected.loses"
    h.advance(4.9)
    assert h.core.status == "playing"
    h.advance(0.1)
    assert h.core.status == "finished" and "takeover" not in ann.events() and h.seat(1).controller == "person"
    over = ann.last("gameOver")
    assert over is not None and over["result"]["reason"] == "forfeit"
    assert over["result"]["winner"] == 0 and over["result"]["left"] == [1]
    (game,) = h.store.games
    assert game["result"]["reason"] == "forfeit" and game["rating"] is not None
    assert [(p["won"], p["left"]) for p in game["players"]] == [(True, False), (False, True)]
    assert game["record"]["forfeit"] == {"left": [1], "why": "left"} and not game["record"].get("result")
    assert game["record"]["fairness"]["secret"], "the deal is proven at the end, as after any game"
    assert not h.thinking, "no computer plays on"


def test_leaving_a_rated_game_against_the_computer_loses_it_too() -> None:
    """Before, the table was closed and nothing stored: a loss could be escaped by closing the page."""
    h, ann = against_computer(grace_seconds=5.0)
    until_both_moved(h, [ann], random.Random(2))
    h.leave(ann)
    h.advance(5.0)
    assert h.core.status == "finished"
    (game,) = h.store.games
    assert game["result"]["reason"] == "forfeit" and game["result"]["winner"] == 1
    assert [(p["won"], p["left"], p["is_bot"]) for p in game["players"]] == [(False, True, False), (True, False, True)]


def test_running_out_of_turn_time_at_a_rated_table_loses_the_game() -> None:
    h, ann, bob = duel(turn_seconds=12.0, turn_warning=4.0)
    until_both_moved(h, [ann, bob], random.Random(3))
    to_move(h, 0)
    h.advance(8.0)
    assert ann.last("table")["event"]["words"]["key"] == "event.turn-clock.loses"
    h.advance(4.0)
    over = bob.last("gameOver")
    assert over is not None and over["result"] == {**over["result"], "reason": "forfeit", "winner": 1, "why": "time"}
    assert h.seat(0).controller == "person", "no computer took the seat"


def test_leaving_before_every_side_moved_aborts_the_game_for_nobody() -> None:
    h, ann, bob = duel(grace_seconds=5.0)
    h.leave(bob)
    assert ann.last("table")["event"]["words"]["key"] == "event.disconnected.aborts"
    h.advance(5.0)
    assert h.core.status == "abandoned" and not h.store.games
    event = ann.last("table")["event"]
    assert event["kind"] == "abandoned" and event["words"]["key"] == "event.abandoned.aborted"
    assert h.store.aborts == [BOB], "the abort counts against the one who left"


def test_a_person_who_never_comes_to_a_rated_table_aborts_it() -> None:
    h = Harness("spite-malice", "short", {}, settings=config(grace_seconds=5.0), rated=True)
    h.join("ann", player_id=ANN, address="addr-a")
    h.join("bob", player_id=BOB, address="addr-b")
    ann = h.connect(0, nonce="0a" * 16)
    h.advance(5.0)
    assert h.core.status == "abandoned" and h.store.aborts == [BOB]
    assert ann.last("table")["event"]["words"]["key"] == "event.abandoned.aborted"


def test_everyone_leaving_a_rated_game_loses_it_for_everyone() -> None:
    h, ann, bob = duel(grace_seconds=60.0, abandon_seconds=20.0)
    until_both_moved(h, [ann, bob], random.Random(4))
    h.leave(ann)
    h.leave(bob)
    h.advance(20.0)
    (game,) = h.store.games
    assert game["result"]["reason"] == "forfeit" and game["result"]["winners"] == []
    assert all(p["left"] and not p["won"] for p in game["players"])


def test_a_rated_match_left_between_two_games_is_lost() -> None:
    """The leaver's grace time ends in the pause between two games of a match: the next game is dealt
    and lost, so the match ends with a stored, rated loss."""
    h, ann, bob = duel(preset="match", options={"stock_size": 2}, grace_seconds=5.0, next_game_seconds=60.0)
    play_out(h, [ann, bob], random.Random(5))
    assert h.core.series.between, "the first game of the match is over, the next one waits"
    h.leave(bob)
    h.advance(5.0)
    assert h.core.status == "finished"
    first, lost = h.store.games
    assert first["result"]["reason"] != "forfeit" and lost["result"]["reason"] == "forfeit"
    assert lost["result"]["left"] == [1] and lost["rating"] is not None


def test_a_table_lost_by_leaving_restarts_finished_and_offers_a_rematch() -> None:
    h, ann, bob = duel(grace_seconds=5.0)
    until_both_moved(h, [ann, bob], random.Random(6))
    h.leave(bob)
    h.advance(5.0)
    h.restart()
    assert h.core.status == "finished" and h.core.ended is not None
    ann = h.connect(0, nonce="0c" * 16)
    bob = h.connect(1, nonce="0d" * 16)
    assert ann.last("gameOver")["result"]["reason"] == "forfeit"
    h.rematch(ann)
    h.rematch(bob)
    assert h.core.status == "playing" and h.core.ended is None and "rematch" in ann.events()
    assert not ann.last("state")["view"]["finished"]


# ====================================================================== no help
def test_no_hints_at_a_rated_table() -> None:
    h, ann = against_computer()
    to_move(h, 0)
    (refused,) = [m for m in h.hint(ann) if m["type"] == "error"]
    assert refused["code"] == "no-hints" and refused["words"]["key"] == "error.no-hint.rated"
    assert not h.hints


def test_a_casual_takeover_at_any_point_marks_the_game_as_taken_over() -> None:
    """Leave after a move, let the computer play, come back and finish: stored as taken over (before,
    only a seat the computer held at the very end was)."""
    h, ann, bob = duel(rated=False, options={"stock_size": 3}, grace_seconds=5.0)
    until_both_moved(h, [ann, bob], random.Random(7))
    h.leave(bob)
    h.advance(5.0)
    assert h.seat(1).controller == "bot"
    h.advance(2.0)
    bob = h.connect(1, nonce="0b" * 16)
    assert h.seat(1).controller == "person"
    play_out(h, [ann, bob], random.Random(8))
    (game,) = h.store.games
    assert [p["taken_over"] for p in game["players"]] == [False, True]


# ====================================================================== one person, one side
def test_one_address_plays_one_side_of_a_rated_table() -> None:
    h = Harness("spite-malice", "short", {}, settings=config(), rated=True)
    h.join("ann", player_id=ANN, address="addr-a")
    with pytest.raises(LobbyError) as refused:
        h.join("ann's second key", player_id=BOB, address="addr-a")
    assert refused.value.phrase is not None and refused.value.phrase.key == "lobby.rated-one-address"
    assert h.seat(1).controller == "free", "nothing changed"
    casual = Harness("spite-malice", "short", {}, settings=config())
    casual.join("ann", player_id=ANN, address="addr-a")
    casual.join("ann's sister", player_id=BOB, address="addr-a")  # a casual table seats a household


def test_partners_from_one_address_may_share_a_side_but_not_face_each_other() -> None:
    h = Harness("spite-malice", "partners", {}, settings=config(), rated=True)
    h.join("ann", seat=0, player_id=ANN, address="home")
    h.join("bob", seat=1, player_id=BOB, address="away")
    h.join("cat", seat=2, player_id=CAT, address="home")  # seats 0 and 2 are one side
    with pytest.raises(LobbyError):
        h.join("dan", seat=3, player_id=DAN, address="home")
