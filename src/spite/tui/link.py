"""The terminal app's one link to a server's table (``spite tui --connect``): the lobby calls, the
WebSocket protocol of a seat or a spectator (docs/protocol.md), and the checks of a fair deal
(docs/fairness.md, "What the terminal app checks").

No Textual here, and no game: the remote tables (:mod:`spite.malice.tui.remote`, :mod:`spite.spit.tui.remote`)
keep what they draw and send the person's intents through :class:`TableLink` (:meth:`~TableLink.move`,
:meth:`~TableLink.undo`, :meth:`~TableLink.hint`, :meth:`~TableLink.next_game`, :meth:`~TableLink.rematch`);
the screen is the link's :class:`LinkListener` and hears the server's messages, the connection's state,
the fair-deal verdicts and the moves a dropped connection left unanswered.

What the link guarantees the screen:

- a ``state`` older than the one shown is never handed on, nor one after a gap in the versions (every
  stored change raises the version by one): the link asks for the whole position (``sync``);
  after a reconnect the ``welcome`` is the truth;
- a move, undo or hint sent is tracked by its ``id`` until its ``ack`` (``hint``) or ``error``; a dropped
  connection drops them all, and the screen is told which;
- the deal's commitment is pinned from the table's info **before** any hello, and the seat's random
  part (a nonce, one per table and game for this run) goes out only for a commitment already seen and
  a deal not yet made; a changed commitment, a secret that does not give it, a reveal without our
  nonce, or a record whose shuffles do not follow from the seed is an alarm, worded for the person.

>>> watch = FairWatch("T1", make_nonce=lambda n: "07" * n)
>>> watch.seat = 0
>>> fair = {"game": 1, "commitment": "1513902869df6614a2210d689e57ccd1b6b085723db5c34d24a07e5f18469586",
...         "dealt": False, "sent": [False, False]}
>>> watch.see(fair)
[]
>>> game = watch.hello_game()
>>> game, watch.nonce_for(game)
(1, '07070707070707070707070707070707')
>>> watch.sent(1)
>>> revealed = {**fair, "dealt": True, "secret": bytes(range(32)).hex(), "nonces": [None, None]}
>>> [note.line.phrase.key for note in watch.see(revealed) if note.line is not None]
['fair_alarm_nonce']
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
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import platformdirs

from spite import catalogue
from spite.catalogue import phrase_of
from spite.errors import OptionsError, Param, Phrase, SpiteError, refusal
from spite.fairness import SCHEME, SCHEME_FIRST, commitment, fingerprint, parse_secret
from spite.games import DEFAULT_GAME, load_hook
from spite.tui.login import auth_headers

__all__ = [
    "FATAL_CODES",
    "RETRY_DELAYS",
    "Deal",
    "FairNote",
    "FairWatch",
    "Line",
    "LinkListener",
    "LinkStatus",
    "LinkedTable",
    "Pending",
    "RemoteError",
    "RemoteUpdate",
    "TableLink",
    "connect_table",
    "game_part",
    "get_json",
    "join_table",
    "parse_address",
    "player_key",
    "probe",
    "seat_name",
    "ws_url",
]

FATAL_CODES = frozenset({"wrong-token", "no-table", "flood", "hello-timeout"})
"""Errors the server closes the connection after (1008): reconnecting would only be refused again
(a flood's cool-down refuses every handshake for a minute)."""

RETRY_DELAYS = (0.3, 1.0, 2.0, 4.0, 8.0)
"""Seconds before each reconnect attempt (the last one repeats), each moved by up to :data:`JITTER`."""

JITTER = 0.25
"""A reconnect waits its delay times 1 ± this, drawn at random, so that the clients a server restart
dropped together do not all come back in the same instant."""

CLOSE_POLICY = 1008
"""Close code: the server refuses this connection (wrong token, no table, flood): no reconnect."""
CLOSE_RESTART = 1012
"""Close code: the server restarts or hands the table to another worker: reconnect at once (any other
code, 1013 "try again later" among them, waits for the back-off)."""

_HEX64 = re.compile(r"[0-9a-f]{64}")
_KEY = re.compile(r"[A-Za-z0-9_-]{22,64}")


class RemoteError(Exception):
    """The server (or the way to it) refused: one line for the player; ``status`` the HTTP status, if any."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


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
    """The WebSocket address of a table.

    >>> ws_url("https://h", "a b")
    'wss://h/ws/a%20b'
    """
    return base.replace("http", "ws", 1) + "/ws/" + urllib.parse.quote(table_id, safe="")


def _table_path(table_id: str) -> str:
    return "/api/tables/" + urllib.parse.quote(table_id, safe="")


def _http_json(url: str, body: dict[str, Any] | None = None, timeout: float = 10, method: str | None = None) -> Any:
    """GET ``url`` (or POST ``body``, or ``method``) and decode its JSON; :class:`RemoteError` with one
    line otherwise."""
    data = None if body is None else json.dumps(body).encode()
    # signed in to this server (spite login): the account's session goes with every request
    request = urllib.request.Request(url, data=data, method=method or ("GET" if body is None else "POST"),
                                     headers={"Content-Type": "application/json", "Accept": "application/json",
                                              **auth_headers(url)})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as exc:
        detail: Any = None
        with contextlib.suppress(Exception):
            detail = json.loads(exc.read()).get("detail")
        if isinstance(detail, list):  # 422: pydantic's list of problems
            detail = "; ".join(str(d.get("msg", d)) for d in detail)
        raise RemoteError(f"the server refused ({exc.code}): {detail or exc.reason}", exc.code) from None
    except (urllib.error.URLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RemoteError(f"cannot reach {url}: {reason}") from None


def get_json(url: str) -> Any:
    """``GET url`` as JSON (blocking): the link's way to the table info and the game's record."""
    return _http_json(url)


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


def join_table(base: str, table_id: str, name: str) -> dict[str, Any]:
    """Take a free person seat (``POST /api/tables/{id}/join``) with this user's player key: the
    ``JoinedInfo`` (``seat``, ``token`` and the ``table`` with its deal's commitment)."""
    answer = _http_json(f"{base}{_table_path(table_id)}/join", {"name": name, "playerKey": player_key()})
    if not isinstance(answer, dict) or "token" not in answer:
        raise RemoteError(f"the server's answer to joining table {table_id} names no seat")
    return answer


# ---------------------------------------------------------------------- what the screen hears
@dataclass(frozen=True)
class Line:
    """Something the person reads: a catalogue phrase, and the English line for a key the catalogue
    does not know (a newer server's)."""

    phrase: Phrase | None
    english: str

    @classmethod
    def of(cls, key: str, **params: Param) -> Line:
        """A line of the catalogue (its English text as the fallback)."""
        return cls(Phrase(key, params), catalogue.render("en", key, params))

    @classmethod
    def said(cls, words: object, english: object) -> Line:
        """What the server said: its ``words`` (docs/protocol.md, "Words") and its English line."""
        return cls(phrase_of(words), str(english or ""))


@dataclass(frozen=True)
class LinkStatus:
    """The connection's state: ``line`` says what the person should know (``None``: all is well);
    ``final`` when the link will not connect again."""

    connected: bool
    line: Line | None = None
    final: bool = False


@dataclass(frozen=True)
class Pending:
    """A request sent and not yet answered: its ``id``, ``kind`` (``move``, ``undo``, ``hint``) and
    ``text`` (the move, or the move asked to be taken back; ``""`` when not known)."""

    id: str
    kind: str
    text: str = ""


@dataclass(frozen=True)
class FairNote:
    """News of a game's deal: ``state`` is ``revealed`` (the secret gives the pinned commitment),
    ``verified`` (and the record replays from the seed), ``unchecked`` (the record could not be had)
    or ``alarm``; ``line`` what to tell the person (``None`` for ``revealed``)."""

    game: int
    state: Literal["revealed", "verified", "unchecked", "alarm"]
    line: Line | None = None


class LinkListener(Protocol):
    """What the link tells the screen (every call in the app's event loop)."""

    def link_message(self, msg: dict[str, Any]) -> None:
        """A server message for the table to take in (states in order, see the module's text)."""

    def link_status(self, status: LinkStatus) -> None:
        """The connection changed: connected, lost (reconnecting), or closed for good."""

    def link_fair(self, note: FairNote) -> None:
        """A fair-deal check came to a result (an alarm, the reveal, the record's verdict)."""

    def link_dropped(self, dropped: list[Pending]) -> None:
        """The connection dropped while these requests waited for an answer: they are forgotten
        (the next ``welcome`` shows what the server kept)."""


# ---------------------------------------------------------------------- the fair deal
@dataclass
class Deal:
    """What this client knows of one game's deal at the table (docs/fairness.md)."""

    game: int
    commitment: str
    """Pinned: the first commitment seen for this game, before any card of it."""
    via_next: bool = False
    """Pinned from the game before's ``fair.next``: another commitment later is ``fair_alarm_next``."""
    scheme: str | None = None
    first: int | None = None
    """Who begins by the rules (``spite-fair/2``), as the game's own ``fair`` first said."""
    nonce: str | None = None
    """This run's random part for this game (made once, reused on every reconnect)."""
    nonce_sent: bool = False
    """The nonce went out while the deal was not made: it must be among the revealed ones."""
    revealed: bool = False
    """The revealed secret gave the pinned commitment (and our nonce was in)."""
    record_asked: bool = False
    alarm: Line | None = None
    verdict: Line | None = None
    """The record's check: verified, or why it could not be done."""


class FairWatch:
    """The fair-deal bookkeeping of one table (no I/O): pins each game's commitment, hands out this
    run's nonce for a game whose commitment was seen and whose deal is not made, and checks the reveal
    and the record against what it pinned."""

    def __init__(self, table_id: str, make_nonce: Callable[[int], str] = secrets.token_hex) -> None:
        self.table_id = table_id
        self.seat: int | None = None
        """This client's seat (``None``: a spectator, or not known yet)."""
        self.deals: dict[int, Deal] = {}
        self.current: int | None = None
        """The game of the newest ``fair`` seen (the one in play, or just over)."""
        self.dealt = False
        """Whether :attr:`current`'s deal is made, as the newest ``fair`` said."""
        self._make_nonce = make_nonce

    # ------------------------------------------------------------------ what goes out
    def hello_game(self) -> int | None:
        """The game a nonce sent with ``hello`` counts for: the next one when its commitment is out
        (between two games, or after the last one), else the one in play while its deal is not made;
        ``None`` when no commitment was seen or the deal is made."""
        if self.current is None:
            return None
        if self.current + 1 in self.deals:
            return self.current + 1
        return None if self.dealt else self.current

    def next_game(self) -> int | None:
        """The game a nonce sent with ``next`` or ``rematch`` counts for: only one whose commitment was
        published (``fair.next``) and seen here."""
        if self.current is None or self.current + 1 not in self.deals:
            return None
        return self.current + 1

    def nonce_for(self, game: int) -> str:
        """This run's nonce for ``game`` (made once with :mod:`secrets`, the same on every reconnect)."""
        deal = self.deals[game]
        if deal.nonce is None:
            deal.nonce = self._make_nonce(16)
        return deal.nonce

    def sent(self, game: int) -> None:
        """The nonce for ``game`` went out before its deal was made."""
        self.deals[game].nonce_sent = True

    # ------------------------------------------------------------------ what comes in
    def see(self, fair: object) -> list[FairNote]:
        """Take a ``fair`` object (of a message or a table info): pin, compare, check the reveal."""
        if not isinstance(fair, dict):
            return []
        game, committed = fair.get("game"), fair.get("commitment")
        if isinstance(game, bool) or not isinstance(game, int) or not isinstance(committed, str) \
                or not _HEX64.fullmatch(committed):
            return []
        notes: list[FairNote] = []
        deal = self.deals.get(game)
        if deal is None:
            deal = self.deals[game] = Deal(game, committed)
        elif deal.commitment != committed:
            notes += self._alarm(deal, Line.of("fair_alarm_next", game=game) if deal.via_next
                                 else Line.of("fair_alarm_changed"))
        scheme, first = fair.get("scheme") or SCHEME, fair.get("first")
        if deal.scheme is None:
            deal.scheme, deal.first = str(scheme), first if isinstance(first, int) else None
        elif (deal.scheme, deal.first) != (scheme, first):  # who begins is bound with the secret
            notes += self._alarm(deal, Line.of("fair_alarm_changed"))
        if self.current is None or game >= self.current:
            self.current, self.dealt = game, bool(fair.get("dealt"))
        upcoming = fair.get("next")
        if isinstance(upcoming, str) and _HEX64.fullmatch(upcoming):
            later = self.deals.get(game + 1)
            if later is None:
                self.deals[game + 1] = Deal(game + 1, upcoming, via_next=True)
            elif later.commitment != upcoming:
                notes += self._alarm(later, Line.of("fair_alarm_next", game=game + 1))
        if fair.get("secret") is not None:
            notes += self._reveal(deal, fair)
        return notes

    def _alarm(self, deal: Deal, line: Line) -> list[FairNote]:
        if deal.alarm is not None:  # one alarm a game: the first thing that did not check out
            return []
        deal.alarm = line
        return [FairNote(deal.game, "alarm", line)]

    def _reveal(self, deal: Deal, fair: Mapping[str, Any]) -> list[FairNote]:
        if deal.revealed or deal.alarm is not None:
            return []
        bound = fair.get("first") if fair.get("scheme") == SCHEME_FIRST else None
        try:
            ok = commitment(parse_secret(fair.get("secret")), self.table_id, deal.game,
                            bound if isinstance(bound, int) else None) == deal.commitment
        except ValueError:
            ok = False
        if not ok:
            return self._alarm(deal, Line.of("fair_alarm_secret"))
        if not self._our_nonce_in(deal, fair.get("nonces")):
            return self._alarm(deal, Line.of("fair_alarm_nonce"))
        deal.revealed = True
        return [FairNote(deal.game, "revealed")]

    def _our_nonce_in(self, deal: Deal, nonces: object) -> bool:
        """True unless this seat sent its nonce before the deal and ``nonces`` does not hold it."""
        if not deal.nonce_sent or self.seat is None:
            return True
        return isinstance(nonces, list) and self.seat < len(nonces) and nonces[self.seat] == deal.nonce

    # ------------------------------------------------------------------ the record
    def judge_record(self, game: int, data: object) -> FairNote:
        """The full check of game ``game``'s record (a decoded ``spite-record/1``): its commitment is the
        pinned one, our nonce is in it, and :func:`spite.records.verify.verify_record` replays every
        shuffle from the seed. Changes nothing here (it may run in a worker thread: see :meth:`settle`)."""
        from spite.records import record_from_json
        from spite.records.verify import verify_record

        deal = self.deals[game]
        try:
            record = record_from_json(data)
            proof = record.fairness or {}
            if proof.get("table") != self.table_id or proof.get("game") != game:
                return FairNote(game, "alarm", Line.of("fair_alarm_record", line=(
                    f"it is the record of table {proof.get('table')} game {proof.get('game')}, "
                    f"not of table {self.table_id} game {game}")))
            if proof.get("commitment") != deal.commitment:
                return FairNote(game, "alarm", Line.of("fair_alarm_changed"))
            if not self._our_nonce_in(deal, proof.get("nonces")):
                return FairNote(game, "alarm", Line.of("fair_alarm_nonce"))
            verdict = verify_record(record)
        except SpiteError as exc:  # a record that cannot be read, or does not replay
            return FairNote(game, "alarm", Line.of("fair_alarm_record", line=str(exc)))
        except Exception as exc:  # a record shaped to trip the replay: as unusable, said so, not a dead check
            return FairNote(game, "alarm", Line.of("fair_alarm_record", line=f"{type(exc).__name__}: {exc}"))
        if not verdict.fair:
            line = (Line.of("fair_alarm_seed") if verdict.where == "seed"
                    else Line.of("fair_alarm_secret") if verdict.where == "commitment"
                    else Line.of("fair_alarm_record", line=verdict.line))
            return FairNote(game, "alarm", line)
        if deal.nonce_sent and self.seat is not None:
            return FairNote(game, "verified", Line.of("fair_checked_full"))
        return FairNote(game, "verified", Line.of("tui.fair_checked_no_nonce"))

    def settle(self, note: FairNote) -> FairNote | None:
        """Keep what :meth:`judge_record` (or a failed fetch) found; the note to pass on, if any."""
        deal = self.deals[note.game]
        if note.state == "alarm":
            found = self._alarm(deal, note.line or Line.of("fair_alarm_secret"))
            return found[0] if found else None
        deal.verdict = note.line
        return note if deal.alarm is None else None

    # ------------------------------------------------------------------ what the screen shows
    def _deal(self, game: int | None) -> Deal | None:
        key = self.current if game is None else game
        return None if key is None else self.deals.get(key)

    def head(self, game: int | None = None) -> tuple[str, bool | None] | None:
        """The fingerprint of ``game``'s pinned commitment (default: the game in play) and its mark:
        ``True`` once revealed and clear, ``False`` after an alarm, ``None`` until the reveal."""
        deal = self._deal(game)
        if deal is None:
            return None
        mark = False if deal.alarm is not None else True if deal.revealed else None
        return fingerprint(deal.commitment), mark

    def lines(self, game: int | None = None) -> list[Line]:
        """What the person should read about ``game``'s deal (default: the game in play): the alarm, or
        the record's verdict once it is in."""
        deal = self._deal(game)
        if deal is None:
            return []
        if deal.alarm is not None:
            return [deal.alarm]
        return [deal.verdict] if deal.verdict is not None else []


# ---------------------------------------------------------------------- what a table's screen reads
@dataclass
class RemoteUpdate:
    """What a server message means for the screen: ``notice`` to show, ``error`` text; ``undone`` the
    move the server took back (its ``ack``), ``new_game`` when a match's next game (or a rematch) began."""

    notice: str | None = None
    error: str | None = None
    error_words: Phrase | None = None
    """``error`` as the server's catalogue phrase (docs/protocol.md, "Words"), if it sent one."""
    notice_words: Phrase | None = None
    undone: str | None = None
    new_game: bool = False


def game_part(msg: Any) -> dict[str, Any]:
    """The game's own part of a server message or of a move it tells (``game``: what the table's game
    adds, docs/protocol.md); empty when it has none.

    >>> game_part({"type": "state", "game": {"canUndo": True}}), game_part({"type": "ack"}), game_part(None)
    ({'canUndo': True}, {}, {})
    """
    part = msg.get("game") if isinstance(msg, dict) else None
    return part if isinstance(part, dict) else {}


def seat_name(info: dict[str, Any]) -> str:
    """How the screens name a seat of the table info: a person's name, a bot's level, ``ann→medium``
    when a bot took a dropped seat over."""
    if info.get("status") == "bot" and info.get("kind") == "person" and info.get("botLevel"):
        return f"{info.get('player') or 'guest'}→{info['botLevel']}"
    if info.get("kind") == "bot":
        return str(info.get("level") or info.get("botLevel") or "bot")
    return str(info.get("player") or "free")


# ---------------------------------------------------------------------- the WebSocket
class LinkedTable:
    """What every game's remote table reads of its link (the table keeps what it draws)."""

    link: TableLink

    @property
    def base(self) -> str:
        """The server's address."""
        return self.link.base

    @property
    def table_id(self) -> str:
        """The table's id."""
        return self.link.table_id

    @property
    def token(self) -> str | None:
        """The seat's token (``None``: watching)."""
        return self.link.token

    @property
    def connected(self) -> bool:
        """The link has a socket that was welcomed."""
        return self.link.connected


class TableLink:
    """The WebSocket of a seat (``token``) or a spectator (``token=None``) at table ``table_id`` of the
    server at ``base``: hello, the messages in and out, reconnecting, and the fair deal's checks.

    ``info`` is a table info (``TableInfo`` as JSON) the caller already holds, e.g. the answer to joining;
    otherwise the link fetches it (``GET /api/tables/{id}``) before it opens a socket, and again before
    every reconnect. ``fetch`` (blocking, run off the event loop), ``connect`` (the WebSocket client's),
    ``delays``, ``rng``, ``sleep`` and ``make_nonce`` are there so that tests can stand in for the world.
    """

    def __init__(self, base: str, table_id: str, token: str | None, *, info: dict[str, Any] | None = None,
                 fetch: Callable[[str], Any] = get_json, connect: Callable[..., Any] | None = None,
                 delays: Sequence[float] = RETRY_DELAYS, rng: random.Random | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 make_nonce: Callable[[int], str] = secrets.token_hex) -> None:
        self.base = base
        self.table_id = table_id
        self.token = token
        self.url = ws_url(base, table_id)
        self.fetch = fetch
        self._connect = connect
        self.delays = tuple(delays) or RETRY_DELAYS
        self.rng = rng or random.Random()
        self.sleep = sleep
        self.fair = FairWatch(table_id, make_nonce)
        self.gapless = True
        """A gap in ``stateVersion`` is asked for (``sync``) rather than handed on: every stored change
        raises the version by one at every table, so a gap is a missed state (a log needs every move)."""
        self.seat: int | None = None
        self.info: dict[str, Any] | None = None
        self.version: int | None = None
        """The ``stateVersion`` of the position handed on last."""
        self.syncing = False
        """A ``sync`` is out: the next state at or past :attr:`version` is the whole position."""
        self.pending: dict[str, Pending] = {}
        self.connected = False
        self.connects = 0
        """Sockets :meth:`run` opened that got their ``welcome``."""
        self.status = LinkStatus(connected=False)
        self.hellos: list[dict[str, Any]] = []
        """Every ``hello`` sent (what a test looks at: the nonce)."""
        self.listener: LinkListener | None = None
        self._ws: Any = None
        self._outbox: asyncio.Queue[dict[str, Any]] | None = None
        self._counter = 0
        self._fresh_info = False
        self._closing: Line | None = None
        """Why the server is closing this connection for good (a fatal error's words)."""
        self._final: Line | None = None
        self._table_over = False
        """The table's last game has ended (a game of one, or the match's end): a drop is the end."""
        self._checks: set[asyncio.Task[None]] = set()
        self._attempt = 0
        """Reconnect attempts since the last ``welcome`` (the back-off's step)."""
        self._unheard: list[FairNote] = []
        self._stopped = False
        if info is not None:
            self.take_info(info)

    # ------------------------------------------------------------------ the table info
    def take_info(self, info: dict[str, Any]) -> list[FairNote]:
        """A table info (fetched, or handed by the lobby's answer): the seats, and its deal pinned."""
        self.info = info
        self._fresh_info = True
        if info.get("status") == "abandoned":
            self._final = Line.of("tui.table_closed")
        return self._fair_notes(self.fair.see(info.get("fair")))

    def fetch_info(self) -> dict[str, Any]:
        """``GET /api/tables/{id}`` (blocking); :class:`RemoteError` when it cannot be had."""
        info = self.fetch(self.base + _table_path(self.table_id))
        if not isinstance(info, dict):
            raise RemoteError(f"the server's info of table {self.table_id} is not a table")
        return info

    # ------------------------------------------------------------------ the person's intents
    def _next_id(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    def _request(self, msg: dict[str, Any], prefix: str, track: str | None = None, text: str = "") -> str:
        if self.token is None:
            raise refusal("you are watching: a spectator cannot move", "client.watching")
        ident = self._next_id(prefix)
        if not self.send({**msg, "id": ident}):
            raise refusal("not connected to the server; reconnecting", "client.offline")
        if track is not None:
            self.pending[ident] = Pending(ident, track, text)
        return ident

    def move(self, text: str, version: int | None = None) -> str:
        """Send a move of this seat, chosen in ``version`` (default: the one shown); its id."""
        return self._request({"type": "move", "move": text, "stateVersion": self._version(version)}, "m", "move",
                             text)

    def undo(self, text: str = "", version: int | None = None) -> str:
        """Ask the server to take back this seat's last move (``text``, as far as the screen knows it)."""
        return self._request({"type": "undo", "stateVersion": self._version(version)}, "u", "undo", text)

    def hint(self) -> str:
        """Ask the server's hint bot what it would play for this seat now; answered with ``hint``."""
        return self._request({"type": "hint"}, "h", "hint")

    def next_game(self) -> str:
        """A match between two games: this seat is ready (with its nonce for the next game's deal, if
        that game's commitment was seen)."""
        return self._sent_nonce(self._request(self._with_next_nonce({"type": "next"}), "n"))

    def rematch(self, accept: bool = True) -> str:
        """After the table's last game: another game (with this seat's nonce for its deal, if its
        commitment was seen), or no thanks."""
        msg: dict[str, Any] = {"type": "rematch", "accept": accept}
        ident = self._request(self._with_next_nonce(msg) if accept else msg, "r")
        return self._sent_nonce(ident) if accept else ident

    def sync(self) -> None:
        """Ask for the whole position."""
        self.syncing = True
        self.send({"type": "sync"})

    def _version(self, version: int | None) -> int:
        return version if version is not None else self.version or 0

    def _with_next_nonce(self, msg: dict[str, Any]) -> dict[str, Any]:
        game = self.fair.next_game()
        if game is None:
            return msg
        return {**msg, "nonce": self.fair.nonce_for(game)}

    def _sent_nonce(self, ident: str) -> str:
        game = self.fair.next_game()
        if game is not None:  # _with_next_nonce put it in the message just sent
            self.fair.sent(game)
        return ident

    def send(self, msg: dict[str, Any]) -> bool:
        """Queue a message for the open connection; False when there is none."""
        if self._ws is None or self._outbox is None:
            return False
        self._outbox.put_nowait(msg)
        return True

    def hello(self) -> dict[str, Any]:
        """The ``hello`` to send now: the token and, for a commitment seen whose deal is not made, this
        run's nonce for it; or a spectator's."""
        if self.token is None:
            return {"type": "hello", "spectate": True}
        msg: dict[str, Any] = {"type": "hello", "token": self.token}
        game = self.fair.hello_game()
        if game is not None:
            msg["nonce"] = self.fair.nonce_for(game)
        return msg

    def _said_hello(self, msg: dict[str, Any]) -> None:
        self.hellos.append(msg)
        game = self.fair.hello_game()
        if "nonce" in msg and game is not None:
            self.fair.sent(game)

    # ------------------------------------------------------------------ messages in
    def receive(self, msg: dict[str, Any]) -> None:
        """Take in one server message: the protocol's part here, then the listener's."""
        kind = msg.get("type")
        notes = self.fair.see(msg.get("fair"))
        table = msg.get("table")
        if isinstance(table, dict):
            self.info = table
            notes += self.fair.see(table.get("fair"))
        hand_on = True
        if kind == "welcome":
            self._welcomed(msg)
        elif kind == "state":
            hand_on = self._in_order(msg)
        elif kind in ("ack", "hint"):
            self.pending.pop(str(msg.get("id")), None)
        elif kind == "error":
            self._refused(msg)
        elif kind == "table":
            event = msg.get("event") or {}
            if isinstance(event, dict) and event.get("kind") == "abandoned":
                self._final = Line.said(event.get("words"), event.get("text"))
        elif kind == "gameOver":
            self._game_over(msg)
        if hand_on and self.listener is not None:
            self.listener.link_message(msg)
        self._fair_notes(notes)

    def _welcomed(self, msg: dict[str, Any]) -> None:
        seat = msg.get("seat")
        self.seat = self.fair.seat = seat if isinstance(seat, int) else None
        self.version = int(msg.get("stateVersion") or 0)
        self.syncing = False
        self._still_playing(msg)

    def _still_playing(self, msg: dict[str, Any]) -> None:
        view = msg.get("view")
        if isinstance(view, dict) and not view.get("finished"):
            self._table_over = False  # a match's next game, or a rematch: the table plays on

    def _in_order(self, msg: dict[str, Any]) -> bool:
        """True when a ``state`` is to be shown: never an older one; at a gapless table never one that
        skips a version (the whole position is asked for instead)."""
        version = msg.get("stateVersion")
        if isinstance(version, bool) or not isinstance(version, int):
            return False
        if self.version is not None and version < self.version:
            return False
        if self.gapless and not self.syncing and self.version is not None and version > self.version + 1:
            self.sync()
            return False
        self.version = version
        self.syncing = False
        self._still_playing(msg)
        return True

    def _refused(self, msg: dict[str, Any]) -> None:
        code = str(msg.get("code"))
        self.pending.pop(str(msg.get("id")), None)
        version = msg.get("stateVersion")
        behind = isinstance(version, int) and self.version is not None and version > self.version
        if self.gapless and not self.syncing and (code == "stale" or behind):
            self.sync()
        if code in FATAL_CODES:
            self._closing = Line.said(msg.get("words"), msg.get("message"))

    def _game_over(self, msg: dict[str, Any]) -> None:
        self._table_over = bool(msg.get("final", True))  # false: the table's next game follows
        fair = msg.get("fair")
        url = msg.get("recordUrl") or (f"/api/games/{msg['gameId']}/record" if msg.get("gameId") else None)
        if not isinstance(fair, dict) or fair.get("secret") is None or not url:
            return
        deal = self.fair.deals.get(int(fair.get("game") or 0))
        if deal is None or deal.record_asked:
            return
        deal.record_asked = True
        try:
            task = asyncio.get_running_loop().create_task(self.check_record(deal.game, str(url)))
        except RuntimeError:  # no event loop (a test handing messages in by hand): no record to fetch
            deal.record_asked = False
            return
        self._checks.add(task)
        task.add_done_callback(self._checks.discard)

    async def check_record(self, game: int, url: str) -> None:
        """Fetch game ``game``'s record and check every shuffle of it, off the event loop (it replays
        the game); the verdict goes to the listener."""
        try:
            data = await asyncio.to_thread(self.fetch, self.base + url)
        except RemoteError as exc:
            note = FairNote(game, "unchecked", Line.of("tui.fair_unchecked", line=str(exc)))
        else:
            note = await asyncio.to_thread(self.fair.judge_record, game, data)
        settled = self.fair.settle(note)
        if settled is not None:
            self._fair_notes([settled])

    async def settled(self) -> None:
        """Wait until every record check under way has come to its verdict."""
        await asyncio.gather(*self._checks, return_exceptions=True)

    def _fair_notes(self, notes: list[FairNote]) -> list[FairNote]:
        for note in notes:
            if self.listener is None:
                self._unheard.append(note)
            else:
                self.listener.link_fair(note)
        return notes

    def _tell(self, status: LinkStatus) -> None:
        self.status = status
        if self.listener is not None:
            self.listener.link_status(status)

    # ------------------------------------------------------------------ the connection
    def _client(self) -> Callable[..., Any]:
        if self._connect is None:
            from websockets.asyncio.client import connect

            self._connect = connect
        return self._connect

    def open(self, timeout: float = 10) -> dict[str, Any]:
        """Before the app starts (blocking): the table info unless handed, then one hello; the ``welcome``.
        :class:`RemoteError` with the server's line when it refuses."""
        if not self._fresh_info:
            self.take_info(self.fetch_info())
        welcome = asyncio.run(self._first_welcome(timeout))
        self._fresh_info = False  # that hello may have dealt the game: ask again before the next socket
        return welcome

    async def _first_welcome(self, timeout: float) -> dict[str, Any]:
        from websockets.exceptions import WebSocketException

        try:
            async with self._client()(self.url, open_timeout=timeout, close_timeout=2, max_size=1 << 20) as ws:
                hello = self.hello()
                await ws.send(json.dumps(hello))
                self._said_hello(hello)
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), timeout))
                    if not isinstance(msg, dict):
                        continue
                    if msg.get("type") == "welcome":
                        self.receive(msg)
                        return msg
                    if msg.get("type") == "error":
                        raise RemoteError(f"the server refused ({msg.get('code')}): {msg.get('message')}")
        except RemoteError:
            raise
        except (OSError, TimeoutError, WebSocketException, ValueError) as exc:
            raise RemoteError(f"cannot reach {self.url}: {exc or type(exc).__name__}") from None

    async def drop(self) -> None:
        """Close the current connection as if the network failed (tests); the link reconnects."""
        if self._ws is not None:
            self._ws.transport.abort()

    def stop(self) -> None:
        """Connect no more (the current connection, if any, is closed)."""
        self._stopped = True
        if self._ws is not None:
            self._ws.transport.abort()

    async def _sender(self, ws: Any, outbox: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            msg = await outbox.get()
            await ws.send(json.dumps(msg))

    async def _session(self) -> tuple[int | None, str, float]:
        """One socket: hello, the messages until it closes. ``(close code, why, wait at least)``."""
        from websockets.exceptions import InvalidStatus, WebSocketException

        ws: Any = None
        try:
            async with self._client()(self.url, open_timeout=10, close_timeout=2, max_size=1 << 20) as ws:
                hello = self.hello()
                await ws.send(json.dumps(hello))
                self._said_hello(hello)
                self._fresh_info = False
                self._outbox = asyncio.Queue()
                self._ws = ws
                sender = asyncio.create_task(self._sender(ws, self._outbox))
                try:
                    async for raw in ws:
                        with contextlib.suppress(ValueError):
                            msg = json.loads(raw)
                            if isinstance(msg, dict):
                                self._on_socket_message(msg)
                finally:
                    sender.cancel()
                    self._ws = self._outbox = None
        except InvalidStatus as exc:  # the handshake refused (429: too many sockets, or a flood's cool-down)
            response = exc.response
            retry = response.headers.get("Retry-After", "") if response is not None else ""
            return None, f"HTTP {response.status_code if response is not None else '?'}", \
                float(retry) if retry.isdigit() else 0.0
        except (OSError, TimeoutError, WebSocketException) as exc:
            code = getattr(ws, "close_code", None) if ws is not None else None
            return code, str(exc) or type(exc).__name__, 0.0
        finally:
            self._ws = self._outbox = None
            self.connected = False
        return ws.close_code, ws.close_reason or "closed by the server", 0.0

    def _on_socket_message(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "welcome":
            self.connected = True
            self.connects += 1
            self._attempt = 0
            self._tell(LinkStatus(connected=True))
        self.receive(msg)

    async def run(self, listener: LinkListener) -> None:
        """Connect, say hello, pass messages on; reconnect after a drop until the table is closed to
        us (or over). Runs in the app's event loop (a Textual worker)."""
        self.listener = listener
        unheard, self._unheard = self._unheard, []
        for note in unheard:
            listener.link_fair(note)
        self._attempt = 0
        try:
            while True:
                end = await self._connect_once()
                if end is not None:
                    self._tell(end)
                    break
            await self.settled()  # the last verdict, before the end
        except asyncio.CancelledError:
            for task in self._checks:
                task.cancel()
            raise

    async def _connect_once(self) -> LinkStatus | None:
        """One attempt: fresh table info, a socket, and after it the wait before the next attempt.
        The final status when the link stops, else ``None``."""
        if self._stopped:
            return LinkStatus(connected=False, final=True)
        code: int | None = None
        reason, wait_at_least = "", 0.0
        try:
            if not self._fresh_info:  # the deal may have moved on while we were away: pin what it is now
                self.take_info(await asyncio.to_thread(self.fetch_info))
        except RemoteError as exc:
            if exc.status == 404:
                return LinkStatus(connected=False, line=Line.said(None, str(exc)), final=True)
            reason = str(exc)
        else:
            if self._final is None:
                code, reason, wait_at_least = await self._session()
                self._forget_pending()
        if self._final is not None:  # the table was closed (abandoned)
            return LinkStatus(connected=False, line=self._final, final=True)
        if code == CLOSE_POLICY or self._closing is not None:
            return LinkStatus(connected=False, line=self._closing or Line.of("tui.link_closed", code=CLOSE_POLICY),
                              final=True)
        if self._stopped or (self._table_over and self.connects):
            return LinkStatus(connected=False, final=True)  # nothing more will happen at this table
        # 1012 (a restart, the table moved): at once, but only once in a row, or a server caught in a
        # restart loop would be asked again without pause; 1013 (busy) and the rest: the back-off
        at_once = code == CLOSE_RESTART and self._attempt == 0
        delay = max(wait_at_least, self._backoff())
        if at_once:
            delay = 0.0
        self._tell(LinkStatus(connected=False, line=Line.of("tui.link_lost", reason=reason, s=f"{delay:.1f}")))
        await self.sleep(delay)
        return None

    def _backoff(self) -> float:
        base = self.delays[min(self._attempt, len(self.delays) - 1)]
        self._attempt += 1
        return base * (1 + JITTER * (2 * self.rng.random() - 1))

    def _forget_pending(self) -> None:
        dropped = list(self.pending.values())
        self.pending.clear()
        self.syncing = False
        if dropped and self.listener is not None:
            self.listener.link_dropped(dropped)

    # ------------------------------------------------------------------ what the tables read
    def newest_pending(self, *kinds: str) -> Pending | None:
        """The request sent last and not yet answered (of ``kinds``, default any)."""
        for pending in reversed(self.pending.values()):
            if not kinds or pending.kind in kinds:
                return pending
        return None


def probe(base: str, table_id: str, token: str | None, timeout: float = 10) -> dict[str, Any]:
    """Say hello once (blocking, after fetching the table's info) and return the ``welcome``."""
    return TableLink(base, table_id, token).open(timeout)


def connect_table(connect: str, table: str | None, token: str | None = None, name: str | None = None) -> Any:
    """Everything ``spite tui --connect`` does before the app starts: join (``name``), or the seat the
    signed-in account took there on another device (``spite login``), the table's info, hello: the
    table its game's ``tui`` hook makes from the link and the ``welcome`` (a
    :class:`~spite.malice.tui.remote.RemoteMaliceTable`, a :class:`~spite.spit.tui.remote.RemoteSpitTable`, ...)."""
    base, table_id = parse_address(connect, table)
    if token and name:
        raise RemoteError("give --token (your seat) or --name (take a free seat), not both")
    info: dict[str, Any] | None = None
    if not token and not name and auth_headers(base):  # signed in there (spite login): the account's seat
        with contextlib.suppress(RemoteError):
            found = _http_json(f"{base}/api/account/seat?table={urllib.parse.quote(table_id, safe='')}")
            if isinstance(found, dict) and isinstance(found.get("token"), str):
                token = found["token"]
    if name:
        joined = join_table(base, table_id, name)
        token = str(joined["token"])
        info = joined.get("table") if isinstance(joined.get("table"), dict) else None
    link = TableLink(base, table_id, token, info=info)
    welcome = link.open()
    game = (welcome.get("table") or {}).get("game", DEFAULT_GAME)
    try:
        hook = load_hook(game, "tui")  # the game's client side, from the registry
    except OptionsError:
        raise RemoteError(f"table {table_id} plays {game}: the terminal does not play that game") from None
    return hook.remote_table(link, welcome)

