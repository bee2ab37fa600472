"""The bot workers: shared fairly between tables, and gone when the server is (docs/protocol.md,
"Limits")."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import Client, ServerProcess, ServerThread

from spite.bots import make_bot
from spite.malice.server import bot_spec
from spite.server import ServerConfig
from waiting import wait_until


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting for its parent to collect it does not)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


@pytest.mark.timeout(180)  # twelve expert tables and sixty timed replies
def test_an_easy_bot_answers_within_a_second_beside_twelve_expert_tables(tmp_path: Path) -> None:
    """Twelve bots-only tables of expert bots (thinking up to a second a move, without pause) keep
    both workers busy; a person playing an easy bot still gets each of its moves quickly."""
    config = ServerConfig(db_url=f"sqlite:///{tmp_path / 'spite.db'}", bot_workers=2, bot_delay=0.0,
                          write_burst=100, max_open_tables=100, rate=500, burst=1000, grace_seconds=600)
    with ServerThread(config) as srv:
        for _ in range(12):
            r = httpx.post(srv.base + "/api/tables", timeout=10, json={
                "preset": "classic", "name": "x", "join": False,
                "seats": [{"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "expert"}]})
            assert r.status_code == 200, r.text
        # the workers have started (imports take seconds) and are busy with the experts
        wait_until(lambda: srv.manager.bots.decisions >= 24, "the expert bots' first 24 decisions", timeout=60)
        assert srv.manager.bots.waiting() >= 5, "the expert tables do not keep the workers busy"
        rng = random.Random(7)
        replies: list[float] = []
        for _ in range(60):  # games against the easy bot until 60 of its replies were timed
            if len(replies) >= 60:
                break
            r = httpx.post(srv.base + "/api/quickplay", timeout=10,
                           json={"name": "ann", "level": "easy", "preset": "classic"})
            assert r.status_code == 200, r.text
            joined = r.json()
            c = Client(srv.base, joined["table"]["id"])
            msg: dict[str, Any] | None
            try:
                msg = c.hello(joined["token"])
                last = now = time.monotonic()
                for _ in range(10_000):  # the messages of one game (it ends long before)
                    if len(replies) >= 60:
                        break
                    if msg is None:
                        msg = c.recv(30)
                        now = time.monotonic()
                    if msg["type"] == "gameOver":
                        break
                    if msg["type"] != "state" and msg["type"] != "welcome":
                        msg = None
                        continue
                    if msg["type"] == "state" and msg["last"] and msg["last"]["byBot"]:
                        replies.append(now - last)  # since our move (or the bot's move before) was told
                    last = now
                    if msg["legal"] and msg["stateVersion"] >= c.newest:
                        c.send({"type": "move", "move": rng.choice(msg["legal"]), "stateVersion": msg["stateVersion"]})
                    msg = None
            finally:
                c.close()
        assert len(replies) >= 60, f"60 games against the easy bot gave {len(replies)} timed replies"
        still_busy = srv.manager.bots.waiting()
    replies.sort()
    p99 = replies[int(0.99 * (len(replies) - 1))]
    assert still_busy >= 5, "the expert tables stopped being busy while the easy bot was measured"
    # behind the five or more expert decisions waiting (up to a second each) a reply would take seconds; ahead
    # of them it takes a fraction of one, even with the suite's other workers on the same two cores
    assert p99 < 2.0, f"the easy bot's replies took {[round(x, 2) for x in replies[-5:]]} s at the worst"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_bot_workers_end_with_a_killed_server(tmp_path: Path) -> None:
    srv = ServerProcess(f"sqlite:///{tmp_path / 'spite.db'}", None, "--bot-workers", "2", "--bot-delay", "0")
    srv.start()
    below: set[int] = set()
    try:
        assert srv.proc is not None
        for _ in range(3):  # bots-only tables: the workers start with the first job
            httpx.post(srv.base + "/api/tables", timeout=10, json={
                "preset": "short", "name": "x", "join": False,
                "seats": [{"kind": "bot", "level": "medium"}, {"kind": "bot", "level": "medium"}]})
        server = srv.proc.pid

        def workers() -> set[int] | None:  # two workers and the resource tracker
            found = _descendants(server)
            return found if len(found) >= 3 else None

        below = wait_until(workers, lambda: f"two bot workers and a resource tracker below the server (found "
                           f"{sorted(_descendants(server))})", timeout=30)
        srv.kill9()
        with contextlib.suppress(AssertionError):  # the assertion below names who is left
            wait_until(lambda: not any(_alive(p) for p in below), "the end of the server's workers")
        left = sorted(p for p in below if _alive(p))
    finally:
        srv.stop()
        for pid in below:  # the server's own workers, should the test fail
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert not left, f"processes outlived the server: {left}"


def test_a_levels_search_is_capped_at_the_servers_budget_and_keeps_its_settings() -> None:
    """The server caps a search's seconds at its bot budget; the search's other settings (such as
    ``blend``) are kept, and a level that is no search is left as it is."""
    assert bot_spec("search:1.0,blend=700", 0.3) == "search:0.3,blend=700"
    assert bot_spec("search:0.2,horizon=3", 1.0) == "search:0.2,horizon=3"
    assert bot_spec("expert", 0.5) == "search:0.5,value=turn"  # the level's search keeps its value
    assert bot_spec("hard", 0.5) == "learned" and bot_spec("random", 0.5) == "random"
    bot = make_bot(bot_spec("search:2,blend=700,confidence=1", 0.4))
    assert (bot.budget, bot.blend, bot.confidence) == (0.4, 700.0, 1.0)  # type: ignore[attr-defined]
