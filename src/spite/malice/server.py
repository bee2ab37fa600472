"""Spite and Malice at a server table: what the game adds to the table's core
(:mod:`spite.server.table.core`).

Registered as the ``server`` hook of ``spite-malice`` (:data:`SERVER`). A turn game: a move is tried
only in the position it was chosen in (``stale`` otherwise), one seat moves at a time, and
``stateVersion`` rises by one per move. The bots think off the event loop (the core asks for them
with a ``Think`` effect), seeing only their seat's view.

Undo (``undo``): a person takes back their seat's last move while it is a build play of this turn
that showed no hidden card (the terminal app's rule): not a stock play (the next stock card shows),
not a play that refilled the hand, not a discard or pass (the turn ended); a bot's move never. The
limit is :attr:`MalicePlay.undo_floor`, the ply after the last move that may not be taken back.

Match tables (the ``match`` preset, payoff scoring, or an explicit ``match_target``) play games
with :class:`~spite.malice.Match` until a side reaches the target; each game is stored as its own
record. Between two games the core waits for every person seat's ``next`` (or the pause), then
begins the next game; the match goes on in it (:attr:`MalicePlay.carried`), the loser beginning (the
seat the next game's commitment bound). A rematch starts a new match.

Hints (``hint``): what the hint bot would play, thought out in a worker from the asking seat's view.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from spite.bots import LEVELS, make_bot
from spite.cards import format_card, format_cards
from spite.errors import Phrase
from spite.games import Event, GameState, Record, get_game
from spite.malice import BUILD, HAND, Match, Options, Result, SeatView, State
from spite.malice.moves import parse_move
from spite.malice.record import positions
from spite.malice.state import COMPLETE, Played
from spite.server.config import BOT_LEVELS
from spite.server.table.play import (
    Change,
    Ending,
    Listing,
    Opening,
    ServerGame,
    Table,
    TablePlay,
    restored,
    stored_record,
)
from spite.server.table.seats import LobbyError

if TYPE_CHECKING:
    from spite.server.table.effects import StoredTable

__all__ = [
    "BOTS",
    "SERVER",
    "MaliceBots",
    "MalicePlay",
    "MaliceServer",
    "MatchInfo",
    "bot_spec",
    "match_from_json",
    "match_json",
    "pack_view",
    "told_of",
    "undo_floor_of",
    "unpack_view",
    "wants_match",
]

_FIELDS = (
    "opts", "seat", "to_move", "turn", "result", "hand", "hand_sizes", "stock_sizes", "stock_tops", "builds",
    "discards", "draw_size", "set_aside_size", "played_this_turn", "idle_turns",
)


def pack_view(view: SeatView) -> tuple[dict[str, Any], list[str]]:
    """A seat's view as picklable fields and legal move texts, for a bot worker (a SeatView refuses
    attribute writes)."""
    return {name: getattr(view, name) for name in _FIELDS}, [m.text for m in view.legal_moves]


def unpack_view(packed: tuple[dict[str, Any], list[str]]) -> SeatView:
    """The seat's view back from :func:`pack_view`."""
    fields, legal = packed
    skipbo = fields["opts"].skipbo
    return SeatView(**fields, moves=tuple(parse_move(t, skipbo=skipbo) for t in legal))


def bot_spec(level: str, budget: float) -> str:
    """The bot spec of a level, with search budgets capped at ``budget`` seconds."""
    if level == "random":
        return "random"
    spec = LEVELS.get(level, level)
    name, _, arg = spec.partition(":")
    if name == "search":
        # the seconds are the setting without "=" (search:1.0,blend=700); the other settings stay
        settings = [part.strip() for part in arg.split(",") if part.strip()]
        seconds = 1.0
        for part in settings:
            if "=" not in part:
                with contextlib.suppress(ValueError):
                    seconds = float(part)
        rest = [part for part in settings if "=" in part and not part.startswith("iters=")]
        return ",".join([f"search:{min(seconds, budget):g}", *rest])
    return spec


class MaliceBots:
    """The Spite and Malice bots as the server's bot workers run them (a
    :class:`spite.server.bots.Thinker`): each sees only its seat's view (:func:`pack_view`)."""

    def spec(self, level: str, budget: float) -> str:
        return bot_spec(level, budget)

    def make(self, spec: str) -> Any:
        return make_bot(spec)

    def decide(self, bot: Any, view: Any, rng: random.Random, first: bool) -> tuple[str, str, list[Phrase]]:
        seen = unpack_view(view)
        if first:
            assert seen.seat is not None
            bot.start_game(seen.opts, seen.seat)
        decision = bot.decide(seen, rng, None)
        return decision.move.text, decision.why, list(decision.why_phrases)


