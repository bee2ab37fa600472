"""The bare reference loop of ``spite bench engine --baseline``: a plain-Python playout and nothing else.

It plays the same kind of game as the engine's benchmark, with the same random player, but with
nothing else: no rules object, no move objects, no checks, no undo, no chance log, no views. Cards
are small ints (1–12 for Ace–Queen; 13 for a king or a joker, both wild), two players with 26-card
stocks, four shared build piles from Ace to Queen, hands of five. The player makes a uniformly
random build play (from the stock top, the hand or a discard top onto a pile that takes it) while
there is one, then ends the turn by discarding a random hand card onto a random discard pile.

Measured beside the engine, in the same process and in alternating slices (see
:func:`spite.malice.bench.engine.run_compared`), the ratio of the two says how much of the language's
speed the engine keeps while doing its real work. It is written as plainly as the loop the first
figures were measured against (about 5 % faster than that one on the same games), not tuned:
its cost is the yardstick. It must stay a plain script: ``run_compared``
loads it from its path and calls :func:`play_game`; ``python bare_loop.py [SECONDS]`` runs it alone
and prints one JSON line.
"""

from __future__ import annotations

import json
import random
import sys
import time

WILD = 13  # kings and jokers
TOP = 12  # a build pile is complete at the Queen
HAND = 5
PILES = 4


def _deck() -> list[int]:
    """Two 52-card decks and four jokers: eight of each rank, the kings and jokers all wild."""
    return [rank for rank in range(1, WILD + 1) for _ in range(8)] + [WILD] * 4


def play_game(rng: random.Random, players: int = 2, stock_size: int = 26,
              max_turns: int = 3000) -> tuple[int, int]:
    """Play one game; ``(turns, build plays)``. A turn's discard counts as its one turn-ending move."""
    deck = _deck()
    rng.shuffle(deck)
    stocks = [deck[p * stock_size:(p + 1) * stock_size] for p in range(players)]
    draw = deck[players * stock_size:]
    hands: list[list[int]] = [[] for _ in range(players)]
    discards: list[list[list[int]]] = [[[] for _ in range(PILES)] for _ in range(players)]
    heights = [0] * PILES  # cards on each build pile
    built: list[list[int]] = [[] for _ in range(PILES)]
    finished: list[int] = []  # completed piles' cards, shuffled back in when the draw pile runs out
    plays = 0
    idle_turns = 0  # turns in a row in which nobody could do anything: the game is blocked
    pick = rng.choice
    below = rng.randrange

    def fill(hand: list[int]) -> None:
        nonlocal draw, finished
        while len(hand) < HAND:
            if not draw:
                if not finished:
                    return
                draw, finished = finished, []
                rng.shuffle(draw)
            hand.append(draw.pop())

    for turn in range(max_turns):
        me = turn % players
        stock, hand, mine = stocks[me], hands[me], discards[me]
        plays_before = plays
        fill(hand)
        while True:
            # every (source kind, index, pile) that may go on a pile now: 0 stock, 1 hand, 2 discard pile
            # (plain loops and == tests: generator expressions and tuple membership cost twice as much)
            options: list[tuple[int, int, int]] = []
            add = options.append
            for pile in range(PILES):
                wanted = heights[pile] + 1
                if stock:
                    card = stock[-1]
                    if card == wanted or card == WILD:  # noqa: SIM109 (no tuple built per card)
                        add((0, 0, pile))
                for i, card in enumerate(hand):
                    if card == wanted or card == WILD:  # noqa: SIM109 (no tuple built per card)
                        add((1, i, pile))
                for j in range(PILES):
                    dp = mine[j]
                    if dp:
                        card = dp[-1]
                        if card == wanted or card == WILD:  # noqa: SIM109 (no tuple built per card)
                            add((2, j, pile))
            if not options:
                break
            kind, index, pile = pick(options)
            if kind == 0:
                card = stock.pop()
            elif kind == 1:
                card = hand.pop(index)
            else:
                card = mine[index].pop()
            plays += 1
            built[pile].append(card)
            heights[pile] += 1
            if heights[pile] == TOP:
                finished.extend(built[pile])
                built[pile], heights[pile] = [], 0
            if not stock:
                return turn + 1, plays  # the stock is out: this player has won
            if not hand:
                fill(hand)
        if hand:
            mine[below(PILES)].append(hand.pop(below(len(hand))))
            idle_turns = 0
        elif plays == plays_before:
            idle_turns += 1
            if idle_turns >= players:
                return turn + 1, plays
    return max_turns, plays


def main(seconds: float) -> dict[str, float]:
    """Warm up, then play games for ``seconds``; games/s and moves/s (build plays and turn ends)."""
    rng = random.Random(1)
    for _ in range(100):
        play_game(rng)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        turns, plays = play_game(rng)
        games += 1
        moves += turns + plays
    elapsed = time.perf_counter() - start
    return {"games_per_s": round(games / elapsed, 1), "moves_per_s": round(moves / elapsed), "games": games,
            "seconds": round(elapsed, 2)}


if __name__ == "__main__":
    print(json.dumps(main(float(sys.argv[1]) if len(sys.argv) > 1 else 5.0)))
