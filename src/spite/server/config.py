"""Settings of one server process (``spite serve`` fills them from its command line)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["BOT_LEVELS", "LIMITS", "ServerConfig", "default_db_url", "with_limits"]

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
    * ``bot_workers``: processes that run bots (``None``: one per core; 0: threads of this process, for
      tests); every table's bots share them fairly (:class:`~spite.server.bots.BotRunner`).
    * ``rate``/``burst``: WebSocket messages per second one client address may send, over all its
      sockets together (one token bucket per address).
    * ``max_message``: longest client message in bytes (longer ones are answered ``too-long``).
    * ``ws_max_frame``: longest WebSocket frame the transport reads at all (above it the WebSocket
      library closes with 1009); between ``max_message`` and this the app answers ``too-long``.
    * ``max_body``: longest HTTP request body in bytes (413, checked before parsing).
    * ``write_rate``/``write_burst``: REST writes (create, quick play, join) per second per client
      address (token bucket; 429 with ``Retry-After``).
    * ``max_open_tables``: open or playing tables one client address may have created (429).
    * ``max_seeks``: seeks ("play a person") one client address may have waiting at once (429);
      ``seek_ttl``: a waiting seek nobody asked about for this many seconds is dropped;
      ``seek_computer_floor``: the shortest ``computerAfter`` a seek may ask for (a computer table
      made for a seek costs the server a bot's work; docs/ratings.md).
    * ``abort_limit``/``abort_window``: a player who aborted this many rated games (left before every
      side had moved) within ``abort_window`` seconds may not start rated play until the oldest of
      them is that old (429; 0: no limit).
    * ``lobby_page``/``lobby_page_max``: tables per ``GET /api/tables`` page (default, most).
    * ``hello_timeout``: seconds a new WebSocket has to say ``hello`` before it is closed.
    * ``max_sockets``: open WebSockets per client address (more are refused at the handshake, 429).
    * ``flood_cooldown``: seconds after one of its sockets went over the message budget (and was
      closed at once) during which an address may open no new WebSocket (refused at the handshake,
      429; 0: no cool-down).
    * ``proxy_connections``/``proxy_requests``: the backstops HAProxy keeps in front of the server
      (``spite serve --proxy`` or ``--workers N``): connections per client address open at once, and
      opened in 10 s (more are closed as they connect), and HTTP requests per client address in 10 s (more are
      answered 429 by the proxy, with ``Retry-After``), so a flood of connections or requests is
      refused in the proxy's C code and never reaches the server's event loop. Both sit well above
      what the server's own limits let a client do.
    * ``open_table_ttl``: seconds an open table waits for its players before it is abandoned.
    * ``abandon_seconds``: a playing table at which no person has been connected for this long is
      closed (``abandoned``), not played out by bots for nobody (0: never). A table with one person
      seat (quick play) is closed already when its person's grace time ends.
    * ``turn_seconds``: a connected person seat that does not act for this long while it is to act is
      taken over by a bot (``replacement_level``) until its player acts again (0: never); only at
      tables whose game has turns.
    * ``idle_seconds``: in a real-time game, a person seat that holds a move it could make
      and makes none for this long is taken over by a bot as one who left, until its player moves again
      (0: never).
    * ``turn_warning``: seconds before either moment the table is told (event ``turn-clock``).
    * ``migrate``: upgrade the database schema on start (Alembic).
    * ``hint_level``: the bot that answers ``hint`` (a level; it sees only the asking seat's view).
    * ``review_budget``: seconds of search per turn of a game review (``GET /api/games/{id}/review``).
    * ``review_queue``: the most reviews waiting or being made at once (more are refused, 503).
    * ``review_rate``/``review_burst``: reviews one client address may start (a token bucket: at most
      ``review_burst`` at once, ``review_rate`` a second after that; 429). A review made already costs nothing.
    * ``next_game_seconds``: at a match table, how long the finished game stays on show before the
      next one begins when not every person seat has sent ``next`` (bots never wait).
    * ``start_countdown``: seconds between a real-time game's start (its deal) and the
      first moment a move may be made (its start countdown).
    * ``cluster``: this process is one of several workers on one PostgreSQL database (``spite serve
      --workers N``): it holds tables by lease (:mod:`spite.server.leases`) rather than every live one,
      and its lobby lists come from the database. ``address``: where it listens (``host:port``, kept
      with its heartbeat row).
    * ``deal_seed``: tests only (``python -m spite.server --predictable-deals SEED``): table ids and the
      fair deals' secrets come from this seed instead of :mod:`secrets`, so the same requests make the
      same deals. Never for a real server: whoever knows the seed knows every secret.
    * ``operator_token``: the secret that opens the operator's endpoints (``/api/admin/…``, ``spite admin
      --server``); ``None`` (default): they answer 404. Read from ``SPITE_OPERATOR_TOKEN`` by ``spite
      serve``, never written on a command line (a worker of several gets it in its environment).
    * ``moderation_poll``: seconds between two looks of a process at the operator's actions (bans,
      closed tables, new names) when nothing announced one: under PostgreSQL every worker hears of an
      action at once (``NOTIFY``); ``spite admin --db`` on SQLite beside a running server is seen
      within this.
    * ``forwarded_allow_ips``: the addresses whose ``X-Forwarded-For`` uvicorn believes (the proxy in
      front; comma-separated, ``*`` for any): everyone else is counted by their own address.
    * ``metrics_port``: serve Prometheus's ``/metrics`` on this loopback port (``None``: no metrics;
      :mod:`spite.server.metrics`), never on the public one.
    * ``log_format``: ``text`` (default) or ``json`` (one JSON object a line).
    * ``sqlite_synchronous``: SQLite's ``synchronous`` in WAL mode. ``NORMAL`` (default): a commit
      survives the server's death (``kill -9``) but an OS crash or power cut may lose the last
      commits; ``FULL``: every commit is fsynced (survives power cuts; ~5 ms per group commit here).
    * ``account_origin``: the page's origin as browsers see it (``https://spite.example``), which passkeys
      are bound to (their relying party is its host name) and which a signed-in browser's writes must
      come from (docs/accounts.md); ``None``: each request's own scheme and ``Host``.
    * ``link_seconds``: how long a device link code is good for; ``session_days``: how long a device
      stays signed in.
    * ``account_rate``/``account_burst``: sign-in, registration and link-code attempts per client
      address (a token bucket; 429), and, per account, sign-ins and link codes made.
    """

    db_url: str | None = None
    grace_seconds: float = 60.0
    replacement_level: str = "medium"
    bot_budget: float = 1.0
    bot_delay: float = 0.0
    bot_workers: int | None = None
    rate: float = 30.0
    burst: float = 60.0
    max_message: int = 4096
    ws_max_frame: int = 1024 * 1024
    max_body: int = 64 * 1024
    write_rate: float = 1.0
    write_burst: float = 20.0
    max_open_tables: int = 10
    max_seeks: int = 4
    seek_ttl: float = 60.0
    seek_computer_floor: float = 20.0
    abort_limit: int = 3
    abort_window: float = 3600.0
    lobby_page: int = 50
    lobby_page_max: int = 200
    hello_timeout: float = 10.0
    max_sockets: int = 16
    flood_cooldown: float = 60.0
    proxy_connections: int = 64
    proxy_requests: int = 300
    open_table_ttl: float = 24 * 3600.0
    abandon_seconds: float = 600.0
    turn_seconds: float = 90.0
    turn_warning: float = 15.0
    idle_seconds: float = 30.0
    hint_level: str = "hard"
    review_budget: float = 0.5
    review_queue: int = 8
    review_rate: float = 1 / 30
    review_burst: float = 3.0
    next_game_seconds: float = 30.0
    start_countdown: float = 3.0
    migrate: bool = True
    sqlite_synchronous: str = "NORMAL"
    operator_token: str | None = field(default=None, repr=False)
    moderation_poll: float = 2.0
    forwarded_allow_ips: str = "127.0.0.1"
    metrics_port: int | None = None
    log_format: str = "text"
    deal_seed: int | None = None
    cluster: bool = False
    address: str | None = None
    process_name: str = field(default_factory=lambda: _process_name())
    account_origin: str | None = None
    link_seconds: float = 300.0
    session_days: float = 180.0
    account_rate: float = 0.2
    account_burst: float = 10.0
    max_tournaments: int = 3
    tournament_time_scale: float = 1.0

    def resolved_db_url(self) -> str:
        """The database URL to use (the default one if none was given)."""
        return self.db_url or default_db_url()


