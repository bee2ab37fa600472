"""``spite tui --connect URL --seek GAME[:PRESET]``: play a person now from the terminal.

The seek is made (``POST /api/seeks`` with this user's player key), asked about until it is matched
(``GET /api/seeks/{id}``), and the seat it got is joined through the same link as ``--token``
(:func:`spite.tui.link.connect_table`). Ctrl-C while waiting cancels it (``DELETE``). The clock and
the sleep are handed in, so the test waits for nothing.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable
from typing import Any

from spite.games import get_game
from spite.tui.link import RemoteError, _http_json, player_key

__all__ = ["parse_seek", "seek_table"]


def parse_seek(spec: str) -> tuple[str, str | None]:
    """``GAME[:PRESET]`` as the game and preset (the preset may be left to the game).

    >>> parse_seek("spite-malice:short"), parse_seek("spit")
    (('spite-malice', 'short'), ('spit', None))
    """
    game, _, preset = spec.partition(":")
    get_game(game)  # an unknown game: OptionsError naming the known ones
    return game, preset or None


def seek_table(base: str, game: str, preset: str | None, name: str, *, rated: bool = True,
               computer_after: float | None = 30.0, say: Callable[[str, dict[str, Any]], None] = lambda _k, _v: None,
               sleep: Callable[[float], None] = time.sleep, poll: float = 0.5) -> dict[str, Any]:
    """Seek a game and wait until it is matched: the ``matched`` answer (``table``, ``seat``,
    ``token``, ``computer``). ``say(key, params)`` tells how the wait goes (a catalogue key: the
    caller words it); Ctrl-C cancels the seek and goes on as KeyboardInterrupt."""
    body = {"game": game, "preset": preset, "name": name, "playerKey": player_key(), "rated": rated,
            "computerAfter": computer_after}
    seek = _http_json(f"{base}/api/seeks", body)
    url = f"{base}/api/seeks/{urllib.parse.quote(str(seek['id']), safe='')}"
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
            sleep(poll)
            seek = _http_json(url)
    except KeyboardInterrupt:
        try:
            _http_json(url, method="DELETE")
        except RemoteError as exc:  # matched meanwhile (409): the seat is kept for whoever comes back
            if exc.status != 409:
                raise
        say("tui.seek_cancelled", {})
        raise
