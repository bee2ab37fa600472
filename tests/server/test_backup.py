"""Backups (docs/deploy.md, "Backups"): ``spite backup`` taken while tables are playing, ``spite
restore`` into a fresh database, a fresh server on it: every table goes on from (at least) its last
move acknowledged before the backup began, and plays to its end. SQLite (the online backup API) and
PostgreSQL (``pg_dump``/``pg_restore``) when ``SPITE_TEST_PG_URL`` is set. Refusals are one line."""

from __future__ import annotations

import contextlib
import os
import random
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from server_helpers import PG_ENV, Client, ServerProcess, pg_database
from test_protocol import play_random

CLI = [sys.executable, "-c", "from spite.cli import main; main()"]


def spite(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120)


@contextlib.contextmanager
def fresh_database(db_url: str, tmp_path: Path) -> Iterator[str]:
    """Another empty database of the same kind."""
    if db_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.db'}"
        return
    with pg_database(os.environ[PG_ENV]) as url:
        yield url


def seat_pair(base: str) -> tuple[str, dict[int, Client], dict[int, str]]:
    made = httpx.post(base + "/api/tables", json={"preset": "short", "name": "ann"}).json()
    table = made["table"]["id"]
    joined = httpx.post(base + f"/api/tables/{table}/join", json={"name": "bob"}).json()
    clients = {0: Client(base, table), 1: Client(base, table)}
    clients[0].hello(made["token"])
    clients[1].hello(joined["token"])
    return table, clients, {0: made["token"], 1: joined["token"]}


@pytest.mark.slow
def test_a_backup_taken_during_play_restores_every_table_from_its_last_acknowledged_move(
        db_url: str, tmp_path: Path) -> None:
    limits = ("--bot-workers", "0", "--limit", "rate=1000", "--limit", "burst=2000", "--limit", "write_burst=100")
    first = ServerProcess(db_url, None, *limits).start()
    tables: dict[str, dict[int, str]] = {}
    acked: dict[str, int] = {}
    try:
        playing: list[tuple[str, dict[int, Client]]] = []
        for n in range(3):
            table, clients, tokens = seat_pair(first.base)
            tables[table] = tokens
            play_random(clients, random.Random(n), limit=6 + 2 * n)
            playing.append((table, clients))
        for table, clients in playing:  # what each table's players were told was stored
            acked[table] = max(c.newest for c in clients.values())
        # one table plays on while the backup is taken
        _table, busy = playing[0]
        stop = threading.Event()

        def keep_playing() -> None:
            rng = random.Random(99)
            for _ in range(40):  # at most 40 moves more: the game may end, the others surely do not
                if stop.is_set() or play_random(busy, rng, limit=1) == 0:
                    return

        player = threading.Thread(target=keep_playing, daemon=True)
        player.start()
        backup = tmp_path / "spite.backup"
        took = spite("backup", str(backup), "--db", db_url)
        stop.set()
        player.join(30)
        assert took.returncode == 0, took.stderr
        assert re.fullmatch(r"spite: backed up [23] tables and [01] games to .* \([\d,]+ bytes in [\d.]+ s\)\n",
                            took.stderr), took.stderr
        refused = spite("backup", str(backup), "--db", db_url)  # never over an existing backup unasked
        assert refused.returncode == 2 and refused.stderr.strip() == f"spite: {backup} exists already " \
                                                                      "(--force overwrites it)"
        for _table, clients in playing:
            for c in clients.values():
                c.close()
    finally:
        first.stop()
    with fresh_database(db_url, tmp_path) as target:
        done = spite("restore", str(backup), "--db", target)
        assert done.returncode == 0, done.stderr
        again = spite("restore", str(backup), "--db", target)
        assert again.returncode == 2 and "--force" in again.stderr and again.stderr.count("\n") == 1
        second = ServerProcess(target, None, *limits).start()
        try:
            went_on = 0
            for table, tokens in tables.items():
                clients = {seat: Client(second.base, table) for seat in tokens}
                welcomes = {seat: c.hello(tokens[seat]) for seat, c in clients.items()}
                assert min(w["stateVersion"] for w in welcomes.values()) >= acked[table], table
                if not welcomes[0]["view"]["finished"]:  # (the busy table's game may have ended meanwhile)
                    assert play_random(clients, random.Random(7)) > 0
                    assert clients[0].until("gameOver", timeout=30)["gameId"] is not None
                    went_on += 1
                for c in clients.values():
                    c.close()
            assert went_on >= 2
        finally:
            second.stop()


def test_backup_and_restore_refuse_in_one_line(tmp_path: Path) -> None:
    missing = spite("backup", str(tmp_path / "b"), "--db", f"sqlite:///{tmp_path / 'none.db'}")
    assert missing.returncode == 2
    assert missing.stderr.strip() == f"spite: there is no database at {tmp_path / 'none.db'}"
    (tmp_path / "junk").write_text("not a backup")
    junk = spite("restore", str(tmp_path / "junk"), "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert junk.returncode == 2 and "is not a backup of a SQLite database" in junk.stderr
    assert "Traceback" not in missing.stderr + junk.stderr
