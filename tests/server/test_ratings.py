"""Ratings (docs/ratings.md): a rated game changes its keyed players' ratings exactly as the openskill
library says, per rules group; the fair-use rules keep games out; the leaderboard and a player's page
read them back."""

from __future__ import annotations

import json
import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from openskill.models import PlackettLuce
from server_helpers import Client, ServerThread, http_from
from test_protocol import eager, play_random

from spite.rating import RatingGroup, display, groups, level_rating, rating_group
from spite.server import ServerConfig, db
from spite.server.ratings import rate_game
from spite.server.table.seats import player_id
from waiting import bounded, wait_until


@pytest.fixture
def engine(db_url: str) -> Iterator[sa.Engine]:
    """A migrated database: SQLite, and PostgreSQL too when SPITE_TEST_PG_URL is set."""
    eng = db.make_engine(db_url)
    db.migrate(eng)
    yield eng
    eng.dispose()


def seat(n: int, who: str | None, won: bool, *, bot: str | None = None, taken_over: bool = False,
         left: bool = False) -> dict[str, Any]:
    return {"seat": n, "player": f"bot:{bot}" if bot else who, "player_id": None if bot else who,
            "is_bot": bot is not None, "won": won, "points": int(won), "taken_over": taken_over, "left": left}


def test_group_is_the_games_own_word() -> None:
    cases = {("spite-malice", "classic", 2): "classic", ("spite-malice", "short", 2): "classic",
             ("spite-malice", "kings-only", 2): "classic", ("spite-malice", "skip-bo", 2): "skip-bo",
             ("spite-malice", "match", 2): "match", ("spite-malice", "party", 3): "party",
             ("spite-malice", "partners", 4): "partners", ("spit", "spit", 2): "spit", ("speed", "speed", 2): "speed"}
    for (game, preset, seats), group in cases.items():
        assert rating_group(game, preset, {}, seats).name == group
    assert rating_group("spite-malice", "party", {"players": 4}, 4).name == "party"
    assert rating_group("spite-malice", "partners", {}, 4).sides == ((0, 2), (1, 3))
    assert set(groups()) == set(cases.values())


def test_a_known_sequence_of_results_rates_as_the_library_says(engine: sa.Engine) -> None:
    """Duels, a party of three, a partnership game and a duel against the computer, in a row: every
    stored rating is what openskill's Plackett-Luce model gives when fed the same results directly."""
    a, b, c, d = (f"p-{i:024x}" for i in range(1, 5))
    classic = RatingGroup("classic", ((0,), (1,)))
    party = RatingGroup("party", ((0,), (1,), (2,)))
    partners = RatingGroup("partners", ((0, 2), (1, 3)))
    games: list[tuple[RatingGroup, list[dict[str, Any]]]] = [
        (classic, [seat(0, a, True), seat(1, b, False)]),
        (classic, [seat(0, b, True), seat(1, c, False)]),
        (classic, [seat(0, a, True), seat(1, c, False)]),
        (classic, [seat(0, c, False), seat(1, a, False, taken_over=True)]),  # a left: a loss for a
        (party, [seat(0, a, False), seat(1, b, True), seat(2, c, False)]),
        (partners, [seat(0, a, True), seat(1, b, False), seat(2, c, True), seat(3, d, False)]),
        (classic, [seat(0, d, True), seat(1, None, False, bot="medium")]),
    ]
    with engine.begin() as conn:
        for n, (group, players) in enumerate(games, 1):
            rate_game(conn, n, group, players, now=1000.0 + n)
    # the same results, straight through the library
    model = PlackettLuce()
    expected: dict[tuple[str, str], Any] = {}
    for group, players in games:
        teams, ranks = [], []
        for side in group.sides:
            team = []
            for s in side:
                p = players[s]
                if p["is_bot"]:  # the computer plays at its level's measured figure
                    level = level_rating(group.name, "medium")
                    team.append(model.rating(mu=level.mu, sigma=level.sigma))
                else:
                    team.append(expected.get((p["player_id"], group.name)) or model.rating())
            teams.append(team)
            sides = [players[s] for s in side]
            ranks.append(2 if any(p["taken_over"] for p in sides) else 0 if any(p["won"] for p in sides) else 1)
        for side, team in zip(group.sides, model.rate(teams, ranks=ranks), strict=True):
            for s, r in zip(side, team, strict=True):
                if not players[s]["is_bot"]:
                    expected[(players[s]["player_id"], group.name)] = r
    with engine.connect() as conn:
        rows = conn.execute(sa.select(db.ratings)).mappings().all()
        history = conn.execute(sa.select(db.rating_history).order_by(db.rating_history.c.id)).mappings().all()
    assert {(r["player_id"], r["group"]) for r in rows} == set(expected)
    for r in rows:
        want = expected[(r["player_id"], r["group"])]
        assert r["mu"] == pytest.approx(want.mu, abs=1e-9) and r["sigma"] == pytest.approx(want.sigma, abs=1e-9)
    games_of_a = [h for h in history if h["player_id"] == a and h["group"] == "classic"]
    assert [h["game_id"] for h in games_of_a] == [1, 3, 4]
    assert games_of_a[-1]["rating"] == display(expected[(a, "classic")].mu, expected[(a, "classic")].sigma)
    # d beat the computer in a first rated game: d has a rating now, the computer's level none
    assert expected[(d, "classic")].mu > 25.0


