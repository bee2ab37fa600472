"""A fourth game proves that a game is one folder (issue 49): Pebbles lives under tests/fourth_game only,
is registered at run time with the registry call a family makes, and is served (quick play against its
bot over the real server's WebSocket), played in the terminal app, and found by the page through its own
folder, while no file under src/ names it. (Its Hypothesis promises: tests/server/test_table_promises.py;
its page: tests/web/test_web_fourth_game.py.)"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import spite
from fourth_game import NAME, registered
from fourth_game.game import PRESETS
from fourth_game.serve import pebbles_server

pytestmark = pytest.mark.slow

SRC = Path(spite.__file__).parent
FOLDER = Path(__file__).parent


def test_adding_the_game_edits_no_shared_file() -> None:
    """No file under src/ names the game or its presets: everything it brings is in its folder, and its
    registry line runs at run time."""
    words = {NAME, *PRESETS, "fourth_game", "fourth-game"}
    pattern = re.compile("|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)), re.IGNORECASE)
    named = [str(p.relative_to(SRC)) for p in SRC.rglob("*") if p.is_file() and p.suffix != ".pyc"
             and pattern.search(p.read_text(encoding="utf-8", errors="replace"))]
    assert named == []
    assert {p.name for p in FOLDER.rglob("*") if p.is_file() and p.suffix in (".py", ".js")} >= {
        "game.py", "server.py", "bots.py", "tui.py", "pebbles.js"}
    # and outside the block that registers it, the registry does not know it
    from spite.games import game_names

    assert NAME not in game_names()
    with registered():
        assert NAME in game_names()
    assert NAME not in game_names()


def _play_quick_game(base: str) -> dict[str, Any]:
    """Quick play against the game's bot, every move over the WebSocket, to the end: the game-over."""
    joined = httpx.post(base + "/api/quickplay", json={"name": "Tess", "game": NAME, "level": "random"},
                        timeout=30).json()
    table = joined["table"]
    assert table["game"] == NAME, joined
    with connect(base.replace("http", "ws", 1) + f"/ws/{table['id']}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "token": joined["token"]}))
        newest: dict[str, Any] | None = None
        for _ in range(400):  # a game is at most ten moves; each brings a few messages
            msg = json.loads(ws.recv(10))
            if msg["type"] == "gameOver":
                assert newest is not None
                return {"over": msg, "last": newest, "seat": joined["seat"]}
            newer = newest is None or msg.get("stateVersion", -1) >= newest["stateVersion"]
            if msg["type"] in ("welcome", "state") and newer:
                newest = msg
                view = msg["view"]
                # the seat sees its own hand, never the other's
                assert "hand" in view["players"][joined["seat"]]
                assert "hand" not in view["players"][1 - joined["seat"]]
                if msg["legal"]:
                    ws.send(json.dumps({"type": "move", "move": msg["legal"][0], "stateVersion": msg["stateVersion"],
                                        "id": f"m{msg['stateVersion']}"}))
        raise AssertionError("the game did not end within 400 messages")


def test_quick_play_against_its_bot_over_the_real_server(tmp_path: Path) -> None:
    with pebbles_server(tmp_path / "spite.db") as base:
        types = {t["name"]: t for t in httpx.get(base + "/api/game-types").json()}
        assert types[NAME]["page"] == f"/static/games/{NAME}/pebbles.js"
        assert types[NAME]["levels"] == ["random"] and not types[NAME]["realtime"]
        module = httpx.get(base + types[NAME]["page"])
        assert module.status_code == 200 and "export function openGame" in module.text
        # the page of one game is not served under another's folder
        assert httpx.get(base + "/static/games/spit/pebbles.js").status_code == 404
        played = _play_quick_game(base)
        result = played["over"]["result"]
        assert result["winner"] in (0, 1) and result["reason"] in ("last", "stuck")
        # the record is kept and replays to the same end (its positions come from the game's hook)
        game_id = played["over"]["gameId"]
        record = httpx.get(base + f"/api/games/{game_id}/record").json()
        assert record["game"] == NAME and record["result"] == result
        positions = httpx.get(base + f"/api/games/{game_id}/positions").json()
        assert len(positions["positions"]) == len(record["moves"]) + 1
        assert positions["positions"][-1]["pile"] == played["last"]["view"]["pile"]


def test_it_plays_in_the_terminal_app_to_the_end() -> None:
    from textual.widgets import Static

    from fourth_game.tui import PebblesScreen
    from spite import catalogue
    from spite.tui.app import SpiteApp, TuiConfig, check_config, tui_games

    with registered():
        assert NAME in tui_games()
        # its words come from its own folder, merged into the catalogue; the shared words know none of them
        assert catalogue.text("de", "tui.pebbles.pile", n=3) == "Noch 3 Kiesel"
        assert not any(k.startswith(("pebbles.", "tui.pebbles.")) for k in catalogue.shared("en"))
        config = TuiConfig(game=NAME, seed=4, lang="de")
        check_config(config)
        app = SpiteApp(config)
        seen: dict[str, str] = {}

        async def main() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                screen = app.game_screen
                assert isinstance(screen, PebblesScreen)
                for _ in range(12):  # at most ten moves a game
                    if screen.state.is_over:
                        break
                    value = screen.state.legal_moves(0)[0][1:]
                    await pilot.press(value)
                    await pilot.pause()
                seen["line"] = str(screen.query_one("#pebbles-said", Static).render())
                seen["pile"] = str(screen.query_one("#pebbles-pile", Static).render())
                assert screen.state.is_over

        asyncio.run(main())
    assert "gewonnen" in seen["line"]
    assert re.search(r"Noch \d+ Kiesel", seen["pile"])
    assert not catalogue.has("tui.pebbles.pile")  # the registry as it was: its words gone with it
