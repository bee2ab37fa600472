"""The table's promises as invariants, over every registered game (Hypothesis stateful tests on the
in-memory core with a fake clock, tests/server/table_harness.py), whatever the seats send and
whenever: legal, stale and illegal moves, undo, hints, next, rematch, reconnects, silence, a
database that refuses a commit, a restart.

* **Nobody holds a table.** A person seat with something to do is taken over by a bot no later than
  its clock allows: in a turn game ``turn_seconds`` after its turn began (or its person took it back),
  in real time ``idle_seconds`` after its last move while it held a move it could make. A table
  waits for its players' first hello no longer than the grace time.
* **Nothing is shown too early.** The commitment a table publishes when it is made (or when the game
  before ends) is the one every later message names for that game; no message carries a game's
  secret before that game is over (an abandoned dealt game never), and no seat is ever sent another
  seat's hand.
* **Nothing acknowledged is lost.** At every ``ack`` the store holds the move: the table rebuilt from
  the store (a restart) is at the same version, with the same position; a reconnect is welcomed
  with the view a restarted server would show.
"""

from __future__ import annotations

import json
from typing import Any

import hypothesis.strategies as st
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from table_harness import Client, Harness, config

from spite.games import game_names, get_game
from spite.server.lobby import served_games
from spite.server.protocol import SeatRequest
from spite.server.table.fair import FairDeal

TIMES = {"turn_seconds": 20.0, "turn_warning": 5.0, "idle_seconds": 10.0, "grace_seconds": 15.0,
         "abandon_seconds": 40.0, "next_game_seconds": 10.0, "bot_delay": 0.5}
"""Short clocks, so that a few dozen steps see every rule fire."""

TABLES: dict[str, list[tuple[str | None, dict[str, Any], str]]] = {
    "spite-malice": [("short", {"stock_size": 4}, "random"), ("classic", {"match_target": 2, "stock_size": 2}, "easy")],
    "spit": [(None, {"time_limit_s": 120}, "reflex:400")],
    "speed": [(None, {"time_limit_s": 120}, "reflex:400")],
}
"""The tables each game is tried at (its presets, options and the bot that sits at its bot seats)."""


def test_every_served_game_is_tried() -> None:
    assert set(TABLES) == set(served_games()) == set(game_names())


