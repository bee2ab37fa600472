"""Options and presets of the Spite and Malice family (docs/rules.md §1.1–1.2).

>>> opts = Options.from_preset("match")
>>> opts.stock_size, opts.build_piles, opts.jokers, opts.scoring
(20, 3, 0, 'payoff')
>>> Options.from_preset("classic", {"stock_size": 13}).stock_size
13
>>> Options.from_preset("party", {"players": 3, "partnerships": True})
Traceback (most recent call last):
...
spite.errors.OptionsError: partnerships need exactly 4 players (2 teams of 2), not 3
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

from spite.cards import skipbo_deck, standard_deck
from spite.errors import OptionsError, Phrase

__all__ = ["DEFAULTS", "PRESETS", "Options"]


@dataclass(frozen=True, slots=True)
class Options:
    """Every rule option of the family, with the ``classic`` defaults (docs/rules.md §1.1)."""

    players: int = 2
    partnerships: bool = False
    deck: str = "standard"
    decks: int = 2
    jokers: int = 4
    kings_wild: bool = True
    stock_size: int = 26
    hand_size: int = 5
    build_piles: int = 4
    discard_piles: int = 4
    completed: str = "shuffle_in"
    refill_empty_hand: bool = True
    discard_aces: bool = False
    open_stock: int = 1
    no_blocking: bool = False
    on_empty_draw: str = "continue"
    scoring: str = "none"
    match_target: int = 50
    turn_limit: int = 2000

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_preset(cls, preset: str = "classic", overrides: Mapping[str, Any] | None = None) -> Options:
        """The options of ``preset`` with ``overrides`` applied, checked (raises :class:`OptionsError`)."""
        if preset not in PRESETS:
            raise OptionsError(f"unknown preset {preset!r} (one of {', '.join(PRESETS)})",
                               phrase=Phrase("options.unknown-preset",
                                             {"preset": preset, "presets": ", ".join(PRESETS)}))
        values: dict[str, Any] = dict(PRESETS[preset])
        overrides = dict(overrides or {})
        for key in overrides:
            if key not in _FIELD_TYPES:
                raise OptionsError(f"unknown option {key!r} for spite-malice",
                                   phrase=Phrase("options.unknown-option", {"option": key, "game": "spite-malice"}))
        values.update(overrides)
        explicit = set(PRESETS[preset]) | set(overrides)
        opts = cls(**{k: _coerce(k, v) for k, v in values.items()})
        opts._check(explicit)
        return opts

    def with_options(self, **changes: Any) -> Options:
        """A checked copy with some options changed."""
        opts = replace(self, **{k: _coerce(k, v) for k, v in changes.items()})
        opts._check(set(changes))
        return opts

    def to_dict(self) -> dict[str, Any]:
        """Every option as a JSON-ready dict."""
        return asdict(self)

    def overrides_from(self, preset: str) -> dict[str, Any]:
        """The options that differ from ``preset``: what a record's ``options`` must say."""
        base = Options.from_preset(preset)
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != getattr(base, f.name)}

    # ------------------------------------------------------------------ derived facts
    @property
    def skipbo(self) -> bool:
        """True when playing with the Skip-Bo deck (numbers 1..12 and wilds)."""
        return self.deck == "skip-bo"

    @property
    def n_stocks(self) -> int:
        """One stock per player, or one per team with partnerships."""
        return 2 if self.partnerships else self.players

    def stock_of(self, seat: int) -> int:
        """The index of the stock ``seat`` plays from (its team's with partnerships)."""
        return seat % 2 if self.partnerships else seat

    def deck_cards(self) -> list[int]:
        """The whole deck, unshuffled."""
        if self.skipbo:
            return skipbo_deck()
        return standard_deck(self.decks, self.jokers)

    # ------------------------------------------------------------------ validation
    def _check(self, explicit: set[str]) -> None:
        if self.players not in (2, 3, 4):
            raise OptionsError(f"players must be 2, 3 or 4, not {self.players}",
                               phrase=Phrase("options.players", {"n": self.players}))
        if self.partnerships and self.players != 4:
            raise OptionsError(f"partnerships need exactly 4 players (2 teams of 2), not {self.players}",
                               phrase=Phrase("options.partnerships", {"n": self.players}))
        if self.deck not in ("standard", "skip-bo"):
            raise OptionsError(f"deck must be 'standard' or 'skip-bo', not {self.deck!r}",
                               phrase=Phrase("options.choice", {"option": "deck", "value": self.deck,
                                                                "choices": "standard, skip-bo"}))
        if self.skipbo:
            for name in ("decks", "jokers", "kings_wild"):
                if name in explicit and getattr(self, name) != getattr(_DEFAULT, name):
                    raise OptionsError(f"{name} applies to the standard deck only, not to the skip-bo deck",
                                       phrase=Phrase("options.standard-only", {"option": name}))
        if not 1 <= self.decks <= 8:
            raise OptionsError(f"decks must be between 1 and 8, not {self.decks}",
                               phrase=Phrase("options.range", {"option": "decks", "low": 1, "high": 8,
                                                               "value": self.decks}))
        if not 0 <= self.jokers <= 32:
            raise OptionsError(f"jokers must be between 0 and 32, not {self.jokers}",
                               phrase=Phrase("options.range", {"option": "jokers", "low": 0, "high": 32,
                                                               "value": self.jokers}))
        for name, low, high in (("stock_size", 1, 200), ("hand_size", 1, 20), ("build_piles", 1, 12),
                                ("discard_piles", 1, 12), ("match_target", 1, 100000),
                                ("turn_limit", 1, 10_000_000)):
            value = getattr(self, name)
            if not low <= value <= high:
                raise OptionsError(f"{name} must be between {low} and {high}, not {value}",
                                   phrase=Phrase("options.range", {"option": name, "low": low, "high": high,
                                                                   "value": value}))
        if self.completed not in ("shuffle_in", "set_aside"):
            raise OptionsError(f"completed must be 'shuffle_in' or 'set_aside', not {self.completed!r}",
                               phrase=Phrase("options.choice", {"option": "completed", "value": self.completed,
                                                                "choices": "shuffle_in, set_aside"}))
        if self.open_stock not in (1, 3):
            raise OptionsError(f"open_stock must be 1 or 3, not {self.open_stock}",
                               phrase=Phrase("options.choice", {"option": "open_stock", "value": self.open_stock,
                                                                "choices": "1, 3"}))
        if self.on_empty_draw not in ("continue", "draw_game"):
            raise OptionsError(f"on_empty_draw must be 'continue' or 'draw_game', not {self.on_empty_draw!r}",
                               phrase=Phrase("options.choice", {"option": "on_empty_draw", "value": self.on_empty_draw,
                                                                "choices": "continue, draw_game"}))
        if self.scoring not in ("none", "payoff"):
            raise OptionsError(f"scoring must be 'none' or 'payoff', not {self.scoring!r}",
                               phrase=Phrase("options.choice", {"option": "scoring", "value": self.scoring,
                                                                "choices": "none, payoff"}))
        need = self.n_stocks * self.stock_size + self.players * self.hand_size
        have = len(self.deck_cards())
        if need > have:
            raise OptionsError(
                f"{self.n_stocks} stocks of {self.stock_size} and {self.players} hands of {self.hand_size} "
                f"need {need} cards, the deck has {have}",
                phrase=Phrase("options.too-few-cards", {"stocks": self.n_stocks, "stock": self.stock_size,
                                                        "hands": self.players, "hand": self.hand_size,
                                                        "need": need, "have": have}),
            )


