"""A locally issued certificate and ``spite serve --tls-cert`` behind it (the TLS tests of the server
and the browser page). Made with openssl here; nothing is fetched."""

from __future__ import annotations

import contextlib
import shutil
import ssl
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from ports import free_port, listens
from waiting import wait_until

CLI = [sys.executable, "-c", "from spite.cli import main; main()"]


def local_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for localhost and 127.0.0.1: the CA file a client trusts, and the PEM
    (chain and key in one file) the proxy serves."""
    cert, key, pem = folder / "cert.pem", folder / "key.pem", folder / "tls.pem"
    subprocess.run([shutil.which("openssl") or "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"], check=True, capture_output=True)
    pem.write_text(cert.read_text() + key.read_text())
    return cert, pem


def client_context(cert: Path) -> ssl.SSLContext:
    """An SSL context that trusts ``cert`` alone (and checks the host name as any browser does)."""
    return ssl.create_default_context(cafile=str(cert))


@contextlib.contextmanager
def tls_server(folder: Path, *extra: str) -> Iterator[tuple[str, int, Path]]:
    """``spite serve --tls-cert`` on SQLite in ``folder``: its https base URL, its plain HTTP port
    (redirecting to https) and the certificate to trust."""
    cert, pem = local_certificate(folder)
    port, plain = free_port(), free_port()
    log = folder / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen([*CLI, "serve", "--tls-cert", str(pem), "--http-port", str(plain), "--db",
                                 f"sqlite:///{folder / 'tls.db'}", "--port", str(port), "--log-level", "warning",
                                 "--bot-workers", "0", "--bot-delay", "0", *extra],
                                stdout=subprocess.DEVNULL, stderr=out)
    try:
        def ready() -> bool:
            assert proc.poll() is None, log.read_text()[-2000:]  # the server died: say why at once
            # and HAProxy, started by this server, holds the port (another test's server could have
            # taken the port chosen free, and answered the server's own check that it is open)
            return "behind HAProxy" in log.read_text() and listens(proc.pid, port) and listens(proc.pid, plain)

        wait_until(ready, lambda: "the server behind HAProxy: " + log.read_text()[-2000:], timeout=60)
        yield f"https://127.0.0.1:{port}", plain, cert
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
