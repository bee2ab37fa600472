"""Spit and Speed at a server table, in real time: the server's clock drives the game.

Registered as the ``server`` hook of ``spit`` and ``speed`` (:data:`SERVER`); the table's core
(:mod:`spite.server.table.core`) does the rest. The game clock is ms since the game began, from the
core's clock (the host's monotonic one). A new game begins with a countdown ("one, two, three —
spit!", ``ServerConfig.start_countdown`` seconds after its deal): the clock stands at 0 until it
ends, ``clock.startsIn`` says how long is left, and moves sent before then are refused
(``not-started``); until then every view shows the center piles face down (sizes only) with no legal
moves, and a ``state`` at the end turns them up for everyone at once. After a restart the clock
resumes at the time of the last stored entry (the downtime does not count: nobody could move).

The play tells the core when it next has something to do (:meth:`SpitPlay.due`): the game's next
automatic event (``next_event_time()``: automatic spit call, automatic slap,
the time limit) and each bot's intended move (the reflex bots' ``plan``, made again after every
change). A move is played at the clock's ``now`` (the core lets the time pass to it first, so what
fell due before it happens first), in arrival order, so two moves racing for one pile are decided by
which reached the server first; the loser gets a ``too-late`` error with the engine's reason ("too
late: center 1 is now 7S"). A move's ``stateVersion`` is not checked (in real time the engine decides
races).

The reflex bots are cheap (microseconds per plan) and run in the core's step; each sees only its
seat's view, like any client. Spit and Speed tables have no hints, undo or matches.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from spite.errors import OptionsError
from spite.games import Event, GameState, Record, get_game
from spite.server.protocol import GameEvent
from spite.server.table.play import (
    Action,
    Change,
    Listing,
    Opening,
    ServerGame,
    Table,
    TablePlay,
    restored,
    stored_record,
)
from spite.server.table.seats import LobbyError, Seat
from spite.spit import AnyState
from spite.spit import Event as SpitEvent
from spite.spit.bots import LEVEL_WORDS, ReflexBot, make_reflex_bot
from spite.spit.game import RealtimeGame, RealtimeGameState
from spite.spit.record import EntryReplayer, positions, replay_spit, step_of

if TYPE_CHECKING:
    from spite.server.table.effects import StoredTable

__all__ = ["SERVER", "SPIT_LEVEL_FOR", "Clock", "SpitPlay", "SpitServer", "spit_level"]

SPIT_LEVEL_FOR = {"random": "beginner", **LEVEL_WORDS}
"""The reflex bot for each computer level of every game (easy … expert, as ``spite tui --game spit`` and
``spite tournament --game spit`` take them), and for ``random`` (the server's replacement level may be
any level of Spite and Malice)."""


class Clock(BaseModel):
    """The table's clock and phase when the message was sent (all public): the ``clock`` of this game's
    part of the messages (``game``)."""

    model_config = ConfigDict(extra="forbid")

    now: int = Field(description="The game clock in ms (since the game began) when this was sent.")
    phase: Literal["play", "slap", "over"]
    playFrom: int = Field(description="No card may go to a center pile before this time (slowpoke).")
    roundWinner: int | None = None
    nextEvent: int | None = Field(None, description="When the engine fires its next automatic event, if any.")
    startsIn: int | None = Field(None, description="A new game's countdown: ms left before play begins "
                                 "(moves sent before then are refused with not-started); absent once play has begun.")
    roundsWon: list[int] | None = Field(None, description="Spit: the rounds each seat has won so far "
                                        "(absent for Speed, which is one round).")


def logged(step: dict[str, Any]) -> dict[str, Any]:
    """A step of the game (:func:`spite.spit.record.step_of`) as a ``welcome``'s ``moveLog`` tells it:
    its seat and move, its time and events in the game's own part (``game``)."""
    t = step["t"]
    events = [GameEvent(t=t, **e).model_dump() for e in step.get("events", [])]
    return {"seat": step["seat"], "move": step["move"], "game": {"t": t, "events": events}}


