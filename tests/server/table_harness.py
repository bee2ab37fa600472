"""A table's core run in memory: a fake clock, a store of dictionaries, connections that keep what
they were sent, bots that answer at once. No socket, no database, no sleep.

:class:`Harness` builds a table exactly as the lobby does (:func:`spite.server.lobby.plan_table`),
feeds it inputs, answers its effects, and lets the fake clock run to each deadline the core names,
so that every timer fires at its very moment. :meth:`Harness.restarted` builds the table again from
what was stored, as a server restarted after ``kill -9`` would (:meth:`Harness.restart` goes on with
it). :func:`play_out` and :func:`play_realtime` play the persons' seats at random to a game's end.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from spite.server.config import ServerConfig
from spite.server.lobby import plan_table, restored_core, server_game, table_rows
from spite.server.protocol import (
    Ack,
    ErrorMessage,
    GameOver,
    HintRequest,
    MoveMessage,
    NextGame,
    RematchRequest,
    RematchState,
    SeatRequest,
    StateMessage,
    Sync,
    TableMessage,
    UndoMessage,
    Welcome,
)
from spite.server.table.core import TableCore
from spite.server.table.effects import (
    Close,
    Counted,
    DeleteMoves,
    Finished,
    Gone,
    Hello,
    Hint,
    Input,
    InsertAbort,
    InsertGame,
    InsertMove,
    Join,
    Leave,
    Request,
    Send,
    Store,
    Stored,
    StoredTable,
    Think,
    Thought,
    Tick,
    UpdateSeat,
    UpdateTable,
)
from spite.server.table.fair import DealSource
from spite.server.table.seats import Seat, hash_token
from waiting import bounded

START = 1000.0
"""The fake clock's first reading (the core's clock has no epoch)."""


def config(**changes: Any) -> ServerConfig:
    """The server settings the harness's tables use: no pause for bots, no countdown unless asked."""
    base = {"bot_delay": 0.0, "start_countdown": 0.0, "grace_seconds": 60.0, "turn_seconds": 90.0,
            "turn_warning": 15.0, "idle_seconds": 30.0, "abandon_seconds": 600.0, "next_game_seconds": 30.0}
    return ServerConfig(db_url="sqlite://", bot_workers=0, **{**base, **changes})


