"""``spite serve --workers N``: N worker processes on this machine behind one address.

The supervisor (this module, in the ``spite serve`` process) migrates the database once, starts N
server processes (``python -m spite.server``, each on a loopback port of its own, with
``cluster=True``: they hold tables by lease, :mod:`spite.server.leases`), then Debian's HAProxy on
the public address, routing:

* ``/ws/{id}``, ``/t/{id}`` and ``/api/tables/{id}/…`` by a consistent hash of the table id, so a
  table's sockets and REST calls reach the same worker (which takes the table by lease when it does
  not hold it yet); when a worker leaves the ring only its tables move;
* everything else (the page, the lobby, records, statistics) round robin.

HAProxy checks every worker's ``/healthz`` once a second: a dead one leaves the ring within about
three seconds, and a connection refused by it is sent to another worker at once (``redispatch``).
The supervisor restarts a worker that died; the workers and HAProxy end with the supervisor (on
Linux even when it is killed with ``kill -9``: ``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from types import FrameType

from spite.server.config import ServerConfig

__all__ = ["ClusterError", "find_haproxy", "haproxy_config", "serve_workers"]

log = logging.getLogger("spite.server.cluster")

CHECK_INTERVAL = "1s"
"""How often HAProxy asks each worker's ``/healthz``; three failed checks take a worker out of the ring
(a refused connection fails at once; an answer may take 10 s)."""

RESTART_PAUSE = 1.0
"""Seconds before a dead worker is started again (a worker that cannot start is not restarted in a
tight loop)."""


OPERATOR_TOKEN_ENV = "SPITE_OPERATOR_TOKEN"
"""The environment variable that carries the operator's token (:mod:`spite.server.admin`)."""


class ClusterError(Exception):
    """Why the workers cannot be started: one line for the person who ran ``spite serve``."""


def find_haproxy() -> str | None:
    """HAProxy's binary: on ``PATH``, or Debian's ``/usr/sbin/haproxy`` (not on a user's ``PATH``)."""
    found = shutil.which("haproxy")
    if found is not None:
        return found
    return "/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None


def check_workers(config: ServerConfig, workers: int) -> str:
    """HAProxy's binary when ``workers`` workers can be run on ``config``'s database (one, behind the
    proxy, on any; more on PostgreSQL only), else :class:`ClusterError` with the reason."""
    if workers < 1:
        raise ClusterError(f"--workers must be at least 1, not {workers}")
    url = config.resolved_db_url()
    if workers > 1 and not url.startswith(("postgresql", "postgres:")):
        raise ClusterError("--workers above 1 needs PostgreSQL (--db postgresql://user@host/db): SQLite is the "
                           "database of one process")
    haproxy = find_haproxy()
    if haproxy is None:
        raise ClusterError("--workers above 1 and --proxy need HAProxy in front of the server: install it "
                           "(apt-get install haproxy) or put it on PATH")
    return haproxy