@pytest.mark.parametrize(("why", "players"), [
    ("one key at two seats", [seat(0, "p-" + "1" * 24, True), seat(1, "p-" + "1" * 24, False)]),
    ("a computer of a level never measured", [seat(0, "p-" + "1" * 24, True), seat(1, None, False, bot="random")]),
    ("guests only", [seat(0, None, True), seat(1, None, False)]),
])
def test_fair_use_keeps_a_game_out_of_the_ratings(engine: sa.Engine, why: str, players: list[dict[str, Any]]) -> None:
    with engine.begin() as conn:
        assert rate_game(conn, 1, RatingGroup("classic", ((0,), (1,))), players) == {}, why
        assert conn.execute(sa.select(sa.func.count()).select_from(db.ratings)).scalar() == 0


# ---------------------------------------------------------------------------------------------- the server
@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          write_burst=100, max_open_tables=100,
                          deal_seed=3)  # the same deals every run: random play to a draw would rate no winner
    with ServerThread(config) as srv:
        yield srv


def play_two(srv: ServerThread, rated: bool, keys: tuple[str, str], at_the_end: Any = None) -> str:
    """Two keyed people, from two addresses, play a short game to its end at a new table; its id.
    ``at_the_end(table)`` is called while they are still at the table."""
    created = httpx.post(srv.base + "/api/tables", json={
        "preset": "short", "name": "ann", "playerKey": keys[0], "rated": rated}).json()
    table = created["table"]["id"]
    assert created["table"]["rated"] is rated
    with http_from("127.0.0.2") as bob:
        joined = bob.post(srv.base + f"/api/tables/{table}/join", json={"name": "bob", "playerKey": keys[1]}).json()
    clients = {0: Client(srv.base, table), 1: Client(srv.base, table)}
    try:
        clients[0].hello(created["token"])
        clients[1].hello(joined["token"])
        play_random(clients, random.Random(5), choose=eager)
        clients[0].until("gameOver", timeout=30)
        if at_the_end is not None:
            at_the_end(table)
    finally:
        for c in clients.values():
            c.close()
    return str(table)


def wait_for(fn: Any, timeout: float = 5) -> Any:
    try:  # written with the last move, just before gameOver
        return wait_until(fn, "the ratings", timeout=timeout)
    except AssertionError:
        return fn()  # (the test says what it expected)


@pytest.mark.slow
def test_rated_games_move_the_leaderboard_and_casual_ones_do_not(server: ServerThread) -> None:
    ann, bob = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    play_two(server, False, (ann, bob))
    assert httpx.get(server.base + "/api/ratings?group=classic").json()["players"] == []
    play_two(server, True, (ann, bob))
    board = wait_for(lambda: httpx.get(server.base + "/api/ratings?group=classic").json()["players"])
    assert {p["playerId"] for p in board} == {player_id(ann), player_id(bob)}
    winner, loser = board
    assert winner["rating"] > loser["rating"] and winner["provisional"] and winner["games"] == 1
    mine = httpx.get(server.base + f"/api/players/{player_id(ann)}/ratings").json()
    (classic,) = mine["groups"]
    assert classic["group"] == "classic" and len(classic["history"]) == 1
    assert classic["history"][0]["gameId"] in [g["id"] for g in mine["games"]]
    by_name = httpx.get(server.base + "/api/players/bob/ratings").json()
    assert by_name["playerId"] == player_id(bob)


