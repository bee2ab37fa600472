"""Spit and Speed behind the common game interface (:mod:`spite.games`), registered as ``spit``
and ``speed``.

Real-time games: both seats may act at any time, every move carries the caller's time in ms, and
time passing fires automatic events (:meth:`GameState.advance`). The adapter adds no rule; it hands
every call to the engine state (:class:`~spite.spit.SpitState`, :class:`~spite.spit.SpeedState`),
whose :class:`~spite.spit.Event` list is already what the interface reports.

>>> from spite.games import get_game
>>> game = get_game("speed")
>>> game.realtime, game.presets, game.seats()
(True, ('speed',), 2)
>>> state = game.new(seed=2)
>>> state.to_act(), state.now
((0, 1), 0)
>>> events = state.advance(500)
>>> state.now, state.plies
(500, 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spite.errors import MalformedRecordError
from spite.games import Game, GameState, Record
from spite.spit import AnyState, Event, new_game
from spite.spit.options import GAME_OF_PRESET, PRESETS, SpitOptions
from spite.spit.record import SpitReplay, record_from_state, replay_spit, whole_table
from spite.spit.views import SpeedView, SpitView

__all__ = ["SPEED", "SPIT", "RealtimeGame", "RealtimeGameState"]


class RealtimeGameState(GameState):
    """A Spit or Speed engine state, and how many moves were applied to it."""

    __slots__ = ("_game", "_plies", "_state")

    def __init__(self, game: RealtimeGame, state: AnyState, plies: int = 0) -> None:
        self._game = game
        self._state = state
        self._plies = plies

    @property
    def game(self) -> RealtimeGame:
        return self._game

    @property
    def engine(self) -> AnyState:
        return self._state

    @property
    def seats(self) -> int:
        return 2

    @property
    def now(self) -> int:
        return self._state.now

    @property
    def plies(self) -> int:
        """Moves made, automatic ones (spit calls, slaps the engine made for a seat) included: the
        move entries of the record."""
        return self._plies

    @property
    def result(self) -> dict[str, Any] | None:
        return self._state.result

    @property
    def is_over(self) -> bool:
        return self._state.finished

    def to_act(self) -> tuple[int, ...]:
        return () if self._state.finished else (0, 1)

    def legal_moves(self, seat: int) -> list[str]:
        return self._state.legal_moves(seat)

    def apply(self, seat: int, move: str, t_ms: int = 0) -> list[Event]:
        events = self._state.apply(seat, move, t_ms)
        self._plies += sum(1 for e in events if e.kind == "move")
        return events

    def advance(self, t_ms: int) -> list[Event]:
        events = self._state.advance(t_ms)
        if events:
            self._plies += sum(1 for e in events if e.kind == "move")
        return events

    def next_event_time(self) -> int | None:
        return self._state.next_event_time()

    def view(self, seat: int | None) -> SpitView | SpeedView:
        if seat is not None and seat not in (0, 1):
            raise ValueError(f"there is no seat {seat} (seats 0 and 1)")
        return self._state.view(seat)

    def face_down_view(self) -> dict[str, Any]:
        out = self._state.view(None).to_json()
        out["centers"] = [{"top": None, "cards": c["cards"]} for c in out["centers"]]
        for player in out["players"]:
            if "tableau" in player:
                player["tableau"] = [{"top": None, "cards": t["cards"]} for t in player["tableau"]]
        out["stuck"] = False
        return out

    @property
    def turns(self) -> int:
        return int(getattr(self._state, "round", 1))

    def show(self) -> dict[str, Any]:
        # every card: the spectator's view shows no face-down tableau or spit card (nor Speed's hands)
        return whole_table(self._state)

    def to_record(self) -> Record:
        return record_from_state(self._state)

    def copy(self) -> RealtimeGameState:
        return RealtimeGameState(self._game, self._state.copy(), self._plies)

    def __repr__(self) -> str:
        return f"<RealtimeGameState {self._state.preset} t={self._state.now} result={self._state.result}>"


class RealtimeGame(Game):
    """Spit, or Speed: the presets of :data:`spite.spit.PRESETS` that belong to the game."""

    __slots__ = ("default_preset", "name", "presets")

    realtime = True

    def __init__(self, name: str) -> None:
        self.name = name
        self.default_preset = name
        self.presets = tuple(p for p in PRESETS if GAME_OF_PRESET[p] == name)

    def seats(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> int:
        SpitOptions.from_preset(preset, options, game=self.name)  # refuses what is not a game of this
        return 2

    def new(self, preset: str | None = None, options: Mapping[str, Any] | None = None, *,
            seed: int | str | None = None, deal: dict[str, Any] | None = None) -> RealtimeGameState:
        state = new_game(self.name, preset, dict(options) if options is not None else None,
                         seed=0 if seed is None and deal is None else seed, deal=deal)
        return RealtimeGameState(self, state)

    def from_record(self, record: Record) -> RealtimeGameState:
        replayed = self.replay(record)
        plies = sum(1 for entry in record.moves if isinstance(entry, dict) and "p" in entry)
        return RealtimeGameState(self, replayed.state, plies)

    def replay(self, record: Record) -> SpitReplay:
        if record.game != self.name:
            raise MalformedRecordError(f"a {record.game} record is no {self.name} game")
        return replay_spit(record)


SPIT = RealtimeGame("spit")
"""The registered ``spit`` game."""
SPEED = RealtimeGame("speed")
"""The registered ``speed`` game."""
