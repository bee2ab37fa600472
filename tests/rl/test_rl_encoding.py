"""The encoding of spite.malice.rl (numpy only): the action table, masks, the observation layout."""

from __future__ import annotations

import numpy as np
import pytest
from rl_helpers import PRESET_CASES, hidden_reshuffled, positions

from spite.cards import RANKS
from spite.errors import IllegalMoveError
from spite.malice import BUILD, DISCARD, DISCARD_PILE, HAND, PASS, STOCK, Options, SeatView, State
from spite.malice.rl.encoding import (
    COUNT_CAP,
    N_BUILD_VALUES,
    N_CARD_CLASSES,
    N_RANKS,
    PILE_CAP,
    PLAYED_CAP,
    Encoding,
    view_from_json,
    view_text,
)


def reference_observation(enc: Encoding, view: SeatView) -> np.ndarray:
    """The observation built section by section, exactly as docs/rl.md describes it (slow and plain)."""
    opts = enc.opts
    seat = view.seat if view.seat is not None else view.to_move
    parts: list[list[float]] = []
    hand = [0.0] * N_RANKS
    for card in view.hand or ():
        hand[RANKS[card] - 1] += 1 / opts.hand_size
    parts.append(hand)
    builds = []
    for pile in view.builds:
        onehot = [0.0] * N_BUILD_VALUES
        onehot[len(pile)] = 1.0
        builds += onehot
    parts.append(builds)
    for rel in range(opts.players):
        s = (seat + rel) % opts.players
        block = [1.0 if rel == 0 or (opts.partnerships and rel == 2) else 0.0, view.hand_sizes[s] / opts.hand_size]
        tops = view.stock_tops[opts.stock_of(s)]
        for i in range(opts.open_stock):
            onehot = [0.0] * N_CARD_CLASSES
            onehot[RANKS[tops[-1 - i]] if i < len(tops) else 0] = 1.0
            block += onehot
        block.append(view.stock_sizes[opts.stock_of(s)] / opts.stock_size)
        for pile in view.discards[s]:
            onehot = [0.0] * N_CARD_CLASSES
            onehot[RANKS[pile[-1]] if pile else 0] = 1.0
            counts = [0.0] * N_RANKS
            for card in pile:
                counts[RANKS[card] - 1] += 1
            block += onehot + [min(c / COUNT_CAP, 1.0) for c in counts] + [min(len(pile) / PILE_CAP, 1.0)]
        parts.append(block)
    to_move = [0.0] * opts.players
    to_move[(view.to_move - seat) % opts.players] = 1.0
    parts.append(to_move)
    deck = len(opts.deck_cards())
    parts.append([view.draw_size / deck, view.set_aside_size / deck, min(view.played_this_turn / PLAYED_CAP, 1.0),
                  view.turn / opts.turn_limit])
    return np.array([x for part in parts for x in part], dtype=np.float32)


@pytest.mark.parametrize(("preset", "overrides"), PRESET_CASES)
def test_masks_are_exactly_the_legal_moves_and_observations_follow_the_layout(preset: str, overrides: dict) -> None:
    opts = Options.from_preset(preset, overrides)
    enc = Encoding(opts)
    n = 0
    for state in positions(opts, games=2, seed=11):
        for seat in range(opts.players):
            view = state.view(seat)
            mask = enc.mask(view)
            assert mask.dtype == np.int8 and mask.shape == (enc.n_actions,)
            legal = {enc.move(int(a)) for a in np.flatnonzero(mask)}
            assert legal == set(view.legal_moves)
            assert len(legal) == len(view.legal_moves)  # each legal move has its own action
            if seat == state.to_move and not state.is_over:
                assert mask.any()
            if n % 7 == 0:  # the reference is slow: every 7th view
                obs = enc.observe(view)
                assert obs.shape == (enc.obs_size,) and obs.dtype == np.float32
                assert obs.min() >= 0.0 and obs.max() <= 1.0
                np.testing.assert_allclose(obs, reference_observation(enc, view), atol=1e-6)
            n += 1


