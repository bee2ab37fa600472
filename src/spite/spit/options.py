"""Options and presets of Spit and Speed (docs/spit.md §2.1 and §3).

>>> opts = SpitOptions.from_preset("spit", {"centers": 3})
>>> opts.centers, opts.wrap, opts.auto_spit_ms
(3, 'full', 3000)
>>> SpitOptions.from_preset("speed").game
'speed'
>>> SpitOptions.from_preset("spit", {"centers": 4})
Traceback (most recent call last):
...
spite.errors.OptionsError: centers must be 2 or 3, not 4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, Final

from spite.errors import OptionsError, Phrase

__all__ = ["GAME_OF_PRESET", "PRESETS", "SPEED_OPTIONS", "SpitOptions"]

MAX_MS: Final = 3_600_000
"""The largest value of a millisecond option (one hour)."""


@dataclass(frozen=True, slots=True)
class SpitOptions:
    """Every rule option of Spit and Speed, with the ``spit`` defaults (docs/spit.md §2.1).

    ``game`` is ``"spit"`` or ``"speed"``; Speed knows only ``wrap``, ``slowpoke_ms``,
    ``auto_spit_ms`` and ``time_limit_s`` (it has no jokers, two center piles, no rounds, no slap).
    A millisecond or second value of 0 switches the timer off (``slowpoke_ms`` 0: no wait).
    """

    game: str = "spit"
    jokers: int = 0
    centers: int = 2
    wrap: str = "full"
    slowpoke_ms: int = 0
    auto_spit_ms: int = 3000
    auto_slap_ms: int = 5000
    time_limit_s: int = 0
    rounds_in_a_row: int = 0

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_preset(
        cls, preset: str | None = None, overrides: Mapping[str, Any] | None = None, game: str | None = None
    ) -> SpitOptions:
        """The options of ``preset`` with ``overrides`` applied, checked.

        ``game`` (``"spit"`` or ``"speed"``) defaults to the preset's game; ``preset`` defaults to the
        game's own preset. Raises :class:`OptionsError` with one line on any problem.
        """
        if game is not None and game not in ("spit", "speed"):
            raise OptionsError(f"unknown game {game!r} (spit or speed)",
                               phrase=Phrase("options.unknown-game", {"game": str(game)}))
        if preset is None:
            preset = game or "spit"
        if not isinstance(preset, str) or preset not in PRESETS:
            names = ", ".join(p for p in PRESETS if game is None or GAME_OF_PRESET[p] == game)
            raise OptionsError(f"unknown preset {preset!r} (one of {names})",
                               phrase=Phrase("options.unknown-preset", {"preset": str(preset), "presets": names}))
        preset_game = GAME_OF_PRESET[preset]
        if game is not None and preset_game != game:
            raise OptionsError(f"preset {preset!r} is for {preset_game}, not {game}",
                               phrase=Phrase("options.preset-game", {"preset": preset, "other": preset_game,
                                                                     "game": game}))
        values: dict[str, Any] = dict(PRESETS[preset])
        if overrides is not None and not isinstance(overrides, Mapping):
            raise OptionsError("options must be a JSON object", phrase=Phrase("options.not-object"))
        allowed = SPEED_OPTIONS if preset_game == "speed" else _SPIT_OPTIONS
        for key, value in (overrides or {}).items():
            if key not in _FIELD_TYPES or key == "game":
                raise OptionsError(f"unknown option {key!r} for {preset_game}",
                                   phrase=Phrase("options.unknown-option", {"option": str(key), "game": preset_game}))
            if key not in allowed:
                raise OptionsError(f"option {key!r} does not apply to {preset_game}",
                                   phrase=Phrase("options.not-applicable", {"option": key, "game": preset_game}))
            values[key] = value
        for key, value in values.items():
            _check_type(key, value)
        opts = cls(game=preset_game, **values)
        opts._check()
        return opts

    def _check(self) -> None:
        if self.jokers not in (0, 2):
            raise OptionsError(
                f"jokers must be 0 or 2 (the two jokers of a deck, so the cards split evenly), not {self.jokers}",
                phrase=Phrase("options.spit-jokers", {"value": self.jokers}),
            )
        if self.centers not in (2, 3):
            raise OptionsError(f"centers must be 2 or 3, not {self.centers}",
                               phrase=Phrase("options.choice", {"option": "centers", "value": self.centers,
                                                                "choices": "2, 3"}))
        if self.wrap not in ("full", "ace_bridge"):
            raise OptionsError(f"wrap must be 'full' or 'ace_bridge', not {self.wrap!r}",
                               phrase=Phrase("options.choice", {"option": "wrap", "value": self.wrap,
                                                                "choices": "full, ace_bridge"}))
        for name in ("slowpoke_ms", "auto_spit_ms", "auto_slap_ms"):
            value = getattr(self, name)
            if not 0 <= value <= MAX_MS:
                raise OptionsError(f"{name} must be between 0 and {MAX_MS} ms, not {value}",
                                   phrase=Phrase("options.range", {"option": name, "low": 0, "high": MAX_MS,
                                                                   "value": value}))
        if not 0 <= self.time_limit_s <= 86_400:
            raise OptionsError(f"time_limit_s must be between 0 (no limit) and 86400, not {self.time_limit_s}",
                               phrase=Phrase("options.range", {"option": "time_limit_s", "low": 0, "high": 86_400,
                                                               "value": self.time_limit_s}))
        if self.rounds_in_a_row != 0 and not 2 <= self.rounds_in_a_row <= 100:
            raise OptionsError(f"rounds_in_a_row must be 0 (off) or between 2 and 100, not {self.rounds_in_a_row}",
                               phrase=Phrase("options.rounds", {"value": self.rounds_in_a_row}))
        if self.time_limit_s and self.slowpoke_ms >= self.time_limit_s * 1000:
            raise OptionsError(f"slowpoke_ms {self.slowpoke_ms} leaves no time to play in a {self.time_limit_s} s game",
                               phrase=Phrase("options.slowpoke", {"ms": self.slowpoke_ms, "s": self.time_limit_s}))

    # ------------------------------------------------------------------ derived values
    @property
    def time_limit_ms(self) -> int:
        """The time limit in milliseconds (0: none)."""
        return self.time_limit_s * 1000

    @property
    def deck_size(self) -> int:
        """How many cards are in play: 52 plus the jokers."""
        return 52 + self.jokers

    def to_dict(self) -> dict[str, Any]:
        """Every option as a JSON-ready dict (``game`` included)."""
        return asdict(self)

    def overrides_from(self, preset: str) -> dict[str, Any]:
        """The options that differ from ``preset``: what a record's ``options`` must say."""
        base = SpitOptions.from_preset(preset)
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name != "game" and getattr(self, f.name) != getattr(base, f.name)
        }


