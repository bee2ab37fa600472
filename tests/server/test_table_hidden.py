"""Hidden information, property-based over random games in memory (tests/server/table_harness.py): no
message to a seat holds anything outside that seat's view.

Every message any connection was sent is checked against a replay of the table's record made here:
each ``view`` must be exactly ``state.view(seat).to_json()`` at that ``stateVersion`` (a spectator's
for spectators), ``legal`` exactly the seat's legal moves, and every card named anywhere in a message
must be a card the seat can see. No message may hold the seed, a token of another seat, or the
whole-table keys (``draw_pile``, ``stock_cards``, ``set_aside_pile``).

Fair deals (docs/fairness.md): the seats send nonces with hello, and until the last one said hello
nobody sees a card (the spectator's view, no legal move). Nothing of the game's secret (nor the seed
it gives) is in any message, nor in the table as the lobby lists it, before the game is over (the
REST answers themselves: tests/server/test_protocol.py).
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_harness import Client, Harness

from spite.cards import RANKS, format_cards, parse_card
from spite.errors import CardError, IllegalMoveError
from spite.malice import HAND, PASS, State, parse_move
from spite.malice.moves import with_card
from spite.malice.record import record_from_state, state_from_record
from spite.server.lobby import stored_info

FORBIDDEN_KEYS = ("draw_pile", "stock_cards", "set_aside_pile", "seed", "deal", "token", "history", "chance")


def cards_in(obj: Any, skip: frozenset[str] = frozenset({"legal", "last", "move", "text", "player", "preset",
                                                          "id", "link", "level", "botLevel", "kind"})) -> Counter[int]:
    """Every card named anywhere in a message (move texts and names aside)."""
    found: Counter[int] = Counter()
    if isinstance(obj, dict):
        for key, value in obj.items():
            if key not in skip:
                found.update(cards_in(value, skip))
    elif isinstance(obj, list):
        for value in obj:
            found.update(cards_in(value, skip))
    elif isinstance(obj, str):
        with contextlib.suppress(CardError, ValueError):
            found[parse_card(obj)] += 1
    return found


def positions(state: State, preset: str) -> list[State]:
    """The positions of a game from its record, one per stateVersion."""
    record = record_from_state(state, preset)
    _, replayed = state_from_record(record)
    out = [replayed.copy()]
    for move in state.move_log():
        replayed.play(move.text)
        out.append(replayed.copy())
    return out


def play_table(preset: str, players: int, rng: random.Random, limit: int) -> None:
    h = Harness("spite-malice", preset, {}, seed=rng.randrange(2**32))
    for i in range(players):
        h.join(f"p{i}")
    tokens = [h.tokens[i] for i in range(players)]
    # every other seat sends a nonce (and an absent one is allowed)
    clients = [h.connect(seat, nonce=rng.randbytes(16).hex() if seat % 2 == 0 else None) for seat in range(players)]
    watcher = h.connect()
    fair = h.core.fair
    assert fair is not None and fair.dealt
    secret = fair.secret.hex()
    played = 0
    while played < limit and not h.core.state.is_over:
        mover = next(c for c in clients if c.legal)  # the mover learns it is its turn from its newest state
        h.move(mover, named_at_random(mover, rng.choice(mover.legal), rng, h.core.state.engine.opts.skipbo))
        played += 1
        if played in (1, limit) and not h.core.state.is_over:
            check_listing(h, secret)
    assert h.core.version == played
    check_messages(h.core.state.engine, preset, clients, watcher, tokens, secret)
    check_move_log(h, watcher, tokens, secret)


def named_at_random(client: Client, move: str, rng: random.Random, skipbo: bool, always: bool = False) -> str:
    """``move``, or (half the time, a hand move) the same move naming one of the cards of its rank the
    seat holds, as the page sends it (records.md §2: ``H7H-B2``)."""
    parsed = parse_move(move, skipbo)
    hand = client.position["view"]["players"][client.seat]["hand"]  # type: ignore[index]
    same = [parse_card(c) for c in hand or [] if RANKS[parse_card(c)] == parsed.rank]
    if parsed.source != HAND or parsed.kind == PASS or not same or (not always and rng.random() < 0.5):
        return move
    return with_card(parsed, rng.choice(same)).text


def named_card(move: str) -> set[int]:
    """The card a move's text names, if it names one."""
    try:
        card = parse_move(move).card
    except IllegalMoveError:
        return set()
    return {card} if card >= 0 else set()


