"""spite hint: a legal move for the player to move, with one line of why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from arena_helpers import EXAMPLE_BOT, PY, ROOT, run, spite

from spite.errors import OptionsError
from spite.malice import Options, State
from spite.malice.hint import hint
from waiting import bounded

CONFORMANCE = ROOT / "tests" / "conformance"


@pytest.mark.parametrize("bot", ["random", "greedy", "easy", f"cmd:{PY} {EXAMPLE_BOT}"])
@pytest.mark.parametrize("record", ["classic-15-mid.json", "partners-14-mid.json", "skip-bo-13-mid.json"])
def test_hint_prints_a_legal_move_and_why(bot: str, record: str) -> None:
    path = str(CONFORMANCE / record)
    code, out, err = run("hint", path, "--bot", bot)
    assert code == 0, err
    move, why = out.splitlines()
    _, legal, _ = spite("legal", path)
    assert move in legal.splitlines()
    assert why.startswith("why: ") and len(why) > 6
    code, out, _ = run("hint", path, "--bot", bot, "--json")
    data = json.loads(out)
    assert data["move"] in legal.splitlines() and data["bot"] == bot and isinstance(data["seat"], int)


def test_hint_with_the_default_bot_and_a_time_budget(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    code, out, _ = spite("new", "--preset", "short", "--seed", "11", "-o", str(path))
    assert code == 0
    code, out, err = run("hint", str(path), "--seconds", "0.2")
    assert code == 0, err
    _, legal, _ = spite("legal", str(path))
    assert out.splitlines()[0] in legal.splitlines()


def test_the_same_seed_gives_the_same_hint() -> None:
    state = State.new(Options.from_preset("classic"), 5)
    assert hint(state, "random", seed=3) == hint(state, "random", seed=3)
    assert len({hint(state, "random", seed=s).move for s in range(12)}) > 1


@pytest.mark.parametrize(("args", "code", "message"), [
    (("nofile.json",), 2, "no such file"),
    (("{conf}/classic-15-mid.json", "--bot", "chess"), 2, "unknown bot 'chess'"),
    (("{conf}/classic-15-mid.json", "--seconds", "-1"), 2, "--seconds must be more than 0"),
    (("{conf}/classic-15.json",), 2, "the game is over"),
])
def test_hint_errors_are_one_line(args: tuple[str, ...], code: int, message: str) -> None:
    got, out, err = run("hint", *(a.format(conf=CONFORMANCE) for a in args))
    assert got == code and out == ""
    assert err.count("\n") == 1 and message in err


def test_hint_refuses_a_record_with_an_illegal_move(tmp_path: Path) -> None:
    rec = json.loads((CONFORMANCE / "classic-15-mid.json").read_text())
    rec["moves"].append("H7-B9")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    code, out, err = run("hint", str(path))
    assert code == 1 and out == "" and "H7-B9" in err


def test_hint_of_a_finished_game_is_refused_by_the_function_too() -> None:
    state = State.new(Options.from_preset("short"), 2)
    for _ in bounded(20_000, "the game's end", until=lambda: state.result is not None):
        state.play(state.legal_moves()[0])
    with pytest.raises(OptionsError, match="over"):
        hint(state, "random")


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_a_real_time_game_has_no_hints(tmp_path: Path, game: str) -> None:
    path = tmp_path / "rt.json"
    code, out, _ = spite("new", "--game", game, "--seed", "4", "-o", str(path))
    assert code == 0
    code, out, err = run("hint", str(path))
    assert code == 2 and out == ""
    assert err == f"spite: {game} has no hints (the bots give them for turn games)\n"
