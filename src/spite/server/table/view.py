"""What a table shows (:class:`TableView`, a part of :class:`~spite.server.table.core.TableCore`): the
table as the lobby lists it, each seat's view and legal moves, and the messages that carry them.

What a connection receives is made here and only here: a seat's (or a spectator's) view from the
game (``GameState.view``), every card face down before the deal is made; the commitment of the fair
deal, its secret only once the game is over; the table's events with their catalogue words.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from spite.errors import Phrase
from spite.games import Event, GameState
from spite.server.protocol import (
    FairInfo,
    GameEvent,
    GameOver,
    LastMove,
    LoggedMove,
    RematchInfo,
    SeriesInfo,
    StateMessage,
    TableEvent,
    TableInfo,
    TableMessage,
    Welcome,
    Words,
    error_text,
)
from spite.server.table.effects import ConnId, Effect, Send
from spite.server.table.fair import FairDeal
from spite.server.table.seats import Seat

if TYPE_CHECKING:
    from spite.server.table.play import TablePlay

__all__ = ["MOVE_LOG_MAX", "TableView"]

MOVE_LOG_MAX = 200
"""The most entries of the game in play a ``welcome`` carries (its ``moveLog``): the newest ones."""

TOLD_KEPT = 1000
"""The most entries besides the game's own steps (events, moves taken back) a table keeps for the
``moveLog``: the newest ones (a connection that comes and goes for hours does not grow it for ever)."""


class TableView:
    """The table as its messages show it (the state is :class:`~spite.server.table.core.TableCore`'s)."""

    id: str
    game: str
    preset: str
    options: dict[str, Any]
    status: str
    version: int
    game_id: int | None
    rated: bool
    seats: list[Seat]
    spectators: set[ConnId]
    state: GameState
    play: TablePlay
    fair: FairDeal | None
    fair_next: FairDeal | None
    fair_cache: tuple[Any, FairDeal, dict[str, Any]] | None
    series: dict[str, Any]
    rematch_yes: set[int]
    rematch_no: set[int]
    between: bool
    ended: dict[str, Any] | None

    @property
    def game_ended(self) -> bool:
        """The game in play is over: by its rules, or lost by leaving (a rated table's forfeit)."""
        return self.state.is_over or self.ended is not None
    told: list[tuple[int, dict[str, Any], dict[str, Any] | None]]
    """What the table told everyone of the game in play besides its steps (:meth:`TablePlay.move_log`),
    oldest first, each after how many steps it came: its events, and each move taken back (the move
    as it was told, then the undo), with what its own seat was told of it when that was more. Kept in
    memory only: a restarted server's ``moveLog`` has the steps."""
    told_over: int
    """How many of :attr:`told` were told before the game in play ended (the rest go on to the next game)."""

    @property
    def is_dealt(self) -> bool:
        """The game in play is dealt from its final seed (always, at a table without a fair deal)."""
        return self.fair is None or self.fair.dealt

    def connections(self) -> list[ConnId]:
        """Every connection at this table."""
        out = list(self.spectators)
        for s in self.seats:
            out.extend(s.conns)
        return out

    def info(self) -> TableInfo:
        """The table as the lobby shows it."""
        return TableInfo(id=self.id, game=self.game, preset=self.preset, options=self.options,
                         status=self.status, seats=[s.info() for s in self.seats],  # type: ignore[arg-type]
                         stateVersion=self.version, link=f"/t/{self.id}", gameId=self.game_id,
                         series=self.series_info(), fair=self.fair_info(), rated=self.rated)

    def series_info(self) -> SeriesInfo | None:
        """The series score (``None`` before the first game has ended)."""
        if not self.series["games"]:
            return None
        return SeriesInfo(games=self.series["games"], wins=list(self.series["wins"]),
                          gameIds=list(self.series.get("gameIds", [])))

    def rematch_info(self) -> RematchInfo | None:
        """Who wants another game (``None`` unless the table is finished and has a person seat). A bot
        seat says yes at once; a person's seat a bot took over waits for its person to come back and
        answer (no new game starts in an absent person's name)."""
        if self.status != "finished" or not any(s.kind == "person" for s in self.seats):
            return None
        ready = [s.seat for s in self.seats if s.kind == "bot" or s.seat in self.rematch_yes]
        waiting = [s.seat for s in self.seats if s.seat not in ready and s.seat not in self.rematch_no]
        return RematchInfo(ready=ready, waiting=waiting, declined=sorted(self.rematch_no))

    def fair_info(self) -> FairInfo | None:
        """The ``fair`` field: the commitment; the secret and nonces once the game is over; after a
        game, the next game's commitment (``next``)."""
        fair = self.fair
        if fair is None:
            return None
        info = fair.info(revealed=fair.dealt and self.game_ended)
        if self.fair_next is not None:
            info.next = self.fair_next.commitment
        return info

    def _fair_dumped(self) -> dict[str, Any] | None:
        """:meth:`fair_info` as a ``state`` message carries it, made again only when it changes (a
        deal, a nonce, the game's end, the next game's commitment): not at every move."""
        fair = self.fair
        if fair is None:
            return None
        key = (id(fair), fair.dealt, len(fair.nonces), self.game_ended, id(self.fair_next))
        cached = self.fair_cache
        if cached is None or cached[0] != key or cached[1] is not fair:
            info = fair.info(revealed=fair.dealt and self.game_ended)
            if self.fair_next is not None:
                info.next = self.fair_next.commitment
            cached = self.fair_cache = (key, fair, info.model_dump())
        return cached[2]

    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The view JSON of ``seat`` (``None``: spectator) and its legal moves: all a client gets.
        Before the deal is made nobody sees a card of it."""
        if not self.is_dealt:
            return self.state.face_down_view(), []
        return self.play.view(seat)

    def state_message(self, seat: int | None, last: LastMove | None = None) -> StateMessage:
        """A ``state`` message for ``seat`` (the answer to ``sync``)."""
        view, legal = self.view_for(seat)
        return StateMessage(stateVersion=self.version, view=view, legal=legal, last=last, fair=self.fair_info(),
                            **self.play.fields(seat))

    def game_over(self) -> GameOver:
        """The ``gameOver`` message of the game just ended (by its rules, or lost by leaving)."""
        result = self.ended if self.ended is not None else self.state.result
        assert result is not None
        url = f"/api/games/{self.game_id}/record" if self.game_id is not None else None
        return GameOver(stateVersion=self.version, result=dict(result), gameId=self.game_id, recordUrl=url,
                        fair=self.fair_info(), series=self.series_info(), rematch=self.rematch_info(),
                        **self.play.score_fields())

    def move_log(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The game in play so far as ``seat`` (``None``: a spectator) was told it, in the order it was
        told: its steps (nothing before the deal), and the table's events and the moves taken back in
        their place."""
        steps = self.play.move_log(seat) if self.is_dealt else []
        out: list[dict[str, Any]] = []
        done = 0
        for after, entry, own in self.told:
            if after > done:
                out.extend(steps[done:after])
                done = max(done, min(after, len(steps)))
            out.append(own if own is not None and seat is not None and entry["seat"] == seat else entry)
        out.extend(steps[done:])
        return out

    def _steps_now(self) -> int:
        """How many steps of the game in play everyone has been told of."""
        return self.play.step_count() if self.is_dealt else 0

    def _keep_told(self, entry: dict[str, Any], own: dict[str, Any] | None = None) -> None:
        """``entry`` was told now (``own``: what the seat it names was told, when more): it goes after
        the steps told so far."""
        self.told.append((self._steps_now(), entry, own))
        if len(self.told) > TOLD_KEPT:
            dropped = len(self.told) - TOLD_KEPT
            del self.told[:dropped]
            self.told_over = max(0, self.told_over - dropped)

    def _keep_taken_back(self, seat: int, move: str, own: dict[str, Any], public: dict[str, Any]) -> None:
        """``seat`` took back ``move`` (its step is gone from the game's steps; ``own`` and ``public`` are
        :meth:`TablePlay.told` of it): the move as it was told goes where it stood, before whatever was
        told after it, and the undo after everything so far."""
        now = self._steps_now()
        at = next((k for k, (after, _, _) in enumerate(self.told) if after > now), len(self.told))
        self.told.insert(at, (now, {"seat": seat, "move": move, **public}, {"seat": seat, "move": move, **own}))
        # what was told after the move now comes after the step before it (the next step is a new move)
        self.told = [(min(after, now), entry, mine) for after, entry, mine in self.told]
        self._keep_told({"seat": seat, "move": move, "undone": True, **public},
                        {"seat": seat, "move": move, "undone": True, **own})

    # ------------------------------------------------------------------ sending
    def _send(self, conn: ConnId, msg: BaseModel | str) -> Send:
        return Send(conn, msg if isinstance(msg, str) else msg.model_dump_json())

    def _error(self, conn: ConnId, code: str, message: str, msg_id: str | None = None,
               phrase: Phrase | None = None) -> Send:
        return Send(conn, error_text(code, message, msg_id=msg_id, version=self.version, phrase=phrase))

    def _broadcast(self, msg: BaseModel) -> Iterator[Effect]:
        text = msg.model_dump_json()
        for conn in self.connections():
            yield Send(conn, text)

    def _tell(self, kind: str, seat: int | None, text: str, /, seconds: float | None = None, key: str | None = None,
              **params: str | int) -> Iterator[Effect]:
        """Tell everyone what changed at the table (with the table as it is now; a match's score too):
        ``text`` in English; ``key`` (default ``event.KIND``) and ``params`` the catalogue's words for it."""
        words = Words(key=key or f"event.{kind}", params=params)
        event = TableEvent(kind=kind, seat=seat, text=text, words=words, seconds=seconds)  # type: ignore[arg-type]
        if self.connections():  # what was told: an event nobody heard (a quick table's start) is no news later
            self._keep_told({"seat": seat, "move": None, "event": event.model_dump()})
        # a table closed before its game was dealt shows its secret (nothing was played from it); a dealt
        # game's secret would show every hidden card of a game nobody finished: never revealed
        fair = self.fair.info(revealed=True) if kind == "abandoned" and self.fair is not None and not self.fair.dealt \
            else None
        yield from self._broadcast(TableMessage(table=self.info(), event=event, fair=fair, **self.play.score_fields()))

    def _broadcast_state(self, last: LastMove | None, events: Sequence[Event] = (),
                         told: tuple[dict[str, Any], dict[str, Any]] | None = None) -> Iterator[Effect]:
        """Every connection gets the new position, each its own view (made once per seat); ``last``
        with ``told`` (what :meth:`TablePlay.told` says of it to its own seat, and to the others)."""
        head = {"type": "state", "stateVersion": self.version}
        tail: dict[str, Any] = {"last": last.model_dump() if last is not None else None}
        lasts: dict[bool, dict[str, Any]] = {}
        if last is not None and told is not None:
            lasts = {True: {**tail["last"], **told[0]}, False: {**tail["last"], **told[1]}}
        if self.state.game.realtime:  # what the engine did, in order (nothing happens in turns there)
            tail["events"] = [GameEvent(t=e.t, kind=e.kind, seat=e.seat, text=e.text,  # type: ignore[arg-type]
                                        auto=getattr(e, "auto", False)).model_dump() for e in events]
        fair = self._fair_dumped()
        if fair is not None:
            tail["fair"] = fair
        play = self.play

        audience: list[int | None] = [s.seat for s in self.seats if s.conns]
        if self.spectators:
            audience.append(None)
        # each audience's view made (what seats share made once) and encoded once, whoever many
        # connections it has
        views = self.play.views(audience) if self.is_dealt else {seat: self.view_for(seat) for seat in audience}

        def text(seat: int | None) -> str:
            view, legal = views[seat]
            extra = {k: v.model_dump() if isinstance(v, BaseModel) else v for k, v in play.fields(seat).items()}
            told_here = {"last": lasts[seat is not None and last is not None and seat == last.seat]} if lasts else {}
            return json.dumps({**head, "view": view, "legal": legal, **extra, **tail, **told_here},
                              separators=(",", ":"))

        for s in self.seats:
            if s.conns:
                msg = text(s.seat)
                for conn in s.conns:
                    yield Send(conn, msg)
        if self.spectators:
            msg = text(None)
            for conn in self.spectators:
                yield Send(conn, msg)

    def _welcome(self, conn: ConnId, seat: int | None) -> Iterator[Effect]:
        view, legal = self.view_for(seat)
        steps = self.move_log(seat)  # the game so far, so that a page opened now can show its log
        first = max(0, len(steps) - MOVE_LOG_MAX)
        yield self._send(conn, Welcome(table=self.info(), seat=seat, stateVersion=self.version, view=view, legal=legal,
                                       fair=self.fair_info(), moveLog=[LoggedMove.of(s) for s in steps[first:]],
                                       moveLogStart=first or None, **self.play.fields(seat)))
        if self.game_ended and (self.status == "finished" or self.between):
            yield self._send(conn, self.game_over())

