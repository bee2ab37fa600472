"""The terminal signed in to a server's account (``spite login URL``, docs/accounts.md).

A signed-in device of the account (the page's Account → "Link another device") shows a short code;
``spite login URL`` takes it once, within a few minutes, and the server answers a session of the
account for this terminal. The session is kept in the app's config folder (``sessions.json``,
readable by the user alone), one per server; every request to that server and every WebSocket to
its tables carries it (``Authorization: Bearer``), so the terminal plays, seeks and is rated as the
account's player. ``spite logout URL`` signs the terminal out and forgets it.

>>> server_of("https://spite.example/t/k3J9x?x=1")
'https://spite.example'
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import urllib.parse
from pathlib import Path
from typing import Any

import platformdirs

__all__ = ["LoginRefused", "auth_headers", "forget_session", "login", "logout", "saved_session", "server_of",
           "sessions_path", "store_session", "whoami"]


def sessions_path(folder: Path | None = None) -> Path:
    """Where the terminal keeps its sessions (beside its player key)."""
    return (folder or Path(platformdirs.user_config_dir("spite", appauthor=False))) / "sessions.json"


def server_of(url: str) -> str:
    """The server a URL belongs to: its scheme and host (and port)."""
    parts = urllib.parse.urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _read(folder: Path | None) -> dict[str, Any]:
    with contextlib.suppress(OSError, ValueError):
        data = json.loads(sessions_path(folder).read_text(encoding="utf-8"))
        if isinstance(data, dict):
            return data
    return {}


def _write(data: dict[str, Any], folder: Path | None) -> None:
    path = sessions_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)  # the user's alone: a session is a secret
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1)


def saved_session(url: str, folder: Path | None = None) -> dict[str, Any] | None:
    """The session kept for the server of ``url`` (``session``, ``handle``, ``playerId``), or None."""
    found = _read(folder).get(server_of(url))
    return found if isinstance(found, dict) and isinstance(found.get("session"), str) else None


def store_session(url: str, answer: dict[str, Any], folder: Path | None = None) -> None:
    data = _read(folder)
    data[server_of(url)] = {"session": answer["session"], "handle": answer.get("handle"),
                            "playerId": answer.get("playerId")}
    _write(data, folder)


def forget_session(url: str, folder: Path | None = None) -> bool:
    data = _read(folder)
    gone = data.pop(server_of(url), None) is not None
    if gone:
        _write(data, folder)
    return gone


def auth_headers(url: str, folder: Path | None = None) -> dict[str, str]:
    """The header that signs a request to ``url``'s server in, when the terminal is signed in there."""
    found = saved_session(url, folder)
    return {"Authorization": f"Bearer {found['session']}"} if found else {}


def device_name() -> str:
    """How the account page lists this terminal."""
    return f"terminal on {socket.gethostname()}"[:64]


class LoginRefused(Exception):
    """The server refused, or could not be reached: one line in the person's language."""


def _call(url: str, body: dict[str, Any] | None, lang: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    import urllib.error
    import urllib.request

    from spite.catalogue import phrase_of, word

    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if body is not None else "GET",
                                     headers={"Content-Type": "application/json", "Accept": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            found = json.loads(answer.read())
            return found if isinstance(found, dict) else {}
    except urllib.error.HTTPError as exc:
        refusal: dict[str, Any] = {}
        with contextlib.suppress(Exception):
            refusal = json.loads(exc.read())
        phrase = phrase_of(refusal.get("words"))
        line = str(refusal.get("detail") or exc.reason)
        raise LoginRefused(word(lang, phrase, line) if phrase is not None else line) from None
    except (urllib.error.URLError, OSError, ValueError):
        raise LoginRefused(word(lang, _phrase("login.unreachable", server=server_of(url)),
                                f"cannot reach {server_of(url)}")) from None


def _phrase(key: str, **params: str) -> Any:
    from spite.errors import Phrase

    return Phrase(key, params)


def login(url: str, code: str, lang: str = "en", folder: Path | None = None) -> dict[str, Any]:
    """Sign this terminal in to the account whose device shows ``code``; the session is kept."""
    server = server_of(url)
    answer = _call(f"{server}/api/account/link/redeem", {"code": code, "token": True, "device": device_name()}, lang)
    if not isinstance(answer.get("session"), str):
        raise LoginRefused(f"{server} answered no session")
    store_session(server, answer, folder)
    return answer


def logout(url: str, lang: str = "en", folder: Path | None = None) -> bool:
    """Sign this terminal out of ``url``'s server (the server forgets the session too); False when it was not
    signed in there."""
    headers = auth_headers(url, folder)
    if not headers:
        return False
    with contextlib.suppress(LoginRefused):  # signed out there already (or gone): forgotten here all the same
        _call(f"{server_of(url)}/api/account/signout", {}, lang, headers)
    return forget_session(url, folder)


def whoami(url: str, lang: str = "en", folder: Path | None = None) -> dict[str, Any] | None:
    """The account this terminal is signed in to at ``url``'s server, as the server says (None: not signed in)."""
    headers = auth_headers(url, folder)
    if not headers:
        return None
    try:
        return _call(f"{server_of(url)}/api/account", None, lang, headers)
    except LoginRefused:
        return None
