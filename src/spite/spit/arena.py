"""Spit and Speed in the tournament arena: one scheduled game in, one :class:`GameResult` out.

The arena (:mod:`spite.arena`) schedules games (:class:`~spite.arena.schedule.GameSpec`: a deal
seed, a seat rotation, the bot in each seat) and sums up :class:`~spite.arena.runner.GameResult`
objects. This module plays such a game with the simulator, so that ``spite tournament --game spit``
(or ``speed``) gives the same outputs as for Spite and Malice: the deal seed deals the cards (each
deal is played with the seats swapped, so both bots get both halves of the same deck), each bot's
random source comes from the tournament seed, the deal, the rotation and the seat (as
:func:`spite.arena.runner.bot_rng` gives them), and the record, when kept, replays without a seed.

The fields mean for Spit what they mean for Spite and Malice: ``turns`` is the number of rounds
(Speed: 1), ``plies`` the move entries of the record (automatic spit calls and slaps included),
``decisions`` the moves each bot sent (landed or refused), ``think`` the wall-clock seconds each
bot spent planning. ``reason`` is the engine's end reason, ``unfinished`` (the virtual-time cap)
or ``forfeit``.

>>> from spite.arena.schedule import schedule
>>> games = schedule(2, players=2, games=2, seed=5)
>>> results = [play_arena_game(g, ("expert", "beginner"), game="speed", tournament_seed=5) for g in games]
>>> [r.seats for r in results], [r.scores[0] for r in results]
([(0, 1), (1, 0)], [1.0, 1.0])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from spite.arena.runner import GameResult, Setup, bot_rng
from spite.arena.schedule import GameSpec
from spite.errors import OptionsError
from spite.spit.bots import make_reflex_bot
from spite.spit.options import GAME_OF_PRESET, SpitOptions
from spite.spit.sim import MAX_MS, simulate

__all__ = ["SPIT_GAMES", "check_spit_tournament", "play_arena_game", "run_spit_games"]

SPIT_GAMES = tuple(dict.fromkeys(GAME_OF_PRESET.values()))
"""The real-time games the simulator plays: every game of the Spit family's presets (its own list,
so a new variant of the family needs no change here)."""


def check_spit_tournament(specs: Sequence[str], game: str, preset: str | None = None,
                          options: dict[str, Any] | None = None) -> SpitOptions:
    """Check a Spit/Speed tournament's settings: exactly 2 bots, each a reflex bot spec, a known
    game, preset and options. Returns the checked options; raises :class:`OptionsError`."""
    if game not in SPIT_GAMES:
        raise OptionsError(f"unknown real-time game {game!r} (one of {', '.join(SPIT_GAMES)})")
    if len(specs) != 2:
        raise OptionsError(f"{game} is a game for 2: give 2 bots, not {len(specs)}")
    for spec in specs:
        make_reflex_bot(spec)
    return SpitOptions.from_preset(preset, options, game=game)


def play_arena_game(spec: GameSpec, bots: Sequence[str], *, game: str = "spit", preset: str | None = None,
                    options: dict[str, Any] | None = None, tournament_seed: int = 0, records: bool = False,
                    max_ms: int = MAX_MS) -> GameResult:
    """Play the scheduled game ``spec`` between the bots ``bots`` (``spec.seats[s]`` is the index
    into ``bots`` of the bot in seat ``s``) and sum it up as the arena does."""
    seat_specs = [bots[spec.seats[s]] for s in (0, 1)]
    rngs = (
        bot_rng(tournament_seed, spec, 0),
        bot_rng(tournament_seed, spec, 1),
        random.Random(f"spite-arena/{tournament_seed}/deal/{spec.deal}/rotation/{spec.rotation}/ties"),
    )
    res = simulate(game, preset, options, seat_specs, spec.seed, rngs=rngs, max_ms=max_ms)
    record = None
    if records:
        from spite.records import dump_record

        record = dump_record(res.record())
    winner = res.winner if res.forfeit_seat is None else None
    plies = sum(1 for e in res.state.to_record_moves() if "p" in e)
    return GameResult(
        index=spec.index, deal=spec.deal, rotation=spec.rotation, seed=spec.seed, seats=spec.seats,
        winner=winner, team=None, reason=res.reason, points=None, turns=res.rounds, plies=plies,
        scores=_scores(spec.seats, res.winner, res.forfeit_seat), think=res.think_s,
        decisions=(res.moves[0] + res.rejected[0], res.moves[1] + res.rejected[1]),
        forfeit_seat=res.forfeit_seat, error=res.error, record=record,
    )


def _scores(seats: Sequence[int], winner: int | None, forfeit_seat: int | None) -> dict[int, float]:
    """Each bot's score: 1 won, 0 lost, 0.5 no winner (a bot in both seats scores its result)."""
    if forfeit_seat is not None:
        winner = 1 - forfeit_seat
    if winner is None:
        return dict.fromkeys(seats, 0.5)
    out = dict.fromkeys(seats, 0.0)
    out[seats[winner]] = 1.0
    return out


def run_spit_games(setup: Setup, games: Sequence[GameSpec], game: str | None = None) -> list[GameResult]:
    """The arena's :func:`~spite.arena.runner.run_games` for Spit and Speed: play ``games`` with the
    setup's bots, preset, options, seed and records flag. ``game`` defaults to ``setup.game``.
    (``setup.budget`` does not apply: reflex bots think in virtual time.)"""
    name = game if game is not None else setup.game
    return [
        play_arena_game(g, setup.specs, game=name, preset=setup.preset, options=setup.options,
                        tournament_seed=setup.seed, records=setup.records)
        for g in games
    ]