BOTS = MaliceBots()
"""The thinking bots of ``spite-malice`` tables (:attr:`~spite.server.table.play.Listing.bots`)."""


NOTHING_TO_UNDO = Phrase("refuse.nothing-to-undo")
"""Why a seat may take back no move now: only build plays of its turn, until a hidden card shows."""


def undo_floor_of(state: State) -> int:
    """The ply after the last move that may not be taken back (see the module's text); the whole game
    once it is over. Used after a restart, when it is not known which moves a bot made: a move of the
    seat's own turn is taken for the seat's."""
    if state.result is not None:
        return state.plies
    history = state.history
    for ply in range(len(history) - 1, -1, -1):
        if history[ply].reveals:
            return ply + 1
    return 0


def told_of(state: State, played: Played, height: int, own: bool) -> dict[str, Any]:
    """What is told of ``played`` besides its notation (the ``last`` of its ``state`` and its
    ``moveLog`` step), to the seat that made it (``own``) or to the others, in the game's own part
    (``game``): the card it laid face up (``card``), the value a wild card was played as (``wildAs``:
    ``height``, the build pile's height with the card on it) and whether it completed its build pile.

    Nothing the audience may not see: a card from the stock or a discard pile lay face up before, and
    a hand card lies face up on the pile it went to, whichever card of its rank the move named. Only a
    hand card that completed its build pile (which left the table at once) is never in another seat's
    view: the others are told the move in its rank form and not the card (``move``), as they would be
    had the player named no card; its own seat is told all."""
    if played.card < 0:
        return {}
    move = played.move
    out: dict[str, Any] = {}
    game: dict[str, Any] = {}
    if move.kind == BUILD and move.source == HAND and played.completed is not None and not own:
        out["move"] = move.rank_form.text
    else:
        game["card"] = format_card(played.card)
    if move.kind == BUILD:
        if state.card_value(played.card) == 0:
            game["wildAs"] = height
        if played.completed is not None:
            game["completed"] = True
    if game:
        out["game"] = game
    return out


def wants_match(opts: Options, overrides: dict[str, Any]) -> bool:
    """A table plays a match when its games score (``scoring: payoff``, as the ``match`` preset) or
    its options name a ``match_target``."""
    return opts.scoring == "payoff" or "match_target" in overrides


def match_json(match: Match, game_ids: list[int]) -> dict[str, Any]:
    """What the database keeps of a match: its scores, who began and how each game ended, their ids."""
    return {"scores": list(match.scores), "starters": list(match.starters),
            "results": [r.to_json() for r in match.results], "gameIds": list(game_ids)}


def match_from_json(opts: Options, seed: int | str, data: dict[str, Any]) -> tuple[Match, list[int]]:
    """A match back from :func:`match_json` (and its games' ids)."""
    results = [Result(winner=r.get("winner"), reason=str(r.get("reason")), points=r.get("points"), team=r.get("team"))
               for r in data.get("results", [])]
    match = Match(opts, seed, scores=[int(x) for x in data["scores"]], results=results,
                  starters=[int(x) for x in data.get("starters", [])])
    return match, [int(x) for x in data.get("gameIds", [])]


class MatchInfo(BaseModel):
    """A match table (games until a side reaches ``target`` points; the loser begins the next game).

    Sides are seats, or the two teams (seat % 2) with partnerships. The ``match`` of this game's part
    of the messages (``game``): a match table's score, in every message that carries the part."""

    model_config = ConfigDict(extra="forbid")

    scores: list[int] = Field(description="Points per side so far (finished games only).")
    target: int = Field(description="Points that win the match.")
    game: int = Field(description="The number of the game in play (or just finished), from 1.")
    over: bool = Field(description="A side has reached the target: no game follows.")
    winner: int | None = Field(default=None, description="The side that won the match, once over.")
    betweenGames: bool = Field(default=False, description="The game is over and the next one has not begun: send next.")
    ready: list[int] = Field(default_factory=list,
                             description="Between games: the seats ready for the next one (bots always are).")
    nextIn: float | None = Field(default=None, description="Between games: seconds until the next game begins anyway.")


WEB = Path(__file__).resolve().parent / "web"
"""The family's page modules (the table, its replay board and styles, its rules text)."""


def _engine(state: GameState) -> State:
    engine: State = state.engine  # a Spite and Malice table's game: the family's own engine state
    return engine


