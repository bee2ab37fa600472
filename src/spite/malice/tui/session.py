"""A Spite and Malice table as the terminal app sees it: seats, turns, undo, log, hint, match.

No Textual here: :class:`MaliceTable` keeps the engine state (and the :class:`~spite.malice.Match`
when the preset scores), knows which seats are people at this keyboard and which are driven by
something else (a bot now; a remote seat of a server later), and answers the screen's questions
from :class:`~spite.malice.SeatView` objects only, so a remote table can stand in for it.

Seat drivers. A seat is either ``human`` (its moves come from this keyboard) or has a
:class:`SeatDriver` that is asked for a move when the seat is to move. :class:`BotSeat` wraps the
bots of :mod:`spite.bots`; a ``RemoteSeat`` (a server's seat over its protocol) would implement the
same ``choose`` coroutine.

Selection. The screen works with *places*: ``("S",)`` the own stock, ``("H", i)`` the i-th card of
the sorted hand, ``("D", j)`` own discard pile j, ``("B", b)`` build pile b (0-based).
:func:`targets_of` says where a picked source may go, as the legal moves of the view.

>>> from spite.malice import Options
>>> table = MaliceTable(Options.from_preset("short"), parse_seats("human,easy", 2), seed=3)
>>> table.seats[0].kind, table.seats[1].kind, table.seats[1].name
('human', 'bot', 'easy')
>>> view = table.view(table.state.to_move)
>>> sorted({m.text for targets in (targets_of(view, p) for p in sources_of(view)) for m in targets.values()}) \\
...     == sorted({m.text for m in view.legal_moves if m.text != "pass"})
True
"""

from __future__ import annotations

import asyncio
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from spite.bots import LEVELS, Decision, make_bot
from spite.cards import RANKS
from spite.errors import OptionsError, Phrase, refusal
from spite.malice import BUILD, DISCARD, DISCARD_PILE, HAND, PASS, STOCK, Match, Move, Options, SeatView, State
from spite.tui.i18n import seat_word

__all__ = [
    "BotSeat",
    "LogEntry",
    "MaliceTable",
    "Place",
    "Seat",
    "SeatDriver",
    "move_places",
    "parse_seats",
    "sorted_hand",
    "sources_of",
    "targets_of",
]

Place = tuple[str, ...] | tuple[str, int]
"""A place on the table the player can point at: ``("S",)``, ``("H", i)``, ``("D", j)``, ``("B", b)``."""

SEAT_KINDS = ("human", *LEVELS)
"""What ``--seats`` accepts for each seat (besides any bot spec :func:`spite.bots.make_bot` knows)."""


class SeatDriver(ABC):
    """Something other than this keyboard that plays a seat: a bot, or later a remote seat."""

    name: str = "driver"

    def start_game(self, opts: Options, seat: int) -> None:  # noqa: B027 - optional hook
        """Called before each game."""

    @abstractmethod
    async def choose(self, view: SeatView) -> Decision:
        """The move for ``view`` (the seat is to move; ``view.legal_moves`` is not empty)."""


class BotSeat(SeatDriver):
    """A seat played by a bot of :mod:`spite.bots` (a level or any spec); it sees only its view."""

    def __init__(self, spec: str, seed: int = 0) -> None:
        self.spec = spec
        self.bot = make_bot(spec)
        self.name = spec
        self._rng = random.Random(f"spite-tui/{spec}/{seed}")

    def start_game(self, opts: Options, seat: int) -> None:
        """Pass the new game on to the bot."""
        self.bot.start_game(opts, seat)

    async def choose(self, view: SeatView) -> Decision:
        """Ask the bot in a worker thread, so the screen stays alive while a search bot thinks."""
        return await asyncio.to_thread(self.bot.decide, view, self._rng, None)


@dataclass
class Seat:
    """One seat: ``kind`` is ``"human"`` or ``"bot"``; ``driver`` plays a non-human seat."""

    kind: str
    name: str
    driver: SeatDriver | None = None

    @property
    def human(self) -> bool:
        """True when the moves of this seat come from this keyboard."""
        return self.kind == "human"


