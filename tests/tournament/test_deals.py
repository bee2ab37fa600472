"""A tournament's deals: the commitment and seeds as the contract writes their bytes, and ``spite verify``
on a tournament game's record (honest, tampered, secret not yet revealed)."""

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
from spite.games import get_game
from spite.records.verify import is_chance_entry
from spite.tournament.deals import SCHEME, commitment, deal_seed, fairness, verify

runner = CliRunner()
SECRET = bytes(range(32))
TID = "club-7"


def test_commitment_and_seeds_are_sha256_of_the_contracts_bytes() -> None:
    head = SECRET + bytes([len(TID)]) + TID.encode()
    assert commitment(SECRET, TID) == hashlib.sha256(b"spite-tournament/1" + head).hexdigest()
    assert deal_seed(SECRET, TID, 3) == hashlib.sha256(b"spite-tourney/1" + head + (3).to_bytes(4, "big")).hexdigest()
    assert deal_seed(SECRET, TID, 3, game=2) == hashlib.sha256(
        b"spite-tourney/1" + head + (3).to_bytes(4, "big") + (2).to_bytes(4, "big")).hexdigest()
    # the fixed vectors the module's text prints (a change of the scheme breaks every published tournament)
    assert commitment(SECRET, "t1") == "3c8ff99ab421f87e9a8e0b04ed44f8948055a8d10e78986bb62195040eebcb21"
    assert deal_seed(SECRET, "t1", 1) == "dffc2fa34f657e4af62526e2997a3ddd38662fcea193a19ba98359a2dbf93732"
    seeds = {deal_seed(SECRET, TID, n) for n in range(1, 50)} | {deal_seed(SECRET, "club-8", 1)}
    assert len(seeds) == 50


def test_bad_inputs_are_refused() -> None:
    for call in (lambda: commitment(bytes(31), TID), lambda: deal_seed(SECRET, TID, 0),
                 lambda: deal_seed(SECRET, "", 1), lambda: deal_seed(SECRET, TID, 1, game=0)):
        with pytest.raises(ValueError):
            call()


def test_verify_names_what_does_not_follow() -> None:
    fair = fairness(TID, 2, commitment(SECRET, TID), SECRET)
    assert verify(fair, deal_seed(SECRET, TID, 2)).fair
    assert verify(fair, deal_seed(SECRET, TID, 1)).where == "seed"
    assert verify(fair, None, bytes(32)).where == "commitment"  # another secret than the one the record reveals
    hidden = {**fair, "secret": None}
    assert verify(hidden, deal_seed(SECRET, TID, 2), SECRET).fair
    assert verify(hidden, deal_seed(SECRET, TID, 2), bytes(32)).where == "commitment"
    with pytest.raises(ValueError, match="not revealed yet"):
        verify(hidden, None)
    for broken in ({**fair, "deal": 0}, {**fair, "tournament": ""}, {**fair, "commitment": "ab"},
                   {**fair, "scheme": "x"}):
        with pytest.raises(ValueError):
            verify(broken, None)


# ---------------------------------------------------------------------- spite verify
def tournament_record(deal: int = 3, reveal: bool = True) -> dict[str, Any]:
    """A Spit game of random moves dealt as deal ``deal`` of tournament ``club-7``."""
    seed = deal_seed(SECRET, TID, deal)
    state = get_game("spit").dealt(None, {}, seed)
    rng, t = random.Random(2), 0
    while not state.is_over and t < 600_000:
        t += 150
        state.advance(t)
        if state.is_over:
            break
        seat = rng.choice(state.to_act())
        if legal := state.legal_moves(seat):
            state.apply(seat, rng.choice(legal), t)
    return {**state.to_record().to_json(),
            "fairness": fairness(TID, deal, commitment(SECRET, TID), SECRET if reveal else None)}


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return tournament_record()


def spite_verify(tmp_path: Path, record: dict[str, Any], *args: str) -> tuple[int, str, str]:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["verify", str(path), *args])
    return result.exit_code, result.stdout, result.stderr


def test_an_honest_tournament_game_verifies(tmp_path: Path, record: dict[str, Any]) -> None:
    assert record["fairness"]["scheme"] == SCHEME
    chance = sum(is_chance_entry(m) for m in record["moves"])
    assert chance >= 1
    code, out, err = spite_verify(tmp_path, record)
    assert code == 0, err
    assert out == (f"fair: the commitment, the deal and {chance} chance entr{'y' if chance == 1 else 'ies'} follow "
                   "from the tournament's secret (tournament club-7, deal 3)\n")


def test_before_the_end_the_secret_is_given_on_the_command_line(tmp_path: Path, record: dict[str, Any]) -> None:
    hidden = copy.deepcopy(record)
    hidden["fairness"]["secret"] = None
    code, out, err = spite_verify(tmp_path, hidden)
    assert code == 2 and out == "" and err.count("\n") == 1 and "--secret" in err
    code, out, _ = spite_verify(tmp_path, hidden, "--secret", SECRET.hex())
    assert code == 0 and out.startswith("fair: ")
    code, out, _ = spite_verify(tmp_path, hidden, "--secret", bytes(32).hex())
    assert code == 1 and out.startswith("not fair: the commitment")
    code, _, err = spite_verify(tmp_path, hidden, "--secret", "XYZ")
    assert code == 2 and err.count("\n") == 1 and "64 lower-case hex digits" in err


def test_a_record_of_another_deal_or_a_changed_shuffle_is_not_fair(tmp_path: Path, record: dict[str, Any]) -> None:
    other = copy.deepcopy(record)
    other["fairness"]["deal"] = 4  # the seed is deal 3's: another table's deal passed off as this one
    code, out, _ = spite_verify(tmp_path, other)
    assert code == 1 and out.startswith("not fair: the record's seed is not the seed of deal 4")
    shuffled = copy.deepcopy(record)
    at = next(i for i, m in enumerate(shuffled["moves"]) if is_chance_entry(m))
    entry = shuffled["moves"][at]
    key = "shuffle" if "shuffle" in entry else "deal"
    shuffled["moves"][at] = {key: _swap_two(entry[key])}
    code, out, _ = spite_verify(tmp_path, shuffled)
    assert code == 1 and out.startswith(f"not fair: moves[{at}], chance entry 1:")


def _swap_two(value: Any) -> Any:
    """``value`` (a chance entry's cards, a list or a dict of lists) with two different cards swapped."""
    value = copy.deepcopy(value)
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, list | dict):
                swapped = _swap_two(v)
                if swapped != v:
                    value[k] = swapped
                    return value
        return value
    for i in range(1, len(value)):
        if value[i] != value[0]:
            value[0], value[i] = value[i], value[0]
            return value
    return value


def test_secret_on_the_command_line_is_only_for_tournament_games(tmp_path: Path, record: dict[str, Any]) -> None:
    plain = copy.deepcopy(record)
    plain["fairness"] = {"scheme": "spite-fair/1"}
    code, _, err = spite_verify(tmp_path, plain, "--secret", SECRET.hex())
    assert code == 2 and err.count("\n") == 1 and "tournament" in err
