"""Players own their name (docs/protocol.md, "Players and names"): games count for the player id
made from a secret key the browser or terminal app keeps; the display name is only a label, and names
with control, bidi or zero-width characters are refused."""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from server_helpers import Client, ServerThread
from test_protocol import play_random

from spite.server import ServerConfig, db
from spite.server.table.seats import player_id
from spite.tui.link import player_key
from waiting import wait_until


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=0, rate=1000, burst=2000,
                          write_burst=100, max_open_tables=100)
    with ServerThread(config) as srv:
        yield srv


def play_a_quick_game(srv: ServerThread, **body: Any) -> dict[str, Any]:
    """A quick game against the random bot, played to its end; the join answer."""
    joined: dict[str, Any] = httpx.post(srv.base + "/api/quickplay", json={
        "level": "random", "preset": "short", "options": {"stock_size": 3}, **body}).json()
    c = Client(srv.base, joined["table"]["id"])
    try:
        c.hello(joined["token"])
        play_random({0: c}, random.Random(3))
        c.until("gameOver", timeout=30)
    finally:
        c.close()
    return joined


def games(srv: ServerThread, player: str, want: int) -> int:
    """``player``'s games in their statistics, once they are ``want`` (they are written with the last
    move, just before gameOver)."""
    counted: list[int] = []

    def count() -> bool:
        stats = httpx.get(srv.base + f"/api/players/{player}/stats").json()
        counted.append(sum(p["games"] for p in stats["presets"]))
        return counted[-1] == want

    wait_until(count, lambda: f"{want} games in {player}'s statistics (counted {counted[-1]})", timeout=5)
    return counted[-1]


def test_statistics_belong_to_the_player_id_not_the_name(server: ServerThread, tmp_path: Path) -> None:
    mine, theirs = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    first = play_a_quick_game(server, name="ann", playerKey=mine)
    assert first["playerId"] == player_id(mine) and first["playerId"].startswith("p-")
    play_a_quick_game(server, name="ann", playerKey=theirs)  # someone else calls themselves ann
    play_a_quick_game(server, name="ann")  # and a guest too
    assert games(server, player_id(mine), 1) == 1
    assert games(server, player_id(theirs), 1) == 1
    assert games(server, "ann", 1) == 1, "a name counts only the games played without a player id"
    # my games, by my id: the seat is mine, shown under the name I gave
    listed = httpx.get(server.base + f"/api/players/{player_id(mine)}/games").json()
    assert [g["tableId"] for g in listed] == [first["table"]["id"]]
    assert listed[0]["players"][0] == {**listed[0]["players"][0], "player": "ann", "playerId": player_id(mine)}
    # a new name, the same key: still my statistics
    play_a_quick_game(server, name="annie", playerKey=mine)
    assert games(server, player_id(mine), 2) == 2
    # the key itself is kept nowhere on the server
    raw = (tmp_path / "spite.db").read_bytes() + b"".join(
        p.read_bytes() for p in tmp_path.glob("spite.db-*"))
    assert mine.encode() not in raw and player_id(mine).encode() in raw


@pytest.mark.parametrize(("name", "char"), [("ann\u202e", "U+202E"), ("a\u200bnn", "U+200B"), ("an\u2066n", "U+2066"),
                                            ("ann\x07", "U+0007"), ("\ufeffann", "U+FEFF")])
def test_names_with_control_bidi_or_zero_width_characters_are_refused(server: ServerThread, name: str,
                                                                         char: str) -> None:
    for path in ("/api/tables", "/api/quickplay"):
        r = httpx.post(server.base + path, json={"name": name, "preset": "short"})
        assert r.status_code == 422 and r.json()["code"] == "bad-name", r.text
        assert char in r.json()["detail"]


@pytest.mark.parametrize("name", ["bot:random", "Bot:Medium", "p-d1db486dd84a995986b8bf06"])
def test_names_the_statistics_keep_for_themselves_are_refused(server: ServerThread, name: str) -> None:
    """A guest named ``bot:random`` would be counted in that computer player's statistics, one named
    like a player id in that player's."""
    for path in ("/api/tables", "/api/quickplay"):
        r = httpx.post(server.base + path, json={"name": name, "preset": "short"})
        assert r.status_code == 422 and r.json()["code"] == "bad-name", r.text
        assert "may not begin with bot: or p-" in r.json()["detail"]
    table = httpx.post(server.base + "/api/tables", json={"name": "ann", "preset": "short"}).json()
    join = httpx.post(server.base + f"/api/tables/{table['table']['id']}/join", json={"name": name})
    assert join.status_code == 422 and join.json()["code"] == "bad-name"
    fine = httpx.post(server.base + "/api/tables", json={"name": "robot:x", "preset": "short"})
    assert fine.status_code == 200  # only the prefixes themselves are kept


def test_names_are_normalised(server: ServerThread) -> None:
    r = httpx.post(server.base + "/api/tables", json={"name": "  Jose\u0301 ", "preset": "short"})
    assert r.status_code == 200, r.text
    assert r.json()["table"]["seats"][0]["player"] == "Jos\u00e9"
    blank = httpx.post(server.base + "/api/tables", json={"name": "   ", "preset": "short"})
    assert blank.status_code == 422 and blank.json()["code"] == "bad-name"


def test_a_bad_player_key_is_refused(server: ServerThread) -> None:
    for key in ("short", "x" * 65, "has spaces in it, twenty-two+"):
        r = httpx.post(server.base + "/api/quickplay", json={"name": "bo", "playerKey": key})
        assert r.status_code == 422 and "playerKey" in r.json()["detail"]


def test_the_terminal_app_keeps_one_key(tmp_path: Path) -> None:
    key = player_key(tmp_path)
    assert player_key(tmp_path) == key and len(key) >= 32
    assert (tmp_path / "player-key").stat().st_mode & 0o077 == 0  # the user's alone
    assert player_key(tmp_path / "other") != key


def test_old_games_stay_counted_under_their_names_after_the_migration(tmp_path: Path) -> None:
    engine = db.make_engine(f"sqlite:///{tmp_path / 'old.db'}")
    db.migrate(engine, "0002")
    with engine.begin() as c:
        c.execute(sa.text("INSERT INTO spite_games (id, table_id, game, preset, record, result, plies, turns, "
                          "finished_at) VALUES (1, 't', 'spite-malice', 'short', '{}', '{}', 3, 2, 0)"))
        c.execute(sa.text("INSERT INTO spite_game_players (game_id, seat, player, is_bot, won, points) "
                          "VALUES (1, 0, 'ann', 0, 1, 1)"))
    db.migrate(engine)
    from spite.server.store import Store

    with engine.connect() as c:
        assert Store.stats_of(c, "ann")[0]["games"] == 1
    engine.dispose()
