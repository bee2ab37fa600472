"""``GET /api/games/{id}/review``: a finished game reviewed turn by turn, off the event loop, kept (the
app in this process: REST alone needs no socket)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import InProcess

from helpers import finished_bot_game, finished_spit_game
from spite.malice.record import new_record
from spite.records import record_from_json
from spite.review import review_record
from spite.server import ServerConfig
from spite.server.store import Store
from waiting import wait_until

pytestmark = pytest.mark.timeout(300)
"""The server reviews whole games (tens of seconds each, minutes on a busy machine)."""

BUDGET = 0.1

TURNS = 30
"""The most turns of a reviewed game: a review's time grows with them."""


@pytest.fixture
def api(tmp_path: Path) -> Iterator[InProcess]:
    # SQLite alone: a review reads one stored record, the same on every database (and takes a while)
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          start_countdown=0.0, review_budget=BUDGET)
    with InProcess(config) as app:
        yield app


def test_a_finished_game_is_reviewed_once_and_kept(api: InProcess) -> None:
    # at most 12 turns: the game is reviewed twice (by the server, then by the library to compare)
    game_id = finished_bot_game(api.client, stock_size=3, turn_limit=12)
    record = api.client.get(f"/api/games/{game_id}/record").json()
    r = api.client.get(f"/api/games/{game_id}/review")
    assert r.status_code == 200, r.text
    review = r.json()
    # the library's review of the same record with the server's budget and seed 0
    assert review == review_record(record_from_json(record), budget=BUDGET, seed=0).to_json()
    assert review["format"] == "spite-review/1" and review["seats"] == [0, 1]
    moves = [m for m in record["moves"] if isinstance(m, str)]
    assert [m for t in review["turns"] for m in t["played"]] == moves
    started = time.perf_counter()
    again = api.client.get(f"/api/games/{game_id}/review")
    assert again.json() == review and time.perf_counter() - started < 2.0  # kept, not made again
    one = api.client.get(f"/api/games/{game_id}/review?seat=1").json()
    assert one["seats"] == [1] and {t["seat"] for t in one["turns"]} == {1}


def test_the_event_loop_answers_while_a_review_is_made(api: InProcess) -> None:
    # a game whose review takes seconds even on an idle machine (where decisions whose plans come out the
    # same on every sample stop early), asked for while the review is under way: /healthz answers in
    # milliseconds if the loop is free
    game_id = finished_bot_game(api.client, stock_size=2, turn_limit=TURNS)

    with concurrent.futures.ThreadPoolExecutor(1) as asking:
        review = asking.submit(api.client.get, f"/api/games/{game_id}/review")
        wait_until(lambda: api.app.state.reviews.place(game_id, None) == 1, "the review under way")
        started = time.perf_counter()
        health = api.client.get("/healthz")
        assert health.status_code == 200
        waited = time.perf_counter() - started
        assert not review.done()  # the event loop answered while the review was being made
        status = review.result().status_code
    assert status == 200 and waited < 5.0


def test_refusals_carry_a_code(api: InProcess) -> None:
    r = api.client.get("/api/games/999/review")
    assert r.status_code == 404 and r.json()["code"] == "no-game"
    assert api.client.get("/api/games/abc/review").status_code == 422
    # a stored game without a result (never written by the server itself)
    table = api.client.post("/api/tables", json={"preset": "short", "name": "ann"}).json()["table"]
    game_id = api.run(api.manager.store.write(
        Store.insert_game(table["id"], "spite-malice", "short", new_record("short", {}, seed=3).to_json(), 0, 0, [])))
    r = api.client.get(f"/api/games/{game_id}/review")
    assert r.status_code == 409 and r.json()["code"] == "not-finished" and "not finished" in r.json()["detail"]
    spit = finished_spit_game(api.client)
    r = api.client.get(f"/api/games/{spit}/review")
    assert r.status_code == 422 and r.json()["code"] == "not-turn-based" and "real time" in r.json()["detail"]
    done = finished_bot_game(api.client, stock_size=2, turn_limit=TURNS)
    r = api.client.get(f"/api/games/{done}/review?seat=2")
    assert r.status_code == 422 and r.json()["code"] == "no-seat"
    assert api.client.get(f"/api/games/{done}/review?seat=-1").status_code == 422


async def _released(lock: asyncio.Lock) -> None:
    lock.release()


