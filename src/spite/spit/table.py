"""What Spit and Speed share: the caller's clock, timers, spit calls, history and chance entries.

Both games are real-time and event-driven. The engine never reads a clock and never sleeps: every
call carries the caller's time ``t`` (milliseconds since the game began), which may not go
backwards. :meth:`RealtimeState.apply` plays one player's move at ``t``;
:meth:`RealtimeState.advance` lets the time pass and fires whatever falls due (the automatic spit
call, the automatic slap, the end of a timed game). Both return the :class:`Event` list of what
happened, in order, so that a server can broadcast it.

A state is a plain object with ``__slots__`` and list fields; :meth:`RealtimeState.copy` copies
the lists (the history is a shared persistent chain, so copying it is free). A call that raises
leaves the state exactly as it was: the work is done on a copy that replaces the state only when
everything succeeded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from spite.cards import format_card
from spite.errors import IllegalMoveError, Phrase, SpiteError, refusal, too_late
from spite.spit.options import SpitOptions
from spite.spit.rules import Move, fits, needed_ranks, needs, parse_move

__all__ = ["OVER", "PLAYING", "SLAPPING", "ClockError", "Event", "RealtimeState"]

PLAYING: Final = "play"
SLAPPING: Final = "slap"
OVER: Final = "over"

_TIME: Final = "time"
_AUTO_SPIT: Final = "auto-spit"
_AUTO_SLAP: Final = "auto-slap"


class ClockError(SpiteError, ValueError):
    """A call whose time ``t`` lies before the time the state has already reached."""


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened at a table, for a server to broadcast.

    ``kind`` is one of:

    * ``"move"``: ``seat`` made the move ``text`` (``auto`` when the engine made it for the seat:
      an automatic spit call or slap);
    * ``"flip"``: the spit flip; ``text`` lists the cards turned, e.g. ``"C1 7S, C2 KD"``;
    * ``"round-won"``: ``seat`` won the round; ``text`` is ``"emptied"`` (tableau and spit pile
      empty) or ``"stuck"`` (stuck with no spit cards left, fewer tableau cards);
    * ``"deal"``: a new round was laid out, ``text`` is ``"round N"``;
    * ``"shuffle"``: Speed's center cards became new side piles;
    * ``"game-over"``: the game ended; ``seat`` is the winner (None: nobody), ``text`` the reason.
    """

    t: int
    kind: str
    seat: int | None = None
    text: str = ""
    auto: bool = False


class _Node:
    """One link of the history chain (newest first); shared between copies, never changed."""

    __slots__ = ("entry", "prev")

    def __init__(self, entry: dict[str, Any], prev: _Node | None) -> None:
        self.entry = entry
        self.prev = prev


