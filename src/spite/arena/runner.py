"""Playing one tournament game: bots get their seat's view only, a seeded random source, a budget.

A game is fixed by its :class:`~spite.arena.schedule.GameSpec` and the :class:`Setup`: the deal
comes from the spec's seed, each seat's random source from the tournament seed, the deal and the
seat. So the same game gives the same moves in any process, on any machine, for bots that depend
only on what they are given (a bot that looks at the clock, like an anytime search, may not).

A bot that raises, answers something that is no move, or plays an illegal move loses the game
(a *forfeit*, with the reason in :attr:`GameResult.error`); the others go on to the next game.

The arena plays any registered game (:mod:`spite.games`) without asking which one it is: the game's
registry entry names, as its ``arena_check`` and ``arena_play`` hooks, how a tournament's entrants
are checked and how its games are played. Spite and Malice's are here (:func:`check_malice_lineup`,
:func:`iter_malice_games`: bots get the view of the seat to move, in turn); Spit and Speed's are the
simulator's (:mod:`spite.sim.arena`, which builds on this module; the arena never imports it).
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from spite.arena.schedule import GameSpec, check_lineup
from spite.bots import Bot, make_bot
from spite.games import DEFAULT_GAME, Game, get_game, load_hook
from spite.malice import Options, SeatView, State

__all__ = [
    "ArenaCheck",
    "ArenaPlay",
    "GameResult",
    "Lineup",
    "Setup",
    "bot_rng",
    "check_bots",
    "check_entrants",
    "check_malice_lineup",
    "game_preset",
    "iter_games",
    "iter_malice_games",
    "outcomes",
    "play_game",
    "run_games",
]


def game_preset(game: Game, preset: str | None) -> str:
    """The preset a tournament of ``game`` plays: ``preset``, or the game's own default for ``None``.

    >>> from spite.games import get_game
    >>> game_preset(get_game("spit"), None), game_preset(get_game("spite-malice"), "match")
    ('spit', 'match')
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
    preset: str = "classic"
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

    def opts(self) -> Options:
        """The checked options of every game of Spite and Malice."""
        return Options.from_preset(self.preset, self.options)


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


def _sides(opts: Options, seats: Sequence[int]) -> dict[int, set[int]]:
    """For each bot number in the game, the sides (teams with partnerships, else seats) it plays."""
    sides: dict[int, set[int]] = {}
    for seat, bot in enumerate(seats):
        sides.setdefault(bot, set()).add(seat % 2 if opts.partnerships else seat)
    return sides


def outcomes(opts: Options, seats: Sequence[int], winner: int | None, team: int | None,
             forfeit_seat: int | None = None) -> dict[int, float]:
    """Each bot's score in a game: 1 win, 0.5 draw, 0 loss.

    A normal end: the bots in the winning seat (or team) win, the others lose; no winner is a draw.
    A forfeit: the offending side loses; if the other bots all play one side they win, else they draw.

    >>> opts = Options()
    >>> outcomes(opts, (0, 1), 1, None), outcomes(opts, (0, 1), None, None), outcomes(opts, (1, 0), None, None, 1)
    ({0: 0.0, 1: 1.0}, {0: 0.5, 1: 0.5}, {1: 1.0, 0: 0.0})
    """
    sides = _sides(opts, seats)
    if forfeit_seat is not None:
        lost_side = forfeit_seat % 2 if opts.partnerships else forfeit_seat
        losers = {seats[forfeit_seat]} | {b for b, s in sides.items() if lost_side in s}
        rest = [b for b in sides if b not in losers]
        rest_sides = set().union(*(sides[b] for b in rest)) if rest else set()
        other = 1.0 if len(rest_sides) == 1 else 0.5
        return {b: 0.0 if b in losers else other for b in sides}
    if winner is None:
        return dict.fromkeys(sides, 0.5)
    won_side = team if opts.partnerships and team is not None else (winner % 2 if opts.partnerships else winner)
    return {b: 1.0 if won_side in s else 0.0 for b, s in sides.items()}


def _describe(exc: BaseException) -> str:
    from spite.errors import SpiteError

    if isinstance(exc, SpiteError):
        return str(exc)
    return f"crashed: {type(exc).__name__}: {exc}"


