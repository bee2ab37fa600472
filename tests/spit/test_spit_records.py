"""Spit and Speed records: replay, the three commands' answers, errors, writing records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from spit_helpers import play_out, spit_deal

from spite.errors import MalformedRecordError, MissingChanceError, RecordMoveError
from spite.records import Record, dump_record, parse_record, replay
from spite.spit.record import new_record, record_from_state, replay_spit

DEAL = spit_deal([["5C", "KD 6H"], ["9S"]], ["4D", "JC"])


def rec(moves: list[Any], **kw: Any) -> Record:
    fields: dict[str, Any] = {"game": "spit", "options": {"auto_spit_ms": 0, "auto_slap_ms": 0}, "deal": DEAL}
    fields.update(kw)
    return Record(moves=moves, **fields)


def test_replay_checks_and_shows_the_position() -> None:
    r = replay(rec([{"t": 100, "p": 0, "m": "T1-C1"}, {"t": 250, "p": 0, "m": "t2-c1"}]))
    assert r.plies == 2
    assert r.check() == {"ok": True, "plies": 2, "to_move": None, "finished": False, "result": None}
    shown = r.show()
    assert list(shown) == ["round", "stuck", "finished", "result", "centers", "players"]
    assert shown["centers"] == [{"top": "6H", "cards": 3}, {"top": "JC", "cards": 1}]
    me = shown["players"][0]
    assert list(me) == ["tableau", "spit", "cards", "called_spit"]
    assert me["tableau"][:2] == [{"top": None, "cards": 0}, {"top": "KD", "cards": 1}]
    assert len(me["tableau"]) == 5 and me["cards"] == 1 + me["spit"]
    assert r.show(1) == shown  # in Spit every face-up card is public
    assert shown["stuck"] is True  # KD and 9S fit on neither 6H nor JC
    assert r.legal() == ["0 spit", "1 spit"]
    text = r.show_text()
    assert "Spit, round 1" in text and "C1 6H(3)" in text and "T2 KD(1)" in text
    with pytest.raises(ValueError, match="there is no seat 2"):
        r.show(2)


def test_an_illegal_move_names_its_ply() -> None:
    moves = [{"t": 100, "p": 0, "m": "T1-C1"}, {"t": 200, "p": 1, "m": "T1-C2"}]
    with pytest.raises(RecordMoveError) as info:
        replay(rec(moves))
    assert info.value.ply == 1
    assert json.loads(info.value.move) == moves[1]
    assert "9S does not fit on center 2, which shows JC" in info.value.message


@pytest.mark.parametrize("text", ["H7-C1", "Z-B1", "S-B2", "slap", "T1-C1-C2", ""])
def test_text_that_is_no_spit_move_is_an_illegal_move(text: str) -> None:
    with pytest.raises(RecordMoveError, match="is not a Spit move") as info:
        replay(rec([{"t": 1, "p": 0, "m": text}]))
    assert info.value.ply == 0


@pytest.mark.parametrize(
    ("moves", "message"),
    [
        (["T1-C1"], "ply 0: a spit move is an object"),
        ([{"t": 5, "p": 0, "m": "T1-C1"}, {"t": 4, "p": 0, "m": "T2-C1"}], "ply 1: time goes backwards"),
        ([{"t": -1, "p": 0, "m": "T1-C1"}], "ply 0: 't' must be a time"),
        ([{"t": "5", "p": 0, "m": "T1-C1"}], "ply 0: 't' must be a time"),
        ([{"p": 0, "m": "T1-C1"}], "ply 0: 't' must be a time"),
        ([{"t": 5, "p": 2, "m": "T1-C1"}], "ply 0: 'p' must be a seat"),
        ([{"t": 5, "p": True, "m": "T1-C1"}], "ply 0: 'p' must be a seat"),
        ([{"t": 5, "p": 0}], "ply 0: 'm' must be a move"),
        ([{"t": 5, "p": 0, "m": 7}], "ply 0: 'm' must be a move"),
        ([{"t": 5, "p": 0, "m": "T1-C1", "x": 1}], "ply 0: unknown field 'x'"),
        ([{"t": 5, "p": 0, "m": "T1-C1"}, {"deal": DEAL}], "ply 1: a chance entry where the rules shuffle nothing"),
        ([{"deal": DEAL}], "ply 0: a chance entry where the rules shuffle nothing"),
    ],
)
def test_malformed_entries(moves: list[Any], message: str) -> None:
    with pytest.raises(MalformedRecordError, match=message):
        replay(rec(moves))


def test_malformed_deals_and_options() -> None:
    dup = json.loads(json.dumps(DEAL))
    dup["spits"][0][0] = "5C"
    with pytest.raises(MalformedRecordError, match="deal: 2 cards of 5C, the deck has 1"):
        replay(rec([], deal=dup))
    bad = json.loads(json.dumps(DEAL))
    bad["tableaus"][0][0] = ["5Z"]
    with pytest.raises(MalformedRecordError, match="'5Z' is not a card"):
        replay(rec([], deal=bad))
    six = json.loads(json.dumps(DEAL))
    six["tableaus"][0] = [[], [], [], [], [], six["tableaus"][0][0]]
    with pytest.raises(MalformedRecordError, match="has 6 piles, at most 5"):
        replay(rec([], deal=six))
    with pytest.raises(MalformedRecordError, match="deal: unknown field 'stocks'"):
        replay(rec([], deal={**DEAL, "stocks": []}))
    with pytest.raises(MalformedRecordError, match="centers must be a list of 3 center piles"):
        replay(rec([], deal=DEAL, options={"centers": 3}))
    with pytest.raises(MalformedRecordError, match="unknown option 'colour'"):
        replay(rec([], options={"colour": 1}))
    with pytest.raises(MalformedRecordError, match="unknown preset 'classic'"):
        replay(rec([], preset="classic"))
    with pytest.raises(MalformedRecordError, match="neither a deal nor a seed"):
        replay(rec([], deal=None))
    with pytest.raises(MalformedRecordError, match="2 cards of X, the deck has none"):
        replay(rec([], deal=spit_deal([["5C"], ["9S"]], ["4D", "JC"], jokers=2), options={}))


def win_round_record(extra: list[Any], **kw: Any) -> Record:
    deal = spit_deal([["5C"], ["9H"]], ["", "4D"], rest="spit1")
    moves = [{"t": 100, "p": 0, "m": "T1-C2"}, {"t": 200, "p": 0, "m": "slap C2"}, *extra]
    return Record(game="spit", options={"auto_slap_ms": 0, "auto_spit_ms": 0}, deal=deal, moves=moves, **kw)


def test_a_new_round_needs_a_deal_entry_or_a_seed() -> None:
    with pytest.raises(MissingChanceError, match="ply 1: round 2 needs a new layout"):
        replay(win_round_record([]))
    seeded = replay(win_round_record([], seed=3))
    assert seeded.show()["round"] == 2
    again = spit_deal([["5C"], ["9H"]], ["4D", ""], rest="spit1")
    given = replay(win_round_record([{"deal": again}]))
    assert given.show()["centers"][0] == {"top": "4D", "cards": 1}
    assert given.legal() == ["0 T1-C1"]
    wrong = spit_deal([["4D"], ["9H"]], ["5C", ""], rest="spit1")
    wrong["spits"][1][0], wrong["spits"][0][0] = wrong["spits"][0][0], wrong["spits"][1][0]
    with pytest.raises(MalformedRecordError, match="ply 1: deal of round 2: seat 0 must lay out exactly"):
        replay(win_round_record([{"deal": wrong}]))
    with pytest.raises(MalformedRecordError, match="must be a deal entry"):
        replay(win_round_record([{"shuffle": []}]))


def test_automatic_events_fire_while_replaying() -> None:
    deal = spit_deal([["9C"], ["2H"]], ["10S 4D", "KS JC"])
    base = {"game": "spit", "deal": deal, "options": {"auto_spit_ms": 3000}}
    r = replay_spit(Record(moves=[{"t": 3001}], **base))  # a bare tick lets the time pass
    assert r.show()["centers"][0]["top"] == "10S"
    r = replay_spit(Record(moves=[{"t": 4000, "p": 0, "m": "T1-C1"}], **base))
    assert r.show()["centers"][0] == {"top": "9C", "cards": 3}
    written = record_from_state(r.state)
    assert written.moves[:2] == [{"t": 3000, "p": 0, "m": "spit"}, {"t": 3000, "p": 1, "m": "spit"}]
    assert replay_spit(written).show() == r.show()


def test_time_limit_is_written_as_a_tick() -> None:
    deal = spit_deal([["9C"], ["2H"]], ["10S 4D", "KS JC"], rest="spit1")
    r = replay_spit(Record(game="spit", deal=deal, options={"time_limit_s": 5, "auto_spit_ms": 0}, moves=[{"t": 9000}]))
    assert r.check()["result"] == {"winner": 0, "reason": "time"} and r.legal() == []
    written = record_from_state(r.state)
    assert written.moves == [{"t": 5000}] and written.result == {"winner": 0, "reason": "time"}
    assert replay_spit(written).check() == {**r.check(), "plies": 1}


def test_new_record_is_a_fresh_seeded_game_with_its_deal() -> None:
    record = new_record("spit", "three-piles", {"slowpoke_ms": 500}, 17)
    data = json.loads(dump_record(record))
    assert data["game"] == "spit" and data["preset"] == "three-piles"
    assert data["options"] == {"slowpoke_ms": 500} and data["seed"] == 17 and data["moves"] == []
    assert len(data["deal"]["centers"]) == 3 and len(data["deal"]["spits"][0]) == 11
    r = replay(parse_record(dump_record(record)))
    assert r.check()["plies"] == 0 and r.show()["centers"][2]["cards"] == 1
    speed = json.loads(dump_record(new_record("speed", None, {}, 2)))
    assert speed["preset"] == "speed" and sorted(speed["deal"]) == ["centers", "draws", "hands", "sides"]
    assert len(speed["deal"]["sides"][1]) == 6


@pytest.mark.parametrize(
    ("game", "options"),
    [("spit", {}), ("spit", {"centers": 3, "jokers": 2}), ("spit", {"wrap": "ace_bridge"}), ("speed", {})],
)
def test_a_written_record_replays_without_seed_to_the_same_end(game: str, options: dict[str, Any]) -> None:
    state = play_out(game, 21, options)
    assert state.finished
    record = record_from_state(state)
    record.seed = None  # every chance entry is in the record
    r = replay(parse_record(dump_record(record)))
    assert r.check() == {
        "ok": True,
        "plies": len(record.moves),
        "to_move": None,
        "finished": True,
        "result": state.result,
    }
    assert r.show() == state.full_view().to_json()
    assert r.show(0) == state.view(0).to_json() and r.legal() == []


def test_speed_show_hides_the_other_hand() -> None:
    r = replay(new_record("speed", None, {}, 8))
    assert r.show(0)["players"][1]["hand"] is None
    assert len(r.show(0)["players"][0]["hand"]) == 5
    assert r.show()["players"][1]["hand"] is not None
    text = r.show_text(1)
    assert "Speed" in text and "hand 5 cards" in text
