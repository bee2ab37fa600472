"""A seat at a table of a running ``spite serve``: the lobby calls, the WebSocket link, the remote table.

No Textual here. :class:`RemoteMaliceTable` stands in for :class:`~spite.tui.session.MaliceTable`
on the Spite and Malice screen: the position comes from the server's ``welcome`` and ``state``
messages (``view`` is ``SeatView.to_json()`` of this seat, rebuilt with
:func:`spite.rl.encoding.view_from_json`), a move of this keyboard is sent as a ``move`` message,
and the server's bots and people play the other seats. :class:`RemoteLink` keeps the WebSocket
open (``hello`` with the token, or as a spectator) and reconnects when it drops.

Undo inside a turn is the server's (``undo``, allowed while the last ``canUndo`` says so), and a
match table's score comes with the messages (:class:`RemoteMatch`); between its games ``next``
asks for the next deal.

>>> table = RemoteMaliceTable.from_welcome("http://127.0.0.1:8000", WELCOME_EXAMPLE, token="t0k")
>>> table.seat, table.version, table.opts.stock_size, table.seats[1].name
(0, 0, 3, 'hard')
>>> [m.text for m in table.view(0).legal_moves][:2]
['S-B1', 'H2-D1']
>>> table.handle({"type": "state", "stateVersion": 2, "view": WELCOME_EXAMPLE["view"], "legal": []}).sync
True
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import platformdirs

from spite.bots import Decision, make_bot
from spite.cards import RANKS, WILD_RANK
from spite.catalogue import phrase_of
from spite.errors import OptionsError, Phrase, refusal
from spite.fairness import commitment, fingerprint, parse_secret
from spite.games import load_hook
from spite.malice import Move, Options, SeatView
from spite.malice.state import Result
from spite.rl.encoding import view_from_json
from spite.tui.session import LogEntry, Seat

__all__ = [
    "FATAL_CODES",
    "RemoteError",
    "RemoteLink",
    "RemoteMaliceTable",
    "RemoteMatch",
    "RemoteUpdate",
    "connect_table",
    "join_table",
    "parse_address",
    "player_key",
    "probe",
    "view_from_server",
]

FATAL_CODES = frozenset({"wrong-token", "no-table"})
"""Errors after which the server closes the connection for good: no reconnecting."""

RETRY_DELAYS = (0.3, 1.0, 2.0, 4.0, 8.0)
"""Seconds before each reconnect attempt (the last one repeats)."""


class RemoteError(Exception):
    """The server (or the way to it) refused: one line for the player."""


# ---------------------------------------------------------------------- addresses and the lobby
def parse_address(connect: str, table: str | None) -> tuple[str, str]:
    """``(http base URL, table id)`` from ``--connect`` and ``--table`` (an id, ``/t/ID`` or a full link).

    >>> parse_address("localhost:8000", "k3J9x")
    ('http://localhost:8000', 'k3J9x')
    >>> parse_address("https://spite.example/t/k3J9x", None)
    ('https://spite.example', 'k3J9x')
    >>> parse_address("ws://h:1", "http://h:1/t/abc/")
    ('http://h:1', 'abc')
    """
    text = connect.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urllib.parse.urlsplit(text)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    if scheme not in ("http", "https") or not parts.netloc:
        raise RemoteError(f"--connect wants a server address such as http://host:8000, not {connect!r}")
    base = f"{scheme}://{parts.netloc}"
    ident = table.strip() if table else ""
    if not ident and "/t/" in parts.path:
        ident = parts.path
    if "/t/" in ident:
        ident = ident.split("/t/", 1)[1]
    ident = ident.strip("/").split("/")[0].split("?")[0]
    if not ident:
        raise RemoteError("--table names no table (give its id or its link /t/ID)")
    return base, ident


def ws_url(base: str, table_id: str) -> str:
    """The WebSocket address of a table."""
    return base.replace("http", "ws", 1) + "/ws/" + urllib.parse.quote(table_id, safe="")


def _post_json(url: str, body: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            out: dict[str, Any] = json.loads(answer.read())
            return out
    except urllib.error.HTTPError as exc:
        detail: Any = None
        with contextlib.suppress(Exception):
            detail = json.loads(exc.read()).get("detail")
        if isinstance(detail, list):  # 422: pydantic's list of problems
            detail = "; ".join(str(d.get("msg", d)) for d in detail)
        raise RemoteError(f"the server refused ({exc.code}): {detail or exc.reason}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RemoteError(f"cannot reach {url}: {reason}") from None


def player_key(folder: Path | None = None) -> str:
    """This user's secret player key, made once and kept in the app's config folder (``player-key``,
    readable by the user alone): the games played from this terminal count for the player id a server
    makes of it, whatever name is given (docs/protocol.md, "Players and names")."""
    folder = folder or Path(platformdirs.user_config_dir("spite", appauthor=False))
    path = folder / "player-key"
    with contextlib.suppress(OSError):
        key = path.read_text(encoding="utf-8").strip()
        if _KEY.fullmatch(key):
            return key
    key = secrets.token_urlsafe(24)
    with contextlib.suppress(OSError):  # a read-only home: this game still counts, under a one-off key
        folder.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(key + "\n")
    return key


_KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")


def join_table(base: str, table_id: str, name: str) -> tuple[int, str]:
    """Take a free person seat (``POST /api/tables/{id}/join``) with this user's player key:
    ``(seat, token)``."""
    answer = _post_json(f"{base}/api/tables/{urllib.parse.quote(table_id, safe='')}/join",
                        {"name": name, "playerKey": player_key()})
    return int(answer["seat"]), str(answer["token"])


SEAT_NONCE = secrets.token_hex(16)
"""This run's random part of the deal (docs/fairness.md), sent with every hello of a seat."""


