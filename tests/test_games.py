"""The game interface (spite.games): one contract that every registered game keeps, and the registry."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from spite.errors import IllegalMoveError, OptionsError
from spite.games import Game, GameState, game_names, get_game
from spite.records import dump_record, parse_record, replay, replay_game
from waiting import bounded

# One representative preset per game, with options that keep a random game short.
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "spite-malice": ("short", {}),
    "spit": ("spit", {"auto_spit_ms": 500, "auto_slap_ms": 500, "time_limit_s": 120}),
    "speed": ("speed", {"auto_spit_ms": 500, "time_limit_s": 120}),
}


@pytest.fixture(params=sorted(CASES))
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def _new(name: str, seed: int = 5) -> GameState:
    preset, options = CASES[name]
    return get_game(name).new(preset, options, seed=seed)


def _play_random(state: GameState, rng: random.Random, steps: int = 20_000) -> None:
    """Random legal moves (bounded): in real time each step lets 50-400 ms pass, then one seat moves."""
    t = state.now
    for _ in range(steps):
        if state.is_over:
            return
        if state.game.realtime:
            t += rng.randrange(50, 400)
            state.advance(t)
        movers = [s for s in state.to_act() if state.legal_moves(s)]
        if not movers:
            if not state.game.realtime:
                raise AssertionError(f"the seat to move has no legal move: {state}")
            continue
        seat = rng.choice(movers)
        state.apply(seat, rng.choice(state.legal_moves(seat)), t)


def test_the_registry_lists_exactly_the_three_games() -> None:
    assert game_names() == ("spite-malice", "spit", "speed")
    for name in game_names():
        game = get_game(name)
        assert isinstance(game, Game) and game.name == name and game.default_preset in game.presets
        assert get_game(name) is game


def test_an_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(OptionsError, match=r"unknown game 'chess' \(one of spite-malice, spit, speed\)"):
        get_game("chess")


def test_real_time_and_seats() -> None:
    assert [get_game(n).realtime for n in game_names()] == [False, True, True]
    assert get_game("spite-malice").seats("partners") == 4
    assert get_game("spite-malice").seats("party", {"players": 3}) == 3
    assert get_game("spit").seats("three-piles") == 2
    with pytest.raises(OptionsError, match="preset 'speed' is for speed, not spit"):
        get_game("spit").seats("speed")
    with pytest.raises(OptionsError, match="unknown option 'centers' for spite-malice"):
        get_game("spite-malice").new("classic", {"centers": 3}, seed=1)


def test_new_from_a_seed_is_the_same_game_every_time(name: str) -> None:
    a, b = _new(name), _new(name)
    assert a.show() == b.show() and a.to_record().to_json() == b.to_record().to_json()
    assert a.plies == 0 and a.now == 0 and not a.is_over and a.result is None
    assert _new(name, seed=6).show() != a.show()


def test_new_from_an_explicit_deal_gives_that_position(name: str) -> None:
    state = _new(name)
    record = state.to_record()
    preset, options = CASES[name]
    again = get_game(name).new(preset, options, deal=record.deal)
    assert again.show() == state.show()


def test_someone_may_move_at_the_start(name: str) -> None:
    state = _new(name)
    assert state.to_act()
    assert any(state.legal_moves(seat) for seat in state.to_act())
    if not state.game.realtime:
        assert len(state.to_act()) == 1
    else:
        assert state.to_act() == tuple(range(state.seats))


def test_a_legal_move_changes_the_state_and_an_illegal_one_changes_nothing(name: str) -> None:
    state = _new(name)
    seat = next(s for s in state.to_act() if state.legal_moves(s))
    before = state.show()
    t = 100 if state.game.realtime else 0
    for bad in ("B9-B9", "T9-C9", "nonsense"):
        with pytest.raises(IllegalMoveError):
            state.apply(seat, bad, t)
        assert state.show() == before and state.plies == 0
    if not state.game.realtime:
        other = (seat + 1) % state.seats
        with pytest.raises(IllegalMoveError, match="turn"):
            state.apply(other, state.legal_moves(seat)[0])
        assert state.show() == before
    events = state.apply(seat, state.legal_moves(seat)[0], t)
    assert events and events[0].kind == "move" and events[0].seat == seat
    assert state.show() != before and state.plies == 1


def test_views_hide_what_a_seat_may_not_know(name: str) -> None:
    state = _new(name)
    _play_random(state, random.Random(1), steps=30)
    table = state.show()
    spectator = state.view(None).to_json()
    players = table["players"]
    assert all(p.get("hand") is None for p in spectator["players"])
    for seat in range(state.seats):
        view = state.view(seat).to_json()
        # nothing the spectator does not get, besides whose view it is
        assert set(view) <= set(spectator) | {"seat"}
        for mine, public in zip(view["players"], spectator["players"], strict=True):
            assert set(mine) <= set(public)
        for other, player in enumerate(view["players"]):
            if other == seat:
                continue
            assert player.get("hand") is None, (seat, other)
        if "hand" in players[seat]:
            assert view["players"][seat]["hand"] == players[seat]["hand"]
    with pytest.raises(ValueError, match="no seat 7"):
        state.view(7)


def test_random_play_ends_and_the_record_replays_to_the_same_end(name: str) -> None:
    for seed in (1, 2):
        state = _new(name, seed=seed)
        _play_random(state, random.Random(seed))
        assert state.is_over and state.to_act() == () and state.result is not None
        assert all(state.legal_moves(s) == [] for s in range(state.seats))
        record = parse_record(dump_record(state.to_record()))
        again = replay_game(record)
        assert again.result == state.result and again.show() == state.show() and again.plies == state.plies
        assert replay(record).check()["result"] == state.result


def test_a_record_of_an_unfinished_game_replays_and_play_goes_on(name: str) -> None:
    state = _new(name)
    _play_random(state, random.Random(3), steps=25)
    again = get_game(name).from_record(state.to_record())
    assert again.show() == state.show() and again.now == state.now
    copy = again.copy()
    _play_random(copy, random.Random(4))
    assert copy.is_over and again.show() == state.show()


def test_a_state_crosses_to_another_process_and_plays_on_alike(name: str) -> None:
    """A game in the middle pickles (for a process pool or Ray) and plays on move for move as the
    original, with the same views for every seat; so does a finished one."""
    state = _new(name)
    _play_random(state, random.Random(3), steps=25)
    again = pickle.loads(pickle.dumps(state))
    assert again.show() == state.show() and again.now == state.now
    assert [again.view(s) for s in range(state.seats)] == [state.view(s) for s in range(state.seats)]
    _play_random(state, random.Random(4))
    _play_random(again, random.Random(4))
    assert again.is_over and again.result == state.result and again.show() == state.show()
    assert pickle.loads(pickle.dumps(again)).to_record() == state.to_record()


def test_a_record_of_another_game_is_refused() -> None:
    from spite.errors import MalformedRecordError

    record = _new("spit").to_record()
    with pytest.raises(MalformedRecordError, match="no speed game"):
        get_game("speed").from_record(record)


# ---------------------------------------------------------------------- what State.play reports
def _first_play(seed: int, wanted: Any) -> tuple[Any, Any, Any]:
    """Random games of ``short`` until a build play for which ``wanted(played, before)`` holds;
    gives (the state after it, the play result, the state before it)."""
    from spite.malice import Options, State

    rng = random.Random(seed)
    for game_seed in range(200):
        state = State.new(Options.from_preset("short"), seed=game_seed)
        for _ in bounded(20_000, "the game's end"):
            if state.is_over:
                break
            before = state.copy()
            builds = state.build_moves()
            played = state.play(rng.choice(builds or state.end_moves()))
            if wanted(played, before):
                return state, played, before
    raise AssertionError("no such play in 200 games")


def test_a_play_that_completes_a_build_pile_reports_the_pile_and_its_shuffle() -> None:
    from spite.cards import format_cards

    state, played, before = _first_play(1, lambda p, b: p.completed_pile is not None)
    pile, cards = played.completed_pile
    assert len(cards) == 12 and cards == (*before.builds[pile], played.card) and state.builds[pile] == ()
    # short shuffles a completed pile into the draw pile: the shuffle is the new draw pile
    assert len(played.shuffles) >= 1 and sorted(played.shuffles[0]) == sorted([*before.draw, *cards])
    assert not played.ends_turn and played.seat == before.to_move
    entries = played.record_entries()
    assert entries[0] == played.move.text and entries[1:] == [{"shuffle": format_cards(c)} for c in played.shuffles]
    moves = state.record_moves()
    assert moves[-len(entries):] == entries  # exactly the record's entries for the move
    assert state.history[-1] is played


def test_a_play_that_empties_the_hand_reports_the_refill() -> None:
    state, played, before = _first_play(2, lambda p, b: p.drawn_by is not None and not p.ends_turn)
    seat = played.seat
    assert played.drawn_by == seat and len(before.hands[seat]) == 1
    assert list(played.drawn) == state.hands[seat] and len(played.drawn) == 5
    assert played.reveals  # the hidden cards drawn: the move cannot be taken back
    if not played.shuffles:
        assert list(played.drawn) == before.draw[::-1][:5] == before.draw[-5:][::-1]


def test_a_stock_play_reports_the_card_it_turned_up_and_an_ordinary_play_nothing() -> None:
    from spite.malice import STOCK

    state, played, before = _first_play(3, lambda p, b: p.move.source == STOCK and p.turned_up)
    stock = state.stock_of(played.seat)
    assert played.turned_up == (stock[-1],) and played.card == before.stock_of(played.seat)[-1] and played.reveals
    _, quiet, _ = _first_play(4, lambda p, b: not p.ends_turn and p.move.source != STOCK and p.drew is None
                              and p.completed is None)
    assert (quiet.shuffles, quiet.drawn, quiet.turned_up, quiet.reveals, quiet.completed_pile) == ((), (), (), False,
                                                                                                    None)


def test_undo_after_each_reported_play_restores_the_position() -> None:
    for wanted in (lambda p, b: p.completed_pile is not None, lambda p, b: p.drawn_by is not None):
        state, _, before = _first_play(5, wanted)
        state.undo()
        assert state.show_json(everything=True) == before.show_json(everything=True)
        assert state.chance_log == before.chance_log and state.shuffles == before.shuffles
