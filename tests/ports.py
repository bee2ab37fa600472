"""Ports for the test servers, safe when the suite runs on several xdist workers at once."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx

T = TypeVar("T")


def free_port() -> int:
    """A port free just now (another process may take it before it is bound: see :func:`start_retrying`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def listening_socket() -> socket.socket:
    """A socket bound to a free port of 127.0.0.1, for a server in this process to listen on: no other
    test (another xdist worker included) can take its port between choosing and binding it."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock


def listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` holds the socket listening on ``port`` (Linux's ``/proc``; elsewhere
    always true). A server started on a port chosen by :func:`free_port` may lose it to another test's
    server, whose ``/healthz`` then answers on it: the answer alone does not say that the server is ours."""
    tables = [Path("/proc/net/tcp"), Path("/proc/net/tcp6")]
    if not all(t.exists() for t in tables):
        return True
    inodes = set()
    for table in tables:
        for line in table.read_text().splitlines()[1:]:
            fields = line.split()
            local, state, inode = fields[1], fields[3], fields[9]
            if state == "0A" and int(local.rsplit(":", 1)[1], 16) == port:  # 0A: LISTEN
                inodes.add(f"socket:[{inode}]")
    for owner in (pid, *descendants(pid)):  # a server behind HAProxy: HAProxy, its grandchild, listens
        try:
            if any(os.readlink(fd) in inodes for fd in Path(f"/proc/{owner}/fd").iterdir()):
                return True
        except (FileNotFoundError, ProcessLookupError, PermissionError):  # gone, or not ours to read
            continue
    return False


def serves(proc: subprocess.Popen[Any], port: int) -> bool:
    """For a wait on a server process started on ``port`` of 127.0.0.1: it exited (its caller says
    why), or it answers ``/healthz`` there and holds the port itself (:func:`listens`)."""
    if proc.poll() is not None:
        return True
    with contextlib.suppress(httpx.HTTPError):
        return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200 and listens(proc.pid, port)
    return False


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid``, by their children and so on (Linux's ``/proc``)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            parents.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


IN_USE = "address already in use"
"""What ``spite serve`` says (exit 2) when its port was taken before it could bind it."""


def start_retrying(start: Callable[[int], T], attempts: int = 3) -> T:
    """``start(port)`` on a free port, again on another one when the port was taken in between (by
    another test's client or server: the suite runs on several xdist workers); ``start`` raises
    :class:`PortTaken` for that."""
    for attempt in range(attempts):
        try:
            return start(free_port())
        except PortTaken:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


class PortTaken(RuntimeError):
    """The server could not bind its port: another process took it after it was chosen."""
