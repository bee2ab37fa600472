"""Spite and Malice behind the common game interface (:mod:`spite.games`), registered as
``spite-malice``.

A turn game: one seat acts at a time, and times are ignored. The adapter adds no rule; it hands
every call to :class:`~spite.malice.State` and turns what :meth:`State.play` reports into events
that name no hidden card (a draw says how many cards, not which).

>>> from spite.games import get_game
>>> game = get_game("spite-malice")
>>> game.realtime, game.seats("partners"), game.seats("classic", {"players": 3})
(False, 4, 3)
>>> state = game.new("short", seed=7)
>>> seat, = state.to_act()
>>> events = state.apply(seat, state.legal_moves(seat)[-1])
>>> events[0].kind, events[0].seat == seat
('move', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spite.cards import format_cards
from spite.errors import DealError, MalformedRecordError, refusal
from spite.games import Game, GameState, Record, TurnEvent
from spite.malice.options import PRESETS, Options
from spite.malice.record import MaliceReplay, record_from_state, replay_malice, state_from_record
from spite.malice.state import State
from spite.malice.view import SeatView

__all__ = ["GAME", "MaliceGame", "MaliceGameState"]


class MaliceGameState(GameState):
    """A :class:`~spite.malice.State` with the preset it was made from (for its record)."""

    __slots__ = ("_preset", "_state")

    def __init__(self, state: State, preset: str) -> None:
        self._state = state
        self._preset = preset

    @property
    def game(self) -> Game:
        return GAME

    @property
    def engine(self) -> State:
        return self._state

    @property
    def preset(self) -> str:
        """The preset the options are written against in the record."""
        return self._preset

    @property
    def seats(self) -> int:
        return self._state.players

    @property
    def now(self) -> int:
        return 0

    @property
    def plies(self) -> int:
        return self._state.plies

    @property
    def result(self) -> dict[str, Any] | None:
        res = self._state.result
        return None if res is None else res.to_json()

    @property
    def is_over(self) -> bool:
        return self._state.result is not None

    def to_act(self) -> tuple[int, ...]:
        state = self._state
        return () if state.result is not None else (state.to_move,)

    def legal_moves(self, seat: int) -> list[str]:
        state = self._state
        if state.result is not None or seat != state.to_move:
            return []
        return [m.text for m in state.legal_moves()]

    def apply(self, seat: int, move: str, t_ms: int = 0) -> list[TurnEvent]:
        state = self._state
        if state.result is None and seat != state.to_move:
            if not 0 <= seat < state.players:
                raise refusal(f"there is no seat {seat} (seats 0 to {state.players - 1})", "refuse.no-seat",
                              seat=seat, count=state.players)
            raise refusal(f"it is seat {state.to_move}'s turn, not seat {seat}'s", "refuse.not-your-turn",
                          mover=state.to_move, seat=seat)
        played = state.play(move)
        events = [TurnEvent(0, "move", seat, played.move.text)]
        if played.completed_pile is not None:
            pile, cards = played.completed_pile
            events.append(TurnEvent(0, "completed", None, f"B{pile + 1} {' '.join(format_cards(cards))}"))
        for cards in played.shuffles:
            events.append(TurnEvent(0, "shuffle", None, f"{len(cards)} cards"))
        if played.drawn_by is not None:
            events.append(TurnEvent(0, "draw", played.drawn_by, f"{len(played.drawn)} cards"))
        res = state.result
        if res is not None:
            events.append(TurnEvent(0, "game-over", res.winner, res.reason))
        return events

    def advance(self, t_ms: int) -> list[TurnEvent]:
        return []

    def view(self, seat: int | None) -> SeatView:
        if seat is not None and not 0 <= seat < self._state.players:
            raise ValueError(f"there is no seat {seat} (seats 0 to {self._state.players - 1})")
        return self._state.view(seat)

    def face_down_view(self) -> dict[str, Any]:
        view = self._state.view(None).to_json()
        for player in view["players"]:  # the face-up stock cards too come with the deal
            player["stock_top"] = []
        return view

    @property
    def turns(self) -> int:
        return self._state.turn

    def points(self, seat: int) -> int | None:
        res = self._state.result
        if res is None or res.winner is None:
            return None
        partners = self._state.opts.partnerships and res.team is not None
        won = seat % 2 == res.team if partners else seat == res.winner
        return (res.points or 0) if won else None

    def show(self) -> dict[str, Any]:
        return self._state.show_json(everything=True)

    def to_record(self) -> Record:
        return record_from_state(self._state, self._preset)

    def copy(self) -> MaliceGameState:
        return MaliceGameState(self._state.copy(), self._preset)

    def __repr__(self) -> str:
        return f"<MaliceGameState {self._preset} {self._state!r}>"


class MaliceGame(Game):
    """The Spite and Malice family: every preset of :data:`spite.malice.PRESETS`."""

    __slots__ = ()

    name = "spite-malice"
    realtime = False
    presets = tuple(PRESETS)
    default_preset = "classic"

    def seats(self, preset: str | None = None, options: Mapping[str, Any] | None = None) -> int:
        return Options.from_preset(preset or self.default_preset, options).players

    def new(self, preset: str | None = None, options: Mapping[str, Any] | None = None, *,
            seed: int | str | None = None, deal: dict[str, Any] | None = None) -> MaliceGameState:
        preset = preset or self.default_preset
        opts = Options.from_preset(preset, options)  # OptionsError before anything else
        if deal is None:
            return MaliceGameState(State.new(opts, 0 if seed is None else seed), preset)
        record = Record(game=self.name, preset=preset, options=dict(options or {}), seed=seed, deal=deal)
        try:
            _, state = state_from_record(record)
        except MalformedRecordError as exc:
            raise DealError(str(exc)) from None
        return MaliceGameState(state, preset)

    def dealt(self, preset: str | None, options: Mapping[str, Any] | None, seed: str, *,
              first: int | None = None) -> MaliceGameState:
        preset = preset or self.default_preset
        return MaliceGameState(State.new(Options.from_preset(preset, options), seed, first=first), preset)

    def starts_by_rule(self, preset: str | None, options: Mapping[str, Any] | None) -> bool:
        # a match (payoff scoring, as the match preset, or a match target named): its loser begins the next game
        preset = preset or self.default_preset
        opts = Options.from_preset(preset, options)
        return opts.scoring == "payoff" or "match_target" in (options or {})

    def from_record(self, record: Record) -> MaliceGameState:
        rep = self.replay(record)
        return MaliceGameState(rep.state, rep.preset)

    def replay(self, record: Record) -> MaliceReplay:
        if record.game != self.name:
            raise MalformedRecordError(f"a {record.game} record is no {self.name} game")
        return replay_malice(record)


GAME = MaliceGame()
"""The registered ``spite-malice`` game."""
