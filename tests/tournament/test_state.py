"""The tournament's state machine: whole Swiss and arena events on a fake clock, a restart in the middle
of a round (nothing paired twice), no-shows and withdrawals, refusals, the seeds and the info's shape."""

from __future__ import annotations

import heapq
import json
import random
from typing import Any

import pytest

from spite.tournament.deals import commitment, deal_seed
from spite.tournament.state import FINISHED, Pairing, Tournament, TournamentError

SECRET = bytes(range(32))


def swiss(entrants: int, rounds: int, pause: float = 10.0) -> Tournament:
    t = Tournament.create("sw1", SECRET, game="spite-malice", preset="classic", system="swiss", rounds=rounds,
                          pause=pause, creator="Ann", creator_key="k-ann")
    for i in range(entrants):
        t.join(f"c{i + 1}", computer="medium", rating=1500.0 - i)
    return t


def arena(entrants: int, minutes: float) -> Tournament:
    t = Tournament.create("ar1", SECRET, game="spit", preset=None, system="arena", minutes=minutes)
    for i in range(entrants):
        t.join(f"c{i + 1}", computer="easy", rating=1500.0 + i % 50)
    return t


def play_out_round(t: Tournament, rng: random.Random, now: float) -> float:
    """Seat and finish every game of the round in play (game 2 after game 1), one a second."""
    for _ in range(4 * len(t.pairings) + 4):
        for number, game in t.tables_needed():
            t.attach_table(number, game, f"T{number}.{game}")
            t.attach_game(number, game, f"G{number}.{game}")
        seated = [(p.number, n) for p in t.in_play() for n, slot in enumerate(p.games, 1)
                  if slot.table is not None and slot.result is None]
        if not seated:
            break
        for number, game in seated:
            now += 1
            t.record_result(number, game, winner=rng.choice([0, 1, 0, 1, None]), now=now)
    return now


def run_swiss(t: Tournament, rng: random.Random, now: float = 1000.0) -> float:
    made = t.start(now)
    for _ in range(40):
        if t.state == FINISHED:
            break
        assert made, "a round is paired when it is due"
        active = sorted(e.id for e in t.active())
        assert sorted(who for p in made for who in p.entrants) == active  # everyone once, byes included
        now = play_out_round(t, rng, now)
        if t.state == FINISHED:
            break
        wake = t.wake_at(now)
        assert wake is not None and wake == now + t.pause
        assert t.tick(wake - 0.5) == []  # not before the pause is over
        now = wake
        made = t.tick(now)
    return now


def test_a_whole_swiss_of_64_computer_entrants_finishes() -> None:
    t = swiss(64, 6)
    hidden = t.info(0.0)
    assert hidden["fair"] == {"scheme": "spite-tournament/1", "commitment": commitment(SECRET, "sw1"), "secret": None}
    run_swiss(t, random.Random(1))
    assert t.state == FINISHED and t.round == 6
    info = t.info(99999.0)
    assert info["fair"]["secret"] == SECRET.hex()
    assert len(info["rounds"]) == 6 and all(len(r["pairings"]) == 32 for r in info["rounds"])
    met: set[frozenset[str]] = set()
    for r in info["rounds"]:
        for p in r["pairings"]:
            pair = frozenset(p["entrants"])
            assert pair not in met  # no rematch in a field this large
            met.add(pair)
            assert len(p["tables"]) == 2 and len(p["games"]) == 2 and sum(p["points"].values()) == 2.0
    points = [s["points"] for s in info["standings"]]
    assert points == sorted(points, reverse=True) and sum(points) == 6 * 32 * 2
    assert info["standings"][0]["rank"] == 1


def test_an_odd_swiss_gives_byes_in_turn_and_counts_them() -> None:
    t = swiss(7, 5)
    run_swiss(t, random.Random(2))
    byes = [p.entrants[0] for p in t.pairings if p.bye]
    assert len(byes) == 5 and len(set(byes)) == 5
    info = t.info(0.0)
    for r in info["rounds"]:
        bye = [p for p in r["pairings"] if len(p["entrants"]) == 1]
        assert len(bye) == 1 and bye[0]["points"] == {bye[0]["entrants"][0]: 1.0} and bye[0]["tables"] == []


