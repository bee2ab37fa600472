"""``spite tui --connect URL --tournament ID``: a tournament from the terminal (docs/protocol.md, "Tournaments").

The terminal joins with this user's player key (:func:`join_tournament`; a terminal signed in to the
server with ``spite login`` joins as the account's player, under its handle), follows the tournament
with long polls (:func:`ask_tournament`, answered the moment it changes) and asks for its next table
the same way (:func:`ask_next`, answered the moment the table is made); that seat is then joined
through the same link as a seek's (:func:`spite.tui.link.connect_table`). The app shows all of it on a
screen (:mod:`spite.tui.tournament_screen`). Nothing here draws: no Textual.

>>> parse_tournament("localhost:8000", "k3J9x")
('http://localhost:8000', 'k3J9x')
>>> parse_tournament("https://spite.example/tournament/k3J9x", None)
('https://spite.example', 'k3J9x')
>>> parse_tournament("http://h:1", "http://h:1/tournament/abc/")
('http://h:1', 'abc')
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from spite.tui.link import RemoteError, _http_json, parse_address, player_key
from spite.tui.login import saved_session

__all__ = ["LONG_POLL_S", "OpenTournament", "ask_next", "ask_tournament", "join_tournament", "leave_tournament",
           "parse_tournament", "player_name"]

LONG_POLL_S = 10.0
"""Seconds one long poll may wait at the server (it answers sooner on a change)."""


@dataclass
class OpenTournament:
    """A tournament this terminal entered at the server ``base``: its ``info`` (TournamentInfo) as last
    answered and this player's ``entrant``."""

    base: str
    id: str
    info: dict[str, Any]
    entrant: dict[str, Any] = field(default_factory=dict)


def parse_tournament(connect: str, tournament: str | None) -> tuple[str, str]:
    """``(http base URL, tournament id)`` from ``--connect`` and ``--tournament`` (an id, or a link
    ``/tournament/ID``, in either)."""
    base, _ = parse_address(connect, "-")
    ident = (tournament or "").strip()
    if not ident and "/tournament/" in connect:
        ident = connect
    if "/tournament/" in ident:
        ident = ident.split("/tournament/", 1)[1]
    ident = ident.strip("/").split("/")[0].split("?")[0]
    if not ident:
        raise RemoteError("--tournament names no tournament (give its id or its link /tournament/ID)")
    return base, ident


def _url(base: str, tournament_id: str, tail: str = "") -> str:
    return f"{base}/api/tournaments/{urllib.parse.quote(tournament_id, safe='')}{tail}"


def player_name(base: str, name: str | None) -> str:
    """The name to enter under: ``--name``, else the account's handle when signed in there, else ``guest``."""
    if name:
        return name
    session = saved_session(base)
    handle = session.get("handle") if session else None
    return handle if isinstance(handle, str) and handle else "guest"


def ask_tournament(base: str, tournament_id: str, since: int | None = None,
                   wait: float = LONG_POLL_S) -> dict[str, Any]:
    """The tournament as it stands (TournamentInfo); with ``since``, answered as soon as its version is
    newer, or after ``wait`` seconds."""
    tail = "" if since is None else f"?since={since}&wait={wait:g}"
    answer: dict[str, Any] = _http_json(_url(base, tournament_id, tail), timeout=wait + 10)
    return answer


def ask_next(base: str, tournament_id: str, wait: float = LONG_POLL_S) -> dict[str, Any]:
    """This player's current or next table (NextTable: ``state`` waiting, seated, bye, withdrawn or
    finished; ``table``, ``seat``, ``token`` once seated), answered the moment it is made."""
    key = urllib.parse.quote(player_key(), safe="")
    answer: dict[str, Any] = _http_json(_url(base, tournament_id, f"/next?playerKey={key}&wait={wait:g}"),
                                        timeout=wait + 10)
    return answer


def join_tournament(base: str, tournament_id: str, name: str) -> OpenTournament:
    """Enter the tournament with this user's player key; already entered (a second terminal, a
    restart of this one): it goes on as that entrant. :class:`RemoteError` with one line if refused."""
    try:
        joined = _http_json(_url(base, tournament_id, "/join"), {"playerKey": player_key(), "name": name})
    except RemoteError as exc:
        if exc.status != 409:
            raise
        try:  # entered before? the server knows this key's next table
            ask_next(base, tournament_id, 0)
        except RemoteError:
            raise exc from None
        info = ask_tournament(base, tournament_id)
        mine = info.get("me")
        entrant = next((e for e in info.get("entrants", []) if e.get("id") == mine), None) if mine else None
        return OpenTournament(base, tournament_id, info, entrant or {"name": name})
    if not isinstance(joined, dict) or not isinstance(joined.get("tournament"), dict):
        raise RemoteError(f"the server's answer to joining tournament {tournament_id} names no tournament")
    return OpenTournament(base, tournament_id, joined["tournament"], dict(joined.get("entrant") or {"name": name}))


def leave_tournament(base: str, tournament_id: str) -> dict[str, Any]:
    """Withdraw from the tournament (no more pairings): its TournamentInfo after."""
    answer: dict[str, Any] = _http_json(_url(base, tournament_id, "/leave"), {"playerKey": player_key()})
    return answer
