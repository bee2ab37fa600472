"""A real server (uvicorn on a socket of its own, in a thread of the test process) with Pebbles registered
before the app is made, as a family's registry line would have it: its tables, its bots, its page folder."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from fourth_game import registered
from ports import listening_socket
from spite.server import ServerConfig, create_app
from waiting import wait_until


@contextlib.contextmanager
def pebbles_server(db: Path) -> Iterator[str]:
    """The server's base URL (``http://127.0.0.1:PORT``), its database in ``db``; bots answer at once."""
    import uvicorn

    config = ServerConfig(db_url=f"sqlite:///{db}", bot_workers=0, bot_delay=0.0, grace_seconds=5.0, rate=1000,
                          burst=2000, start_countdown=0.0)
    with registered():
        sock = listening_socket()
        server = uvicorn.Server(uvicorn.Config(create_app(config), host="127.0.0.1", log_level="warning",
                                               lifespan="on"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        try:
            wait_until(lambda: server.started or not thread.is_alive(), "the test server's start", timeout=20)
            assert server.started, "the test server did not start"
            yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        finally:
            server.should_exit = True
            thread.join(20)
            sock.close()
