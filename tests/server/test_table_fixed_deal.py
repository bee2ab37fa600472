"""A table whose deals are fixed from outside (a tournament's: docs/tournaments.md), in memory
(tests/server/table_harness.py): no secret drawn, no nonce counts, every game of a match dealt as the
source says, the record's ``fairness`` the source's, no rematch; and absent persons losing the game
as a forfeit when the organiser says their time is over."""

from __future__ import annotations

import random
from typing import Any

from table_harness import Harness, play_out

from spite.server.protocol import SeatRequest
from spite.server.table.effects import NoShow
from spite.server.table.fair import FixedDeal
from waiting import bounded

PERSON = SeatRequest(kind="person")
COMMITMENT = "c0" * 32


def source(asked: list[int]) -> Any:
    """A deal source: game k's seed is ``k`` repeated (asked games kept in ``asked``)."""

    def of(game: int) -> FixedDeal:
        asked.append(game)
        public = {"scheme": "spite-tournament/1", "tournament": "TT", "deal": 3, "commitment": COMMITMENT,
                  "secret": None, **({"game": game} if game >= 2 else {})}
        return FixedDeal(f"{game:02x}" * 32, public)

    return of


def bot(level: str = "random") -> SeatRequest:
    return SeatRequest(kind="bot", level=level)


def test_a_fixed_deal_is_dealt_from_its_seed_whatever_the_nonces() -> None:
    asked: list[int] = []
    h = Harness("spite-malice", "short", {"stock_size": 2}, seats=[PERSON, PERSON], deal_source=source(asked))
    assert h.drawn == [] and asked == [1]  # nothing drawn: the table's only deal is the source's
    published = h.first_info["fair"]
    assert published["scheme"] == "spite-tournament/1" and published["commitment"] == COMMITMENT
    assert published["tournament"] == "TT" and published["deal"] == 3 and "secret" not in published
    h.join("ann")
    h.join("bob")
    ann = h.connect(0, nonce="ab" * 16)
    bob = h.connect(1, nonce="cd" * 16)
    welcome = bob.last("welcome")
    assert welcome is not None and welcome["fair"]["dealt"] is True and welcome["fair"]["sent"] == [False, False]
    assert h.core.fair is not None and h.core.fair.seed() == "01" * 32
    play_out(h, [ann, bob], random.Random(2))
    over = ann.last("gameOver")
    assert over is not None and "secret" not in over["fair"]
    (game,) = h.store.games
    assert game["record"]["seed"] == "01" * 32
    assert game["record"]["fairness"] == {"scheme": "spite-tournament/1", "tournament": "TT", "deal": 3,
                                          "commitment": COMMITMENT, "secret": None}
    assert h.core.status == "finished" and h.core.fair_next is None and h.drawn == []
    answer = h.rematch(ann)
    assert answer and answer[-1].get("code") in ("no-rematch", None)
    assert h.core.status == "finished" and len(h.store.games) == 1  # no rematch at such a table
    ann.check_models()


def test_a_match_deals_each_game_from_the_source() -> None:
    asked: list[int] = []
    h = Harness("spite-malice", "match", {"match_target": 2, "stock_size": 2}, seats=[bot("random"), bot("easy")],
                deal_source=source(asked))
    for _ in bounded(200, "the match's end"):
        if h.core.status == "finished":
            break
        h.advance(5.0)
    assert len(h.store.games) >= 2 and h.drawn == []
    for k, game in enumerate(h.store.games, start=1):
        assert game["record"]["seed"] == f"{k:02x}" * 32
        assert game["record"]["fairness"].get("game", 1) == k


def test_a_restored_table_keeps_its_fixed_deal() -> None:
    asked: list[int] = []
    h = Harness("spite-malice", "match", {"match_target": 2, "stock_size": 2}, seats=[bot("random"), bot("easy")],
                deal_source=source(asked))
    h.advance(1.0)
    h.restart()
    fair = h.core.fair
    assert fair is not None and fair.fixed is not None and fair.seed() == f"{fair.game:02x}" * 32
    for _ in bounded(200, "the match's end"):
        if h.core.status == "finished":
            break
        h.advance(5.0)
    assert len(h.store.games) >= 2 and h.drawn == []
    for k, game in enumerate(h.store.games, start=1):
        assert game["record"]["seed"] == f"{k:02x}" * 32


def test_a_person_who_never_came_loses_when_told() -> None:
    h = Harness("spite-malice", "short", {"stock_size": 2}, seats=[PERSON, PERSON], deal_source=source([]))
    h.join("ann")
    h.join("bob")
    ann = h.connect(0)
    h.step(NoShow())
    assert h.core.status == "finished"
    (game,) = h.store.games
    assert [p["won"] for p in game["players"]] == [True, False]
    assert [p["left"] for p in game["players"]] == [False, True]
    over = ann.last("gameOver")
    assert over is not None and over["result"]["reason"] == "forfeit"


def test_no_show_changes_nothing_once_everyone_came() -> None:
    h = Harness("spite-malice", "short", {"stock_size": 2}, seats=[PERSON, PERSON], deal_source=source([]))
    h.join("ann")
    h.join("bob")
    h.connect(0)
    h.connect(1)
    h.step(NoShow())
    assert h.core.status == "playing" and not h.store.games