def check_listing(h: Harness, secret: str) -> None:
    """Neither the table as the lobby shows it from memory nor as it lists it from the database holds
    the unfinished game's secret or its seed."""
    seed = h.core.fair.seed()  # type: ignore[union-attr]
    found = {"row": h.store.row, "seats": list(h.store.seats.values()), "game_id": None}
    for text in (h.core.info().model_dump_json(), stored_info(found).model_dump_json()):
        assert secret not in text and seed not in text


def check_messages(state: State, preset: str, clients: list[Client], watcher: Client, tokens: list[str],
                   secret: str) -> None:
    history = positions(state, preset)
    seed = str(state.seed)
    assert len(seed) == 64  # the seed derived from the secret and the nonces
    for seat, client in [*enumerate(clients), (None, watcher)]:
        views = [pos.view(seat) for pos in history]
        others = [t for i, t in enumerate(tokens) if i != seat]
        checked = 0
        for raw, msg in zip(client.raw, client.received, strict=True):
            for token in others:
                assert token not in raw
            if seat is None:
                assert all(t not in raw for t in tokens)
            over = msg["type"] == "gameOver" or bool(msg.get("view", {}).get("finished"))
            assert seed not in raw
            if not over:  # the secret is revealed with the end, never before
                assert secret not in raw and '"secret"' not in raw and '"nonces"' not in raw
            for key in FORBIDDEN_KEYS:
                assert f'"{key}"' not in raw, (key, raw[:200])
            if "fair" in msg and not msg["fair"]["dealt"]:
                # before every seat said hello: no card of the deal, nothing to play
                assert all(p["hand"] is None for p in msg["view"]["players"]) and msg["legal"] == []
                continue
            if "view" in msg:
                view = views[msg["stateVersion"]]
                assert msg["view"] == view.to_json()
                assert msg["legal"] == [m.text for m in view.legal_moves]
                for i, player in enumerate(msg["view"]["players"]):
                    if i != seat:
                        assert player["hand"] is None
                checked += 1
            last = msg.get("last")
            if msg["type"] == "state" and last:
                # what the move laid face up: a card this seat saw just before the move or sees after it
                version = msg["stateVersion"]
                around = set(views[version - 1].visible_cards()) | set(views[version].visible_cards())
                told = last.get("game", {})  # what the game told of it besides its notation
                assert "card" not in told or parse_card(told["card"]) in around, (last, seat)
                assert named_card(last["move"]) <= around, (last, seat)
                if "card" not in told and last["move"] != "pass":  # only another's hand card that completed a pile
                    assert told.get("completed") and last["move"].startswith("H") and last["seat"] != seat, last
            seen = +Counter(cards_in(msg))
            visible = views[msg.get("stateVersion") or 0].visible_cards() if "view" in msg else Counter()
            if "view" not in msg:
                assert not seen, msg
            else:
                # a set, not a multiset: a team stock shows on both partners, a build top twice
                assert set(seen) <= set(visible), set(seen) - set(visible)
        assert checked >= 1
        client.check_models()


def heard_log(client: Client) -> list[dict[str, Any]]:
    """What ``client`` was told since its welcome, as ``moveLog`` entries: each move's ``last`` (with its
    card, ``wildAs``, ``completed``) and each table event, in order."""
    out: list[dict[str, Any]] = []
    for msg in client.received[1:]:
        if msg["type"] == "state" and msg["last"]:
            out.append({k: v for k, v in msg["last"].items() if k != "byBot"})
        elif msg["type"] == "table":
            out.append({"seat": msg["event"]["seat"], "move": None, "event": msg["event"]})
    return out


