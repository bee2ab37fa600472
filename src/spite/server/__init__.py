"""The game server: tables, seats and bots over WebSockets, a REST lobby, and a database.

``spite serve`` runs :func:`create_app` under uvicorn. The pieces:

* :mod:`spite.server.protocol`: every message as a pydantic model (``docs/protocol.md``);
* :mod:`spite.server.connection`: the transport (one WebSocket, its queue and rate limit);
* :mod:`spite.server.host`: one table of any game: seats, versions, the lock, commit before
  acknowledge, broadcast, reconnects, bot takeovers, spectators, the finished game's record;
* :mod:`spite.server.malice_play`, :mod:`spite.server.spit_play`: what each game adds at a table
  (found through the registry's ``server`` hook): bots, undo, hints, matches; the clock, reflex bots;
* :mod:`spite.server.manager`: the tables of a process, the lobby, restoring after a restart;
* :mod:`spite.server.store` and :mod:`spite.server.db`: SQLAlchemy, group commits, Alembic;
* :mod:`spite.server.bots`: bots thinking in worker processes within their budgets.
"""

from spite.server.app import create_app
from spite.server.config import ServerConfig

__all__ = ["ServerConfig", "create_app"]
