"""A Spit or Speed table against a bot, in real time, as the terminal app drives it.

No Textual here. The app owns the clock and calls :meth:`SpitTable.tick` many times a second with
the time ``t`` in ms since the game began; the table lets the engine's time pass
(``advance(t)``) and gives the opponent its chance to act. The person's moves come through
:meth:`SpitTable.play`.

A game begins with a countdown, as at a server's table ("one, two, three — spit!",
:data:`START_COUNTDOWN_S`, the server's ``start_countdown``): the times before play are negative,
the engine's clock stands at 0 until it ends, the center cards are face down in every view, the
opponent waits and a move is refused with the time left.

The opponent is the reflex bot of ``spite.spit.bots`` (its ``make_tui_opponent``: easy is the
beginner, medium the club player, hard a 500 ms reflex bot, expert the expert); should that module
be missing, :class:`TimedOpponent`, a small timer-driven player kept here, stands in: it waits a
reaction time after every change it sees (longer in a new round), then plays the seed's tips.

>>> table = SpitTable(seed=5, level="easy", countdown_ms=3000)
>>> table.state.round, table.human, table.bot_seat
(1, 0, 1)
>>> table.tick(-2500), table.view().legal, table.view().centers[0].top
([], (), None)
>>> table.play("T1-C1", -2500)
Traceback (most recent call last):
...
spite.errors.IllegalMoveError: the game starts in 3 s
>>> events = table.tick(10)
>>> table.view().centers[0].top is not None
True
"""

from __future__ import annotations

import contextlib
import importlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Final, Protocol

from spite.cards import RANKS
from spite.errors import IllegalMoveError, OptionsError, refusal
from spite.spit import OVER, AnyState, Event, SpeedView, SpitOptions, SpitView, new_game
from spite.spit.rules import HAND, PLAY, SLOT, parse_move
from spite.spit.views import PileView

__all__ = ["REACTION_MS", "START_COUNTDOWN_S", "SpitOpponent", "SpitTable", "TimedOpponent", "make_opponent",
           "starts_in_refusal"]

START_COUNTDOWN_S: Final = 3.0
"""Seconds from the deal to the first card ("one, two, three — spit!"): the server's
``ServerConfig.start_countdown`` (tests/tui/test_tui_spit.py checks they agree; the terminal app does
not load the server to read it)."""


def starts_in_refusal(wait_ms: int) -> IllegalMoveError:
    """The refusal of a move made ``wait_ms`` before play begins (the server's words for it)."""
    s = math.ceil(wait_ms / 1000)
    return refusal(f"the game starts in {s} s", "error.not-started.in", s=s)

REACTION_MS: Final = {"easy": 1500, "medium": 900, "hard": 600, "expert": 350}
"""Mean reaction time of the built-in opponent per level (ms); jitter ±25 %, +50 % in a new round."""


class SpitOpponent(Protocol):
    """Whatever plays the other seat: asked on every tick, answers a move to try now or ``None``."""

    def act(self, view: SpitView | SpeedView, now: int) -> str | None:
        """The move to make at ``now`` (ms) in ``view``, or ``None`` to wait."""


@dataclass
class TimedOpponent:
    """A timer-driven Spit player: reaction delay per level, then the seed's tips.

    Tips: play the top of the biggest pile first (it uncovers a face-down card), fill empty slots
    from the biggest pile, call spit at once, slap the smaller center pile.
    """

    level: str = "medium"
    seed: int | str = 0
    _rng: random.Random = field(init=False)
    _due: int | None = field(default=None, init=False)
    _key: object = field(default=None, init=False)
    _round: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        if self.level not in REACTION_MS:
            raise OptionsError(f"unknown Spit level {self.level!r} (one of {', '.join(REACTION_MS)})")
        self._rng = random.Random(f"spite-tui-spit/{self.level}/{self.seed}")

    def _delay(self, after_flip: bool) -> int:
        mean = REACTION_MS[self.level] * (1.5 if after_flip else 1.0)
        return max(50, int(self._rng.uniform(0.75, 1.25) * mean))

    def act(self, view: SpitView | SpeedView, now: int) -> str | None:
        """See :class:`SpitOpponent`."""
        if not view.legal:
            self._due, self._key = None, None
            return None
        centers = tuple((c.top, c.cards) for c in view.centers)
        key = (view.legal, centers, view.phase)
        if key != self._key:
            flipped = self._key is not None and self._round != view.round
            self._key, self._round = key, view.round
            self._due = now + self._delay(flipped)
            return None
        if self._due is None or now < self._due:
            return None
        self._due = now + self._delay(False)  # if the move loses a race, look again later
        return self.choose(view)

    @staticmethod
    def choose(view: SpitView | SpeedView) -> str:
        """The move the tips pick among ``view.legal`` (Speed: the first card that fits)."""
        assert view.seat is not None
        legal = view.legal
        mine = view.players[view.seat].tableau
        if not mine:  # no tableau (Speed): the first card that fits
            return legal[0]
        slaps = [m for m in legal if m.startswith("slap")]
        if slaps:
            sizes = [c.cards for c in view.centers]
            return f"slap C{sizes.index(min(sizes)) + 1}"
        plays = [m for m in legal if "-C" in m]
        if plays:
            return max(plays, key=lambda m: mine[int(m[1]) - 1].cards)
        slots = [m for m in legal if "-T" in m]
        if slots:
            return max(slots, key=lambda m: mine[int(m[1]) - 1].cards)
        return legal[0]