class MemoryStore:
    """The database of one table, as dictionaries; each write is all or nothing. ``fail`` makes the
    next that many writes fail (the database refused the commit)."""

    def __init__(self, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
        self.row = dict(row)
        self.seats = {s["seat"]: dict(s) for s in seats}
        self.moves: dict[int, list[Any]] = {}
        self.games: list[dict[str, Any]] = []
        self.aborts: list[str] = []
        """The players whose rated games were aborted (:class:`InsertAbort`)."""
        self.fail = 0
        self.commits = 0
        self.refused = 0
        """Commits refused so far (``fail``)."""

    def write(self, rows: tuple[Any, ...]) -> Stored:
        if self.fail > 0:
            self.fail -= 1
            self.refused += 1
            return Stored(False, error="the database refused the commit (a test's failure)")
        row, seats, moves, games, aborts = copy.deepcopy((self.row, self.seats, self.moves, self.games, self.aborts))
        game_id: int | None = None
        for r in rows:
            if isinstance(r, InsertMove):
                if r.ply in moves:
                    return Stored(False, error=f"ply {r.ply} is stored already")
                moves[r.ply] = list(r.entries)
            elif isinstance(r, UpdateTable):
                values = dict(r.values)
                for name in r.game_id_in:
                    data = json.loads(values[name])
                    data["gameIds"] = [*data.get("gameIds", []), *([game_id] if game_id is not None else [])]
                    values[name] = json.dumps(data)
                row.update(values)
            elif isinstance(r, UpdateSeat):
                seats[r.seat].update(r.values)
            elif isinstance(r, DeleteMoves):
                moves = {ply: e for ply, e in moves.items() if ply < r.from_ply}
            elif isinstance(r, InsertGame):
                game_id = len(games) + 1
                games.append({"id": game_id, "record": r.record, "players": r.players, "turns": r.turns,
                              "plies": r.plies, "result": r.result or r.record.get("result"),
                              "rating": r.rating})
                if r.finish:
                    row.update(status="finished", plies=r.plies)
            elif isinstance(r, InsertAbort):
                aborts.append(r.player_id)
            else:
                raise TypeError(r)
        self.row, self.seats, self.moves, self.games, self.aborts = row, seats, moves, games, aborts
        self.commits += 1
        return Stored(True, game_id)

    def stored_table(self) -> StoredTable:
        """The table as :meth:`spite.server.store.Store.load_tables` reads it back."""
        r = self.row
        plies = sorted(self.moves)
        assert plies == list(range(len(plies))), f"stored moves are not 0..n: {plies}"
        return StoredTable(
            id=r["id"], game=r["game"], preset=r["preset"], options=json.loads(r["options"]),
            seed=json.loads(r["seed"]), start=json.loads(r["start"]), status=r["status"], created_at=r["created_at"],
            seats=[Seat(seat=s["seat"], kind=s["kind"], level=s["level"], player=s["player"],
                              token_hash=s["token_hash"], controller=s["controller"], player_id=s.get("player_id"),
                              address=s.get("address"))
                   for _, s in sorted(self.seats.items())],
            moves=[self.moves[p] for p in plies], version_base=int(r.get("version_base") or 0),
            game_data=json.loads(r["game_data"]) if r.get("game_data") else None,
            series=json.loads(r["series"]) if r.get("series") else None, rated=bool(r.get("rated")))


MODELS = {"welcome": Welcome, "state": StateMessage, "ack": Ack, "table": TableMessage, "gameOver": GameOver,
          "error": ErrorMessage, "rematch": RematchState}
"""The protocol's model of every message a table's core sends (``hint`` and ``pong`` come from the host)."""


@dataclass
class Client:
    """One connection: everything it was sent (as text in :attr:`raw`, parsed in :attr:`received`),
    and whether it was closed."""

    conn: int
    seat: int | None = None
    received: list[dict[str, Any]] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)
    closed: int | None = None

    def last(self, kind: str) -> dict[str, Any] | None:
        return next((m for m in reversed(self.received) if m["type"] == kind), None)

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.received]

    def events(self) -> list[str]:
        return [m["event"]["kind"] for m in self.received if m["type"] == "table"]

    @property
    def position(self) -> dict[str, Any] | None:
        """The newest position this connection was shown (``welcome`` or ``state``)."""
        return next((m for m in reversed(self.received) if m["type"] in ("welcome", "state")), None)

    @property
    def legal(self) -> list[str]:
        pos = self.position
        return list(pos["legal"]) if pos is not None else []

    def check_models(self) -> None:
        """Every message this connection was sent is exactly one of the protocol's models (no field
        more, none missing)."""
        for msg in self.received:
            MODELS[msg["type"]].model_validate(msg)


