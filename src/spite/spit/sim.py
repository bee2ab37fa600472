"""A discrete-event simulator: two reflex bots play Spit or Speed in virtual time.

Nothing sleeps and no clock is read for the game: the simulator keeps a queue of what is due
next (each bot's intention ``(t, move)`` and the engine's next automatic event,
:meth:`~spite.spit.RealtimeState.next_event_time`) and handles the earliest one:

* the engine's timer first when it is due no later than any bot's move: ``advance(t)``;
* else the earliest bot move: ``apply(seat, move, t)``. Two moves due at the same millisecond go
  in an order drawn from the simulation's seeded random source, so neither seat is favoured.
  The engine decides the race: the first applied wins, a later one that no longer fits is
  refused ("too late: center 1 is now 7S"), the bot is told and plans again.

After every step both bots are asked again (:meth:`ReflexBot.plan`) with their own views. The
game is the same for the same seed: the deal and later rounds come from the engine's seed, each
bot's delays from its own ``random.Random``.

>>> res = simulate("spit", bots=("expert", "club"), seed=4)
>>> res.finished, res.winner in (0, 1), res.duration_ms > 0
(True, True, True)
>>> from spite.records import replay
>>> replay(res.record()).check()["result"] == res.state.result
True

>>> res = simulate("speed", bots=("expert", "beginner"), seed=2)
>>> res.finished, res.rounds
(True, 1)
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from spite.errors import IllegalMoveError, OptionsError
from spite.records import Record
from spite.spit import AnyState, new_game
from spite.spit.bots import ReflexBot, make_reflex_bot

__all__ = ["MAX_MS", "BotSpec", "SimResult", "Step", "simulate"]

BotSpec = str | ReflexBot
"""A bot: a spec (``beginner``, ``club``, ``expert``, ``reflex:MS``) or a :class:`ReflexBot`."""

MAX_MS: Final = 4 * 3_600_000
"""Default cap on a game's virtual duration (4 hours): a game still running then is unfinished."""
MAX_STEPS: Final = 2_000_000


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the simulator did (kept with ``trace=True``): a bot's move at ``t``, landed or
    refused (``reason``), or the engine's timer (``seat`` None, ``move`` ``"advance"``); ``events``
    is how many engine events it caused."""

    t: int
    seat: int | None
    move: str
    ok: bool
    reason: str = ""
    events: tuple[str, ...] = ()


@dataclass
class SimResult:
    """How a simulated game went. ``state`` is the engine's state at the end (its record holds
    every move and chance entry: :meth:`record`)."""

    state: AnyState
    bots: tuple[str, str]
    seed: int | str
    winner: int | None
    """The winning seat (None: no winner, or the game did not finish; the other seat after a
    forfeit)."""
    reason: str
    """The engine's end reason (``out-of-cards``, ``rounds``, ``time``), or ``unfinished`` (the
    virtual-time cap), ``stalled`` (nobody could act and nothing was due) or ``forfeit``."""
    rounds: int
    duration_ms: int
    """Virtual time from the deal to the end."""
    moves: tuple[int, int]
    """Moves of each bot that landed (automatic spit calls and slaps not counted)."""
    rejected: tuple[int, int]
    """Moves of each bot the engine refused (lost races)."""
    auto: tuple[int, int]
    """Moves the engine made for each seat (automatic spit calls and slaps)."""
    think_s: tuple[float, float]
    """Wall-clock seconds each bot spent planning."""
    plans: tuple[int, int]
    """How often each bot was asked."""
    steps: int
    trace: list[Step] = field(default_factory=list)
    forfeit_seat: int | None = None
    """A seat whose bot failed (raised, or planned something that is no plan): it lost."""
    error: str = ""
    """Why ``forfeit_seat`` lost."""

    @property
    def finished(self) -> bool:
        """True when the game reached its end."""
        return self.state.finished

    def record(self) -> Record:
        """The game's ``spite-record/1`` record (start deal, seed, every move and chance entry)."""
        from spite.spit.record import record_from_state

        return record_from_state(self.state)

    def summary(self) -> dict[str, Any]:
        """A JSON-ready summary (no state, no trace)."""
        return {
            "game": self.state.game,
            "bots": list(self.bots),
            "seed": self.seed,
            "winner": self.winner,
            "reason": self.reason,
            "rounds": self.rounds,
            "duration_ms": self.duration_ms,
            "moves": list(self.moves),
            "rejected": list(self.rejected),
            "auto": list(self.auto),
            "steps": self.steps,
            "forfeit_seat": self.forfeit_seat,
            "error": self.error,
        }