def test_seats_swap_between_the_games_of_a_pairing_on_one_deal() -> None:
    t = swiss(6, 2)
    made = t.start(0.0)
    assert {t.seed(p.number, 1) for p in made} == {deal_seed(SECRET, "sw1", 1)}  # one deal for the round
    assert all(t.seed(p.number, 2) == t.seed(p.number, 1) for p in made)
    p = made[0]
    assert p.seats(2) == (p.entrants[1], p.entrants[0])
    assert t.fairness(p.number) == {"scheme": "spite-tournament/1", "tournament": "sw1", "deal": 1,
                                    "commitment": commitment(SECRET, "sw1"), "secret": None}
    assert t.seed(p.number, 1, match_game=2) == deal_seed(SECRET, "sw1", 1, game=2)


def test_a_restart_in_the_middle_of_a_round_resumes_with_nothing_paired_twice() -> None:
    rng = random.Random(3)
    t = swiss(9, 3)
    t.start(0.0)
    now = play_out_round(t, rng, 0.0)
    t.tick(now + 10)
    # round 2: some games done, some at tables, some not seated yet
    needed = t.tables_needed()
    for number, game in needed[:3]:
        t.attach_table(number, game, f"T{number}")
    t.record_result(needed[0][0], needed[0][1], winner=1, now=now + 20)
    stored = json.dumps(t.to_dict())
    back = Tournament.from_dict(json.loads(stored))
    assert back.to_dict() == t.to_dict() and back.version == t.version
    assert back.tick(now + 10_000) == [] and len(back.pairings) == len(t.pairings)  # the round is in play
    assert back.tables_needed() == t.tables_needed()
    # both play on alike and end alike
    for copy in (t, back):
        play_out_round(copy, random.Random(4), now + 30)
        for _ in range(5):
            copy.tick(copy.wake_at() or 0.0)
            play_out_round(copy, random.Random(5), now + 100)
    assert t.state == back.state == FINISHED
    assert t.info(1.0) == back.info(1.0)
    assert sorted(p.number for p in back.pairings) == list(range(1, len(back.pairings) + 1))


def test_a_tournaments_options_are_stored_and_shown_and_a_state_stored_before_options_loads() -> None:
    t = Tournament.create("op1", SECRET, game="spite-malice", preset="short", system="swiss", rounds=1,
                          options={"stock_size": 3})
    back = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
    assert back.options == {"stock_size": 3} and back.to_dict() == t.to_dict()
    assert t.info(0.0)["options"] == {"stock_size": 3} and t.info(0.0, rounds=False)["options"] == {"stock_size": 3}
    # a row written before tournaments had options: the preset as it is
    old = t.to_dict()
    del old["options"]
    before = Tournament.from_dict(old)
    assert before.options == {} and before.info(0.0)["options"] == {}
    assert Tournament.create("op2", SECRET, game="spit", preset=None, system="arena", minutes=5).options == {}


def test_two_noshows_withdraw_an_entrant_and_their_games_not_yet_seated_are_lost() -> None:
    t = swiss(4, 3, pause=0)
    made = t.start(0.0)
    absent = made[0].entrants[0]  # seat 0 in game 1, seat 1 in game 2
    t.attach_table(made[0].number, 1, "T1")
    t.record_result(made[0].number, 1, noshow=[0], now=60.0)
    assert t.entrant(absent).noshows == 1 and not t.entrant(absent).withdrawn
    t.attach_table(made[0].number, 2, "T2")
    t.record_result(made[0].number, 2, noshow=[1], now=120.0)
    assert t.entrant(absent).withdrawn
    play_out_round(t, random.Random(6), 200.0)
    round2 = t.tick(t.wake_at() or 0.0)
    assert all(absent not in p.entrants for p in round2) and any(p.bye for p in round2)
    row = next(s for s in t.standings() if s["entrant"] == absent)
    assert row["withdrawn"] and row["points"] == 0.0
    assert t.next_for(absent)["state"] == "withdrawn"


