"""Ports for the test servers, safe when the suite runs on several xdist workers at once."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import TypeVar

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
