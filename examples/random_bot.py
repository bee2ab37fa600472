#!/usr/bin/env python3
"""A small external Spite and Malice bot: plays a random legal move, preferring the stock top.

It speaks the line protocol of docs/bot-protocol.md on standard input and output, and needs
nothing but the Python standard library. Try it:

    spite tournament --bots 'cmd:python examples/random_bot.py' greedy --games 10 --preset short
"""

import json
import random
import sys


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()  # every answer must be flushed, or the arena waits for it in vain


def choose(request):
    legal = request["legal"]
    rng = random.Random(request["seed"])  # the arena's seed: the same game gives the same moves
    stock_plays = [m for m in legal if m.startswith("S-")]
    if stock_plays:
        return rng.choice(stock_plays), "the stock top can be played"
    builds = [m for m in legal if "-B" in m]
    if builds and rng.random() < 0.7:
        return rng.choice(builds), "a random build play"
    return rng.choice(legal), "a random legal move"


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            send({"type": "ready", "name": "example random bot"})
        elif kind == "move":
            move, why = choose(msg)
            send({"move": move, "why": why})
        elif kind == "quit":
            break
        # "start", "end" and anything unknown need no answer


if __name__ == "__main__":
    main()
