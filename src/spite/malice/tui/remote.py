"""A seat at a Spite and Malice table of a running ``spite serve``: the table as the screen draws it.

No Textual and no protocol here. :class:`RemoteMaliceTable` stands in for
:class:`~spite.malice.tui.session.MaliceTable` on the Spite and Malice screen: the position comes from the
server's ``welcome`` and ``state`` messages (``view`` is ``SeatView.to_json()`` of this seat, rebuilt
with :func:`spite.malice.rl.encoding.view_from_json`), and the person's moves, undos and ``next`` go out
through the table's :class:`~spite.tui.link.TableLink`, which speaks the protocol (hello, versions,
reconnecting, the fair deal's checks). The server's bots and people play the other seats.

Undo inside a turn is the server's (``undo``, allowed while the last ``canUndo`` says so), and a
match table's score comes with the messages (:class:`RemoteMatch`); between its games ``next``
asks for the next deal.

>>> table = RemoteMaliceTable.from_welcome(TableLink("http://127.0.0.1:8000", "k3J9x", "t0k"), WELCOME_EXAMPLE)
>>> table.seat, table.version, table.opts.stock_size, table.seats[1].name
(0, 0, 3, 'hard')
>>> [m.text for m in table.view(0).legal_moves][:2]
['S-B1', 'H2-D1']
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from spite.cards import RANKS, WILD_RANK, parse_card
from spite.catalogue import phrase_of
from spite.errors import IllegalMoveError, OptionsError, refusal
from spite.malice import DISCARD, PASS, Move, Options, SeatView
from spite.malice.moves import parse_move
from spite.malice.rl.encoding import view_from_json
from spite.malice.state import Result
from spite.malice.tui.session import LogEntry, Seat
from spite.tui.link import LinkedTable, RemoteError, RemoteUpdate, TableLink, game_part, seat_name

__all__ = [
    "WELCOME_EXAMPLE",
    "RemoteMaliceTable",
    "RemoteMatch",
    "RemotePosition",
    "view_from_server",
]


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

    ``view_from_json`` puts jokers there; a bot that deals out the unseen cards (one choosing from this
    view) needs the counts to add up, so each slot takes a card of its rank that nobody can see elsewhere.
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


@dataclass
class RemoteMaliceTable(LinkedTable):
    """A Spite and Malice table on a server, as :class:`~spite.malice.tui.screen.MaliceScreen` reads it."""

    game: ClassVar[str] = "spite-malice"
    """The registered game (its ``tui`` hook opens the screen)."""

    link: TableLink
    opts: Options
    preset: str
    seat: int | None
    info: dict[str, Any]
    version: int
    """The ``stateVersion`` of the position drawn."""
    view_json: dict[str, Any]
    legal: list[str]
    seats: list[Seat] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    match: RemoteMatch | None = None
    """A match table's score (from the last message that carried it); ``None`` at a table of one game."""
    games: int = 1
    """Games seen over this connection (a match's next game adds one)."""
    server_can_undo: bool = False
    """The last ``canUndo`` of the server: may this seat take back its last move now."""
    awaiting_next: str | None = None
    """The id of the ``next`` sent between a match's games (or of the rematch's yes after the table's
    last game), until the next game is dealt."""
    rematch: dict[str, Any] | None = None
    """After the table's last game: who wants another one there (``ready``, ``waiting``, ``declined``)."""
    acked: list[str] = field(default_factory=list)
    """Every move of this seat the server acknowledged (committed), canonical text."""
    undone: list[str] = field(default_factory=list)
    """Every move of this seat the server took back on its ``undo`` (its ``ack``), canonical text."""
    refused: list[tuple[str, str]] = field(default_factory=list)
    """Every ``error`` of the server: ``(code, message)``."""
    game_over: dict[str, Any] | None = None
    answered_version: int = 0
    """The ``stateVersion`` the server's last ``ack`` named: until its ``state`` arrives the position drawn
    is one the server has moved past, so no move is taken on it."""
    _view: SeatView | None = None
    _position_game: int = 1
    """The match's game number of the position shown."""
    version_base: int = 0
    """``stateVersion`` minus the moves of the game in play, as seen here: a match's next game starts at
    its first version, each undo adds 2 (a table joined after an undo or in a later game counts from 0)."""

    @classmethod
    def from_welcome(cls, link: TableLink, welcome: dict[str, Any]) -> RemoteMaliceTable:
        """The table of a ``welcome`` message (the first answer to ``hello``), played through ``link``."""
        info = welcome["table"]
        try:
            opts = Options.from_preset(info["preset"], info.get("options") or {})
        except OptionsError as exc:
            raise RemoteError(f"this client does not know the table's rules: {exc}") from None
        table = cls(link=link, opts=opts, preset=str(info["preset"]), seat=welcome.get("seat"), info=info,
                    version=int(welcome["stateVersion"]), view_json=welcome["view"],
                    legal=list(welcome.get("legal") or []))
        table._seats_from_info()
        table.server_can_undo = bool(game_part(welcome).get("canUndo"))
        table._match_from(welcome)
        table._position_game = table.match.game if table.match is not None else 1
        return table

    # ------------------------------------------------------------------ the link's part
    @property
    def pending(self) -> tuple[str, str] | None:
        """The move or undo sent and not yet answered: ``(id, text)``."""
        sent = self.link.newest_pending("move", "undo")
        return None if sent is None else (sent.id, sent.text)

    @property
    def pending_undo(self) -> bool:
        """True when :attr:`pending` is an ``undo`` (``text`` the move asked to be taken back)."""
        sent = self.link.newest_pending("move", "undo")
        return sent is not None and sent.kind == "undo"

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
        return (self.seat is not None and self.connected and self.pending is None and not self.link.syncing
                and self.version >= self.answered_version and not self.view_json.get("finished")
                and self.to_move == self.seat and bool(self.legal))

    @property
    def rematch_open(self) -> bool:
        """True when this seat may ask for another game at the table (its last game is over)."""
        return self.seat is not None and self.rematch is not None and self.state.is_over

    @property
    def match_over(self) -> bool:
        """True when no next game follows for this keyboard: a table of one game, the match's end (and
        no rematch to ask for), or a spectator (who does not start games)."""
        return self.seat is None or ((self.match is None or self.match.is_over) and not self.rematch_open)

    @property
    def ready_seats(self) -> list[int]:
        """The seats ready for the next game: a match's between games, or the rematch's yes."""
        if self.rematch is not None:
            return [int(s) for s in self.rematch.get("ready") or []]
        return list(self.match.ready) if self.match is not None and self.match.between_games else []

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

    def game_log(self) -> list[LogEntry]:
        """The moves of the game in play seen over this connection, oldest first."""
        return list(self.log)

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
    def _one_at_a_time(self) -> None:
        if self.seat is None:
            raise refusal("you are watching: a spectator cannot move", "client.watching")
        if self.pending is not None:  # the server answers in order: the next move waits for this one's
            raise refusal(f"wait: the server has not answered {self.pending[1]} yet", "client.waiting",
                          move=self.pending[1])

    def play(self, move: Move | str) -> Move | str:
        """Send a move of this seat; the server's ``ack`` or ``error`` answers it later."""
        self._one_at_a_time()
        self.link.move(move if isinstance(move, str) else move.text, self.version)
        return move

    def can_undo(self) -> bool:
        """True when the server's last ``canUndo`` allows taking back this seat's last move and this
        keyboard may act (connected, its turn, nothing waiting for an answer)."""
        return self.server_can_undo and self.human_to_move

    def undo(self) -> str:
        """Ask the server to take back this seat's last move; its ``ack`` (``undone``) or ``error``
        answers later. Returns the move asked for (from the log; ``""`` when the log does not know it)."""
        self._one_at_a_time()
        last = self.log[-1] if self.log else None
        text = last.move if last is not None and last.seat == self.seat else ""
        self.link.undo(text, self.version)
        return text

    def new_game(self) -> None:
        """Between a match's games: tell the server this seat is ready (``next``); the next game's
        ``state`` comes when every person seat is (or after the server's pause). After the table's last
        game: say yes to another game there (``rematch``); it is dealt when every person says yes."""
        if self.rematch_open:
            self.awaiting_next = self.link.rematch()
            return
        if self.match_over:
            why = "watching" if self.seat is None else "match-over" if self.match else "single"
            raise refusal("no next game: " + {"watching": "you are watching", "match-over": "the match is over",
                                              "single": "a single game"}[why], f"client.no-next.{why}")
        self.awaiting_next = self.link.next_game()

    def finish(self) -> None:
        """Nothing to count: the server keeps the result."""

    # ------------------------------------------------------------------ server messages
    def _seats_from_info(self) -> None:
        self.seats = [Seat("human" if s["seat"] == self.seat else "remote", seat_name(s))
                      for s in sorted(self.info.get("seats", []), key=lambda s: int(s["seat"]))]
        while len(self.seats) < self.opts.players:
            self.seats.append(Seat("remote", "?"))

    def _set_position(self, version: int, view: dict[str, Any], legal: list[str] | None,
                      msg: dict[str, Any] | None = None) -> bool:
        """Take a position (with ``canUndo`` and ``match`` of its message's ``game``); True when it is a new game."""
        old_game = self._position_game
        was_over = bool(self.view_json.get("finished"))
        self.version = version
        self.view_json = view
        self.legal = list(legal or [])
        self._view = None
        if msg is not None:
            self.server_can_undo = bool(game_part(msg).get("canUndo"))
            self._match_from(msg)
            if self.match is not None and isinstance(game_part(msg).get("match"), dict):
                self._position_game = self.match.game
        new = not view.get("finished") and (was_over or self._position_game > old_game)
        if new:
            self.version_base = version
            self.games += 1
            self.log.clear()
            self.game_over = None
            self.awaiting_next = None
            self.rematch = None
        return new

    def _card_put(self, entry: LogEntry) -> int | None:
        """The card ``entry``'s move put on a pile, as the position after it shows (the top of the build
        or discard pile it went to); ``None`` for a pass or a build pile it completed (cleared)."""
        try:
            move = parse_move(entry.move, self.opts.skipbo)
        except IllegalMoveError:
            return None
        view = self.view(self.seat)
        if move.kind == PASS:
            return None
        if move.card >= 0:  # a move that names its card (H7H-B4)
            return move.card
        if move.kind == DISCARD:
            piles = view.discards[entry.seat] if entry.seat < len(view.discards) else ()
            pile = piles[move.target] if move.target < len(piles) else ()
        else:
            pile = view.builds[move.target] if move.target < len(view.builds) else ()
        return pile[-1] if pile else None

    def _match_from(self, msg: dict[str, Any]) -> None:
        data = game_part(msg).get("match")
        if isinstance(data, dict):
            self.match = RemoteMatch.from_json(data)

    def handle(self, msg: dict[str, Any]) -> RemoteUpdate:
        """Take in one server message the link handed on (a ``state`` is never older than the one drawn,
        and never skips one); say what the screen should show."""
        kind = msg.get("type")
        out = RemoteUpdate()
        version = msg.get("stateVersion")
        if kind == "welcome":
            self.info = msg.get("table") or self.info
            self.seat = msg.get("seat", self.seat)
            self._seats_from_info()
            self.answered_version = 0  # the welcome is the truth
            out.new_game = self._set_position(int(msg["stateVersion"]), msg["view"], msg.get("legal"), msg)
            if self.awaiting_next is not None and self.seat not in self.ready_seats:
                self.awaiting_next = None  # the server forgot it (a restart): N asks again
        elif kind == "state" and isinstance(version, int):
            last = msg.get("last") or None
            entry: LogEntry | None = None
            if version == self.version + 1 and last:  # the next move (a jump is a sync's whole position)
                entry = LogEntry(int(self.view_json.get("turn", 1)), int(last["seat"]), str(last["move"]))
                if last.get("undone"):  # the seat took its move back: it leaves the log
                    self.version_base += 2
                    if self.log and replace(self.log[-1], card=None) == entry:
                        self.log.pop()
                    entry = None
                else:
                    self.log.append(entry)
            out.new_game = self._set_position(version, msg["view"], msg.get("legal"), msg)
            if entry is not None and self.log and self.log[-1] is entry:
                told = game_part(last).get("card")  # the card as the server told it
                card = parse_card(told) if isinstance(told, str) else self._card_put(entry)
                self.log[-1] = replace(entry, card=card)
        elif kind == "ack":
            if isinstance(version, int):
                self.answered_version = version
            if msg.get("undone"):
                self.undone.append(str(msg.get("move")))
                out.undone = str(msg.get("move"))
            else:
                self.acked.append(str(msg.get("move")))
        elif kind == "error":
            code, text = str(msg.get("code")), str(msg.get("message"))
            self.refused.append((code, text))
            if self.awaiting_next is not None and msg.get("id") == self.awaiting_next:
                self.awaiting_next = None
            elif code == "no-next-game" and not self.view_json.get("finished"):
                return out  # a late next: the server's pause had already dealt the next game
            out.error, out.error_words = text, phrase_of(msg.get("words"))
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
            self.rematch = msg.get("rematch") if isinstance(msg.get("rematch"), dict) else None
        elif kind == "rematch" and isinstance(msg.get("rematch"), dict):
            self.rematch = msg["rematch"]
        return out


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