def parse_seats(text: str | None, players: int, seed: int = 0) -> list[Seat]:
    """Seats from ``--seats`` (``human,medium``; ``human,human`` for hot-seat; bot specs too; the
    page's words for people and levels in either language, ``Mensch,mittel``).

    With no text: one person against the ``medium`` bot(s). Raises :class:`OptionsError` (with its
    catalogue phrase, so that the start screen words it) if the number of seats does not fit the
    game or a seat is unknown.
    """
    written = [s.strip() for s in text.split(",")] if text else ["human"] + ["medium"] * (players - 1)
    names = [name.lower() for name in written]
    if len(names) != players:
        counted = f"{len(names)} seat" + ("s" if len(names) != 1 else "")
        raise OptionsError(f"--seats names {counted}, but this game has {players} players",
                           phrase=Phrase("tui.err_seat_count", {"n": len(names), "players": players}))
    seats: list[Seat] = []
    humans = 0
    for i, name in enumerate(names):
        spec = seat_word(name) or name
        if spec == "human":
            humans += 1
            seats.append(Seat("human", f"human {humans}"))
        elif not name:
            raise OptionsError(f"seat {i + 1} is empty in --seats {text!r}",
                               phrase=Phrase("tui.err_seat_empty", {"n": i + 1}))
        else:
            try:
                driver = BotSeat(spec, seed + i)
            except OptionsError as exc:
                raise OptionsError(str(exc), phrase=Phrase("tui.err_unknown_seat", {"name": written[i]})) from None
            seats.append(Seat("bot", spec, driver))
    return seats


@dataclass(frozen=True)
class LogEntry:
    """One move in the log: the turn (1-based), the seat, the move text, and the card it put on a pile
    (``None`` for a pass, or when it is not known): the words of the log name it."""

    turn: int
    seat: int
    move: str
    game: int = 1
    card: int | None = None


def sorted_hand(view: SeatView) -> list[int]:
    """The seat's hand as the screen shows it: by rank (wild cards last), ``[]`` for a spectator."""
    return sorted(view.hand or (), key=lambda c: (RANKS[c], c))


def move_places(view: SeatView, move: Move) -> tuple[list[Place], Place | None]:
    """The source places of ``move`` (every hand slot of that rank) and its target place."""
    if move.kind == PASS:
        return [], None
    if move.source == STOCK:
        sources: list[Place] = [("S",)]
    elif move.source == DISCARD_PILE:
        sources = [("D", move.pile)]
    else:
        sources = [("H", i) for i, c in enumerate(sorted_hand(view)) if RANKS[c] == move.rank]
    target: Place = ("D", move.target) if move.kind == DISCARD else ("B", move.target)
    return sources, target


def targets_of(view: SeatView, source: Place) -> dict[Place, Move]:
    """Where the card at ``source`` may go now: target place → legal move."""
    out: dict[Place, Move] = {}
    for move in view.legal_moves:
        sources, target = move_places(view, move)
        if target is not None and source in sources:
            out[target] = move
    return out


def sources_of(view: SeatView) -> list[Place]:
    """Every place that holds a card which may be played now."""
    seen: list[Place] = []
    for move in view.legal_moves:
        for place in move_places(view, move)[0]:
            if place not in seen:
                seen.append(place)
    return seen


