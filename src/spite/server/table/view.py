"""What a table shows (:class:`TableView`, a part the table's core holds): the table as the lobby
lists it, each seat's view and legal moves, and the messages that carry them.

What a connection receives is made here and only here: a seat's (or a spectator's) view from the
game (``GameState.view``), every card face down before the deal is made; the commitment of the fair
deal, its secret only once the game is over; the table's events with their catalogue words. The view
reads the table through :class:`~spite.server.table.play.Table` and changes nothing of it but what it
keeps itself: what was told besides the game's steps (for the ``moveLog``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel

from spite.errors import Phrase
from spite.games import Event
from spite.server.protocol import (
    FairInfo,
    GameOver,
    LastMove,
    LoggedMove,
    RematchInfo,
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
from spite.server.table.play import Table

__all__ = ["MOVE_LOG_MAX", "TableView"]

MOVE_LOG_MAX = 200
"""The most entries of the game in play a ``welcome`` carries (its ``moveLog``): the newest ones."""

TOLD_KEPT = 1000
"""The most entries besides the game's own steps (events, moves taken back) a table keeps for the
``moveLog``: the newest ones (a connection that comes and goes for hours does not grow it for ever)."""


class TableView:
    """The table as its messages show it (the table itself is the core's: read, never changed here)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.told: list[tuple[int, dict[str, Any], dict[str, Any] | None]] = []
        """What the table told everyone of the game in play besides its steps (:meth:`TablePlay.move_log`),
        oldest first, each after how many steps it came: its events, and each move taken back (the move
        as it was told, then the undo), with what its own seat was told of it when that was more. Kept
        in memory only: a restarted server's ``moveLog`` has the steps."""
        self.told_over = 0
        """How many of :attr:`told` were told before the game in play ended (the rest go on to the next game)."""
        self._fair_cache: tuple[Any, FairDeal, dict[str, Any]] | None = None
        """The ``fair`` field of the ``state`` messages as last made, and what it was made from."""

    def connections(self) -> list[ConnId]:
        """Every connection at this table."""
        out = list(self.table.spectators)
        for s in self.table.seats:
            out.extend(s.conns)
        return out

    def info(self) -> TableInfo:
        """The table as the lobby shows it."""
        t = self.table
        return TableInfo(id=t.id, game=t.game, preset=t.preset, options=t.options,
                         status=t.status, seats=[s.info() for s in t.seats],  # type: ignore[arg-type]
                         stateVersion=t.version, link=f"/t/{t.id}", gameId=t.game_id,
                         series=t.series.info(), fair=self.fair_info(), rated=t.rated)

    def rematch_info(self) -> RematchInfo | None:
        """Who wants another game (see :meth:`TableSeries.rematch_info`)."""
        return self.table.series.rematch_info(self.table.seats, self.table.status == "finished")

    def fair_info(self) -> FairInfo | None:
        """The ``fair`` field: the commitment; the secret and nonces once the game is over; after a
        game, the next game's commitment (``next``)."""
        fair = self.table.fair
        if fair is None:
            return None
        info = fair.info(revealed=fair.dealt and self.table.game_ended)
        if self.table.fair_next is not None:
            info.next = self.table.fair_next.commitment
        return info

    def fair_dumped(self) -> dict[str, Any] | None:
        """:meth:`fair_info` as a ``state`` message carries it, made again only when it changes (a
        deal, a nonce, the game's end, the next game's commitment): not at every move."""
        fair = self.table.fair
        if fair is None:
            return None
        key = (id(fair), fair.dealt, len(fair.nonces), self.table.game_ended, id(self.table.fair_next))
        cached = self._fair_cache
        if cached is None or cached[0] != key or cached[1] is not fair:
            info = fair.info(revealed=fair.dealt and self.table.game_ended)
            if self.table.fair_next is not None:
                info.next = self.table.fair_next.commitment
            cached = self._fair_cache = (key, fair, info.model_dump())
        return cached[2]

    def view_for(self, seat: int | None) -> tuple[dict[str, Any], list[str]]:
        """The view JSON of ``seat`` (``None``: spectator) and its legal moves: all a client gets.
        Before the deal is made nobody sees a card of it."""
        if not self.table.is_dealt:
            return self.table.state.face_down_view(), []
        return self.table.play.views([seat])[seat]

    def game_part(self, seat: int | None, events: Sequence[Event] | None = None) -> dict[str, Any] | None:
        """The game's own part of a message for ``seat`` (``None``: everyone), as its play fills it
        (:meth:`~spite.server.table.play.TablePlay.fields`); ``None`` when it adds nothing."""
        return self.table.play.fields(seat, events) or None

    def state_message(self, seat: int | None, last: LastMove | None = None) -> StateMessage:
        """A ``state`` message for ``seat`` (the answer to ``sync``)."""
        view, legal = self.view_for(seat)
        return StateMessage(stateVersion=self.table.version, view=view, legal=legal, last=last, fair=self.fair_info(),
                            game=self.game_part(seat))

    def game_over(self) -> GameOver:
        """The ``gameOver`` message of the game just ended (by its rules, or lost by leaving)."""
        result = self.table.ended if self.table.ended is not None else self.table.state.result
        assert result is not None
        url = f"/api/games/{self.table.game_id}/record" if self.table.game_id is not None else None
        return GameOver(stateVersion=self.table.version, result=dict(result), gameId=self.table.game_id, recordUrl=url,
                        final=self.table.status == "finished", fair=self.fair_info(),
                        series=self.table.series.info(), rematch=self.rematch_info(),
                        game=self.game_part(None))

    def move_log(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The game in play so far as ``seat`` (``None``: a spectator) was told it, in the order it was
        told: its steps (nothing before the deal), and the table's events and the moves taken back in
        their place."""
        steps = self.table.play.move_log(seat) if self.table.is_dealt else []
        out: list[dict[str, Any]] = []
        done = 0
        for after, entry, own in self.told:
            if after > done:
                out.extend(steps[done:after])
                done = max(done, min(after, len(steps)))
            out.append(own if own is not None and seat is not None and entry["seat"] == seat else entry)
        out.extend(steps[done:])
        return out

    def steps_now(self) -> int:
        """How many steps of the game in play everyone has been told of."""
        return len(self.table.play.move_log()) if self.table.is_dealt else 0

    def keep_told(self, entry: dict[str, Any], own: dict[str, Any] | None = None) -> None:
        """``entry`` was told now (``own``: what the seat it names was told, when more): it goes after
        the steps told so far."""
        self.told.append((self.steps_now(), entry, own))
        if len(self.told) > TOLD_KEPT:
            dropped = len(self.told) - TOLD_KEPT
            del self.told[:dropped]
            self.told_over = max(0, self.told_over - dropped)

    def taken_back(self, seat: int, move: str, own: dict[str, Any], public: dict[str, Any]) -> None:
        """``seat`` took back ``move`` (its step is gone from the game's steps; ``own`` and ``public`` are
        what it told, as its ``last`` said it): the move as it was told goes where it stood, before whatever was
        told after it, and the undo after everything so far."""
        now = self.steps_now()
        at = next((k for k, (after, _, _) in enumerate(self.told) if after > now), len(self.told))
        self.told.insert(at, (now, {"seat": seat, "move": move, **public}, {"seat": seat, "move": move, **own}))
        # what was told after the move now comes after the step before it (the next step is a new move)
        self.told = [(min(after, now), entry, mine) for after, entry, mine in self.told]
        self.keep_told({"seat": seat, "move": move, "undone": True, **public},
                        {"seat": seat, "move": move, "undone": True, **own})

    def game_told_over(self) -> None:
        """The game in play ended: what is told from now on belongs to the next game's log."""
        self.told_over = len(self.told)

    def next_game(self) -> None:
        """A new game begins: its log begins with what was told since the last one ended (who is ready, ...)."""
        self.told, self.told_over = [(0, entry, own) for _, entry, own in self.told[self.told_over:]], 0

    # ------------------------------------------------------------------ sending
    def send(self, conn: ConnId, msg: BaseModel | str) -> Send:
        return Send(conn, msg if isinstance(msg, str) else msg.model_dump_json())

    def error(self, conn: ConnId, code: str, message: str, msg_id: str | None = None,
               phrase: Phrase | None = None) -> Send:
        return Send(conn, error_text(code, message, msg_id=msg_id, version=self.table.version, phrase=phrase))

    def broadcast(self, msg: BaseModel) -> Iterator[Effect]:
        text = msg.model_dump_json()
        for conn in self.connections():
            yield Send(conn, text)

    def tell(self, kind: str, seat: int | None, text: str, /, seconds: float | None = None, key: str | None = None,
              **params: str | int) -> Iterator[Effect]:
        """Tell everyone what changed at the table (with the table as it is now; a match's score too):
        ``text`` in English; ``key`` (default ``event.KIND``) and ``params`` the catalogue's words for it."""
        words = Words(key=key or f"event.{kind}", params=params)
        event = TableEvent(kind=kind, seat=seat, text=text, words=words, seconds=seconds)  # type: ignore[arg-type]
        if self.connections():  # what was told: an event nobody heard (a quick table's start) is no news later
            self.keep_told({"seat": seat, "move": None, "event": event.model_dump()})
        # a table closed before its game was dealt shows its secret (nothing was played from it); a dealt
        # game's secret would show every hidden card of a game nobody finished: never revealed
        dealt = self.table.fair
        fair = dealt.info(revealed=True) if kind == "abandoned" and dealt is not None and not dealt.dealt else None
        yield from self.broadcast(TableMessage(table=self.info(), event=event, fair=fair, game=self.game_part(None)))

    def broadcast_state(self, last: LastMove | None, events: Sequence[Event] = (),
                         told: tuple[dict[str, Any], dict[str, Any]] | None = None) -> Iterator[Effect]:
        """Every connection gets the new position, each its own view (made once per seat); ``last``
        with ``told`` (what its step in :meth:`TablePlay.move_log` says of it to its own seat, and to the
        others)."""
        head = {"type": "state", "stateVersion": self.table.version}
        tail: dict[str, Any] = {"last": last.model_dump() if last is not None else None}
        lasts: dict[bool, dict[str, Any]] = {}
        if last is not None and told is not None:
            lasts = {True: {**tail["last"], **told[0]}, False: {**tail["last"], **told[1]}}
        fair = self.fair_dumped()
        if fair is not None:
            tail["fair"] = fair
        play = self.table.play

        audience: list[int | None] = [s.seat for s in self.table.seats if s.conns]
        if self.table.spectators:
            audience.append(None)
        # each audience's view made (what seats share made once) and encoded once, whoever many
        # connections it has
        views = play.views(audience) if self.table.is_dealt else {seat: self.view_for(seat) for seat in audience}

        def text(seat: int | None) -> str:
            view, legal = views[seat]
            game = play.fields(seat, events)
            told_here = {"last": lasts[seat is not None and last is not None and seat == last.seat]} if lasts else {}
            return json.dumps({**head, "view": view, "legal": legal, **({"game": game} if game else {}), **tail,
                               **told_here}, separators=(",", ":"))

        for s in self.table.seats:
            if s.conns:
                msg = text(s.seat)
                for conn in s.conns:
                    yield Send(conn, msg)
        if self.table.spectators:
            msg = text(None)
            for conn in self.table.spectators:
                yield Send(conn, msg)

    def welcome(self, conn: ConnId, seat: int | None) -> Iterator[Effect]:
        view, legal = self.view_for(seat)
        steps = self.move_log(seat)  # the game so far, so that a page opened now can show its log
        first = max(0, len(steps) - MOVE_LOG_MAX)
        yield self.send(conn, Welcome(table=self.info(), seat=seat, stateVersion=self.table.version, view=view,
                                      legal=legal, fair=self.fair_info(), moveLogStart=first or None,
                                      moveLog=[LoggedMove.of(s) for s in steps[first:]],
                                      game=self.game_part(seat)))
        if self.table.game_ended and (self.table.status == "finished" or self.table.series.between):
            yield self.send(conn, self.game_over())

