"""The server's commands: ``spite serve`` and ``spite bench server``.

They live here, not in :mod:`spite.server`, because importing that package loads FastAPI and
SQLAlchemy: the server is imported when one of these commands runs, and without the ``server``
extra they say so in one line (exit code 2).
"""

from __future__ import annotations

import json
import os
import urllib.parse
from pathlib import Path
from typing import Annotated, Any

import typer

from spite.cli.common import EXIT_MALFORMED, check_count, check_seconds, fail, needs_extra, require_extra

__all__ = ["LOG_LEVELS", "register"]

LOG_LEVELS = ("debug", "info", "warning", "error")
"""The server's log levels (``--log-level``)."""


def register(app: typer.Typer, bench: typer.Typer | None = None) -> None:
    """Add ``serve`` to ``app`` and ``server`` to its ``bench`` group if given."""

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
        db: Annotated[str | None, typer.Option("--db", help="Database URL (sqlite:///file.db or "
                                                "postgresql://user@host/db); default: SQLite in the user's "
                                                "data folder.")] = None,
        grace: Annotated[float, typer.Option(help="Seconds a dropped seat waits before a bot takes it.")] = 60.0,
        bot_delay: Annotated[float, typer.Option(help="Pause before each bot move, in seconds.")] = 0.3,
        bot_workers: Annotated[int | None, typer.Option(
            help="Processes that run bots (default: one per core; 0: threads of the server).")] = None,
        bot_budget: Annotated[float, typer.Option(help="Most seconds a bot may think per move.")] = 1.0,
        review_budget: Annotated[float, typer.Option(help="Seconds of search per turn of a game review.")] = 0.5,
        next_game: Annotated[float, typer.Option(help="Match tables: seconds before the next game begins when not "
                                                 "every player sent next.")] = 30.0,
        sqlite_sync: Annotated[str, typer.Option(help="SQLite synchronous: NORMAL (survives kill -9) or FULL "
                                                 "(survives a power cut).")] = "NORMAL",
        start_countdown: Annotated[float, typer.Option(help="Seconds from a real-time game's start to its first "
                                                       "card (the countdown).")] = 3.0,
        turn_clock: Annotated[float, typer.Option(
            help="Seconds a connected player may take to act before a bot plays the seat until they act again "
                 "(turn games; 0: no turn clock). The table is warned 15 s before.")] = 90.0,
        limit: Annotated[list[str] | None, typer.Option(
            help="Set a limit of docs/protocol.md's Limits, NAME=VALUE (e.g. max_sockets=32); repeatable.")] = None,
        log_level: Annotated[str, typer.Option(help="debug, info, warning or error.")] = "info",
        workers: Annotated[int, typer.Option(
            help="Server processes on this machine behind one address (HAProxy routes each table to one of "
                 "them; above 1 needs PostgreSQL and HAProxy; docs/scaling.md).")] = 1,
        proxy: Annotated[bool, typer.Option(
            "--proxy", help="Put HAProxy in front even of one server process: floods of connections and "
                            "requests are refused there (proxy_connections, proxy_requests; docs/protocol.md).",
        )] = False,
        tls_cert: Annotated[Path | None, typer.Option(
            help="Serve https (and wss) with this PEM file (certificate chain and key): HAProxy terminates TLS in "
                 "front of the workers and adds HSTS (implies --proxy; docs/deploy.md).")] = None,
        http_port: Annotated[int | None, typer.Option(
            help="With --tls-cert: also listen on this port for plain HTTP and redirect it to https.")] = None,
        metrics_port: Annotated[int | None, typer.Option(
            help="Serve Prometheus's /metrics on 127.0.0.1:PORT, apart from the public site (with --workers: "
                 "every worker's figures, labelled worker=\"I\").")] = None,
        log_format: Annotated[str, typer.Option(help="Log lines as text or json (one JSON object a line).")] = "text",
        forwarded_allow_ips: Annotated[str, typer.Option(
            help="Addresses whose X-Forwarded-For is believed (a proxy of your own in front; comma-separated).")]
            = "127.0.0.1",
        origin: Annotated[str | None, typer.Option(
            help="The site's address as browsers see it (https://HOST): passkeys are bound to its host name, "
                 "and a signed-in browser's writes must come from it (docs/accounts.md). Default: each "
                 "request's own scheme and host.")] = None,
    ) -> None:
        """Run the server: play in the browser with friends and bots.

        The browser page, the REST lobby and WebSocket play of every game with computers;
        the database is migrated on start. Every refusal is one line and exit code 2: a bad option, a
        port in use, a database that cannot be opened, a missing extra. The operator's token (spite
        admin --server) comes from SPITE_OPERATOR_TOKEN.
        """
        check_count("--port", port, 1, 65535)
        for option, seconds in (("--grace", grace), ("--bot-delay", bot_delay), ("--next-game", next_game),
                                ("--start-countdown", start_countdown), ("--turn-clock", turn_clock)):
            check_seconds(option, seconds)
        check_seconds("--bot-budget", bot_budget, above_zero=True)
        check_seconds("--review-budget", review_budget, above_zero=True)
        check_count("--bot-workers", bot_workers, 0)
        check_count("--workers", workers, 1)
        if sqlite_sync.upper() not in ("NORMAL", "FULL"):
            fail(f"--sqlite-sync is NORMAL or FULL, not {sqlite_sync}", EXIT_MALFORMED)
        if log_level.lower() not in LOG_LEVELS:
            fail(f"--log-level is one of {', '.join(LOG_LEVELS)}, not {log_level!r}", EXIT_MALFORMED)
        if log_format not in ("text", "json"):
            fail(f"--log-format is text or json, not {log_format!r}", EXIT_MALFORMED)
        check_count("--metrics-port", metrics_port, 1, 65535)
        check_count("--http-port", http_port, 1, 65535)
        if origin is not None:
            parts = urllib.parse.urlsplit(origin)
            if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("", "/") \
                    or parts.query or parts.fragment:
                fail(f"--origin is the site's address, https://HOST (or http://localhost:PORT), not {origin!r}",
                     EXIT_MALFORMED)
        if http_port is not None and tls_cert is None:
            fail("--http-port redirects to https: it needs --tls-cert", EXIT_MALFORMED)
        if tls_cert is not None:
            try:
                head = tls_cert.read_text(errors="replace")
            except OSError as exc:
                fail(f"--tls-cert {tls_cert}: {exc.strerror or exc}", EXIT_MALFORMED)
            if "-----BEGIN CERTIFICATE-----" not in head or "PRIVATE KEY-----" not in head:
                fail(f"--tls-cert {tls_cert} needs the certificate chain and its private key in one PEM file",
                     EXIT_MALFORMED)
        require_extra("server", "serve")  # all of it: without websockets, say, it would start and never play
        with needs_extra("server", "serve"):
            from spite.server.cluster import ClusterError, check_workers, serve_workers
            from spite.server.config import ServerConfig, with_limits
            from spite.server.run import CannotServe, check_address, check_database
            from spite.server.run import serve as run

        try:
            config = with_limits(ServerConfig(db_url=db, grace_seconds=grace, bot_delay=bot_delay,
                                              bot_workers=bot_workers, bot_budget=bot_budget,
                                              review_budget=review_budget,
                                              sqlite_synchronous=sqlite_sync.upper(), next_game_seconds=next_game,
                                              start_countdown=start_countdown, turn_seconds=turn_clock,
                                              metrics_port=metrics_port, log_format=log_format,
                                              forwarded_allow_ips=forwarded_allow_ips,
                                              account_origin=origin.rstrip("/") if origin else None,
                                              operator_token=os.environ.get("SPITE_OPERATOR_TOKEN") or None),
                                 limit or [])
        except ValueError as exc:
            fail(str(exc), EXIT_MALFORMED)
        behind_proxy = workers != 1 or proxy or tls_cert is not None
        try:
            if behind_proxy:
                check_workers(config, workers)
            check_address(host, port)
            for other in (metrics_port, http_port):
                if other is not None:
                    check_address("127.0.0.1" if other == metrics_port else host, other)
            with needs_extra("postgres", "serve on PostgreSQL"):  # its driver is imported on connecting
                check_database(config)
        except (ClusterError, CannotServe) as exc:
            fail(str(exc), EXIT_MALFORMED)
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        scheme = "https" if tls_cert is not None else "http"
        typer.echo(f"spite: open {scheme}://{shown}:{port}/ in a browser to play (Ctrl-C stops the server)", err=True)
        try:
            if behind_proxy:
                serve_workers(config, host, port, workers, log_level.lower(),
                              str(tls_cert.resolve()) if tls_cert is not None else None, http_port)
            else:
                run(config, host, port, log_level.lower())
        except ClusterError as exc:
            fail(str(exc), EXIT_MALFORMED)
        except OSError as exc:
            fail(f"cannot serve on {host}:{port}: {exc.strerror or exc}", EXIT_MALFORMED)
        except RuntimeError as exc:  # the metrics' port (checked above, and taken since)
            fail(str(exc), EXIT_MALFORMED)

    if bench is None:
        return

    @bench.command("server")
    def bench_server(
        tables: Annotated[int, typer.Option(help="Tables in play at once (two client seats each).")] = 50,
        think: Annotated[float, typer.Option(
            help="Mean seconds a client seat waits before each of its moves (drawn uniformly from 0.5-1.5 times "
                 "this, seeded). The default, 1 s, is a fast human: a card a second. 0 plays flat out: the server "
                 "is saturated and send→ack is mostly queueing (about tables / throughput), which measures "
                 "throughput, not what a player sees.")] = 1.0,
        seconds: Annotated[float, typer.Option(help="Seconds to measure (after the warm-up).")] = 10.0,
        warmup: Annotated[float, typer.Option(help="Seconds of play before measuring.")] = 3.0,
        preset: Annotated[str | None, typer.Option(help="Preset of every table (default: the default game's own).")]
        = None,
        seed: Annotated[int, typer.Option(help="Seed of the clients' moves and think times.")] = 1,
        db: Annotated[str | None, typer.Option("--db", help="Database URL (default: a temporary SQLite file).")] = None,
        profile: Annotated[str | None, typer.Option(
            help="Profile the server process into this file (pyinstrument: .txt or .html; cProfile: other names).")]
            = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON line (the last line).")]
            = False,
        workers: Annotated[int, typer.Option(
            help="Serve with spite serve --workers N (HAProxy in front; needs --db postgresql://…).")] = 1,
        baseline: Annotated[bool, typer.Option(
            "--baseline", help="Then run the same clients against the floor: a bare app on the same stack that "
                               "only acknowledges, broadcasts and inserts a row a move (spite.bench.floor_app), "
                               "and print the server's CPU a move as a ratio to the floor's.")] = False,
        metrics: Annotated[bool, typer.Option(
            "--metrics", help="Serve the metrics (--metrics-port) and read them every 5 s, as Prometheus would every "
                              "15 s: run with and without to see what they cost a move.")] = False,
    ) -> None:
        """Measure the server under bot-against-bot tables over WebSockets.

        The clients play here, the server runs in its own process: offered and achieved moves/s,
        send→ack p50/p95/p99/max, games, errors and the server's CPU use.
        """
        import sys

        from spite.bench.server import run_server_bench

        check_count("--tables", tables, 1)
        check_count("--workers", workers, 1)
        check_seconds("--seconds", seconds, above_zero=True)
        check_seconds("--think", think)
        check_seconds("--warmup", warmup)
        if workers > 1 and not (db or "").startswith("postgres"):
            fail("--workers above 1 needs a PostgreSQL database (--db postgresql://…)", EXIT_MALFORMED)
        require_extra("server", "measure the server")  # it is started in another process, which would only fail late
        tty = sys.stderr.isatty()
        shown = [0.0]

        def progress(p: dict[str, Any]) -> None:
            if p["phase"] == "floor":
                line = "the floor: the same clients against a bare app on the same stack…"
            elif p["phase"] == "setup":
                line = f"seating tables: {p['seated']}/{p['tables']} ({p['elapsed']:.0f} s)"
            elif p["phase"] == "warmup":
                line = f"{p['seated']}/{p['tables']} tables seated in {p['elapsed']:.1f} s; warm-up {p['warmup']:g} s"
            else:
                line = (f"{p['elapsed']:5.1f}/{p['seconds']:g} s  {p['moves']} moves  {p['moves_per_s']} moves/s  "
                        f"p99 {p['p99_ms']} ms  {p['games']} games  {p['errors']} errors")
            if tty:
                sys.stderr.write("\r" + line.ljust(100))
                sys.stderr.flush()
            elif p["phase"] in ("warmup", "floor") or p["elapsed"] - shown[0] >= 5.0:
                shown[0] = p["elapsed"] if p["phase"] == "measure" else 0.0
                typer.echo(line, err=True)

        typer.echo(f"spite: {tables} tables, think {think:g} s, {warmup:g} s warm-up + {seconds:g} s measured…",
                   err=True)
        server_args: tuple[str, ...] = ()
        scraper = None
        if metrics:
            import socket
            import threading
            import urllib.request

            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                metrics_port = int(s.getsockname()[1])
            server_args = ("--metrics-port", str(metrics_port))
            done = threading.Event()
            scrapes = [0]

            def scrape() -> None:  # as Prometheus would, only more often
                while not done.wait(5.0):
                    try:
                        with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as a:
                            a.read()
                        scrapes[0] += 1
                    except OSError:
                        pass

            scraper = threading.Thread(target=scrape, daemon=True)
            scraper.start()
        try:
            figures = run_server_bench(tables, seconds, think=think, preset=preset, db=db, seed=seed, warmup=warmup,
                                       profile=profile, progress=progress, workers=workers, baseline=baseline,
                                       server_args=server_args)
        except RuntimeError as exc:
            fail(str(exc), EXIT_MALFORMED)
        finally:
            if tty:
                sys.stderr.write("\n")
            if scraper is not None:
                done.set()
        if metrics:
            figures["metrics_scrapes"] = scrapes[0]
        if as_json:
            typer.echo(json.dumps(figures))
            return
        rate = figures["offered_moves_per_s"]
        offered = f"{rate} moves/s offered, " if rate else "flat out, "
        cpu = f"; server CPU {figures['server_cpu_pct']} % of a core" if figures["server_cpu_pct"] is not None else ""
        if figures.get("proxy_cpu_pct") is not None:
            each = " + ".join(f"{pct} %" for pct in figures.get("server_cpu_pct_each") or [])
            cpu += f" ({figures['workers']} workers: {each}), HAProxy {figures['proxy_cpu_pct']} %"
        if figures.get("db_cpu_pct") is not None:
            cpu += f", PostgreSQL {figures['db_cpu_pct']} %"
        cpu += f"; load average {figures['load_average'][1]}"
        if figures.get("server_gc_max_ms") is not None:
            cpu += (f"; the server's longest collector pause {figures['server_gc_max_ms']} ms "
                    f"({figures['server_gc_over_5ms']} over 5 ms)")
        cpu += (f"; the clients' own longest pause {figures['client_gc_max_ms']} ms: p99 of the moves outside "
                f"them {figures['p99_ms_outside_client_pauses']} ms")
        if baseline:
            floor = figures["floor"]
            cpu += (f"\nthe floor (bare app on the same stack): {floor['moves_per_s']} moves/s, "
                    f"p99 {floor['p99_ms']} ms, "
                    f"{figures['floor_cpu_ms_per_move']} ms CPU a move; the server "
                    f"{figures['server_cpu_ms_per_move']} ms a move: {figures['floor_ratio']} × the floor")
        typer.echo(f"{figures['tables']} tables, think {think:g} s, {figures['seconds']} s: {figures['moves']} moves, "
                   f"{offered}{figures['moves_per_s']} moves/s achieved; send→ack p50 {figures['p50_ms']} ms, "
                   f"p95 {figures['p95_ms']} ms, p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms; "
                   f"{figures['games_finished']} games finished; errors {figures['errors'] or 'none'}{cpu}")
