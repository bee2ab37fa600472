"""Pebbles: the fourth game's engine and its :class:`spite.games.Game` adapter (pure: no I/O, no clock,
no global random state).

Two players and a pile of pebbles. Each is dealt a hidden hand of cards worth 1, 2 or 3. In turn a
player lays one card whose worth is at most the pile's size and takes that many pebbles (``T2``: a 2
from the hand, two pebbles). Whoever takes the last pebble wins; a player to move with no card they
may lay loses (``stuck``). The hands are hidden: a seat's view shows its own hand and the other
hand's size only, so the table's views are what keeps them apart.

>>> state = GAME.new(seed=3)
>>> state.to_act(), state.legal_moves(1)
((0,), [])
>>> before = state.view(0).to_json()["pile"]
>>> [e.kind for e in state.apply(0, state.legal_moves(0)[0])]
['move']
>>> state.view(0).to_json()["pile"] < before, state.view(1).to_json()["players"][0].get("hand")
(True, None)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spite.errors import IllegalMoveError, MalformedRecordError, OptionsError, RecordMoveError
from spite.games import Event, Game, GameState, Record, TurnEvent

NAME = "pebbles"
"""The game's registered name: written nowhere under src/ (tests/fourth_game/test_fourth_game.py)."""

PRESETS: dict[str, dict[str, int]] = {"pebbles": {"pile": 15, "hand": 5}, "pebbles-quick": {"pile": 7, "hand": 3}}
"""Each preset's pile and hand size."""


@dataclass
class Pebbles:
    """The engine's state: the pile, both hands, whose turn, the moves so far and the result."""

    pile: int
    hands: list[list[int]]
    to_move: int = 0
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None

    def legal(self, seat: int) -> list[str]:
        if self.result is not None or seat != self.to_move:
            return []
        return [f"T{v}" for v in sorted(set(self.hands[seat])) if v <= self.pile]

    def play(self, seat: int, move: str) -> None:
        if self.result is not None:
            raise IllegalMoveError("the game is over")
        if seat != self.to_move:
            raise IllegalMoveError(f"it is seat {self.to_move + 1}'s turn")
        if move not in self.legal(seat):
            raise IllegalMoveError(f"{move} may not be played now (legal: {', '.join(self.legal(seat))})")
        value = int(move[1:])
        self.hands[seat].remove(value)
        self.pile -= value
        self.moves.append(move)
        if self.pile == 0:
            self.result = {"winner": seat, "reason": "last"}
            return
        self.to_move = 1 - seat
        if not self.legal(self.to_move):
            self.result = {"winner": seat, "reason": "stuck"}


class PebblesView:
    """What one seat (``None``: a spectator) may know: its own hand, the other's size."""

    def __init__(self, game: Pebbles, seat: int | None) -> None:
        self.game = game
        self.seat = seat

    def to_json(self) -> dict[str, Any]:
        g = self.game
        players = [{"handSize": len(hand), **({"hand": sorted(hand)} if n == self.seat else {})}
                   for n, hand in enumerate(g.hands)]
        return {"game": NAME, "seat": self.seat, "pile": g.pile, "toMove": g.to_move, "players": players,
                "played": list(g.moves), "finished": g.result is not None, "result": g.result}


