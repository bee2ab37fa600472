"""One interface for every game, and the registry that finds a game by its name.

Every family (Spite and Malice, Spit, Speed, and any game added later) implements two small
abstract classes, after OpenSpiel's Game/State split:

* :class:`Game` (one object per registered name) knows the presets, how many seats the options
  give, whether the game runs in real time, and makes states: :meth:`Game.new` from a preset, option
  overrides and a seed or an explicit deal, :meth:`Game.from_record` by replaying a
  ``spite-record/1`` record.
* :class:`GameState` is one game in progress: who may act now (:meth:`GameState.to_act`), the legal
  moves of a seat, :meth:`GameState.apply` a seat's move at a time in ms (a turn game ignores the
  time), :meth:`GameState.advance` the clock, the result, each seat's view (and a spectator's), and
  :meth:`GameState.to_record`.

Moves travel as their record text (``"H7-B2"``, ``"T1-C2"``): the same string a client sends, a
record keeps and an error message quotes. The engines stay as they are (``spite.malice.State``,
``spite.spit.SpitState``); an adapter in each family's package (``spite.malice.game``,
``spite.spit.game``) puts the interface on top, and :attr:`GameState.engine` hands the engine's
own state to code that is about one family only (a bot, a screen that draws that table).

The registry holds lazy entries: importing this module imports no engine. A game is looked up by
name; a fourth game adds its own package and one :func:`register` line at the end of this module.

>>> game_names()
('spite-malice', 'spit', 'speed')
>>> game = get_game("spit")
>>> game.realtime, game.default_preset, game.seats()
(True, 'spit', 2)
>>> state = game.new(seed=2)
>>> state.to_act(), state.is_over
((0, 1), False)
>>> move = state.legal_moves(0)[0]
>>> [e.kind for e in state.apply(0, move, 1200)][:1]
['move']
>>> get_game("chess")
Traceback (most recent call last):
...
spite.errors.OptionsError: unknown game 'chess' (one of spite-malice, spit, speed)
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from spite.errors import OptionsError

__all__ = [
    "DEFAULT_GAME",
    "FORMAT",
    "Event",
    "Game",
    "GameState",
    "Record",
    "TurnEvent",
    "View",
    "game_names",
    "get_game",
    "has_hook",
    "load_hook",
    "register",
]

FORMAT = "spite-record/1"
"""The record format every game writes (records.md §3)."""

DEFAULT_GAME = "spite-malice"
"""The game of a record without ``"game"`` (records.md §3), and what every command and request
plays when none is named."""


# ====================================================================== records
@dataclass
class Record:
    """One game as records.md §3 writes it (the JSON object, checked for shape only).

    It lives here, below the families, because recording is part of every game's interface:
    a family's adapter writes and replays records without importing a layer above the engine.
    ``preset`` ``None`` means the game's default preset.
    """

    game: str = DEFAULT_GAME
    preset: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | str | None = None
    deal: dict[str, Any] | None = None
    moves: list[Any] = field(default_factory=list)
    result: dict[str, Any] | None = None
    fairness: dict[str, Any] | None = None
    """A fair table's proof (records.md §3, docs/fairness.md): commitment, secret, nonces; ``None``
    for a game dealt otherwise."""
    forfeit: dict[str, Any] | None = None
    """A rated table's game a person lost by leaving (docs/records.md §3): the seats that ``left`` and
    ``why``; the game stopped there, unfinished. ``None`` for every other game."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object, keys in the order of records.md.

        >>> Record(game="spit", seed=4).to_json()
        {'format': 'spite-record/1', 'game': 'spit', 'preset': 'spit', 'options': {}, 'seed': 4, 'moves': []}
        """
        out: dict[str, Any] = {"format": FORMAT, "game": self.game}
        out["preset"] = self.preset if self.preset is not None else get_game(self.game).default_preset
        out["options"] = dict(self.options)
        if self.seed is not None:
            out["seed"] = self.seed
        if self.deal is not None:
            out["deal"] = self.deal
        out["moves"] = list(self.moves)
        if self.result is not None:
            out["result"] = self.result
        if self.fairness is not None:
            out["fairness"] = self.fairness
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit
        return out


# ====================================================================== the interface
class Event(Protocol):
    """One thing that happened when a move was applied or time passed, in order (what a server
    broadcasts). ``kind`` is ``"move"`` for the move itself; the rest depend on the game (Spit:
    ``flip``, ``round-won``, ``deal``, ``shuffle``, ``game-over``; Spite and Malice: ``draw``,
    ``shuffle``, ``completed``, ``game-over``). No event names a card that some seat may not see."""

    @property
    def t(self) -> int:
        """When it happened (ms since the game began; 0 in a turn game)."""

    @property
    def kind(self) -> str:
        """What happened."""

    @property
    def seat(self) -> int | None:
        """The seat it concerns (``None``: the table)."""

    @property
    def text(self) -> str:
        """The details: the move's text, the cards turned, the reason the game ended, ..."""


