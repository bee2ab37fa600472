"""``spite bench pairing``: how long a Swiss round takes to pair, over a whole simulated Swiss.

A tournament of ``entrants`` computer entrants (ratings drawn from a seeded normal distribution) plays
``rounds`` rounds through :class:`spite.tournament.state.Tournament`, each game's result drawn at random
(seeded: a win for either seat 45% each, a draw 10%). Before each round the pairing
(:func:`spite.tournament.swiss.pair_swiss` on the entrants as the state sees them) is timed alone,
then the state pairs the round as the server would
(:meth:`~spite.tournament.state.Tournament.pair_next_round`, which also reads the standings), timed
too. Milliseconds of CPU time (the process's, so that other work on the machine counts less), one core.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from spite.games import game_names
from spite.tournament.state import Tournament
from spite.tournament.swiss import DEFAULT_WINDOW, pair_swiss

__all__ = ["run_pairing_bench"]


def run_pairing_bench(entrants: int, rounds: int, seed: int = 1, window: int = DEFAULT_WINDOW,
                      progress: Callable[[float], None] | None = None) -> dict[str, Any]:
    """Simulate the Swiss and time each round's pairing (see the module's text)."""
    rng = random.Random(f"bench-pairing/{seed}")
    tournament = Tournament.create("bench", bytes(32), game=game_names()[0], preset=None, system="swiss",
                                   rounds=rounds, pause=0)
    tournament.window = window
    for i in range(entrants):
        tournament.join(f"c{i + 1}", computer="medium", rating=round(rng.gauss(1500, 200)))
    tournament.state, tournament.started_at, tournament.next_round_at = "playing", 0.0, 0.0
    pairing_ms: list[float] = []
    round_ms: list[float] = []
    rematches = 0
    now = 0.0
    for number in range(rounds):
        players = tournament.swiss_players()
        t0 = time.process_time()
        made = pair_swiss(players, window=window)
        t1 = time.process_time()
        pairings = tournament.pair_next_round(now)
        t2 = time.process_time()
        pairing_ms.append((t1 - t0) * 1000)
        round_ms.append((t2 - t1) * 1000)
        rematches += made.rematches
        for pairing in pairings:
            for game_no in range(1, len(pairing.games) + 1):
                now += 1
                draw = rng.random()
                winner = None if draw < 0.1 else (0 if draw < 0.55 else 1)
                tournament.record_result(pairing.number, game_no, winner=winner, now=now)
        if progress is not None:
            progress((number + 1) / rounds)
    seats = [abs(2 * p.firsts - p.played) for p in tournament.swiss_players()]
    return {
        "entrants": entrants, "rounds": rounds, "window": window, "seed": seed,
        "pairing_ms_median": round(statistics.median(pairing_ms), 1), "pairing_ms_max": round(max(pairing_ms), 1),
        "round_ms_median": round(statistics.median(round_ms), 1), "round_ms_max": round(max(round_ms), 1),
        "pairing_ms": [round(ms, 1) for ms in pairing_ms], "rematches": rematches,
        "seat_difference_max": max(seats, default=0), "finished": tournament.state == "finished",
    }
