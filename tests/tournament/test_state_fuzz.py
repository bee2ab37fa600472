"""The state machine under any order of events (Hypothesis): joins, leaves, tables, results, no-shows and
the clock in any order keep it whole — nobody in two games at once, nobody paired after withdrawing,
every change a new version, the stored form the same tournament at every step — and it always ends."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spite.tournament.state import ARENA, FINISHED, SWISS, Tournament, TournamentError

SECRET = bytes(range(32))


def without_version(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "version"}


def check_whole(t: Tournament, now: float, withdrawn_at: dict[str, int]) -> None:
    stored = json.loads(json.dumps(t.to_dict()))
    back = Tournament.from_dict(stored)
    assert back.to_dict() == t.to_dict() and back.info(now) == t.info(now)
    busy: dict[str, int] = {}
    for p in t.in_play():
        for who in p.entrants:
            assert who not in busy, f"{who} in pairings {busy[who]} and {p.number} at once"
            busy[who] = p.number
    for p in t.pairings:
        for who in p.entrants:
            assert p.number <= withdrawn_at.get(who, 10**9), f"{who} paired after withdrawing"
    if t.system == SWISS:
        for r in {p.round for p in t.pairings}:
            seated = [who for p in t.pairings if p.round == r for who in p.entrants]
            assert len(seated) == len(set(seated))
    else:
        last: dict[str, str] = {}
        for p in t.pairings:
            a, b = p.entrants
            assert last.get(a) != b and last.get(b) != a
            last[a], last[b] = b, a


@settings(max_examples=60, deadline=None)
@given(system=st.sampled_from([SWISS, ARENA]), entrants=st.integers(2, 9),
       steps=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1000)), max_size=80))
def test_any_order_of_events_keeps_the_tournament_whole_and_it_ends(
        system: str, entrants: int, steps: list[tuple[int, int]]) -> None:
    t = Tournament.create("fz", SECRET, game="spit", preset=None, system=system, rounds=3, minutes=5, pause=5)
    for i in range(entrants):
        t.join(f"p{i}", key=f"k{i}")
    now = 0.0
    withdrawn_at: dict[str, int] = {}
    t.start(now)
    for action, pick in steps:
        before = t.to_dict()
        now += pick / 10
        try:
            if action == 0:  # the clock
                t.tick(now)
            elif action == 1 and t.tables_needed():  # a table for a game that wants one
                number, game = t.tables_needed()[pick % len(t.tables_needed())]
                t.attach_table(number, game, f"T{number}.{game}")
            elif action in (2, 3):  # a seated game ends: a win, a draw, or someone did not come
                seated = [(p.number, n) for p in t.in_play() for n, g in enumerate(p.games, 1)
                          if g.table is not None and g.result is None]
                if seated:
                    number, game = seated[pick % len(seated)]
                    kind = pick % 5
                    if kind == 4:
                        t.record_result(number, game, noshow=[pick % 2], now=now)
                    else:
                        t.record_result(number, game, winner=None if kind == 3 else kind % 2, now=now)
            elif action == 4:  # someone leaves
                who = t.entrants[pick % len(t.entrants)]
                if not who.withdrawn:
                    withdrawn_at[who.id] = len(t.pairings)
                t.leave(who.id, now)
            elif action == 5 and system == ARENA:  # a late entrant
                t.join(f"late{pick}", key=f"late{pick}", now=now)
        except TournamentError as refused:
            assert refused.key in ("tournament.not-open", "tournament.joined")
            assert t.to_dict() == before  # a refusal changes nothing
        for e in t.entrants:
            if e.withdrawn and e.id not in withdrawn_at:
                withdrawn_at[e.id] = len(t.pairings)  # withdrawn by a second no-show
        if without_version(t.to_dict()) != without_version(before):
            assert t.version > before["version"]
        else:
            assert t.version == before["version"]
        check_whole(t, now, withdrawn_at)
    # then everything plays out: it ends
    for _ in range(500):
        if t.state == FINISHED:
            break
        now = max(now + 1, t.wake_at() or 0.0) if t.system == SWISS else now + 30
        for number, game in t.tables_needed():
            t.attach_table(number, game, f"T{number}.{game}")
        for p in t.in_play():
            for n, g in enumerate(p.games, 1):
                if g.table is not None and g.result is None:
                    t.record_result(p.number, n, winner=0, now=now)
        t.tick(now)
        check_whole(t, now, withdrawn_at)
    assert t.state == FINISHED
    assert t.info(now)["fair"]["secret"] == SECRET.hex()
