"""The game server: tables, seats and bots over WebSockets, a REST lobby, and a database.

``spite serve`` runs :func:`create_app` under uvicorn. The pieces:

* :mod:`spite.server.table`: one table's lifecycle as a pure state machine with an injected clock
  (:mod:`spite.server.table.core`: seats, the path of a move, timers, games in a row, fair deals,
  with its parts :mod:`~spite.server.table.clock`, :mod:`~spite.server.table.series` and
  :mod:`~spite.server.table.view`) and the game adapters' interface (:mod:`spite.server.table.play`);
  it imports no web framework, database or event loop;
* :mod:`spite.server.host`: runs a table's core on the event loop: its effects against sockets, the
  database and the bot workers;
* what each game adds at a table lives with the game (:mod:`spite.malice.server`,
  :mod:`spite.spit.server`), found through the registry's ``server`` hook: undo, matches, its
  thinking bots and hints; a real-time clock, reflex bots;
* :mod:`spite.server.lobby` and :mod:`spite.server.manager`: the tables of a process, creating,
  joining, restoring after a restart; :mod:`spite.server.seeks`: play a person now;
* :mod:`spite.server.protocol`: every message as a pydantic model (``docs/protocol.md``);
  :mod:`spite.server.connection`: the transport (one WebSocket, its queue and rate limit);
* :mod:`spite.server.store` and :mod:`spite.server.db`: SQLAlchemy, group commits, Alembic;
  :mod:`spite.server.ratings`: the ratings the server keeps;
* :mod:`spite.server.bots`: the games' thinking bots in worker processes within their budgets.

``create_app`` and ``ServerConfig`` are imported when first asked for: importing a part (the table's
core) does not load the web framework.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spite.server.app import create_app
    from spite.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from spite.server.app import create_app

        return create_app
    if name == "ServerConfig":
        from spite.server.config import ServerConfig

        return ServerConfig
    raise AttributeError(f"module 'spite.server' has no attribute {name!r}")