@dataclass(frozen=True, slots=True)
class TurnEvent:
    """An :class:`Event` of a turn game (the real-time games bring their own event class)."""

    t: int
    kind: str
    seat: int | None = None
    text: str = ""


class View(Protocol):
    """What one seat (or a spectator) may know: the only thing that leaves a game towards a bot, a
    client or a spectator. Its JSON is the records.md §5 shape of ``spite show --json --as``."""

    def to_json(self) -> dict[str, Any]:
        """The view as JSON."""


class GameState(ABC):
    """One game in progress (OpenSpiel's State). Change it only through :meth:`apply` and
    :meth:`advance`; both raise and leave the state as it was when the move or time is refused."""

    __slots__ = ()

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game this is a state of."""

    @property
    @abstractmethod
    def engine(self) -> Any:
        """The family's own engine state (``spite.malice.State``, ``spite.spit.SpitState``, ...),
        for code that is about that family only."""

    @property
    @abstractmethod
    def seats(self) -> int:
        """How many seats play."""

    @property
    @abstractmethod
    def now(self) -> int:
        """The game's clock in ms (a turn game: always 0)."""

    @property
    @abstractmethod
    def plies(self) -> int:
        """How many moves have been applied."""

    @property
    @abstractmethod
    def result(self) -> dict[str, Any] | None:
        """How the game ended, as records.md §4 writes it (``{"winner": 1, "reason": "stock"}``), or
        ``None`` while it goes on."""

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.result is not None

    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that may move now: the seat to move in a turn game, every seat in real time,
        none once the game is over."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[str]:
        """Every move ``seat`` may make now, as record text, each once (empty if none)."""

    @abstractmethod
    def apply(self, seat: int, move: str, t_ms: int = 0) -> Sequence[Event]:
        """Play ``seat``'s ``move`` at ``t_ms`` (a turn game ignores the time); what happened, in
        order, the move first. Raises :class:`~spite.errors.IllegalMoveError` (a reason a player
        understands) and leaves the state unchanged when the move may not be made now."""

    @abstractmethod
    def advance(self, t_ms: int) -> Sequence[Event]:
        """Let the time pass to ``t_ms`` and fire what falls due (nothing in a turn game)."""

    def next_event_time(self) -> int | None:
        """The first time at which :meth:`advance` will fire something by itself (``None``: never,
        as in every turn game)."""
        return None

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """Exactly what ``seat`` may know; ``None``: a spectator, who sees no hidden card."""

    def face_down_view(self) -> dict[str, Any]:
        """The table before its deal is known to anyone (a fair table waits for its players' random
        parts): the spectator's view JSON with every card face down, only the piles' sizes showing."""
        return self.view(None).to_json()

    @property
    def turns(self) -> int:
        """How long the game has gone on, in the game's own measure (turns; Spit: rounds)."""
        return 1

    def points(self, seat: int) -> int | None:
        """The points ``seat`` won once the game is over (``None``: it did not win; with partnerships
        both partners of the winning team win)."""
        result = self.result or {}
        return 1 if result.get("winner") == seat else None

    @abstractmethod
    def show(self) -> dict[str, Any]:
        """The whole table as JSON, every hidden card included (``spite show`` without ``--as``):
        for records and replay viewers, never for a seat."""

    @abstractmethod
    def to_record(self) -> Record:
        """The game so far as a complete record: the deal, every move and chance entry, the result.
        :meth:`Game.from_record` of it gives the same position."""

    @abstractmethod
    def copy(self) -> GameState:
        """An independent copy."""