def test_leaving_in_a_round_loses_the_games_not_yet_at_a_table() -> None:
    t = swiss(4, 2)
    made = t.start(0.0)
    p = made[0]
    t.attach_table(p.number, 1, "T1")
    version = t.version
    t.leave(p.entrants[1], now=5.0)
    assert t.version > version
    assert p.games[1].result is not None and p.games[1].result.noshow == (0,)  # game 2: they sat at seat 0
    assert p.games[0].result is None  # game 1's table runs out its grace at the server
    assert t.tables_needed() == [(made[1].number, 1)]


def test_refusals_change_nothing() -> None:
    t = swiss(1, 2)
    t.join("Bob", key="k-bob")
    with pytest.raises(TournamentError) as joined:
        t.join("Bob again", key="k-bob")
    assert joined.value.key == "tournament.joined"
    t.leave("e2")
    with pytest.raises(TournamentError) as few:
        t.start(0.0)
    assert few.value.key == "tournament.too-few" and t.state == "open"
    assert t.join("Cy", key="k-cy").id == "e3"  # a number is never given twice, even after one left
    made = t.start(0.0)
    before = t.to_dict()
    for call, key in ((lambda: t.join("Late", key="k-late"), "tournament.not-open"),
                      (lambda: t.start(1.0), "tournament.not-open"),
                      (lambda: t.pair_next_round(1.0), "tournament.round-in-play"),
                      (lambda: t.record_result(99, 1, winner=0), "tournament.no-pairing"),
                      (lambda: t.record_result(made[0].number, 3, winner=0), "tournament.no-game")):
        with pytest.raises(TournamentError) as refused:
            call()
        assert refused.value.key == key
    assert t.to_dict() == before
    assert t.record_result(made[0].number, 1, winner=0, now=2.0) is True
    assert t.record_result(made[0].number, 1, winner=0, now=3.0) is False  # the same again: nothing
    with pytest.raises(TournamentError) as other:
        t.record_result(made[0].number, 1, winner=1, now=3.0)
    assert other.value.key == "tournament.result-recorded"
    for bad in ({"system": "chess", "rounds": 3}, {"system": "swiss", "rounds": 16},
                {"system": "arena", "minutes": 0}, {"system": "swiss", "rounds": 3, "grace": 5}):
        with pytest.raises(TournamentError):
            Tournament.create("x", SECRET, game="spit", preset=None, **bad)  # type: ignore[arg-type]


def test_the_info_has_the_contracts_shape() -> None:
    t = swiss(3, 1)
    t.start(50.0)
    p = t.pairings[0]
    t.attach_table(p.number, 1, "tab-1")
    t.attach_game(p.number, 1, "game-1")
    info = t.info(60.0)
    assert set(info) >= {"id", "game", "preset", "options", "system", "roundCount", "minutes", "rated", "grace",
                         "creator", "state", "version", "round", "startedAt", "endsAt", "nextRoundAt", "now",
                         "entrants", "standings", "rounds", "fair"}
    assert info["roundCount"] == 1 and isinstance(info["rounds"], list) and "rounds" not in t.info(60.0, rounds=False)
    assert info["creator"] == "Ann" and info["state"] == "playing" and info["round"] == 1 and info["now"] == 60.0
    assert info["entrants"][0] == {"id": "e1", "name": "c1", "computer": "medium", "withdrawn": False}
    assert set(info["standings"][0]) >= {"rank", "entrant", "name", "points", "games", "wins", "tiebreak", "streak",
                                         "withdrawn"}
    pairing = info["rounds"][0]["pairings"][0]
    assert pairing["tables"] == ["tab-1"] and pairing["games"] == ["game-1"] and pairing["points"] is None
    assert "key" not in json.dumps(info) and "k-ann" not in json.dumps(info)  # no player key leaves the server
    seated = t.next_for(p.entrants[0])
    assert seated == {"state": "seated", "round": 1, "pairing": p.number, "game": 1, "seat": 0, "table": "tab-1"}


