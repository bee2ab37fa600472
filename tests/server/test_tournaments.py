"""Club tournaments on a real server (docs/protocol.md "Tournaments", docs/tournaments.md): whole
Swiss and arena tournaments of computers played to the end, the same deal at every table of a Swiss
round with the seats swapped in a pairing's second game, the commitment kept and the secret revealed
at the end (every record checks against it), a restart in the middle of a round that pairs nothing
twice, persons who never come losing after the grace time and withdrawn after two such losses, and
the API's refusals. The tournaments' minutes, grace and pauses run at ``tournament_time_scale``."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import ServerThread
from typer.testing import CliRunner
from websockets.sync.client import connect

from spite.cli import app
from spite.server import ServerConfig, db
from spite.server.protocol import NextTable, TournamentInfo, TournamentJoined
from spite.tournament.deals import commitment, verify
from waiting import wait_until

CREATOR = "creator-key-aaaaaaaaaaaaaaaa"
OTHER = "other-key-bbbbbbbbbbbbbbbbbbbb"
PERSON = "person-key-cccccccccccccccccccc"


def settings(db_url: str, **changes: Any) -> ServerConfig:
    """A server whose tournaments run fast: bots in threads at once, no countdown, a tournament's
    seconds a fiftieth (an arena's minute: 1.2 s; a 10 s grace: 0.2 s; the 10 s pause between rounds: 0.2 s)."""
    base: dict[str, Any] = {"db_url": db_url, "bot_workers": 0, "bot_delay": 0.0, "start_countdown": 0.0,
                            "next_game_seconds": 0.0, "grace_seconds": 30.0, "write_burst": 1000.0,
                            "rate": 1000, "burst": 2000, "tournament_time_scale": 0.02}
    return ServerConfig(**{**base, **changes})


@pytest.fixture
def server(db_url: str) -> Iterator[ServerThread]:
    with ServerThread(settings(db_url)) as srv:
        yield srv


SMALL = {"stock_size": 3}
"""The options of the tests' tournaments: the short preset with stocks of three cards (games of a few dozen
moves; a rated tournament plays the preset as it is: ``options={}``)."""


def create(base: str, system: str = "swiss", key: str = CREATOR, **body: Any) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tournaments", json={"game": "spite-malice", "preset": "short", "system": system,
                                                      "playerKey": key, "name": "ann", "options": SMALL, **body})
    assert r.status_code == 200, r.text
    TournamentInfo.model_validate(r.json())  # exactly the documented answer (no field more, none missing)
    return r.json()  # type: ignore[no-any-return]


def computers(base: str, tid: str, n: int, level: str = "random") -> None:
    for _ in range(n):
        r = httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": CREATOR, "computer": level})
        assert r.status_code == 200, r.text
        TournamentJoined.model_validate(r.json())


def start(base: str, tid: str) -> dict[str, Any]:
    r = httpx.post(f"{base}/api/tournaments/{tid}/start", json={"playerKey": CREATOR})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def until_finished(base: str, tid: str, timeout: float = 45.0) -> dict[str, Any]:
    """Long polls (as the page does) until the tournament is finished."""
    info = httpx.get(f"{base}/api/tournaments/{tid}").json()
    deadline = time.monotonic() + timeout
    while info["state"] != "finished":
        assert time.monotonic() < deadline, f"the tournament did not finish: round {info['round']}"
        r = httpx.get(f"{base}/api/tournaments/{tid}", params={"since": info["version"], "wait": 5}, timeout=15)
        assert r.status_code == 200, r.text
        info = r.json()
    TournamentInfo.model_validate(info)
    return info


