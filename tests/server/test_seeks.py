"""Play a person now (docs/protocol.md, "Play a person"): seeks paired by rating with a window that
widens as they wait, a computer after ``computerAfter`` seconds, one seek per key, cancel at any time.
The timing is pure (a fake clock: no sleeps); the server tests pair two seekers in one process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import PG_ENV, Client, ServerThread, http_from, pg_database

from spite.server import ServerConfig, db
from spite.server.seeks import Computer, Pairing, Seek, SeekPolicy, SeekService, next_change, plan
from spite.server.table.seats import LobbyError, player_id
from waiting import wait_until, wait_until_async

POLICY = SeekPolicy(window=100, widen=10, max_window=600, ttl=60)


def seek(name: str, skill: float, since: float = 0.0, *, preset: str = "classic", rated: bool = True,
         seats: int = 2, computer_after: float | None = 30.0) -> Seek:
    return Seek(id=name, player_id=f"p-{name}", name=name, game="spite-malice", preset=preset, rated=rated,
                group="classic", seats=seats, skill=skill, since=since, computer_after=computer_after, seen=since)


def paired(actions: list[Pairing | Computer]) -> list[tuple[str, ...]]:
    return [tuple(s.id for s in a.seeks) for a in actions if isinstance(a, Pairing)]


def test_near_ratings_pair_at_once_far_ones_when_the_window_has_widened() -> None:
    ann, bob, cid = seek("ann", 1000), seek("bob", 1080), seek("cid", 1400)
    assert paired(plan([ann, bob, cid], 0.0, POLICY)) == [("ann", "bob")]
    # cid is 400 from dan: the window reaches 400 after 30 s of the younger seek's wait
    dan = seek("dan", 1000, since=5.0)
    assert paired(plan([cid, dan], 5.0, POLICY)) == []
    assert next_change([cid, dan], 5.0, POLICY) == pytest.approx(30.0)  # cid's computer falls due first
    assert paired(plan([cid, dan], 29.9, POLICY)) == []
    cid_patient = seek("cid", 1400, computer_after=None)
    dan_patient = seek("dan", 1000, since=5.0, computer_after=None)
    assert next_change([cid_patient, dan_patient], 5.0, POLICY) == pytest.approx(35.0)
    assert paired(plan([cid_patient, dan_patient], 34.9, POLICY)) == []
    assert paired(plan([cid_patient, dan_patient], 35.0, POLICY)) == [("cid", "dan")]


def test_the_nearest_is_chosen_and_pools_never_mix() -> None:
    ann = seek("ann", 1000)
    far, near = seek("far", 1090, 1.0), seek("near", 1010, 2.0)
    casual = seek("cas", 1000, rated=False)
    other = seek("oth", 1000, preset="match")
    assert paired(plan([ann, far, near, casual, other], 3.0, POLICY)) == [("ann", "near")]


def test_a_party_waits_for_three_within_each_others_windows() -> None:
    a, b, c = (seek(n, r, seats=3, preset="party") for n, r in (("a", 1000), ("b", 1050), ("c", 1190)))
    assert paired(plan([a, b, c], 0.0, POLICY)) == []  # c is 190 from a: 9 s more
    assert paired(plan([a, b, c], 9.0, POLICY)) == [("a", "b", "c")]


def test_a_computer_after_the_seekers_wait_and_never_with_null() -> None:
    ann = seek("ann", 1000, computer_after=30)
    never = seek("bob", 3000, computer_after=None)
    assert plan([ann, never], 29.0, POLICY) == []
    due = plan([ann, never], 30.0, POLICY)
    assert [a.seek.id for a in due if isinstance(a, Computer)] == ["ann"]
    assert plan([never], 3000.0, POLICY) == []


def test_one_key_is_never_paired_with_itself() -> None:
    ann, again = seek("ann", 1000), seek("ann2", 1000)
    again.player_id = ann.player_id
    assert paired(plan([ann, again], 0.0, POLICY)) == []


# ------------------------------------------------------------------------------------- one process
@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          write_burst=100, max_open_tables=100, seek_computer_floor=0.5)
    with ServerThread(config) as srv:
        yield srv


def until_matched(base: str, seek_id: str, timeout: float = 10) -> dict[str, Any]:
    """Poll the seek as a client does until it is matched."""
    answers: list[dict[str, Any]] = []

    def asked() -> bool:
        answers.append(httpx.get(f"{base}/api/seeks/{seek_id}").json())
        return answers[-1]["state"] != "waiting"

    with contextlib.suppress(AssertionError):  # still waiting: the test says what it expected
        wait_until(asked, "the seek's match", timeout=timeout)
    return answers[-1]


def test_two_seekers_are_seated_at_one_table(server: ServerThread) -> None:
    keys = [secrets.token_urlsafe(24) for _ in range(2)]
    ann = httpx.post(server.base + "/api/seeks", json={"preset": "short", "name": "ann", "playerKey": keys[0]}).json()
    assert ann["state"] == "waiting" and ann["rating"] == 1000 and ann["group"] == "classic" and ann["rated"]
    again = httpx.post(server.base + "/api/seeks", json={"preset": "short", "playerKey": keys[0]})
    assert again.status_code == 409 and again.json()["words"]["params"]["seek"] == ann["id"]
    with http_from("127.0.0.2") as other:  # another person: another address (rated seeks of one are not paired)
        bob = other.post(server.base + "/api/seeks", json={"preset": "short", "name": "bob",
                                                           "playerKey": keys[1]}).json()
    a, b = until_matched(server.base, ann["id"]), until_matched(server.base, bob["id"])
    assert a["state"] == b["state"] == "matched"
    assert a["matched"]["table"] == b["matched"]["table"] and a["matched"]["computer"] is None
    assert {a["matched"]["seat"], b["matched"]["seat"]} == {0, 1}
    table = httpx.get(server.base + f"/api/tables/{a['matched']['table']}").json()
    assert table["rated"] and table["status"] == "playing" and [s["player"] for s in table["seats"]] == ["ann", "bob"]
    c = Client(server.base, table["id"])
    try:
        assert c.hello(a["matched"]["token"])["seat"] == a["matched"]["seat"]
    finally:
        c.close()
    # matched: too late to cancel; a new seek of the same key is welcome now
    assert httpx.delete(server.base + f"/api/seeks/{ann['id']}").status_code == 409
    assert httpx.post(server.base + "/api/seeks", json={"preset": "short", "playerKey": keys[0]}).status_code == 200


def test_a_cancelled_seek_is_never_seated_and_a_computer_comes_when_asked(server: ServerThread) -> None:
    ann = httpx.post(server.base + "/api/seeks", json={"preset": "short", "playerKey": secrets.token_urlsafe(24),
                                                       "computerAfter": None}).json()
    gone = httpx.delete(server.base + f"/api/seeks/{ann['id']}")
    assert gone.status_code == 200 and gone.json()["state"] == "cancelled"
    key = secrets.token_urlsafe(24)
    bob = httpx.post(server.base + "/api/seeks", json={"preset": "short", "playerKey": key, "name": "bob",
                                                       "computerAfter": 0.5}).json()
    got = until_matched(server.base, bob["id"])
    # a newcomer meets the measured level nearest a newcomer's rating
    assert got["state"] == "matched" and got["matched"]["computer"] == "medium"
    table = httpx.get(server.base + f"/api/tables/{got['matched']['table']}").json()
    assert table["rated"] and [s["kind"] for s in table["seats"]] == ["person", "bot"]
    assert table["seats"][0]["player"] == "bob"
    assert httpx.get(server.base + "/api/seeks/nope").status_code == 404
    assert player_id(key).startswith("p-")


def test_a_waiting_seeker_is_told_of_the_match_at_once_in_one_long_poll(server: ServerThread) -> None:
    """Ann asks once, with ``?wait=20``, and her one request is answered matched as soon as Bob's seek
    pairs them: well under a second after Bob's own answer, not at the end of her wait."""
    ann = httpx.post(server.base + "/api/seeks", json={"preset": "short", "name": "ann",
                                                       "playerKey": secrets.token_urlsafe(24)}).json()
    asked: list[dict[str, Any]] = []
    answered_at: list[float] = []

    def long_poll() -> None:
        asked.append(httpx.get(f"{server.base}/api/seeks/{ann['id']}?wait=20", timeout=30).json())
        answered_at.append(time.monotonic())

    waiter = threading.Thread(target=long_poll)
    waiter.start()
    # her request is at the server, waiting
    wait_until(lambda: server.manager.seeks.changes.listening >= 1, "the long poll at the server")
    with http_from("127.0.0.2") as other:
        bob = other.post(server.base + "/api/seeks", json={"preset": "short", "name": "bob",
                                                           "playerKey": secrets.token_urlsafe(24)}).json()
    bob_answered = time.monotonic()
    waiter.join(30)
    (got,) = asked
    assert got["state"] == "matched", got
    assert answered_at[0] - bob_answered < 1.0, f"ann learnt it {answered_at[0] - bob_answered:.2f} s later"
    mine = httpx.get(f"{server.base}/api/seeks/{bob['id']}?wait=20", timeout=30).json()  # matched: at once
    assert mine["state"] == "matched" and mine["matched"]["table"] == got["matched"]["table"]
    assert server.manager.seeks.changes.listening == 0


