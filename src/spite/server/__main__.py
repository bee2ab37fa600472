"""``python -m spite.server``: the same as ``spite serve`` (for when the CLI is not at hand)."""

from __future__ import annotations

import argparse
import json
import os

from spite.server.cluster import OPERATOR_TOKEN_ENV
from spite.server.config import LIMITS, ServerConfig, with_limits
from spite.server.run import serve


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve."""
    p = argparse.ArgumentParser(prog="python -m spite.server", description="Serve every registered game.")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None, help="database URL (default: SQLite in the user's data folder)")
    p.add_argument("--grace", type=float, default=60.0, help="seconds a dropped seat waits before a bot takes it")
    p.add_argument("--bot-delay", type=float, default=0.0, help="pause before each bot move (seconds)")
    p.add_argument("--bot-workers", type=int, default=None, help="bot processes (default: one per core; 0: threads)")
    p.add_argument("--bot-budget", type=float, default=1.0, help="most seconds a bot may think per move")
    p.add_argument("--review-budget", type=float, default=0.5, help="seconds of search per turn of a game review")
    p.add_argument("--rate", type=float, default=30.0, help="messages a second a connection may send")
    p.add_argument("--next-game", type=float, default=30.0,
                   help="match tables: seconds before the next game begins when not everyone sent next")
    p.add_argument("--sqlite-sync", default="NORMAL", choices=["NORMAL", "FULL"],
                   help="SQLite synchronous mode: NORMAL survives kill -9, FULL also a power cut")
    p.add_argument("--start-countdown", type=float, default=3.0,
                   help="seconds from a real-time game's start to its first card (the countdown)")
    p.add_argument("--turn-clock", type=float, default=90.0,
                   help="seconds a connected player may take to act before a bot plays the seat (0: none)")
    p.add_argument("--limit", action="append", default=[], metavar="NAME=VALUE",
                   help=f"set a limit of docs/protocol.md (one of {', '.join(LIMITS)}); repeatable")
    p.add_argument("--log-level", default="info")
    p.add_argument("--log-format", default="text", choices=["text", "json"], help="log lines as text or JSON")
    p.add_argument("--metrics-port", type=int, default=None,
                   help="serve Prometheus's /metrics on 127.0.0.1:PORT (docs/deploy.md)")
    # tests only: every secret from this seed (the same requests deal the same cards): never on a real server
    p.add_argument("--predictable-deals", type=int, default=None, metavar="SEED", help=argparse.SUPPRESS)
    p.add_argument("--config-json", default=None, help=argparse.SUPPRESS)  # a worker of `spite serve --workers`
    p.add_argument("--cluster", action="store_true",
                   help="one worker of several on one PostgreSQL database behind a proxy that routes by table id "
                        "(docs/scaling.md); the schema must be upgraded beforehand")
    p.add_argument("--print-haproxy", metavar="WORKER", nargs="+", default=None,
                   help="print an HAProxy configuration for these workers (host:port each) serving on --host and "
                        "--port, and exit")
    p.add_argument("--tls-cert", default=None, help="with --print-haproxy: terminate TLS with this PEM file")
    p.add_argument("--http-port", type=int, default=None,
                   help="with --print-haproxy and --tls-cert: redirect plain HTTP on this port to https")
    a = p.parse_args(argv)
    if a.print_haproxy is not None:
        from spite.server.cluster import haproxy_config

        print(haproxy_config(a.host, a.port, a.print_haproxy, tls_cert=a.tls_cert, http_port=a.http_port), end="")
        return
    token = os.environ.get(OPERATOR_TOKEN_ENV) or None  # never on a command line
    if a.config_json is not None:  # every setting as the supervisor has them (spite.server.cluster)
        serve(ServerConfig(**json.loads(a.config_json), operator_token=token), a.host, a.port, a.log_level)
        return
    config = ServerConfig(db_url=a.db, grace_seconds=a.grace, bot_delay=a.bot_delay, bot_workers=a.bot_workers,
                          bot_budget=a.bot_budget, review_budget=a.review_budget, rate=a.rate,
                          sqlite_synchronous=a.sqlite_sync,
                          burst=max(2.0 * a.rate, 10.0), next_game_seconds=a.next_game,
                          start_countdown=a.start_countdown, turn_seconds=a.turn_clock, cluster=a.cluster,
                          migrate=not a.cluster, address=f"{a.host}:{a.port}" if a.cluster else None,
                          deal_seed=a.predictable_deals, operator_token=token, metrics_port=a.metrics_port,
                          log_format=a.log_format)
    try:
        config = with_limits(config, a.limit)
    except ValueError as exc:
        p.error(str(exc))
    serve(config, a.host, a.port, a.log_level)


if __name__ == "__main__":
    main()