def test_a_rated_table_shows_each_persons_rating_beside_their_name(tmp_path: Path) -> None:
    """The table's seats carry each keyed person's rating in the table's rules group (docs/ratings.md):
    a newcomer's before their first game, the new one once a rated game is stored, again after a
    restart; a casual table and a computer's seat carry none."""
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          write_burst=100, max_open_tables=100, deal_seed=3)
    ann, bob = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    with ServerThread(config) as srv:
        casual = httpx.post(srv.base + "/api/quickplay", json={"preset": "short", "level": "easy", "name": "ann",
                                                                "playerKey": ann}).json()["table"]
        assert all("rating" not in s for s in casual["seats"])
        rated = httpx.post(srv.base + "/api/quickplay", json={"preset": "short", "level": "easy", "name": "ann",
                                                               "playerKey": ann, "rated": True}).json()["table"]
        me, computer = rated["seats"]
        assert me["rating"] == {"rating": 1000, "provisional": True, "games": 0} and "rating" not in computer
        after: list[dict[str, Any]] = []
        play_two(srv, True, (ann, bob), lambda table: after.extend(httpx.get(f"{srv.base}/api/tables/{table}")
                                                                    .json()["seats"]))
        board = {p["playerId"]: p for p in httpx.get(srv.base + "/api/ratings?group=classic").json()["players"]}
        assert [s["rating"] for s in after] == [{"rating": board[player_id(k)]["rating"], "games": 1,
                                                 "provisional": True} for k in (ann, bob)]
        waiting = httpx.post(srv.base + "/api/tables", json={"preset": "short", "name": "ann", "playerKey": ann,
                                                              "rated": True}).json()["table"]["id"]
    with ServerThread(config) as srv:  # the table is brought back from the database, its ratings too
        (seat, free) = httpx.get(f"{srv.base}/api/tables/{waiting}").json()["seats"]
        assert seat["rating"]["rating"] == board[player_id(ann)]["rating"] and seat["rating"]["games"] == 1
        assert "rating" not in free


def test_a_rated_table_seats_keyed_players_once(server: ServerThread) -> None:
    key = secrets.token_urlsafe(24)
    guest = httpx.post(server.base + "/api/tables", json={"preset": "short", "rated": True})
    assert guest.status_code == 400 and guest.json()["words"]["key"] == "lobby.rated-needs-key"
    created = httpx.post(server.base + "/api/tables", json={"preset": "short", "rated": True, "playerKey": key}).json()
    table = created["table"]["id"]
    again = httpx.post(server.base + f"/api/tables/{table}/join", json={"playerKey": key})
    assert again.status_code == 409 and again.json()["words"]["key"] == "lobby.rated-one-seat"
    no_key = httpx.post(server.base + f"/api/tables/{table}/join", json={})
    assert no_key.status_code == 400
    bad = httpx.get(server.base + "/api/ratings?group=chess")
    assert bad.status_code == 400 and bad.json()["words"]["key"] == "ratings.bad-group"