class PebblesState(GameState):
    """One game of Pebbles behind the shared interface."""

    __slots__ = ("_deal", "_engine", "_game", "_options", "_preset", "_seed")

    def __init__(self, game: PebblesGame, preset: str, options: dict[str, Any], deal: dict[str, Any],
                 seed: int | str | None) -> None:
        self._game, self._preset, self._options, self._deal, self._seed = game, preset, options, deal, seed
        self._engine = Pebbles(deal["pile"], [list(h) for h in deal["hands"]])

    @property
    def game(self) -> Game:
        return self._game

    @property
    def engine(self) -> Pebbles:
        return self._engine

    @property
    def seats(self) -> int:
        return 2

    @property
    def now(self) -> int:
        return 0

    @property
    def plies(self) -> int:
        return len(self._engine.moves)

    @property
    def result(self) -> dict[str, Any] | None:
        return self._engine.result

    def to_act(self) -> tuple[int, ...]:
        return () if self._engine.result is not None else (self._engine.to_move,)

    def legal_moves(self, seat: int) -> list[str]:
        return self._engine.legal(seat)

    def apply(self, seat: int, move: str, t_ms: int = 0) -> Sequence[Event]:
        self._engine.play(seat, move)
        events: list[Event] = [TurnEvent(0, "move", seat, move)]
        if self._engine.result is not None:
            events.append(TurnEvent(0, "game-over", self._engine.result["winner"], self._engine.result["reason"]))
        return events

    def advance(self, t_ms: int) -> Sequence[Event]:
        return []

    def view(self, seat: int | None) -> PebblesView:
        return PebblesView(self._engine, seat)

    def face_down_view(self) -> dict[str, Any]:
        return PebblesView(self._engine, None).to_json()

    @property
    def turns(self) -> int:
        return len(self._engine.moves)

    def show(self) -> dict[str, Any]:
        out = PebblesView(self._engine, None).to_json()
        for n, hand in enumerate(self._engine.hands):
            out["players"][n]["hand"] = sorted(hand)
        return out

    def to_record(self) -> Record:
        return Record(game=NAME, preset=self._preset, options=dict(self._options), seed=self._seed,
                      deal={"pile": self._deal["pile"], "hands": [list(h) for h in self._deal["hands"]]},
                      moves=list(self._engine.moves), result=self._engine.result)

    def copy(self) -> PebblesState:
        other = PebblesState(self._game, self._preset, self._options, self._deal, self._seed)
        for n, move in enumerate(self._engine.moves):
            other._engine.play(n % 2, move)
        return other


class PebblesGame(Game):
    """The registered game (``pebbles``): two seats, turn by turn."""

    name = NAME
    realtime = False
    presets = tuple(PRESETS)
    default_preset = "pebbles"

    def _setting(self, preset: str | None, options: Mapping[str, Any] | None) -> tuple[str, dict[str, int]]:
        preset = preset or self.default_preset
        if preset not in PRESETS:
            raise OptionsError(f"unknown preset {preset!r} (one of {', '.join(PRESETS)})")
        setting = dict(PRESETS[preset])
        for key, value in (options or {}).items():
            if key not in setting or not isinstance(value, int) or not 1 <= value <= 40:
                raise OptionsError(f"unknown option or value {key}={value!r}")
            setting[key] = value
        return preset, setting

    def seats(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> int:
        self._setting(preset, options)
        return 2

    def new(self, preset: str | None = None, options: Mapping[str, Any] | None = None, *,
            seed: int | str | None = None, deal: dict[str, Any] | None = None) -> PebblesState:
        preset, setting = self._setting(preset, options)
        if deal is None:
            rng = random.Random(f"{NAME}:{seed}")  # its own generator: the seed alone decides the deal
            deal = {"pile": setting["pile"],
                    "hands": [[rng.randint(1, 3) for _ in range(setting["hand"])] for _ in range(2)]}
        if not (isinstance(deal, dict) and isinstance(deal.get("pile"), int) and isinstance(deal.get("hands"), list)
                and len(deal["hands"]) == 2):
            raise MalformedRecordError("a pebbles deal is {pile, hands: [[...], [...]]}")
        return PebblesState(self, preset, dict(options or {}), deal, seed)

    def from_record(self, record: Record) -> PebblesState:
        state = self.new(record.preset, record.options, seed=record.seed, deal=record.deal)
        for n, move in enumerate(record.moves):
            if not isinstance(move, str):
                raise MalformedRecordError(f"entry {n + 1} is not a move: {move!r}")
            try:
                state.apply(state.engine.to_move, move)
            except IllegalMoveError as exc:
                raise RecordMoveError(n, move, f"move {n + 1} ({move}): {exc}") from None
        return state

    def replay(self, record: Record) -> Any:
        return self.from_record(record)


GAME = PebblesGame()
"""The game object the registry entry names (``fourth_game.game:GAME``)."""