def spit_level(level: str | None) -> str:
    """A reflex bot spec for ``level`` (a Spit level as it is, a level of every game mapped)."""
    if level is None:
        return "club"
    return SPIT_LEVEL_FOR.get(level, level)


WEB = Path(__file__).resolve().parent / "web"
"""The family's page modules (the table, its replay board and styles, its rules text)."""


class SpitServer(ServerGame):
    """Opens and restores Spit and Speed tables (the host's defaults: a deal, then replay)."""

    listing = Listing(title="Spit and Speed", levels=("beginner", "club", "expert"), default_level="club",
                      web=WEB, page="spit.js", rules="spit", pictures={
                          # both rows of tableau piles (some face down) and the two center piles between them
                          "spit": (("6C", "#", "2H", "#", "8S"), ("9D", "10S"), ("4H", "10C", "7S", "", "5D")),
                          # the other hand as backs, the side piles beside the two center piles, your hand
                          "speed": (("#", "#", "#", "#", "#"), ("#", "6H", "7C", "#"),
                                    ("3S", "8H", "9D", "5C", "10H"))})

    def check_bot(self, game: str, level: str | None) -> None:
        # the levels of every game (easy … expert) and the reflex bots' own (beginner, club, reflex:MS)
        if level is None or level == "random":
            raise LobbyError(f"a {game} bot seat needs a level (beginner, club, expert or reflex:MS)", 400,
                             "lobby.reflex-level", game=game)
        try:
            make_reflex_bot(level)
        except OptionsError as exc:
            raise LobbyError.of(exc) from None

    def restore(self, st: StoredTable) -> Opening:
        # one replay gives the state and the steps a welcome's moveLog shows
        record = stored_record(st)
        steps: list[dict[str, Any]] = []
        replay = replay_spit(record, lambda seat, move, t, events, _state: steps.append(
            logged(step_of(seat, move, t, events))))
        plies = sum(1 for entry in record.moves if isinstance(entry, dict) and "p" in entry)
        game = get_game(record.game)
        assert isinstance(game, RealtimeGame)
        return restored(st, RealtimeGameState(game, replay.state, plies), steps)

    def play(self, table: Table, extra: Any) -> SpitPlay:
        return SpitPlay(table)

    def positions(self, record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return positions(record)


SERVER = SpitServer()
"""The ``server`` hook of ``spit`` and ``speed``."""


class SpitPlay(TablePlay):
    """Spit or Speed at one table: the reflex bots and the game's steps."""

    # no thinking bots (Listing.bots): the reflex bots are planned and moved here (changed, due)

    def __init__(self, table: Table) -> None:
        super().__init__(table)
        self._bots: dict[int, tuple[str, ReflexBot, random.Random]] = {}
        self._intents: dict[int, tuple[int, str]] = {}
        self._log: list[dict[str, Any]] = list(table.restored_log or [])
        self._replayer = EntryReplayer(self.engine.copy(), self._logged, table.entries)
        """The game's steps as they are stored (the ``moveLog``), without replaying it from its start."""

    @property
    def state(self) -> GameState:
        """The game in play."""
        return self.table.state

    @property
    def engine(self) -> AnyState:
        """The engine state of the game in play."""
        engine: AnyState = self.state.engine
        return engine

    def _clock(self) -> Clock:
        table = self.table
        view = self.engine.view(None)
        playing = table.status == "playing" and table.is_dealt
        now = table.game_ms(table.now) if playing else self.state.now
        starts_in = int(max(0.0, table.clock.go - table.now) * 1000) if playing else 0
        rounds = view.rounds_won  # None: Speed has no rounds
        return Clock(now=now, phase=view.phase, playFrom=view.play_from, roundWinner=view.round_winner,  # type: ignore[arg-type]
                     nextEvent=self.state.next_event_time(), startsIn=starts_in or None,
                     roundsWon=list(rounds) if rounds is not None else None)

    # ------------------------------------------------------------------ what clients see
    def views(self, seats: Sequence[int | None]) -> dict[int | None, tuple[dict[str, Any], list[str]]]:
        return {seat: self._view(seat) for seat in seats}

    def _view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        view = self.state.view(seat)
        out = view.to_json()
        if self.table.status == "playing" and not self.table.live(self.table.now):
            # the countdown: the center cards are still face down (only their sizes show) and
            # nothing is legal yet, so nobody can plan a move before "go" (the state at go shows them)
            out["centers"] = [{"top": None, "cards": c["cards"]} for c in out["centers"]]
            out["stuck"] = False
            return out, []
        return out, list(view.legal)  # type: ignore[attr-defined]

    def fields(self, seat: int | None, events: Sequence[Event] | None = None) -> dict[str, Any]:
        # the clock; a change's events (what the engine did, in order: nothing happens in turns here)
        out: dict[str, Any] = {"clock": self._clock().model_dump()}
        if events is not None:
            out["events"] = [GameEvent(t=e.t, kind=e.kind, seat=e.seat, text=e.text,
                                       auto=getattr(e, "auto", False)).model_dump() for e in events]
        return out

    def move_log(self, seat: int | None = None, newest: int | None = None) -> list[dict[str, Any]]:
        return self._log if newest is None else self._log[-newest:]

    def _logged(self, seat: int | None, move: str | None, t: int, events: list[SpitEvent], _state: AnyState) -> None:
        self._log.append(logged(step_of(seat, move, t, events)))

    # ------------------------------------------------------------------ moves
    def entries(self, events: Sequence[Event]) -> list[Any]:
        return self.engine.to_record_moves()[self.table.entries:]

    # ------------------------------------------------------------------ the bots and the game's timers
    def _bot(self, seat: Seat) -> tuple[ReflexBot, random.Random]:
        spec = spit_level(seat.level or self.table.config.replacement_level)
        have = self._bots.get(seat.seat)
        if have is None or have[0] != spec:
            bot = make_reflex_bot(spec)
            bot.start_game(self.engine.options, seat.seat)
            have = (spec, bot, random.Random(f"{self.table.id}:{seat.seat}:{self.table.version}"))
            self._bots[seat.seat] = have
        return have[1], have[2]

    def changed(self, stored: Change | None = None) -> None:
        """Log the steps of a change just stored (from its entries), and plan the bots again for the
        table as it is now (a bot reacts to what it sees); an intention whose time came is spent,
        landed or not."""
        if stored is not None:
            self._replayer.feed(stored.entries)
        table = self.table
        if self._intents and table.live(table.now):
            t = table.game_ms(table.now)
            for seat, (at, move) in self._intents.items():
                have = self._bots.get(seat)
                if at <= t and have is not None:
                    have[1].outcome(move, True, "", t)
        self._intents.clear()
        if table.status != "playing" or self.state.is_over or not table.is_dealt:
            return
        now = table.game_ms(table.now)
        for s in table.seats:
            if s.controller != "bot":
                self._bots.pop(s.seat, None)
                continue
            bot, rng = self._bot(s)
            plan = bot.plan(self.state.view(s.seat), now, rng)  # type: ignore[arg-type]
            if plan is not None:
                self._intents[s.seat] = (max(plan[0], now), plan[1])

    def due(self, now: float) -> tuple[list[Action], float | None]:
        table = self.table
        if not table.live(now):
            return [], None
        t = table.game_ms(now)
        actions: list[Action] = []
        nxt = self.state.next_event_time()
        if nxt is not None and nxt <= t:
            actions.append(("advance",))
        actions.extend(("move", seat, move) for seat, (at, move) in sorted(self._intents.items(), key=lambda i: i[1])
                       if at <= t)
        times = [at for at, _ in self._intents.values()] + ([nxt] if nxt is not None else [])
        return actions, table.core_time(min(times)) if times else None