def test_a_long_poll_is_bounded_and_a_cancel_ends_it(server: ServerThread) -> None:
    cid = httpx.post(server.base + "/api/seeks", json={"preset": "match", "name": "cid", "computerAfter": None,
                                                       "playerKey": secrets.token_urlsafe(24)}).json()
    url = f"{server.base}/api/seeks/{cid['id']}"
    # nobody comes: answered as it stands when the wait is over
    assert httpx.get(url + "?wait=0.2", timeout=10).json()["state"] == "waiting"
    for too_long in ("26", "-1", "nan", "inf"):
        refused = httpx.get(url + f"?wait={too_long}", timeout=10)
        assert refused.status_code == 422 and refused.json()["detail"].startswith("wait"), refused.text
    asked: list[dict[str, Any]] = []
    waiter = threading.Thread(target=lambda: asked.append(httpx.get(url + "?wait=20", timeout=30).json()))
    waiter.start()
    wait_until(lambda: server.manager.seeks.changes.listening >= 1, "the long poll at the server")
    cancelled_at = time.monotonic()
    assert httpx.delete(url).json()["state"] == "cancelled"  # e.g. from another tab
    waiter.join(30)
    assert asked[0]["state"] == "cancelled" and time.monotonic() - cancelled_at < 5


# ------------------------------------------------------------------------------------- several workers
async def add_at_once(services: list[SeekService], address: str, n: int) -> list[int]:
    """``n`` seeks of one address (each of its own key) added at the same moment through ``services`` in
    turn: each one's status (200 stored, else the refusal's)."""

    async def add(i: int) -> int:
        new = seek(f"{address}-{i}", 1000)
        new.creator = address
        try:
            await services[i % len(services)].add(new)
            return 200
        except LobbyError as refused:
            return refused.status

    return list(await asyncio.gather(*(add(i) for i in range(n))))


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set")
def test_an_addresss_seeks_made_at_the_same_moment_never_pass_its_cap() -> None:
    """Workers keep seeks in one PostgreSQL database: eight seeks of one address arriving at the same
    moment at two workers (two services, each with its own connections) leave exactly ``max_seeks``
    waiting and the others refused with 429; round after round, each address with its own count."""
    cap, at_once, rounds = 2, 8, 5

    async def unused_seating(_seeks: Any, _level: Any) -> Any:
        raise AssertionError("nobody is seated here: no pass runs")

    with pg_database(os.environ[PG_ENV]) as url:
        engines = [db.make_engine(url) for _ in range(2)]
        db.migrate(engines[0])
        workers = [SeekService(engine=e, seat_people=unused_seating, levels=lambda _game: (), max_per_address=cap)
                   for e in engines]
        try:
            for n in range(rounds):
                outcomes = asyncio.run(add_at_once(workers, f"address-{n}", at_once))
                assert sorted(outcomes) == [200] * cap + [429] * (at_once - cap), (n, outcomes)
            with engines[0].connect() as conn:
                waiting = dict(conn.execute(sa.select(db.seeks.c.creator, sa.func.count())
                                            .group_by(db.seeks.c.creator)).all())
            assert waiting == {f"address-{n}": cap for n in range(rounds)}
        finally:
            for e in engines:
                e.dispose()


