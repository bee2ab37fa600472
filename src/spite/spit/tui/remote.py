"""A seat at a server's Spit table in real time (``spite tui --connect`` of a ``"game": "spit"`` table).

No Textual and no protocol here. :class:`RemoteSpitTable` stands in for
:class:`~spite.spit.tui.session.SpitTable` on the Spit screen: the position is the server's Spit view
JSON (records.md §5) with the ``clock`` of the ``welcome`` and ``state`` messages, a move of this
keyboard goes out through the table's :class:`~spite.tui.link.TableLink` at once (Spit checks no
``stateVersion``: the server tries it against the table as it is when it arrives), and the server's
clock, reflex bots and people do the rest. The screen draws from
:meth:`RemoteSpitTable.view`, rebuilt as a :class:`~spite.spit.SpitView` seen from this seat: this
seat is always ``players[0]`` (the bottom row, "P1"), the other seat ``players[1]``, so the screen
of a local game draws it unchanged (moves such as ``T1-C2`` name the mover's own piles anyway).

>>> table = RemoteSpitTable.from_welcome(TableLink("http://h:1", "s9", "t0k"), SPIT_WELCOME_EXAMPLE)
>>> table.seat, table.level, table.view().players[0].tableau[0].top is not None, table.view().legal[:1]
(1, 'reflex:2000', True, ('T1-C1',))
>>> update = table.handle({"type": "error", "code": "too-late", "message": "too late: center 1 is now 7S"})
>>> update.error, update.too_late
('too late: center 1 is now 7S', True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from spite.cards import parse_card
from spite.catalogue import phrase_of
from spite.errors import CardError, IllegalMoveError, refusal
from spite.spit import SpeedView, SpitView
from spite.spit.rules import HAND, PLAY, SLAP, SLOT
from spite.spit.rules import parse_move as parse_spit_move
from spite.spit.table import Event
from spite.spit.views import PileView, SpeedPlayerView, SpitPlayerView
from spite.tui.link import LinkedTable, RemoteUpdate, TableLink, game_part, seat_name

__all__ = ["RemoteSpeedTable", "RemoteSpitTable", "SpitUpdate", "speed_view_from_server", "spit_view_from_server"]

SPEED_DECK = 52
"""Speed is played with one deck without jokers: what is in no hand, draw pile or center lies on the side piles."""


@dataclass
class SpitUpdate(RemoteUpdate):
    """A :class:`RemoteUpdate` that also says whether a refusal was a lost race (``too-late``)."""

    too_late: bool = False


def _pile(obj: dict[str, Any]) -> PileView:
    top = obj.get("top")
    return PileView(None if top is None else parse_card(str(top)), int(obj.get("cards") or 0))


def spit_view_from_server(view: dict[str, Any], clock: dict[str, Any] | None, legal: list[str], seat: int | None,
                          now: int | None = None, rounds_won: tuple[int, int] = (0, 0)) -> SpitView:
    """The :class:`SpitView` of a server's Spit ``view`` and ``clock``, seen from ``seat``.

    ``seat`` (``None``: a spectator, seen from seat 0) becomes ``players[0]``; ``round_winner`` and
    the result's ``winner`` are turned the same way (0: this seat). ``now`` is the game time to
    show (default: the clock's ``now``); ``rounds_won`` is by seat (the JSON does not say it).
    """
    clock = clock or {}
    me = seat or 0
    order = [me, 1 - me]
    players = view.get("players") or []
    turned = tuple(
        SpitPlayerView(tableau=tuple(_pile(p) for p in players[s].get("tableau") or []), spit=int(players[s]["spit"]),
                       cards=int(players[s]["cards"]), called_spit=bool(players[s].get("called_spit")),
                       rounds_won=rounds_won[s])
        for s in order)

    def rel(s: Any) -> int | None:
        return None if s is None else (0 if int(s) == me else 1)

    result = view.get("result")
    if result:
        result = {**result, "winner": rel(result.get("winner"))}
    phase = str(clock.get("phase") or ("over" if view.get("finished") else "play"))
    return SpitView(seat=0 if seat is not None else None, t=int(now if now is not None else clock.get("now") or 0),
                    round=int(view.get("round") or 1), phase=phase, stuck=bool(view.get("stuck")),
                    play_from=int(clock.get("playFrom") or 0), round_winner=rel(clock.get("roundWinner")),
                    result=result or None, centers=tuple(_pile(c) for c in view.get("centers") or []),
                    legal=tuple(legal), players=turned)


def speed_view_from_server(view: dict[str, Any], clock: dict[str, Any] | None, legal: list[str], seat: int | None,
                           now: int | None = None) -> SpeedView:
    """The :class:`SpeedView` of a server's Speed ``view`` and ``clock``, seen from ``seat`` (this seat
    is ``players[0]``, as in :func:`spit_view_from_server`).

    The JSON (records.md §5) gives each player's ``hand`` (``null`` for the other seat), ``draw`` and
    ``cards`` (hand and draw pile); the hand's size is ``cards - draw``. It gives no side pile sizes,
    so they are worked out: the deck's cards not held and not in the centers lie on the side piles,
    seat 0's pile holding the odd card (both piles turn a card at once, and a reshuffle gives seat 0
    the larger half). A ``side`` count in the JSON wins.
    """
    clock = clock or {}
    me = seat or 0
    order = [me, 1 - me]
    players = view.get("players") or []
    centers = tuple(_pile(c) for c in view.get("centers") or [])
    on_sides = max(0, SPEED_DECK - sum(int(p.get("cards") or 0) for p in players) - sum(c.cards for c in centers))
    sides = [(on_sides + 1) // 2, on_sides // 2]

    def player(s: int) -> SpeedPlayerView:
        p = players[s]
        hand = p.get("hand")
        draw, cards = int(p.get("draw") or 0), int(p.get("cards") or 0)
        side = p.get("side")
        return SpeedPlayerView(hand=None if hand is None else tuple(parse_card(str(c)) for c in hand),
                               hand_size=cards - draw, draw=draw, side=int(side) if side is not None else sides[s],
                               cards=cards, called_spit=bool(p.get("called_spit")))

    def rel(s: Any) -> int | None:
        return None if s is None else (0 if int(s) == me else 1)

    result = view.get("result")
    if result:
        result = {**result, "winner": rel(result.get("winner"))}
    phase = str(clock.get("phase") or ("over" if view.get("finished") else "play"))
    return SpeedView(seat=0 if seat is not None else None, t=int(now if now is not None else clock.get("now") or 0),
                     round=1, phase=phase, stuck=bool(view.get("stuck")), play_from=int(clock.get("playFrom") or 0),
                     round_winner=None, result=result or None, centers=centers, legal=tuple(legal),
                     players=tuple(player(s) for s in order))


@dataclass(frozen=True)
class RemoteSpitPosition:
    """What the Spit screen asks of ``table.state``: the centers and the result (winner 0: this seat)."""

    centers: tuple[PileView, ...]
    result: dict[str, Any] | None


@dataclass
class RemoteSpitTable(LinkedTable):
    """A Spit table on a server, as :class:`~spite.spit.tui.screen.SpitScreen` reads it."""

    game: ClassVar[str] = "spit"
    """The registered game (its ``tui`` hook opens the screen)."""

    link: TableLink
    preset: str
    seat: int | None
    info: dict[str, Any]
    version: int
    view_json: dict[str, Any]
    legal: list[str]
    clock_json: dict[str, Any] = field(default_factory=dict)
    received_at: float = 0.0
    """``time.monotonic()`` when ``clock_json`` arrived (to let the shown time run between messages)."""
    events: list[Event] = field(default_factory=list)
    """Every engine event seen over this connection, seats turned (0: this seat)."""
    fresh: list[Event] = field(default_factory=list)
    """Events not yet handed to the screen by :meth:`tick`."""
    cards: dict[int, int] = field(default_factory=dict)
    """The card a move took (by its event's index in :attr:`events`), where the position after it shows
    it (the log's words name it)."""
    acked: list[tuple[str, int]] = field(default_factory=list)
    """Every move of this seat the server acknowledged: ``(move, t)``."""
    refused: list[tuple[str, str]] = field(default_factory=list)
    """Every ``error`` of the server: ``(code, message)``."""
    game_over: dict[str, Any] | None = None
    rounds_won: list[int] = field(default_factory=lambda: [0, 0])
    """Rounds won per seat (absolute), as the server's clock says (so a reconnect keeps the count)."""
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)

    @classmethod
    def from_welcome(cls, link: TableLink, welcome: dict[str, Any]) -> RemoteSpitTable:
        """The table of a ``welcome`` message (the registry's ``tui`` hook of the table's game chose the
        class), played through ``link``."""
        info = welcome["table"]
        table = cls(link=link, preset=str(info.get("preset") or cls.game), seat=welcome.get("seat"), info=info,
                    version=int(welcome["stateVersion"]), view_json=welcome["view"],
                    legal=list(welcome.get("legal") or []))
        table.clock_json = dict(game_part(welcome).get("clock") or {})
        table.received_at = table.clock()
        return table

    # ------------------------------------------------------------------ the link's part
    @property
    def pending(self) -> tuple[str, str] | None:
        """The latest move sent and not yet answered: ``(id, text)``."""
        sent = self.link.newest_pending("move")
        return None if sent is None else (sent.id, sent.text)

    # ------------------------------------------------------------------ what the screen reads
    @property
    def me(self) -> int:
        """The seat drawn at the bottom (a spectator sees seat 0 there)."""
        return self.seat or 0

    @property
    def level(self) -> str:
        """The other seat's name (a bot's level such as ``reflex:2000``, or a person's name)."""
        seats = {int(s["seat"]): s for s in self.info.get("seats", [])}
        other = seats.get(1 - self.me)
        return seat_name(other) if other else "?"

    @property
    def over(self) -> bool:
        """True once the server says the game has ended."""
        return bool(self.view_json.get("finished")) or self.game_over is not None

    def now_ms(self) -> int:
        """The game time now: the clock's ``now`` plus the time since it arrived (while play goes on;
        the clock stands still during a new game's countdown)."""
        base = int(self.clock_json.get("now") or 0)
        if self.over or not self.connected:
            return base
        since = int((self.clock() - self.received_at) * 1000)
        return base + max(0, since - int(self.clock_json.get("startsIn") or 0))

    def starts_in_ms(self) -> int:
        """Ms left of a new game's countdown (the clock's ``startsIn``, less the time since it came)."""
        wait = int(self.clock_json.get("startsIn") or 0)
        if not wait or self.over:
            return 0
        return max(0, wait - int((self.clock() - self.received_at) * 1000))

    def view(self) -> SpitView:
        """The newest position the server sent, seen from this seat (this seat is ``players[0]``)."""
        return spit_view_from_server(self.view_json, self.clock_json, self.legal if self.seat is not None else [],
                                     self.seat, self.now_ms(), (self.rounds_won[0], self.rounds_won[1]))

    @property
    def state(self) -> RemoteSpitPosition:
        """The centers and the result, as the screen asks for them."""
        view = self.view()
        return RemoteSpitPosition(centers=view.centers, result=view.result)

    def tick(self, t: int) -> list[Event]:
        """Nothing runs here: the events the server reported since the last tick."""
        out, self.fresh = self.fresh, []
        return out

    def refusal_of(self, move: str) -> IllegalMoveError | None:
        """Why a move would be refused: only the server knows (it answers the move itself)."""
        return None

    def play(self, move: str, t: int = 0) -> list[Event]:
        """Send a move of this seat now; the server's ``ack`` or ``error`` (``too-late``) answers it."""
        if self.seat is None:
            raise refusal("you are watching: a spectator cannot move", "client.watching")
        if self.over:
            raise refusal("the game is over", "refuse.game-over")
        self.link.move(move, self.version)
        return []

    # ------------------------------------------------------------------ server messages
    def _turn(self, ev: dict[str, Any]) -> Event:
        seat = ev.get("seat")
        rel = None if seat is None else (0 if int(seat) == self.me else 1)
        return Event(t=int(ev.get("t") or 0), kind=str(ev.get("kind")), seat=rel, text=str(ev.get("text") or ""),
                     auto=bool(ev.get("auto")))

    def _set_position(self, msg: dict[str, Any]) -> None:
        self.version = int(msg["stateVersion"])
        self.view_json = msg["view"]
        self.legal = list(msg.get("legal") or [])
        clock = game_part(msg).get("clock")
        if isinstance(clock, dict):
            self.clock_json = dict(clock)
            self.received_at = self.clock()
            won = self.clock_json.get("roundsWon")
            if isinstance(won, list) and len(won) == 2:
                self.rounds_won = [int(won[0]), int(won[1])]

    def _note_cards(self, start: int) -> None:
        """The card of each move from event ``start`` on that the position now shown still shows: the
        newest move onto each center pile or empty slot, after the last flip, slap or deal."""
        shown: set[tuple[str, int, int]] = set()
        for i in range(len(self.events) - 1, start - 1, -1):
            ev = self.events[i]
            if ev.kind != "move":
                return  # a flip, a deal, a shuffle: what lies on the piles now came after the moves before it
            try:
                kind, _, to = parse_spit_move(ev.text, self.game)
            except IllegalMoveError:
                continue
            if kind == SLAP:
                return
            seat = self.me if ev.seat == 0 else 1 - self.me
            place = ("T", seat, to) if kind == SLOT else ("C", 0, to)
            if kind not in (PLAY, SLOT, HAND) or place in shown:
                continue
            shown.add(place)
            try:
                if kind == SLOT:
                    top = self.view_json["players"][seat]["tableau"][to - 1].get("top")
                else:
                    top = self.view_json["centers"][to - 1].get("top")
                if top:
                    self.cards[i] = parse_card(str(top))
            except (KeyError, IndexError, TypeError, CardError):
                continue

    def handle(self, msg: dict[str, Any]) -> SpitUpdate:
        """Take in one server message the link handed on (never a ``state`` older than the one drawn);
        say what the screen should show."""
        kind = msg.get("type")
        out = SpitUpdate()
        version = msg.get("stateVersion")
        if kind == "welcome":
            self.info = msg.get("table") or self.info
            self.seat = msg.get("seat", self.seat)
            self._set_position(msg)
        elif kind == "state" and isinstance(version, int):
            self._set_position(msg)  # each is the whole view
            if not self.view_json.get("finished"):
                self.game_over = None  # a new game at the table (a rematch): play on
            start = len(self.events)
            for raw in game_part(msg).get("events") or []:
                ev = self._turn(raw)
                self.events.append(ev)
                self.fresh.append(ev)
            self._note_cards(start)
        elif kind == "ack":
            self.acked.append((str(msg.get("move")), int(game_part(msg).get("t") or 0)))
        elif kind == "error":
            code, text = str(msg.get("code")), str(msg.get("message"))
            self.refused.append((code, text))
            out.error, out.too_late = text, code == "too-late"
            out.error_words = phrase_of(msg.get("words"))
        elif kind == "table":
            self.info = msg.get("table") or self.info
            event = msg.get("event") or {}
            if event.get("text") and event.get("seat") != self.seat:
                out.notice, out.notice_words = str(event["text"]), phrase_of(event.get("words"))
        elif kind == "gameOver":
            self.game_over = msg
        return out


@dataclass
class RemoteSpeedTable(RemoteSpitTable):
    """A Speed table on a server, as :class:`~spite.spit.tui.speed_screen.SpeedScreen` reads it: the same
    messages as Spit, a Speed view.

    >>> table = RemoteSpeedTable.from_welcome(TableLink("http://h:1", "v7", "t0k"), SPEED_WELCOME_EXAMPLE)
    >>> view = table.view()
    >>> len(view.players[0].hand), view.players[1].hand, view.players[1].hand_size, view.players[0].side
    (5, None, 5, 5)
    """

    game: ClassVar[str] = "speed"

    def view(self) -> SpeedView:  # type: ignore[override]
        """The newest position the server sent, seen from this seat (this seat is ``players[0]``)."""
        return speed_view_from_server(self.view_json, self.clock_json, self.legal if self.seat is not None else [],
                                      self.seat, self.now_ms())


SPIT_WELCOME_EXAMPLE: dict[str, Any] = {
    "type": "welcome", "seat": 1, "stateVersion": 1,
    "table": {"id": "s9", "game": "spit", "preset": "spit", "options": {}, "status": "playing",
              "seats": [{"seat": 0, "kind": "bot", "level": "reflex:2000", "status": "bot",
                         "botLevel": "reflex:2000"},
                        {"seat": 1, "kind": "person", "player": "ann", "status": "connected"}]},
    "view": {"round": 1, "stuck": False, "finished": False, "result": None,
             "centers": [{"top": "5H", "cards": 1}, {"top": "9C", "cards": 1}],
             "players": [{"tableau": [{"top": "KD", "cards": 1}] * 5, "spit": 11, "cards": 26, "called_spit": False},
                         {"tableau": [{"top": "4S", "cards": 1}] * 5, "spit": 11, "cards": 26,
                          "called_spit": False}]},
    "legal": ["T1-C1"],
    "game": {"clock": {"now": 0, "phase": "play", "playFrom": 0, "roundWinner": None, "nextEvent": None}},
}
"""A ``welcome`` of a Spit table, seat 1 (for the examples above)."""


SPEED_WELCOME_EXAMPLE: dict[str, Any] = {
    "type": "welcome", "seat": 0, "stateVersion": 0,
    "table": {"id": "v7", "game": "speed", "preset": "speed", "options": {}, "status": "playing",
              "seats": [{"seat": 0, "kind": "person", "player": "ann", "status": "connected"},
                        {"seat": 1, "kind": "bot", "level": "reflex:2000", "status": "bot",
                         "botLevel": "reflex:2000"}]},
    "view": {"round": 1, "stuck": False, "finished": False, "result": None,
             "centers": [{"top": "5H", "cards": 1}, {"top": "9C", "cards": 1}],
             "players": [{"hand": ["4S", "6D", "KC", "2H", "9S"], "draw": 15, "cards": 20, "called_spit": False},
                         {"hand": None, "draw": 15, "cards": 20, "called_spit": False}]},
    "legal": ["H4-C1", "H6-C1"],
    "game": {"clock": {"now": 0, "phase": "play", "playFrom": 0, "roundWinner": None, "nextEvent": None}},
}
"""A ``welcome`` of a Speed table, seat 0 (for the example above)."""
