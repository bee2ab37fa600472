"""A server in the test process that speaks a seat's protocol as a test tells it to: honestly, or
cheating one way, to see what the terminal app's link (``spite.tui.link``) makes of it.

It answers ``GET /api/tables/{id}`` (the table info with the deal's commitment, :attr:`FakeServer.info`)
and ``GET /api/games/1/record`` (:attr:`FakeServer.record`) over HTTP, and runs :attr:`FakeServer.talk`
for every WebSocket that says hello, on 127.0.0.1 at a free port, in a thread of its own (so that a
blocking client, the app's first hello, can talk to it too).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import random
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from spite.fairness import SCHEME, commitment, game_seed, parse_nonce
from spite.games import get_game
from spite.malice import State
from spite.malice.record import record_from_state
from spite.records.verify import is_chance_entry
from waiting import bounded

SECRET = bytes(range(32))
TABLE = "T1"
VIEW = {"finished": False, "to_move": 0}
"""The link looks at a view only to see whether the game is over."""

Talk = Callable[["FakeServer", ServerConnection, dict[str, Any]], Awaitable[None]]


def honest_record(table: str, secret: bytes, nonces: list[str | None], game: int = 1) -> dict[str, Any]:
    """A Spite and Malice game dealt from ``secret`` and ``nonces`` and played to the end by a seeded
    random player (the shuffles follow from the seed), with its ``fairness`` object."""
    seed = game_seed(secret, table, game, [None if n is None else parse_nonce(n) for n in nonces])
    state: State = get_game("spite-malice").dealt("short", {}, seed).engine
    rng = random.Random(3)
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        state.play(rng.choice(state.build_moves() or state.end_moves()))
    proof = {"scheme": SCHEME, "table": table, "game": game, "commitment": commitment(secret, table, game),
             "secret": secret.hex(), "nonces": nonces}
    return {**record_from_state(state, "short").to_json(), "fairness": proof}


def with_one_shuffle_changed(record: dict[str, Any]) -> dict[str, Any]:
    """The record with the first and last card of its second shuffle swapped."""
    bad = copy.deepcopy(record)
    at = [i for i, entry in enumerate(bad["moves"]) if is_chance_entry(entry)][1]
    cards = bad["moves"][at]["shuffle"]
    cards[0], cards[-1] = cards[-1], cards[0]
    return bad


class FakeServer:
    """One table, ``TABLE``, of two seats (this client at seat 0, a bot at seat 1)."""

    def __init__(self, talk: Talk) -> None:
        self.talk = talk
        self.secret = SECRET
        self.commitment = commitment(SECRET, TABLE, 1)
        self.info: dict[str, Any] = self.table_info(self.fair(dealt=False))
        """What ``GET /api/tables/T1`` answers (a test changes it between connections)."""
        self.record: dict[str, Any] | None = None
        self.gets: list[str] = []
        """The paths asked for over HTTP, in order."""
        self.hellos: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        """Every message after a hello, in order."""
        self.port = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ what it says
    def fair(self, dealt: bool = True, game: int = 1, **more: Any) -> dict[str, Any]:
        """A ``fair`` object of game ``game`` (its commitment this server's unless given in ``more``)."""
        return {"game": game, "commitment": self.commitment, "dealt": dealt, "sent": [False, False],
                "scheme": SCHEME, "first": None, **more}

    def revealed(self, nonces: list[str | None], **more: Any) -> dict[str, Any]:
        """The ``fair`` of the finished game 1: the secret and the nonces."""
        return self.fair(secret=self.secret.hex(), nonces=nonces, sent=[n is not None for n in nonces], **more)

    def table_info(self, fair: dict[str, Any] | None, status: str = "playing") -> dict[str, Any]:
        """A ``TableInfo`` as JSON."""
        return {"id": TABLE, "game": "spite-malice", "preset": "short", "options": {}, "status": status,
                "seats": [{"seat": 0, "kind": "person", "player": "ann", "status": "connected"},
                          {"seat": 1, "kind": "bot", "level": "easy", "status": "bot", "botLevel": "easy"}],
                "stateVersion": 0, "link": f"/t/{TABLE}", "gameId": None, "fair": fair}

    def welcome(self, fair: dict[str, Any] | None, version: int = 0, view: dict[str, Any] | None = None,
                **more: Any) -> str:
        """A ``welcome`` of seat 0 as JSON text."""
        return json.dumps({"type": "welcome", "table": self.info, "seat": 0, "stateVersion": version,
                           "view": view or VIEW, "legal": [], "fair": fair, **more})

    async def end_game(self, ws: ServerConnection, fair: dict[str, Any], version: int = 1,
                       view: dict[str, Any] | None = None, record: bool = True, **more: Any) -> None:
        """The final ``state`` and the ``gameOver`` (with the record's address unless ``record`` is false)."""
        final = view or {**VIEW, "finished": True}
        await ws.send(json.dumps({"type": "state", "stateVersion": version, "view": final, "legal": [],
                                  "last": None, "fair": fair, **more}))
        await ws.send(json.dumps({"type": "gameOver", "stateVersion": version, "result": {"winner": 0},
                                  "gameId": 1 if record else None, "recordUrl": "/api/games/1/record" if record
                                  else None, "fair": fair, **more}))

    async def listen(self, ws: ServerConnection) -> None:
        """Keep every message the client sends until it goes."""
        async for raw in ws:
            self.received.append(json.loads(raw))

    # ------------------------------------------------------------------ running
    @property
    def base(self) -> str:
        """The server's address for the link."""
        return f"http://127.0.0.1:{self.port}"

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.path.startswith("/ws/"):
            return None  # a WebSocket: talk
        self.gets.append(request.path)
        if request.path == f"/api/tables/{TABLE}":
            return connection.respond(200, json.dumps(self.info))
        if request.path == "/api/games/1/record" and self.record is not None:
            return connection.respond(200, json.dumps(self.record))
        return connection.respond(404, json.dumps({"detail": f"nothing at {request.path}"}))

    async def _socket(self, ws: ServerConnection) -> None:
        with contextlib.suppress(ConnectionClosed):  # the client went (or a test broke the connection)
            hello = json.loads(await ws.recv())
            self.hellos.append(hello)
            await self.talk(self, ws, hello)

    async def _serve(self, ready: threading.Event) -> None:
        self._stop = asyncio.Event()
        async with serve(self._socket, "127.0.0.1", 0, process_request=self._http, ping_interval=None) as server:
            self.port = next(iter(server.sockets)).getsockname()[1]
            ready.set()
            await self._stop.wait()

    def __enter__(self) -> FakeServer:
        ready = threading.Event()

        def main() -> None:
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(self._serve(ready))
            self._loop.close()

        self._thread = threading.Thread(target=main, name="fake-server", daemon=True)
        self._thread.start()
        assert ready.wait(10), "the fake server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(10)