def make_opponent(level: str, seed: int | str = 0, options: SpitOptions | None = None) -> SpitOpponent:
    """The opponent for a level: the reflex bot of ``spite.spit.bots`` (``make_tui_opponent``) when
    that module is there, else :class:`TimedOpponent`."""
    try:
        reflex = importlib.import_module("spite.spit.bots")
    except ImportError:
        reflex = None
    factory: Callable[..., Any] | None = getattr(reflex, "make_tui_opponent", None)
    if factory is not None:
        opponent = factory(level, seed, options)
        if callable(getattr(opponent, "act", None)):
            return opponent  # type: ignore[no-any-return]
    return TimedOpponent(level, seed)


class SpitTable:
    """A Spit (or Speed, ``game="speed"``) game of this keyboard's player (seat 0) against an
    opponent (seat 1)."""

    human: Final = 0
    bot_seat: Final = 1

    def __init__(
        self,
        preset: str | None = None,
        options: dict[str, Any] | None = None,
        seed: int = 0,
        level: str = "medium",
        opponent: SpitOpponent | None = None,
        game: str = "spit",
        countdown_ms: int = 0,
    ) -> None:
        self.state: AnyState = new_game(game, preset, options, seed=seed)
        self.level = level
        self.opponent = opponent if opponent is not None else make_opponent(level, seed, self.state.options)
        self.events: list[Event] = []
        self.countdown_ms = countdown_ms
        """The start countdown: times from ``-countdown_ms`` to 0 come before play."""
        self.now = -countdown_ms
        """The latest time the table was told (ms; negative during the countdown)."""
        self.cards: dict[int, int] = {}
        """The card each move took (by its event's index in :attr:`events`), for the log's words."""

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.state.phase == OVER

    def starts_in_ms(self) -> int:
        """Ms of the start countdown left (0 once play has begun)."""
        return max(0, -self.now)

    def view(self) -> SpitView | SpeedView:
        """What the person may know (their legal moves included); during the start countdown the
        center cards are face down (their sizes only) and no move is legal."""
        view = self.state.view(self.human)
        if self.now >= 0:
            return view
        return replace(view, legal=(), centers=tuple(PileView(None, c.cards) for c in view.centers))

    def tick(self, t: int) -> list[Event]:
        """Let the time pass to ``t`` ms and let the opponent act; the events, in order. Nothing
        happens during the start countdown (``t`` below 0)."""
        self.now = max(self.now, t)
        if t < 0:
            return []
        t = max(t, self.state.now)
        start = len(self.events)
        self.events += self.state.advance(t)
        if not self.over:
            move = self.opponent.act(self.state.view(self.bot_seat), t)
            if move is not None:
                with contextlib.suppress(IllegalMoveError):  # a lost race: it looks again later
                    self._apply(self.bot_seat, move, t)
        return self.events[start:]

    def play(self, move: str, t: int) -> list[Event]:
        """The person's move at ``t`` ms; raises :class:`IllegalMoveError` (nothing changes) if refused,
        also during the start countdown (with the time left)."""
        self.now = max(self.now, t)
        if t < 0:
            raise starts_in_refusal(-t)
        return self._apply(self.human, move, max(t, self.state.now))

    def refusal_of(self, move: str) -> IllegalMoveError | None:
        """Why the engine would refuse the person's ``move`` now (``None``: it would take it); the table
        does not change."""
        if self.now < 0:
            return starts_in_refusal(-self.now)
        trial = self.state.copy()
        try:
            trial.apply(self.human, move, max(self.now, trial.now))
        except IllegalMoveError as exc:
            return exc
        return None

    def _apply(self, seat: int, move: str, t: int) -> list[Event]:
        """Play ``seat``'s move; keep its events and the card it took."""
        card = self.card_of(seat, move)
        events = self.state.apply(seat, move, t)
        start = len(self.events)
        self.events += events
        if card is not None:
            for i, event in enumerate(events):
                if event.kind == "move" and event.seat == seat and not event.auto:
                    self.cards[start + i] = card
                    break
        return events

    def card_of(self, seat: int, move: str) -> int | None:
        """The card ``move`` of ``seat`` would take now (a tableau pile's top; Speed: the first card of
        that rank in the hand, the one the engine plays); ``None`` for spit, slap or a bad move."""
        try:
            kind, a, _ = parse_move(move, self.state.options.game)
        except IllegalMoveError:
            return None
        if kind in (PLAY, SLOT):
            piles = getattr(self.state, "tableaus", None)
            pile = piles[seat][a - 1] if piles is not None and 0 < a <= len(piles[seat]) else []
            return pile[-1] if pile else None
        if kind == HAND:
            hand = getattr(self.state, "hands", [[], []])[seat]
            return next((c for c in hand if RANKS[c] == a), None)
        return None