def test_rate_levels_takes_peoples_rated_games_against_the_computer_into_the_fit(tmp_path: Path) -> None:
    """``spite rate-levels --people DB``: people who play as strongly as ``medium`` (they beat ``hard`` as
    often as they lose to it) and lose most games to ``easy`` lift ``easy``'s figure; their casual games,
    their games among themselves and another game's are not read; the CLI prints the fit with them."""
    from typer.testing import CliRunner

    from spite.cli import app as cli_app
    from spite.rating.fit import LevelRun, fit_levels
    from spite.server.ratings import people_runs

    url = f"sqlite:///{tmp_path / 'server.db'}"
    eng = db.make_engine(url)
    db.migrate(eng)
    people = [f"p-{i:024x}" for i in range(1, 5)]

    def stored(game_id: int, seats: list[tuple[str, bool, bool]], rated: bool = True,
               game: str = "spite-malice") -> None:
        with eng.begin() as conn:
            conn.execute(sa.insert(db.games).values(id=game_id, table_id=f"t{game_id}", game=game, preset="classic",
                                                    record="{}", result="{}", plies=1, turns=1, finished_at=game_id))
            for seat, (who, is_bot, won) in enumerate(seats):
                conn.execute(sa.insert(db.game_players).values(
                    game_id=game_id, seat=seat, player=who, player_id=None if is_bot else who, is_bot=is_bot,
                    won=won, points=int(won)))
                if rated and not is_bot:
                    conn.execute(sa.insert(db.rating_history).values(player_id=who, group="classic", game_id=game_id,
                                                                     mu=25, sigma=8, rating=0, at=game_id))

    n = 0
    for person in people:
        for k in range(8):  # each loses 7 of 8 to easy, and breaks even with hard
            n += 1
            stored(n, [(person, False, k == 0), ("bot:easy", True, k != 0)])
            n += 1
            stored(n, [("bot:hard", True, k % 2 == 0), (person, False, k % 2 == 1)])
    read_before = n
    stored(n + 1, [(people[0], False, True), ("bot:easy", True, False)], rated=False)  # casual
    stored(n + 2, [(people[0], False, True), (people[1], False, False)])  # no computer
    stored(n + 3, [(people[0], False, True), ("bot:easy", True, False)], game="speed")
    eng.dispose()
    runs = people_runs(url, "spite-malice", "classic")
    assert len(runs) == read_before
    assert runs[0].levels == (people[0], "easy") and runs[0].games == [((0, 1), {0: 1.0, 1: 0.0})]

    def level_games(a: str, b: str, a_wins: int, total: int) -> LevelRun:
        return LevelRun("spite-malice", "classic", (a, b),
                        [((0, 1), {0: float(i < a_wins), 1: float(i >= a_wins)}) for i in range(total)])

    arena = [level_games("easy", "medium", 4, 20), level_games("medium", "hard", 6, 20)]
    alone, with_people = fit_levels(arena, "medium"), fit_levels([*arena, *runs], "medium")
    assert with_people["easy"][0] > alone["easy"][0] + 1.0, (alone, with_people)
    assert with_people["medium"][0] == 25.0

    result = CliRunner().invoke(cli_app, ["rate-levels", "--levels", "easy", "--levels", "medium", "--games", "2",
                                          "--people", url, "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.splitlines()[-1])
    assert summary["peopleGames"] == read_before and set(summary["levels"]) == {"easy", "medium"}
    bad = CliRunner().invoke(cli_app, ["rate-levels", "--games", "2", "--people", f"sqlite:///{tmp_path / 'none.db'}"])
    assert bad.exit_code == 2 and "holds no rated games" in bad.output and "Traceback" not in bad.output


# ---------------------------------------------------------------------- what rated play guards against
def refusal(answer: httpx.Response) -> tuple[int, str]:
    return answer.status_code, (answer.json().get("words") or {}).get("key", answer.json().get("code", ""))


def test_a_rated_table_plays_the_presets_as_they_are(server: ServerThread) -> None:
    """A one-card stock is no classic game: rated tables refuse changed options (casual ones take them)."""
    key = secrets.token_urlsafe(24)
    changed = {"preset": "short", "options": {"stock_size": 1}, "playerKey": key}
    assert refusal(httpx.post(server.base + "/api/tables", json={**changed, "rated": True})) == \
        (400, "lobby.rated-standard")
    assert httpx.post(server.base + "/api/tables", json={**changed, "rated": False}).status_code == 200
    same = httpx.post(server.base + "/api/tables", json={"preset": "short", "options": {"stock_size": 13},
                                                          "playerKey": key, "rated": True})
    assert same.status_code == 200, "the preset's own value is no change"
    four = httpx.post(server.base + "/api/tables", json={"preset": "party", "options": {"players": 4},
                                                          "playerKey": secrets.token_urlsafe(24), "rated": True})
    assert four.status_code == 200, "a party of four is a standard party"


def test_rated_games_against_the_computer_are_at_measured_levels_only(server: ServerThread) -> None:
    key = secrets.token_urlsafe(24)
    for game, level in (("spite-malice", "random"), ("spit", "reflex:60000"), ("spit", "club")):
        answer = httpx.post(server.base + "/api/quickplay", json={"game": game, "level": level, "playerKey": key,
                                                                   "rated": True})
        if level == "club":
            assert answer.status_code == 200 and answer.json()["table"]["rated"] is True
        else:
            assert refusal(answer) == (400, "lobby.rated-level"), (game, level)
            assert httpx.post(server.base + "/api/quickplay", json={
                "game": game, "level": level, "playerKey": key}).status_code == 200, "casual is fine"


def test_two_keys_from_one_address_do_not_play_each_other_rated(server: ServerThread) -> None:
    a, b, c = (secrets.token_urlsafe(24) for _ in range(3))
    table = httpx.post(server.base + "/api/tables", json={"preset": "short", "playerKey": a,
                                                           "rated": True}).json()["table"]["id"]
    second = httpx.post(server.base + f"/api/tables/{table}/join", json={"playerKey": b})
    assert refusal(second) == (409, "lobby.rated-one-address")
    with http_from("127.0.0.2") as other:
        assert other.post(server.base + f"/api/tables/{table}/join", json={"playerKey": c}).status_code == 200


def seek(client: Any, base: str, key: str, rated: bool = True, **more: Any) -> httpx.Response:
    return client.post(base + "/api/seeks", json={"preset": "short", "playerKey": key, "rated": rated,
                                                  "computerAfter": None, **more})


def test_rated_seeks_from_one_address_are_not_paired_casual_ones_are(server: ServerThread) -> None:
    a, b, c, d, e = (secrets.token_urlsafe(24) for _ in range(5))
    first, second = seek(httpx, server.base, a).json(), seek(httpx, server.base, b).json()
    waited = httpx.get(server.base + f"/api/seeks/{second['id']}?wait=1.5").json()
    assert waited["state"] == "waiting", "a second key from the same address is no opponent"
    with http_from("127.0.0.2") as other:
        third = other.get(server.base + f"/api/seeks/{seek(other, server.base, c).json()['id']}?wait=10").json()
    assert third["state"] == "matched"
    mine = httpx.get(server.base + f"/api/seeks/{first['id']}").json()
    assert mine["state"] == "matched" and mine["matched"]["table"] == third["matched"]["table"]
    home = [seek(httpx, server.base, key, rated=False).json() for key in (d, e)]
    paired = httpx.get(server.base + f"/api/seeks/{home[1]['id']}?wait=10").json()
    assert paired["state"] == "matched", "a household may play casual"
    for s in (second,):
        httpx.delete(server.base + f"/api/seeks/{s['id']}")


def test_a_bool_is_a_bool_and_an_unknown_player_is_not_found(server: ServerThread) -> None:
    answer = httpx.post(server.base + "/api/tables", json={"preset": "short", "rated": "yes",
                                                            "playerKey": secrets.token_urlsafe(24)})
    assert answer.status_code == 422 and "rated" in answer.json()["detail"]
    nobody = httpx.get(server.base + "/api/players/p-" + "0" * 24 + "/ratings")
    assert refusal(nobody) == (404, "ratings.no-player")


@pytest.fixture
def tight(tmp_path: Path) -> Iterator[ServerThread]:
    """A server with small caps: 2 live tables an address, aborts pause rated play after 2."""
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          write_burst=100, max_open_tables=2, abort_limit=2, abort_window=600.0, grace_seconds=1.0)
    with ServerThread(config) as srv:
        yield srv


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[ServerThread]:
    """A server with a cap of 2 live tables an address, whose tables nobody sits down at stay open for the
    test's minute (with ``tight``'s grace of 1 s, a table made for seekers who never say hello closes
    while the test looks at the cap)."""
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          write_burst=100, max_open_tables=2, grace_seconds=60.0)
    with ServerThread(config) as srv:
        yield srv