@dataclass
class MaliceTable:
    """A local table: the engine state, the seats, the match, the log and the undo limit."""

    opts: Options
    seats: list[Seat]
    seed: int = 0
    match: Match | None = None
    state: State = field(init=False)
    log: list[LogEntry] = field(default_factory=list)
    games: int = 0
    undo_floor: int = 0
    """No move at or below this ply may be taken back (turn start, a revealed card)."""
    first: int | None = None
    """Who begins the first game (``None``: the cut decides)."""

    def __post_init__(self) -> None:
        if len(self.seats) != self.opts.players:
            raise OptionsError(f"{len(self.seats)} seats for a game of {self.opts.players} players")
        if self.opts.scoring == "payoff":
            self.match = Match(self.opts, self.seed)
        self.new_game()

    # ------------------------------------------------------------------ games
    def new_game(self) -> None:
        """Deal the next game (of the match, if there is one)."""
        if self.match is not None:
            if self.games:
                self.finish()
            self.state = self.match.start_game()
            if self.games == 0 and self.first is not None:
                self.state = State.new(self.opts, self.match.game_seed(0), first=self.first)
        else:
            self.state = State.new(self.opts, self.seed + self.games, first=self.first if not self.games else None)
        self.games += 1
        self.undo_floor = 0
        for i, seat in enumerate(self.seats):
            if seat.driver is not None:
                seat.driver.start_game(self.opts, i)

    def finish(self) -> None:
        """Count a finished game into the match (once)."""
        if self.match is not None and self.state.is_over and len(self.match.results) < self.games:
            self.match.finish_game(self.state)

    @property
    def match_over(self) -> bool:
        """True when no further game follows (no match, or the match has a winner)."""
        self.finish()
        return self.match is None or self.match.is_over

    # ------------------------------------------------------------------ who is who
    @property
    def humans(self) -> list[int]:
        """The seats played at this keyboard."""
        return [i for i, s in enumerate(self.seats) if s.human]

    @property
    def hot_seat(self) -> bool:
        """More than one person at this keyboard: hands are hidden between their turns."""
        return len(self.humans) > 1

    @property
    def to_move(self) -> int:
        """The seat to move."""
        return self.state.to_move

    @property
    def human_to_move(self) -> bool:
        """True while a person at this keyboard is to move."""
        return not self.state.is_over and self.seats[self.state.to_move].human

    def side_name(self, side: int) -> str:
        """The name of a scoring side (a seat, or a team with partnerships)."""
        if self.opts.partnerships:
            return f"{self.seats[side].name} + {self.seats[side + 2].name}"
        return self.seats[side].name

    def view(self, seat: int | None) -> SeatView:
        """What ``seat`` may know (``None``: no hand shown)."""
        return self.state.view(seat)

    # ------------------------------------------------------------------ moves
    def play(self, move: Move | str) -> Move:
        """Play a move for the seat to move; keeps the log and the undo limit. Returns the move.

        Raises :class:`IllegalMoveError` (state unchanged) for a move that may not be made.
        """
        state = self.state
        seat, turn = state.to_move, state.turn
        hand_before = len(state.hands[seat])
        what = state.play(move)
        played: Move = what.move
        card = what.card if what.card >= 0 else None
        self.log.append(LogEntry(turn + 1, seat, played.text, self.games, card))
        revealed = played.kind != BUILD or played.source == STOCK or (
            played.source == HAND and len(state.hands[seat]) != hand_before - 1)
        if revealed or state.is_over:
            self.undo_floor = state.plies
        if state.is_over:
            self.finish()
        return played

    def can_undo(self) -> bool:
        """True when the last move is a build play of this turn and no hidden card has shown since."""
        return self.human_to_move and self.state.plies > self.undo_floor

    def undo(self) -> Move:
        """Take back the last build play of this turn (see :meth:`can_undo`)."""
        if not self.can_undo():
            raise refusal("nothing to undo: only build plays of this turn, until a hidden card shows",
                          "refuse.nothing-to-undo")
        move: Move = self.state.undo()
        self.log.pop()
        return move

    def hint(self, level: str = "hard") -> Decision:
        """What the bot of ``level`` (``hard`` unless asked) would play for the seat to move, with its reason
        (its view only)."""
        if self.state.is_over:
            raise refusal("the game is over", "refuse.game-over")
        bot = make_bot(level)
        seat = self.state.to_move
        bot.start_game(self.opts, seat)
        return bot.decide(self.state.view(seat), random.Random(f"spite-tui-hint/{self.state.plies}"), None)

    def game_log(self) -> list[LogEntry]:
        """The moves of the current game, oldest first."""
        return [entry for entry in self.log if entry.game == self.games]

    def turn_log(self, limit: int | None = None) -> list[str]:
        """The log by turns: ``"12 P2: H7-B2 S-B1 H9-D3"``, newest last (the current game)."""
        lines: list[str] = []
        current: tuple[int, int] | None = None
        for entry in self.log:
            if entry.game != self.games:
                continue
            key = (entry.turn, entry.seat)
            if key != current:
                lines.append(f"{entry.turn} P{entry.seat + 1}:")
                current = key
            lines[-1] += " " + entry.move
        return lines if limit is None else lines[-limit:]