class Game(ABC):
    """A registered game (OpenSpiel's Game): its presets, its seats, and new states."""

    __slots__ = ()

    name: str
    """The name records and the registry use (``spite-malice``, ``spit``, ``speed``)."""
    realtime: bool
    """True when every seat may act at any time and moves carry a time (Spit, Speed)."""
    presets: tuple[str, ...]
    """The preset names of this game."""
    default_preset: str
    """The preset a record without one means."""

    @abstractmethod
    def seats(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> int:
        """How many seats ``preset`` with ``options`` has; raises
        :class:`~spite.errors.OptionsError` for an unknown preset or bad options."""

    @abstractmethod
    def new(self, preset: str | None = None, options: Mapping[str, Any] | None = None, *,
            seed: int | str | None = None, deal: dict[str, Any] | None = None) -> GameState:
        """A new game of ``preset`` (default: :attr:`default_preset`) with option overrides, dealt
        from ``seed`` or laid out as ``deal`` (a record's deal object). Raises
        :class:`~spite.errors.OptionsError` for bad options, :class:`~spite.errors.DealError` /
        :class:`~spite.errors.MalformedRecordError` for a bad deal."""

    def dealt(self, preset: str | None, options: Mapping[str, Any] | None, seed: str, *,
              first: int | None = None) -> GameState:
        """A new game dealt from ``seed`` the way a fair table deals it (docs/fairness.md): the seed
        alone decides every card, and ``first`` the seat that begins where the rules, not chance, say
        who (a match's later games: the loser of the game before; ``None``: chance decides, and a
        game without such a rule ignores it). ``spite verify`` deals the same way to check a record."""
        return self.new(preset, options, seed=seed)

    def starts_by_rule(self, preset: str | None, options: Mapping[str, Any] | None) -> bool:
        """Whether the rules of ``preset`` with ``options`` may say who begins a game rather than the
        cut (a match's later games), so that a fair record may name its ``first`` (``spite verify``)."""
        return False

    @abstractmethod
    def from_record(self, record: Record) -> GameState:
        """Replay every entry of ``record`` (a record of this game). Raises
        :class:`~spite.errors.MalformedRecordError` for a record that cannot be read and
        :class:`~spite.errors.RecordMoveError` for a move that may not be made where it stands."""

    @abstractmethod
    def replay(self, record: Record) -> Any:
        """Replay ``record`` for the record commands: a :class:`spite.records.Replay` (``check``,
        ``legal``, ``show``, ``show_text``) with the reached position in its ``state``."""

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


# ====================================================================== the registry
@dataclass(frozen=True, slots=True)
class _Entry:
    target: str
    """``"module:attribute"`` of the :class:`Game` object, imported on first use."""
    hooks: Mapping[str, str]
    """What layers above the games look up by game instead of branching on its name: kind (``arena``,
    ``tui``, ``bots``) to ``"module:attribute"``, imported on first use."""


_REGISTRY: dict[str, _Entry] = {}
_LOADED: dict[str, Game] = {}


def register(name: str, target: str, **hooks: str) -> None:
    """Register the game ``name``: ``target`` is ``"module:attribute"`` of its :class:`Game`
    (imported when first looked up); ``hooks`` name, the same way, what layers above supply for it
    (``arena=`` how a tournament plays its games, ``tui=`` its screen, ``bots=`` its bot family)."""
    _REGISTRY[name] = _Entry(target, dict(hooks))
    _LOADED.pop(name, None)


def game_names() -> tuple[str, ...]:
    """The registered games, in the order they were registered."""
    return tuple(_REGISTRY)


def _entry(name: str) -> _Entry:
    entry = _REGISTRY.get(name) if isinstance(name, str) else None
    if entry is None:
        raise OptionsError(f"unknown game {name!r} (one of {', '.join(_REGISTRY)})")
    return entry


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def get_game(name: str) -> Game:
    """The game registered as ``name``; :class:`~spite.errors.OptionsError` names the known ones
    when there is none."""
    game = _LOADED.get(name) if isinstance(name, str) else None
    if game is None:
        game = _load(_entry(name).target)
        if not isinstance(game, Game) or game.name != name:
            raise TypeError(f"{_entry(name).target} is not the Game {name!r}")
        _LOADED[name] = game
    return game


def load_hook(name: str, kind: str) -> Any:
    """What the game ``name`` supplies to a layer above for ``kind`` (e.g. ``"arena"``); raises
    :class:`~spite.errors.OptionsError` when the game has none (a game that cannot be played there).

    >>> load_hook("spite-malice", "no-such-hook")
    Traceback (most recent call last):
    ...
    spite.errors.OptionsError: spite-malice has no no-such-hook
    """
    target = _entry(name).hooks.get(kind)
    if target is None:
        raise OptionsError(f"{name} has no {kind}")
    return _load(target)


def has_hook(name: str, kind: str) -> bool:
    """True when the game ``name`` supplies ``kind`` (see :func:`load_hook`)."""
    return kind in _entry(name).hooks


# One line per game. Hooks: ``arena_check`` and ``arena_play`` (see :mod:`spite.arena.runner`), ``tui``
# (see :mod:`spite.tui.app`), ``server`` (a :class:`spite.server.table.play.ServerGame`: its tables' adapter),
# ``hint`` (``spite hint``: the move a bot would play, see :func:`spite.malice.hint.hint`), ``review``
# (``spite review``: a finished game turn by turn, see :func:`spite.review.review_record`), ``rating`` (its
# rules groups and what a rated table plays, a :class:`spite.rating.RatingRules`; none: the defaults), ``bots``
# (its bots, registered with :func:`spite.bots.register_bot` when the hook is imported), ``commands`` (its own
# commands of the ``spite`` command line: ``register(app, bench)``, see :mod:`spite.cli`), ``bench`` (finished games
# for the shared benchmarks: ``finished_games(seed, count)``, see :mod:`spite.bench.backup`), ``words`` (the folder of
# its family's own words, ``en.json`` and ``de.json``, merged into the catalogue: see :mod:`spite.catalogue`).
register("spite-malice", "spite.malice.game:GAME", arena_check="spite.malice.arena:check_malice_lineup",
         arena_play="spite.malice.arena:iter_malice_games", tui="spite.malice.tui.screen:TUI",
         server="spite.malice.server:SERVER", hint="spite.malice.hint:hint",
         review="spite.malice.review:review_malice", rating="spite.malice.rating:RATING",
         bots="spite.malice.bots:REGISTERED", commands="spite.malice.cli:register",
         bench="spite.malice.bench:finished_games", words="spite.malice.words:FOLDER")
register("spit", "spite.spit.game:SPIT", arena_check="spite.spit.arena:check_spit_tournament",
         arena_play="spite.spit.arena:run_spit_games", tui="spite.spit.tui.screen:TUI",
         server="spite.spit.server:SERVER", commands="spite.spit.cli:register", words="spite.spit.words:FOLDER")
register("speed", "spite.spit.game:SPEED", arena_check="spite.spit.arena:check_spit_tournament",
         arena_play="spite.spit.arena:run_spit_games", tui="spite.spit.tui.speed_screen:TUI",
         server="spite.spit.server:SERVER", commands="spite.spit.cli:register", words="spite.spit.words:FOLDER")
