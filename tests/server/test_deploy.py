"""The deploy guide (docs/deploy.md): every ``spite`` command line on it parses with the command's own
parser; ``spite deploy`` renders the units, the timer, the TLS hook and the Prometheus job; the units
pass ``systemd-analyze verify``; the hook turns a certificate and key into the one PEM HAProxy reads;
the proxy configuration the guide prints, with TLS, passes ``haproxy -c``."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main

from spite.cli import app
from spite.server.cluster import find_haproxy
from tls_helpers import local_certificate

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
SPITE = "/opt/spite/bin/spite"


def guide_commands() -> list[list[str]]:
    """Every command line of the guide's ``sh`` blocks, as words."""
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), flags=re.S)
    return [shlex.split(line) for block in blocks for line in block.splitlines() if line.strip()]


def spite_args(words: list[str]) -> list[str] | None:
    """The arguments of a ``spite`` command line (also under ``runuser -u USER --``), else ``None``."""
    if words[:1] == ["runuser"] and "--" in words:
        words = words[words.index("--") + 1:]
    return words[1:] if words[:1] == [SPITE] else None


def parse(args: list[str]) -> None:
    """Parse ``args`` as ``spite`` would (every group and command down the line), running nothing."""
    command: Any = typer.main.get_command(app)
    ctx = command.make_context("spite", list(args), resilient_parsing=False)
    while hasattr(command, "resolve_command"):
        rest = [*getattr(ctx, "_protected_args", getattr(ctx, "protected_args", [])), *ctx.args]
        _name, command, rest = command.resolve_command(ctx, rest)
        ctx = command.make_context(_name, rest, parent=ctx, resilient_parsing=False)


def test_every_spite_command_of_the_guide_parses() -> None:
    lines = [args for words in guide_commands() if (args := spite_args(words)) is not None]
    assert len(lines) == 7  # deploy, four of admin, backup, restore
    for args in lines:
        parse(args)  # an unknown option or command raises here
    with pytest.raises(Exception, match="No such option"):
        parse(["backup", "x", "--db", "y", "--no-such-option"])


def deploy_line() -> list[str]:
    (line,) = [args for words in guide_commands() if (args := spite_args(words)) and args[0] == "deploy"]
    return line


def test_the_rendered_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    args = deploy_line()
    spite = str(Path(sys.executable).with_name("spite"))
    done = subprocess.run([spite, *args[:1], str(tmp_path), *args[2:], "--spite-bin", spite],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {"spite.service", "spite-backup.service", "spite-backup.timer", "spite-tls-hook",
                     "prometheus-spite.yml"}
    unit = (tmp_path / "spite.service").read_text()
    assert "--tls-cert /etc/spite/tls.pem" in unit and "--metrics-port 9464" in unit and "--workers 2" in unit
    assert '"127.0.0.1:9464"' in (tmp_path / "prometheus-spite.yml").read_text()
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not on this machine: the units are not verified")
    units = [str(tmp_path / n) for n in ("spite.service", "spite-backup.service", "spite-backup.timer")]
    checked = subprocess.run([analyze, "verify", *units], capture_output=True, text=True, timeout=60,
                             cwd=tmp_path)
    assert checked.returncode == 0 and checked.stderr.strip() == "", checked.stderr


@pytest.mark.skipif(find_haproxy() is None or shutil.which("openssl") is None,
                    reason="HAProxy or openssl is not installed: the proxy's configuration is not checked")
def test_the_tls_hook_makes_the_pem_the_printed_proxy_configuration_takes(tmp_path: Path) -> None:
    spite = str(Path(sys.executable).with_name("spite"))
    subprocess.run([spite, "deploy", str(tmp_path / "d"), "--domain", "club.example"], check=True,
                   capture_output=True, timeout=60)
    lineage = tmp_path / "live"
    lineage.mkdir()
    cert, _pem = local_certificate(lineage)
    shutil.copy(cert, lineage / "fullchain.pem")
    shutil.copy(lineage / "key.pem", lineage / "privkey.pem")
    pem = tmp_path / "tls.pem"
    import getpass

    env = {**os.environ, "RENEWED_LINEAGE": str(lineage), "SPITE_TLS_PEM": str(pem), "SPITE_USER": getpass.getuser()}
    subprocess.run([str(tmp_path / "d" / "spite-tls-hook")], env=env, check=True, timeout=30)
    assert pem.stat().st_mode & 0o077 == 0  # the key is for the server's user alone
    (line,) = [w for w in guide_commands() if w[1:3] == ["-m", "spite.server"]]
    args = [str(pem) if a == "/etc/spite/tls.pem" else a for a in line[3:]]
    printed = subprocess.run([sys.executable, "-m", "spite.server", *args], capture_output=True, text=True,
                             timeout=60, check=True).stdout
    assert f"bind 0.0.0.0:443 ssl crt {pem} alpn h2,http/1.1" in printed
    assert "http-request redirect scheme https code 301" in printed
    assert 'Strict-Transport-Security "max-age=31536000"' in printed
    (tmp_path / "haproxy.cfg").write_text(printed)
    checked = subprocess.run([find_haproxy() or "haproxy", "-c", "-q", "-f", str(tmp_path / "haproxy.cfg")],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr + checked.stdout
