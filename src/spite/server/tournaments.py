"""Club tournaments on the server (docs/tournaments.md, docs/protocol.md "Tournaments"): made, joined,
started, directed round after round, and finished; Swiss or arena, on duplicate deals.

The rules are pure and live in :mod:`spite.tournament` (pairing, standings, deals, the
:class:`~spite.tournament.state.Tournament` state machine: events in, actions out, the time passed in).
This module keeps that state in the database and runs its actions:

* **One row per tournament** (``spite_tournaments``): the pure state as JSON and a ``version``. Every
  change (a join, the start, a game's result, time passing) is made in one transaction under the row's
  lock (``SELECT … FOR UPDATE`` on PostgreSQL; the single writer on SQLite): read, apply the event,
  write back with ``version + 1``. Two workers never change one tournament at once, and a change is
  whole or not at all.
* **Tables are written before they are made.** When the state machine pairs, the same transaction
  writes a ``spite_tournament_tables`` row per table to make: its id (chosen here), its seats (entrant,
  computer level or person with the seat's token), its deal. The table itself is made afterwards
  (:meth:`~spite.server.lobby.Lobby.create_seated`: one insert, people seated); a worker that dies in
  between leaves the row unmade, and the next pass of any worker makes it (an id made twice is made
  once). Nothing is paired twice: pairing happened once, in the transaction that wrote the rows.
* **A game's end is heard, not polled**: the lobby tells every listener when a table's last game is
  stored or a table was closed (:attr:`~spite.server.lobby.Lobby.game_ends`); the worker where that
  happens reads the stored result (who won, a forfeit, the game's id) and hands it to the state
  machine. A pass every :attr:`TournamentService.poll` seconds also looks for tables whose end nobody
  reported (their worker died just then), and for person seats nobody came to within the
  tournament's ``grace``: those tables are told (:class:`~spite.server.table.effects.NoShow`) and
  the absent lose that game as a forfeit; two such losses withdraw an entrant.
* **Long polls** (``?wait=``) are answered at once on a change: the worker that changed the row wakes
  its waiting requests and, on PostgreSQL, sends ``NOTIFY spite_tournaments`` in the same
  transaction, which every worker listens for (as the seeks do).

A tournament's tables are ordinary tables: rated ones are rated as any, they survive restarts, their
fair deal comes from the tournament (:class:`~spite.server.table.fair.FixedDeal`): every pairing of a
Swiss round plays the round's deal, both games, seats swapped.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spite import rating
from spite.errors import OptionsError
from spite.games import get_game
from spite.server import db
from spite.server.config import ServerConfig
from spite.server.lobby import check_standard, server_game
from spite.server.notify import Changes, listen
from spite.server.protocol import SeatRequest
from spite.server.store import Store
from spite.server.table.effects import NoShow
from spite.server.table.fair import DealSource, FixedDeal
from spite.server.table.seats import LobbyError, hash_token, new_token
from spite.tournament import deals
from spite.tournament.state import Tournament, TournamentError

if TYPE_CHECKING:
    from spite.server.host import TableHost
    from spite.server.keeper import LeaseKeeper
    from spite.server.lobby import Lobby

__all__ = ["CHANGED", "MAX_WAIT", "TournamentService"]

log = logging.getLogger("spite.server.tournaments")

MAX_WAIT = 25.0
"""The longest a long poll is held (well under a proxy's idle timeout)."""


class Manager(Protocol):
    """What tournaments need of the server's manager: its store, the lobby that makes and tells of tables,
    and the lease keeper of several workers. A protocol, so that this module stays below the manager,
    which makes the service."""

    @property
    def store(self) -> Store: ...

    @property
    def lobby(self) -> Lobby: ...

    @property
    def keeper(self) -> LeaseKeeper | None: ...

CHANGED = "spite_tournaments"
"""The PostgreSQL channel a worker notifies when it changes a tournament."""


MAX_ENTRANTS = 1000
"""The most entrants one tournament takes."""


# ====================================================================== refusals (words: tournament.*)
def _none(tid: str) -> LobbyError:
    return LobbyError(f"there is no tournament {tid}", 404, "tournament.none", tournament=tid)


def _not_creator() -> LobbyError:
    return LobbyError("only the tournament's creator may do that", 403, "tournament.not-creator")


def _not_entrant() -> LobbyError:
    return LobbyError("you are not in this tournament", 409, "tournament.not-entrant")


_STATUS = {"tournament.not-open": 409, "tournament.joined": 409, "tournament.too-few": 409,
           "tournament.not-playing": 409, "tournament.round-in-play": 409, "tournament.result-recorded": 409}


def _refusal(error: TournamentError) -> LobbyError:
    """The pure state machine's refusal as the server's (its catalogue key and values kept)."""
    params: dict[str, str | int] = {k: v if isinstance(v, (str, int)) else str(v) for k, v in error.params.items()
                                    if v is not None}
    return LobbyError(str(error), _STATUS.get(error.key, 400), error.key, **params)


def in_play(game_id: int) -> LobbyError:
    """The refusal of a tournament game's record while its deal may still be played elsewhere."""
    error = LobbyError(f"game {game_id} was dealt in a tournament whose deal is still in play: it opens when the "
                       "round is over (an arena's: when the arena is)", 409, "tournament.in-play", game=game_id)
    error.code = "tournament-in-play"  # type: ignore[attr-defined]
    return error


class TournamentService:
    """The tournaments of this server (see the module's text). ``clock``: seconds since 1970."""

    def __init__(self, manager: Manager, config: ServerConfig, *, clock: Callable[[], float] = time.time,
                 entropy: Callable[[int], bytes] = secrets.token_bytes, poll: float = 1.0) -> None:
        self.manager = manager
        self.store: Store = manager.store
        self.config = config
        self.clock = clock
        self.entropy = entropy
        self.poll = poll
        self.scale = config.tournament_time_scale or 1.0
        """Tests and benchmarks: a tournament's durations last this many times their length."""
        self.changes = Changes()
        """Requests waiting for a tournament's change (long polls)."""
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._jobs: set[asyncio.Task[None]] = set()
        self._making = asyncio.Lock()
        """One making of tables at a time in this process (two would make the same table twice)."""
        self.made = 0
        """Tables this process made for tournaments."""
        # set before the lobby restores its tables: a restored tournament table gets its deals again
        manager.lobby.deal_sources = self._source_of_stored
        manager.lobby.game_ends.append(self._heard_end)

    def _now(self) -> float:
        """The tournament's clock (the pure state's ``now``): the server's, scaled."""
        return self.clock() / self.scale

    # ------------------------------------------------------------------ running
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._run(), name="spite-tournaments"))
        if self.store.dialect == "postgresql":
            listening = listen(self.store.engine, CHANGED, self._changed_elsewhere, poll=self.poll,
                               what="tournament changes")
            self._tasks.append(loop.create_task(listening, name="spite-tournaments-listen"))

    async def close(self) -> None:
        tasks = [*self._tasks, *self._jobs]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def _changed_elsewhere(self) -> None:
        """Under PostgreSQL, any worker changed a tournament (``NOTIFY`` :data:`CHANGED`, sent with the
        change's commit): wake this worker's waiting requests and its next pass."""
        self.changes.announce()
        self._wake.set()

    async def _run(self) -> None:
        """Pass after pass (every ``poll`` seconds, and at once when woken)."""
        while True:
            try:
                await self.pass_once()
            except asyncio.CancelledError:
                raise
            except Exception:  # a pass that failed is tried again; the service must not die
                log.exception("a pass over the tournaments failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll)

    async def pass_once(self) -> None:
        """Over the tournaments in play: what fell due (the next Swiss round, the arena's pairings and
        end), tables written and not made yet, ends nobody reported, persons who did not come."""
        t_ = db.tournaments
        rows = await self.store.read(lambda c: [(r.id, r.state) for r in c.execute(
            sa.select(t_.c.id, t_.c.state).where(t_.c.status == "playing"))])
        now = self._now()
        for tid, text in rows:
            try:  # one tournament's trouble (a table moving between workers) is not the others'
                state = Tournament.from_dict(json.loads(text))
                due = state.wake_at()
                if (due is not None and due <= now) or state.system == "arena":
                    await self._change(tid, lambda t, _c: t.tick(self._now()), wake=False)
                await self._make_tables(tid)
                await self._look_at_tables(tid)
            except LobbyError as exc:
                log.warning("tournament %s: %s; the next pass tries again", tid, exc)

    # ------------------------------------------------------------------ the row, under its lock
    @staticmethod
    def _load(conn: Connection, tid: str, lock: bool) -> Tournament | None:
        t_ = db.tournaments
        q = sa.select(t_.c.state).where(t_.c.id == tid)
        if lock and conn.dialect.name == "postgresql":
            q = q.with_for_update()
        text = conn.execute(q).scalar()
        return None if text is None else Tournament.from_dict(json.loads(text))

    async def _change(self, tid: str, fn: Callable[[Tournament, Connection], Any], wake: bool = True) -> Any:
        """Apply ``fn`` to tournament ``tid`` under its row's lock, write the tables it now needs, and
        store it when it changed (its ``version`` grew), all in one transaction. Raises what ``fn``
        raises (nothing stored then); the pure state's refusals as the server's."""

        def write(conn: Connection) -> Any:
            t = self._load(conn, tid, lock=True)
            if t is None:
                raise _none(tid)
            before = t.version
            try:
                answer = fn(t, conn)
            except TournamentError as exc:
                raise _refusal(exc) from None
            self._write_tables(conn, t)
            if t.version != before:
                self._save(conn, t)
            return answer

        answer = await self.store.write(write)
        self.changes.announce()
        if wake:
            self._wake.set()
        return answer

    @staticmethod
    def _save(conn: Connection, t: Tournament) -> None:
        t_ = db.tournaments
        conn.execute(sa.update(t_).where(t_.c.id == t.id).values(
            state=json.dumps(t.to_dict()), version=t.version, status=t.state, updated_at=time.time()))
        if conn.dialect.name == "postgresql":
            conn.execute(sa.select(sa.func.pg_notify(CHANGED, t.id)))

    def _write_tables(self, conn: Connection, t: Tournament) -> None:
        """For every game that wants a table now, its row (its id, seats and the persons' tokens), the
        id noted in the state: made after the commit (:meth:`_make_tables`), by whichever worker."""
        now = time.time()
        for number, game_no in t.tables_needed():
            pairing = t.pairing(number)
            seats = []
            for eid in pairing.seats(game_no):
                e = t.entrant(eid)
                if e.computer is not None:
                    seats.append({"entrant": eid, "name": e.name, "level": e.computer})
                else:
                    seats.append({"entrant": eid, "name": e.name, "player": e.key or "", "token": new_token()})
            table_id = base64.urlsafe_b64encode(self.entropy(9)).decode()
            conn.execute(sa.insert(db.tournament_tables).values(
                table_id=table_id, tournament_id=t.id, pairing=number, game=game_no, deal=pairing.deal,
                seats=json.dumps(seats), made=False, created_at=now))
            t.attach_table(number, game_no, table_id)

    # ------------------------------------------------------------------ requests
    async def create(self, *, game: str, preset: str | None, system: str, rounds: int, minutes: float, rated: bool,
                     grace: float, player_id: str, name: str, address: str | None,
                     options: dict[str, Any] | None = None) -> dict[str, Any]:
        """A new tournament, open for entrants, its commitment published; every table of it plays
        ``preset`` with ``options``, checked as a new table's are (the same refusals). 429 when
        ``address`` (a key of the client's address) has ``max_tournaments`` open or playing ones."""
        options = dict(options or {})
        try:
            preset = preset or get_game(game).default_preset
            seats = get_game(game).seats(preset, options)  # a table's check of its options (plan_table's)
        except OptionsError as exc:
            raise LobbyError.of(exc) from None
        server_game(game)  # served here (501 otherwise)
        if seats != 2:
            raise LobbyError(f"tournaments are for two-player games: {preset} seats {seats}", 400,
                             "tournament.two-players", preset=preset, seats=seats)
        if rated:
            check_standard(game, preset, options, "tournament")
        tid = base64.urlsafe_b64encode(self.entropy(9)).decode()
        secret = self.entropy(deals.SECRET_BYTES)
        try:
            t = Tournament.create(tid, secret, game=game, preset=preset, system=system,
                                  rounds=rounds if system == "swiss" else None,
                                  minutes=minutes if system == "arena" else None, rated=rated, grace=round(grace),
                                  creator=name, creator_key=player_id, options=options)
        except TournamentError as exc:
            raise _refusal(exc) from None
        cap = self.config.max_tournaments
        t_ = db.tournaments
        now = time.time()

        def write(conn: Connection) -> None:
            if address is not None:
                if conn.dialect.name == "postgresql":  # one address's creations one after the other
                    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(_address_lock(address))))
                made = conn.execute(sa.select(sa.func.count()).select_from(t_).where(
                    t_.c.address == address, t_.c.status.in_(("open", "playing")))).scalar_one()
                if made >= cap:
                    raise LobbyError(f"your address already has {cap} open or playing tournaments", 429,
                                     "tournament.too-many", n=cap)
            conn.execute(sa.insert(t_).values(id=tid, status=t.state, version=t.version, state=json.dumps(t.to_dict()),
                                              secret=secret.hex(), creator=player_id, address=address,
                                              created_at=now, updated_at=now))

        await self.store.write(write)
        log.info("tournament %s: made (%s %s%s, %s)", tid, game, preset,
                 "".join(f" {k}={v}" for k, v in sorted(options.items())), system)
        return await self.info(tid)

    async def join(self, tid: str, *, player_id: str, name: str | None,
                   computer: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A person enters (``computer`` ``None``), or its creator enters a computer of level ``computer``
        (in a rated tournament a measured one). Answers the entrant and the tournament."""
        def fn(t: Tournament, _conn: Connection) -> dict[str, Any]:
            if len(t.entrants) >= MAX_ENTRANTS:
                raise LobbyError(f"the tournament has {MAX_ENTRANTS} entrants: it is full", 409, "tournament.full",
                                 n=MAX_ENTRANTS)
            if computer is not None:
                if player_id != t.creator_key:
                    raise _not_creator()
                self._check_level(t, computer)
                count = sum(1 for e in t.entrants if e.computer is not None) + 1
                e = t.join(name or f"{computer} {count}", computer=computer, rating=_level_rating(t, computer),
                           now=self._now())
            else:
                e = t.join(name or "guest", key=player_id, now=self._now())
            return {"id": e.id, "name": e.name, "computer": e.computer, "withdrawn": e.withdrawn}

        entrant = await self._change(tid, fn)
        return entrant, await self.info(tid)

    @staticmethod
    def _check_level(t: Tournament, level: str) -> None:
        """A computer plays at a level its game has; in a rated tournament at a measured one (the
        refusal of a rated table's unmeasured computer: ``lobby.rated-level``)."""
        server_game(t.game).check_bot(t.game, level)
        if t.rated:
            group = _group(t)
            if not rating.measured(group, level):
                known = ", ".join(sorted(rating.level_table().get(group, {})))
                raise LobbyError(f"rated games against the computer are at its measured levels ({known}), not "
                                 f"{level} (or make the tournament casual)", 400, "lobby.rated-level", levels=known,
                                 level=level)

    async def leave(self, tid: str, player_id: str) -> dict[str, Any]:
        """A person withdraws: no more pairings; their games not begun are lost, played ones stand."""
        def fn(t: Tournament, _conn: Connection) -> None:
            e = t.entrant_by_key(player_id)
            if e is None:
                raise _not_entrant()
            t.leave(e.id, self._now())

        await self._change(tid, fn)
        return await self.info(tid)

    async def begin(self, tid: str, player_id: str) -> dict[str, Any]:
        """Its creator starts the tournament: round 1 (Swiss) or everyone paired (arena)."""
        def fn(t: Tournament, _conn: Connection) -> None:
            if player_id != t.creator_key:
                raise _not_creator()
            t.start(self._now())

        await self._change(tid, fn)
        log.info("tournament %s: started", tid)
        await self._make_tables(tid)
        return await self.info(tid)

    # ------------------------------------------------------------------ reading
    async def info(self, tid: str, since: int | None = None, wait: float = 0.0) -> dict[str, Any]:
        """The tournament as everyone sees it; with ``since`` and ``wait``, answered as soon as its
        version is above ``since`` (at the latest after ``wait`` seconds, as it stands then)."""
        t = await self.changes.until(lambda: self._read(tid), lambda t: since is None or t.version > since, wait)
        return self._shown(t, full=True)

    async def _read(self, tid: str) -> Tournament:
        t = await self.store.read(lambda c: self._load(c, tid, lock=False))
        if t is None:
            raise _none(tid)
        return t  # type: ignore[no-any-return]

    async def listed(self, status: str | None) -> list[dict[str, Any]]:
        """The newest 200 tournaments (of ``status``), without their rounds."""
        t_ = db.tournaments

        def read(conn: Connection) -> list[str]:
            q = sa.select(t_.c.state).order_by(t_.c.created_at.desc()).limit(200)
            if status is not None:
                q = q.where(t_.c.status == status)
            return list(conn.execute(q).scalars())

        return [self._shown(Tournament.from_dict(json.loads(text)), full=False) for text in await self.store.read(read)]

    def _shown(self, t: Tournament, full: bool) -> dict[str, Any]:
        """TournamentInfo (docs/protocol.md): the pure state's, its times on the server's clock."""
        shown = t.info(self._now(), rounds=full)
        shown["roundCount"] = t.rounds
        if not full:
            shown.pop("rounds", None)
        else:
            for r in shown["rounds"]:
                for p in r["pairings"]:
                    p["games"] = [int(g) for g in p["games"]]
        for key in ("startedAt", "endsAt", "nextRoundAt", "now"):
            if shown.get(key) is not None:
                shown[key] = round(shown[key] * self.scale, 3)
        return shown

    async def next_table(self, tid: str, player_id: str, wait: float = 0.0) -> dict[str, Any]:
        """A person's current or next table with their seat's token; with ``wait``, answered as soon as
        it is made (or their tournament ends, or they have a bye)."""
        async def read() -> dict[str, Any]:
            answer: dict[str, Any] = await self.store.read(lambda c: self._next_of(c, tid, player_id))
            return answer

        return await self.changes.until(read, lambda answer: answer["state"] != "waiting", wait)

    def _next_of(self, conn: Connection, tid: str, player_id: str) -> dict[str, Any]:
        t = self._load(conn, tid, lock=False)
        if t is None:
            raise _none(tid)
        e = t.entrant_by_key(player_id)
        if e is None:
            raise _not_entrant()
        found = t.next_for(e.id)
        if found["state"] != "seated":
            return {"state": found["state"], "round": found["round"]}
        tt = db.tournament_tables
        row = conn.execute(sa.select(tt.c.seats, tt.c.made).where(tt.c.table_id == found["table"])).first() \
            if found["table"] else None
        if row is None or not row.made:
            return {"state": "waiting", "round": found["round"]}
        token = json.loads(row.seats)[found["seat"]].get("token")
        return {"state": "seated", "round": found["round"], "table": found["table"], "seat": found["seat"],
                "token": token, "ws": f"/ws/{found['table']}", "game": found["game"]}

    # ------------------------------------------------------------------ records of tournament games
    def record_check(self, conn: Connection, game_id: int) -> dict[str, Any] | None:
        """For a stored game: ``None`` unless it was dealt in a tournament; else ``{"secret": hex}``
        once the tournament is finished (``None`` before). 409 ``tournament-in-play`` while its deal may
        still be played at another table: its Swiss round is not over; an arena not finished."""
        tt = db.tournament_tables
        row = conn.execute(sa.select(tt.c.tournament_id, tt.c.pairing).where(
            tt.c.table_id == sa.select(db.games.c.table_id).where(db.games.c.id == game_id).scalar_subquery())).first()
        if row is None:
            return None
        t = self._load(conn, row.tournament_id, lock=False)
        if t is None:
            return None
        if t.state == "finished":
            return {"secret": t.secret.hex()}
        deal = t.pairing(row.pairing).deal
        if t.system == "arena" or any(not p.done for p in t.pairings if p.deal == deal):
            raise in_play(game_id)
        return {"secret": None}

    # ------------------------------------------------------------------ tables
    async def _make_tables(self, tid: str) -> None:
        """Make the tables written and not made yet (by this worker's change just now, or by a worker
        that died before it made them): an id made twice is made once."""
        async with self._making:
            await self._make_tables_now(tid)

    async def _make_tables_now(self, tid: str) -> None:
        tt = db.tournament_tables

        def read(conn: Connection) -> tuple[Tournament, list[Any]] | None:
            rows = list(conn.execute(sa.select(tt, db.tables.c.id.label("there"))
                                     .join(db.tables, db.tables.c.id == tt.c.table_id, isouter=True)
                                     .where(tt.c.tournament_id == tid, tt.c.made.is_(False))).mappings())
            t = self._load(conn, tid, lock=False) if rows else None
            return (t, rows) if t is not None else None

        found = await self.store.read(read)
        if found is None:
            return
        t, rows = found
        assert t.preset is not None
        for row in rows:
            seats = json.loads(row["seats"])
            requests = [SeatRequest(kind="bot", level=s["level"]) if "level" in s else SeatRequest(kind="person")
                        for s in seats]
            people = {i: (s["name"], hash_token(s["token"]), s["player"]) for i, s in enumerate(seats) if "token" in s}
            host = None
            try:
                if row["there"] is None:  # (made by another worker just now: only noted below)
                    host = await self.manager.lobby.create_seated(
                        table_id=row["table_id"], game=t.game, preset=t.preset, options=t.options, seats=requests,
                        people=people, rated=t.rated, deal_source=self.source(t.id, t.secret, row["deal"]))
            except Exception:
                log.exception("tournament %s: table %s could not be made; the next pass tries again", tid,
                              row["table_id"])
                continue
            await self.store.write(_made(row["table_id"]))
            if host is not None:
                self.made += 1
                if self.manager.keeper is not None:
                    await self.manager.keeper.let_go_if_people(host)
        self.changes.announce()

    def source(self, tid: str, secret: bytes, deal: int) -> DealSource:
        """The deals of a table of deal ``deal``: game k at the table (a match preset's later games) is
        the deal's k-th seed."""
        commitment = deals.commitment(secret, tid)

        def of(game: int) -> FixedDeal:
            return FixedDeal(deals.deal_seed(secret, tid, deal, game),
                             deals.fairness(tid, deal, commitment, None, game))

        return of

    def _source_of_stored(self, public: dict[str, Any]) -> DealSource | None:
        """A restored table's deal source, from its deal's public part (in a worker thread)."""
        if public.get("scheme") != deals.SCHEME:
            return None
        tid = str(public.get("tournament"))
        with self.store.engine.connect() as conn:
            secret = conn.execute(sa.select(db.tournaments.c.secret).where(db.tournaments.c.id == tid)).scalar()
        return None if secret is None else self.source(tid, bytes.fromhex(secret), int(public["deal"]))

    # ------------------------------------------------------------------ games' ends
    def _heard_end(self, table: TableHost, played: bool) -> None:
        """A table's end, as the lobby tells it (a tournament's tables are those dealt from outside)."""
        if table.core.deal_source is None:
            return
        job = asyncio.get_running_loop().create_task(self._settle_heard(table.id))
        self._jobs.add(job)
        job.add_done_callback(self._jobs.discard)

    async def _settle_heard(self, table_id: str) -> None:
        try:
            await self._settle(table_id)
        except Exception:  # the next pass finds the table's end in the database and tries again
            log.exception("table %s: its end could not be handed to its tournament", table_id)

    async def _settle(self, table_id: str) -> None:
        """Hand a table's stored end to its tournament (once: a result already in is left alone)."""
        tt = db.tournament_tables

        def read(conn: Connection) -> tuple[str, dict[str, Any]] | None:
            row = conn.execute(sa.select(tt).where(tt.c.table_id == table_id)).mappings().first()
            if row is None or row["result"] is not None:
                return None
            outcome = _outcome(conn, table_id, json.loads(row["seats"]))
            return (row["tournament_id"], outcome) if outcome is not None else None

        found = await self.store.read(read)
        if found is None:
            return
        tid, outcome = found

        def fn(t: Tournament, conn: Connection) -> None:
            row = conn.execute(sa.select(tt).where(tt.c.table_id == table_id)).mappings().first()
            if row is None or row["result"] is not None:
                return
            conn.execute(sa.update(tt).where(tt.c.table_id == table_id).values(
                result=json.dumps(outcome), game_id=outcome["gameId"]))
            now = self._now()
            t.record_result(row["pairing"], row["game"], winner=outcome["winner"], scores=outcome["scores"],
                            noshow=outcome["noShow"], now=now)
            if outcome["gameId"] is not None:
                t.attach_game(row["pairing"], row["game"], str(outcome["gameId"]))
            t.tick(now)  # an arena pairs its free entrants at once

        await self._change(tid, fn)
        await self._make_tables(tid)

    async def _look_at_tables(self, tid: str) -> None:
        """Tables of ``tid`` whose end nobody reported (their worker died just then), and tables whose
        persons did not all come within the grace time (told :class:`NoShow`: the absent lose)."""
        tt, t_, tables = db.tournament_tables, db.tournaments, db.tables

        def read(conn: Connection) -> list[dict[str, Any]]:
            q = (sa.select(tt.c.table_id, tt.c.created_at, tt.c.seats, tables.c.status, tables.c.start)
                 .join(tables, tables.c.id == tt.c.table_id)
                 .where(tt.c.tournament_id == tid, tt.c.made.is_(True), tt.c.result.is_(None)))
            out = [dict(r) for r in conn.execute(q).mappings()]
            state = conn.execute(sa.select(t_.c.state).where(t_.c.id == tid)).scalar()
            grace = Tournament.from_dict(json.loads(state)).grace if state else 60
            return [{**r, "grace": grace} for r in out]

        now = time.time()
        for row in await self.store.read(read):
            if row["status"] in ("finished", "abandoned"):
                await self._settle(row["table_id"])
                continue
            if not any("token" in s for s in json.loads(row["seats"])):
                continue
            dealt = json.loads(row["start"]).get("fair", {}).get("dealt")
            if dealt or row["created_at"] + row["grace"] * self.scale > now:
                continue
            host = await self.manager.lobby.local(row["table_id"])
            if host is not None:
                await host.submit(NoShow())


def _made(table_id: str) -> Callable[[Connection], None]:
    """The write that notes a tournament's table as made."""
    tt = db.tournament_tables

    def write(conn: Connection) -> None:
        conn.execute(sa.update(tt).where(tt.c.table_id == table_id).values(made=True))

    return write


def _group(t: Tournament) -> str:
    """The rules group a tournament's games are rated in."""
    return rating.rating_group(t.game, t.preset or get_game(t.game).default_preset, t.options, 2).name


def _level_rating(t: Tournament, level: str) -> float:
    """A computer entrant's place in the field's order: its level's measured ``mu`` (0: unmeasured)."""
    measured = rating.level_table().get(_group(t), {}).get(level)
    return float(measured[0]) if measured else 0.0


def _address_lock(address: str) -> int:
    """The advisory lock that lines up one address's new tournaments (apart from its tables' and seeks')."""
    return int.from_bytes(hashlib.sha256(b"spite-tournaments:" + address.encode()).digest()[:8], "big", signed=True)


def _outcome(conn: Connection, table_id: str, seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A finished or closed table's result by seat: who won (``None``: a draw), each seat's score when
    its game gives one, the seats that never came (a no-show forfeit; a table closed while its persons
    were away), the game's id. ``None`` while the table plays."""
    tables, gp = db.tables, db.game_players
    row = conn.execute(sa.select(tables.c.status, tables.c.series, tables.c.start)
                       .where(tables.c.id == table_id)).mappings().first()
    if row is None or row["status"] not in ("finished", "abandoned"):
        return None
    persons = [i for i, s in enumerate(seats) if "token" in s]
    if row["status"] == "abandoned":  # closed unplayed: whoever aborted it (a rated table), else its persons
        aborted = set(conn.execute(sa.select(db.aborts.c.player_id).where(db.aborts.c.table_id == table_id)).scalars())
        left = [i for i in persons if seats[i].get("player") in aborted] or persons
        return {"winner": None, "scores": None, "noShow": left, "gameId": None}
    series = json.loads(row["series"] or "{}")
    wins = list(series.get("wins") or [0, 0])
    ids = series.get("gameIds") or []
    game_id = ids[-1] if ids else None
    forfeit = json.loads(row["start"]).get("forfeit") or {}
    absent = sorted(forfeit.get("left", [])) if forfeit.get("why") == "no-show" else []
    winners = [seat for seat, w in enumerate(wins) if w]
    winner = winners[0] if len(winners) == 1 and winners[0] not in absent else None
    scores = None
    if game_id is not None and not forfeit:
        points = {r.seat: r.points for r in conn.execute(sa.select(gp.c.seat, gp.c.points)
                                                          .where(gp.c.game_id == game_id))}
        if len(points) == len(seats) and any(points.values()):
            scores = [float(points[i]) for i in range(len(seats))]
    return {"winner": winner, "scores": scores, "noShow": absent, "gameId": game_id}
