"""``heuristic-v1``: the heuristic of 2026-12-01, frozen as the baseline of the strength table.

``heuristic_v1_moves.json`` holds every move of five whole games (the heuristic against itself, one
bot per seat) recorded with the heuristic before it was changed; ``heuristic-v1`` must play them
again move for move, whatever becomes of ``heuristic``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from spite.bots import make_bot
from spite.malice import Options, State
from waiting import bounded

GOLDEN = json.loads((Path(__file__).parent / "heuristic_v1_moves.json").read_text(encoding="utf-8"))


def moves_of_a_game(spec: str, preset: str, seed: int) -> list[str]:
    """Every move of a game of ``spec`` against itself (each seat its own bot and random source)."""
    opts = Options.from_preset(preset)
    state = State.new(opts, seed)
    bots = [make_bot(spec) for _ in range(opts.players)]
    for seat, bot in enumerate(bots):
        bot.start_game(opts, seat)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(opts.players)]
    moves = []
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        seat = state.to_move
        move = bots[seat].choose(state.view(seat), rngs[seat])
        moves.append(move.text)
        state.play(move)
    return moves


@pytest.mark.parametrize("game", sorted(GOLDEN))
def test_heuristic_v1_plays_the_recorded_moves(game: str) -> None:
    preset, seed = game.split("/")
    assert " ".join(moves_of_a_game("heuristic-v1", preset, int(seed))) == GOLDEN[game]


def test_heuristic_v1_is_a_bot_of_its_own_name() -> None:
    assert make_bot("heuristic-v1").name == "heuristic-v1"
