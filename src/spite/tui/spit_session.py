"""A Spit or Speed table against a bot, in real time, as the terminal app drives it.

No Textual here. The app owns the clock and calls :meth:`SpitTable.tick` many times a second with
the time ``t`` in ms since the game began; the table lets the engine's time pass
(``advance(t)``) and gives the opponent its chance to act. The person's moves come through
:meth:`SpitTable.play`.

The opponent is the reflex bot of ``spite.bots.reflex`` (its ``make_tui_opponent``: easy is the
beginner, medium the club player, hard a 500 ms reflex bot, expert the expert); should that module
be missing, :class:`TimedOpponent`, a small timer-driven player kept here, stands in: it waits a
reaction time after every change it sees (longer in a new round), then plays the seed's tips.

>>> table = SpitTable(seed=5, level="easy")
>>> table.state.round, table.human, table.bot_seat
(1, 0, 1)
>>> events = table.tick(10)
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from spite.errors import IllegalMoveError, OptionsError
from spite.spit import OVER, AnyState, Event, SpeedView, SpitOptions, SpitView, new_game

__all__ = ["REACTION_MS", "SpitOpponent", "SpitTable", "TimedOpponent", "make_opponent"]

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
    """The opponent for a level: the reflex bot of ``spite.bots.reflex`` (``make_tui_opponent``) when
    that module is there, else :class:`TimedOpponent`."""
    try:
        reflex = importlib.import_module("spite.bots.reflex")
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
    ) -> None:
        self.state: AnyState = new_game(game, preset, options, seed=seed)
        self.level = level
        self.opponent = opponent if opponent is not None else make_opponent(level, seed, self.state.options)
        self.events: list[Event] = []

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.state.phase == OVER

    def view(self) -> SpitView | SpeedView:
        """What the person may know (their legal moves included)."""
        return self.state.view(self.human)

    def tick(self, t: int) -> list[Event]:
        """Let the time pass to ``t`` ms and let the opponent act; the events, in order."""
        t = max(t, self.state.now)
        events = self.state.advance(t)
        if not self.over:
            move = self.opponent.act(self.state.view(self.bot_seat), t)
            if move is not None:
                with contextlib.suppress(IllegalMoveError):  # a lost race: it looks again later
                    events += self.state.apply(self.bot_seat, move, t)
        self.events += events
        return events

    def play(self, move: str, t: int) -> list[Event]:
        """The person's move at ``t`` ms; raises :class:`IllegalMoveError` (nothing changes) if refused."""
        events = self.state.apply(self.human, move, max(t, self.state.now))
        self.events += events
        return events