@pytest.mark.postgres
@pytest.mark.skipif(not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set")
def test_a_long_poll_at_one_worker_hears_of_a_pairing_made_at_another() -> None:
    """Two workers on one PostgreSQL database: Ann's request waits at worker A (whose own passes are
    30 s apart), worker B pairs her with Bob, and A answers Ann matched at once (B's NOTIFY)."""

    async def seat(seeks: Any, _level: Any) -> tuple[str, list[tuple[int, str]]]:
        return "table-1", [(i, f"token-{i}") for i in range(len(seeks))]

    async def run(url: str) -> tuple[Seek, float]:
        engines = [db.make_engine(url) for _ in range(2)]
        a, b = (SeekService(engine=e, seat_people=seat, levels=lambda _game: (), poll=30.0) for e in engines)
        a.start()  # A listens (and passes once now, then in 30 s)
        try:
            await a.pass_once()
            await b.add(seek("ann", 1000, since=time.time()))
            waiting = asyncio.create_task(a.get("ann", wait=20))
            await wait_until_async(lambda: a.changes.listening >= 1, "the long poll at worker A")
            await b.add(seek("bob", 1000, since=time.time()))
            await b.pass_once()
            paired_at = time.monotonic()
            got = await asyncio.wait_for(waiting, 25)
            return got, time.monotonic() - paired_at
        finally:
            await a.close()
            for e in engines:
                e.dispose()

    with pg_database(os.environ[PG_ENV]) as url:
        db.migrate(db.make_engine(url))
        got, late = asyncio.run(run(url))
    assert got.status == "matched" and got.table == "table-1" and got.token is not None
    assert late < 1.0, f"worker A answered {late:.2f} s after worker B paired"


def test_an_addresses_tables_in_the_database_count_its_seekers_tables(db_url: str) -> None:
    """What several workers count for ``max_open_tables`` (``Store.live_tables_of``): the live tables an
    address created, and the live tables made for seeks one of whose seats it took."""
    from spite.server.store import Store

    engine = db.make_engine(db_url)
    db.migrate(engine)
    try:
        with engine.begin() as conn:
            for table_id, creator, status, seat_address in (("made", "me", "playing", None),
                                                            ("seek", None, "open", "me"),
                                                            ("over", None, "finished", "me"),
                                                            ("joined", "you", "playing", "me"),
                                                            ("theirs", None, "playing", "you")):
                conn.execute(sa.insert(db.tables).values(
                    id=table_id, game="spite-malice", preset="short", options="{}", seed="1", start="{}",
                    status=status, plies=0, created_at=0.0, updated_at=0.0, creator=creator))
                conn.execute(sa.insert(db.seats).values(table_id=table_id, seat=0, kind="person",
                                                        controller="person", address=seat_address))
            # a table someone else made and "me" joined counts for its maker, not for the guest
            assert Store.live_tables_of(conn, "me") == 2
            assert Store.live_tables_of(conn, "you") == 2
    finally:
        engine.dispose()
