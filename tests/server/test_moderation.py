"""Moderation (docs/protocol.md, "Moderation"; docs/deploy.md): the operator's endpoints refuse without
the token; a banned address or player id is refused by REST (403, ``error.banned``) and at ``hello``,
and their open sockets are closed; a lifted ban lets them back; a closed table ends for everyone at
it; a rename shows on the leaderboard and at a live table; players report names and tables, the
operator lists and clears them; every action is in the audit with who took it; ``spite admin``
does the same on the database, with one-line refusals and their exit codes. A person's data: a
player exports everything stored about them with their key, and deletes it: their games stay for
the others, anonymised, and their ratings leave the leaderboard."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import Client, ServerThread, http_from
from test_ratings import play_two, wait_for

from spite.server import ServerConfig, db
from spite.server.table.seats import player_id

TOKEN = "operator-secret-for-tests-0123456789"
CLI = [sys.executable, "-c", "from spite.cli import main; main()"]
AUTH = {"Authorization": f"Bearer {TOKEN}", "X-Spite-Operator": "olga"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          write_burst=100, max_open_tables=100, operator_token=TOKEN, deal_seed=3,
                          moderation_poll=60.0)  # everything here is applied by the process that took it
    with ServerThread(config) as srv:
        yield srv


def admin(srv: ServerThread, method: str, path: str, **kw: Any) -> httpx.Response:
    return httpx.request(method, srv.base + "/api/admin" + path, headers=AUTH, timeout=30, **kw)


def words_key(answer: httpx.Response) -> str:
    return str(answer.json()["words"]["key"])


def until_error(client: Client, code: str, timeout: float = 5) -> dict[str, Any]:
    return client.until("error", timeout=timeout, code=code)


def test_the_operators_endpoints_need_the_token(server: ServerThread, tmp_path: Path) -> None:
    assert httpx.get(server.base + "/api/admin/bans").status_code == 401
    wrong = httpx.get(server.base + "/api/admin/bans", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and words_key(wrong) == "admin.operator-token"
    assert admin(server, "GET", "/bans").json() == []
    with ServerThread(ServerConfig(db_url=f"sqlite:///{tmp_path / 'other.db'}", bot_workers=0)) as plain:
        none = httpx.get(plain.base + "/api/admin/bans", headers=AUTH)
        assert none.status_code == 404 and words_key(none) == "admin.no-operator"


def test_a_banned_address_is_refused_and_its_sockets_closed_until_the_ban_is_lifted(server: ServerThread) -> None:
    with http_from("127.0.0.2") as ann, http_from("127.0.0.5") as bob:
        made = ann.post(server.base + "/api/tables", json={"preset": "short", "name": "ann"}).json()
        table = made["table"]["id"]
        joined = bob.post(server.base + f"/api/tables/{table}/join", json={"name": "bob"}).json()
        ann_ws, bob_ws = Client(server.base, table, "127.0.0.2"), Client(server.base, table, "127.0.0.5")
        ann_ws.hello(made["token"])
        bob_ws.hello(joined["token"])
        banned = admin(server, "POST", "/bans", json={"target": "127.0.0.2/31", "reason": "spam"})
        assert banned.status_code == 200, banned.text
        ban_id = banned.json()["id"]
        # ann's open socket is told and closed; bob (127.0.0.5, outside the range) plays on
        assert until_error(ann_ws, "banned")["words"]["key"] == "error.banned"
        refused = ann.post(server.base + "/api/tables", json={"preset": "short", "name": "ann"})
        assert refused.status_code == 403 and refused.json()["code"] == "banned"
        assert words_key(refused) == "error.banned"
        again = Client(server.base, table, "127.0.0.2")
        again.send({"type": "hello", "token": made["token"]})
        assert until_error(again, "banned")["message"] == "you may not play on this server"
        bob_ws.send({"type": "sync"})
        assert bob_ws.until("state")["stateVersion"] >= 0
        assert bob.get(server.base + "/api/tables").status_code == 200
        # a second ban of the same range is refused; lifting lets ann back at once
        twice = admin(server, "POST", "/bans", json={"target": "127.0.0.3/31"})
        assert twice.status_code == 409 and words_key(twice) == "admin.banned-already"
        assert admin(server, "DELETE", f"/bans/{ban_id}").status_code == 200
        assert ann.post(server.base + "/api/tables", json={"preset": "short", "name": "ann"}).status_code == 200
        back = Client(server.base, table, "127.0.0.2")
        assert back.hello(made["token"])["seat"] == 0
        for c in (ann_ws, bob_ws, again, back):
            c.close()
    actions = [(a["action"], a["target"], a["who"]) for a in admin(server, "GET", "/audit").json()]
    assert actions == [("lift", "127.0.0.2/31", "olga@127.0.0.1"), ("ban", "127.0.0.2/31", "olga@127.0.0.1")]


def test_a_banned_player_id_is_refused_with_its_key_and_at_its_seat(server: ServerThread) -> None:
    key = secrets.token_urlsafe(24)
    made = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "ann", "playerKey": key}).json()
    table = made["table"]["id"]
    assert admin(server, "POST", "/bans", json={"target": player_id(key)}).status_code == 200
    for path, body in (("/api/tables", {"preset": "short", "name": "ann"}),
                       ("/api/quickplay", {"name": "ann"}),
                       (f"/api/tables/{table}/join", {"name": "ann"}),
                       ("/api/seeks", {"game": "spite-malice", "name": "ann"})):
        answer = httpx.post(server.base + path, json={**body, "playerKey": key})
        assert answer.status_code == 403 and words_key(answer) == "error.banned", path
    seat = Client(server.base, table)
    seat.send({"type": "hello", "token": made["token"]})
    assert until_error(seat, "banned")["code"] == "banned"
    seat.close()
    # a guest from the same address still plays: the ban is on the player id
    assert httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "guest"}).status_code == 200


def test_a_closed_table_ends_for_everyone_at_it(server: ServerThread) -> None:
    made = httpx.post(server.base + "/api/quickplay", json={"name": "ann"}).json()
    table = made["table"]["id"]
    ann = Client(server.base, table)
    ann.hello(made["token"])
    closed = admin(server, "POST", f"/tables/{table}/close")
    assert closed.status_code == 200 and closed.json()["status"] == "abandoned"
    told = ann.until("table")
    for _ in range(20):  # the events before it (joined, started) first
        if told["event"]["kind"] == "abandoned":
            break
        told = ann.until("table")
    assert told["event"]["words"]["key"] == "event.abandoned.closed"
    assert httpx.get(server.base + f"/api/tables/{table}").json()["status"] == "abandoned"
    again = admin(server, "POST", f"/tables/{table}/close")
    assert again.status_code == 409 and words_key(again) == "admin.table-closed"
    assert admin(server, "POST", "/tables/nothere/close").status_code == 404
    ann.close()


def test_a_rename_shows_on_the_leaderboard_and_at_a_live_table(server: ServerThread) -> None:
    ann_key, bob_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    play_two(server, True, (ann_key, bob_key))
    board = wait_for(lambda: httpx.get(server.base + "/api/ratings?group=classic").json()["players"])
    assert {p["name"] for p in board} == {"ann", "bob"}
    # ann sits at a live table too
    made = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "ann", "playerKey": ann_key}).json()
    watcher = Client(server.base, made["table"]["id"])
    watcher.hello(spectate=True)
    renamed = admin(server, "POST", "/rename", json={"target": player_id(ann_key), "name": "anna"})
    assert renamed.status_code == 200, renamed.text
    told = watcher.until("table")
    assert told["event"]["kind"] == "renamed" and told["event"]["words"] == {"key": "event.renamed",
                                                                            "params": {"name": "anna"}}
    assert told["table"]["seats"][0]["player"] == "anna"
    board = httpx.get(server.base + "/api/ratings?group=classic").json()["players"]
    assert {p["name"] for p in board} == {"anna", "bob"}
    assert httpx.get(server.base + f"/api/tables/{made['table']['id']}").json()["seats"][0]["player"] == "anna"
    bad = admin(server, "POST", "/rename", json={"target": "nobody-at-all", "name": "x"})
    assert bad.status_code == 404 and words_key(bad) == "admin.no-player"
    watcher.close()


def test_players_report_names_and_tables_and_the_operator_clears_them(server: ServerThread) -> None:
    made = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "rude"}).json()
    table = made["table"]["id"]
    with http_from("127.0.0.4") as other:
        joined = other.post(server.base + f"/api/tables/{table}/join", json={"name": "kind"}).json()
        assert joined["seat"] == 1
        name = other.post(server.base + "/api/reports", json={"kind": "name", "table": table, "seat": 0,
                                                               "reason": "the name"})
        assert name.status_code == 200 and name.json()["status"] == "open"
        whole = other.post(server.base + "/api/reports", json={"kind": "table", "table": table})
        assert whole.status_code == 200
        free = other.post(server.base + "/api/reports", json={"kind": "name", "table": table, "seat": 5})
        assert free.status_code == 404 and words_key(free) == "report.no-name"
        nowhere = other.post(server.base + "/api/reports", json={"kind": "table", "table": "nothere"})
        assert nowhere.status_code == 404 and words_key(nowhere) == "lobby.no-table"
    waiting = admin(server, "GET", "/reports").json()
    assert [(r["kind"], r["name"], r["table"]) for r in waiting] == [("name", "rude", table), ("table", None, table)]
    assert admin(server, "POST", f"/reports/{waiting[0]['id']}/clear").status_code == 200
    assert [r["id"] for r in admin(server, "GET", "/reports").json()] == [waiting[1]["id"]]
    assert admin(server, "POST", f"/reports/{waiting[0]['id']}/clear").status_code == 404
    assert admin(server, "GET", "/audit").json()[0]["action"] == "clear"


@pytest.mark.slow
def test_a_player_exports_and_deletes_their_data_and_their_games_stay_anonymised(server: ServerThread) -> None:
    ann_key, bob_key = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    ann, bob = player_id(ann_key), player_id(bob_key)
    table = play_two(server, True, (ann_key, bob_key))
    wait_for(lambda: len(httpx.get(server.base + "/api/ratings?group=classic").json()["players"]) == 2)
    mine = httpx.post(server.base + "/api/players/me/export", json={"playerKey": ann_key}).json()
    assert mine["playerId"] == ann and [g["table"] for g in mine["games"]] == [table]
    assert mine["games"][0]["record"]["moves"] and mine["ratings"][0]["group"] == "classic"
    assert len(mine["ratingHistory"]) == 1 and mine["seats"][0]["name"] == "ann"
    assert "token" not in json.dumps(mine)
    assert admin(server, "GET", f"/players/{ann}/export").json()["games"] == mine["games"]
    gone = httpx.post(server.base + "/api/players/me/delete", json={"playerKey": ann_key})
    assert gone.status_code == 200 and gone.json()["ratings"] == 1
    # the leaderboard has only bob; bob's game is whole, ann's seat in it nameless and keyless
    board = httpx.get(server.base + "/api/ratings?group=classic").json()
    assert [p["playerId"] for p in board["players"]] == [bob] and board["total"] == 1
    (game,) = httpx.get(server.base + f"/api/players/{bob}/games").json()
    assert [(p["player"], p["playerId"]) for p in game["players"]] == [("p-deleted", None), ("bob", bob)]
    assert httpx.get(server.base + game["recordUrl"]).status_code == 200
    assert httpx.get(server.base + f"/api/players/{ann}/ratings").status_code == 404
    after = httpx.post(server.base + "/api/players/me/export", json={"playerKey": ann_key}).json()
    assert (after["games"], after["ratings"], after["seats"], after["ratingHistory"]) == ([], [], [], [])
    assert httpx.post(server.base + "/api/players/me/delete", json={"playerKey": ann_key}).status_code == 404
    actions = {a["action"]: a for a in admin(server, "GET", "/audit").json()}
    assert actions["delete"]["target"] == ann and actions["delete"]["who"] == f"{ann} (themself)"
    assert actions["export"]["target"] == ann and actions["export"]["who"] == "olga@127.0.0.1"


def run_admin(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "admin", *args], capture_output=True, text=True, timeout=60, env=env)


@pytest.mark.slow
def test_spite_admin_on_the_database_and_on_the_live_server(server: ServerThread, tmp_path: Path) -> None:
    import os

    made = httpx.post(server.base + "/api/tables", json={"preset": "short", "name": "ann"}).json()
    table = made["table"]["id"]
    env = {**os.environ, "SPITE_OPERATOR_TOKEN": TOKEN}
    listed = run_admin("--server", server.base, "--json", "tables", "--status", "open", env=env)
    assert listed.returncode == 0, listed.stderr
    assert [t["id"] for t in json.loads(listed.stdout)] == [table]
    shown = run_admin("--server", server.base, "--as", "olga", "close", table, env=env)
    assert shown.returncode == 0 and shown.stdout.strip() == f"table {table} closed"
    again = run_admin("--server", server.base, "close", table, env=env)
    assert again.returncode == 1 and again.stderr.count("\n") == 1 and "abandoned already" in again.stderr
    no_token = run_admin("--server", server.base, "bans", env={k: v for k, v in env.items()
                                                                if k != "SPITE_OPERATOR_TOKEN"})
    assert no_token.returncode == 2 and "SPITE_OPERATOR_TOKEN" in no_token.stderr
    # straight on a database (the server's own file, read beside it)
    url = str(server.manager.store.engine.url)
    banned = run_admin("--db", url, "--as", "olga", "ban", "203.0.113.0/24", "--reason", "flood")
    assert banned.returncode == 0, banned.stderr
    assert run_admin("--db", url, "--json", "bans").stdout.count("203.0.113.0/24") == 1
    bad = run_admin("--db", url, "ban", "not-a-target")
    assert bad.returncode == 2 and bad.stderr.startswith("spite: ") and "Traceback" not in bad.stderr
    missing = run_admin("--db", url, "lift", "999")
    assert missing.returncode == 1 and missing.stderr.strip() == "spite: there is no ban 999 in force"
    nowhere = run_admin("--db", f"sqlite:///{tmp_path / 'none.db'}", "bans")
    assert nowhere.returncode == 2 and "there is no database" in nowhere.stderr
    engine = db.make_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(sa.select(db.audit.c.who, db.audit.c.action).order_by(db.audit.c.id)).all()
    engine.dispose()
    assert [tuple(r) for r in rows] == [("olga@127.0.0.1", "close"), ("olga (database)", "ban")]
    # the live server takes the ban made beside it at its next look at the audit
    assert not server.manager.moderation.bans.address("203.0.113.9")
    assert server.run(server.manager.moderation.follow()).bans == 0  # no socket of that range to close
    assert server.manager.moderation.bans.address("203.0.113.9")
