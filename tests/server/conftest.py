"""Fixtures for the server tests: a database URL per backend, a server in a thread, the app in process."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import PG_ENV, InProcess, ServerThread, pg_database

from spite.server import ServerConfig

BACKENDS = ["sqlite", pytest.param("postgresql", marks=[pytest.mark.postgres, pytest.mark.skipif(
    not os.environ.get(PG_ENV), reason=f"{PG_ENV} is not set")])]


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """SQLite in a temporary folder; PostgreSQL (a fresh database, at the newest schema already) when
    SPITE_TEST_PG_URL is set."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'spite.db'}"
        return
    with pg_database(os.environ[PG_ENV], migrated=True) as url:
        yield url


@pytest.fixture
def server(db_url: str) -> Iterator[ServerThread]:
    """A real server (uvicorn, real sockets) in a thread; bots in a thread; a grace time short enough
    for the takeover test, long enough for a joining client to connect on a busy machine."""
    # every test client comes from 127.0.0.1, whose one message budget its sockets share: two players
    # racing through a match send several hundred moves a second
    config = ServerConfig(db_url=db_url, bot_workers=0, grace_seconds=2.0, rate=1000, burst=2000,
                          replacement_level="easy", start_countdown=0.0)
    with ServerThread(config) as srv:
        yield srv


@pytest.fixture
def api(db_url: str) -> Iterator[InProcess]:
    """The app in this process, for tests of REST endpoints alone (no socket, no uvicorn): the
    ``server`` fixture's settings."""
    config = ServerConfig(db_url=db_url, bot_workers=0, grace_seconds=2.0, rate=1000, burst=2000,
                          replacement_level="easy", start_countdown=0.0)
    with InProcess(config) as app:
        yield app