def _process_name() -> str:
    import os
    import socket

    return f"{socket.gethostname()}:{os.getpid()}"


LIMITS: tuple[str, ...] = ("max_body", "write_rate", "write_burst", "max_open_tables", "max_seeks", "seek_ttl",
                           "seek_computer_floor", "abort_limit", "abort_window", "lobby_page",
                           "lobby_page_max", "hello_timeout", "max_sockets", "flood_cooldown", "proxy_connections",
                           "proxy_requests", "rate", "burst",
                           "max_message", "ws_max_frame", "turn_seconds", "turn_warning", "idle_seconds",
                           "open_table_ttl", "abandon_seconds", "review_queue", "review_rate", "review_burst",
                           "moderation_poll", "link_seconds", "session_days", "account_rate", "account_burst",
                           "max_tournaments", "tournament_time_scale")
"""The settings of docs/protocol.md's "Limits" that ``--limit NAME=VALUE`` may set."""


def with_limits(config: ServerConfig, settings: list[str]) -> ServerConfig:
    """``config`` with ``NAME=VALUE`` limits set (``ValueError`` with one line for a wrong one)."""
    types = {f.name: f.type for f in dataclasses.fields(ServerConfig)}
    changes: dict[str, float | int] = {}
    for text in settings:
        name, _, value = text.partition("=")
        if name not in LIMITS:
            raise ValueError(f"--limit takes one of {', '.join(LIMITS)}, not {name!r}")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"--limit {name}= needs a number, not {value!r}") from None
        if not number >= 0 or number == float("inf"):
            raise ValueError(f"--limit {name}= needs a finite number ≥ 0, not {value!r}")
        changes[name] = int(number) if types[name] in (int, "int") else number
    return dataclasses.replace(config, **changes)  # type: ignore[arg-type]
