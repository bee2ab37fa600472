"""Running the server under uvicorn (what ``spite serve`` and ``python -m spite.server`` do).

Before it starts, ``spite serve`` checks what would otherwise fail inside uvicorn with a page of log
and traceback: the address (:func:`check_address`: a port in use, a host that is not this
machine's) and the database (:func:`check_database`: a URL no driver knows, a file that cannot be
made, a server that does not answer). Each failure is :class:`CannotServe` with one line.
"""

from __future__ import annotations

import contextlib
import socket
import sys
from typing import Any

from spite.server.collector import Collector
from spite.server.config import ServerConfig
from spite.server.logs import setup_logging, uvicorn_log_config
from spite.server.pauses import installed_probe

__all__ = ["CannotServe", "check_address", "check_database", "serve"]


class CannotServe(Exception):
    """The server cannot start as asked; the message is one line for the person who asked."""


def check_address(host: str, port: int) -> None:
    """Raise :class:`CannotServe` when the server could not listen on ``host:port``.

    Binds every address ``host`` stands for, as asyncio's server will (with ``SO_REUSEADDR``: a port
    whose last connections are still closing is free), and lets go at once.
    """
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (OSError, UnicodeError) as exc:
        raise CannotServe(f"cannot serve on {host}:{port}: {_reason(exc)}") from None
    for family, kind, proto, _name, address in infos:
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(address)
        except OSError as exc:
            raise CannotServe(f"cannot serve on {host}:{port}: {_reason(exc)}") from None


def _reason(exc: BaseException) -> str:
    reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return reason[:1].lower() + reason[1:]


def check_database(config: ServerConfig) -> None:
    """Raise :class:`CannotServe` when the server's database cannot be opened: connect once and go.

    A URL of a database the install has no driver for raises :class:`ModuleNotFoundError` (the
    caller names the extra: ``postgres``).
    """
    import sqlalchemy as sa

    from spite.server import db

    url = config.resolved_db_url()
    try:
        shown = sa.make_url(url).render_as_string(hide_password=True)
    except sa.exc.ArgumentError:
        raise CannotServe(f"--db {url!r} is not a database URL (sqlite:///FILE or postgresql://USER@HOST/DB)") from None
    try:
        engine = db.make_engine(url, sqlite_synchronous=config.sqlite_synchronous)
        try:
            with engine.connect():
                pass
        finally:
            engine.dispose()
    except sa.exc.NoSuchModuleError:
        raise CannotServe(f"--db {shown}: no database of that kind is known (sqlite:///FILE or "
                          "postgresql://USER@HOST/DB)") from None
    except (sa.exc.SQLAlchemyError, ValueError) as exc:
        original = getattr(exc, "orig", None) or exc
        first = next((line.strip() for line in str(original).splitlines() if line.strip()), type(original).__name__)
        raise CannotServe(f"cannot open the database {shown}: {first}") from None


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM shut down cleanly; everything is stored anyway)."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE

    from spite.server.app import create_app

    setup_logging(log_level, config.log_format)
    app = create_app(config)
    # the collector's policy (spite.server.collector): started once the tables are restored
    app.state.collector = Collector()
    installed_probe()
    logs: dict[str, Any] | None = uvicorn_log_config(config.log_format)
    settings = uvicorn.Config(app, host=host, port=port, log_level=log_level, ws_max_size=config.ws_max_frame,
                              ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False,
                              lifespan="on", proxy_headers=True, forwarded_allow_ips=config.forwarded_allow_ips,
                              **({"log_config": logs} if logs is not None else {}))  # type: ignore[arg-type]
    server = _answering_polls(settings, app)
    # as uvicorn.run does: Ctrl-C (which uvicorn raises again once it has shut down) is the way to stop,
    # and a server that never started exits with uvicorn's code for that
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)


def _answering_polls(settings: Any, app: Any) -> Any:
    """uvicorn's server, which answers the long polls (a seek's, a tournament's) as soon as it begins
    to shut down: it waits for the requests under way before it stops, and a poll would hold a
    restart for up to its whole wait."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            manager = getattr(app.state, "manager", None)  # (set once the app has started)
            if manager is not None:
                manager.stop_waiting()
            await super().shutdown(sockets)

    return Server(settings)
