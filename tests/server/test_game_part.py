"""What one game adds to the shared messages travels in their ``game`` object (docs/protocol.md, "A game's own
part"), filled by its adapter: the protocol's own fields are the same for every game. A field that one game
sends flat and another not (a ``canUndo`` of Spite and Malice's, a ``clock`` of Spit's) fails here."""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from table_harness import Harness, config, play_out, play_realtime

from spite.games import get_game
from spite.server.manager import served_games, server_game
from spite.server.protocol import SeatRequest

QUICK: dict[str, dict[str, Any]] = {"spite-malice": {"stock_size": 2},
                                    "spit": {"auto_spit_ms": 150, "auto_slap_ms": 150, "rounds_in_a_row": 2,
                                             "time_limit_s": 12},
                                    "speed": {"auto_spit_ms": 150, "time_limit_s": 12}}
"""Options that end a game quickly (a game not named here plays its defaults)."""

BY_THE_TABLE = {"undone", "fair", "series", "rematch", "moveLogStart", "game"}
"""Top-level fields the table sends or leaves out by what happened at it (an undo, a fair deal, a rematch asked, a
long game), never by which game it is; and the game's own part itself."""


def messages_of(game: str) -> list[dict[str, Any]]:
    """Every message a person and a spectator were sent over one game against a bot, to its end."""
    level = server_game(game).listing.default_level
    seats = [SeatRequest(kind="person"), SeatRequest(kind="bot", level=level)]
    h = Harness(game, None, QUICK.get(game, {}), seats=seats, settings=config())
    h.join("ann")
    ann, watcher = h.connect(0), h.connect(None)
    rng = random.Random(3)
    if get_game(game).realtime:
        play_realtime(h, [ann], rng)
    else:
        play_out(h, [ann], rng, moves=400)
    for client in (ann, watcher):
        client.check_models()
    return [*ann.received, *watcher.received]


def test_every_game_sends_the_same_top_level_fields() -> None:
    games = list(served_games())
    assert len(games) >= 2
    seen: dict[tuple[str, str], set[str]] = defaultdict(set)  # (message type, field) -> the games that sent it
    for game in games:
        for msg in messages_of(game):
            for key in msg:
                seen[msg["type"], key].add(game)
    assert {kind for kind, _ in seen} >= {"welcome", "state", "ack", "table", "gameOver"}
    flat = {f"{kind}.{key}": sorted(sent) for (kind, key), sent in seen.items()
            if set(sent) != set(games) and key not in BY_THE_TABLE}
    assert flat == {}, "a game's own fields sent flat, not in its game part"
    # and every game tells its own things there: the part is not empty for a game that has some
    assert any(("state", "game") in seen and game in seen["state", "game"] for game in games)