def play_game(game: GameSpec, setup: Setup, opts: Options | None = None,
              get_bot: Callable[[str, int], Bot] | None = None,
              rngs: Sequence[random.Random] | None = None) -> GameResult:
    """Play one game to its end (or to a forfeit).

    ``get_bot(spec, k)`` gives the bot for the ``k``-th seat (0-based) that ``spec`` plays in this game
    (default: a new bot each time); ``rngs`` the random source of each seat (default:
    :func:`bot_rng`; one source in every seat makes the seats draw from one sequence in turn).
    """
    opts = opts or setup.opts()
    specs = setup.specs
    state = State.new(opts, game.seed)
    n = opts.players
    think = [0.0] * n
    count = [0] * n
    forfeit: int | None = None
    error = ""
    bots: list[Bot] = []
    for seat in range(n):
        spec = specs[game.seats[seat]]
        nth = sum(specs[b] == spec for b in game.seats[:seat])
        try:
            bot = get_bot(spec, nth) if get_bot else make_bot(spec)
            bot.start_game(opts, seat)
        except Exception as exc:
            forfeit, error = seat, f"seat {seat} ({spec}) loses: {_describe(exc)}"
            break
        bots.append(bot)
    if forfeit is None:
        if rngs is None:
            rngs = [bot_rng(setup.seed, game, seat) for seat in range(n)]
        budget = setup.budget
        view_of = SeatView.of_mover
        play = state.play
        clock = time.perf_counter
        choose = [bot.choose for bot in bots]
        while state.result is None:
            seat = state.to_move
            view = view_of(state)
            t0 = clock()
            try:
                move = choose[seat](view, rngs[seat], budget)
            except Exception as exc:
                forfeit, error = seat, f"seat {seat} ({specs[game.seats[seat]]}) loses: {_describe(exc)}"
                break
            think[seat] += clock() - t0
            count[seat] += 1
            try:
                play(move)
            except Exception as exc:
                forfeit = seat
                error = f"seat {seat} ({specs[game.seats[seat]]}) loses: illegal move {move}: {_describe(exc)}"
                break
        for bot in bots:
            end = getattr(bot, "end_game", None)
            if end is not None:
                with contextlib.suppress(Exception):  # a bot failing after the game changes nothing
                    end(state.result)
    res = state.result
    record = None
    if setup.records:
        from spite.records import dump_record
        from spite.records.malice import record_from_state

        record = dump_record(record_from_state(state, setup.preset))  # the malice hook: its own engine
    winner = res.winner if res and forfeit is None else None
    team = res.team if res and forfeit is None else None
    return GameResult(
        index=game.index, deal=game.deal, rotation=game.rotation, seed=game.seed, seats=game.seats,
        winner=winner, team=team, reason="forfeit" if forfeit is not None else (res.reason if res else "unfinished"),
        points=res.points if res and forfeit is None else None, turns=state.turn, plies=len(state.history),
        scores=outcomes(opts, game.seats, winner, team, forfeit), think=tuple(think), decisions=tuple(count),
        forfeit_seat=forfeit, error=error, record=record,
    )


def check_bots(specs: Sequence[str]) -> None:
    """Raise :class:`OptionsError` for a spec that names no bot (external programs are not started)."""
    for spec in specs:
        bot = make_bot(spec)
        close = getattr(bot, "close", None)
        if close is not None:
            close()


def check_malice_lineup(specs: Sequence[str], game: str, preset: str | None,
                        options: dict[str, Any] | None = None) -> Lineup:
    """Spite and Malice's ``arena_check`` hook: the options, the number of bots for the seats, each
    bot spec."""
    opts = Options.from_preset(preset or "classic", options)
    check_lineup(len(specs), opts.players)
    check_bots(specs)
    return Lineup(opts.players, 2 if opts.partnerships else len(specs))


def iter_games(setup: Setup, games: Sequence[GameSpec]) -> Iterator[GameResult]:
    """Play several games of ``setup.game`` in this process, each result as soon as its game ends
    (the game's ``arena_play`` hook)."""
    play: ArenaPlay = load_hook(setup.game, "arena_play")
    yield from play(setup, games, setup.game)


def iter_malice_games(setup: Setup, games: Sequence[GameSpec], game: str | None = None) -> Iterator[GameResult]:
    """Spite and Malice's ``arena_play`` hook: each game with :func:`play_game`; external bots keep
    their process between games, and all are closed at the end."""
    opts = setup.opts()
    cache: dict[tuple[str, int], Bot] = {}

    def get_bot(spec: str, nth: int) -> Bot:
        if not spec.startswith("cmd:"):
            return make_bot(spec)  # fresh each game: no state can leak between games
        key = (spec, nth)
        bot = cache.get(key)
        if bot is None:
            bot = cache[key] = make_bot(spec)
        return bot

    try:
        for scheduled in games:
            yield play_game(scheduled, setup, opts, get_bot)
    finally:
        for bot in cache.values():
            close = getattr(bot, "close", None)
            if close is not None:
                close()


def run_games(setup: Setup, games: Sequence[GameSpec]) -> list[GameResult]:
    """Play several games in this process (see :func:`iter_games`)."""
    return list(iter_games(setup, games))
