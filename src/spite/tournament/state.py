"""A tournament as a pure state machine: the server feeds it events and the time, and stores it.

Nothing here reads a clock, draws a random number or does I/O: every method that depends on the time
takes ``now`` (seconds since 1970, as the server's clock says), and the tournament's secret is drawn by
the server and passed to :meth:`Tournament.create`. The whole state is one JSON-able object
(:meth:`Tournament.to_dict`, :meth:`Tournament.from_dict`): the server keeps it in one row and, after a
restart, resumes it where it stood — a pairing once made is in that object, so nothing is paired twice.
``version`` goes up by one on every change (the long poll's ``since``).

The life of a tournament::

    open ──start(now)──▶ playing ──(the last round's games / the arena's end)──▶ finished

**Swiss** (``rounds`` rounds): :meth:`~Tournament.start` pairs round 1 at once; each pairing plays two
games on the round's deal, seats swapped (game 1's table is made at once, game 2's when game 1 has
ended: :meth:`~Tournament.tables_needed`). When both games of every pairing are in
(:meth:`~Tournament.record_result`), the round is over; the next is paired ``pause`` seconds later
(``nextRoundAt``; the server calls :meth:`~Tournament.tick` then, :meth:`~Tournament.wake_at` says when).
After the last round the tournament is finished and its secret is revealed.

**Arena** (``minutes``): whoever is free is paired at once (:meth:`~Tournament.pair_free`, by
:meth:`~Tournament.tick`); a pairing is one game; when it ends both are free again. At
``startedAt + minutes`` no new pairing is made; games in play finish and count; when the last has
ended the tournament is finished. Late entrants join while it plays.

**No-shows.** The server records a game lost by a seat that did not come within ``grace`` seconds with
``noshow``; the second such loss withdraws the entrant: they are paired no more, and their games not
yet begun are lost the same way. Leaving (:meth:`~Tournament.leave`) withdraws at once.

>>> t = Tournament.create("t1", bytes(32), game="spite-malice", preset="classic", system="swiss", rounds=1)
>>> for name in ("Ann", "Bob"):
...     _ = t.join(name, key=name.lower())
>>> [p.entrants for p in t.start(100.0)]
[('e1', 'e2')]
>>> t.tables_needed()
[(1, 1)]
>>> t.record_result(1, 1, winner=0, now=200.0)    # game 1: Ann (seat 0) won
True
>>> t.tables_needed()
[(1, 2)]
>>> t.seed(1, 2) == t.seed(1, 1)                    # game 2: the same deal, seats swapped
True
>>> _ = t.record_result(1, 2, winner=None, now=300.0)  # game 2: a draw
>>> t.state, [(s["name"], s["points"]) for s in t.info(300.0)["standings"]]
('finished', [('Ann', 1.5), ('Bob', 0.5)])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from spite.tournament.arena import ArenaPlayer, pair_arena
from spite.tournament.deals import SCHEME, commitment, deal_seed, fairness
from spite.tournament.standings import (
    ArenaGame,
    ArenaTally,
    GameResult,
    Standing,
    SwissGames,
    swiss_standings,
)
from spite.tournament.swiss import BYE_POINTS, SwissPlayer, pair_swiss

__all__ = [
    "ARENA",
    "FINISHED",
    "OPEN",
    "PLAYING",
    "SWISS",
    "Entrant",
    "GameSlot",
    "Pairing",
    "Tournament",
    "TournamentError",
]

SWISS, ARENA = "swiss", "arena"
OPEN, PLAYING, FINISHED = "open", "playing", "finished"
NOSHOWS_TO_WITHDRAW = 2
"""Games lost by not coming to the table that withdraw an entrant."""
DEFAULT_PAUSE = 10.0
DEFAULT_GRACE = 60
FORMAT = 1
"""The layout of :meth:`Tournament.to_dict` (``"format"``)."""


class TournamentError(ValueError):
    """A request the tournament refuses; ``key`` is the catalogue's (``tournament.*``), ``params`` its values."""

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