def test_a_seek_and_its_table_count_against_the_address(capped: ServerThread) -> None:
    """A table made for seekers counts against each seeker's address as a table they made, and a
    waiting seek counts too (it becomes one): one address cannot get round the cap with seeks."""
    base = capped.base
    a, b, c, d = (secrets.token_urlsafe(24) for _ in range(4))
    assert httpx.post(base + "/api/tables", json={"preset": "short"}).status_code == 200
    first = seek(httpx, base, a).json()
    assert refusal(seek(httpx, base, b)) == (429, "lobby.too-many-tables")
    with http_from("127.0.0.3") as other:
        paired = other.get(base + f"/api/seeks/{seek(other, base, c).json()['id']}?wait=10").json()
        assert paired["state"] == "matched"
        assert other.post(base + "/api/tables", json={"preset": "short"}).status_code == 200
        assert refusal(other.post(base + "/api/tables", json={"preset": "short"})) == (429, "lobby.too-many-tables")
    assert httpx.get(base + f"/api/seeks/{first['id']}").json()["state"] == "matched"
    assert refusal(httpx.post(base + "/api/tables", json={"preset": "short"})) == (429, "lobby.too-many-tables")
    assert refusal(seek(httpx, base, d, rated=False)) == (429, "lobby.too-many-tables")