class TablePromises(RuleBasedStateMachine):
    """One table of one game, its seats driven at random (see the module's text)."""

    def __init__(self) -> None:
        super().__init__()
        self.h: Harness
        self.clients: dict[int, Client] = {}
        self.nonces: dict[int, str] = {}
        self.since: dict[int, float] = {}
        self.busy: dict[int, bool] = {}
        self.refused_since: dict[int, int] = {}
        self.playing_since: float | None = None
        self.commitments: dict[int, str] = {}
        self.secrets: dict[int, str] = {}
        self.checked = 0
        self.acks_seen: dict[int, int] = {}
        self.failures: list[str] = []

    # ------------------------------------------------------------------ the table
    @initialize(game=st.sampled_from(sorted(TABLES)), which=st.integers(0, 1), people=st.integers(1, 2),
                seed=st.integers(0, 2**16), countdown=st.sampled_from([0.0, 2.0]))
    def setup(self, game: str, which: int, people: int, seed: int, countdown: float) -> None:
        preset, options, level = TABLES[game][which % len(TABLES[game])]
        seats = get_game(game).seats(preset, options)
        requests = [SeatRequest(kind="person")] * people + [SeatRequest(kind="bot", level=level)] * (seats - people)
        self.realtime = get_game(game).realtime
        self.h = Harness(game, preset, options, seats=requests, settings=config(**TIMES, spit_countdown=countdown),
                         seed=seed)
        self.h.observer = self.observe
        self.commitments[1] = self.h.first_info["fair"]["commitment"]
        for seat in range(people):
            self.h.join(f"p{seat}")
            self.nonces[seat] = f"{seat + 1:02x}" * 16
        for seat in range(people):
            self.clients[seat] = self.h.connect(seat, nonce=self.nonces[seat])

    # ------------------------------------------------------------------ what the seats do
    def _client(self, seat: int) -> Client | None:
        client = self.clients.get(seat % max(1, len(self.clients)))
        return client if client is not None and client.closed is None else None

    @rule(dt=st.floats(0.05, 25.0))
    def wait(self, dt: float) -> None:
        self.h.advance(dt)

    @rule(seat=st.integers(0, 1), pick=st.integers(0, 10_000))
    def legal_move(self, seat: int, pick: int) -> None:
        client = self._client(seat)
        if client is not None and client.legal:
            self.h.move(client, client.legal[pick % len(client.legal)])

    @rule(seat=st.integers(0, 1), pick=st.integers(0, 10_000))
    def stale_move(self, seat: int, pick: int) -> None:
        client = self._client(seat)
        if client is not None and client.legal:
            self.h.move(client, client.legal[pick % len(client.legal)], version=max(0, self.h.core.version - 1))

    @rule(seat=st.integers(0, 1), move=st.sampled_from(["H9-B9", "pass", "spit", "T1-C1", "slap C1", "S-B1"]))
    def odd_move(self, seat: int, move: str) -> None:
        client = self._client(seat)
        if client is not None:
            self.h.move(client, move)

    @rule(seat=st.integers(0, 1), what=st.sampled_from(["undo", "hint", "sync", "next", "rematch", "decline"]))
    def request(self, seat: int, what: str) -> None:
        client = self._client(seat)
        if client is None:
            return
        if what == "undo":
            self.h.undo(client)
        elif what == "hint":
            self.h.hint(client)
        elif what == "sync":
            self.h.sync(client)
        elif what == "next":
            self.h.next(client, nonce=self.nonces.get(client.seat or 0))
        else:
            self.h.rematch(client, accept=what == "rematch", nonce=self.nonces.get(client.seat or 0))

    @rule(seat=st.integers(0, 1))
    def drop(self, seat: int) -> None:
        client = self._client(seat)
        if client is not None:
            self.h.leave(client)

    @rule(seat=st.integers(0, 1))
    def come_back(self, seat: int) -> None:
        seat = seat % max(1, len(self.nonces))
        if seat not in self.h.tokens or (self.clients.get(seat) and self.clients[seat].closed is None):
            return
        if self.h.core.status == "abandoned":
            return
        client = self.h.connect(seat, nonce=self.nonces[seat])
        self.clients[seat] = client
        welcome = client.last("welcome")
        if welcome is not None and self.h.core.is_dealt and self.h.core.live(self.h.now):
            again = self.h.restarted()
            assert welcome["view"] == again.view_for(seat)[0], "a reconnect sees another view than a restart would"

    @rule()
    def watch(self) -> None:
        self.h.connect()

    @rule()
    def database_refuses_once(self) -> None:
        self.h.store.fail = 1

    @rule()
    def restart_shows_the_same(self) -> None:
        again = self.h.restarted()
        core = self.h.core
        assert again.version == core.version and again.status == core.status
        assert again.state.to_record().to_json() == core.state.to_record().to_json()
        if core.is_dealt and core.live(self.h.now):
            for seat in [None, *range(len(core.seats))]:
                assert again.view_for(seat) == core.view_for(seat)

    # ------------------------------------------------------------------ after every step of the core
    def observe(self, h: Harness) -> None:
        core = h.core
        now = h.now
        # the clocks, as a person sees them: when a seat came to have something to do
        live = (core.status == "playing" and core.is_dealt and not core.state.is_over and not core.between
                and core.live(now))
        acting = set(core.state.to_act()) if live else set()
        for seat in core.seats:
            n = seat.seat
            busy = n in acting and seat.is_person and (not self.realtime or bool(core.state.legal_moves(n)))
            client = self.clients.get(n)
            acks = sum(1 for m in client.received if m["type"] == "ack") if client is not None else 0
            moved = client is not None and acks > self.acks_seen.get(client.conn, 0)
            if client is not None:
                self.acks_seen[client.conn] = acks
            if busy and (not self.busy.get(n) or (self.realtime and moved)):
                self.since[n] = now
                self.refused_since[n] = h.store.refused
            self.busy[n] = busy
            if busy:
                limit = TIMES["idle_seconds"] if self.realtime else TIMES["turn_seconds"]
                # a refused commit holds the table's timers for a second (the database is in trouble)
                slack = (h.store.refused - self.refused_since[n]) * 1.0
                held = now - self.since[n]
                assert held <= limit + slack + 1e-6, f"seat {n} held the table {held:.2f} s"
        if core.status == "playing" and self.playing_since is None:
            self.playing_since = now
        if core.status == "playing" and not core.is_dealt:
            slack = h.store.refused * 1.0
            assert self.playing_since is not None
            assert now - self.playing_since <= TIMES["grace_seconds"] + slack + 1e-6
        # the commitments: each game's, from the first time it was published, never another
        for fair in (core.fair, core.fair_next):
            if fair is None:
                continue
            assert self.commitments.setdefault(fair.game, fair.commitment) == fair.commitment
            self.secrets[fair.game] = fair.secret.hex()
        self._check_sent(h)
        if any(m["type"] == "ack" for c in self.clients.values() for m in c.received[-3:]) and core.rows:
            again = h.restarted()
            assert again.version == core.version, "an acknowledged change is not stored"

    def _revealable(self, fair: FairDeal | None) -> set[str]:
        core = self.h.core
        out = {s for g, s in self.secrets.items() if core.fair is not None and g < core.fair.game}
        over = fair is not None and fair.dealt and core.state.is_over
        if fair is not None and (over or (core.status == "abandoned" and not fair.dealt)):
            out.add(fair.secret.hex())
        return out

    def _check_sent(self, h: Harness) -> None:
        new = h.sent[self.checked:]
        self.checked = len(h.sent)
        if not new:
            return
        allowed = self._revealable(h.core.fair)
        hidden = set(self.secrets.values()) - allowed
        for _, conn, text in new:
            for secret in hidden:
                assert secret not in text, "a secret went out before its game was over"
            msg = json.loads(text)
            view = msg.get("view")
            if isinstance(view, dict):
                client = h.clients.get(conn)
                me = client.seat if client is not None else None
                for n, player in enumerate(view.get("players", [])):
                    if n != me:
                        assert player.get("hand") is None, f"seat {me} was sent seat {n}'s hand"

    @invariant()
    def commitments_agree_with_what_was_sent(self) -> None:
        for client in self.clients.values():
            for msg in client.received[-4:]:
                fair = msg.get("fair") or (msg.get("table") or {}).get("fair")
                if isinstance(fair, dict) and fair.get("game") in self.commitments:
                    assert fair["commitment"] == self.commitments[fair["game"]]


TablePromises.TestCase.settings = settings(max_examples=300, stateful_step_count=80, deadline=None,
                                           suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
test_table_promises = TablePromises.TestCase
