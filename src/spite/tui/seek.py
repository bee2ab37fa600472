"""``spite tui --connect URL --seek GAME[:PRESET]``: play a person now from the terminal.

The seek is made (``POST /api/seeks`` with this user's player key, :func:`open_seek`), asked about
with long polls until it is matched (``GET /api/seeks/{id}?wait=…``, :func:`ask_seek`: the server
answers the moment it pairs), and the seat it got is joined through the same link as ``--token``
(:func:`spite.tui.link.connect_table`). :func:`cancel_seek` cancels (``DELETE``). The app shows the
wait as a screen (:mod:`spite.tui.seek_screen`); :func:`seek_table` waits without one (scripts,
tests). Nothing here draws: no Textual.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from spite.games import get_game
from spite.tui.link import RemoteError, _http_json, player_key

__all__ = ["LONG_POLL_S", "OpenSeek", "ask_seek", "cancel_seek", "open_seek", "parse_seek", "seek_table"]

LONG_POLL_S = 10.0
"""Seconds one ``GET /api/seeks/{id}?wait=`` may wait at the server (it answers sooner on a change)."""


@dataclass(frozen=True)
class OpenSeek:
    """A seek made at the server ``base``: its ``answer`` to ``POST /api/seeks``."""

    base: str
    answer: dict[str, Any]


def parse_seek(spec: str) -> tuple[str, str | None]:
    """``GAME[:PRESET]`` as the game and preset (the preset may be left to the game).

    >>> from spite.games import game_names
    >>> game = game_names()[0]
    >>> parse_seek(f"{game}:quick") == (game, "quick"), parse_seek(game) == (game, None)
    (True, True)
    """
    game, _, preset = spec.partition(":")
    get_game(game)  # an unknown game: OptionsError naming the known ones
    return game, preset or None


def _seek_url(base: str, seek_id: str) -> str:
    return f"{base}/api/seeks/{urllib.parse.quote(seek_id, safe='')}"


def open_seek(base: str, game: str, preset: str | None, name: str, *, rated: bool = True,
              computer_after: float | None = 30.0) -> dict[str, Any]:
    """Make a seek with this user's player key: the server's answer (``id``, ``state``, ``rating``,
    ``group``, ``waited``, ``window``, ``computerAfter``); :class:`RemoteError` with one line if refused."""
    body = {"game": game, "preset": preset, "name": name, "playerKey": player_key(), "rated": rated,
            "computerAfter": computer_after}
    answer: dict[str, Any] = _http_json(f"{base}/api/seeks", body)
    return answer


def ask_seek(base: str, seek_id: str, wait: float = LONG_POLL_S) -> dict[str, Any]:
    """The seek as it stands, answered as soon as it stops waiting or after ``wait`` seconds."""
    answer: dict[str, Any] = _http_json(f"{_seek_url(base, seek_id)}?wait={wait:g}", timeout=wait + 10)
    return answer


def cancel_seek(base: str, seek_id: str) -> dict[str, Any]:
    """Cancel the seek: its state after (``cancelled``; ``matched`` with its seat when it was paired
    first: the seat is kept for whoever takes it)."""
    try:
        answer: dict[str, Any] = _http_json(_seek_url(base, seek_id), method="DELETE")
    except RemoteError as exc:
        if exc.status != 409:
            raise
        return ask_seek(base, seek_id, 0)
    return answer


def seek_table(base: str, game: str, preset: str | None, name: str, *, rated: bool = True,
               computer_after: float | None = 30.0, say: Callable[[str, dict[str, Any]], None] = lambda _k, _v: None,
               wait: float = LONG_POLL_S) -> dict[str, Any]:
    """Seek a game and wait until it is matched: the ``matched`` answer (``table``, ``seat``,
    ``token``, ``computer``). ``say(key, params)`` tells how the wait goes (a catalogue key: the
    caller words it); Ctrl-C cancels the seek and goes on as KeyboardInterrupt."""
    seek = open_seek(base, game, preset, name, rated=rated, computer_after=computer_after)
    say("tui.seek_waiting", {"rating": seek["rating"], "group": seek["group"]})
    try:
        while True:
            if seek["state"] == "matched" and isinstance(seek.get("matched"), dict):
                matched: dict[str, Any] = seek["matched"]
                say("tui.seek_matched_computer" if matched.get("computer") else "tui.seek_matched",
                    {"level": matched.get("computer") or ""})
                return matched
            if seek["state"] != "waiting":
                raise RemoteError(f"the seek was {seek['state']} by the server")
            seek = ask_seek(base, str(seek["id"]), wait)
    except KeyboardInterrupt:
        cancel_seek(base, str(seek["id"]))
        say("tui.seek_cancelled", {})
        raise