def hello_message(token: str | None) -> dict[str, Any]:
    """``hello`` with the token (and this run's nonce for the deal), or as a spectator."""
    return {"type": "hello", "token": token, "nonce": SEAT_NONCE} if token else {"type": "hello", "spectate": True}


def fair_state(fair: dict[str, Any] | None, table_id: str) -> tuple[str, bool | None] | None:
    """The deal fingerprint of a message's ``fair`` (docs/fairness.md) and, once the secret is revealed,
    whether it gives the commitment (checked here); ``None`` without a ``fair``."""
    if not isinstance(fair, dict) or not isinstance(fair.get("commitment"), str):
        return None
    committed = str(fair["commitment"])
    secret = fair.get("secret")
    if not isinstance(secret, str):
        return fingerprint(committed), None
    try:
        ok = commitment(parse_secret(secret), table_id, int(fair.get("game", 0))) == committed
    except ValueError:
        ok = False
    return fingerprint(committed), ok


def probe(base: str, table_id: str, token: str | None, timeout: float = 10) -> dict[str, Any]:
    """Say hello once (blocking) and return the ``welcome``; :class:`RemoteError` with the server's line."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    url = ws_url(base, table_id)
    try:
        with connect(url, open_timeout=timeout, close_timeout=2) as ws:
            ws.send(json.dumps(hello_message(token)))
            while True:
                msg = json.loads(ws.recv(timeout))
                if msg.get("type") == "welcome":
                    return msg  # type: ignore[no-any-return]
                if msg.get("type") == "error":
                    raise RemoteError(f"the server refused ({msg.get('code')}): {msg.get('message')}")
    except RemoteError:
        raise
    except (OSError, TimeoutError, WebSocketException, ValueError) as exc:
        raise RemoteError(f"cannot reach {url}: {exc or type(exc).__name__}") from None


def connect_table(connect: str, table: str | None, token: str | None = None,
                  name: str | None = None) -> Any:
    """Everything ``spite tui --connect`` does before the app starts: join (``name``), hello, the table:
    the table its game's ``tui`` hook makes (a :class:`RemoteMaliceTable`, a
    :class:`~spite.tui.remote_spit.RemoteSpitTable`, ...)."""
    base, table_id = parse_address(connect, table)
    if token and name:
        raise RemoteError("give --token (your seat) or --name (take a free seat), not both")
    if name:
        _, token = join_table(base, table_id, name)
    welcome = probe(base, table_id, token)
    game = (welcome.get("table") or {}).get("game", "spite-malice")
    try:
        hook = load_hook(game, "tui")  # the game's client side, from the registry
    except OptionsError:
        raise RemoteError(f"table {table_id} plays {game}: the terminal does not play that game") from None
    return hook.remote_table(base, welcome, token)


# ---------------------------------------------------------------------- views
def view_from_server(opts: Options, view: dict[str, Any], legal: list[str]) -> SeatView:
    """The :class:`SeatView` of a server's ``view`` (records.md §5) and ``legal`` list, with its result."""
    rebuilt = _fill_builds(view_from_json(opts, view, legal))
    result = view.get("result")
    if result:
        rebuilt = rebuilt._replace(result=Result(winner=result.get("winner"), reason=str(result.get("reason")),
                                                 points=result.get("points"), team=result.get("team")))
    return rebuilt