def test_a_seeks_computer_wait_has_a_floor(server: ServerThread) -> None:
    key = secrets.token_urlsafe(24)
    answer = seek(httpx, server.base, key, computerAfter=0)
    assert refusal(answer) == (400, "seek.computer-floor")
    assert seek(httpx, server.base, key, computerAfter=20).status_code == 200


def test_repeated_aborts_pause_rated_play(tight: ServerThread) -> None:
    """Two rated games left before they began (the tight server's limit): rated play is paused, with
    when to try again; casual play is not."""
    key = secrets.token_urlsafe(24)
    for _ in range(2):
        joined = httpx.post(tight.base + "/api/quickplay", json={"preset": "short", "level": "medium",
                                                                  "playerKey": key, "rated": True}).json()
        watcher = Client(tight.base, joined["table"]["id"])
        watcher.hello(spectate=True)
        event = watcher.until("table", timeout=15)["event"]  # the person never came: aborted
        assert event["kind"] == "abandoned" and event["words"]["key"] == "event.abandoned.aborted"
        watcher.close()
    paused = httpx.post(tight.base + "/api/quickplay", json={"preset": "short", "playerKey": key, "rated": True})
    assert refusal(paused) == (429, "rated.paused") and int(paused.headers["Retry-After"]) > 500
    assert refusal(seek(httpx, tight.base, key)) == (429, "rated.paused")
    assert httpx.post(tight.base + "/api/quickplay", json={"preset": "short", "playerKey": key}).status_code == 200


def test_leaving_a_rated_game_against_the_computer_is_a_stored_rated_loss(tight: ServerThread) -> None:
    """Before, the table was closed when the grace time ended and nothing was stored or rated."""
    key = secrets.token_urlsafe(24)
    joined = httpx.post(tight.base + "/api/quickplay", json={"preset": "short", "level": "medium", "name": "ann",
                                                              "playerKey": key, "rated": True}).json()
    ann = Client(tight.base, joined["table"]["id"])
    state = ann.hello(joined["token"])
    rng = random.Random(9)
    # ann moves, the computer moves, ann moves: every side has moved
    for _ in bounded(200, "a move of the computer's"):
        state = ann.last_state or state
        if state["legal"] and state["stateVersion"] >= ann.newest:
            moved_after_computer = any(m.get("last", {}) and m["last"].get("byBot") for m in ann.received
                                       if m["type"] == "state")
            ann.send({"type": "move", "move": rng.choice(state["legal"]), "stateVersion": state["stateVersion"]})
            ann.until("ack")
            if moved_after_computer:
                break
        else:
            ann.recv(5)
    ann.close()
    mine = wait_for(lambda: httpx.get(tight.base + f"/api/players/{player_id(key)}/ratings").json().get("groups"),
                    timeout=15)
    (classic,) = mine
    assert classic["games"] == 1 and classic["mu"] < 25.0, "a loss"
    (game,) = httpx.get(tight.base + f"/api/players/{player_id(key)}/games").json()
    assert game["result"]["reason"] == "forfeit"
    me = next(p for p in game["players"] if not p["isBot"])
    assert me["won"] is False
    replay = httpx.get(tight.base + f"/api/games/{game['id']}/positions").json()  # the replay shows it as it stood
    assert replay["result"]["reason"] == "forfeit" and replay["result"]["left"] == [0] and replay["moves"]
    # its record replays to where it stopped, and its deal is proven fair like any other
    from spite.records import record_from_json, replay
    from spite.records.verify import verify_record

    record = record_from_json(httpx.get(tight.base + game["recordUrl"]).json())
    assert record.forfeit == {"left": [0], "why": "left"} and record.result is None
    assert replay(record).check()["finished"] is False
    assert verify_record(record).fair


def test_no_review_of_a_rated_match_still_in_play(server: ServerThread) -> None:
    with db.make_engine(server.manager.store.engine.url.render_as_string(hide_password=False)).begin() as conn:
        conn.execute(sa.insert(db.tables).values(id="m1", game="spite-malice", preset="match", options="{}", seed="1",
                                                 start="{}", status="playing", plies=0, created_at=0.0,
                                                 updated_at=0.0, rated=True))
        conn.execute(sa.insert(db.games).values(id=77, table_id="m1", game="spite-malice", preset="match",
                                                record="{}", result="{}", plies=1, turns=1, finished_at=1.0))
    answer = httpx.get(server.base + "/api/games/77/review")
    assert answer.status_code == 409 and answer.json()["code"] == "rated-in-play"
