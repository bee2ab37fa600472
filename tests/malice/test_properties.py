"""Property tests over random games of every preset (Hypothesis picks presets, seeds and moves)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import hidden_reshuffled
from spite.malice import PRESETS, Options, SeatView, State
from spite.malice.record import record_from_state, replay_malice
from spite.malice.view import FIELDS
from spite.records import dump_record, parse_record

PRESET_NAMES = sorted(PRESETS)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def all_cards(state: State) -> Counter[int]:
    out: Counter[int] = Counter(state.draw)
    out.update(state.set_aside)
    for group in (state.stocks, state.hands, state.builds):
        for pile in group:
            out.update(pile)
    for piles in state.discards:
        for pile in piles:
            out.update(pile)
    return out


def snapshot(state: State) -> tuple[object, ...]:
    return (
        [s[:] for s in state.stocks], [h[:] for h in state.hands], [[p[:] for p in ps] for ps in state.discards],
        [b[:] for b in state.builds], state.draw[:], state.set_aside[:], state.to_move, state.turn,
        state.idle_turns, state.played_this_turn, state.result, state.shuffles, list(state.chance_log),
    )


def random_play(state: State, rng: random.Random, limit: int) -> None:
    for _ in range(limit):
        if state.is_over:
            return
        moves = state.legal_moves()
        builds = [m for m in moves if not m.ends_turn]
        state.play(rng.choice(builds if builds and rng.random() < 0.8 else moves))


@SETTINGS
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6), plies=st.integers(0, 600))
def test_cards_are_conserved_and_every_listed_move_can_be_played(preset: str, seed: int, plies: int) -> None:
    state = State.new(Options.from_preset(preset), seed)
    deck = Counter(state.opts.deck_cards())
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over:
            break
        assert all_cards(state) == deck
        moves = state.legal_moves()
        assert moves, "a game that is not over always has a legal move"
        assert len({m.text for m in moves}) == len(moves)
        for move in moves:  # every listed move can be played, and undone exactly
            before = snapshot(state)
            state.play(move)
            assert all_cards(state) == deck
            assert state.undo() is move
            assert snapshot(state) == before
        builds = [m for m in moves if not m.ends_turn]
        state.play(rng.choice(builds if builds and rng.random() < 0.8 else moves))
    assert all_cards(state) == deck


@SETTINGS
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6), plies=st.integers(0, 300))
def test_moves_not_listed_are_refused_and_leave_the_state_unchanged(preset: str, seed: int, plies: int) -> None:
    from spite.malice.moves import parse_move

    state = State.new(Options.from_preset(preset), seed)
    random_play(state, random.Random(seed), plies)
    sk = state.opts.skipbo
    ranks = [str(n) for n in range(1, 13)] if sk else ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    candidates = ["pass"] + [f"S-B{b}" for b in range(1, 6)] + [
        f"D{d}-B{b}" for d in range(1, 5) for b in range(1, 6)] + [
        f"H{r}-{k}{i}" for r in [*ranks, "X"] for k in "BD" for i in range(1, 6)]
    legal = {m.text for m in state.legal_moves()}
    for text in candidates:
        move = parse_move(text, sk)
        assert state.is_legal(move) == (text in legal), text
        if text not in legal:
            before = snapshot(state)
            try:
                state.play(move)
            except ValueError:
                pass
            else:
                raise AssertionError(f"{text} was played but is not listed as legal")
            assert snapshot(state) == before


@SETTINGS
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6), plies=st.integers(0, 400),
       shuffle_seed=st.integers(0, 1000))
def test_a_view_does_not_change_when_hidden_cards_are_reshuffled(preset: str, seed: int, plies: int,
                                                                  shuffle_seed: int) -> None:
    state = State.new(Options.from_preset(preset), seed)
    random_play(state, random.Random(seed), plies)
    seat = state.to_move
    view = state.view(seat)
    other = hidden_reshuffled(state, seat, shuffle_seed)
    assert other.view(seat) == view
    assert other.show_json(seat) == state.show_json(seat)


@SETTINGS
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6), plies=st.integers(0, 800))
def test_a_written_record_replays_to_the_same_position(preset: str, seed: int, plies: int) -> None:
    state = State.new(Options.from_preset(preset), seed)
    random_play(state, random.Random(seed), plies)
    record = parse_record(dump_record(record_from_state(state, preset)))
    record.seed = None  # the record must replay from its own chance entries alone
    again = replay_malice(record).state
    assert again.show_json(everything=True) == state.show_json(everything=True)
    assert [m.text for m in again.move_log()] == [m.text for m in state.move_log()]


@SETTINGS
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6), plies=st.integers(1, 500))
def test_undo_all_the_way_restores_the_start_and_copies_are_independent(preset: str, seed: int,
                                                                         plies: int) -> None:
    state = State.new(Options.from_preset(preset), seed)
    start = snapshot(state)
    random_play(state, random.Random(seed), plies)
    copy = state.copy()
    end = snapshot(state)
    while state.history:
        state.undo()
    assert snapshot(state) == start
    assert snapshot(copy) == end
    # replaying the same moves from the start gives the same game again (chance comes from the seed)
    for move in copy.move_log():
        state.play(move)
    assert snapshot(state) == end


def table_as_seen(state: State) -> tuple[object, ...]:
    """The face-up table worked out from the state's piles directly (no view, no cache)."""
    k = state.opts.open_stock
    return (tuple(tuple(s[-k:]) for s in state.stocks), tuple(len(s) for s in state.stocks),
            tuple(tuple(b) for b in state.builds),
            tuple(tuple(tuple(p) for p in piles) for piles in state.discards))