def record(base: str, game_id: int) -> dict[str, Any]:
    r = httpx.get(f"{base}/api/games/{game_id}/record")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def check_swiss(info: dict[str, Any], entrants: int, rounds: int) -> None:
    """Every round pairs everyone once (an odd field: one bye); a pairing's two games give 2 points."""
    assert info["roundCount"] == rounds and len(info["rounds"]) == rounds
    for r in info["rounds"]:
        met = Counter(e for p in r["pairings"] for e in p["entrants"])
        assert sorted(met) == sorted(e["id"] for e in info["entrants"]) and set(met.values()) == {1}
        for p in r["pairings"]:
            if len(p["entrants"]) == 2:
                assert len(p["tables"]) == 2 and len(p["games"]) == 2
                assert p["points"] is not None and sum(p["points"].values()) == 2
    total = sum(s["points"] for s in info["standings"])
    assert total == rounds * (entrants // 2) * 2 + rounds * (entrants % 2)  # a bye: 1 point
    assert [s["rank"] for s in info["standings"]] == sorted(s["rank"] for s in info["standings"])


# ---------------------------------------------------------------------- whole tournaments (SQLite; PG too when set)
def seated(url: str, table_id: str) -> list[str]:
    """The entrants at a tournament table's seats, as the server placed them."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            tt = db.tournament_tables
            text = c.execute(sa.select(tt.c.seats).where(tt.c.table_id == table_id)).scalar_one()
    finally:
        engine.dispose()
    return [s["entrant"] for s in json.loads(text)]


@pytest.mark.timeout(120)  # on PostgreSQL every move of 18 games commits (games of stocks of three: some 5 s)
def test_a_whole_swiss_of_computers_on_duplicate_deals(server: ServerThread, db_url: str, tmp_path: Path) -> None:
    base = server.base
    made = create(base, rounds=3)
    tid = made["id"]
    assert made["state"] == "open" and made["fair"]["secret"] is None
    computers(base, tid, 6)
    assert start(base, tid)["state"] == "playing"
    info = until_finished(base, tid)
    check_swiss(info, 6, 3)
    secret = info["fair"]["secret"]
    assert secret is not None and commitment(bytes.fromhex(secret), tid) == made["fair"]["commitment"]
    for r in info["rounds"]:
        seeds, openings = set(), []
        for p in r["pairings"]:
            for rec in (record(base, g) for g in p["games"]):
                fair = rec["fairness"]
                assert fair == {"scheme": "spite-tournament/1", "tournament": tid, "deal": r["number"],
                                "commitment": made["fair"]["commitment"], "secret": secret}
                verdict = verify(fair, rec["seed"])
                assert verdict.fair, verdict.line
                seeds.add(rec["seed"])
            # the same cards at the same seats; the entrants swapped
            positions = [httpx.get(f"{base}/api/games/{g}/positions").json() for g in p["games"]]
            openings += [pos["positions"][0] for pos in positions]
            assert seated(db_url, p["tables"][0]) == p["entrants"]
            assert seated(db_url, p["tables"][1]) == list(reversed(p["entrants"]))
        assert len(seeds) == 1, "every table of a round plays the round's deal"
        assert all(o == openings[0] for o in openings), "the first position differs between tables of one round"
    # spite verify on a downloaded record: fair, from the secret the record now reveals
    path = tmp_path / "game.json"
    path.write_text(httpx.get(f"{base}/api/games/{info['rounds'][-1]['pairings'][0]['games'][1]}/record").text)
    done = CliRunner().invoke(app, ["verify", str(path)])
    assert done.exit_code == 0 and "fair" in done.output and "not fair" not in done.output, done.output


def test_a_whole_arena_of_computers(db_url: str) -> None:
    """A minute's arena lasting 3 s (games of random computers with stocks of three cards take well under
    one): whoever finishes is paired again at once, until the end; the games in play then finish and count."""
    with ServerThread(settings(db_url, tournament_time_scale=0.05)) as srv:
        base = srv.base
        tid = create(base, "arena", minutes=1)["id"]
        computers(base, tid, 5)
        info = start(base, tid)
        assert info["endsAt"] is not None and info["endsAt"] - info["startedAt"] == pytest.approx(3.0, abs=0.01)
        info = until_finished(base, tid)
        rec = record(base, info["rounds"][0]["pairings"][0]["games"][0])
    pairings = [p for r in info["rounds"] for p in r["pairings"]]
    assert len(pairings) >= 3
    deals = [p["number"] for p in pairings]
    assert len(set(deals)) == len(deals)
    for p in pairings:
        assert len(p["entrants"]) == 2 and len(p["games"]) == 1 and p["points"] is not None
    points = sum(s["points"] for s in info["standings"])
    assert points == sum(sum(p["points"].values()) for p in pairings) and points >= 2 * len(pairings)
    assert rec["fairness"]["secret"] == info["fair"]["secret"] and verify(rec["fairness"], rec["seed"]).fair


def test_a_tournaments_options_are_its_tables_and_records_and_are_checked_as_a_tables(server: ServerThread,
                                                                                       tmp_path: Path) -> None:
    """Every table of a tournament plays its preset with the tournament's options (its table info, its
    records, their deals: stocks of 3 cards), and ``spite verify`` checks such a record; options a table
    would refuse are refused with the table's words, and a rated tournament plays the preset as it is."""
    base = server.base
    made = create(base, rounds=1, options={"stock_size": 3})
    assert made["options"] == {"stock_size": 3}
    tid = made["id"]
    computers(base, tid, 2)
    start(base, tid)
    info = until_finished(base, tid)
    assert info["options"] == {"stock_size": 3}
    listed = httpx.get(f"{base}/api/tournaments", params={"state": "finished"}).json()["tournaments"]
    assert [t["options"] for t in listed if t["id"] == tid] == [{"stock_size": 3}]
    (pairing,) = info["rounds"][0]["pairings"]
    for table_id, game_id in zip(pairing["tables"], pairing["games"], strict=True):
        table = httpx.get(f"{base}/api/tables/{table_id}").json()
        assert (table["preset"], table["options"]) == ("short", {"stock_size": 3})
        rec = record(base, game_id)
        assert (rec["preset"], rec["options"]) == ("short", {"stock_size": 3})
        assert [len(stock) for stock in rec["deal"]["stocks"]] == [3, 3]
        path = tmp_path / f"{game_id}.json"
        path.write_text(json.dumps(rec))
        done = CliRunner().invoke(app, ["verify", str(path)])
        assert done.exit_code == 0 and "not fair" not in done.output, done.output
    for bad in ({"stock_size": 0}, {"no_such_option": 1}, {"stock_size": "three"}):
        table = httpx.post(f"{base}/api/tables", json={"game": "spite-malice", "preset": "short", "options": bad})
        tournament = httpx.post(f"{base}/api/tournaments", json={"game": "spite-malice", "preset": "short",
                                                                 "options": bad, "playerKey": CREATOR})
        assert table.status_code == 400 and table.json()["words"]["key"].startswith("options."), table.text
        assert (tournament.status_code, tournament.json()["words"]) == (table.status_code, table.json()["words"])
        assert tournament.json()["detail"] == table.json()["detail"]
    rated = {"game": "spite-malice", "preset": "short", "options": {"stock_size": 5}, "rated": True,
             "playerKey": CREATOR}
    refused(httpx.post(f"{base}/api/tournaments", json=rated), 400, "lobby.rated-standard")
    table = httpx.post(f"{base}/api/tables", json={**rated, "join": False})
    assert httpx.post(f"{base}/api/tournaments", json=rated).json()["words"] == table.json()["words"]