def _fill_builds(view: SeatView) -> SeatView:
    """Put plausible cards under each build pile's top (the JSON gives only its value and top).

    ``view_from_json`` puts jokers there; a bot that deals out the unseen cards (the hint) needs
    the counts to add up, so each slot takes a card of its rank that nobody can see elsewhere.
    """
    if not any(len(pile) > 1 for pile in view.builds):
        return view
    tops = tuple(pile[-1:] for pile in view.builds)
    unseen = view._replace(builds=tops).unseen_cards()
    builds: list[tuple[int, ...]] = []
    for pile in view.builds:
        below: list[int] = []
        for rank in range(1, len(pile)):
            spare = [c for c in unseen if unseen[c] > 0]
            pick = next((c for c in spare if RANKS[c] == rank), None)
            if pick is None:
                pick = next((c for c in spare if RANKS[c] == WILD_RANK), spare[0] if spare else pile[0])
            unseen[pick] -= 1
            below.append(pick)
        builds.append((*below, *pile[-1:]))
    return view._replace(builds=tuple(builds))


@dataclass(frozen=True)
class RemotePosition:
    """What the screen asks of ``table.state``: is the game over, its result, turn and ply (the moves
    that stand in this game, as far as this connection saw its versions go by)."""

    is_over: bool
    result: Result | None
    turn: int
    plies: int
    opts: Options


@dataclass
class RemoteUpdate:
    """What a server message means for the screen: ``notice`` to show, ``sync`` to send, ``error`` text;
    ``undone`` the move the server took back (its ``ack``), ``new_game`` when a match's next game began."""

    notice: str | None = None
    error: str | None = None
    error_words: Phrase | None = None
    """``error`` as the server's catalogue phrase (docs/protocol.md, "Words"), if it sent one."""
    notice_words: Phrase | None = None
    sync: bool = False
    undone: str | None = None
    new_game: bool = False


@dataclass(frozen=True)
class RemoteMatch:
    """A match table's score as the server sends it (``match`` of docs/protocol.md), read as the screen
    reads :class:`spite.malice.Match`: ``scores``, ``target``, ``is_over``, ``winner`` (a side).

    >>> m = RemoteMatch.from_json({"scores": [1, 0], "target": 2, "game": 1, "over": False, "winner": None,
    ...                            "betweenGames": True, "ready": [1], "nextIn": 30.0})
    >>> m.scores, m.target, m.is_over, m.between_games, m.ready
    ([1, 0], 2, False, True, [1])
    """

    scores: list[int]
    target: int
    game: int = 1
    is_over: bool = False
    winner: int | None = None
    between_games: bool = False
    ready: list[int] = field(default_factory=list)
    next_in: float | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RemoteMatch:
        """The ``match`` object of a ``welcome``, ``state``, ``table`` or ``gameOver``."""
        winner = data.get("winner")
        next_in = data.get("nextIn")
        return cls(scores=[int(s) for s in data.get("scores") or []], target=int(data.get("target") or 0),
                   game=int(data.get("game") or 1), is_over=bool(data.get("over")),
                   winner=None if winner is None else int(winner), between_games=bool(data.get("betweenGames")),
                   ready=[int(s) for s in data.get("ready") or []],
                   next_in=None if next_in is None else float(next_in))


def _seat_name(info: dict[str, Any]) -> str:
    if info.get("status") == "bot" and info.get("kind") == "person" and info.get("botLevel"):
        return f"{info.get('player') or 'guest'}→{info['botLevel']}"
    if info.get("kind") == "bot":
        return str(info.get("level") or info.get("botLevel") or "bot")
    return str(info.get("player") or "free")


