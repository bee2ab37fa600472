"""``GET /api/games/{id}/review``: a finished game reviewed turn by turn, off the event loop, kept."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_helpers import ServerThread

from helpers import finished_bot_game, finished_spit_game
from spite.records import record_from_json
from spite.records.malice import new_record
from spite.review import review_record
from spite.server import ServerConfig
from spite.server.store import Store

BUDGET = 0.1


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    # SQLite alone: a review reads one stored record, the same on every database (and takes a while)
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          spit_countdown=0.0, review_budget=BUDGET)
    with ServerThread(config) as srv:
        yield srv


def test_a_finished_game_is_reviewed_once_and_kept(server: ServerThread) -> None:
    game_id = finished_bot_game(server.base, stock_size=3)
    record = httpx.get(server.base + f"/api/games/{game_id}/record").json()
    r = httpx.get(server.base + f"/api/games/{game_id}/review", timeout=300)
    assert r.status_code == 200, r.text
    review = r.json()
    # the library's review of the same record with the server's budget and seed 0
    assert review == review_record(record_from_json(record), budget=BUDGET, seed=0).to_json()
    assert review["format"] == "spite-review/1" and review["seats"] == [0, 1]
    moves = [m for m in record["moves"] if isinstance(m, str)]
    assert [m for t in review["turns"] for m in t["played"]] == moves
    started = time.perf_counter()
    again = httpx.get(server.base + f"/api/games/{game_id}/review", timeout=30)
    assert again.json() == review and time.perf_counter() - started < 2.0  # kept, not made again
    one = httpx.get(server.base + f"/api/games/{game_id}/review?seat=1", timeout=300).json()
    assert one["seats"] == [1] and {t["seat"] for t in one["turns"]} == {1}


def test_the_event_loop_answers_while_a_review_is_made(server: ServerThread) -> None:
    # a longer game (its review takes seconds even on an idle machine, where decisions whose plans come
    # out the same on every sample stop early), asked for while the review is under way
    game_id = finished_bot_game(server.base, stock_size=7)

    async def both() -> tuple[float, int]:
        async with httpx.AsyncClient(base_url=server.base, timeout=300) as client:
            review = asyncio.create_task(client.get(f"/api/games/{game_id}/review"))
            await asyncio.sleep(0.1)
            started = time.perf_counter()
            health = await client.get("/healthz")
            assert health.status_code == 200
            waited = time.perf_counter() - started
            assert not review.done()  # the event loop answered while the review was being made
            reviewed = (await review).status_code
            return waited, reviewed

    waited, status = asyncio.run(both())
    assert status == 200 and waited < 5.0


def test_refusals_carry_a_code(server: ServerThread) -> None:
    r = httpx.get(server.base + "/api/games/999/review")
    assert r.status_code == 404 and r.json()["code"] == "no-game"
    assert httpx.get(server.base + "/api/games/abc/review").status_code == 422
    # a stored game without a result (never written by the server itself)
    table = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "ann"}).json()["table"]
    game_id = server.run(server.manager.store.write(
        Store.insert_game(table["id"], "spite-malice", "short", new_record("short", {}, seed=3).to_json(), 0, 0, [])))
    r = httpx.get(server.base + f"/api/games/{game_id}/review")
    assert r.status_code == 409 and r.json()["code"] == "not-finished" and "not finished" in r.json()["detail"]
    spit = finished_spit_game(server.base)
    r = httpx.get(server.base + f"/api/games/{spit}/review")
    assert r.status_code == 422 and r.json()["code"] == "not-turn-based" and "real time" in r.json()["detail"]
    done = finished_bot_game(server.base, stock_size=2)
    r = httpx.get(server.base + f"/api/games/{done}/review?seat=2")
    assert r.status_code == 422 and r.json()["code"] == "no-seat"
    assert httpx.get(server.base + f"/api/games/{done}/review?seat=-1").status_code == 422
