"""Options and presets of Spit and Speed (docs/spit.md §2.1, §3)."""

from __future__ import annotations

import pytest

from spite.errors import OptionsError
from spite.spit import PRESETS, SpitOptions, new_game


def test_spit_defaults_follow_the_rulings() -> None:
    opts = SpitOptions.from_preset("spit")
    assert (opts.game, opts.jokers, opts.centers, opts.wrap) == ("spit", 0, 2, "full")
    assert (opts.slowpoke_ms, opts.auto_spit_ms, opts.auto_slap_ms) == (0, 3000, 5000)
    assert (opts.time_limit_s, opts.rounds_in_a_row) == (0, 0)


@pytest.mark.parametrize(
    ("preset", "field", "value"),
    [
        ("spit-jokers", "jokers", 2),
        ("three-piles", "centers", 3),
        ("slowpoke", "slowpoke_ms", 2000),
        ("ace-bridge", "wrap", "ace_bridge"),
        ("timed", "time_limit_s", 600),
        ("rounds", "rounds_in_a_row", 3),
    ],
)
def test_each_seed_variant_has_a_preset(preset: str, field: str, value: object) -> None:
    assert getattr(SpitOptions.from_preset(preset), field) == value
    assert SpitOptions.from_preset(preset).overrides_from("spit") == {field: value}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": 1}, "unknown option 'colour' for spit"),
        ({"game": "speed"}, "unknown option 'game'"),
        ({"centers": 4}, "centers must be 2 or 3, not 4"),
        ({"centers": "3"}, "centers must be a whole number"),
        ({"centers": True}, "centers must be a whole number"),
        ({"jokers": 1}, "jokers must be 0 or 2"),
        ({"wrap": "none"}, "wrap must be 'full' or 'ace_bridge'"),
        ({"slowpoke_ms": -1}, "slowpoke_ms must be between 0"),
        ({"auto_spit_ms": 10**9}, "auto_spit_ms must be between 0"),
        ({"auto_slap_ms": 1.5}, "auto_slap_ms must be a whole number"),
        ({"time_limit_s": -5}, "time_limit_s must be between 0"),
        ({"rounds_in_a_row": 1}, "rounds_in_a_row must be 0 (off) or between 2 and 100"),
        ({"time_limit_s": 2, "slowpoke_ms": 2000}, "leaves no time to play"),
    ],
)
def test_bad_spit_options_give_one_clear_line(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message.replace("(", r"\(").replace(")", r"\)")) as info:
        SpitOptions.from_preset("spit", options)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("option", ["jokers", "centers", "auto_slap_ms", "rounds_in_a_row"])
def test_speed_refuses_what_it_does_not_have(option: str) -> None:
    with pytest.raises(OptionsError, match=f"option '{option}' does not apply to speed"):
        SpitOptions.from_preset("speed", {option: 2})


def test_speed_takes_its_own_options() -> None:
    opts = SpitOptions.from_preset("speed", {"wrap": "ace_bridge", "slowpoke_ms": 500, "time_limit_s": 60})
    assert (opts.game, opts.wrap, opts.slowpoke_ms, opts.time_limit_ms) == ("speed", "ace_bridge", 500, 60_000)


def test_unknown_and_mismatched_presets_are_errors() -> None:
    with pytest.raises(OptionsError, match="unknown preset 'blitz'"):
        SpitOptions.from_preset("blitz")
    with pytest.raises(OptionsError, match="preset 'speed' is for speed, not spit"):
        SpitOptions.from_preset("speed", game="spit")
    with pytest.raises(OptionsError, match="preset 'slowpoke' is for spit, not speed"):
        new_game("speed", "slowpoke", seed=1)
    with pytest.raises(OptionsError, match="unknown game"):
        SpitOptions.from_preset(None, game="nertz")


def test_every_preset_starts_a_game() -> None:
    for name in PRESETS:
        state = new_game("speed" if name == "speed" else "spit", name, seed=3)
        assert not state.finished
        assert state.options == SpitOptions.from_preset(name)
