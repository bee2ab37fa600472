"""Spite and Malice in the tournament arena (:mod:`spite.arena`): its ``arena_check`` and ``arena_play``
hooks. Bots get the view of the seat to move, in turn; a game is fixed by its
:class:`~spite.arena.schedule.GameSpec` and the :class:`~spite.arena.runner.Setup`.

>>> from spite.arena.schedule import schedule
>>> from spite.arena.runner import Setup
>>> setup = Setup(specs=("random", "greedy"), preset="short", seed=1)
>>> [r.seats for r in iter_malice_games(setup, schedule(2, players=2, games=2, seed=1))]
[(0, 1), (1, 0)]
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from spite.arena.runner import GameResult, Lineup, Setup, bot_rng, check_bots, describe_failure
from spite.arena.schedule import GameSpec, check_lineup
from spite.bots import Bot, make_bot
from spite.malice import Options, SeatView, State
from spite.malice.game import GAME

__all__ = ["check_malice_lineup", "iter_malice_games", "malice_options", "outcomes", "play_game"]


def malice_options(setup: Setup) -> Options:
    """The checked options of every game of a tournament's ``setup``."""
    return Options.from_preset(setup.preset or GAME.default_preset, setup.options)


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


def play_game(game: GameSpec, setup: Setup, opts: Options | None = None,
              get_bot: Callable[[str, int], Bot] | None = None,
              rngs: Sequence[random.Random] | None = None) -> GameResult:
    """Play one game to its end (or to a forfeit).

    ``get_bot(spec, k)`` gives the bot for the ``k``-th seat (0-based) that ``spec`` plays in this game
    (default: a new bot each time); ``rngs`` the random source of each seat (default:
    :func:`bot_rng`; one source in every seat makes the seats draw from one sequence in turn).
    """
    opts = opts or malice_options(setup)
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
            forfeit, error = seat, f"seat {seat} ({spec}) loses: {describe_failure(exc)}"
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
                forfeit, error = seat, f"seat {seat} ({specs[game.seats[seat]]}) loses: {describe_failure(exc)}"
                break
            think[seat] += clock() - t0
            count[seat] += 1
            try:
                play(move)
            except Exception as exc:
                forfeit = seat
                error = f"seat {seat} ({specs[game.seats[seat]]}) loses: illegal move {move}: {describe_failure(exc)}"
                break
        for bot in bots:
            end = getattr(bot, "end_game", None)
            if end is not None:
                with contextlib.suppress(Exception):  # a bot failing after the game changes nothing
                    end(state.result)
    res = state.result
    record = None
    if setup.records:
        from spite.malice.record import record_from_state
        from spite.records import dump_record

        record = dump_record(record_from_state(state, setup.preset or GAME.default_preset))
    winner = res.winner if res and forfeit is None else None
    team = res.team if res and forfeit is None else None
    return GameResult(
        index=game.index, deal=game.deal, rotation=game.rotation, seed=game.seed, seats=game.seats,
        winner=winner, team=team, reason="forfeit" if forfeit is not None else (res.reason if res else "unfinished"),
        points=res.points if res and forfeit is None else None, turns=state.turn, plies=len(state.history),
        scores=outcomes(opts, game.seats, winner, team, forfeit), think=tuple(think), decisions=tuple(count),
        forfeit_seat=forfeit, error=error, record=record,
    )


def check_malice_lineup(specs: Sequence[str], game: str, preset: str | None,
                        options: dict[str, Any] | None = None) -> Lineup:
    """Spite and Malice's ``arena_check`` hook: the options, the number of bots for the seats, each
    bot spec."""
    opts = Options.from_preset(preset or GAME.default_preset, options)
    check_lineup(len(specs), opts.players)
    check_bots(specs)
    return Lineup(opts.players, 2 if opts.partnerships else len(specs))


def iter_malice_games(setup: Setup, games: Sequence[GameSpec], game: str | None = None) -> Iterator[GameResult]:
    """Spite and Malice's ``arena_play`` hook: each game with :func:`play_game`; external bots keep
    their process between games, and all are closed at the end."""
    opts = malice_options(setup)
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
