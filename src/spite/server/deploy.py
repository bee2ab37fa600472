"""The files a club's server needs on a Debian machine (docs/deploy.md), rendered by ``spite deploy``:

* ``spite.service``: ``spite serve`` under systemd as its own user: HAProxy in front terminating TLS on
  443 (plain HTTP on 80 redirected), the workers on PostgreSQL, metrics on loopback, JSON logs; the
  operator's token from ``/etc/spite/env``;
* ``spite-backup.service`` and ``spite-backup.timer``: ``spite backup`` every night, the last
  ``keep_days`` days kept;
* ``spite-tls-hook``: certbot's deploy hook: the renewed certificate chain and key as one PEM for
  HAProxy;
* ``prometheus-spite.yml``: the scrape job for Prometheus.

Each is checked by the tests: the units by ``systemd-analyze verify``, the hook by running it, the
proxy's configuration by ``haproxy -c`` (tests/server/test_deploy.py).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Site", "render", "write"]


@dataclass
class Site:
    """What differs from one club's server to another."""

    domain: str
    db: str = "postgresql:///spite"
    workers: int = 2
    spite: str = "/opt/spite/bin/spite"
    user: str = "spite"
    backups: str = "/var/backups/spite"
    keep_days: int = 14
    metrics_port: int = 9464
    tls_pem: str = "/etc/spite/tls.pem"
    env_file: str = "/etc/spite/env"


def _unit_escape(text: str) -> str:
    """``text`` inside a systemd command line: ``%`` and ``$`` are systemd's own unless doubled."""
    return text.replace("%", "%%").replace("$", "$$")


def render(site: Site) -> dict[str, str]:
    """Every file, by name."""
    serve = [site.spite, "serve", "--workers", str(site.workers), "--db", site.db, "--host", "0.0.0.0", "--port",
             "443", "--http-port", "80", "--tls-cert", site.tls_pem, "--metrics-port", str(site.metrics_port),
             "--log-format", "json"]
    backup = (f"exec {shlex.quote(site.spite)} backup "
              f"\"{site.backups}/spite-$(date +%Y%m%d-%H%M%S).backup\" --db {shlex.quote(site.db)}")
    after = "network-online.target postgresql.service" if site.db.startswith("postgres") else "network-online.target"
    return {
        "spite.service": f"""# spite for {site.domain}: rendered by `spite deploy` (docs/deploy.md)
[Unit]
Description=spite game server for {site.domain}
After={after}
Wants=network-online.target

[Service]
User={site.user}
Group={site.user}
EnvironmentFile={site.env_file}
ExecStart={_unit_escape(shlex.join(serve))}
Restart=on-failure
RestartSec=2
# the workers and HAProxy end with spite serve; give them time to let go of their tables
KillMode=mixed
TimeoutStopSec=30
# HAProxy, spite's child, listens on 443 and 80 as this user
AmbientCapabilities=CAP_NET_BIND_SERVICE
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=true
PrivateTmp=true
PrivateDevices=true
LimitNOFILE=65536

[Install]
WantedBy=multi-user.target
""",
        "spite-backup.service": f"""# spite's nightly backup for {site.domain}: rendered by `spite deploy`
[Unit]
Description=spite backup of the game server's database
After={after}

[Service]
Type=oneshot
User={site.user}
Group={site.user}
ExecStart=/bin/sh -c {_unit_escape(shlex.quote(backup))}
ExecStartPost=/usr/bin/find {site.backups} -name spite-*.backup -mtime +{site.keep_days} -delete
ProtectSystem=strict
ReadWritePaths={site.backups}
PrivateTmp=true
NoNewPrivileges=true
""",
        "spite-backup.timer": """# spite's nightly backup: rendered by `spite deploy` (docs/deploy.md)
[Unit]
Description=spite backup every night

[Timer]
OnCalendar=*-*-* 03:30:00
RandomizedDelaySec=600
Persistent=true

[Install]
WantedBy=timers.target
""",
        "spite-tls-hook": f"""#!/bin/sh
# certbot's deploy hook for {site.domain}: rendered by `spite deploy` (docs/deploy.md). HAProxy reads
# the certificate chain and its key from one file; spite serve reads it when it starts (certbot's
# post-hook starts it again after a renewal).
set -eu
pem="${{SPITE_TLS_PEM:-{site.tls_pem}}}"
umask 077
cat "$RENEWED_LINEAGE/fullchain.pem" "$RENEWED_LINEAGE/privkey.pem" > "$pem.new"
chown "${{SPITE_USER:-{site.user}}}" "$pem.new"
mv "$pem.new" "$pem"
""",
        "prometheus-spite.yml": f"""# Prometheus's scrape job for {site.domain}'s spite: under scrape_configs
- job_name: spite
  scrape_interval: 15s
  static_configs:
    - targets: ["127.0.0.1:{site.metrics_port}"]
""",
    }


def write(site: Site, folder: Path) -> list[Path]:
    """Write every file into ``folder`` (made if missing); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in render(site).items():
        path = folder / name
        path.write_text(text)
        if name == "spite-tls-hook":
            path.chmod(0o755)
        written.append(path)
    return written