class Harness:
    """One table in memory (see the module's text)."""

    def __init__(self, game: str = "spite-malice", preset: str | None = None, options: dict[str, Any] | None = None,
                 seats: list[SeatRequest] | None = None, settings: ServerConfig | None = None, seed: int = 0,
                 table_id: str = "T1", answer_bots: bool = True, rated: bool = False,
                 deal_source: DealSource | None = None) -> None:
        self.rng = random.Random(seed)
        self.config = settings or config()
        self.now = START
        self.answer_bots = answer_bots
        """Bots answer at once with a legal move; otherwise :attr:`thinking` keeps their questions."""
        self.thinking: list[Think] = []
        self.hints: list[Hint] = []
        self.sent: list[tuple[float, int, str]] = []
        """Every text sent: (time, connection, text)."""
        self.clients: dict[int, Client] = {}
        self.counted = 0
        self.finished = 0
        self.gone: list[str] = []
        self._next_conn = 1
        self.drawn: list[bytes] = []
        """Every secret the table drew, in order (from :meth:`entropy`, the seeded entropy it is given)."""
        self.deal_source = deal_source
        plan = plan_table(table_id, game, preset, options or {}, seats, join=False, entropy=self.entropy,
                          deal_source=deal_source)
        plan.rated = rated
        self.opening_fair = plan.opening.fair
        row, seat_rows = table_rows(table_id, game, plan, 0.0, "test")
        self.store = MemoryStore({**row, "version_base": 0}, seat_rows)
        self.core = plan.core(table_id, game, self.config, self.now, self.entropy)
        self.tokens: dict[int, str] = {}
        self.observer: Any = None
        """Called after every step (each deadline on the way included), to check invariants there."""
        self.first_info = self.core.info().model_dump()
        """The table as its creator's answer showed it (the commitment is published there)."""
        self._settle()

    def entropy(self, n: int) -> bytes:
        """The table's entropy: seeded, and every draw kept in :attr:`drawn`."""
        drawn = self.rng.randbytes(n)
        self.drawn.append(drawn)
        return drawn

    # ------------------------------------------------------------------ driving the core
    def step(self, inp: Input) -> Any:
        """Feed one input now; answer its effects; returns the step's answer."""
        answer = self._run(self.core.step(inp, self.now))
        self._observe()
        self._settle()
        return answer

    def _observe(self) -> None:
        if self.observer is not None:
            self.observer(self)

    def _run(self, step: Generator[Any, Any, Any]) -> Any:
        reply: Any = None
        for _ in bounded(100_000, "the end of the core's step (it kept yielding effects)"):
            try:
                effect = step.send(reply)
            except StopIteration as done:
                return done.value
            reply = None
            if isinstance(effect, Send):
                self.sent.append((self.now, effect.conn, effect.text))
                client = self.clients.get(effect.conn)
                if client is not None and client.closed is None:
                    client.raw.append(effect.text)
                    client.received.append(json.loads(effect.text))
            elif isinstance(effect, Close):
                client = self.clients.get(effect.conn)
                if client is not None and client.closed is None:
                    client.closed = effect.code
            elif isinstance(effect, Store):
                reply = self.store.write(effect.rows)
            elif isinstance(effect, Think):
                self.thinking.append(effect)
            elif isinstance(effect, Hint):
                self.hints.append(effect)
            elif isinstance(effect, Counted):
                self.counted += 1
            elif isinstance(effect, Finished):
                self.finished += 1
            elif isinstance(effect, Gone):
                self.gone.append(effect.reason)
            else:
                raise TypeError(effect)
        return None

    def _settle(self) -> None:
        """Bots answer what they were asked (instantly, a seeded legal move), until none is asked."""
        for _ in range(10_000):
            if not self.answer_bots or not self.thinking:
                return
            think = self.thinking.pop(0)
            legal = think.ask.legal
            move = self.rng.choice(legal) if legal else None
            self._run(self.core.step(Thought(think.seat, think.version, move), self.now))
            self._observe()

    def answer(self, think: Think, move: str | None) -> None:
        """A bot's answer to ``think`` (with ``answer_bots`` off)."""
        self.thinking.remove(think)
        self.step(Thought(think.seat, think.version, move))

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass: each deadline on the way fires at its moment."""
        until = self.now + seconds
        for _ in range(100_000):
            at = self.core.deadline()
            if at is None or at > until:
                break
            self.now = max(self.now, at)
            self.step(Tick())
        self.now = until
        self.step(Tick())

    def run_until(self, done: Any, seconds: float = 3600.0, dt: float = 1.0) -> None:
        """Let time pass in steps of ``dt`` until ``done()`` (at most ``seconds``)."""
        waited = 0.0
        while not done():
            assert waited < seconds, "it did not happen in time"
            self.advance(dt)
            waited += dt

    # ------------------------------------------------------------------ people
    def join(self, name: str, seat: int | None = None, player_id: str | None = None, address: str | None = None) -> int:
        """A person takes a free seat (from the address whose key is ``address``); its token is kept in
        :attr:`tokens`."""
        token = f"token-{name}-{len(self.tokens)}"
        taken: int = self.step(Join(name, hash_token(token), seat, player_id, address))
        self.tokens[taken] = token
        return taken

    def connect(self, seat: int | None = None, nonce: str | None = None, token: str | None = None) -> Client:
        """A new connection says hello: as ``seat``'s person (its token), or as a spectator."""
        conn = self._next_conn
        self._next_conn += 1
        client = Client(conn, seat)
        self.clients[conn] = client
        if seat is None and token is None:
            self.step(Hello(conn, spectate=True))
        else:
            self.step(Hello(conn, token if token is not None else self.tokens[seat], nonce=nonce))  # type: ignore[index]
        return client

    def leave(self, client: Client) -> None:
        client.closed = client.closed or 1000  # the socket is gone first; then the table hears of it
        self.step(Leave(client.conn))

    def send(self, client: Client, msg: Any) -> list[dict[str, Any]]:
        """A request from ``client``; returns what it was sent in answer."""
        before = len(client.received)
        self.step(Request(client.conn, msg))
        return client.received[before:]

    def move(self, client: Client, move: str, version: int | None = None,
             msg_id: str | None = "m") -> list[dict[str, Any]]:
        v = self.core.version if version is None else version
        return self.send(client, MoveMessage(type="move", move=move, stateVersion=v, id=msg_id))

    def undo(self, client: Client, version: int | None = None, msg_id: str | None = "u") -> list[dict[str, Any]]:
        v = self.core.version if version is None else version
        return self.send(client, UndoMessage(type="undo", stateVersion=v, id=msg_id))

    def sync(self, client: Client) -> list[dict[str, Any]]:
        return self.send(client, Sync(type="sync"))

    def hint(self, client: Client, msg_id: str | None = "h") -> list[dict[str, Any]]:
        return self.send(client, HintRequest(type="hint", id=msg_id))

    def next(self, client: Client, nonce: str | None = None) -> list[dict[str, Any]]:
        return self.send(client, NextGame(type="next", nonce=nonce))

    def rematch(self, client: Client, accept: bool = True, nonce: str | None = None) -> list[dict[str, Any]]:
        return self.send(client, RematchRequest(type="rematch", accept=accept, nonce=nonce))

    # ------------------------------------------------------------------ looking
    def seat(self, n: int) -> Seat:
        return self.core.seats[n]

    def restart(self) -> None:
        """The server dies (``kill -9``) and comes back: every connection is gone (1006), and the table
        goes on as it was rebuilt from what was stored."""
        for client in self.clients.values():
            if client.closed is None:
                client.closed = 1006
        self.core = self.restarted()
        self._settle()

    def restarted(self) -> TableCore:
        """The table rebuilt from what was stored, as after ``kill -9`` (nobody connected)."""
        st = self.store.stored_table()
        opening = server_game(st.game).restore(st)
        return restored_core(st, opening, self.config, self.now, self.now,
                             self.store.games[-1]["id"] if self.store.games else None, random.Random(1).randbytes,
                             self.deal_source)