@dataclass
class RemoteMaliceTable:
    """A Spite and Malice table on a server, as :class:`~spite.tui.malice_screen.MaliceScreen` reads it."""

    game: ClassVar[str] = "spite-malice"
    """The registered game (its ``tui`` hook opens the screen)."""

    base: str
    table_id: str
    opts: Options
    preset: str
    seat: int | None
    token: str | None
    info: dict[str, Any]
    version: int
    view_json: dict[str, Any]
    legal: list[str]
    seats: list[Seat] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    match: RemoteMatch | None = None
    """A match table's score (from the last message that carried it); ``None`` at a table of one game."""
    games: int = 1
    """Games seen over this connection (a match's next game adds one)."""
    pending: tuple[str, str] | None = None
    """The move (or undo) sent and not yet answered: ``(id, text)``."""
    pending_undo: bool = False
    """True when :attr:`pending` is an ``undo`` (``text`` the move asked to be taken back)."""
    server_can_undo: bool = False
    """The last ``canUndo`` of the server: may this seat take back its last move now."""
    awaiting_next: str | None = None
    """The id of the ``next`` sent between a match's games, until the next game is dealt."""
    acked: list[str] = field(default_factory=list)
    """Every move of this seat the server acknowledged (committed), canonical text."""
    undone: list[str] = field(default_factory=list)
    """Every move of this seat the server took back on its ``undo`` (its ``ack``), canonical text."""
    refused: list[tuple[str, str]] = field(default_factory=list)
    """Every ``error`` of the server: ``(code, message)``."""
    syncing: bool = False
    connected: bool = True
    fatal: str | None = None
    """Set when the server closed the table to us for good (wrong token, no table)."""
    status: str = ""
    """The link's state for the screen (``reconnecting …``), empty while all is well."""
    game_over: dict[str, Any] | None = None
    _counter: int = 0
    _view: SeatView | None = None
    _position_game: int = 1
    """The match's game number of the position shown."""
    version_base: int = 0
    """``stateVersion`` minus the moves of the game in play, as seen here: a match's next game starts at
    its first version, each undo adds 2 (a table joined after an undo or in a later game counts from 0)."""

    @classmethod
    def from_welcome(cls, base: str, welcome: dict[str, Any], token: str | None) -> RemoteMaliceTable:
        """The table of a ``welcome`` message (the first answer to ``hello``)."""
        info = welcome["table"]
        try:
            opts = Options.from_preset(info["preset"], info.get("options") or {})
        except OptionsError as exc:
            raise RemoteError(f"this client does not know the table's rules: {exc}") from None
        table = cls(base=base, table_id=str(info["id"]), opts=opts, preset=str(info["preset"]),
                    seat=welcome.get("seat"), token=token, info=info, version=int(welcome["stateVersion"]),
                    view_json=welcome["view"], legal=list(welcome.get("legal") or []))
        table._seats_from_info()
        table.server_can_undo = bool(welcome.get("canUndo"))
        table._match_from(welcome)
        table._position_game = table.match.game if table.match is not None else 1
        return table

    # ------------------------------------------------------------------ what the screen reads
    @property
    def humans(self) -> list[int]:
        """The seat played at this keyboard (none when spectating)."""
        return [] if self.seat is None else [self.seat]

    @property
    def hot_seat(self) -> bool:
        """Never: one person at this keyboard."""
        return False

    @property
    def state(self) -> RemotePosition:
        """The position's outline (the screen asks whether the game is over)."""
        view = self.view(self.seat)
        return RemotePosition(is_over=view.result is not None, result=view.result, turn=view.turn,
                              plies=max(0, self.version - self.version_base), opts=self.opts)

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return int(self.view_json["to_move"])

    @property
    def human_to_move(self) -> bool:
        """True when this keyboard may move now (its turn, connected, no move waiting for an answer)."""
        return (self.seat is not None and self.connected and self.pending is None and not self.syncing
                and not self.view_json.get("finished") and self.to_move == self.seat and bool(self.legal))

    @property
    def match_over(self) -> bool:
        """True when no next game follows for this keyboard: a table of one game, the match's end, or
        a spectator (who does not start games)."""
        return self.seat is None or self.match is None or self.match.is_over

    def view(self, seat: int | None = None) -> SeatView:
        """The newest view the server sent (this seat's; a spectator's has no hand)."""
        if self._view is None:
            self._view = view_from_server(self.opts, self.view_json, self.legal)
        return self._view

    def side_name(self, side: int) -> str:
        """A seat's or team's name."""
        if self.opts.partnerships:
            return f"{self.seats[side].name} + {self.seats[side + 2].name}"
        return self.seats[side].name

    def turn_log(self, limit: int | None = None) -> list[str]:
        """The moves seen over this connection, by turns (``"3 P2: H7-B2 S-B1"``)."""
        lines: list[str] = []
        current: tuple[int, int] | None = None
        for entry in self.log:
            key = (entry.turn, entry.seat)
            if key != current:
                lines.append(f"{entry.turn} P{entry.seat + 1}:")
                current = key
            lines[-1] += " " + entry.move
        return lines if limit is None else lines[-limit:]

    # ------------------------------------------------------------------ what the screen does
    send: Callable[[dict[str, Any]], bool] = field(default=lambda msg: False, repr=False)
    """Hands a message to the link; False when there is no connection."""

    def play(self, move: Move | str) -> Move | str:
        """Send a move of this seat; the server's ``ack`` or ``error`` answers it later."""
        text = move if isinstance(move, str) else move.text
        if self.seat is None:
            raise refusal("you are watching: a spectator cannot move", "client.watching")
        if self.pending is not None:
            raise refusal(f"wait: the server has not answered {self.pending[1]} yet", "client.waiting",
                          move=self.pending[1])
        self._counter += 1
        ident = f"m{self._counter}"
        if not self.send({"type": "move", "move": text, "stateVersion": self.version, "id": ident}):
            raise refusal("not connected to the server; reconnecting", "client.offline")
        self.pending = (ident, text)
        return move

    def can_undo(self) -> bool:
        """True when the server's last ``canUndo`` allows taking back this seat's last move and this
        keyboard may act (connected, its turn, nothing waiting for an answer)."""
        return self.server_can_undo and self.human_to_move

    def undo(self) -> str:
        """Ask the server to take back this seat's last move; its ``ack`` (``undone``) or ``error``
        answers later. Returns the move asked for (from the log; ``""`` when the log does not know it)."""
        if self.seat is None:
            raise refusal("you are watching: a spectator cannot undo", "client.watching")
        if self.pending is not None:
            raise refusal(f"wait: the server has not answered {self.pending[1]} yet", "client.waiting",
                          move=self.pending[1])
        last = self.log[-1] if self.log else None
        text = last.move if last is not None and last.seat == self.seat else ""
        self._counter += 1
        ident = f"u{self._counter}"
        if not self.send({"type": "undo", "stateVersion": self.version, "id": ident}):
            raise refusal("not connected to the server; reconnecting", "client.offline")
        self.pending = (ident, text)
        self.pending_undo = True
        return text

    def hint(self, level: str = "hard") -> Decision:
        """What the bot of ``level`` (``hard`` unless asked) would play in this seat's view."""
        if self.seat is None or self.state.is_over:
            raise refusal("no move to hint", "client.no-hint")
        bot = make_bot(level)
        bot.start_game(self.opts, self.seat)
        return bot.decide(self.view(self.seat), random.Random(f"spite-tui-hint/{self.version}"), None)

    def new_game(self) -> None:
        """Between a match's games: tell the server this seat is ready (``next``); the next game's
        ``state`` comes when every person seat is (or after the server's pause)."""
        if self.match_over:
            why = "watching" if self.seat is None else "match-over" if self.match else "single"
            raise refusal("no next game: " + {"watching": "you are watching", "match-over": "the match is over",
                                              "single": "a single game"}[why], f"client.no-next.{why}")
        self._counter += 1
        ident = f"n{self._counter}"
        if not self.send({"type": "next", "id": ident, "nonce": secrets.token_hex(16)}):
            raise refusal("not connected to the server; reconnecting", "client.offline")
        self.awaiting_next = ident

    def finish(self) -> None:
        """Nothing to count: the server keeps the result."""

    # ------------------------------------------------------------------ server messages
    def _seats_from_info(self) -> None:
        self.seats = [Seat("human" if s["seat"] == self.seat else "remote", _seat_name(s))
                      for s in sorted(self.info.get("seats", []), key=lambda s: int(s["seat"]))]
        while len(self.seats) < self.opts.players:
            self.seats.append(Seat("remote", "?"))

    def _set_position(self, version: int, view: dict[str, Any], legal: list[str] | None,
                      msg: dict[str, Any] | None = None) -> bool:
        """Take a position (with ``canUndo`` and ``match`` of its message); True when it is a new game."""
        old_game = self._position_game
        was_over = bool(self.view_json.get("finished"))
        self.version = version
        self.view_json = view
        self.legal = list(legal or [])
        self._view = None
        if msg is not None:
            self.server_can_undo = bool(msg.get("canUndo"))
            self._match_from(msg)
            if self.match is not None and isinstance(msg.get("match"), dict):
                self._position_game = self.match.game
        new = not view.get("finished") and (was_over or self._position_game > old_game)
        if new:
            self.version_base = version
            self.games += 1
            self.log.clear()
            self.game_over = None
            self.awaiting_next = None
        return new

    def _match_from(self, msg: dict[str, Any]) -> None:
        data = msg.get("match")
        if isinstance(data, dict):
            self.match = RemoteMatch.from_json(data)

    def handle(self, msg: dict[str, Any]) -> RemoteUpdate:
        """Take in one server message; say what the screen should show or send."""
        kind = msg.get("type")
        out = RemoteUpdate()
        version = msg.get("stateVersion")
        if kind == "welcome":
            self.info = msg.get("table") or self.info
            self.seat = msg.get("seat", self.seat)
            self._seats_from_info()
            out.new_game = self._set_position(int(msg["stateVersion"]), msg["view"], msg.get("legal"), msg)
            self.pending = None
            if self.awaiting_next is not None and not (self.match is not None and self.match.between_games
                                                       and self.seat in self.match.ready):
                self.awaiting_next = None  # the server forgot it (a restart): N asks again
            self.syncing = False
            self.connected = True
            self.status = ""
        elif kind == "state" and isinstance(version, int):
            if self.syncing:
                if version >= self.version:
                    out.new_game = self._set_position(version, msg["view"], msg.get("legal"), msg)
                    self.syncing = False
            elif version == self.version + 1:
                last = msg.get("last") or None
                if last and last.get("undone"):  # the seat took its move back: it leaves the log
                    self.version_base += 2
                    taken = LogEntry(int(self.view_json.get("turn", 1)), int(last["seat"]), str(last["move"]))
                    if self.log and self.log[-1] == taken:
                        self.log.pop()
                elif last:
                    self.log.append(LogEntry(int(self.view_json.get("turn", 1)), int(last["seat"]), str(last["move"])))
                out.new_game = self._set_position(version, msg["view"], msg.get("legal"), msg)
            elif version > self.version + 1:
                self.syncing = out.sync = True  # a gap: ask for the whole position
        elif kind == "ack":
            if self.pending is not None and msg.get("id") == self.pending[0]:
                self.pending = None
            if msg.get("undone"):
                self.undone.append(str(msg.get("move")))
                out.undone = str(msg.get("move"))
            else:
                self.acked.append(str(msg.get("move")))
        elif kind == "error":
            code, text = str(msg.get("code")), str(msg.get("message"))
            self.refused.append((code, text))
            if self.pending is not None and msg.get("id") in (None, self.pending[0]):
                self.pending = None
            if self.awaiting_next is not None and msg.get("id") == self.awaiting_next:
                self.awaiting_next = None
            elif code == "no-next-game" and not self.view_json.get("finished"):
                return out  # a late next: the server's pause had already dealt the next game
            out.error, out.error_words = text, phrase_of(msg.get("words"))
            if code == "stale" or (isinstance(version, int) and version > self.version):
                self.syncing = out.sync = True
            if code in FATAL_CODES:
                self.fatal = text
        elif kind == "table":
            self.info = msg.get("table") or self.info
            self._seats_from_info()
            self._match_from(msg)
            event = msg.get("event") or {}
            if event.get("text") and event.get("seat") != self.seat:
                out.notice, out.notice_words = str(event["text"]), phrase_of(event.get("words"))
        elif kind == "gameOver":
            self.game_over = msg
            self._match_from(msg)
            if isinstance(version, int) and version > self.version:
                self.syncing = out.sync = True
        return out