# ---------------------------------------------------------------------- arena
def run_arena(t: Tournament, rng: random.Random, start: float = 0.0, late: int = 0) -> dict[int, float]:
    """Events on a fake clock: each game lasts 1 to 5 minutes; ``late`` entrants join half way.
    Returns when each pairing was made."""
    made_at: dict[int, float] = {}
    ends: list[tuple[float, int]] = []

    def seat(pairings: list[Pairing], now: float) -> None:
        for p in pairings:
            made_at[p.number] = now
            t.attach_table(p.number, 1, f"T{p.number}")
            heapq.heappush(ends, (now + rng.uniform(60, 300), p.number))

    seat(t.start(start), start)
    assert t.ends_at is not None
    half_way = (start + t.ends_at) / 2
    joined = False
    for _ in range(100_000):
        if t.state == FINISHED:
            break
        wake = t.wake_at()
        now = min(ends[0][0] if ends else float("inf"), wake if wake is not None and wake > start else float("inf"))
        if late and not joined and now > half_way:
            joined = True
            for i in range(late):
                t.join(f"late{i}", now=now)
        if ends and ends[0][0] == now:
            _, number = heapq.heappop(ends)
            t.record_result(number, 1, winner=rng.choice([0, 1, 0, 1, None]), now=now)
        start = now
        seat(t.tick(now), now)
    return made_at


def test_an_arena_of_200_on_a_fake_clock_ends_on_time_and_counts_the_last_games() -> None:
    t = arena(200, 30)
    made_at = run_arena(t, random.Random(7), late=3)
    assert t.state == FINISHED and t.ends_at is not None
    assert max(made_at.values()) < t.ends_at  # no pairing after the end
    last_end = max(slot.ended or 0 for p in t.pairings for slot in p.games)
    assert last_end == len(t.pairings)  # every game made was played to its result and counted
    info = t.info(0.0)
    assert sum(s["games"] for s in info["standings"]) == 2 * len(t.pairings)
    assert all(s["games"] >= 1 for s in info["standings"])  # the late ones played too
    previous: dict[str, str] = {}
    for p in t.pairings:  # in the order made: never the same opponent twice in a row
        a, b = p.entrants
        assert previous.get(a) != b and previous.get(b) != a
        previous[a], previous[b] = b, a
    points = {s["entrant"]: s["points"] for s in info["standings"]}
    per_pairing: dict[str, float] = {}
    for p in info["rounds"][0]["pairings"]:
        for who, got in p["points"].items():
            per_pairing[who] = per_pairing.get(who, 0.0) + got
    assert per_pairing == {k: v for k, v in points.items() if k in per_pairing}
    assert len({p["deal"] for p in info["rounds"][0]["pairings"]}) == len(t.pairings)  # a deal each
    with pytest.raises(TournamentError):
        t.join("too late", now=t.ends_at + 1)


def test_an_arena_streak_doubles_wins_in_the_standings() -> None:
    t = arena(3, 60)
    t.start(0.0)
    now = 0.0
    hero = "e1"
    for _ in range(6):
        p = next(p for p in t.pairings if not p.done)
        now += 100
        t.record_result(p.number, 1, winner=p.seats(1).index(hero) if hero in p.entrants else 0, now=now)
        t.tick(now)
    row = next(s for s in t.standings() if s["entrant"] == hero)
    games = [p for p in t.pairings if hero in p.entrants and p.done]
    assert row["wins"] == len(games) >= 3 and row["streak"] == len(games)
    assert row["points"] == 2 + 2 + 4 * (len(games) - 2)


def test_an_entrant_left_alone_waits_for_the_next_to_come_free() -> None:
    t = arena(3, 10)
    made = t.start(0.0)
    assert len(made) == 1
    waiting = next(e.id for e in t.entrants if e.id not in made[0].entrants)
    assert t.next_for(waiting)["state"] == "waiting"
    t.record_result(made[0].number, 1, winner=0, now=30.0)
    again = t.tick(30.0)
    assert len(again) == 1 and waiting in again[0].entrants


def json_roundtrip(data: Any) -> Any:
    return json.loads(json.dumps(data))


def test_an_arena_restored_mid_game_pairs_nobody_twice() -> None:
    t = arena(5, 10)
    made = t.start(0.0)
    back = Tournament.from_dict(json_roundtrip(t.to_dict()))
    assert back.tick(1.0) == [] and back.to_dict() == t.to_dict()
    back.record_result(made[0].number, 1, winner=1, now=50.0)
    assert [p.entrants for p in back.tick(50.0)]  # the two freed meet the one who waited
