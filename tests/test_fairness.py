"""Provably fair deals: the derivation's test vectors, and ``spite verify`` on honest and tampered records."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from spite.cli import app
from spite.fairness import SCHEME, SCHEME_FIRST, commitment, fingerprint, game_seed, parse_nonce, seed_input
from spite.games import get_game
from spite.malice import State
from spite.malice.record import record_from_state
from spite.records.verify import is_chance_entry
from waiting import bounded

runner = CliRunner()
SECRET = bytes(range(32))
TABLE = "T1"
NONCES: list[bytes | None] = [bytes([7] * 16), None]


# ---------------------------------------------------------------------- the derivation
def test_commitment_is_sha256_of_the_documented_bytes() -> None:
    layout = SECRET + bytes([2]) + b"T1" + (1).to_bytes(4, "big")
    assert commitment(SECRET, "T1", 1) == hashlib.sha256(layout).hexdigest()
    # the vectors docs/fairness.md prints
    assert commitment(SECRET, "T1", 1) == "1513902869df6614a2210d689e57ccd1b6b085723db5c34d24a07e5f18469586"
    assert commitment(bytes(32), "abc", 1) == "07a1c9eb934f7091ac7e5f69c84eae3d880fd44ab17deae255646e1660178f35"


def test_a_first_player_by_the_rules_is_one_more_byte_of_the_commitment() -> None:
    layout = SECRET + bytes([2]) + b"T1" + (2).to_bytes(4, "big") + bytes([1])
    assert commitment(SECRET, "T1", 2, first=1) == hashlib.sha256(layout).hexdigest()
    assert len({commitment(SECRET, "T1", 2), commitment(SECRET, "T1", 2, 0), commitment(SECRET, "T1", 2, 1)}) == 3


def test_seed_takes_every_seat_in_order_and_marks_an_absent_nonce() -> None:
    raw = seed_input(SECRET, "T1", 1, [bytes(range(16)), None])
    assert raw == (b"spite-seed/1" + SECRET + b"\x02T1" + b"\x00\x00\x00\x01" + b"\x02"
                   + b"\x01" + bytes(range(16)) + b"\x00")
    assert game_seed(SECRET, "T1", 1, [bytes(range(16)), None]) == \
        "0dc36417c4a3cbb01562a2fb5d11e292e262beec0c441aacfaf807fadf357f7b"
    seeds = {game_seed(SECRET, "T1", 1, n) for n in ([None, None], [bytes(16), None], [None, bytes(16)],
                                                     [bytes(16), bytes(16)])}
    assert len(seeds) == 4  # who sent what, and in which seat, changes the deal
    assert game_seed(SECRET, "T1", 2, [None, None]) != game_seed(SECRET, "T1", 1, [None, None])


def test_nonces_and_lengths_are_strict() -> None:
    assert parse_nonce("0f" * 16) == bytes([15] * 16)
    for bad in ("0F" * 16, "0f" * 15, "0f" * 17, 12, None, "zz" * 16):
        with pytest.raises(ValueError):
            parse_nonce(bad)
    with pytest.raises(ValueError):
        commitment(bytes(31), "T1", 1)
    assert fingerprint("1513902869df6614") == "1513-9028-69df"


# ---------------------------------------------------------------------- records
def _proof(nonces: list[bytes | None] = NONCES, game: int = 1) -> dict[str, Any]:
    return {"scheme": SCHEME, "table": TABLE, "game": game, "commitment": commitment(SECRET, TABLE, game),
            "secret": SECRET.hex(), "nonces": [None if n is None else n.hex() for n in nonces]}


def malice_record() -> dict[str, Any]:
    """A fair Spite and Malice game played to the end (with shuffles)."""
    seed = game_seed(SECRET, TABLE, 1, NONCES)
    state: State = get_game("spite-malice").dealt("short", {}, seed).engine
    rng = random.Random(3)
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        state.play(rng.choice(state.build_moves() or state.end_moves()))
    return {**record_from_state(state, "short").to_json(), "fairness": _proof()}


def spit_record() -> dict[str, Any]:
    """A fair Spit game of random moves (new rounds laid out from the seed)."""
    seed = game_seed(SECRET, TABLE, 1, NONCES)
    state = get_game("spit").dealt(None, {}, seed)
    rng, t = random.Random(1), 0
    while not state.is_over and t < 600_000:
        t += 150
        state.advance(t)
        if state.is_over:
            break
        seat = rng.choice(state.to_act())
        if legal := state.legal_moves(seat):
            state.apply(seat, rng.choice(legal), t)
    return {**state.to_record().to_json(), "fairness": _proof()}


@pytest.fixture(scope="module")
def malice() -> dict[str, Any]:
    return malice_record()


@pytest.fixture(scope="module")
def spit() -> dict[str, Any]:
    return spit_record()


def verify(tmp_path: Path, record: dict[str, Any]) -> tuple[int, str, str]:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["verify", str(path)])
    return result.exit_code, result.stdout, result.stderr


def chance_at(record: dict[str, Any]) -> list[int]:
    return [i for i, entry in enumerate(record["moves"]) if is_chance_entry(entry)]


def test_an_honest_record_verifies(tmp_path: Path, malice: dict[str, Any], spit: dict[str, Any]) -> None:
    for record in (malice, spit):
        code, out, err = verify(tmp_path, record)
        assert code == 0, err
        assert out.count("\n") == 1 and out.startswith("fair: ")
        assert f"{len(chance_at(record))} chance entries" in out
        assert "nonce of seat 0" in out
    assert len(chance_at(malice)) >= 3 and len(chance_at(spit)) >= 2


def test_one_shuffle_changed_names_that_entry(tmp_path: Path, malice: dict[str, Any]) -> None:
    bad = copy.deepcopy(malice)
    at = chance_at(bad)[1]
    cards = bad["moves"][at]["shuffle"]
    cards[0], cards[-1] = cards[-1], cards[0]
    code, out, _ = verify(tmp_path, bad)
    assert code == 1
    assert out.strip() == (f"not fair: moves[{at}], chance entry 2: the shuffle does not follow from the secret "
                           "and the nonces")


def test_one_spit_round_changed_names_that_entry(tmp_path: Path, spit: dict[str, Any]) -> None:
    bad = copy.deepcopy(spit)
    at = chance_at(bad)[0]
    spits = bad["moves"][at]["deal"]["spits"]
    spits[0], spits[1] = spits[1], spits[0]
    code, out, _ = verify(tmp_path, bad)
    assert code == 1 and f"moves[{at}], chance entry 1: the deal does not follow" in out


def test_a_changed_secret_or_nonce_fails(tmp_path: Path, malice: dict[str, Any], spit: dict[str, Any]) -> None:
    for record in (malice, spit):
        bad = copy.deepcopy(record)
        bad["fairness"]["secret"] = "ab" * 32
        code, out, _ = verify(tmp_path, bad)
        assert (code, out.split(" is ")[0]) == (1, f"not fair: the commitment {record['fairness']['commitment'][:12]}…")
        for seat in (0, 1):
            bad = copy.deepcopy(record)
            bad["fairness"]["nonces"][seat] = "00" * 16
            code, out, _ = verify(tmp_path, bad)
            assert code == 1 and "seed is not the one the secret and the nonces give" in out
            del bad["seed"]  # without the seed to compare, the deal itself gives it away
            code, out, _ = verify(tmp_path, bad)
            assert code == 1 and out.strip() == "not fair: the deal does not follow from the secret and the nonces"


def test_a_forged_commitment_and_secret_pair_still_fails_on_the_deal(tmp_path: Path, malice: dict[str, Any]) -> None:
    """A server that swaps in another secret (and a commitment to match) after the game cannot make
    the deal follow from it."""
    bad = copy.deepcopy(malice)
    other = bytes(32)
    bad["fairness"].update(secret=other.hex(), commitment=commitment(other, TABLE, 1))
    del bad["seed"]
    code, out, _ = verify(tmp_path, bad)
    assert code == 1 and "the deal does not follow" in out


def test_unusable_input_exits_2(tmp_path: Path, malice: dict[str, Any]) -> None:
    plain = {k: v for k, v in malice.items() if k != "fairness"}
    code, out, err = verify(tmp_path, plain)
    assert (code, out) == (2, "")
    assert err.strip() == "spite: the record has no fairness object: it was not dealt at a fair table"
    for change, words in ((lambda f: f.update(nonces=[None]), "nonces must be a list of 2"),
                          (lambda f: f["nonces"].__setitem__(0, "XY" * 16), "a nonce must be 32 lower-case hex"),
                          (lambda f: f.update(scheme="other"), "scheme must be 'spite-fair/1' or 'spite-fair/2'"),
                          (lambda f: f.update(scheme=SCHEME_FIRST), "names the seat that began (first)"),
                          (lambda f: f.update(secret="00"), "the secret must be 64 lower-case hex")):
        bad = copy.deepcopy(malice)
        change(bad["fairness"])
        code, _, err = verify(tmp_path, bad)
        assert code == 2 and words in err and err.count("\n") == 1


def test_a_record_with_fairness_still_checks(tmp_path: Path, malice: dict[str, Any]) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(malice))
    result = runner.invoke(app, ["check", str(path)])
    assert result.exit_code == 0 and json.loads(result.stdout)["finished"] is True


def match_game_record(first: int) -> dict[str, Any]:
    """A later game of a fair match: seat ``first`` begins by the rules (the loser of the game before),
    bound by the commitment (spite-fair/2)."""
    seed = game_seed(SECRET, TABLE, 2, NONCES)
    state: State = get_game("spite-malice").dealt("match", {"stock_size": 5}, seed, first=first).engine
    rng = random.Random(4)
    for _ in range(30):
        if state.is_over:
            break
        state.play(rng.choice(state.build_moves() or state.end_moves()))
    proof = {**_proof(game=2), "scheme": SCHEME_FIRST, "first": first,
             "commitment": commitment(SECRET, TABLE, 2, first)}
    return {**record_from_state(state, "match").to_json(), "fairness": proof}


def test_who_began_by_the_rules_is_bound_by_the_commitment(tmp_path: Path, malice: dict[str, Any]) -> None:
    honest = match_game_record(1)
    code, out, err = verify(tmp_path, honest)
    assert code == 0, err
    assert out.startswith("fair: ") and "not bound" not in out
    # the seat changed after the game: the commitment gives it away
    bad = copy.deepcopy(honest)
    bad["fairness"]["first"] = 0
    code, out, _ = verify(tmp_path, bad)
    assert code == 1 and out.startswith("not fair: the commitment") and "first player (seat 0)" in out
    # a one-game record never begins by the rules: the cut decides, whatever the proof says
    bad = copy.deepcopy(malice)
    bad["fairness"]["first"] = 1
    code, out, _ = verify(tmp_path, bad)
    assert (code, out.strip()) == (1, "not fair: the record says seat 1 began by the rules, but in a game of these "
                                      "rules the cut decides who begins")
    # an older match record (spite-fair/1) named who began without binding it: said so
    old = copy.deepcopy(honest)
    old["fairness"].update(scheme=SCHEME, commitment=commitment(SECRET, TABLE, 2))
    code, out, _ = verify(tmp_path, old)
    assert code == 0 and "who began (seat 1) is not bound by this spite-fair/1 commitment" in out