class MaliceServer(ServerGame):
    """Deals and restores Spite and Malice tables (a match when the options ask for one)."""

    listing = Listing(
        title="Spite and Malice", levels=BOT_LEVELS, web=WEB, page="table.js", rules="spite-malice",
        quick_preset="short", options=("stock_size",),
        bots="spite.malice.server:BOTS", matches=True,
        # the other player's stock and hand, the build piles from an ace up, your stock and hand
        pictures={"spite-malice": (("9C", "#", "#", "#"), ("AH", "2S", "3D", ""), ("7H", "4C", "X", "10D", "5S"))})

    def check_bot(self, game: str, level: str | None) -> None:
        if level not in BOT_LEVELS:
            raise LobbyError(f"a bot seat needs a level ({', '.join(BOT_LEVELS)})", 400, "lobby.bot-level",
                             levels=", ".join(BOT_LEVELS))

    def open(self, game: str, preset: str, options: dict[str, Any], seed: str, first: int | None = None,
             carried: Any = None) -> Opening:
        # a match's game is dealt as Match.start_game deals it: from its own seed (the fair deal's), the
        # seat the commitment bound beginning
        opening = super().open(game, preset, options, seed, first, carried)
        opts = _engine(opening.state).opts
        if carried is None and wants_match(opts, opts.overrides_from(preset)):  # a new match (a rematch: another)
            match = Match(opts, seed)
            opening.extra = (match, [])
            opening.columns = {"game_data": json.dumps(match_json(match, []))}
        return opening

    def restore(self, st: StoredTable) -> Opening:
        state = get_game(st.game).from_record(stored_record(st))
        return restored(st, state, extra=None if st.game_data is None else
                        match_from_json(_engine(state).opts, st.seed, st.game_data))

    def play(self, table: Table, extra: Any) -> MalicePlay:
        match, game_ids = extra if extra is not None else (None, [])
        return MalicePlay(table, match, game_ids)

    def positions(self, record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return positions(record)


SERVER = MaliceServer()
"""The ``server`` hook of ``spite-malice``."""


class MalicePlay(TablePlay):
    """Spite and Malice at one table: undo, hints and match play (see the module's text)."""


    def __init__(self, table: Table, match: Match | None, game_ids: list[int]) -> None:
        super().__init__(table)
        self.undo_floor = undo_floor_of(self.engine)
        """No move at or below this ply may be taken back."""
        self.match = match
        self.game_ids: list[int] = list(game_ids)
        """A match table: the ids of its finished games, in order."""
        if match is not None and self.game_ids and self.engine.result is not None:
            table.game_id = self.game_ids[-1]  # restored between two games
        self._controllers = self._who_plays()

    @property
    def carried(self) -> Any:
        return (self.match, self.game_ids) if self.match is not None else None

    @property
    def engine(self) -> State:
        """The engine state of the game in play."""
        return _engine(self.table.state)

    # ------------------------------------------------------------------ what clients see
    def _view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        view = self.engine.view(seat)  # the view's own legal moves: computed once
        return view.to_json(), [m.text for m in view.legal_moves]

    def views(self, seats: Sequence[int | None]) -> dict[int | None, tuple[dict[str, Any], list[str]]]:
        """Every seat sees the same table but its own hand (``SeatView.of``): the view of the seat to
        move is made (with its legal moves), and every other audience's is that view with the mover's
        hand taken out, its own put in and its seat named (a spectator: none). What they share by
        reference (the builds, the other players' entries) nobody changes afterwards."""
        engine = self.engine
        if len(seats) < 2 or engine.opts.partnerships:  # (a partner's view is its own: the plain way)
            return {seat: self._view(seat) for seat in seats}
        mover = engine.to_move
        seen = engine.view(mover)
        base = seen.to_json()
        out: dict[int | None, tuple[dict[str, Any], list[str]]] = {}
        if mover in seats:
            out[mover] = base, [m.text for m in seen.legal_moves]
        players = list(base["players"])
        players[mover] = {**players[mover], "hand": None}
        public = {key: value for key, value in base.items() if key not in ("players", "seat")}
        public["players"] = players
        for seat in seats:
            if seat == mover:
                continue
            if seat is None:
                out[None] = public, []
                continue
            own = list(players)
            own[seat] = {**players[seat], "hand": format_cards(engine.hands[seat])}
            out[seat] = {**public, "players": own, "seat": seat}, []
        return out

    def move_log(self, seat: int | None = None, newest: int | None = None) -> list[dict[str, Any]]:
        # the moves that stood (an undone one is gone), as their `last` told them to `seat`; draws and
        # shuffles are no moves. The value a wild card was played as is its build pile's height then:
        # the move just made reads it off the table, older ones follow the heights from the deal.
        engine = self.engine
        history = engine.history
        if newest == 1 and history:
            played = history[-1]
            height = 0
            if played.move.kind == BUILD:
                height = COMPLETE if played.completed is not None else len(engine.builds[played.move.target])
            return [{"seat": played.seat, "move": played.move.text,
                     **told_of(engine, played, height, played.seat == seat)}]
        first = 0 if newest is None else max(0, len(history) - newest)
        heights = [len(pile) for pile in engine.initial["builds"]]
        steps: list[dict[str, Any]] = []
        for k, played in enumerate(history):
            height = 0
            if played.move.kind == BUILD:
                target = played.move.target
                heights[target] += 1
                height = heights[target]
                if played.completed is not None:
                    heights[target] = 0
            if k >= first:
                steps.append({"seat": played.seat, "move": played.move.text,
                              **told_of(engine, played, height, played.seat == seat)})
        return steps

    def fields(self, seat: int | None, events: Sequence[Event] | None = None) -> dict[str, Any]:
        # whether the seat may take its last move back; a match table's score
        out: dict[str, Any] = {"canUndo": not isinstance(self.undoable(seat), Phrase)}
        info = self.match_info()
        if info is not None:
            out["match"] = info.model_dump()
        return out

    def match_game(self) -> int | None:
        if self.match is None:
            return None
        return max(1, len(self.match.results) + (0 if self.engine.result is not None else 1))

    def match_info(self) -> MatchInfo | None:
        """The score of a match table (``None`` for a table of one game)."""
        match, table = self.match, self.table
        if match is None:
            return None
        series = table.series
        between = series.between
        ready: list[int] = []
        next_in = None
        if between:
            ready = [s.seat for s in table.seats if s.seat in series.ready or s.controller == "bot"]
            if series.next_at is not None:
                next_in = round(max(0.0, series.next_at - table.now), 1)
        return MatchInfo(scores=list(match.scores), target=match.target, game=self.match_game() or 1,
                         over=match.is_over, winner=match.winner, betweenGames=between, ready=ready, nextIn=next_in)

    # ------------------------------------------------------------------ moves
    def entries(self, events: Sequence[Event]) -> list[Any]:
        return self.engine.history[-1].record_entries()

    def _who_plays(self) -> tuple[str, ...]:
        return tuple(s.controller for s in self.table.seats)

    def changed(self, stored: Change | None = None) -> None:
        engine = self.engine
        if stored is not None and (stored.by_bot or engine.result is not None or engine.history[-1].reveals):
            self.undo_floor = engine.plies  # a bot's move, or one that showed a hidden card, stands
        controllers = self._who_plays()
        if controllers != self._controllers:  # a bot took a seat over or its person came back: nothing played
            self._controllers = controllers   # so far is the new player's to take back
            self.undo_floor = self.engine.plies

    def bot_view(self, seat: int) -> tuple[dict[str, Any], list[str]]:
        return pack_view(self.engine.view(seat))

    # ------------------------------------------------------------------ undo and hints
    def undoable(self, seat: int | None) -> tuple[str, int] | Phrase:
        """The move ``seat`` may take back now, and its record entries: its turn, a person plays it, and
        a move of this turn that showed nothing hidden is there to take back; else the rule, in words."""
        table, state = self.table, self.engine
        if (seat is None or table.status != "playing" or state.result is not None or state.to_move != seat
                or not table.seats[seat].is_person or state.plies <= self.undo_floor):
            return NOTHING_TO_UNDO
        last = state.history[-1]
        return last.move.text, len(last.record_entries())

    def take_back(self) -> None:
        """Take the last move back (it is stored so already)."""
        self.engine.undo()

    # ------------------------------------------------------------------ match play
    def ending(self) -> Ending:
        match = self.match
        if match is None:
            return Ending()
        after = Match(match.opts, match.seed, scores=list(match.scores), results=list(match.results),
                      starters=list(match.starters))
        after.finish_game(self.engine)  # on a copy: the match itself changes once the game is stored

        def stored(game_id: int) -> None:
            self.match = after
            self.game_ids.append(game_id)

        return Ending(final=after.is_over, columns={"game_data": json.dumps(match_json(after, self.game_ids))},
                      ids_in=("game_data",), next_first=None if after.is_over else after.next_starter(), stored=stored)