def check_move_log(h: Harness, watcher: Client, tokens: list[str], secret: str) -> None:
    """A page opened now (a spectator, a seat back with its token) is told the game so far exactly as a
    page of that seat (or a spectator) open from the start was told it, each move with what its
    ``last`` told and the table's events in their place: no card the seat did not see when it was told
    (no draw, no shuffle, no hand, another's hand card that completed a build pile neither), no other
    seat's token, no secret."""
    first = {None: watcher, 0: next(c for c in h.clients.values() if c.seat == 0)}
    history = positions(h.core.state.engine, h.core.preset)
    for seat in (None, 0):
        heard = heard_log(first[seat])
        assert any(e["move"] for e in heard)
        late = h.connect(seat)
        welcome = late.received[0]
        assert welcome["type"] == "welcome"
        log = welcome["moveLog"]
        # the entries told before that page said hello are the table's events; the rest is what it heard
        assert log[len(log) - len(heard):] == heard
        assert all("event" in e for e in log[:len(log) - len(heard)])
        raw = late.raw[0]
        for key in FORBIDDEN_KEYS:
            assert f'"{key}"' not in raw, key
        assert all(t not in raw for t in tokens)
        if not welcome["view"]["finished"]:  # the secret is revealed with the end, never before
            assert secret not in raw
        steps = [e for e in log if "event" not in e]
        for k, step in enumerate(steps):
            named = set(cards_in(step, frozenset({"move"}))) | named_card(step["move"])
            around = set(history[k].view(seat).visible_cards()) | set(history[k + 1].view(seat).visible_cards())
            assert set(named) <= around, (step, seat)


@pytest.mark.timeout(180)  # every message of many whole games searched for hidden cards
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from([("short", 2), ("party", 3), ("partners", 4), ("skip-bo", 2), ("open-stock", 2)]),
       seed=st.integers(0, 2**32), limit=st.integers(1, 70))
def test_no_message_holds_more_than_the_view(preset: tuple[str, int], seed: int, limit: int) -> None:
    play_table(preset[0], preset[1], random.Random(seed), limit)


def test_cards_in_finds_cards() -> None:
    assert cards_in({"a": ["AS", "short", "ann"], "legal": ["HA-B1"], "b": {"c": "10H"}}) == Counter(
        {parse_card("AS"): 1, parse_card("10H"): 1})
    assert json.dumps(cards_in({"x": "hello"})) == "{}"


def test_a_hand_card_that_completes_a_pile_is_told_to_the_others_by_its_rank() -> None:
    """The one card a named move could give away: a hand card that completes its build pile leaves the
    table at once, so no other seat's view ever shows it. The others (and spectators) are told the move
    in its rank form with no card, live and in a later ``moveLog``; its own seat is told all."""
    for seed in range(10):
        h = Harness("spite-malice", "classic", {}, seed=seed)
        h.join("p0")
        h.join("p1")
        clients = [h.connect(0), h.connect(1)]
        watcher = h.connect()
        rng = random.Random(seed)
        while not h.core.state.is_over and h.core.version < 600:
            mover = next(c for c in clients if c.legal)
            # a hand card that completes a pile, named as the page names it, whenever there is one
            engine = h.core.state.engine
            completing = [m for m in mover.legal if m.startswith("H") and "-B" in m
                          and len(engine.builds[int(m.split("-B")[1]) - 1]) == 11]
            builds = [m for m in mover.legal if "-B" in m]  # build while one can: piles grow to completion
            move = named_at_random(mover, rng.choice(completing or builds or mover.legal), rng, False, always=True)
            h.move(mover, move)
            done = engine.history[-1]
            if done.completed is None or done.move.card < 0:
                continue
            card = format_cards([done.card])[0]
            own = clients[done.seat].last("state")["last"]  # type: ignore[index]
            assert own["move"] == done.move.text and own["game"]["card"] == card and own["game"]["completed"] is True
            for other in (clients[1 - done.seat], watcher):
                told = other.last("state")["last"]  # type: ignore[index]
                assert told["move"] == done.move.rank_form.text and "card" not in told["game"]
                assert told["game"]["completed"] is True
                assert card not in json.dumps(told)
            for seat, expected in ((done.seat, own), (1 - done.seat, None), (None, None)):
                step = h.connect(seat).received[0]["moveLog"][-1]
                assert step == {k: v for k, v in (expected or told).items() if k != "byBot"}
            return
    raise AssertionError("no game had a named hand card complete a pile")