_DEFAULT: Final = Options()
DEFAULTS: Final[dict[str, Any]] = asdict(_DEFAULT)
_FIELD_TYPES: Final[dict[str, type]] = {
    f.name: type(getattr(_DEFAULT, f.name)) for f in fields(Options)
}

PRESETS: Final[dict[str, dict[str, Any]]] = {
    "classic": {},
    "cat-and-mouse": {},
    "match": {"stock_size": 20, "build_piles": 3, "jokers": 0, "discard_aces": True,
              "on_empty_draw": "draw_game", "scoring": "payoff", "match_target": 50},
    "skip-bo": {"deck": "skip-bo", "stock_size": 30, "discard_aces": True},
    "short": {"stock_size": 13},
    "kings-only": {"jokers": 0},
    "no-blocking": {"no_blocking": True},
    "open-stock": {"open_stock": 3},
    "party": {"players": 3, "decks": 3, "jokers": 6},
    "partners": {"players": 4, "partnerships": True},
}
"""Named bundles of options (docs/rules.md §1.2); explicit options override them."""


def _coerce(name: str, value: Any) -> Any:
    """Check an option value's type; accepts ``"true"``/``"3"`` style strings from the command line."""
    kind = _FIELD_TYPES.get(name)
    if kind is None:
        raise OptionsError(f"unknown option {name!r} for spite-malice",
                           phrase=Phrase("options.unknown-option", {"option": name, "game": "spite-malice"}))
    if kind is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0"):
            return value.lower() in ("true", "yes", "1")
        raise OptionsError(f"option {name} must be true or false, not {value!r}",
                           phrase=Phrase("options.bool", {"option": name, "value": str(value)}))
    if kind is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise OptionsError(f"option {name} must be a whole number, not {value!r}",
                           phrase=Phrase("options.whole", {"option": name, "value": str(value)}))
    if not isinstance(value, str):
        raise OptionsError(f"option {name} must be a string, not {value!r}",
                           phrase=Phrase("options.text", {"option": name, "value": str(value)}))
    return value