def _max_connections() -> int:
    """As many connections as this process's file limit allows HAProxy (two descriptors each)."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return max(256, min(100_000, (soft if soft != resource.RLIM_INFINITY else 200_000) // 2 - 100))


PROXY_THROTTLED = ('{"detail": "too many requests from your address: wait a moment and try again", '
                   '"code": "rate-limited"}')
"""The proxy's answer to an address over ``proxy_requests`` (the server's own 429 body, with a code)."""


SECURITY_HEADERS = (
    ("X-Content-Type-Options", "nosniff"),
    ("X-Frame-Options", "DENY"),
    ("Referrer-Policy", "same-origin"),
    ("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                "style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; "
                                "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"),
)
"""What the proxy adds to every answer (with TLS, ``Strict-Transport-Security`` too). The page is
plain ES modules and JSON from its own origin, its WebSockets to the same host: ``'self'`` covers
them (``connect-src 'self'`` matches ``wss:`` to the page's own host); the page writes a few
``style`` attributes in its HTML, hence ``'unsafe-inline'`` for styles (and for nothing else)."""

HSTS = "max-age=31536000"
"""A year; not ``includeSubDomains`` (the club's other sites under the same name are not ours to bind)."""


def haproxy_config(host: str, port: int, workers: list[str], connections: int = 64, requests: int = 300,
                   tls_cert: str | None = None, http_port: int | None = None) -> str:
    """HAProxy's configuration for ``workers`` (``host:port`` each, on this machine or others): the
    public address, the table-bound paths by consistent hash of the table id, the rest round robin;
    health checks on ``/healthz``; WebSockets may stay open for hours.

    Per client address the proxy keeps two backstops (``proxy_connections`` and ``proxy_requests`` of
    :class:`~spite.server.config.ServerConfig`): at most ``connections`` connections open at once and
    as many opened in 10 s (more are closed as they connect), and ``requests`` HTTP requests in 10 s
    (more are answered 429).
    Refused there, a flood costs HAProxy's C code a few microseconds a request, not the workers'
    event loops the millisecond that uvicorn's HTTP parsing takes (docs/protocol.md, "Limits").

    The proxy is the edge: it drops any ``X-Forwarded-For`` a client sent and sets its own (the
    workers believe it from the loopback only: ``forwarded_allow_ips``), and adds
    :data:`SECURITY_HEADERS`. With ``tls_cert`` (a PEM file with the certificate chain and its key)
    it terminates TLS on ``host:port`` (HTTP/2 and HTTP/1.1; WebSockets over either), adds HSTS, and
    with ``http_port`` redirects plain HTTP there to https (docs/deploy.md).
    """
    servers = "\n".join(f"    server w{i} {w} check inter {CHECK_INTERVAL} fall 3 rise 1"
                        for i, w in enumerate(workers))
    tracked = "\n".join(f"    server w{i} {w} track tables/w{i}" for i, w in enumerate(workers))
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    headers = [*SECURITY_HEADERS, *((("Strict-Transport-Security", HSTS),) if tls_cert else ())]
    added = "\n".join(f'    http-response set-header {name} "{value}"' for name, value in headers)
    if tls_cert:
        bind += f" ssl crt {tls_cert} alpn h2,http/1.1"
    plain = ""
    if tls_cert and http_port is not None:
        where = f"[{host}]:{http_port}" if ":" in host else f"{host}:{http_port}"
        plain = f"""
frontend spite_http
    bind {where}
    http-request redirect scheme https code 301
"""
    return f"""# written by spite serve --workers {len(workers)} (spite.server.cluster)
global
    maxconn {_max_connections()}

defaults
    mode http
    option forwardfor
    option redispatch
    retries 3
    timeout connect 2s
    timeout client 120s
    timeout server 120s
    timeout tunnel 24h
    timeout client-fin 5s
    timeout check 10s

frontend spite
    bind {bind}
    http-request del-header X-Forwarded-For
    http-request set-header X-Forwarded-Proto {"https" if tls_cert else "http"}
{added}
    stick-table type ipv6 size 1m expire 60s store conn_cur,conn_rate(10s),http_req_rate(10s)
    tcp-request connection track-sc0 src,ipmask(32,64)
    tcp-request connection reject if {{ sc0_conn_cur gt {connections} }} || {{ sc0_conn_rate gt {connections} }}
    http-request return status 429 content-type application/json hdr Retry-After 10 \
        string '{PROXY_THROTTLED}' if {{ sc0_http_req_rate gt {requests} }}
    http-request set-var(txn.table) path,field(3,/) if {{ path_beg /ws/ /t/ }}
    http-request set-var(txn.table) path,field(4,/) if {{ path_beg /api/tables/ }}
    use_backend tables if {{ var(txn.table) -m reg . }}
    default_backend workers

{plain}
backend tables
    balance hash var(txn.table)
    hash-type consistent
    option httpchk
    http-check send meth GET uri /healthz
{servers}

backend workers
    balance roundrobin
{tracked}
"""


def _free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [int(s.getsockname()[1]) for s in socks]
    finally:
        for s in socks:
            s.close()


_PR_SET_PDEATHSIG = 1


def _end_with_supervisor() -> None:
    """In a child, before it runs: the kernel sends it SIGTERM when the supervisor dies (``kill -9``
    included). Linux only; elsewhere the supervisor's own stop ends its children."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


class _Stop(Exception):
    pass


class Supervisor:
    """The worker processes and HAProxy of one ``spite serve --workers N``."""

    def __init__(self, config: ServerConfig, host: str, port: int, workers: int, log_level: str,
                 haproxy: str, folder: Path, tls_cert: str | None = None, http_port: int | None = None) -> None:
        self.config = config
        self.host = host
        self.port = port
        self.log_level = log_level
        self.haproxy = haproxy
        self.folder = folder
        self.ports = _free_ports(workers)
        self.metrics_ports = _free_ports(workers) if config.metrics_port is not None else []
        """Each worker's own metrics port (the supervisor serves them together on ``metrics_port``)."""
        self.tls_cert = tls_cert
        self.http_port = http_port
        self.procs: list[subprocess.Popen[bytes] | None] = [None] * workers
        self.proxy: subprocess.Popen[bytes] | None = None
        self.restarts = 0

    def _worker_command(self, i: int) -> list[str]:
        bot_workers = self.config.bot_workers
        if bot_workers is None:  # the cores shared among the workers' bot pools, not one per core each
            bot_workers = max(1, (os.cpu_count() or 1) // len(self.ports))
        # one worker (``--proxy``) is the plain server behind the proxy: no leases, any database
        settings = dataclasses.asdict(dataclasses.replace(
            self.config, cluster=len(self.ports) > 1, migrate=False, bot_workers=bot_workers,
            address=f"127.0.0.1:{self.ports[i]}", metrics_port=self.metrics_ports[i] if self.metrics_ports else None))
        del settings["process_name"]  # each worker names itself (host and process id)
        del settings["operator_token"]  # in its environment, never on a command line (ps shows those)
        return [sys.executable, "-m", "spite.server", "--host", "127.0.0.1", "--port", str(self.ports[i]),
                "--log-level", self.log_level, "--config-json", json.dumps(settings)]

    def start_worker(self, i: int) -> None:
        """Start worker ``i`` on its port."""
        env = dict(os.environ)
        if self.config.operator_token:
            env[OPERATOR_TOKEN_ENV] = self.config.operator_token
        proc = subprocess.Popen(self._worker_command(i), preexec_fn=_end_with_supervisor, env=env)
        self.procs[i] = proc
        print(f"spite: worker {i} (pid {proc.pid}) on 127.0.0.1:{self.ports[i]}", file=sys.stderr, flush=True)

    def wait_up(self, i: int, timeout: float = 60.0) -> None:
        """Wait until worker ``i`` answers ``/healthz`` (:class:`ClusterError` when it exits or is slow)."""
        deadline = time.monotonic() + timeout
        proc = self.procs[i]
        assert proc is not None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise ClusterError(f"worker {i} exited at start (code {proc.returncode}); see its messages above")
            with contextlib.suppress(OSError), urllib.request.urlopen(
                    f"http://127.0.0.1:{self.ports[i]}/healthz", timeout=1) as answer:
                if answer.status == 200:
                    return
            time.sleep(0.1)
        raise ClusterError(f"worker {i} did not start within {timeout:.0f} s")

    def start_proxy(self) -> None:
        """Write HAProxy's configuration, check it and start HAProxy in the foreground."""
        cfg = self.folder / "haproxy.cfg"
        cfg.write_text(haproxy_config(self.host, self.port, [f"127.0.0.1:{p}" for p in self.ports],
                                      self.config.proxy_connections, self.config.proxy_requests,
                                      tls_cert=self.tls_cert, http_port=self.http_port))
        checked = subprocess.run([self.haproxy, "-c", "-q", "-f", str(cfg)], capture_output=True, text=True)
        if checked.returncode != 0:
            raise ClusterError(f"HAProxy refused its configuration: {(checked.stderr or checked.stdout).strip()}")
        self.proxy = subprocess.Popen([self.haproxy, "-db", "-f", str(cfg)], preexec_fn=_end_with_supervisor,
                                      stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.proxy.poll() is not None:
                raise ClusterError(f"HAProxy could not serve on {self.host}:{self.port} (exit code "
                                   f"{self.proxy.returncode}; is the port taken?)")
            with contextlib.suppress(OSError), socket.create_connection((self.host, self.port), timeout=0.5):
                return
            time.sleep(0.05)
        raise ClusterError(f"HAProxy did not open {self.host}:{self.port} within 10 s")

    def watch(self) -> None:
        """Restart dead workers until told to stop (SIGTERM, SIGINT); HAProxy's death ends it all."""
        while True:
            time.sleep(0.2)
            if self.proxy is not None and self.proxy.poll() is not None:
                raise ClusterError(f"HAProxy stopped (exit code {self.proxy.returncode})")
            for i, proc in enumerate(self.procs):
                if proc is not None and proc.poll() is not None:
                    print(f"spite: worker {i} (pid {proc.pid}) exited with code {proc.returncode}; starting it "
                          f"again (another worker takes its tables meanwhile)", file=sys.stderr, flush=True)
                    time.sleep(RESTART_PAUSE)
                    self.restarts += 1
                    self.start_worker(i)

    def stop(self) -> None:
        """End HAProxy and the workers (they give up their leases on the way out)."""
        children = [p for p in (self.proxy, *self.procs) if p is not None and p.poll() is None]
        for p in children:
            with contextlib.suppress(OSError):
                p.terminate()
        deadline = time.monotonic() + 15
        for p in children:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(max(0.1, deadline - time.monotonic()))
            if p.poll() is None:
                p.kill()
                p.wait()


def serve_workers(config: ServerConfig, host: str, port: int, workers: int, log_level: str = "info",
                  tls_cert: str | None = None, http_port: int | None = None) -> None:
    """Run ``workers`` workers behind HAProxy on ``host:port`` (TLS with ``tls_cert``; ``http_port``
    redirecting to it) until SIGTERM or Ctrl-C (:class:`ClusterError` with one line when that cannot
    be done). With ``config.metrics_port`` every worker's figures are served there together."""
    from spite.server.logs import setup_logging

    haproxy = check_workers(config, workers)
    setup_logging(log_level, config.log_format)
    if config.migrate:  # once, here: N workers migrating at once would race
        from spite.server import db

        engine = db.make_engine(config.resolved_db_url())
        try:
            db.migrate(engine)
        except Exception as exc:
            raise ClusterError(f"the database cannot be opened or upgraded: {str(exc).splitlines()[0]}") from None
        finally:
            engine.dispose()

    def stop(_sig: int, _frame: FrameType | None) -> None:
        raise _Stop

    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    with tempfile.TemporaryDirectory(prefix="spite-workers-") as tmp:
        sup = Supervisor(config, host, port, workers, log_level, haproxy, Path(tmp), tls_cert, http_port)
        metrics = None
        try:
            for i in range(workers):
                sup.start_worker(i)
            for i in range(workers):
                sup.wait_up(i)
            if config.metrics_port is not None:
                from spite.server.metrics import serve_workers_metrics

                try:
                    metrics = serve_workers_metrics(config.metrics_port, sup.metrics_ports)
                except OSError as exc:
                    raise ClusterError(f"cannot serve metrics on 127.0.0.1:{config.metrics_port}: "
                                       f"{exc.strerror or exc}") from None
            sup.start_proxy()
            plural = "s" if workers != 1 else ""
            print(f"spite: {workers} worker{plural} behind HAProxy (pid {sup.proxy.pid if sup.proxy else '?'}) on "
                  f"{host}:{port}", file=sys.stderr, flush=True)
            sup.watch()
        except _Stop:
            pass
        finally:
            for sig, handler in old.items():
                signal.signal(sig, handler)
            if metrics is not None:
                metrics.shutdown()
            sup.stop()
