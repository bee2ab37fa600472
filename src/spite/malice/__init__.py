"""The Spite and Malice family: options and presets, state, moves, per-seat views, match play.

>>> from spite.malice import Options, State
>>> state = State.new(Options.from_preset("classic"), seed=1)
>>> while not state.is_over:
...     _ = state.play(state.legal_moves()[0])
>>> state.result.reason in ("stock", "blocked", "turn-limit", "draw-pile-empty")
True
"""

from spite.malice.match import Match
from spite.malice.moves import BUILD, DISCARD, DISCARD_PILE, HAND, PASS, STOCK, Move, parse_move
from spite.malice.options import DEFAULTS, PRESETS, Options
from spite.malice.state import Result, State
from spite.malice.view import SeatView

__all__ = [
    "BUILD",
    "DEFAULTS",
    "DISCARD",
    "DISCARD_PILE",
    "HAND",
    "PASS",
    "PRESETS",
    "STOCK",
    "Match",
    "Move",
    "Options",
    "Result",
    "SeatView",
    "State",
    "parse_move",
]
