"""The server's commands: ``spite serve`` and ``spite bench server``.

``spite.cli`` calls :func:`register` with its Typer app; the commands are added there (``serve``)
and on ``spite.cli.bench_app`` (``bench server``).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add ``serve`` to ``app`` and ``server`` to the ``bench`` group of :mod:`spite.cli`."""
    from spite.cli import bench_app

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[str | None, typer.Option("--db", help="Database URL (sqlite:///file.db or "
                                                "postgresql://user@host/db); default: SQLite in the user's "
                                                "data folder.")] = None,
        grace: Annotated[float, typer.Option(help="Seconds a dropped seat waits before a bot takes it.")] = 60.0,
        bot_delay: Annotated[float, typer.Option(help="Pause before each bot move, in seconds.")] = 0.3,
        bot_workers: Annotated[int, typer.Option(help="Processes that run bots (0: a thread).")] = 1,
        bot_budget: Annotated[float, typer.Option(help="Most seconds a bot may think per move.")] = 1.0,
        sqlite_sync: Annotated[str, typer.Option(help="SQLite synchronous: NORMAL (survives kill -9) or FULL "
                                                 "(survives a power cut).")] = "NORMAL",
        log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
    ) -> None:
        """Serve the game: the browser page, REST lobby, WebSocket play (Spite and Malice, Spit, Speed), bots;
        the database is migrated on start."""
        from spite.server.config import ServerConfig
        from spite.server.run import serve as run

        if sqlite_sync.upper() not in ("NORMAL", "FULL"):
            typer.echo(f"spite: --sqlite-sync is NORMAL or FULL, not {sqlite_sync}", err=True)
            raise typer.Exit(2)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        typer.echo(f"spite: open http://{shown}:{port}/ in a browser to play (Ctrl-C stops the server)", err=True)
        try:
            run(ServerConfig(db_url=db, grace_seconds=grace, bot_delay=bot_delay, bot_workers=bot_workers,
                             bot_budget=bot_budget, sqlite_synchronous=sqlite_sync.upper()),
                host, port, log_level.lower())
        except OSError as exc:
            typer.echo(f"spite: cannot serve on {host}:{port}: {exc.strerror or exc}", err=True)
            raise typer.Exit(2) from None

    @bench_app.command("server")
    def bench_server(
        tables: Annotated[int, typer.Option(help="Tables in play at once (two client seats each).")] = 50,
        seconds: Annotated[float, typer.Option(help="Seconds to measure (after the warm-up).")] = 10.0,
        warmup: Annotated[float, typer.Option(help="Seconds of play before measuring.")] = 3.0,
        preset: Annotated[str, typer.Option(help="Preset of every table.")] = "classic",
        db: Annotated[str | None, typer.Option("--db", help="Database URL (default: a temporary SQLite file).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    ) -> None:
        """N bot-vs-bot tables over real WebSockets (clients here, server in its own process):
        moves/s and p50/p99 from send to ack."""
        from spite.bench.server import run_server_bench

        try:
            figures = run_server_bench(tables, seconds, preset=preset, db=db, warmup=warmup)
        except RuntimeError as exc:
            typer.echo(f"spite: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(figures))
            return
        typer.echo(f"{figures['tables']} tables, {figures['seconds']} s: {figures['moves']} moves, "
                   f"{figures['moves_per_s']} moves/s; send→ack p50 {figures['p50_ms']} ms, "
                   f"p99 {figures['p99_ms']} ms; {figures['games_finished']} games; "
                   f"errors {figures['errors'] or 'none'}")
