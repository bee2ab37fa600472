"""Playing one tournament game: bots get their seat's view only, a seeded random source, a budget.

A game is fixed by its :class:`~spite.arena.schedule.GameSpec` and the :class:`Setup`: the deal
comes from the spec's seed, each seat's random source from the tournament seed, the deal and the
seat. So the same game gives the same moves in any process, on any machine, for bots that depend
only on what they are given (a bot that looks at the clock, like an anytime search, may not).

A bot that raises, answers something that is no move, or plays an illegal move loses the game
(a *forfeit*, with the reason in :attr:`GameResult.error`); the others go on to the next game.

The arena plays any registered game (:mod:`spite.games`) without asking which one it is: the game's
registry entry names, as its ``arena_check`` and ``arena_play`` hooks, how a tournament's entrants
are checked and how its games are played: each family's ``arena`` module (``spite.<family>.arena``)
builds on this one; the arena never imports it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from spite.arena.schedule import GameSpec
from spite.bots import make_bot
from spite.games import DEFAULT_GAME, Game, get_game, load_hook

__all__ = [
    "ArenaCheck",
    "ArenaPlay",
    "GameResult",
    "Lineup",
    "Setup",
    "bot_rng",
    "check_bots",
    "check_entrants",
    "game_preset",
    "iter_games",
    "run_games",
]


def game_preset(game: Game, preset: str | None) -> str:
    """The preset a tournament of ``game`` plays: ``preset``, or the game's own default for ``None``.

    >>> from spite.games import game_names, get_game
    >>> game = get_game(game_names()[0])
    >>> game_preset(game, None) == game.default_preset, game_preset(game, "any")
    (True, 'any')
    """
    return game.default_preset if preset is None else preset


class Lineup(NamedTuple):
    """What a tournament's check found: seats per game, and sides (teams with partnerships, else
    one per bot) for the even-chances line of the plot."""

    players: int
    sides: int


class ArenaCheck(Protocol):
    """A game's ``arena_check`` hook: raise :class:`OptionsError` with one clear line if these bots
    cannot play a tournament of this game, preset and options. May return a :class:`Lineup`;
    anything else means one side per seat."""

    def __call__(self, specs: Sequence[str], game: str, preset: str | None,
                 options: dict[str, Any] | None = None) -> object: ...


class ArenaPlay(Protocol):
    """A game's ``arena_play`` hook: play the scheduled games in this process, each result as soon as
    its game ends."""

    def __call__(self, setup: Setup, games: Sequence[GameSpec], game: str | None = None) -> Iterable[GameResult]: ...


def check_entrants(specs: Sequence[str], game: str, preset: str | None,
                   options: dict[str, Any] | None = None) -> Lineup:
    """Check a tournament's bots, game, preset and options through the game's ``arena_check`` hook;
    :class:`OptionsError` if the game cannot be played in the arena or the entrants do not fit."""
    found = get_game(game)
    check: ArenaCheck = load_hook(game, "arena_check")
    checked = check(specs, game, preset, options)
    if isinstance(checked, Lineup):
        return checked
    seats = found.seats(game_preset(found, preset), options)
    return Lineup(seats, seats)


@dataclass(frozen=True)
class Setup:
    """What every game of a tournament shares (picklable: it travels to worker processes)."""

    specs: tuple[str, ...]
    """The bot specs, in the order given (index = bot number)."""
    preset: str | None = None
    """A preset of the game (``None``: the game's default preset)."""
    options: dict[str, Any] = field(default_factory=dict)
    """Option overrides on top of the preset."""
    seed: int = 0
    """The tournament seed."""
    budget: float | None = None
    """Seconds per move handed to every bot (``None``: the bot's own default)."""
    records: bool = False
    """Keep each game's record (``spite-record/1`` JSON text) in its result."""
    game: str = DEFAULT_GAME
    """The registered game (:func:`spite.games.game_names`); its registry entry says how it is played."""


@dataclass
class GameResult:
    """How one game went."""

    index: int
    deal: int
    rotation: int
    seed: int
    seats: tuple[int, ...]
    """Bot number in each seat."""
    winner: int | None
    """The winning seat (``None``: a draw, or a forfeit)."""
    team: int | None
    """The winning team with partnerships."""
    reason: str
    """The engine's end reason (``stock``, ``blocked``, …) or ``forfeit``."""
    points: int | None
    turns: int
    """Turns played (ended) in the game."""
    plies: int
    """Moves played in the game."""
    scores: dict[int, float]
    """Per bot number in this game: 1 won, 0.5 drew, 0 lost."""
    think: tuple[float, ...]
    """Seconds spent deciding, per seat."""
    decisions: tuple[int, ...]
    """Moves decided, per seat."""
    forfeit_seat: int | None = None
    error: str = ""
    """Why a seat lost by forfeit (empty otherwise)."""
    record: str | None = None
    """The game's record (JSON text) when the setup asks for records."""

    def outcome_key(self) -> tuple[Any, ...]:
        """Everything about the game except the clock: equal for equal games on any backend."""
        return (self.index, self.deal, self.rotation, self.seed, self.seats, self.winner, self.team, self.reason,
                self.points, self.turns, self.plies, tuple(sorted(self.scores.items())), self.decisions,
                self.forfeit_seat, self.error, self.record)


def bot_rng(seed: int, game: GameSpec, seat: int) -> random.Random:
    """The random source of the bot in ``seat`` of ``game`` (derived from the tournament seed)."""
    return random.Random(f"spite-arena/{seed}/deal/{game.deal}/rotation/{game.rotation}/seat/{seat}")


def describe_failure(exc: BaseException) -> str:
    """A bot's failure as a forfeit's reason says it: a refusal's own words, else what crashed."""
    from spite.errors import SpiteError

    if isinstance(exc, SpiteError):
        return str(exc)
    return f"crashed: {type(exc).__name__}: {exc}"


def check_bots(specs: Sequence[str]) -> None:
    """Raise :class:`OptionsError` for a spec that names no bot (external programs are not started)."""
    for spec in specs:
        bot = make_bot(spec)
        close = getattr(bot, "close", None)
        if close is not None:
            close()


def iter_games(setup: Setup, games: Sequence[GameSpec]) -> Iterator[GameResult]:
    """Play several games of ``setup.game`` in this process, each result as soon as its game ends
    (the game's ``arena_play`` hook)."""
    play: ArenaPlay = load_hook(setup.game, "arena_play")
    yield from play(setup, games, setup.game)


def run_games(setup: Setup, games: Sequence[GameSpec]) -> list[GameResult]:
    """Play several games in this process (see :func:`iter_games`)."""
    return list(iter_games(setup, games))