def _clone(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


class RealtimeState:
    """The common part of :class:`~spite.spit.state.SpitState` and
    :class:`~spite.spit.speed.SpeedState`. Seats are 0 and 1."""

    __slots__ = (
        "_chance",
        "_hist",
        "called",
        "centers",
        "last_center_player",
        "now",
        "options",
        "phase",
        "play_from",
        "preset",
        "prev_tops",
        "reason",
        "seed",
        "start_deal",
        "stuck_since",
        "winner",
    )

    options: SpitOptions
    preset: str
    seed: int | str | None
    now: int
    phase: str
    centers: list[list[int]]
    prev_tops: list[int | None]
    called: list[bool]
    stuck_since: int | None
    play_from: int
    last_center_player: int | None
    winner: int | None
    reason: str | None
    start_deal: dict[str, Any]
    _hist: _Node | None
    _chance: tuple[dict[str, Any], ...]

    def _init_common(self, options: SpitOptions, preset: str | None, seed: int | str | None) -> None:
        self.options = options
        self.preset = preset if preset is not None else options.game
        self.seed = seed
        self.now = 0
        self.phase = PLAYING
        self.centers = [[] for _ in range(options.centers)]
        self.prev_tops = [None] * options.centers
        self.called = [False, False]
        self.stuck_since = None
        self.play_from = 0
        self.last_center_player = None
        self.winner = None
        self.reason = None
        self.start_deal = {}
        self._hist = None
        self._chance = ()

    def _copy_common(self, new: RealtimeState) -> None:
        new.options = self.options
        new.preset = self.preset
        new.seed = self.seed
        new.now = self.now
        new.phase = self.phase
        new.centers = [c[:] for c in self.centers]
        new.prev_tops = self.prev_tops[:]
        new.called = self.called[:]
        new.stuck_since = self.stuck_since
        new.play_from = self.play_from
        new.last_center_player = self.last_center_player
        new.winner = self.winner
        new.reason = self.reason
        new.start_deal = self.start_deal
        new._hist = self._hist
        new._chance = self._chance

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps: every field, the history chain as a list (oldest first), since a
        chain of thousands of links would be pickled as that many nested objects, too deep."""
        names = [name for cls in type(self).__mro__ for name in getattr(cls, "__slots__", ())]
        saved = {name: getattr(self, name) for name in names if hasattr(self, name)}
        entries: list[dict[str, Any]] = []
        node = self._hist
        while node is not None:
            entries.append(node.entry)
            node = node.prev
        saved["_hist"] = entries[::-1]
        return saved

    def __setstate__(self, saved: dict[str, Any]) -> None:
        for name, value in saved.items():
            if name != "_hist":
                setattr(self, name, value)
        self._hist = None
        for entry in saved["_hist"]:
            self._hist = _Node(entry, self._hist)

    def copy(self) -> RealtimeState:
        """An independent copy (lists copied, nothing deep-copied)."""
        raise NotImplementedError

    def _adopt(self, other: RealtimeState) -> None:
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                setattr(self, name, getattr(other, name))

    # ------------------------------------------------------------------ facts
    @property
    def game(self) -> str:
        """``"spit"`` or ``"speed"``."""
        return self.options.game

    @property
    def finished(self) -> bool:
        """True once the game is over."""
        return self.phase == OVER

    @property
    def stuck(self) -> bool:
        """True while the table is stuck: no player can put any card on any center pile."""
        return self.stuck_since is not None

    @property
    def result(self) -> dict[str, Any] | None:
        """``{"winner": seat, "reason": ...}`` once the game is over (records.md §4), else None."""
        if self.phase != OVER:
            return None
        return {"winner": self.winner, "reason": self.reason}

    def next_event_time(self) -> int | None:
        """The earliest ``t`` at which :meth:`advance` will fire an automatic event, or None.

        An automatic spit call or slap falls due ``auto_*_ms`` after its cause and fires once the
        time has passed that instant (so a player's own move at exactly that instant comes first);
        the time limit fires at the limit itself.
        """
        timer = self._next_timer()
        return None if timer is None else timer[0]

    def cards_held(self, seat: int) -> int:
        """Every card ``seat`` holds (Spit: tableau and spit pile; Speed: hand and draw pile)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ the caller's calls
    def apply(self, seat: int, move: str, t: int) -> list[Event]:
        """Play ``seat``'s ``move`` (canonical text or any case) at time ``t``.

        First lets the time pass to ``t`` (as :meth:`advance`), then plays the move. Returns the
        events, in order. Raises :class:`IllegalMoveError` (a reason a player understands) and
        leaves the state unchanged when the move may not be made; :class:`ClockError` when ``t`` is
        before the state's time; :class:`~spite.errors.MissingChanceError` when a new layout is
        due and neither a supplied chance entry nor a seed gives it.
        """
        self._check_clock(t)
        if seat not in (0, 1) or isinstance(seat, bool):
            raise refusal(f"there is no seat {seat!r} (seats are 0 and 1)", "refuse.no-seat", seat=repr(seat), count=2)
        parsed = parse_move(move, self.options.game)
        work = self.copy()
        events = work._advance(t)
        work._apply_parsed(seat, parsed, events)
        self._adopt(work)
        return events

    def advance(self, t: int) -> list[Event]:
        """Let the time pass to ``t`` and fire every automatic event that falls due, in order."""
        self._check_clock(t)
        timer = self._next_timer()
        if timer is None or timer[0] > t:
            self.now = t
            return []
        work = self.copy()
        events = work._advance(t)
        self._adopt(work)
        return events

    def legal_moves(self, seat: int) -> list[str]:
        """Every move ``seat`` may make now, canonical, each once."""
        raise NotImplementedError

    def supply_chance(self, entry: dict[str, Any]) -> None:
        """Queue a chance entry of a record (``{"deal": ...}`` / ``{"shuffle": ...}``): the next
        chance event takes its outcome from the queue before falling back on the seed."""
        self._chance = (*self._chance, entry)

    @property
    def pending_chance(self) -> int:
        """How many supplied chance entries are still waiting for their chance event."""
        return len(self._chance)

    def to_record_moves(self) -> list[dict[str, Any]]:
        """The history as a record's ``moves``: move objects ``{"t", "p", "m"}`` (automatic ones
        included, written as the seat's own move), chance entries, and ``{"t": T}`` where the
        time limit ended the game."""
        out: list[dict[str, Any]] = []
        node = self._hist
        while node is not None:
            out.append(_clone(node.entry))
            node = node.prev
        out.reverse()
        return out

    # ------------------------------------------------------------------ machinery
    def _check_clock(self, t: int) -> None:
        if isinstance(t, bool) or not isinstance(t, int):
            raise ClockError(f"time must be a whole number of milliseconds, not {t!r}")
        if t < self.now:
            raise ClockError(f"time goes backwards: {t} ms is before {self.now} ms")

    def _next_timer(self) -> tuple[int, int, str] | None:
        """The running timer whose event comes first: (the first ``t`` at which ``advance(t)``
        fires it, the event's own time, which timer). On equal event times the time limit wins."""
        if self.phase == OVER:
            return None
        opts = self.options
        best: tuple[int, int, str] | None = None
        if opts.time_limit_s:
            at = max(opts.time_limit_ms, self.now)
            best = (at, at, _TIME)
        due: int | None = None
        kind = _AUTO_SPIT
        if self.phase == PLAYING and self.stuck_since is not None and opts.auto_spit_ms:
            if any(self._flip_pile(s) and not self.called[s] for s in (0, 1)):
                due = self.stuck_since + opts.auto_spit_ms
        elif self.phase == SLAPPING and opts.auto_slap_ms:
            due, kind = self._slap_due(), _AUTO_SLAP
        if due is not None and (best is None or due < best[1]):
            best = (due + 1, due, kind)
        return best

    def _advance(self, t: int) -> list[Event]:
        events: list[Event] = []
        while True:
            timer = self._next_timer()
            if timer is None or timer[0] > t:
                break
            _, at, kind = timer
            self.now = max(self.now, at)
            if kind == _TIME:
                self._time_up(events)
            elif kind == _AUTO_SPIT:
                for seat in [s for s in (0, 1) if self._flip_pile(s) and not self.called[s]]:
                    if self._call_spit(seat, events, auto=True):
                        break
            else:
                self._auto_slap(events)
        self.now = t
        return events

    def _record(self, entry: dict[str, Any]) -> None:
        self._hist = _Node(entry, self._hist)

    def _record_move(self, seat: int, text: str, events: list[Event], auto: bool = False) -> None:
        self._record({"t": self.now, "p": seat, "m": text})
        events.append(Event(self.now, "move", seat, text, auto))

    def _take_chance(self) -> dict[str, Any] | None:
        if not self._chance:
            return None
        entry = self._chance[0]
        self._chance = self._chance[1:]
        return entry

    def _end_game(self, winner: int | None, reason: str, events: list[Event]) -> None:
        self.phase = OVER
        self.winner = winner
        self.reason = reason
        self.stuck_since = None
        self.called = [False, False]
        events.append(Event(self.now, "game-over", winner, reason))

    def _time_up(self, events: list[Event]) -> None:
        held = [self.cards_held(0), self.cards_held(1)]
        winner = (0 if held[0] < held[1] else 1) if held[0] != held[1] else self._time_tiebreak()
        self._record({"t": self.now})
        self._end_game(winner, "time", events)

    def _common_play_checks(self, center_no: int) -> list[int]:
        """The checks of a play onto center ``center_no`` that do not depend on the card; gives the pile."""
        if not 1 <= center_no <= len(self.centers):
            raise refusal(f"there is no center pile {center_no} (there are {len(self.centers)})",
                          "refuse.spit.no-center", center=center_no, count=len(self.centers))
        center = self.centers[center_no - 1]
        if not center:
            raise refusal(f"center {center_no} is empty: it takes no card until a spit flip puts one there",
                          "refuse.spit.center-empty", center=center_no)
        if self.now < self.play_from:
            raise refusal(
                f"wait: after the spit flip nobody may play before {self.play_from} ms "
                f"({self.play_from - self.now} ms more, slowpoke)",
                "refuse.spit.slowpoke", ms=self.play_from - self.now,
            )
        return center

    def _misfit(self, card: int, center_no: int) -> IllegalMoveError:
        top = self.centers[center_no - 1][-1]
        prev = self.prev_tops[center_no - 1]
        if prev is not None and fits(card, prev, self.options.wrap):
            return too_late(f"too late: center {center_no} is now {format_card(top)}", "refuse.spit.too-late",
                           center=center_no, top=format_card(top))
        english = (f"{format_card(card)} does not fit on center {center_no}, which shows {format_card(top)}: "
                   f"it takes {needs(top, self.options.wrap, self.options.jokers > 0)}")
        takes = needed_ranks(top, self.options.wrap, self.options.jokers > 0)
        if not takes:
            return refusal(english, "refuse.spit.on-ace", card=format_card(card), center=center_no,
                           top=format_card(top))
        return refusal(english, "refuse.spit.misfit", card=format_card(card), center=center_no, top=format_card(top),
                       takes=" ".join(takes))

    def _put_on_center(self, seat: int, card: int, center_no: int) -> None:
        center = self.centers[center_no - 1]
        self.prev_tops[center_no - 1] = center[-1]
        center.append(card)
        self.last_center_player = seat

    def _spit_checks(self, seat: int) -> None:
        self._need_playing()
        if self.stuck_since is None:
            english, phrase = self._play_hint(seat)
            raise IllegalMoveError(f"the table is not stuck: {english}", phrase=phrase)
        if not self._flip_pile(seat):
            raise refusal(f"you have no {self._flip_pile_name()} cards left to flip",
                          f"refuse.spit.nothing-to-flip.{self._flip_pile_name().replace(' ', '-')}")
        if self.called[seat]:
            waiting = [s for s in (0, 1) if self._flip_pile(s) and not self.called[s]]
            if waiting:
                raise refusal(f"you have already called spit; waiting for seat {waiting[0]}",
                              "refuse.spit.called-waiting", seat=waiting[0])
            raise refusal("you have already called spit", "refuse.spit.called")

    def _call_spit(self, seat: int, events: list[Event], auto: bool = False) -> bool:
        """``seat`` calls spit; the flip follows once every player who can flip has called.
        Returns True when the flip happened."""
        self.called[seat] = True
        self._record_move(seat, "spit", events, auto)
        if all(self.called[s] or not self._flip_pile(s) for s in (0, 1)):
            self._flip(events)
            return True
        return False

    def _after_flip(self, placed: list[int | None], events: list[Event]) -> None:
        for j, card in enumerate(placed):
            if card is not None:
                self.prev_tops[j] = None
        self.called = [False, False]
        self.stuck_since = None
        if self.options.slowpoke_ms:
            self.play_from = self.now + self.options.slowpoke_ms
        text = ", ".join(f"C{j + 1} {format_card(c)}" for j, c in enumerate(placed) if c is not None)
        events.append(Event(self.now, "flip", None, text or "nothing"))

    def _need_playing(self) -> None:
        if self.phase == OVER:
            raise refusal("the game is over", "refuse.game-over")
        if self.phase == SLAPPING:
            raise self._slap_wait()

    def _set_stuck(self, stuck: bool) -> None:
        if not stuck:
            self.stuck_since = None
            self.called = [False, False]
        elif self.stuck_since is None:
            self.stuck_since = self.now

    # ------------------------------------------------------------------ the games fill these in
    def _apply_parsed(self, seat: int, move: Move, events: list[Event]) -> None:
        raise NotImplementedError

    def _flip_pile(self, seat: int) -> list[int]:
        raise NotImplementedError

    def _flip_pile_name(self) -> str:
        raise NotImplementedError

    def _flip(self, events: list[Event]) -> None:
        raise NotImplementedError

    def _play_hint(self, seat: int) -> tuple[str, Phrase]:
        """Why the table is not stuck, in English and as the catalogue phrase of the refused spit."""
        raise NotImplementedError

    def _time_tiebreak(self) -> int | None:
        raise NotImplementedError

    def _slap_due(self) -> int:
        raise NotImplementedError

    def _auto_slap(self, events: list[Event]) -> None:
        raise NotImplementedError

    def _slap_wait(self) -> IllegalMoveError:
        raise NotImplementedError
