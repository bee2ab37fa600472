"""Running the server under uvicorn (what ``spite serve`` and ``python -m spite.server`` do)."""

from __future__ import annotations

import gc
import logging

from spite.server.config import ServerConfig

__all__ = ["serve"]


def serve(config: ServerConfig, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    """Serve until interrupted (Ctrl-C or SIGTERM shut down cleanly; everything is stored anyway)."""
    import uvicorn

    from spite.server.app import create_app

    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(config)
    # everything imported and built so far lives as long as the process: keep it out of the cyclic
    # garbage collector's full passes, which otherwise stall every table for tens of ms under load
    gc.collect()
    gc.freeze()
    uvicorn.run(app, host=host, port=port, log_level=log_level, ws_max_size=config.ws_max_frame,
                ws_ping_interval=20.0, ws_ping_timeout=20.0, ws_per_message_deflate=False, lifespan="on")
