"""Table leases between workers (:mod:`spite.server.leases`), statement by statement on PostgreSQL:
a renewal renews what the worker still holds, tells it what it lost, skips rows locked elsewhere
without waiting and without calling them lost, and leaves tables that left memory to run out."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from server_helpers import PG_ENV, pg_database
from sqlalchemy.engine import Engine

from spite.server import db
from spite.server.leases import Leases

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set: leases need PostgreSQL")]


@pytest.fixture
def engine() -> Iterator[Engine]:
    with pg_database(os.environ[PG_ENV]) as url:
        engine = db.make_engine(url)
        db.migrate(engine)
        try:
            yield engine
        finally:
            engine.dispose()


def add_tables(engine: Engine, ids: list[str]) -> None:
    with engine.begin() as c:
        c.execute(sa.insert(db.tables), [{"id": i, "game": "spite-malice", "preset": "short", "options": "{}",
                                          "seed": "1", "start": "{}", "status": "playing", "plies": 0, "owner": None,
                                          "created_at": 0.0, "updated_at": 0.0} for i in ids])


def leases_of(engine: Engine) -> dict[str, tuple[str | None, float]]:
    """Each table's owner and lease end (0: none)."""
    with engine.connect() as c:
        return {r.id: (r.owner, r.lease_until or 0.0) for r in c.execute(sa.select(db.tables.c.id, db.tables.c.owner,
                                                                                  db.tables.c.lease_until))}


def test_a_renewal_keeps_what_is_held_and_names_what_was_lost(engine: Engine) -> None:
    ids = [f"t{i}" for i in range(6)]
    add_tables(engine, ids)
    a, b = Leases(engine, "a"), Leases(engine, "b")
    a.register()
    assert a.claim(ids) == dict.fromkeys(ids, "mine")
    with engine.begin() as c:  # t3's lease ran out and b took it; t4's ran out and nobody took it
        c.execute(sa.update(db.tables).where(db.tables.c.id.in_(["t3", "t4"])).values(lease_until=time.time() - 1))
    assert b.claim(["t3"]) == {"t3": "mine"}
    before = leases_of(engine)  # (the database's clock, in microseconds, has moved on by the renewal)
    # t5 left a's memory (finished, say): not renewed, its lease runs out by itself
    assert a.renew(["t0", "t1", "t2", "t3", "t4"]) == {"t3", "t4"}
    after = leases_of(engine)
    for table_id in ("t0", "t1", "t2"):
        assert after[table_id][0] == "a" and after[table_id][1] > before[table_id][1]
    assert after["t3"] == before["t3"] and after["t3"][0] == "b"  # b's lease stands
    assert after["t4"] == before["t4"] and after["t5"] == before["t5"]
    with engine.connect() as c:
        heartbeat = c.execute(sa.select(db.workers.c.heartbeat).where(db.workers.c.id == "a")).scalar_one()
    assert heartbeat > before["t0"][1] - 8  # (stamped by this renewal, after the claim)


def test_a_row_locked_elsewhere_is_skipped_not_waited_for_and_not_lost(engine: Engine) -> None:
    add_tables(engine, ["t0", "t1"])
    a = Leases(engine, "a")
    a.register()
    a.claim(["t0", "t1"])
    before = leases_of(engine)
    with engine.connect() as other, other.begin():  # the writer holding t1's row, say
        other.execute(sa.select(db.tables.c.id).where(db.tables.c.id == "t1").with_for_update())
        started = time.monotonic()
        assert a.renew(["t0", "t1"]) == set()
        assert time.monotonic() - started < 2
    after = leases_of(engine)
    assert after["t0"][1] > before["t0"][1] and after["t1"] == before["t1"]


def test_thousands_of_tables_renew_in_one_call(engine: Engine) -> None:
    ids = [f"t{i:05d}" for i in range(3000)]
    add_tables(engine, ids)
    a = Leases(engine, "a")
    a.register()
    assert set(a.claim(ids).values()) == {"mine"}
    before = leases_of(engine)  # (the database's clock, in microseconds, has moved on by the renewal)
    assert a.renew(ids) == set()
    after = leases_of(engine)
    assert all(after[i][1] > before[i][1] for i in ids)


def test_a_table_asked_for_is_seen_by_its_holder_and_a_dead_ones_are_swept(engine: Engine) -> None:
    add_tables(engine, ["t0", "t1", "t2"])
    a, b = Leases(engine, "a"), Leases(engine, "b")
    assert a.claim(["t0", "t1"]) == {"t0": "mine", "t1": "mine"}
    assert b.claim(["t0"]) == {"t0": "wait"}  # a holds it: b asks
    assert a.wanted() == [("t0", "b")] and b.wanted() == []
    a.hand_over(a.wanted())
    assert leases_of(engine)["t0"][0] == "b" and a.wanted() == []
    # t1's worker died (its lease ran out); t2 was let go of long ago and nobody came for it: a sweep takes both
    with engine.begin() as c:
        c.execute(sa.update(db.tables).where(db.tables.c.id == "t1").values(lease_until=time.time() - 1))
    assert sorted(b.orphans()) == ["t1", "t2"] and b.orphans() == []
    assert {i: o for i, (o, _until) in leases_of(engine).items()} == {"t0": "b", "t1": "b", "t2": "b"}


def test_a_killed_workers_heartbeat_row_goes_at_the_next_sweep(engine: Engine) -> None:
    """A worker killed with ``kill -9`` never unregisters: its row goes once its heartbeat is long silent
    (before, it stayed until some worker registered an hour later)."""
    from spite.server.leases import WORKER_GONE

    a, dead = Leases(engine, "a"), Leases(engine, "dead")
    a.register()
    dead.register()
    with engine.begin() as c:
        c.execute(sa.update(db.workers).where(db.workers.c.id == "dead")
                  .values(heartbeat=db.workers.c.heartbeat - WORKER_GONE - 1))
    a.orphans()
    with engine.connect() as c:
        assert {r.id for r in c.execute(sa.select(db.workers.c.id))} == {"a"}