# ---------------------------------------------------------------------- a restart mid-round
def pairings_in_db(url: str, tid: str) -> list[tuple[int, int]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as c:
            tt = db.tournament_tables
            return [(r.pairing, r.game) for r in c.execute(sa.select(tt.c.pairing, tt.c.game)
                                                           .where(tt.c.tournament_id == tid))]
    finally:
        engine.dispose()


def test_a_restart_mid_round_resumes_and_pairs_nothing_twice(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'spite.db'}"
    slow = settings(url, bot_delay=0.02)  # games last a few seconds: the restart falls inside round 1
    with ServerThread(slow) as srv:
        tid = create(srv.base, rounds=2)["id"]
        computers(srv.base, tid, 4)
        start(srv.base, tid)
        wait_until(lambda: len(pairings_in_db(url, tid)) >= 2, "round 1's tables", timeout=10)
        before = httpx.get(f"{srv.base}/api/tournaments/{tid}").json()
        assert before["state"] == "playing" and before["round"] == 1
    with ServerThread(settings(url)) as srv:
        info = until_finished(srv.base, tid)
    check_swiss(info, 4, 2)
    made = pairings_in_db(url, tid)
    assert len(made) == len(set(made)) == 2 * 2 * 2, made  # 2 rounds × 2 pairings × 2 games, each once
    assert [p["entrants"] for p in info["rounds"][0]["pairings"]] == \
        [p["entrants"] for p in before["rounds"][0]["pairings"]]


# ---------------------------------------------------------------------- persons
def test_a_person_is_told_their_table_and_its_seat_opens_with_the_token(server: ServerThread) -> None:
    base = server.base
    tid = create(base, rounds=1)["id"]
    r = httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": PERSON, "name": "bob"})
    assert r.status_code == 200 and r.json()["entrant"]["computer"] is None
    computers(base, tid, 1)
    start(base, tid)
    seat = httpx.get(f"{base}/api/tournaments/{tid}/next", params={"playerKey": PERSON, "wait": 10}, timeout=15).json()
    NextTable.model_validate(seat)
    assert seat["state"] == "seated" and seat["game"] == 1 and seat["seat"] == 0 and seat["token"]
    with connect(f"ws://127.0.0.1:{server.port}{seat['ws']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        assert welcome["fair"]["scheme"] == "spite-tournament/1" and welcome["fair"]["tournament"] == tid
        assert "secret" not in welcome["fair"]


def test_a_person_who_never_comes_loses_and_is_withdrawn_after_two(server: ServerThread) -> None:
    base = server.base
    tid = create(base, rounds=3, grace=10)["id"]  # 10 s at a fiftieth: 0.2 s
    httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": PERSON, "name": "bob"})
    computers(base, tid, 1)
    start(base, tid)
    info = until_finished(base, tid)
    (pairing,) = info["rounds"][0]["pairings"]
    assert pairing["points"] == {"e1": 0.0, "e2": 2.0}  # both games lost by not coming
    person = next(s for s in info["standings"] if s["entrant"] == "e1")
    assert person["withdrawn"] and person["points"] == 0
    assert len(info["rounds"]) == 1, "a withdrawn entrant is paired no more (and one left ends it)"
    answer = httpx.get(f"{base}/api/tournaments/{tid}/next", params={"playerKey": PERSON}).json()
    assert answer["state"] == "finished"
    for game_id in pairing["games"]:
        rec = record(base, game_id)
        assert rec["forfeit"]["why"] == "no-show"


# ---------------------------------------------------------------------- refusals
def refused(r: httpx.Response, status: int, key: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["words"]["key"] == key, r.text


def test_refusals_of_the_api(server: ServerThread) -> None:
    base = server.base
    refused(httpx.get(f"{base}/api/tournaments/nope"), 404, "tournament.none")
    refused(httpx.post(f"{base}/api/tournaments", json={"game": "spite-malice", "preset": "party",
                                                        "playerKey": CREATOR}), 400, "tournament.two-players")
    assert httpx.post(f"{base}/api/tournaments", json={"playerKey": CREATOR, "rounds": 16}).status_code == 422
    tid = create(base, rounds=1)["id"]
    refused(httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": OTHER, "computer": "random"}),
            403, "tournament.not-creator")
    refused(httpx.post(f"{base}/api/tournaments/{tid}/start", json={"playerKey": OTHER}), 403,
            "tournament.not-creator")
    refused(httpx.post(f"{base}/api/tournaments/{tid}/start", json={"playerKey": CREATOR}), 409, "tournament.too-few")
    assert httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": PERSON}).status_code == 200
    refused(httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": PERSON}), 409, "tournament.joined")
    refused(httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": CREATOR, "computer": "nobody"}),
            400, "lobby.bot-level")
    refused(httpx.get(f"{base}/api/tournaments/{tid}/next", params={"playerKey": OTHER * 1}), 409,
            "tournament.not-entrant")
    refused(httpx.post(f"{base}/api/tournaments/{tid}/leave", json={"playerKey": OTHER}), 409, "tournament.not-entrant")
    computers(base, tid, 2)
    start(base, tid)
    refused(httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": OTHER}), 409, "tournament.not-open")
    left = httpx.post(f"{base}/api/tournaments/{tid}/leave", json={"playerKey": PERSON})
    assert left.status_code == 200, left.text
    assert [e["withdrawn"] for e in left.json()["entrants"] if e["computer"] is None] == [True]
    listed = httpx.get(f"{base}/api/tournaments", params={"state": "playing"}).json()["tournaments"]
    assert [t["id"] for t in listed] == [tid] and "rounds" not in listed[0]
    TournamentInfo.model_validate(listed[0])


def test_an_address_has_at_most_max_tournaments(db_url: str) -> None:
    with ServerThread(settings(db_url, max_tournaments=2)) as srv:
        create(srv.base)
        create(srv.base)
        refused(httpx.post(f"{srv.base}/api/tournaments", json={"playerKey": CREATOR}), 429, "tournament.too-many")


def test_a_rated_tournament_takes_computers_at_measured_levels_only_and_plays_rated(server: ServerThread) -> None:
    base = server.base
    tid = create(base, rated=True, rounds=1, options={})["id"]
    refused(httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": CREATOR, "computer": "random"}),
            400, "lobby.rated-level")
    computers(base, tid, 2, level="easy")
    start(base, tid)
    info = until_finished(base, tid)
    (pairing,) = info["rounds"][0]["pairings"]
    for table_id in pairing["tables"]:
        table = httpx.get(f"{base}/api/tables/{table_id}").json()
        assert table["rated"] is True and table["status"] == "finished"


def test_a_records_deal_is_withheld_while_its_round_plays(server: ServerThread) -> None:
    """Two computers finish their pairing at once; the person's pairing of the same round waits for
    its person (a grace of 600 s): the computers' records, positions and reviews are refused 409
    ``tournament-in-play`` until the round is over."""
    base = server.base
    tid = create(base, rounds=1, grace=600)["id"]
    httpx.post(f"{base}/api/tournaments/{tid}/join", json={"playerKey": PERSON, "name": "bob"})
    computers(base, tid, 3)
    start(base, tid)

    def computers_done() -> int | None:
        info = httpx.get(f"{base}/api/tournaments/{tid}").json()
        done = [p for p in info["rounds"][0]["pairings"] if p["points"] is not None]
        return done[0]["games"][0] if done else None

    wait_until(lambda: computers_done() is not None, "the computers' pairing", timeout=20)
    game_id = computers_done()
    for what in ("record", "positions", "review"):
        r = httpx.get(f"{base}/api/games/{game_id}/{what}")
        assert r.status_code == 409 and r.json()["code"] == "tournament-in-play", (what, r.text)


def test_every_refusal_of_a_tournament_has_words_in_both_languages() -> None:
    """Each ``tournament.*`` key the server or the pure state machine may refuse with is in the
    catalogue, in English and German, with the same placeholders."""
    import re

    import spite.server.tournaments as service
    import spite.tournament.state as state
    from spite.catalogue import catalogue, placeholders

    keys = set()
    for module in (service, state):
        assert module.__file__ is not None
        keys |= set(re.findall(r'"(tournament\.[a-z-]+)"', Path(module.__file__).read_text()))
    assert {"tournament.none", "tournament.in-play", "tournament.not-open", "tournament.too-few"} <= keys
    en, de = catalogue("en"), catalogue("de")
    missing = sorted(k for k in keys if k not in en or k not in de)
    assert not missing, f"no words for {missing}"
    for key in keys:
        assert placeholders(en[key]) == placeholders(de[key]), key