@pytest.mark.parametrize(("preset", "overrides"), PRESET_CASES)
def test_every_move_of_the_game_has_one_action_and_back(preset: str, overrides: dict) -> None:
    opts = Options.from_preset(preset, overrides)
    enc = Encoding(opts)
    nb, nd = opts.build_piles, opts.discard_piles
    assert enc.n_actions == nb + nd * nb + 14 * nb + 14 * nd + 1
    seen = set()
    for a in range(enc.n_actions):
        move = enc.move(a)
        assert enc.action_of(move) == a
        if not (opts.skipbo and move.rank == 13):  # the Skip-Bo deck has no 13: its slots are never legal
            assert enc.action_of(move.text) == a
        seen.add(move.text)
    assert len(seen) == enc.n_actions
    # the documented blocks
    assert enc.move(0).kind == BUILD and enc.move(0).source == STOCK
    assert enc.move(nb).source == DISCARD_PILE and enc.move(nb).pile == 0
    assert enc.move(nb + nd * nb).source == HAND and enc.move(nb + nd * nb).rank == 1
    first_discard = nb + nd * nb + 14 * nb
    assert enc.move(first_discard).kind == DISCARD and enc.move(first_discard).rank == 1
    assert enc.move(enc.n_actions - 1).kind == PASS


def test_sizes_are_fixed_per_options_and_documented() -> None:
    assert Encoding(Options()).n_actions == 133
    assert Encoding(Options()).obs_size == 348
    biggest = Options.from_preset("classic", {"build_piles": 12, "discard_piles": 12})
    assert Encoding(biggest).n_actions == 493
    enc = Encoding(Options.from_preset("party"))
    assert sum(size for _, _, size, _ in enc.layout()) == enc.obs_size
    assert enc.describe(0) == "0: S-B1 (stock to build)"
    with pytest.raises(IllegalMoveError, match="out of range"):
        enc.move(enc.n_actions)
    with pytest.raises(IllegalMoveError, match="pile does not exist"):
        enc.action_of("S-B5")


def test_a_seats_observation_ignores_the_cards_it_cannot_see() -> None:
    for preset, overrides in PRESET_CASES:
        opts = Options.from_preset(preset, overrides)
        enc = Encoding(opts)
        for i, state in enumerate(positions(opts, games=1, seed=5)):
            if i % 9:
                continue
            for seat in range(opts.players):
                twin = hidden_reshuffled(state, seat, seed=i)
                np.testing.assert_array_equal(enc.observe(state.view(seat)), enc.observe(twin.view(seat)))
                np.testing.assert_array_equal(enc.mask(state.view(seat)), enc.mask(twin.view(seat)))


def test_the_bot_protocols_json_view_encodes_like_the_real_view() -> None:
    for preset, overrides in PRESET_CASES:
        opts = Options.from_preset(preset, overrides)
        enc = Encoding(opts)
        for i, state in enumerate(positions(opts, games=1, seed=3)):
            if i % 5 or state.is_over:
                continue
            seat = state.to_move
            view = state.view(seat)
            rebuilt = view_from_json(opts, view.to_json(), [m.text for m in view.legal_moves], view.played_this_turn)
            np.testing.assert_array_equal(enc.observe(rebuilt), enc.observe(view))
            np.testing.assert_array_equal(enc.mask(rebuilt), enc.mask(view))


def test_text_view_shows_own_hand_only() -> None:
    state = State.new(Options(), seed=4)
    seat = state.to_move
    text = view_text(state.view(seat))
    assert f"> Seat {seat}:" in text and "Legal" in text
    assert text.count("hand     5 cards") == 1  # the other seat's hand is a count
    assert view_text(state.view(1 - seat)).count("Legal") == 0