# ---------------------------------------------------------------------- the WebSocket
def _ended(game_over: dict[str, Any] | None) -> bool:
    """True after the table's last ``gameOver``: a game of one, or the end of a match (between a match's
    games the table goes on, and a dropped link reconnects)."""
    if game_over is None:
        return False
    match = game_over.get("match")
    return not isinstance(match, dict) or bool(match.get("over", True))


class RemoteLink:
    """The WebSocket to a table: hello, messages in and out, reconnecting with the token when it drops.

    ``table`` is a :class:`RemoteMaliceTable` or a :class:`~spite.tui.remote_spit.RemoteSpitTable`
    (it reads ``base``, ``table_id``, ``token``, ``fatal``, ``game_over`` and sets ``send``,
    ``connected``, ``pending``). After the last ``gameOver`` it does not reconnect (between a match's
    games it does).

    ``on_message`` gets every server message (decoded); ``on_status`` a line on the connection's
    state (``""`` when connected). Runs in the app's event loop (a Textual worker).
    """

    def __init__(self, table: Any, on_message: Callable[[dict[str, Any]], None],
                 on_status: Callable[[str], None], delays: tuple[float, ...] = RETRY_DELAYS) -> None:
        self.table = table
        self.url = ws_url(table.base, table.table_id)
        self.on_message = on_message
        self.on_status = on_status
        self.delays = delays
        self.outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ws: Any = None
        self.connects = 0
        self.stopped = False
        table.send = self.send

    def send(self, msg: dict[str, Any]) -> bool:
        """Queue a message for the open connection; False when there is none."""
        if self.ws is None:
            return False
        self.outbox.put_nowait(msg)
        return True

    async def drop(self) -> None:
        """Close the current connection as if the network failed (tests); the link reconnects."""
        if self.ws is not None:
            self.ws.transport.abort()

    async def _sender(self, ws: Any) -> None:
        while True:
            msg = await self.outbox.get()
            await ws.send(json.dumps(msg))

    async def run(self) -> None:
        """Connect, say hello, pass messages on; reconnect after a drop until the table is closed to us."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        attempt = 0
        while not self.stopped:
            try:
                async with connect(self.url, open_timeout=10, close_timeout=2, max_size=1 << 20) as ws:
                    await ws.send(json.dumps(hello_message(self.table.token)))
                    while not self.outbox.empty():
                        self.outbox.get_nowait()
                    self.ws = ws
                    self.connects += 1
                    sender = asyncio.create_task(self._sender(ws))
                    try:
                        async for raw in ws:
                            with contextlib.suppress(ValueError):
                                msg = json.loads(raw)
                                if isinstance(msg, dict):
                                    if msg.get("type") == "welcome":
                                        attempt = 0
                                    self.on_message(msg)
                    finally:
                        sender.cancel()
                        self.ws = None
            except (OSError, TimeoutError, WebSocketException) as exc:
                reason = str(exc) or type(exc).__name__
            else:
                reason = "closed by the server"
            self.ws = None
            self.table.connected = False
            self.table.pending = None
            if self.table.fatal or _ended(self.table.game_over) or self.stopped:
                self.on_status(self.table.fatal or ("" if self.table.game_over else "disconnected"))
                return
            delay = self.delays[min(attempt, len(self.delays) - 1)]
            attempt += 1
            self.on_status(f"connection lost ({reason}); reconnecting in {delay:g} s …")
            await asyncio.sleep(delay)


WELCOME_EXAMPLE: dict[str, Any] = {
    "type": "welcome", "seat": 0, "stateVersion": 0,
    "table": {"id": "k3J9x", "game": "spite-malice", "preset": "classic", "options": {"stock_size": 3},
              "status": "playing", "stateVersion": 0, "link": "/t/k3J9x", "gameId": None,
              "seats": [{"seat": 0, "kind": "person", "player": "ann", "status": "connected"},
                        {"seat": 1, "kind": "bot", "level": "hard", "status": "bot", "botLevel": "hard"}]},
    "view": {"to_move": 0, "turn": 1, "finished": False, "result": None,
             "builds": [{"value": 0, "cards": 0, "top": None}] * 4, "draw": 94, "set_aside": 0, "seat": 0,
             "players": [{"stock": 3, "stock_top": ["AS"], "hand": ["2C", "3D", "QH", "QS", "7C"], "hand_size": 5,
                          "discards": [[], [], [], []]},
                         {"stock": 3, "stock_top": ["9D"], "hand": None, "hand_size": 5,
                          "discards": [[], [], [], []]}]},
    "legal": ["S-B1", "H2-D1"],
}
"""A ``welcome`` as docs/protocol.md shows it (for the examples above)."""
