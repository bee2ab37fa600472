"""``GET /api/games/{id}/positions``: a finished game replayed for the browser's replay viewer (the app
in this process: REST alone needs no socket)."""

from __future__ import annotations

import pytest
from server_helpers import InProcess

from helpers import finished_bot_game, finished_spit_game
from spite.malice.record import new_record
from spite.records import record_from_json, replay
from spite.server.protocol import PositionsInfo
from spite.server.store import Store


def test_positions_of_a_finished_game(api: InProcess) -> None:
    game_id = finished_bot_game(api.client, stock_size=4)
    record = api.client.get(f"/api/games/{game_id}/record").json()
    r = api.client.get(f"/api/games/{game_id}/positions")
    assert r.status_code == 200, r.text
    info = PositionsInfo.model_validate(r.json())
    texts = [m for m in record["moves"] if isinstance(m, str)]
    assert [m["move"] for m in info.moves] == texts
    assert len(info.positions) == len(texts) + 1
    assert info.result == record["result"] and info.preset == "short" and info.tableId
    assert [p["player"] for p in info.players] == ["bot:easy", "bot:random"]
    last = info.positions[-1]
    assert last["finished"] and last["result"] == record["result"]
    assert last == replay(record_from_json(record)).show()
    first = info.positions[0]
    assert not first["finished"] and all(p["stock"] == 4 for p in first["players"])
    assert all("hand" in p and "stock_cards" in p for p in first["players"])  # the whole table
    assert info.moves[0]["seat"] == first["to_move"]


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_positions_of_a_finished_spit_or_speed_game(api: InProcess, game: str) -> None:
    game_id = finished_spit_game(api.client, game)
    record = api.client.get(f"/api/games/{game_id}/record").json()
    r = api.client.get(f"/api/games/{game_id}/positions")
    assert r.status_code == 200, r.text
    info = PositionsInfo.model_validate(r.json())
    assert info.game == game and info.preset == game and info.result == record["result"]
    entries = [e for e in record["moves"] if "t" in e]  # moves and the time limit's tick, not chance entries
    assert [(m["seat"], m["move"], m["t"]) for m in info.moves] == [(e.get("p"), e.get("m"), e["t"]) for e in entries]
    assert len(info.positions) == len(info.moves) + 1
    assert [p["player"] for p in info.players] == ["bot:reflex:30", "bot:reflex:60"]
    last, first = info.positions[-1], info.positions[0]
    assert last["finished"] and last["result"] == record["result"] and last["phase"] == "over"
    shown = replay(record_from_json(record)).show()
    assert {k: v for k, v in last.items() if k in shown} == {k: v for k, v in shown.items() if k != "players"} | {
        "players": last["players"]}
    for mine, theirs in zip(last["players"], shown["players"], strict=True):
        assert {k: v for k, v in mine.items() if k in theirs} == theirs
    assert not first["finished"] and first["t"] == 0
    assert [p["t"] for p in info.positions[1:]] == [m["t"] for m in info.moves]


def test_positions_unknown_and_unfinished(api: InProcess) -> None:
    assert api.client.get("/api/games/999/positions").status_code == 404
    assert api.client.get("/api/games/abc/positions").status_code == 422
    # a stored game without a result (never written by the server itself): 409, not a crash
    table = api.client.post("/api/tables", json={"preset": "short", "name": "ann"}).json()["table"]
    record = new_record("short", {}, seed=3).to_json()
    assert "result" not in record
    game_id = api.run(api.manager.store.write(
        Store.insert_game(table["id"], "spite-malice", "short", record, 0, 0, [])))
    r = api.client.get(f"/api/games/{game_id}/positions")
    assert r.status_code == 409 and "not finished" in r.json()["detail"]