def test_reviews_wait_in_a_bounded_queue_and_each_address_starts_few(tmp_path: Path) -> None:
    """Twelve requests from one address held the review worker for 100 s while another person's
    review waited: a client address starts at most ``review_burst`` reviews (then one each
    1 / ``review_rate`` s), the queue holds at most ``review_queue``, and a review asked for without
    waiting answers its place in the queue."""
    # a small budget: two whole reviews are waited for below (at BUDGET, a long deal's took a minute on a
    # busy machine)
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          review_budget=0.02, review_queue=2, review_rate=0.001, review_burst=2)
    with InProcess(config) as app:
        games = [finished_bot_game(app.client, stock_size=2, turn_limit=TURNS) for _ in range(3)]

        def ask(game_id: int, wait: bool = False) -> Any:
            return app.client.get(f"/api/games/{game_id}/review", params={"wait": wait})

        # the worker is busy (as with another address's long review) until the queue has been tried:
        # a review as quick as these could otherwise be made between two asks, and the queue not fill
        busy = app.app.state.reviews._one_at_a_time
        app.run(busy.acquire())
        try:
            first = ask(games[0])
            assert first.status_code == 202 and first.json() == {"status": "queued", "place": 1}
            second = ask(games[1])
            assert second.status_code == 202 and second.json()["place"] == 2
            assert ask(games[0]).status_code == 202  # asking again for a review waiting costs nothing
            third = ask(games[2])  # the queue is full (2), whoever asks
            assert third.status_code == 503 and third.json()["code"] == "review-queue-full"
            assert int(third.headers["Retry-After"]) >= 1
        finally:
            app.run(_released(busy))
        assert ask(games[0], wait=True).status_code == 200  # waited for: the review itself
        assert ask(games[1], wait=True).status_code == 200
        again = ask(games[2])  # room in the queue now, but this address has started its two
        assert again.status_code == 429 and again.json()["code"] == "too-many-reviews"
        assert int(again.headers["Retry-After"]) > 60
        made = ask(games[0])  # a review made already is answered at once, whoever asks and how often
        assert made.status_code == 200 and made.json()["format"] == "spite-review/1", made.text


def test_the_review_worker_runs_at_the_bot_workers_lower_priority() -> None:
    """A review thinking on a core must not starve the event loop that acknowledges people's moves."""
    import os

    from spite.server.bots import WORKER_NICENESS
    from spite.server.review import ReviewRunner

    runner = ReviewRunner(workers=1)
    try:
        worker_niceness = runner._executor().submit(os.nice, 0).result(60)  # the worker process's own
        assert worker_niceness == min(19, os.nice(0) + WORKER_NICENESS)
    finally:
        runner.close()


def test_a_review_shows_its_first_turns_while_the_rest_is_made(tmp_path: Path) -> None:
    """Asked with ``wait=false``, a review being made answers ``partial`` with its turns so far: the
    first three turns first, then more, each part exactly as in the whole review, until it is whole."""
    from spite.server.review import FIRST_PART

    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          review_budget=0.2)
    with InProcess(config) as api:
        # enough turns that the review is made in several parts, whatever the bots played
        game_id = finished_bot_game(api.client, stock_size=5, turn_limit=TURNS)
        url = f"/api/games/{game_id}/review?wait=false"
        seen: list[dict] = []

        def whole_or_next_part() -> bool:
            answer = api.client.get(url)
            body = answer.json()
            if answer.status_code != 202:
                seen.append({"whole": body})
                return True
            if body["status"] == "partial" and (len(seen) == 0 or seen[-1]["done"] != body["done"]):
                seen.append(body)
            return False

        wait_until(whole_or_next_part, "the whole review", timeout=240, every=0.05)
        whole = seen.pop()["whole"]
    assert seen, "no part of the review was shown before it was whole"
    # the parts end after the first FIRST_PART turns, then after parts twice as long each time (3, 9,
    # 21, …); a poll on a busy machine may come only once the second is made, so the first part seen
    # is one of these, not always the first
    ends = [FIRST_PART]
    while ends[-1] < len(whole["turns"]):
        ends.append(ends[-1] + FIRST_PART * 2 ** len(ends))
    assert [part["done"] for part in seen] == sorted({part["done"] for part in seen}), seen
    assert all(part["done"] in ends for part in seen), ([part["done"] for part in seen], ends)
    for part in seen:
        assert part["place"] == 1 and part["done"] < part["total"] == len(whole["turns"])
        assert part["review"]["turns"] == whole["turns"][:part["done"]]