def play_on(h: Harness, client: Client, moves: int = 1000, rng: random.Random | None = None) -> None:
    """``client``'s person plays random legal moves while it has any (bots answer in between)."""
    rng = rng or random.Random(5)
    for _ in range(moves):
        legal = client.legal
        if not legal or h.core.state.is_over:
            return
        h.move(client, rng.choice(legal))


def play_out(h: Harness, clients: list[Client], rng: random.Random, moves: int = 10_000) -> int:
    """The persons of a turn game play random legal moves, the seat to move each time, until the game
    is over (or ``moves`` were played); the time passes for the bots in between. Returns the moves played."""
    played = 0
    for _ in bounded(2 * moves + 10_000, "the game's end (the seats had no move for long)",
                     until=lambda: h.core.state.is_over):
        if played >= moves:
            break
        mover = next((c for c in clients if c.closed is None and c.legal), None)
        if mover is None:  # a bot's turn (or the deal): let its delay pass
            h.advance(max(h.config.bot_delay, 0.1))
            continue
        h.move(mover, rng.choice(mover.legal))
        played += 1
    return played


def play_realtime(h: Harness, clients: list[Client], rng: random.Random, every: float = 0.05,
                  seconds: float = 600.0) -> dict[str, Any]:
    """A real-time game: every ``every`` seconds each person plays a random move of their newest
    position, until the game is over; the first client's ``gameOver``."""
    waited = 0.0
    while not h.core.state.is_over:
        assert waited < seconds, "the game did not end in time"
        h.advance(every)
        waited += every
        for client in clients:
            if client.closed is None and client.legal and not h.core.state.is_over:
                h.move(client, rng.choice(client.legal))
    over = clients[0].last("gameOver")
    assert over is not None
    return over