@SETTINGS
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 10**6), plies=st.integers(1, 400),
       back=st.integers(1, 60))
def test_views_list_the_engines_legal_moves_and_follow_every_move_and_undo(preset: str, seed: int, plies: int,
                                                                            back: int) -> None:
    """A view works its legal moves out from what the seat sees: they are the engine's, in the same
    order, for the player to move and none for anyone else, whether or not the engine gathered
    their inputs; its table is the state's after every move and every undo."""
    state = State.new(Options.from_preset(preset), seed)
    rng = random.Random(seed)
    views = []
    for _ in range(plies):
        seen = [state.view(s) for s in range(state.players)]
        views.append(seen)
        for s, view in enumerate(seen):
            expected = tuple(state.legal_moves()) if s == state.to_move else ()
            assert view.legal_moves == expected
            assert view.build_moves() == (state.build_moves() if s == state.to_move else [])
            # the same view made from its fields (as a server or a client builds one) works out the
            # same moves from them; the engine's view of the seat to move takes them from what it
            # gathered when it was made, and its fields are the state's whether read before or after
            rebuilt = view._replace()
            assert type(rebuilt) is SeatView and rebuilt == view and hash(rebuilt) == hash(view)
            assert rebuilt.legal_moves == expected and rebuilt.end_moves() == view.end_moves()
            if s == state.to_move:
                fresh = SeatView.of_mover(state)
                assert fresh.build_moves() == view.build_moves() and fresh == view
            assert (view.stock_tops, view.stock_sizes, view.builds, view.discards) == table_as_seen(state)
        if state.is_over:
            break
        moves = state.legal_moves()
        builds = [m for m in moves if not m.ends_turn]
        state.play(rng.choice(builds if builds and rng.random() < 0.8 else moves))
    for _ in range(min(back, len(state.history))):
        state.undo()
        assert [state.view(s) for s in range(state.players)] == views[len(state.history)]


def test_a_view_refuses_changes_and_survives_pickling() -> None:
    """A view is a snapshot a bot may keep: no field can be set or deleted (read or not yet read),
    and a pickled view comes back equal, with the same moves."""
    import pickle

    import pytest

    state = State.new(Options(), seed=4)
    for view in (state.view(state.to_move), state.view(1 - state.to_move), state.view(None)):
        with pytest.raises(AttributeError):
            view.hand = ()  # type: ignore[misc]
        with pytest.raises(AttributeError):
            del view.builds
        back = pickle.loads(pickle.dumps(view))
        assert back == view and back.legal_moves == view.legal_moves
        assert [getattr(back, name) for name in FIELDS] == [getattr(view, name) for name in FIELDS]
    # the mover's view, first read only after the game went on, shows the position it was made in
    kept, read = state.view(state.to_move), state.view(state.to_move)
    fields = [getattr(read, name) for name in FIELDS]
    moves = read.legal_moves
    for _ in range(6):
        state.play(state.legal_moves()[0])
    assert kept.legal_moves == moves and [getattr(kept, name) for name in FIELDS] == fields
