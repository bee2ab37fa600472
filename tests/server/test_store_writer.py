"""The store's writer: group commits on the event loop's thread (SQLite at NORMAL) or in a worker
thread (FULL), runs of moves as one executemany, and a broken write failing alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from spite.server import db
from spite.server.store import Store


def _table_row(table_id: str) -> dict[str, Any]:
    return {"id": table_id, "game": "spite-malice", "preset": "classic", "options": "{}", "seed": "1",
            "start": "{}", "status": "playing", "plies": 0, "owner": "test", "created_at": 0.0, "updated_at": 0.0}


@pytest.mark.parametrize("sync", ["NORMAL", "FULL"])
def test_batches_commit_in_order_and_a_broken_write_fails_alone(tmp_path: Path, sync: str) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'w.db'}", sqlite_synchronous=sync)
    db.migrate(engine)

    async def main() -> tuple[list[Any], Store]:
        store = Store(engine)
        await store.start()
        assert (store._conn is not None) == (sync == "NORMAL")  # inline only without an fsync per commit
        await store.write(Store.insert_table(_table_row("t1"), []))

        def broken(conn: Any) -> None:
            raise RuntimeError("no")

        # queued together: one batch, with a run of moves, another write in between, and a broken one
        writes = [Store.insert_move("t1", ply, ply % 2, [f"m{ply}"]) for ply in range(5)]
        writes.insert(3, Store.update_table("t1", status="playing"))
        writes.append(broken)
        writes += [Store.insert_move("t1", ply, 0, [f"m{ply}"]) for ply in range(5, 8)]
        outcomes = await asyncio.gather(*(store.write(w) for w in writes), return_exceptions=True)
        await store.close()
        return outcomes, store

    outcomes, store = asyncio.run(main())
    assert [type(o).__name__ for o in outcomes] == ["NoneType"] * 6 + ["RuntimeError"] + ["NoneType"] * 3
    with engine.connect() as conn:
        rows = conn.execute(sa.select(db.moves.c.ply, db.moves.c.seat, db.moves.c.entries)
                            .order_by(db.moves.c.ply)).all()
    assert [(r.ply, r.seat, r.entries) for r in rows] == [(p, p % 2 if p < 5 else 0, f'["m{p}"]') for p in range(8)]
    assert store.writes >= 9


def test_a_capped_insert_counts_the_creators_live_tables_in_the_database(db_url: str) -> None:
    # (several workers create through it: docs/scaling.md, "What is per worker")
    engine = db.make_engine(db_url)
    db.migrate(engine)
    try:
        def create(table_id: str, creator: str) -> bool:
            with engine.begin() as conn:
                return bool(Store.insert_table_capped({**_table_row(table_id), "creator": creator},
                                                      [{"seat": 0, "kind": "person", "level": None, "player": None,
                                                        "token_hash": None, "controller": "free"}], 2)(conn))

        assert create("t1", "a") and create("t2", "a")
        assert not create("t3", "a")  # a third live table of the same address: refused, nothing stored
        assert create("t4", "b")  # another address has its own count
        with engine.begin() as conn:
            conn.execute(sa.update(db.tables).where(db.tables.c.id == "t1").values(status="finished"))
        assert create("t5", "a") and not create("t6", "a")  # a finished table counts no more
        with engine.connect() as conn:
            stored = set(conn.execute(sa.select(db.tables.c.id)).scalars())
            seats = set(conn.execute(sa.select(db.seats.c.table_id)).scalars())
        assert stored == seats == {"t1", "t2", "t4", "t5"}
    finally:
        engine.dispose()