@dataclass
class Entrant:
    """Someone in the tournament (a person or a computer player)."""

    id: str
    name: str
    computer: str | None = None
    """The computer's level, or ``None`` for a person."""
    rating: float = 0.0
    """Orders the field for pairing (higher first)."""
    key: str | None = None
    """The person's player key (the server's; never in :meth:`Tournament.info`)."""
    withdrawn: bool = False
    noshows: int = 0
    free_since: float | None = None
    """Arena: when they came free to be paired (``None``: at a table, or not to be paired)."""

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "computer": self.computer, "rating": self.rating, "key": self.key,
                "withdrawn": self.withdrawn, "noshows": self.noshows, "freeSince": self.free_since}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Entrant:
        return cls(d["id"], d["name"], d.get("computer"), float(d.get("rating", 0.0)), d.get("key"),
                   bool(d.get("withdrawn")), int(d.get("noshows", 0)), d.get("freeSince"))


@dataclass
class GameSlot:
    """One game of a pairing: its table and game ids (the server's) and its result."""

    table: str | None = None
    game: str | None = None
    result: GameResult | None = None
    ended: int | None = None
    """The order in which games ended (the arena's streaks count in it)."""

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "game": self.game, "ended": self.ended,
                "result": None if self.result is None else self.result.to_json()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameSlot:
        result = d.get("result")
        return cls(d.get("table"), d.get("game"), None if result is None else GameResult.from_json(result),
                   d.get("ended"))


@dataclass
class Pairing:
    """Entrants paired to play: two (a bye: one) and their games on deal ``deal``."""

    number: int
    """1, 2, ... over the tournament; the arena's deal number."""
    round: int
    """The Swiss round (arena: 0)."""
    deal: int
    entrants: tuple[str, ...]
    games: list[GameSlot] = field(default_factory=list)

    @property
    def bye(self) -> bool:
        return len(self.entrants) == 1

    @property
    def done(self) -> bool:
        """Every game has its result."""
        return all(g.result is not None for g in self.games)

    def seats(self, game_no: int) -> tuple[str, ...]:
        """The entrants by seat in game ``game_no`` (1, 2): game 2 swaps the seats of game 1."""
        return self.entrants if game_no % 2 == 1 else tuple(reversed(self.entrants))

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "round": self.round, "deal": self.deal, "entrants": list(self.entrants),
                "games": [g.to_dict() for g in self.games]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Pairing:
        return cls(int(d["number"]), int(d["round"]), int(d["deal"]), tuple(d["entrants"]),
                   [GameSlot.from_dict(g) for g in d.get("games", [])])


def _check(condition: bool, key: str, message: str, **params: Any) -> None:
    if not condition:
        raise TournamentError(key, message, **params)


