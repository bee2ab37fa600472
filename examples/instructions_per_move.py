"""Machine instructions per move: the engine's random playouts against a random-vs-random arena game.

The clock drifts with the machine's load by ±15 % from one second to the next on a shared machine,
which hides changes of a few per cent; valgrind's instruction count does not follow the load. For
each way of playing, this counts the instructions of a run of ``--games`` games and of a run of
none (so start-up cancels out) and prints instructions per move::

    python examples/instructions_per_move.py --games 20      # needs valgrind; takes a few minutes

Every way plays the same games, move for move: the deals of a tournament schedule, each seat
drawing its choices from the random source the arena gives that seat, so that what differs is
only how a move is chosen and played, not which games are measured.

``engine``: the random player of :func:`spite.malice.bench.engine.play_random_game` (what ``spite bench
engine`` plays: a random build play while there is any, then a random turn end) on the state;
``view``: the same, making the mover's view each move but not using it; ``view-moves``: moves
worked out from the view; ``arena``: :func:`spite.malice.arena.play_game` with two ``random`` bots
(what ``spite bench tournament`` plays).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable

WAYS = ("engine", "view", "view-moves", "arena")


def _player(way: str) -> Callable[[int], int]:
    """A function playing game ``k`` the chosen way and returning its number of moves."""
    from spite.arena.runner import Setup, bot_rng
    from spite.arena.schedule import schedule
    from spite.malice import Options, SeatView, State
    from spite.malice.arena import play_game

    opts = Options.from_preset("classic")
    view_of = SeatView.of_mover  # what the arena makes at every move
    setup = Setup(specs=("random", "random"), preset="classic", seed=1)
    games = schedule(2, players=2, games=1000, seed=1)

    def start(k: int) -> tuple[State, list[random.Random]]:
        game = games[k % len(games)]
        return State.new(opts, game.seed), [bot_rng(setup.seed, game, seat) for seat in range(opts.players)]

    def engine(k: int) -> int:
        state, rngs = start(k)
        while state.result is None:
            state.play(rngs[state.to_move].choice(state.build_moves() or state.end_moves()))
        return len(state.history)

    def view(k: int) -> int:
        state, rngs = start(k)
        while state.result is None:
            view_of(state)
            state.play(rngs[state.to_move].choice(state.build_moves() or state.end_moves()))
        return len(state.history)

    def view_moves(k: int) -> int:
        state, rngs = start(k)
        while state.result is None:
            v = view_of(state)
            state.play(rngs[state.to_move].choice(v.build_moves() or v.end_moves()))
        return len(state.history)

    def arena(k: int) -> int:
        return play_game(games[k % len(games)], setup, opts).plies

    return {"engine": engine, "view": view, "view-moves": view_moves, "arena": arena}[way]


def _play(way: str, games: int) -> int:
    play = _player(way)
    play(999)  # first calls import and warm up: not a cost per move
    return sum(play(k) for k in range(games))


def _instructions(way: str, games: int) -> int:
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          __file__, "--play", way, "--games", str(games)],
                         capture_output=True, text=True, env=env, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no instruction count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--ways", nargs="+", choices=WAYS, default=list(WAYS))
    parser.add_argument("--play", choices=WAYS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.play:
        print(_play(args.play, args.games))
        return
    per_move = {}
    for way in args.ways:
        moves = _play(way, args.games)
        per_move[way] = (_instructions(way, args.games) - _instructions(way, 0)) / moves
        print(f"{way:11s} {per_move[way]:9,.0f} instructions a move ({moves} moves)", flush=True)
    if "engine" in per_move and "arena" in per_move:
        print(f"engine / arena: {per_move['engine'] / per_move['arena']:.3f}")


if __name__ == "__main__":
    main()
