"""The table's promises as invariants, over every registered game (Hypothesis stateful tests on the
in-memory core with a fake clock, tests/server/table_harness.py), whatever the seats send and
whenever: legal, stale and illegal moves, undo, hints, next, rematch, reconnects, silence, a
database that refuses a commit, a restart.

* **Nobody holds a table.** A person seat with something to do is taken over by a bot no later than
  its clock allows: in a turn game ``turn_seconds`` after its turn began (or its person took it back),
  in real time ``idle_seconds`` after its last move while it held a move it could make; warned
  ``turn_warning`` seconds before. A person who left is replaced (or a quick-play table closed) no
  later than the grace time after; a table waits for its players' first hello no longer than that.
* **Nobody loses a seat early.** A connected person is taken over only when their clock ran out,
  and a person whose seat a bot plays gets it back by making a move (even a stale one).

The seats are driven as the outside audit's griefers did (issue 39): a build play and its undo in a
rhythm (in real time: a move in a rhythm), stale moves after a takeover, silence while holding a
playable card (asking for hints and syncs, sending refused moves); each clock rule changed by hand
fails the machine within its first examples.
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
import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule
from table_harness import Client, Harness, config

import fourth_game
from spite.games import game_names, get_game
from spite.server.lobby import served_games
from spite.server.protocol import SeatRequest
from spite.server.table.fair import FairDeal

pytestmark = pytest.mark.timeout(300)
"""Each game's machine takes seconds; on a machine busy with other work it took over a minute."""

TIMES = {"turn_seconds": 20.0, "turn_warning": 5.0, "idle_seconds": 10.0, "grace_seconds": 15.0,
         "abandon_seconds": 40.0, "next_game_seconds": 10.0, "bot_delay": 0.5}
"""Short clocks, so that a few dozen steps see every rule fire."""

EPS = 1e-6
"""The fake clock's rounding: timers fire at their very moment."""

RETRY = 1.0
"""How long a refused commit holds the table's timers (the database is in trouble): the slack of a
clock for each refusal."""

TABLES: dict[str, list[tuple[str | None, dict[str, Any], str]]] = {
    "spite-malice": [("short", {"stock_size": 4}, "random"), ("classic", {"match_target": 2, "stock_size": 2}, "easy")],
    "spit": [(None, {"time_limit_s": 120}, "reflex:400")],
    "speed": [(None, {"time_limit_s": 120}, "reflex:400")],
    # the fourth game (tests/fourth_game), registered only while its machine runs
    fourth_game.NAME: [(None, {}, "random"), ("pebbles-quick", {}, "random")],
}
"""The tables each game is tried at (its presets, options and the bot that sits at its bot seats)."""


def test_every_served_game_is_tried() -> None:
    assert set(TABLES) - {fourth_game.NAME} == set(served_games()) == set(game_names())
    with fourth_game.registered():
        assert set(TABLES) == set(served_games()) == set(game_names())


