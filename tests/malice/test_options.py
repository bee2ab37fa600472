"""Options and presets (docs/rules.md §1.1–1.2): every preset sets what the table says; nonsense is refused."""

from __future__ import annotations

import pytest

from spite.errors import OptionsError
from spite.malice import DEFAULTS, PRESETS, Options, State
from waiting import bounded


def test_classic_defaults() -> None:
    o = Options.from_preset("classic")
    assert (o.players, o.decks, o.jokers, o.stock_size, o.hand_size, o.build_piles, o.discard_piles) == (
        2, 2, 4, 26, 5, 4, 4)
    assert len(o.deck_cards()) == 108
    assert Options.from_preset("cat-and-mouse") == o


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("match", {"stock_size": 20, "build_piles": 3, "jokers": 0, "discard_aces": True,
                   "on_empty_draw": "draw_game", "scoring": "payoff", "match_target": 50}),
        ("skip-bo", {"deck": "skip-bo", "stock_size": 30, "discard_aces": True}),
        ("short", {"stock_size": 13}),
        ("kings-only", {"jokers": 0}),
        ("no-blocking", {"no_blocking": True}),
        ("open-stock", {"open_stock": 3}),
        ("party", {"players": 3, "decks": 3, "jokers": 6}),
        ("partners", {"players": 4, "partnerships": True}),
    ],
)
def test_presets_set_what_the_rulings_say(preset: str, expected: dict[str, object]) -> None:
    o = Options.from_preset(preset)
    for key, value in expected.items():
        assert getattr(o, key) == value
    assert o.overrides_from("classic") == {k: v for k, v in expected.items() if DEFAULTS[k] != v}


def test_skipbo_deck_has_162_cards() -> None:
    deck = Options.from_preset("skip-bo").deck_cards()
    assert len(deck) == 162
    from collections import Counter

    from spite.cards import format_card
    counts = Counter(format_card(c) for c in deck)
    assert counts["X"] == 18 and all(counts[str(n)] == 12 for n in range(1, 13))


def test_kings_only_has_eight_wilds() -> None:
    state = State.new(Options.from_preset("kings-only"), seed=1)
    assert sum(1 for c in state.opts.deck_cards() if state.card_value(c) == 0) == 8


def test_party_with_four_players_and_explicit_overrides() -> None:
    o = Options.from_preset("party", {"players": 4})
    assert o.players == 4 and len(o.deck_cards()) == 162
    assert Options.from_preset("short", {"stock_size": 15}).stock_size == 15


@pytest.mark.parametrize(
    ("preset", "overrides", "message"),
    [
        ("party", {"players": 3, "partnerships": True}, "partnerships need exactly 4 players"),
        ("classic", {"players": 5}, "players must be 2, 3 or 4"),
        ("classic", {"players": 4}, "need 124 cards, the deck has 108"),
        ("classic", {"open_stock": 2}, "open_stock must be 1 or 3"),
        ("classic", {"completed": "burn"}, "completed must be"),
        ("classic", {"colour": "red"}, "unknown option 'colour'"),
        ("classic", {"stock_size": "many"}, "must be a whole number"),
        ("classic", {"no_blocking": "perhaps"}, "must be true or false"),
        ("skip-bo", {"jokers": 2}, "jokers applies to the standard deck only"),
        ("bridge", {}, "unknown preset 'bridge'"),
    ],
)
def test_nonsense_is_refused_with_a_clear_line(preset: str, overrides: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        Options.from_preset(preset, overrides)


def test_every_preset_plays_a_game_to_the_end() -> None:
    for preset in PRESETS:
        state = State.new(Options.from_preset(preset), seed=3)
        for _ in bounded(20_000, "the game's end"):
            if state.is_over:
                break
            state.play((state.build_moves() or state.end_moves())[0])
        assert state.result is not None
