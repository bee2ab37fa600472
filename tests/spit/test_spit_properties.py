"""Properties of the Spit and Speed engine, over random games (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from spit_helpers import fingerprint, total_cards

from spite.cards import format_cards, parse_cards, standard_deck
from spite.errors import IllegalMoveError
from spite.records import dump_record, parse_record, replay
from spite.spit import SpeedState, SpitOptions, SpitState, new_game
from spite.spit.record import SpitReplay, record_from_state

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("spit", {}),
    ("spit", {"centers": 3}),
    ("spit", {"jokers": 2, "wrap": "ace_bridge"}),
    ("spit", {"slowpoke_ms": 1500, "rounds_in_a_row": 2}),
    ("spit", {"time_limit_s": 60, "auto_spit_ms": 1000, "auto_slap_ms": 700}),
    ("spit", {"auto_spit_ms": 0, "auto_slap_ms": 0}),
    ("speed", {}),
    ("speed", {"wrap": "ace_bridge", "slowpoke_ms": 800}),
]

JUNK = [
    "T1-C1",
    "T5-C2",
    "T2-T4",
    "T1-T1",
    "T6-C1",
    "T1-C4",
    "spit",
    "slap C1",
    "slap C3",
    "H7-C1",
    "HK-C2",
    "HX-C1",
    "pass",
]

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # shrinking whole games takes minutes
)


def random_game(variant: int, seed: int, rng: random.Random, steps: int = 250) -> SpitState | SpeedState:
    """A game of random moves at random times, checking invariants at every step."""
    game, options = VARIANTS[variant]
    state = new_game(game, options=options, seed=seed)
    deck = Counter(standard_deck(1, state.options.jokers))
    t = 0
    for _ in range(steps):
        if state.finished:
            break
        t += rng.choice((0, 0, 50, 300, 900, 2500, 6000))
        seat = rng.randrange(2)
        state.advance(t)
        if rng.random() < 0.15:  # something that is probably no legal move: refused, nothing changes
            junk = rng.choice(JUNK)
            if junk not in state.legal_moves(seat):
                before = fingerprint(state)
                with pytest.raises(IllegalMoveError):
                    state.apply(seat, junk, t)
                assert fingerprint(state) == before
                continue
        moves = state.legal_moves(seat)
        assert len(moves) == len(set(moves))
        if moves:
            state.apply(seat, rng.choice(moves), t)
        assert total_cards(state) == deck
        assert state.now == t
    return state


@pytest.mark.slow
@SETTINGS
@given(st.integers(0, len(VARIANTS) - 1), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_cards_are_conserved_and_a_written_record_replays_to_the_same_end(
    variant: int, seed: int, rng: random.Random
) -> None:
    state = random_game(variant, seed, rng)
    record = record_from_state(state)
    record.seed = None
    replayed = replay(parse_record(dump_record(record)))
    assert replayed.show() == state.full_view().to_json()
    # the record ends at its last entry; time that passed after it made nothing happen (else it
    # would be an entry), but the clock decides what is legal (a slowpoke wait may have ended)
    assert isinstance(replayed, SpitReplay)
    assert replayed.state.advance(state.now) == []
    assert replayed.legal() == sorted(f"{s} {m}" for s in (0, 1) for m in state.legal_moves(s))
    assert replayed.check()["result"] == state.result
    for seat in (0, 1):
        assert replayed.show(seat) == state.view(seat).to_json()
    if isinstance(state, SpitState):
        held = sum(state.cards_held(s) for s in (0, 1)) + sum(len(c) for c in state.centers)
        assert held == 52 + state.options.jokers


@SETTINGS
@given(st.integers(0, 10**6), st.randoms(use_true_random=False), st.sampled_from([2, 3]))
def test_a_spit_view_does_not_depend_on_the_other_seats_face_down_cards(
    seed: int, rng: random.Random, centers: int
) -> None:
    opts = SpitOptions.from_preset("spit", {"centers": centers, "auto_spit_ms": 0})
    deal = SpitState.new(opts, seed=seed).start_deal
    other = {
        "tableaus": [list(deal["tableaus"][0]), [list(p) for p in deal["tableaus"][1]]],
        "spits": [list(s) for s in deal["spits"]],
        "centers": deal["centers"],
    }
    # seat 1's face-down cards: under each tableau top, and the spit pile below the cards the
    # start flip turns up (one, or two when seat 1... never feeds C3 at the first flip)
    hidden = [(i, k) for i, p in enumerate(other["tableaus"][1]) for k in range(len(p) - 1)]
    spit1 = other["spits"][1]
    cards = [other["tableaus"][1][i][k] for i, k in hidden] + spit1[:-1]
    rng.shuffle(cards)
    for n, (i, k) in enumerate(hidden):
        other["tableaus"][1][i][k] = cards[n]
    other["spits"][1] = cards[len(hidden) :] + spit1[-1:]
    a, b = SpitState.new(opts, deal=deal), SpitState.new(opts, deal=other)
    assert a.view(0) == b.view(0) and a.view(None) == b.view(None)
    t = 0
    for _ in range(40):  # seat 0 plays on: nothing of seat 1's turns up
        moves = a.legal_moves(0)
        if not moves or a.finished:
            break
        t += 100
        move = rng.choice(moves)
        a.apply(0, move, t)
        b.apply(0, move, t)
        assert a.view(0) == b.view(0)


@SETTINGS
@given(st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_a_speed_view_does_not_depend_on_the_other_seats_hidden_cards(seed: int, rng: random.Random) -> None:
    opts = SpitOptions.from_preset("speed", {"auto_spit_ms": 0})
    deal = SpeedState.new(opts, seed=seed).start_deal
    other = {key: [list(p) for p in deal[key]] for key in deal}
    pool = parse_cards(other["draws"][1] + other["sides"][1][:-1])
    rng.shuffle(pool)
    n = len(other["draws"][1])
    other["draws"][1] = format_cards(pool[:n])
    other["sides"][1] = format_cards(pool[n:]) + other["sides"][1][-1:]
    a, b = SpeedState.new(opts, deal=deal), SpeedState.new(opts, deal=other)
    assert a.view(0) == b.view(0) and a.view(None) == b.view(None)
    assert a.view(0).players[1].hand is None
    t = 0
    for _ in range(20):
        moves = [m for m in a.legal_moves(0) if m != "spit"]
        if not moves or a.finished:
            break
        t += 100
        move = rng.choice(moves)
        a.apply(0, move, t)
        b.apply(0, move, t)
        assert a.view(0) == b.view(0)


@settings(max_examples=15, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.integers(0, len(VARIANTS) - 1), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_same_seed_same_events_same_game(variant: int, seed: int, rng: random.Random) -> None:
    state = random_game(variant, seed, random.Random(rng.random()), steps=80)
    again = new_game(VARIANTS[variant][0], options=VARIANTS[variant][1], seed=seed)
    for entry in state.to_record_moves():
        if "m" in entry:
            again.apply(entry["p"], entry["m"], entry["t"])
        elif "t" in entry:
            again.advance(entry["t"])
    again.advance(state.now)
    assert again.to_record_moves() == state.to_record_moves()
    assert again.full_view() == state.full_view()
