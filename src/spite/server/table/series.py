"""How one game follows another at a table (:class:`TableSeries`, a part of
:class:`~spite.server.table.core.TableCore`): a match's next game once every person seat sent
``next`` (or the pause is over), and a rematch once every person said yes. Both begin in one place,
:meth:`TableSeries._begin_game`, dealt from the fair deal whose commitment went out when the game
before ended (docs/fairness.md), stored in one commit, at one past the last ``stateVersion``.
"""

from __future__ import annotations

import json
import logging
import secrets
from collections.abc import Generator
from typing import TYPE_CHECKING, Any, cast

from spite.errors import Phrase
from spite.server.protocol import RematchState
from spite.server.table.clock import TableClocks
from spite.server.table.effects import ConnId, DeleteMoves, Effect, Row, Send, Stored, UpdateTable
from spite.server.table.fair import FairDeal
from spite.server.table.play import Dealt, ServerGame
from spite.server.table.seats import Seat

if TYPE_CHECKING:
    from spite.server.table.core import TableCore

__all__ = ["TableSeries"]

log = logging.getLogger("spite.server.table")

Step = Generator[Effect, Any, Any]

_STORAGE_RETRY = 1.0
"""Seconds before a next game that could not be stored is tried again."""


class TableSeries(TableClocks):
    """Games in a row (the state is :class:`~spite.server.table.core.TableCore`'s)."""

    server_game: ServerGame
    options: dict[str, Any]
    start: dict[str, Any]
    version_base: int
    rows: int
    entries: int
    hello: dict[ConnId, int | None]
    moved: set[int]
    taken: set[int]
    told: list[tuple[int, dict[str, Any], dict[str, Any] | None]]
    told_over: int

    if TYPE_CHECKING:  # what the rest of the core does for a game in a row
        def _has_matches(self) -> bool: ...
        def _lacking(self, conn: ConnId, kind: str, msg_id: str | None) -> Send: ...
        def _take_nonce(self, seat: int, nonce: str | None) -> None: ...
        def _back_by_acting(self, conn: ConnId, seat: Seat) -> Step: ...
        def _draw(self, game: int, first: int | None) -> FairDeal: ...
        def _commit(self, rows: tuple[Row, ...]) -> Generator[Effect, Any, Stored]: ...
        def _enter_play(self, fresh: bool) -> None: ...

    def _between(self) -> bool:
        """A game is over and another follows at this table (a match going on)."""
        return self.status == "playing" and self.state.is_over

    def _next(self, conn: ConnId, seat_no: int | None, msg_id: str | None, nonce: str | None) -> Step:
        """``next``: a seat is ready for the match's next game; it begins when every person seat is."""
        if not self._has_matches():
            yield self._lacking(conn, "next", msg_id)
            return
        if seat_no is None:
            yield self._error(conn, "not-your-seat", "spectators do not start games", msg_id,
                              Phrase("error.not-your-seat.spectator"))
            return
        self._take_nonce(seat_no, nonce)  # for the next game's deal, before it is dealt
        if not self.between:
            why = "match-over" if self.status != "playing" else "in-play"
            what = {"match-over": "the match is over", "in-play": "a game is in play"}[why]
            if self.play.match_game() is None:
                why, what = "single", "this table plays a single game"
            yield self._error(conn, "no-next-game", f"there is no next game to start: {what}", msg_id,
                              Phrase(f"error.no-next-game.{why}"))
            return
        seat = self.seats[seat_no]
        yield from self._back_by_acting(conn, seat)
        if not seat.is_person or conn not in seat.conns:
            yield self._error(conn, "not-your-seat", "a bot plays this seat now", msg_id,
                              Phrase("error.not-your-seat.bot"))
            return
        if seat_no in self.ready:
            return
        self.ready.add(seat_no)
        if all(not s.is_person or s.seat in self.ready for s in self.seats):
            self.next_at = self.now  # everyone is ready: it begins at once
        else:
            yield from self._tell("ready", seat_no, f"{seat.player} is ready for the next game", name=seat.player or "",
                                  seat=seat_no)

    def _next_game(self) -> Step:
        """Deal the match's next game from the fair deal published when the game before ended."""
        fair = self.fair_next
        first = fair.first if fair is not None else self.play.next_first()
        seed = fair.seed() if fair is not None else secrets.token_hex(32)
        began = yield from self._begin_game(self.play.deal(seed, first), fair)
        if not began:
            self.next_at = self.now + _STORAGE_RETRY
            return
        starter = self.state.to_act()[0] if self.state.to_act() else 0
        name = self.seats[starter].shown_name()
        number = self.play.match_game() or 1
        log.info("table %s: game %d of the match begins (seat %d first)", self.id, number, starter)
        yield from self._tell("next-game", starter, f"game {number} of the match begins: {name} (seat {starter}) "
                              "plays first", game=number, name=name, seat=starter)
        yield from self._broadcast_state(None)

    def _rematch(self, conn: ConnId, seat_no: int | None, accept: bool, msg_id: str | None,
                 nonce: str | None) -> Step:
        """``rematch`` after the table's last game: yes or no. When every seat a person plays has said
        yes, the new game begins."""
        if seat_no is None:
            yield self._error(conn, "not-your-seat", "spectators do not start games", msg_id)
            return
        if self.status != "finished":
            what = "the table has not started" if self.status == "open" else \
                "the game is still in play" if self.status == "playing" else f"the table is {self.status}"
            yield self._error(conn, "no-rematch", f"no rematch now: {what}", msg_id)
            return
        seat = self.seats[seat_no]
        yield from self._back_by_acting(conn, seat)
        if not seat.is_person or conn not in seat.conns:
            yield self._error(conn, "not-your-seat", "a bot plays this seat now", msg_id)
            return
        name = seat.player or seat.player_name()
        if accept:
            self._take_nonce(seat_no, nonce)  # for the rematch's deal: its commitment is out
        if seat_no in (self.rematch_yes if accept else self.rematch_no):
            return
        yes, no = set(self.rematch_yes), set(self.rematch_no)
        (yes if accept else no).add(seat_no)
        (no if accept else yes).discard(seat_no)
        persons = [s for s in self.seats if s.kind == "person"]
        if accept and all(s.seat in yes for s in persons):
            self.rematch_yes, self.rematch_no = yes, no
            yield from self._rematch_game()
            return
        # the answer is kept with the table: a reload, a restart or another device sees it too
        result = yield from self._commit((UpdateTable({"series": json.dumps(
            {**self.series, "rematch": {"yes": sorted(yes), "no": sorted(no)}})}),))
        if not result.ok:
            yield self._error(conn, "storage", "your answer could not be saved; try again", msg_id)
            return
        self.rematch_yes, self.rematch_no = yes, no
        if accept:
            yield from self._tell("rematch-yes", seat_no, f"{name} wants a rematch", name=name, seat=seat_no)
        else:
            yield from self._tell("rematch-no", seat_no, f"{name} does not want a rematch", name=name, seat=seat_no)
        info = self.rematch_info()
        assert info is not None
        yield from self._broadcast(RematchState(rematch=info, series=self.series_info()))

    def _rematch_game(self) -> Step:
        """Every person wants another game: the same seats, game, preset and options, from the fair deal
        published at the end of the last game (a match table starts a new match)."""
        fair = self.fair_next
        if fair is None and self.fair is not None:
            fair = self._draw(self.fair.game + 1, None)
        seed: int | str = fair.seed() if fair is not None else secrets.randbits(62)
        opening = self.server_game.open(self.game, self.preset, dict(self.options), seed)
        columns = {"seed": json.dumps(seed), **opening.columns}
        began = yield from self._begin_game(Dealt(opening.state, opening.start, opening.entries), fair, columns,
                                            new_play=True, extra=opening.extra)
        if not began:
            self.rematch_yes = set()
            for conn in self.connections():
                if self.hello.get(conn) is not None:
                    yield self._error(conn, "storage", "the rematch could not be saved; try again")
            return
        number = self.series["games"] + 1
        log.info("table %s: rematch, game %d of the series begins", self.id, number)
        yield from self._tell("rematch", None, f"everyone wants a rematch: game {number} at this table begins",
                              n=number)
        yield from self._broadcast_state(None)

    def _begin_game(self, dealt: Dealt, fair: FairDeal | None, columns: dict[str, Any] | None = None, *,
                    new_play: bool = False, extra: Any = None) -> Generator[Effect, Any, bool]:
        """The next game at this table (a match's next game or a rematch) begins: stored in one commit
        (the finished game's rows go, the new start comes), then in play at one past the last
        ``stateVersion``. A rematch's game gets a play of its own (``new_play``, made with the adapter's
        :attr:`Opening.extra`). False when it could not be stored (nothing changed)."""
        start = dict(dealt.start)
        if fair is not None:
            fair.dealt = True
            start["fair"] = fair.stored()
        base = self.version + 1
        values = {"status": "playing", "start": json.dumps(start), "version_base": base, "plies": 0, **(columns or {})}
        result = yield from self._commit((DeleteMoves(0), UpdateTable(values)))
        if not result.ok:
            if fair is not None:
                fair.dealt = False
            log.error("table %s: the next game could not be stored (%s)", self.id, result.error)
            return False
        if fair is not None:
            self.fair, self.fair_next = fair, None
        self.state, self.start = dealt.state, start
        # the new game's log begins with what was told since the last one ended (who is ready, ...)
        self.told, self.told_over = [(0, entry, own) for _, entry, own in self.told[self.told_over:]], 0
        self.version_base = self.version = base
        self.rows, self.entries = 0, dealt.entries
        self.game_id = None
        self.ended = None
        self.status = "playing"
        self.between, self.ready, self.next_at = False, set(), None
        self.rematch_yes, self.rematch_no = set(), set()
        if new_play:  # a rematch: a game of its own (a match's next game goes on counting the match's moves)
            self.moved, self.taken = set(), set()
            self.play = self.server_game.play(cast("TableCore", self), extra)
        self._enter_play(fresh=True)  # a person who left meanwhile gets their grace time, as at the start
        return True
