"""Hints: the move a bot would play for the player to move, and one line of why.

The command line (``spite hint``) and the user interfaces call :func:`hint`.

>>> from spite.malice import Options, State
>>> state = State.new(Options.from_preset("short"), seed=3)
>>> d = hint(state, "greedy")
>>> d.move in state.legal_moves(), bool(d.why)
(True, True)
"""

from __future__ import annotations

import random

from spite.bots import Decision, make_bot
from spite.errors import OptionsError
from spite.malice import State

__all__ = ["hint"]


def hint(state: State, bot: str = "hard", seconds: float | None = None, seed: int = 0) -> Decision:
    """What ``bot`` (a spec or level) would play for ``state.to_move``, seeing only that seat's view.

    Raises :class:`OptionsError` for an unknown bot or a finished game.
    """
    if state.result is not None:
        raise OptionsError("the game is over: there is no move to hint")
    if seconds is not None and not seconds > 0:
        raise OptionsError(f"--seconds must be more than 0, not {seconds}")
    player = make_bot(bot)
    try:
        seat = state.to_move
        player.start_game(state.opts, seat)
        return player.decide(state.view(seat), random.Random(f"spite-hint/{seed}"), seconds)
    finally:
        close = getattr(player, "close", None)
        if close is not None:
            close()
