"""Spit and Speed: options and presets, the event-driven state, races, rounds, per-seat views.

The engine is pure: it never reads a clock, never sleeps, keeps no global random state. The caller
passes its own time ``t`` (ms since the game began) to every call.

>>> from spite.spit import new_game
>>> state = new_game("spit", seed=11)
>>> moves = state.legal_moves(0)
>>> events = state.apply(0, moves[0], 1500) if moves else []
>>> state.now
1500
>>> sum(state.cards_held(s) for s in (0, 1)) + sum(len(c) for c in state.centers)
52
"""

from __future__ import annotations

from typing import Any

from spite.spit.deals import SpeedDeal, SpitDeal, lay_out
from spite.spit.options import PRESETS, SpitOptions
from spite.spit.rules import SPIT_MOVE, fits, format_move, parse_move
from spite.spit.speed import SpeedState
from spite.spit.state import SpitState
from spite.spit.table import OVER, PLAYING, SLAPPING, ClockError, Event, RealtimeState
from spite.spit.views import PileView, SpeedPlayerView, SpeedView, SpitPlayerView, SpitView

__all__ = [
    "OVER",
    "PLAYING",
    "PRESETS",
    "SLAPPING",
    "SPIT_MOVE",
    "AnyState",
    "ClockError",
    "Event",
    "PileView",
    "RealtimeState",
    "SpeedDeal",
    "SpeedPlayerView",
    "SpeedState",
    "SpeedView",
    "SpitDeal",
    "SpitOptions",
    "SpitPlayerView",
    "SpitState",
    "SpitView",
    "fits",
    "format_move",
    "lay_out",
    "new_game",
    "parse_move",
]

AnyState = SpitState | SpeedState
"""A Spit or a Speed table."""


def new_game(
    game: str = "spit",
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    *,
    seed: int | str | None = None,
    deal: dict[str, Any] | None = None,
) -> SpitState | SpeedState:
    """A new Spit or Speed game from a preset, option overrides and a seed or a ``deal`` object.

    Raises :class:`~spite.errors.OptionsError` for bad options,
    :class:`~spite.errors.MalformedRecordError` for a bad deal.
    """
    opts = SpitOptions.from_preset(preset, options, game=game)
    name = preset if preset is not None else game
    if opts.game == "speed":
        return SpeedState.new(opts, seed=seed, deal=deal, preset=name)
    return SpitState.new(opts, seed=seed, deal=deal, preset=name)