_FIELD_TYPES: Final[dict[str, type]] = {
    "game": str,
    "jokers": int,
    "centers": int,
    "wrap": str,
    "slowpoke_ms": int,
    "auto_spit_ms": int,
    "auto_slap_ms": int,
    "time_limit_s": int,
    "rounds_in_a_row": int,
}

_SPIT_OPTIONS: Final = frozenset(_FIELD_TYPES) - {"game"}
SPEED_OPTIONS: Final = frozenset({"wrap", "slowpoke_ms", "auto_spit_ms", "time_limit_s"})
"""The options Speed knows; the others are errors in a Speed game."""


def _check_type(key: str, value: object) -> None:
    want = _FIELD_TYPES[key]
    if want is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise OptionsError(f"{key} must be a whole number, not {value!r}",
                           phrase=Phrase("options.whole", {"option": key, "value": str(value)}))
    if want is str and not isinstance(value, str):
        raise OptionsError(f"{key} must be a string, not {value!r}",
                           phrase=Phrase("options.text", {"option": key, "value": str(value)}))


PRESETS: Final[dict[str, dict[str, Any]]] = {
    "spit": {},
    "spit-jokers": {"jokers": 2},
    "three-piles": {"centers": 3},
    "slowpoke": {"slowpoke_ms": 2000},
    "ace-bridge": {"wrap": "ace_bridge"},
    "timed": {"time_limit_s": 600},
    "rounds": {"rounds_in_a_row": 3},
    "speed": {},
}
"""Named bundles of options: ``spit`` (the defaults), one per seed variant, and ``speed``."""

GAME_OF_PRESET: Final[dict[str, str]] = {name: "speed" if name == "speed" else "spit" for name in PRESETS}
"""The game each preset belongs to."""
