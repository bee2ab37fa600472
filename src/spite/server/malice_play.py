"""Spite and Malice at a server table: what the game adds to the table host (:mod:`spite.server.host`).

Registered as the ``server`` hook of ``spite-malice`` (:data:`SERVER`). A turn game: a move is tried
only in the position it was chosen in (``stale`` otherwise), one seat moves at a time, and
``stateVersion`` rises by one per move. The bots think off the event loop (:mod:`spite.server.bots`),
seeing only their seat's view.

Undo (``undo``): a person takes back their seat's last move while it is a build play of this turn
that showed no hidden card (the terminal app's rule): not a stock play (the next stock card shows),
not a play that refilled the hand, not a discard or pass (the turn ended); a bot's move never. The
limit is :attr:`MalicePlay.undo_floor`, the ply after the last move that may not be taken back. The
undone move's row is deleted and ``version_base`` grows by 2 in one commit, so ``stateVersion``
still rises by one.

Match tables (the ``match`` preset, payoff scoring, or an explicit ``match_target``) play games
with :class:`~spite.malice.Match` until a side reaches the target; each game is stored as its own
record. Between two games the finished one stays on show until every person seat sent ``next`` (bots
are always ready) or ``next_game_seconds`` pass; then the next game is dealt (the loser begins) at
one past the last version of the game before.

Hints (``hint``): what the hint bot would play, thought out in a worker from the asking seat's view.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

from spite.errors import Phrase
from spite.games import Event, GameState, Record
from spite.malice import Match, Options, Result, State
from spite.malice.game import MaliceGameState
from spite.malice.record import positions
from spite.server.config import BOT_LEVELS
from spite.server.host import Conn, Ending, LobbyError, Opening, ServerGame, Table, TablePlay
from spite.server.protocol import Ack, HintMessage, LastMove, MatchInfo, Words
from spite.server.store import Store, StoredTable

__all__ = ["SERVER", "MalicePlay", "MaliceServer", "match_from_json", "match_json", "undo_floor_of", "wants_match"]

log = logging.getLogger("spite.server.table")


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


def _engine(state: GameState) -> State:
    engine: State = state.engine  # a Spite and Malice table's game: the family's own engine state
    return engine


class MaliceServer(ServerGame):
    """Opens and restores Spite and Malice tables (a match's first game when the options ask for one)."""

    title = "Spite and Malice"
    levels = BOT_LEVELS
    page = "table"
    rules = "spite-malice"
    lobby_options = ("stock_size",)

    def check_bot(self, game: str, level: str | None) -> None:
        if level not in BOT_LEVELS:
            raise LobbyError(f"a bot seat needs a level ({', '.join(BOT_LEVELS)})", 400, "lobby.bot-level",
                             levels=", ".join(BOT_LEVELS))

    def open(self, game: str, preset: str, options: dict[str, Any], seed: int | str) -> Opening:
        opts = Options.from_preset(preset, options)
        overrides = opts.overrides_from(preset)
        if not wants_match(opts, overrides):
            return super().open(game, preset, options, seed)
        match = Match(opts, seed)
        state = match.start_game(seed)  # the table's seed is the first game's (a fair table's, docs/fairness.md)
        leading = [entry for entry in state.record_moves() if isinstance(entry, dict)]
        # the game's own seed goes with its start (the table's is the match's)
        start = {"deal": state.deal_json(), "leading": leading, "seed": state.seed}
        columns = {"match": json.dumps(match_json(match, []))}
        return Opening(MaliceGameState(state, preset), preset, overrides, start, columns, entries=len(leading),
                       extra=(match, []))

    def deal(self, table: Table, seed: str) -> Opening:
        match: Match | None = getattr(table.play, "match", None)  # the table's MalicePlay (see play())
        if match is None:
            return super().deal(table, seed)
        assert table.fair is not None
        # the rules say who begins a match's later games, not the seed: bound by the commitment
        state = State.new(match.opts, seed, first=table.fair.first)
        leading = [entry for entry in state.record_moves() if isinstance(entry, dict)]
        start = {"deal": state.deal_json(), "leading": leading, "seed": seed}
        return Opening(MaliceGameState(state, table.preset), table.preset, table.options, start,
                       entries=len(leading))

    def restored_version(self, st: StoredTable, state: GameState) -> int:
        return st.version_base + state.plies

    def restored_extra(self, st: StoredTable, state: GameState) -> Any:
        return None if st.match is None else match_from_json(_engine(state).opts, st.seed, st.match)

    def play(self, table: Table, extra: Any) -> MalicePlay:
        match, game_ids = extra if extra is not None else (None, [])
        return MalicePlay(table, match, game_ids)

    def positions(self, record: Record) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        return positions(record)


SERVER = MaliceServer()
"""The ``server`` hook of ``spite-malice``."""


class MalicePlay(TablePlay):
    """Spite and Malice at one table: the bots, undo, hints and match play (see the module's text)."""

    def __init__(self, table: Table, match: Match | None, game_ids: list[int]) -> None:
        super().__init__(table)
        self.undo_floor = undo_floor_of(self.engine)
        """No move at or below this ply may be taken back."""
        self.match = match
        self.game_ids: list[int] = list(game_ids)
        """A match table: the ids of its finished games, in order."""
        if match is not None and self.game_ids and self.engine.result is not None:
            table.game_id = self.game_ids[-1]  # restored between two games
        self.ready: set[int] = set()
        """Between two games of a match: the seats that sent ``next``."""
        self._bot_task: asyncio.Task[None] | None = None
        self._next_tasks: set[asyncio.Task[None]] = set()
        self._next_at: float | None = None

    @property
    def engine(self) -> State:
        """The engine state of the game in play."""
        return _engine(self.table.state)

    # ------------------------------------------------------------------ what clients see
    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        view = self.engine.view(seat)  # the view's own legal moves: computed once
        return view.to_json(), [m.text for m in view.legal_moves]

    def move_log(self) -> list[dict[str, Any]]:
        # the moves that stood (an undone one is gone), as their `last` named them; draws and
        # shuffles are no moves
        return [{"seat": played.seat, "move": played.move.text} for played in self.engine.history]

    def undealt_view(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        view = self.engine.view(None).to_json()
        for player in view["players"]:  # the face-up stock cards too come with the deal
            player["stock_top"] = []
        return view, []

    def fields(self, seat: int | None) -> dict[str, Any]:
        return {"canUndo": self.can_undo(seat), "match": self.match_info()}

    def shared_fields(self, events: Sequence[Event]) -> dict[str, Any]:
        info = self.match_info()
        return {} if info is None else {"match": info.model_dump()}

    def seat_fields(self, seat: int | None) -> dict[str, Any]:
        return {"canUndo": self.can_undo(seat)}

    def score_fields(self) -> dict[str, Any]:
        return {"match": self.match_info()}

    def can_undo(self, seat: int | None) -> bool:
        """Whether ``seat`` may take back its last move now (its turn, a person plays it, and a move of
        this turn that showed nothing hidden is there to take back)."""
        table, state = self.table, self.engine
        return (seat is not None and table.status == "playing" and state.result is None and state.to_move == seat
                and table.seats[seat].controller == "person" and state.plies > self.undo_floor)

    def between_games(self) -> bool:
        return (self.match is not None and self.table.status == "playing" and self.engine.result is not None
                and not self.match.is_over)

    def match_info(self) -> MatchInfo | None:
        """The score of a match table (``None`` for a table of one game)."""
        match = self.match
        if match is None:
            return None
        between = self.between_games()
        game = len(match.results) + (0 if self.engine.result is not None else 1)
        ready: list[int] = []
        next_in = None
        if between:
            ready = [s.seat for s in self.table.seats if s.seat in self.ready or s.controller == "bot"]
            if self._next_at is not None:
                next_in = round(max(0.0, self._next_at - time.monotonic()), 1)
        return MatchInfo(scores=list(match.scores), target=match.target, game=max(game, 1), over=match.is_over,
                         winner=match.winner, betweenGames=between, ready=ready, nextIn=next_in)

    # ------------------------------------------------------------------ moves
    def checkpoint(self) -> Callable[[], None]:
        engine = self.engine
        plies = engine.plies

        def back() -> None:  # the engine's own undo: cheaper than a copy of the game so far
            while engine.plies > plies:
                engine.undo()

        return back

    def entries(self, events: Sequence[Event]) -> tuple[list[Any], int]:
        return self.engine.history[-1].record_entries(), 1

    def stored(self, seat: int | None, by_bot: bool) -> None:
        engine = self.engine
        if by_bot or engine.result is not None or engine.history[-1].reveals:
            self.undo_floor = engine.plies

    def seat_changed(self) -> None:
        # nothing played so far is the new player's to take back
        self.undo_floor = self.engine.plies

    def dealt(self) -> None:
        self.undo_floor = 0

    def ending(self) -> Ending:
        match = self.match
        if match is None:
            return Ending()
        after = Match(match.opts, match.seed, scores=list(match.scores), results=list(match.results),
                      starters=list(match.starters))
        after.finish_game(self.engine)  # on a copy: the match itself changes once the game is stored
        data = match_json(after, self.game_ids)
        table_id = self.table.id

        def write(c: Any, game_id: int) -> None:
            Store.update_table(table_id, match=json.dumps({**data, "gameIds": [*data["gameIds"], game_id]}))(c)

        def stored(game_id: int) -> None:
            self.match = after
            self.game_ids.append(game_id)

        return Ending(final=after.is_over, write=write, stored=stored)

    def next_first(self) -> int | None:
        return self.match.next_starter() if self.match is not None else None

    def turns(self) -> int:
        return self.engine.turn

    def won(self, result: dict[str, Any], seat: int) -> int | None:
        winner, team = result.get("winner"), result.get("team")
        partners = self.engine.opts.partnerships
        won = winner is not None and (seat % 2 == team if partners and team is not None else seat == winner)
        return (result.get("points") or 0) if won else None

    # ------------------------------------------------------------------ undo and hints
    async def undo(self, conn: Conn, version: int, msg_id: str | None) -> None:
        """``undo`` from a seat's connection: take back its last move if the rules allow (the module's text)."""
        table = self.table
        if conn.seat is None:
            conn.error("not-your-seat", "spectators cannot undo", msg_id=msg_id, version=table.version,
                       phrase=Phrase("error.not-your-seat.spectator"))
            return
        async with table.lock:
            if table.refuse_move(conn, msg_id):
                return
            to_move = self.engine.to_move
            if version != table.version:
                conn.error("stale", f"the position has changed (now version {table.version}, your undo was for "
                           f"{version}); sync and choose again", msg_id=msg_id, version=table.version)
            elif to_move != conn.seat:
                conn.error("not-your-turn", f"it is seat {to_move}'s turn: only the seat to move may take "
                           "back its own last move", msg_id=msg_id, version=table.version,
                           phrase=Phrase("error.not-your-turn.seat", {"seat": to_move}))
            elif not self.can_undo(conn.seat):
                conn.error("nothing-to-undo", "nothing to undo: only build plays of this turn, until a hidden card "
                           "shows (a stock play, a refilled hand)", msg_id=msg_id, version=table.version,
                           phrase=Phrase("refuse.nothing-to-undo"))
            else:
                await self._undo(conn.seat, conn, msg_id)

    async def _undo(self, seat: int, conn: Conn, msg_id: str | None) -> None:
        """Take back the last move (the lock is held): its row is deleted and ``version_base`` raised in
        one commit, then the mover gets ``ack`` (``undone``) and everyone the position before it."""
        table, engine = self.table, self.engine
        last = engine.history[-1]
        ply = engine.plies - 1
        text = last.move.text
        base = table.version_base + 2
        delete = Store.delete_moves(table.id, ply)
        bump = Store.update_table(table.id, version_base=base)

        try:
            await table.store.write(Store.together(delete, bump))
        except Exception as exc:
            log.error("table %s: the undo of %s could not be stored (%s)", table.id, text, exc)
            conn.error("storage", "the undo could not be saved; try again", msg_id=msg_id, version=table.version)
            return
        engine.undo()
        table.version_base = base
        table.version = base + engine.plies
        table.rows -= 1
        table.entries -= len(last.record_entries())
        log.info("table %s: seat %d took back %s", table.id, seat, text)
        conn.send(Ack(id=msg_id, move=text, stateVersion=table.version, undone=True))
        table.broadcast_state(LastMove(seat=seat, move=text, undone=True))

    async def hint(self, conn: Conn, msg_id: str | None) -> None:
        """``hint`` from a seat's connection: what the hint bot would play (thought out in a worker,
        from this seat's view only), answered to this connection alone."""
        table = self.table
        if conn.seat is None:
            conn.error("not-your-seat", "spectators get no hints", msg_id=msg_id, version=table.version,
                       phrase=Phrase("error.not-your-seat.spectator"))
            return
        async with table.lock:
            if table.refuse_move(conn, msg_id):
                return
            if self.engine.to_move != conn.seat:
                conn.error("not-your-turn", f"it is seat {self.engine.to_move}'s turn", msg_id=msg_id,
                           version=table.version,
                           phrase=Phrase("error.not-your-turn.seat", {"seat": self.engine.to_move}))
                return
            view = self.engine.view(conn.seat)
            version = table.version
        try:
            move, why, phrases = await table.services.bots.hint(table.id, table.config.hint_level, view,
                                                       f"{table.id}:hint:{version}")
        except Exception as exc:
            log.warning("table %s: no hint for seat %d (%s)", table.id, conn.seat, exc.__class__.__name__)
            conn.error("internal", "no hint this time: the bot did not answer", msg_id=msg_id, version=table.version,
                       phrase=Phrase("error.no-hint-answer"))
            return
        conn.send(HintMessage(move=move, why=why, stateVersion=version, id=msg_id,
                              whyWords=[Words(key=p.key, params=dict(p.params)) for p in phrases]))

    # ------------------------------------------------------------------ match play
    def game_between(self) -> None:
        """A game of a match ended and the match goes on: show it, then wait for ``next``."""
        assert self.engine.result is not None and self.match is not None
        log.info("table %s: game %d over: %s; match %s to %d", self.table.id, len(self.match.results),
                 self.engine.result.to_json(), "-".join(map(str, self.match.scores)), self.match.target)
        self.ready = set()
        self._next_at = None
        self.schedule()  # the pause before the next game
        self.table.broadcast(self.table.game_over())

    async def next_game(self, conn: Conn, msg_id: str | None) -> None:
        """``next``: a seat is ready for the match's next game; it begins when every person seat is."""
        table = self.table
        if conn.seat is None:
            conn.error("not-your-seat", "spectators do not start games", msg_id=msg_id, version=table.version,
                       phrase=Phrase("error.not-your-seat.spectator"))
            return
        async with table.lock:
            if not self.between_games():
                why = ("single" if self.match is None else
                       "match-over" if self.match.is_over or table.status != "playing" else "in-play")
                what = {"single": "this table plays a single game", "match-over": "the match is over",
                        "in-play": "a game is in play"}[why]
                conn.error("no-next-game", f"there is no next game to start: {what}", msg_id=msg_id,
                           version=table.version, phrase=Phrase(f"error.no-next-game.{why}"))
                return
            seat = table.seats[conn.seat]
            if seat.controller != "person" or conn not in seat.conns:
                conn.error("not-your-seat", "a bot plays this seat now", msg_id=msg_id, version=table.version,
                           phrase=Phrase("error.not-your-seat.bot"))
                return
            if seat.seat in self.ready:
                return
            self.ready.add(seat.seat)
            if self._everyone_ready():
                await self._next_game()
            else:
                table.tell("ready", seat.seat, f"{seat.player} is ready for the next game", name=seat.player or "",
                           seat=seat.seat)

    def _everyone_ready(self) -> bool:
        return all(s.controller != "person" or s.seat in self.ready for s in self.table.seats)

    def _schedule_next(self, delay: float | None = None) -> None:
        """Between games: the next game begins after the pause, or at once when everyone is ready (a
        timer already running is never cancelled from here: only under the lock, in :meth:`_next_game`)."""
        assert self.match is not None
        ready = self._everyone_ready()
        if delay is None:
            if self._next_tasks and not ready:
                return
            config = self.table.config
            people = any(s.controller == "person" for s in self.table.seats)
            delay = config.next_game_seconds if people and not ready else config.bot_delay
            self._next_at = time.monotonic() + delay
        task = asyncio.create_task(self._next_after(delay, len(self.match.results)),
                                   name=f"next-game-{self.table.id}")
        self._next_tasks.add(task)
        task.add_done_callback(self._next_tasks.discard)

    async def _next_after(self, delay: float, finished: int) -> None:
        """After ``delay``: the next game, if the table still waits after game ``finished``."""
        await asyncio.sleep(delay)
        async with self.table.lock:
            if self.match is None or len(self.match.results) != finished:
                return
            try:
                await self._next_game()
            except Exception:
                log.exception("table %s: the next game could not begin", self.table.id)

    async def _next_game(self) -> None:
        """Deal the match's next game (the lock is held): stored first (the finished game's moves go,
        the new start comes), then everyone gets the new position at the next ``stateVersion``."""
        if not self.between_games():
            return
        table = self.table
        match = self.match
        assert match is not None
        # as Match.start_game deals it (without touching the match: a failed commit leaves it as it was),
        # from the secret published when the game before ended and the nonces sent since (docs/fairness.md)
        fair = table.fair_next
        first = match.next_starter()  # the same seat the next game's commitment bound (next_first)
        seed: int | str = match.game_seed(len(match.results))
        if fair is not None:
            fair.dealt = True
            seed = fair.seed()
        state = State.new(match.opts, seed, first=first)
        leading = [entry for entry in state.record_moves() if isinstance(entry, dict)]
        start: dict[str, Any] = {"deal": state.deal_json(), "leading": leading, "seed": state.seed}
        if fair is not None:
            start["fair"] = fair.stored()
        base = table.version + 1
        forget = Store.delete_moves(table.id)
        begin = Store.update_table(table.id, start=json.dumps(start), version_base=base, plies=0)

        try:
            await table.store.write(Store.together(forget, begin))
        except Exception as exc:
            if fair is not None:
                fair.dealt = False
            log.error("table %s: the next game could not be stored (%s); trying again", table.id, exc)
            self._next_at = time.monotonic() + 2.0
            self._schedule_next(2.0)
            return
        me = asyncio.current_task()
        for task in list(self._next_tasks):  # other timers sleep or wait for the lock: safe to stop
            if task is not me:
                task.cancel()
        self._next_at = None
        if fair is not None:
            table.fair, table.fair_next = fair, None
        table.state = MaliceGameState(state, table.preset)
        table.version_base = base
        table.version = base
        table.rows = 0
        table.entries = len(leading)
        table.game_id = None
        self.undo_floor = 0
        self.ready = set()
        game = len(match.results) + 1
        starter = table.seats[state.to_move]
        log.info("table %s: game %d of the match begins (seat %d first)", table.id, game, state.to_move)
        table.tell("next-game", state.to_move, f"game {game} of the match begins: "
                   f"{starter.player or starter.player_name()} (seat {state.to_move}) plays first",
                   game=game, name=starter.player or starter.player_name(), seat=state.to_move)
        table.broadcast_state(None)
        self.schedule()

    # ------------------------------------------------------------------ bots
    def schedule(self) -> None:
        """Start the bot loop if a bot is to move and none is thinking (between a match's games: the
        pause before the next one)."""
        if self.between_games():
            self._schedule_next()
            return
        table, engine = self.table, self.engine
        if table.status != "playing" or engine.result is not None:
            return
        if table.seats[engine.to_move].controller != "bot":
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.create_task(self._bot_loop(), name=f"bots-{table.id}")

    def after_move(self) -> None:
        self.schedule()

    def tasks(self) -> list[asyncio.Task[Any]]:
        return [t for t in (self._bot_task, *self._next_tasks) if t is not None]

    async def _bot_loop(self) -> None:
        """Play bot moves while a bot is to move (each decision off the event loop)."""
        try:
            await self._bot_moves()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: the bot loop failed", self.table.id)

    async def _bot_moves(self) -> None:
        table = self.table
        config = table.config
        while True:
            async with table.lock:
                if table.status != "playing" or self.engine.result is not None:
                    return
                seat = table.seats[self.engine.to_move]
                if seat.controller != "bot":
                    return
                version = table.version
                view = self.engine.view(seat.seat)
                level = seat.level or config.replacement_level
            if config.bot_delay > 0:
                await asyncio.sleep(config.bot_delay)
            text, _fallback = await table.services.bots.decide(table.id, level, view, f"{table.id}:{version}")
            async with table.lock:
                if table.version != version or table.seats[seat.seat].controller != "bot" or table.status != "playing":
                    continue
                outcome, reason = await table.apply(seat.seat, text, by_bot=True)
                if outcome == "refused":
                    log.error("table %s: the bot at seat %d chose an illegal move %r: %s", table.id, seat.seat, text,
                              reason)
                    # never loop on a broken bot: the first legal move keeps the game going
                    first = table.state.legal_moves(seat.seat)[0]
                    outcome, _ = await table.apply(seat.seat, first, by_bot=True)
            if outcome == "storage":
                await asyncio.sleep(1.0)  # the database is in trouble: do not hammer it
