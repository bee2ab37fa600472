"""Settings of one server process (``spite serve`` fills them from its command line)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["BOT_LEVELS", "ServerConfig", "default_db_url"]

BOT_LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "expert")
"""The bots a table may seat. Levels map to bot specs in :data:`spite.bots.LEVELS`; free-form
specs (``cmd:…`` would run a program, ``search:…`` any budget) are never taken from a client."""


def default_db_url() -> str:
    """SQLite in the user's data directory (``platformdirs``), created on demand."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("spite", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'spite.db'}"


@dataclass
class ServerConfig:
    """Everything a server process can be told.

    * ``db_url``: SQLAlchemy URL (``sqlite:///path`` or ``postgresql://user@host/db``); ``None``
      means :func:`default_db_url`.
    * ``grace_seconds``: how long a dropped seat waits for its player before a bot takes it.
    * ``replacement_level``: the bot level that takes a dropped seat.
    * ``bot_budget``: the most seconds a bot may think about one move (levels ask for less or more;
      the budget is capped here).
    * ``bot_delay``: a pause before each bot move, so people can follow (0 in tests and benches).
    * ``bot_workers``: processes that run bots (0: a thread of this process, for tests).
    * ``rate``/``burst``: messages per second a connection may send (token bucket).
    * ``max_message``: longest client message in bytes.
    * ``open_table_ttl``: seconds an open table waits for its players before it is abandoned.
    * ``migrate``: upgrade the database schema on start (Alembic).
    * ``hint_level``: the bot that answers ``hint`` (a level; it sees only the asking seat's view).
    * ``next_game_seconds``: at a match table, how long the finished game stays on show before the
      next one begins when not every person seat has sent ``next`` (bots never wait).
    * ``spit_countdown``: seconds between a Spit or Speed game's start (the last seat taken) and the
      first moment a card may be played ("one, two, three — spit!").
    * ``sqlite_synchronous``: SQLite's ``synchronous`` in WAL mode. ``NORMAL`` (default): a commit
      survives the server's death (``kill -9``) but an OS crash or power cut may lose the last
      commits; ``FULL``: every commit is fsynced (survives power cuts; ~5 ms per group commit here).
    """

    db_url: str | None = None
    grace_seconds: float = 60.0
    replacement_level: str = "medium"
    bot_budget: float = 1.0
    bot_delay: float = 0.0
    bot_workers: int = 1
    rate: float = 30.0
    burst: float = 60.0
    max_message: int = 4096
    open_table_ttl: float = 24 * 3600.0
    hint_level: str = "hard"
    next_game_seconds: float = 30.0
    spit_countdown: float = 3.0
    migrate: bool = True
    sqlite_synchronous: str = "NORMAL"
    process_name: str = field(default_factory=lambda: _process_name())

    def resolved_db_url(self) -> str:
        """The database URL to use (the default one if none was given)."""
        return self.db_url or default_db_url()


def _process_name() -> str:
    import os
    import socket

    return f"{socket.gethostname()}:{os.getpid()}"