def _bot(spec: BotSpec) -> ReflexBot:
    return make_reflex_bot(spec) if isinstance(spec, str) else spec


def bot_rngs(seed: int | str) -> tuple[random.Random, random.Random, random.Random]:
    """The random sources of a simulation: seat 0's, seat 1's, and the one that orders ties."""
    return (
        random.Random(f"spite-sim/{seed}/seat/0"),
        random.Random(f"spite-sim/{seed}/seat/1"),
        random.Random(f"spite-sim/{seed}/ties"),
    )


def simulate(
    game: str = "spit",
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    bots: Sequence[BotSpec] = ("expert", "expert"),
    seed: int | str = 0,
    *,
    deal: dict[str, Any] | None = None,
    rngs: Sequence[random.Random] | None = None,
    max_ms: int = MAX_MS,
    trace: bool = False,
) -> SimResult:
    """Play one game of ``game`` (``"spit"`` or ``"speed"``, a preset and option overrides as for
    :func:`spite.spit.new_game`) between ``bots[0]`` (seat 0) and ``bots[1]`` in virtual time.

    ``seed`` deals the cards (and later rounds; ``deal``, a records.md deal object, gives the start
    instead) and, unless ``rngs`` gives the bots' random sources (seat 0, seat 1, ties), seeds the
    bots too. ``max_ms`` caps the virtual duration; ``trace`` keeps every step in
    :attr:`SimResult.trace`. Raises :class:`OptionsError` for a bad game, preset, option or bot
    spec (and :class:`~spite.errors.MalformedRecordError` for a bad deal).
    """
    if isinstance(bots, str) or len(bots) != 2:
        raise OptionsError(f"a Spit game needs exactly 2 bots, not {bots!r}")
    players = [_bot(bots[0]), _bot(bots[1])]
    if players[0] is players[1]:
        raise OptionsError("give two bot objects (one bot cannot play both seats)")
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise OptionsError(f"the seed must be a whole number or a text, not {seed!r}")
    state = new_game(game, preset, options, seed=seed, deal=deal)
    for k, bot in enumerate(players):
        bot.start_game(state.options, k)
    if rngs is None:
        rngs = bot_rngs(seed)
    if len(rngs) != 3:
        raise OptionsError("rngs: give three random sources (seat 0, seat 1, ties)")
    rng0, rng1, ties = rngs
    seat_rng = (rng0, rng1)
    plans: list[tuple[int, str] | None] = [None, None]
    moves = [0, 0]
    rejected = [0, 0]
    think = [0.0, 0.0]
    asked = [0, 0]
    steps: list[Step] = []
    clock = time.perf_counter

    forfeit: list[Any] = [None, ""]

    def replan(seats: tuple[int, ...] = (0, 1)) -> bool:
        now = state.now
        for s in seats:
            t0 = clock()
            try:
                plans[s] = players[s].plan(state.view(s), now, seat_rng[s])
                if plans[s] is not None:
                    _check_plan(plans[s], now)
            except Exception as exc:  # a bot that fails loses the game
                forfeit[:] = [s, f"seat {s} ({players[s].name}) loses: {_describe(exc)}"]
                return False
            finally:
                think[s] += clock() - t0
                asked[s] += 1
        return True

    reason = "" if replan() else "forfeit"
    n = 0
    while not state.finished and not reason:
        n += 1
        if n > MAX_STEPS:  # pragma: no cover - a safety net; time always moves on
            reason = "unfinished"
            break
        engine_t = state.next_event_time()
        p0, p1 = plans
        seat = 0
        bot_plan: tuple[int, str] | None = None
        if p0 is not None and (p1 is None or p0[0] < p1[0]):
            seat, bot_plan = 0, p0
        elif p1 is not None and (p0 is None or p1[0] < p0[0]):
            seat, bot_plan = 1, p1
        elif p0 is not None and p1 is not None:  # the same millisecond: a fair coin says who is first
            seat = ties.randrange(2)
            bot_plan = plans[seat]
        bot_t = None if bot_plan is None else bot_plan[0]
        if engine_t is None and bot_t is None:
            reason = "stalled"
            break
        if engine_t is not None and (bot_t is None or engine_t <= bot_t):
            if engine_t > max_ms:
                reason = "unfinished"
                break
            events = state.advance(engine_t)
            if trace:
                steps.append(Step(engine_t, None, "advance", True, "", tuple(_ev(e) for e in events)))
        else:
            assert bot_plan is not None
            bot_t, move = bot_plan
            if bot_t > max_ms:
                reason = "unfinished"
                break
            t = max(bot_t, state.now)
            try:
                events = state.apply(seat, move, t)
            except IllegalMoveError as exc:
                rejected[seat] += 1
                state.advance(t)
                players[seat].outcome(move, False, str(exc), t)
                if trace:
                    steps.append(Step(t, seat, move, False, str(exc)))
                # nothing at the table changed: only the refused bot must think again
                if not replan((seat,)):
                    reason = "forfeit"
                continue
            moves[seat] += 1
            players[seat].outcome(move, True, "", t)
            if trace:
                steps.append(Step(t, seat, move, True, "", tuple(_ev(e) for e in events)))
        if not replan():
            reason = "forfeit"
    res = state.result if forfeit[0] is None else None
    auto = [0, 0]
    for entry in state.to_record_moves():
        p = entry.get("p")
        if isinstance(p, int):
            auto[p] += 1
    auto = [auto[0] - moves[0], auto[1] - moves[1]]
    return SimResult(
        state=state,
        bots=(players[0].name, players[1].name),
        seed=seed,
        winner=res["winner"] if res is not None else (None if forfeit[0] is None else 1 - forfeit[0]),
        reason=str(res["reason"]) if res is not None else (reason or "unfinished"),
        rounds=state.round,  # Speed is one round long: its state says 1
        duration_ms=state.now,
        moves=(moves[0], moves[1]),
        rejected=(rejected[0], rejected[1]),
        auto=(auto[0], auto[1]),
        think_s=(think[0], think[1]),
        plans=(asked[0], asked[1]),
        steps=n,
        trace=steps,
        forfeit_seat=forfeit[0],
        error=forfeit[1],
    )


def _check_plan(plan: object, now: int) -> None:
    """A bot's plan must be ``(t, move)`` with a whole ``t`` not before now and a text move."""
    if not (isinstance(plan, tuple) and len(plan) == 2):
        raise TypeError(f"a plan is (t_ms, move), not {plan!r}")
    t, move = plan
    if isinstance(t, bool) or not isinstance(t, int) or t < now:
        raise ValueError(f"a plan's time must be whole ms, not before {now}: {t!r}")
    if not isinstance(move, str):
        raise TypeError(f"a plan's move must be a text, not {move!r}")


def _describe(exc: BaseException) -> str:
    from spite.errors import SpiteError

    if isinstance(exc, SpiteError):
        return str(exc)
    return f"crashed: {type(exc).__name__}: {exc}"


def _ev(event: Any) -> str:
    who = "" if event.seat is None else f" {event.seat}"
    return f"{event.kind}{who}: {event.text}" if event.text else f"{event.kind}{who}"
