"""``spite bench backup``: how long ``spite backup`` and ``spite restore`` take on a database of N stored
games (docs/deploy.md, "Backups").

The database is made here: 50 classic games played by the random "builds first" player of ``spite
random-game`` (seeded), each stored over and over as a finished table of two people would be: its
table row, two seats, one move row per move, the game's complete record and its two players' rows,
so that the database has the size of N real games (about 2 KB of rows per move, 200 moves a game).
"""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

__all__ = ["make_games", "run_backup_bench"]

DISTINCT = 50
"""Distinct games played; the N stored are these over and over (their size is what counts)."""


def _games(seed: int, count: int = DISTINCT) -> list[tuple[dict[str, Any], int, int]]:
    """``count`` finished games of the default game (its family's ``bench`` hook): (record, plies, turns)."""
    from spite.games import DEFAULT_GAME, load_hook

    games: list[tuple[dict[str, Any], int, int]] = load_hook(DEFAULT_GAME, "bench")(seed, count)
    return games


def make_games(db_url: str, n: int, seed: int = 1) -> dict[str, Any]:
    """Store ``n`` finished games in ``db_url`` (migrated first): how many rows and how long it took."""
    from spite.server import db

    t0 = time.perf_counter()
    games = _games(seed, min(DISTINCT, n))
    engine = db.make_engine(db_url)
    db.migrate(engine)
    moves = 0
    now = time.time()
    try:
        with engine.begin() as conn:
            for start in range(0, n, 500):
                tables: list[dict[str, Any]] = []
                seats: list[dict[str, Any]] = []
                move_rows: list[dict[str, Any]] = []
                game_rows: list[dict[str, Any]] = []
                players: list[dict[str, Any]] = []
                first = conn.execute(sa.select(sa.func.coalesce(sa.func.max(db.games.c.id), 0))).scalar_one()
                for k in range(start, min(n, start + 500)):
                    record, plies, turns = games[k % len(games)]
                    table_id = f"bench{k:08d}"
                    game_id = first + 1 + k - start
                    at = now - (n - k) * 60.0
                    tables.append({"id": table_id, "game": record["game"], "preset": record["preset"], "options": "{}",
                                   "seed": json.dumps(k), "start": "{}", "status": "finished", "plies": plies,
                                   "owner": None, "created_at": at, "updated_at": at, "version_base": 0,
                                   "rated": False})
                    for seat in (0, 1):
                        seats.append({"table_id": table_id, "seat": seat, "kind": "person", "level": None,
                                      "player": f"player{(k + seat) % 997}", "player_id": None,
                                      "token_hash": "0" * 64, "controller": "person"})
                        players.append({"game_id": game_id, "seat": seat, "player": f"player{(k + seat) % 997}",
                                        "player_id": None, "is_bot": False, "won": seat == 0, "points": 0,
                                        "taken_over": False, "left": False})
                    move_rows.extend({"table_id": table_id, "ply": ply, "seat": ply % 2,
                                      "entries": json.dumps([entry], separators=(",", ":")), "created_at": at}
                                     for ply, entry in enumerate(record["moves"]))
                    game_rows.append({"id": game_id, "table_id": table_id, "game": record["game"],
                                      "preset": record["preset"], "record": json.dumps(record),
                                      "result": json.dumps(record.get("result") or {}), "plies": plies,
                                      "turns": turns, "finished_at": at})
                conn.execute(sa.insert(db.tables), tables)
                conn.execute(sa.insert(db.seats), seats)
                conn.execute(sa.insert(db.moves), move_rows)
                conn.execute(sa.insert(db.games), game_rows)
                conn.execute(sa.insert(db.game_players), players)
                moves += len(move_rows)
        if engine.dialect.name == "postgresql":  # the sequence behind the ids inserted by hand
            with engine.begin() as conn:
                conn.execute(sa.text("SELECT setval(pg_get_serial_sequence('spite_games', 'id'), "
                                     "(SELECT max(id) FROM spite_games))"))
    finally:
        engine.dispose()
    return {"games": n, "moves": moves, "seconds": time.perf_counter() - t0}


def run_backup_bench(n: int, db: str | None = None, seed: int = 1) -> dict[str, Any]:
    """Make a database of ``n`` games (a temporary SQLite file, or a fresh database on the PostgreSQL
    server of ``db``), back it up and restore it into another fresh one; the figures."""
    from spite.server.backup import restore_backup, take_backup
    from spite.server.db import scratch_database

    with tempfile.TemporaryDirectory(prefix="spite-bench-backup-") as tmp:
        folder = Path(tmp)
        if db is None or db.startswith("sqlite"):
            source, target = f"sqlite:///{folder / 'source.db'}", f"sqlite:///{folder / 'restored.db'}"
            made = make_games(source, n, seed)
            took = take_backup(source, folder / "spite.backup")
            done = restore_backup(folder / "spite.backup", target)
            size = (folder / "source.db").stat().st_size
        else:
            with scratch_database(db, "spite_bench") as source, scratch_database(db, "spite_bench") as target:
                made = make_games(source, n, seed)
                took = take_backup(source, folder / "spite.backup")
                done = restore_backup(folder / "spite.backup", target)
                size = None
    return {"games": n, "moves": made["moves"], "made_s": round(made["seconds"], 1),
            "database_bytes": size, "backup_bytes": took["bytes"], "backup_s": round(took["seconds"], 2),
            "restore_s": round(done["seconds"], 2), "restored_games": done["games"]}