class TablePromises(RuleBasedStateMachine):
    """One table of one game, its seats driven at random (see the module's text). Each game has a
    machine of its own (below): every game gets as many examples, and a failure names its game."""

    game: str

    def __init__(self) -> None:
        super().__init__()
        self.h: Harness
        self.clients: dict[int, Client] = {}
        self.nonces: dict[int, str] = {}
        self.since: dict[int, float] = {}
        """When each person seat came to have something to do (its clock's start, as a person sees it)."""
        self.busy: dict[int, bool] = {}
        self.refused_since: dict[int, int] = {}
        self.away: dict[int, tuple[float, int]] = {}
        """Each person seat whose person is not connected while it is theirs: since when (and the refused
        commits by then)."""
        self.present: dict[int, float] = {}
        """Each person seat whose person is connected: since when, without a break."""
        self.controller: dict[int, str] = {}
        self.warned: dict[int, float] = {}
        """When each seat was last warned that its clock runs out (``turn-clock``)."""
        self.playing_since: float | None = None
        self.commitments: dict[int, str] = {}
        self.secrets: dict[int, str] = {}
        self.checked = 0
        self.acked: set[int] = set()
        """The connections acknowledged a move (or an undo) in the core's last step."""

    # ------------------------------------------------------------------ the table
    @initialize(which=st.integers(0, 1), people=st.integers(1, 2), seed=st.integers(0, 2**16),
                countdown=st.sampled_from([0.0, 2.0]))
    def setup(self, which: int, people: int, seed: int, countdown: float) -> None:
        game = self.game
        preset, options, level = TABLES[game][which % len(TABLES[game])]
        seats = get_game(game).seats(preset, options)
        requests = [SeatRequest(kind="person")] * people + [SeatRequest(kind="bot", level=level)] * (seats - people)
        self.realtime = get_game(game).realtime
        self.limit = TIMES["idle_seconds"] if self.realtime else TIMES["turn_seconds"]
        self.h = Harness(game, preset, options, seats=requests, settings=config(**TIMES, start_countdown=countdown),
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

    def _move(self, client: Client, move: str, version: int | None = None) -> None:
        """``client`` sends a move; a person whose seat a bot plays gets it back by it (a stale or
        refused move too), unless the database refused that."""
        seat = self.h.seat(client.seat or 0)
        taken = seat.kind == "person" and seat.controller == "bot" and self.h.core.status in ("playing", "finished")
        refused = self.h.store.refused
        self.h.move(client, move, version=version)
        if taken and client.closed is None and self.h.store.refused == refused:
            assert seat.controller == "person", f"seat {seat.seat}'s person moved and did not get the seat back"

    def _stale(self) -> int:
        return max(0, self.h.core.version - 1)

    @rule(dt=st.floats(0.05, 25.0))
    def wait(self, dt: float) -> None:
        self.h.advance(dt)

    @rule(seat=st.integers(0, 1), pick=st.integers(0, 10_000))
    def legal_move(self, seat: int, pick: int) -> None:
        client = self._client(seat)
        if client is not None and client.legal:
            self._move(client, client.legal[pick % len(client.legal)])

    @rule(seat=st.integers(0, 1), pick=st.integers(0, 10_000))
    def stale_move(self, seat: int, pick: int) -> None:
        client = self._client(seat)
        if client is not None and client.legal:
            self._move(client, client.legal[pick % len(client.legal)], version=self._stale())

    @rule(seat=st.integers(0, 1), move=st.sampled_from(["H9-B9", "pass", "spit", "T1-C1", "slap C1", "S-B1"]))
    def odd_move(self, seat: int, move: str) -> None:
        client = self._client(seat)
        if client is not None:
            self._move(client, move)

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

    # ------------------------------------------------------------------ the audit's griefers
    @rule(seat=st.integers(0, 1), pause=st.floats(0.5, 9.0), beats=st.integers(2, 12), pick=st.integers(0, 10_000))
    def build_and_undo_in_a_rhythm(self, seat: int, pause: float, beats: int, pick: int) -> None:
        """Every ``pause`` seconds a build play, then its undo, then the build play again...: the turn
        never ends, the position keeps changing (in real time: a move every ``pause`` seconds, which
        does keep the seat)."""
        client = self._client(seat)
        for _ in range(beats):
            if client is None or client.closed is not None:
                return
            self.h.advance(pause)
            position = client.position
            if position is not None and position.get("game", {}).get("canUndo"):
                self.h.undo(client)
                continue
            # a build play from the hand (Spite and Malice's notation: H<card>-B<pile>) keeps the turn
            builds = [m for m in client.legal if m.startswith("H") and "-B" in m] or (
                client.legal if self.realtime else [])
            if builds:
                self._move(client, builds[pick % len(builds)])

    @rule(seat=st.integers(0, 1), pick=st.integers(0, 10_000), silence=st.floats(0.0, 30.0))
    def stale_move_after_a_takeover(self, seat: int, pick: int, silence: float) -> None:
        """The person waits until a bot plays the seat, takes it back with a stale move, then says
        nothing for ``silence`` seconds: the clock runs for the seat again."""
        client = self._client(seat)
        if client is None:
            return
        n = client.seat or 0
        for _ in range(int(self.limit) + 2):  # a busy seat's clock runs out within its limit
            if self.h.seat(n).controller == "bot" or self.h.core.status != "playing":
                break
            self.h.advance(1.0)
        if client.closed is None:
            self._move(client, (client.legal or ["pass"])[pick % max(1, len(client.legal))], version=self._stale())
            self.h.advance(silence)

    @rule(seat=st.integers(0, 1), seconds=st.integers(1, 30),
          what=st.sampled_from(["sync", "hint", "refused move", "stale undo"]))
    def silence_while_holding_a_playable_card(self, seat: int, seconds: int, what: str) -> None:
        """For ``seconds`` seconds the person makes no move but keeps talking to the table every second:
        none of it is a move, none of it keeps the seat."""
        client = self._client(seat)
        for _ in range(seconds):
            if client is None or client.closed is not None:
                return
            self.h.advance(1.0)
            if what == "sync":
                self.h.sync(client)
            elif what == "hint":
                self.h.hint(client)
            elif what == "refused move":
                self._move(client, "H9-B9" if not self.realtime else "slap C9")
            else:
                self.h.undo(client, version=self._stale())

    # ------------------------------------------------------------------ connections, the database, restarts
    @rule(seat=st.integers(0, 1))
    def drop(self, seat: int) -> None:
        client = self._client(seat)
        if client is not None:
            self.h.leave(client)

    @rule(seat=st.integers(0, 1), away=st.floats(0.0, 40.0))
    def gone_for_a_while(self, seat: int, away: float) -> None:
        """The person's connection drops; they come back ``away`` seconds later (to a bot in their seat,
        or a closed table, when that was longer than the grace time)."""
        client = self._client(seat)
        if client is not None:
            self.h.leave(client)
            self.h.advance(away)
            self.come_back(client.seat or 0)

    @rule(seat=st.integers(0, 1))
    def come_back(self, seat: int) -> None:
        seat = seat % max(1, len(self.nonces))
        if seat not in self.h.tokens or (self.clients.get(seat) and self.clients[seat].closed is None):
            return
        if self.h.core.status == "abandoned":
            return
        refused = self.h.store.refused
        client = self.h.connect(seat, nonce=self.nonces[seat])
        self.clients[seat] = client
        if self.h.core.status in ("playing", "finished") and self.h.store.refused == refused:
            assert self.h.seat(seat).controller == "person", f"seat {seat}'s person came back to a bot"
        welcome = client.last("welcome")
        if welcome is not None and self.h.core.is_dealt and self.h.core.live(self.h.now):
            again = self.h.restarted()
            assert welcome["view"] == again.view.view_for(seat)[0], "a reconnect sees another view than a restart would"

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
                assert again.view.view_for(seat) == core.view.view_for(seat)

    # ------------------------------------------------------------------ after every step of the core
    def observe(self, h: Harness) -> None:
        core = h.core
        now = h.now
        self._check_sent(h)
        # the clocks, as a person sees them: when a seat came to have something to do
        live = (core.status == "playing" and core.is_dealt and not core.state.is_over and not core.series.between
                and core.live(now))
        acting = set(core.state.to_act()) if live else set()
        for seat in core.seats:
            n = seat.seat
            if seat.kind != "person":
                continue
            connected = any(c.seat == n and c.closed is None for c in h.clients.values())
            was = self.controller.get(n, seat.controller)
            self.controller[n] = seat.controller
            if was == "person" and seat.controller == "bot":
                self._check_takeover(n, now, connected)
            if connected:
                self.present.setdefault(n, now)
            else:
                self.present.pop(n, None)
            busy = n in acting and seat.is_person and (not self.realtime or bool(core.state.legal_moves(n)))
            client = self.clients.get(n)
            moved = client is not None and client.conn in self.acked
            if busy and (not self.busy.get(n) or (self.realtime and moved)):
                self.since[n] = now
                self.refused_since[n] = h.store.refused
            self.busy[n] = busy
            if busy:
                # a refused commit holds the table's timers for a second (the database is in trouble)
                slack = (h.store.refused - self.refused_since[n]) * RETRY
                held = now - self.since[n]
                assert held <= self.limit + slack + EPS, f"seat {n} held the table {held:.2f} s"
            # a person who left: replaced (or the quick-play table closed) when the grace time is over
            if core.status == "playing" and seat.is_person and not connected:
                since, refused = self.away.setdefault(n, (now, h.store.refused))
                slack = (h.store.refused - refused) * RETRY
                assert now - since <= TIMES["grace_seconds"] + slack + EPS, \
                    f"seat {n}'s person has been gone {now - since:.2f} s and the seat is still waiting for them"
            else:
                self.away.pop(n, None)
        if core.status == "playing" and self.playing_since is None:
            self.playing_since = now
        if core.status == "playing" and not core.is_dealt:
            slack = h.store.refused * RETRY
            assert self.playing_since is not None
            assert now - self.playing_since <= TIMES["grace_seconds"] + slack + EPS
        # the commitments: each game's, from the first time it was published, never another
        for fair in (core.fair, core.fair_next):
            if fair is None:
                continue
            assert self.commitments.setdefault(fair.game, fair.commitment) == fair.commitment
            self.secrets[fair.game] = fair.secret.hex()
        if self.acked and core.rows:
            again = h.restarted()
            assert again.version == core.version, "an acknowledged change is not stored"

    def _check_takeover(self, n: int, now: float, connected: bool) -> None:
        """A bot took seat ``n`` over just now: its clock ran out (and it was warned), or its person
        left at least the grace time ago; never earlier, never later."""
        slack = (self.h.store.refused - self.refused_since.get(n, 0)) * RETRY
        held = now - self.since[n] if self.busy.get(n) else 0.0
        assert held <= self.limit + slack + EPS, f"seat {n} held the table {held:.2f} s"
        clock_out = self.busy.get(n, False) and held >= self.limit - EPS
        if connected:
            assert clock_out, f"seat {n} was taken over from its connected person after {held:.2f} s (of {self.limit})"
            # warned when the warning was due, if the person was there to hear it
            warning = TIMES["turn_warning"]
            if self.present[n] < self.since[n] + self.limit - warning - EPS:
                warned = self.warned.get(n)
                assert warned is not None and warned >= self.since[n], f"seat {n} was taken over without a warning"
                into = warned - self.since[n]
                assert self.limit - warning - EPS <= into <= self.limit - warning + slack + EPS, \
                    f"seat {n} was warned {into:.2f} s into its clock, not {warning:g} s before its {self.limit:g} s"
        else:
            gone = now - self.away[n][0] if n in self.away else 0.0
            assert clock_out or gone >= TIMES["grace_seconds"] - EPS, \
                f"seat {n} was taken over {gone:.2f} s after its person left (grace {TIMES['grace_seconds']:g} s)"

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
        self.acked = set()
        if not new:
            return
        allowed = self._revealable(h.core.fair)
        hidden = set(self.secrets.values()) - allowed
        for at, conn, text in new:
            for secret in hidden:
                assert secret not in text, "a secret went out before its game was over"
            msg = json.loads(text)
            if msg["type"] == "ack":
                self.acked.add(conn)
            event = msg.get("event") if msg["type"] == "table" else None
            if event is not None and event["kind"] == "turn-clock":
                self.warned[event["seat"]] = at
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


# Deterministic (CI runs the same examples every time, never a flaky new one) and quick: a few
# seconds a game, enough examples that each clock rule changed by hand fails within them (the
# module's text). No shrinking: a broken rule fails with the first example that shows it, in
# seconds, rather than after minutes spent making that example smaller (it is short already, and
# derandomized: the same steps every run).
PROMISES = settings(max_examples=100, stateful_step_count=30, deadline=None, derandomize=True, database=None,
                    phases=(Phase.explicit, Phase.generate),
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

class _Registered:
    """A machine's test case for the fourth game: the game registered (as a family is) while it runs."""

    @classmethod
    def setUpClass(cls) -> None:
        cls._registered = fourth_game.registered()
        cls._registered.__enter__()

    @classmethod
    def tearDownClass(cls) -> None:
        cls._registered.__exit__(None, None, None)


for _game in sorted(TABLES):
    _machine = type(f"TablePromises_{_game.replace('-', '_')}", (TablePromises,), {"game": _game})
    _machine.TestCase.settings = PROMISES
    _case = _machine.TestCase if _game != fourth_game.NAME else type(
        f"{_machine.__name__}_registered", (_Registered, _machine.TestCase), {})
    globals()[f"test_table_promises_{_game.replace('-', '_')}"] = _case