@dataclass
class Tournament:
    """The whole state of one tournament (see the module's text). Make one with :meth:`create`."""

    id: str
    game: str
    preset: str | None
    system: str
    secret: bytes
    rounds: int | None = None
    minutes: float | None = None
    rated: bool = False
    grace: int = DEFAULT_GRACE
    pause: float = DEFAULT_PAUSE
    creator: str = ""
    creator_key: str | None = None
    state: str = OPEN
    version: int = 1
    round: int = 0
    started_at: float | None = None
    ends_at: float | None = None
    next_round_at: float | None = None
    finished_at: float | None = None
    entrants: list[Entrant] = field(default_factory=list)
    pairings: list[Pairing] = field(default_factory=list)
    ended_games: int = 0
    joined: int = 0
    """Entrants who ever joined (numbers their ids: e1, e2, ...; one who left before the start keeps theirs)."""
    window: int | None = None
    """The pairing window (``None``: the pairing modules' own)."""
    options: dict[str, Any] = field(default_factory=dict)
    """The game's options every table of the tournament plays its preset with (``{}``: the preset as it is);
    checked by the server, as a table's are."""
    _tally: dict[tuple[int, int, int], Any] = field(default_factory=dict, repr=False, compare=False)
    """The standings of the results so far, kept until a result or an entrant comes (not stored)."""
    _arena_tally: ArenaTally | None = field(default=None, repr=False, compare=False)
    _arena_points: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict, repr=False, compare=False)
    _open: dict[int, Pairing] | None = field(default=None, repr=False, compare=False)
    """The pairings with a game to play, by number (rebuilt from the pairings after a restart)."""
    _ended_log: list[tuple[int, int]] | None = field(default=None, repr=False, compare=False)
    """(pairing, game) in the order the games ended (rebuilt from the slots' ``ended`` after a restart)."""
    _by_id: dict[str, Entrant] | None = field(default=None, repr=False, compare=False)

    # ------------------------------------------------------------------ making one
    @classmethod
    def create(cls, tournament_id: str, secret: bytes, *, game: str, preset: str | None, system: str,
               rounds: int | None = None, minutes: float | None = None, rated: bool = False,
               grace: int = DEFAULT_GRACE, pause: float = DEFAULT_PAUSE, creator: str = "",
               creator_key: str | None = None, options: dict[str, Any] | None = None) -> Tournament:
        """A new, open tournament. ``secret`` (32 bytes) is the server's draw; its commitment is published."""
        _check(system in (SWISS, ARENA), "tournament.bad-system", f"a system is swiss or arena, not {system!r}",
               system=system)
        if system == SWISS:
            _check(isinstance(rounds, int) and 1 <= rounds <= 15, "tournament.bad-rounds",
                   "a Swiss has 1 to 15 rounds", rounds=rounds)
            minutes = None
        else:
            _check(minutes is not None and 1 <= minutes <= 240, "tournament.bad-minutes",
                   "an arena lasts 1 to 240 minutes", minutes=minutes)
            rounds = None
        _check(10 <= grace <= 600, "tournament.bad-grace", "the grace time is 10 to 600 seconds", grace=grace)
        _check(pause >= 0, "tournament.bad-pause", "the pause between rounds is 0 seconds or more", pause=pause)
        commitment(secret, tournament_id)  # checks the secret and the id
        return cls(tournament_id, game, preset, system, secret, rounds, minutes, rated, grace, pause, creator,
                   creator_key, options=dict(options or {}))

    @property
    def commitment(self) -> str:
        """The commitment to the tournament's secret (published from creation)."""
        return commitment(self.secret, self.id)

    def _changed(self) -> None:
        self.version += 1

    # ------------------------------------------------------------------ entrants
    def entrant(self, entrant_id: str) -> Entrant:
        """The entrant ``entrant_id``; :class:`TournamentError` ``tournament.no-entrant`` if none."""
        if self._by_id is None or len(self._by_id) != len(self.entrants):
            self._by_id = {e.id: e for e in self.entrants}
        found = self._by_id.get(entrant_id)
        if found is None:
            raise TournamentError("tournament.no-entrant", f"no entrant {entrant_id!r}", entrant=entrant_id)
        return found

    def entrant_by_key(self, key: str) -> Entrant | None:
        """The person who joined with player key ``key``, if any."""
        return next((e for e in self.entrants if e.key is not None and e.key == key), None)

    def active(self) -> list[Entrant]:
        """Entrants not withdrawn, in joining order."""
        return [e for e in self.entrants if not e.withdrawn]

    def join(self, name: str, *, key: str | None = None, computer: str | None = None, rating: float = 0.0,
             now: float = 0.0) -> Entrant:
        """Enter a person (``key``: their player key) or a computer player (``computer``: its level).

        Refused (``tournament.not-open``) once a Swiss has started or an arena has ended; a key that
        joined already is refused (``tournament.joined``).
        """
        open_now = self.state == OPEN or (self.system == ARENA and self.state == PLAYING and not self._over(now))
        _check(open_now, "tournament.not-open", "the tournament takes no more entrants")
        if key is not None:
            _check(self.entrant_by_key(key) is None, "tournament.joined", "already in this tournament")
        self.joined += 1
        entrant = Entrant(f"e{self.joined}", name, computer, rating, key)
        if self.state == PLAYING:
            entrant.free_since = now
        self.entrants.append(entrant)
        self._changed()
        return entrant

    def leave(self, entrant_id: str, now: float = 0.0) -> None:
        """Withdraw an entrant (before the start: take them off the list)."""
        entrant = self.entrant(entrant_id)
        if self.state == OPEN:
            self.entrants.remove(entrant)
            self._by_id = None
            self._changed()
            return
        if entrant.withdrawn:
            return
        self._withdraw(entrant, now)
        self._changed()

    def _withdraw(self, entrant: Entrant, now: float) -> None:
        entrant.withdrawn = True
        entrant.free_since = None
        # their games not yet at a table are lost as if they had not come
        for pairing in self.in_play():
            if entrant.id not in pairing.entrants:
                continue
            for number, slot in enumerate(pairing.games, 1):
                if slot.result is None and slot.table is None:
                    absent = tuple(seat for seat, who in enumerate(pairing.seats(number))
                                   if who == entrant.id or self.entrant(who).withdrawn)
                    self._set_result(pairing, number, GameResult(noshow=absent), now, count_noshows=False)

    # ------------------------------------------------------------------ the clock
    def start(self, now: float) -> list[Pairing]:
        """Begin: a Swiss pairs round 1, an arena everyone; returns the pairings made."""
        _check(self.state == OPEN, "tournament.not-open", "the tournament has started already")
        _check(len(self.active()) >= 2, "tournament.too-few", "a tournament needs 2 entrants or more",
               entrants=len(self.active()))
        self.state = PLAYING
        self.started_at = now
        if self.system == ARENA:
            assert self.minutes is not None
            self.ends_at = now + 60 * self.minutes
            for e in self.active():
                e.free_since = now
        else:
            self.next_round_at = now
        self._changed()
        return self.tick(now)

    def _over(self, now: float) -> bool:
        return self.ends_at is not None and now >= self.ends_at

    def in_play(self) -> list[Pairing]:
        """Pairings with a game still to be played, in the order made."""
        if self._open is None:
            self._open = {p.number: p for p in self.pairings if not p.done}
        return list(self._open.values())

    def _add_pairings(self, made: list[Pairing]) -> None:
        self.in_play()
        assert self._open is not None
        self.pairings += made
        self._open.update((p.number, p) for p in made if not p.done)

    def wake_at(self, now: float | None = None) -> float | None:
        """When :meth:`tick` has something to do next without any other event (``None``: nothing; an
        arena past its end waits for its last games' results, not for the clock)."""
        if self.state != PLAYING:
            return None
        if self.system == SWISS:
            return self.next_round_at
        if now is not None and self.ends_at is not None and now >= self.ends_at:
            return None
        return self.ends_at

    def tick(self, now: float) -> list[Pairing]:
        """Do what is due at ``now``: pair the next Swiss round, pair the arena's free entrants, end the
        arena. Returns the pairings made."""
        if self.state != PLAYING:
            return []
        if self.system == SWISS:
            if self.next_round_at is not None and now >= self.next_round_at and not self.in_play():
                return self.pair_next_round(now)
            return []
        if self._over(now):
            if not self.in_play():
                self._finish(now)
            return []
        return self.pair_free(now)

    def _finish(self, now: float) -> None:
        self.state = FINISHED
        self.finished_at = now
        self.next_round_at = None
        for e in self.entrants:
            e.free_since = None
        self._changed()

    # ------------------------------------------------------------------ Swiss
    def swiss_players(self) -> list[SwissPlayer]:
        """The entrants still in as the Swiss pairing sees them before the next round."""
        points = {s.entrant: s.points for s in self._standings()}
        seen: dict[str, set[str]] = {e.id: set() for e in self.entrants}
        firsts = dict.fromkeys(seen, 0)
        played = dict.fromkeys(seen, 0)
        byes = dict.fromkeys(seen, 0)
        last: dict[str, bool | None] = dict.fromkeys(seen, None)
        for p in self.pairings:
            if p.bye:
                byes[p.entrants[0]] += 1
                continue
            a, b = p.entrants
            seen[a].add(b)
            seen[b].add(a)
            firsts[a] += 1
            played[a] += 1
            played[b] += 1
            last[a], last[b] = True, False
        return [SwissPlayer(e.id, points[e.id], e.rating, frozenset(seen[e.id]), firsts[e.id], played[e.id],
                            last[e.id], byes[e.id]) for e in self.active()]

    def pair_next_round(self, now: float) -> list[Pairing]:
        """Pair the next Swiss round (the one before must be over); returns its pairings, byes included."""
        _check(self.system == SWISS and self.state == PLAYING, "tournament.not-playing", "no round to pair")
        _check(not self.in_play(), "tournament.round-in-play", "the round is still being played")
        assert self.rounds is not None
        if self.round >= self.rounds or len(self.active()) < 2:
            self._finish(now)
            return []
        players = self.swiss_players()
        made = pair_swiss(players) if self.window is None else pair_swiss(players, window=self.window)
        self.round += 1
        self.next_round_at = None
        out: list[Pairing] = []
        for pair in made.pairs:
            out.append(Pairing(len(self.pairings) + len(out) + 1, self.round, self.round, pair,
                               [GameSlot(), GameSlot()]))
        if made.bye is not None:
            out.append(Pairing(len(self.pairings) + len(out) + 1, self.round, self.round, (made.bye,)))
        self._add_pairings(out)
        self._changed()
        return out

    # ------------------------------------------------------------------ arena
    def free(self, entrant_id: str, now: float) -> None:
        """Mark an arena entrant free to be paired (they are already once a game of theirs ends)."""
        entrant = self.entrant(entrant_id)
        if self.system != ARENA or self.state != PLAYING or entrant.withdrawn or entrant.free_since is not None:
            return
        if any(entrant_id in p.entrants for p in self.in_play()):
            return
        entrant.free_since = now
        self._changed()

    def pair_free(self, now: float) -> list[Pairing]:
        """Pair the arena's free entrants now (none after the end); returns the pairings made."""
        if self.system != ARENA or self.state != PLAYING or self._over(now):
            return []
        free = [e for e in self.active() if e.free_since is not None]
        if len(free) < 2:
            return []
        tally = self._fold_arena()
        players = [ArenaPlayer(e.id, tally.points.get(e.id, 0), e.rating, tally.last.get(e.id), e.free_since or 0.0,
                               tally.firsts.get(e.id, 0), tally.games.get(e.id, 0)) for e in free]
        made = pair_arena(players)
        out: list[Pairing] = []
        for pair in made.pairs:
            number = len(self.pairings) + len(out) + 1
            out.append(Pairing(number, 0, number, pair, [GameSlot()]))
            for who in pair:
                self.entrant(who).free_since = None
        if out:
            self._add_pairings(out)
            self._changed()
        return out

    # ------------------------------------------------------------------ games
    def pairing(self, number: int) -> Pairing:
        """Pairing ``number``; :class:`TournamentError` ``tournament.no-pairing`` if none."""
        if 1 <= number <= len(self.pairings) and self.pairings[number - 1].number == number:
            return self.pairings[number - 1]
        raise TournamentError("tournament.no-pairing", f"no pairing {number}", pairing=number)

    def _slot(self, number: int, game_no: int) -> GameSlot:
        pairing = self.pairing(number)
        _check(1 <= game_no <= len(pairing.games), "tournament.no-game", f"pairing {number} has no game {game_no}",
               pairing=number, game=game_no)
        return pairing.games[game_no - 1]

    def tables_needed(self) -> list[tuple[int, int]]:
        """(pairing, game) of every game that wants a table now: not played, no table yet, and (Swiss)
        game 1 of its pairing ended if it is game 2."""
        out: list[tuple[int, int]] = []
        for p in self.in_play():
            for number, slot in enumerate(p.games, 1):
                if slot.result is None and slot.table is None:
                    if number == 1 or p.games[number - 2].result is not None:
                        out.append((p.number, number))
                    break
                if slot.result is None:
                    break
        return out

    def attach_table(self, number: int, game_no: int, table_id: str) -> None:
        """Note the server's table for game ``game_no`` of pairing ``number``."""
        slot = self._slot(number, game_no)
        if slot.table != table_id:
            slot.table = table_id
            self._changed()

    def attach_game(self, number: int, game_no: int, game_id: str) -> None:
        """Note the server's game id for game ``game_no`` of pairing ``number``."""
        slot = self._slot(number, game_no)
        if slot.game != game_id:
            slot.game = game_id
            self._changed()

    def seed(self, number: int, game_no: int = 1, match_game: int = 1) -> str:
        """The seed of game ``game_no`` of pairing ``number`` (both Swiss games: the round's deal);
        ``match_game`` ≥ 2 for a match preset's later games at that table."""
        self._slot(number, game_no)
        return deal_seed(self.secret, self.id, self.pairing(number).deal, match_game)

    def fairness(self, number: int, match_game: int = 1) -> dict[str, Any]:
        """The record's ``fairness`` object of pairing ``number``'s games (the secret once finished)."""
        return fairness(self.id, self.pairing(number).deal, self.commitment,
                        self.secret if self.state == FINISHED else None, match_game)

    def record_result(self, number: int, game_no: int, *, winner: int | None = None,
                      scores: Sequence[float] | None = None, noshow: Sequence[int] = (), now: float = 0.0) -> bool:
        """Game ``game_no`` of pairing ``number`` ended: ``winner`` the seat that won (``None``: a draw or
        unfinished), ``scores`` each seat's score if the game gives one, ``noshow`` the seats that did
        not come. The same result again changes nothing (returns False); another is refused
        (``tournament.result-recorded``)."""
        slot = self._slot(number, game_no)
        result = GameResult(winner, None if scores is None else tuple(float(s) for s in scores), tuple(noshow))
        if slot.result is not None:
            _check(slot.result == result, "tournament.result-recorded", "that game's result is in already",
                   pairing=number, game=game_no)
            return False
        self._set_result(self.pairing(number), game_no, result, now)
        self._changed()
        return True

    def _set_result(self, pairing: Pairing, game_no: int, result: GameResult, now: float,
                    count_noshows: bool = True) -> None:
        slot = pairing.games[game_no - 1]
        self.ended_games += 1
        slot.result, slot.ended = result, self.ended_games
        if self._ended_log is not None:
            self._ended_log.append((pairing.number, game_no))
        if self._open is not None and pairing.done:
            self._open.pop(pairing.number, None)
        seats = pairing.seats(game_no)
        if count_noshows:
            for seat in result.noshow:
                absent = self.entrant(seats[seat])
                absent.noshows += 1
                if absent.noshows >= NOSHOWS_TO_WITHDRAW and not absent.withdrawn:
                    self._withdraw(absent, now)
        if self.system == ARENA:
            for who in seats:
                e = self.entrant(who)
                if not e.withdrawn and not self._over(now):
                    e.free_since = now
            if self._over(now) and not self.in_play():
                self._finish(now)
        elif self.state == PLAYING and not self.in_play() and self.next_round_at is None:
            assert self.rounds is not None
            if self.round >= self.rounds or len(self.active()) < 2:
                self._finish(now)
            else:
                self.next_round_at = now + self.pause

    # ------------------------------------------------------------------ what it looks like
    def next_for(self, entrant_id: str) -> dict[str, Any]:
        """Where entrant ``entrant_id`` plays now: ``{"state": "seated", "round", "pairing", "game", "seat",
        "table"}`` (``table`` ``None`` until the server attached it), or ``{"state": "waiting" | "bye" |
        "finished" | "withdrawn", "round"}``."""
        entrant = self.entrant(entrant_id)
        if self.state == FINISHED:
            return {"state": FINISHED, "round": self.round}
        for p in self.in_play():
            if entrant_id not in p.entrants:
                continue
            for number, slot in enumerate(p.games, 1):
                if slot.result is None:
                    return {"state": "seated", "round": p.round, "pairing": p.number, "game": number,
                            "seat": p.seats(number).index(entrant_id), "table": slot.table}
        if entrant.withdrawn:
            return {"state": "withdrawn", "round": self.round}
        if self.system == SWISS and any(p.bye and p.round == self.round and p.entrants[0] == entrant_id
                                        for p in self.pairings):
            return {"state": "bye", "round": self.round}
        return {"state": "waiting", "round": self.round}

    def _standings(self) -> list[Standing]:
        key = (self.ended_games, len(self.entrants), len(self.pairings))
        if key not in self._tally:
            self._tally.clear()
            self._tally[key] = self._count()
        rows: list[Standing] = self._tally[key][0]
        return rows

    def _arena(self) -> tuple[list[Standing], dict[tuple[int, int], dict[str, int]]]:
        self._standings()
        found: tuple[list[Standing], dict[tuple[int, int], dict[str, int]]] = next(iter(self._tally.values()))
        return found

    def _count(self) -> tuple[list[Standing], dict[tuple[int, int], dict[str, int]]]:
        ids = [e.id for e in self.entrants]
        if self.system == SWISS:
            return swiss_standings(ids, (SwissGames(p.deal, p.entrants, tuple(g.result for g in p.games))
                                         for p in self.pairings)), {}
        return self._fold_arena().standings(ids), self._arena_points

    def _fold_arena(self) -> ArenaTally:
        """The arena's tally with every game that ended counted."""
        tally = self._arena_tally
        if tally is None or len(tally.per_game) > self.ended_games:  # counted afresh (after a restart)
            tally = self._arena_tally = ArenaTally()
            self._arena_points = {}
        if self._ended_log is None or len(self._ended_log) != self.ended_games:
            ended = sorted((slot.ended or 0, p.number, n) for p in self.pairings for n, slot in enumerate(p.games, 1)
                           if slot.result is not None)
            self._ended_log = [(number, n) for _, number, n in ended]
        for number, n in self._ended_log[len(tally.per_game):]:  # the games that ended since, in that order
            p = self.pairings[number - 1]
            result = p.games[n - 1].result
            assert result is not None
            self._arena_points[(number, n)] = tally.add(ArenaGame((p.seats(n)[0], p.seats(n)[1]), result))
        return tally

    def standings(self) -> list[dict[str, Any]]:
        """The standings as TournamentInfo writes them (docs/tournaments.md)."""
        names = {e.id: e for e in self.entrants}
        return [{"rank": s.rank, "entrant": s.entrant, "name": names[s.entrant].name, "points": s.points,
                 "games": s.games, "wins": s.wins, "tiebreak": s.tiebreak, "buchholz": s.buchholz,
                 "streak": s.streak, "withdrawn": names[s.entrant].withdrawn} for s in self._standings()]

    def _pairing_info(self, p: Pairing, arena_points: dict[tuple[int, int], dict[str, int]]) -> dict[str, Any]:
        points: dict[str, float] | None = None
        if p.bye:
            points = {p.entrants[0]: BYE_POINTS}
        elif p.done and self.system == SWISS:
            a, b = p.entrants
            points = {a: 0.0, b: 0.0}
            for n, slot in enumerate(p.games, 1):
                assert slot.result is not None
                for seat, who in enumerate(p.seats(n)):
                    points[who] += slot.result.match_points(seat)
        elif p.done:
            points = {k: float(v) for k, v in arena_points.get((p.number, 1), {}).items()}
        return {"number": p.number, "deal": p.deal, "entrants": list(p.entrants),
                "tables": [g.table for g in p.games if g.table is not None],
                "games": [g.game for g in p.games if g.game is not None], "points": points}

    def info(self, now: float, *, rounds: bool = True) -> dict[str, Any]:
        """The TournamentInfo of the contract (docs/protocol.md); ``rounds=False`` leaves the rounds out.
        ``roundCount`` is a Swiss's number of rounds (``None`` for an arena), ``rounds`` the list of rounds."""
        creator = self.creator
        out: dict[str, Any] = {
            "id": self.id, "game": self.game, "preset": self.preset, "options": dict(self.options),
            "system": self.system, "roundCount": self.rounds,
            "minutes": self.minutes, "rated": self.rated, "grace": self.grace, "creator": creator,
            "state": self.state, "version": self.version, "round": self.round, "startedAt": self.started_at,
            "endsAt": self.ends_at, "nextRoundAt": self.next_round_at, "now": now,
            "entrants": [{"id": e.id, "name": e.name, "computer": e.computer, "withdrawn": e.withdrawn}
                         for e in self.entrants],
            "standings": self.standings(),
            "fair": {"scheme": SCHEME, "commitment": self.commitment,
                     "secret": self.secret.hex() if self.state == FINISHED else None},
        }
        if rounds:
            arena_points = self._arena()[1] if self.system == ARENA else {}
            numbers = sorted({p.round for p in self.pairings})
            out["rounds"] = [{"number": r, "deal": r if self.system == SWISS else None,
                              "pairings": [self._pairing_info(p, arena_points) for p in self.pairings if p.round == r]}
                             for r in numbers]
        return out

    # ------------------------------------------------------------------ storing
    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data (the secret included: for the server's store, not for clients)."""
        return {"format": FORMAT, "id": self.id, "game": self.game, "preset": self.preset, "system": self.system,
                "secret": self.secret.hex(), "rounds": self.rounds, "minutes": self.minutes, "rated": self.rated,
                "grace": self.grace, "pause": self.pause, "creator": self.creator, "creatorKey": self.creator_key,
                "state": self.state, "version": self.version, "round": self.round, "startedAt": self.started_at,
                "endsAt": self.ends_at, "nextRoundAt": self.next_round_at, "finishedAt": self.finished_at,
                "entrants": [e.to_dict() for e in self.entrants], "pairings": [p.to_dict() for p in self.pairings],
                "endedGames": self.ended_games, "joined": self.joined, "window": self.window,
                "options": dict(self.options)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Tournament:
        """The tournament :meth:`to_dict` wrote."""
        if d.get("format") != FORMAT:
            raise ValueError(f"a tournament's state of format {FORMAT}, not {d.get('format')!r}")
        return cls(d["id"], d["game"], d.get("preset"), d["system"], bytes.fromhex(d["secret"]), d.get("rounds"),
                   d.get("minutes"), bool(d.get("rated")), int(d.get("grace", DEFAULT_GRACE)),
                   float(d.get("pause", DEFAULT_PAUSE)), d.get("creator", ""), d.get("creatorKey"), d["state"],
                   int(d["version"]), int(d["round"]), d.get("startedAt"), d.get("endsAt"), d.get("nextRoundAt"),
                   d.get("finishedAt"), [Entrant.from_dict(e) for e in d.get("entrants", [])],
                   [Pairing.from_dict(p) for p in d.get("pairings", [])], int(d.get("endedGames", 0)),
                   int(d.get("joined", len(d.get("entrants", [])))), d.get("window"),
                   dict(d.get("options") or {}))  # a tournament stored before options: the preset as it is
