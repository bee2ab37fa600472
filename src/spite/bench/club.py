"""``spite bench club --system swiss|arena --entrants N``: a whole club tournament of computer
entrants on one server process (its service, tables, bots and database; no HTTP in between), from
creation to the end: the wall time, the games played, the tables made (docs/tournaments.md).

The arena's minutes pass at ``time_scale`` (0.05: a minute lasts three seconds), as the server's
``tournament_time_scale`` lets tests and benchmarks run them.
"""

from __future__ import annotations

import asyncio
import logging
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["run_club_bench"]

BENCH_KEY = "bench-creator-key-0000000000"
"""The creator's player key (a benchmark's own)."""


async def _run(system: str, entrants: int, *, rounds: int, minutes: float, game: str, preset: str | None, level: str,
               db_url: str, time_scale: float, timeout: float) -> dict[str, Any]:
    from spite.server import db
    from spite.server.bots import BotRunner
    from spite.server.config import ServerConfig
    from spite.server.manager import Manager
    from spite.server.store import Store
    from spite.server.table.seats import player_id

    # bots in two threads of the process, each move's budget long enough that a hundred tables asking at
    # once on a busy machine never fall back to the first legal move
    config = ServerConfig(db_url=db_url, bot_workers=0, bot_delay=0.0, bot_budget=10.0, start_countdown=0.0,
                          next_game_seconds=0.0, tournament_time_scale=time_scale, max_tournaments=1000)
    engine = db.make_engine(db_url)
    await asyncio.to_thread(db.migrate, engine)
    store = Store(engine)
    await store.start()
    bots = BotRunner(0, config.bot_budget)
    bots.start()
    manager = Manager(config, store, bots)
    await manager.start()
    service = manager.tournaments
    creator = player_id(BENCH_KEY)
    errors = _Errors()
    logging.getLogger("spite").addHandler(errors)
    try:
        t0 = time.perf_counter()
        info = await service.create(game=game, preset=preset, system=system, rounds=rounds, minutes=minutes,
                                    rated=False, grace=60, player_id=creator, name="bench", address=None)
        tid = info["id"]
        for _ in range(entrants):
            await service.join(tid, player_id=creator, name=None, computer=level)
        await service.begin(tid, creator)
        version = 0
        deadline = time.monotonic() + timeout
        while True:
            info = await service.info(tid, since=version, wait=5.0)
            version = info["version"]
            if info["state"] == "finished":
                break
            if time.monotonic() > deadline:
                raise TimeoutError(f"the tournament did not finish within {timeout:g} s (round {info['round']})")
        wall = time.perf_counter() - t0
        games = sum(len(p["games"]) for r in info["rounds"] for p in r["pairings"])
        tables = sum(len(p["tables"]) for r in info["rounds"] for p in r["pairings"])
        return {"system": system, "entrants": entrants, "rounds": len(info["rounds"]), "games": games,
                "tables": tables, "wall_s": round(wall, 2), "games_per_s": round(games / wall, 1) if wall else None,
                "moves": manager.moves_played, "game": game, "preset": preset, "level": level,
                "errors": errors.count, "botFallbacks": bots.fallbacks,
                "winner": info["standings"][0]["name"] if info["standings"] else None}
    finally:
        logging.getLogger("spite").removeHandler(errors)
        await manager.close()
        bots.close()
        await store.close()
        engine.dispose()


class _Errors(logging.Handler):
    """Counts the server's errors (a log record at ERROR or above) while the tournament runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def run_club_bench(system: str, entrants: int, *, rounds: int = 3, minutes: float = 2.0, game: str | None = None,
                   preset: str | None = None, level: str = "random", db_url: str | None = None,
                   time_scale: float = 0.05, timeout: float = 600.0) -> dict[str, Any]:
    """Run one tournament of ``entrants`` computers of ``level`` to its end (a fresh SQLite database in
    a temporary folder unless ``db_url``); its figures."""
    from spite.games import game_names
    from spite.server.lobby import server_game

    game = game or game_names()[0]
    preset = preset or server_game(game).listing.quick_preset
    with tempfile.TemporaryDirectory(prefix="spite-club-bench-") as folder:
        url = db_url or f"sqlite:///{Path(folder) / 'bench.db'}"
        return asyncio.run(_run(system, entrants, rounds=rounds, minutes=minutes, game=game, preset=preset,
                                level=level, db_url=url, time_scale=time_scale, timeout=timeout))
