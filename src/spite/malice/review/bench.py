"""How the review marks two bots: ``python -m spite.malice.review.bench A B [--games N] [--stock S] [--budget S]``.

Plays ``games`` seeded games of bot ``A`` (seat 0) against bot ``B`` (seat 1) on the classic rules
with stocks of ``stock`` cards, reviews every turn of both, and prints per game and in all: each
seat's turns, the turns marked, the turns that gave away anything, and the win probability its turns
gave away in all beside its chance at the start. The last pair is the check that the marks are not
too few for want of seeing the losses: a seat that starts at about 50 % and loses gave away about
50 points over its turns, so if the review finds that much, a turn that is not marked did not give
away much (docs/bots.md, "What it does not see", has the figures).
"""

from __future__ import annotations

import argparse
import random

from spite.bots import make_bot
from spite.malice import Options, State
from spite.malice.record import record_from_state
from spite.review import review_record

__all__ = ["main", "play_game"]


def play_game(specs: list[str], opts: Options, seed: int) -> State:
    """A finished game of the bots ``specs`` (one a seat) dealt from ``seed``, each bot with its own
    random source from the seed."""
    state = State.new(opts, seed)
    bots = [make_bot(spec) for spec in specs]
    for seat, bot in enumerate(bots):
        bot.start_game(opts, seat)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(len(bots))]
    while not state.is_over:
        seat = state.to_move
        state.play(bots[seat].choose(state.view(seat), rngs[seat]))
    return state


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m spite.malice.review.bench", description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs=2, metavar="BOT", help="the bot of seat 0 and of seat 1 (specs)")
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--stock", type=int, default=10, help="stock cards a player (classic rules otherwise)")
    parser.add_argument("--budget", type=float, default=0.3, help="seconds of search a turn (the review's)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (then seed+1, …)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to review turns in")
    args = parser.parse_args(argv)
    opts = Options.from_preset("classic", {"stock_size": args.stock})
    totals = [[0.0] * 5 for _ in range(2)]  # turns, marked, gave away, loss, chance at the start
    print(f"{args.bots[0]} (seat 0) against {args.bots[1]} (seat 1): classic, stocks of {args.stock}, "
          f"review budget {args.budget} s a turn")
    print("game  winner  seat  turns  marked  gave away  loss  chance at start")
    for game in range(args.games):
        seed = args.seed + game
        state = play_game(list(args.bots), opts, seed)
        review = review_record(record_from_state(state, "classic"), budget=args.budget, seed=1, jobs=args.jobs)
        winner = state.result.winner if state.result is not None else None
        for seat in (0, 1):
            mine = [t for t in review.turns if t.seat == seat]
            row = (len(mine), sum(t.mark is not None for t in mine), sum(t.loss > 0 for t in mine),
                   sum(t.loss for t in mine), mine[0].win_before if mine else 0.0)
            for k, value in enumerate(row):
                totals[seat][k] += value
            print(f"{seed:4}  {winner!s:>6}  {seat:4}  {row[0]:5}  {row[1]:6}  {row[2]:9}  "
                  f"{100 * row[3]:4.0f}  {100 * row[4]:5.0f}")
    for seat in (0, 1):
        turns, marked, gave, loss, start = totals[seat]
        share = f"{100 * marked / turns:.0f} %" if turns else "-"
        print(f"seat {seat} ({args.bots[seat]}): {marked:.0f} of {turns:.0f} turns marked ({share}), "
              f"{gave:.0f} gave away anything; {100 * loss:.0f} points given away in all, "
              f"{100 * loss / max(1, turns):.1f} a turn; chances at the start {100 * start:.0f} points in all")


if __name__ == "__main__":
    main()
