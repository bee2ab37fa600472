"""External bots over the line protocol: the example bot plays; misbehaving bots lose and are cleaned up."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from arena_helpers import EXAMPLE_BOT, PY, bot_script, csv_rows, last_json, run, running, spite

from spite.arena import Tournament, run_tournament
from spite.bots import make_bot
from spite.errors import OptionsError
from spite.malice import Options, State
from spite.malice.bots.external import BotError, ExternalBot

EXAMPLE = f"cmd:{PY} {EXAMPLE_BOT}"


def test_the_example_bot_plays_full_games(tmp_path: Path) -> None:
    code, stdout, stderr = run("tournament", "--bots", EXAMPLE, "greedy", "--games", "2", "--preset", "short",
                               "--seed", "4", "--json", "--out", str(tmp_path))
    assert code == 0, stderr
    summary = last_json(stdout)
    assert summary["forfeits"] == []
    rows = csv_rows(tmp_path / "games.csv")
    assert len(rows) == 2 and all(r["reason"] != "forfeit" and r["error"] == "" for r in rows)
    for row in rows:
        code, out, _ = spite("check", str(tmp_path / row["record"]))
        assert code == 0 and json.loads(out)["finished"]
    assert summary["bots"][EXAMPLE]["moves"] > 20
    assert running(str(EXAMPLE_BOT)) == []


def test_the_example_bot_is_deterministic_given_the_seed() -> None:
    a = run_tournament(Tournament([EXAMPLE, "random"], games=2, preset="short", seed=8))
    b = run_tournament(Tournament([EXAMPLE, "random"], games=2, preset="short", seed=8))
    assert [g.outcome_key() for g in a.games] == [g.outcome_key() for g in b.games]


@pytest.mark.parametrize(("behaviour", "reason"), [
    ("garbage", "answered 'I resign, good game', which is not a JSON object"),
    ("illegal", "which is not a legal move here"),
    ("nomove", "which names no move"),
    ("sleep", "did not answer with a move within 1.2 s"),
    ("crash", "exited (code 1) before it answered: ZeroDivisionError: division by zero"),
    ("exit", "exited (code 3)"),
])
def test_a_bot_that_misbehaves_loses_that_game_and_the_tournament_goes_on(
        tmp_path: Path, behaviour: str, reason: str) -> None:
    # the bot misbehaves only when it plays seat 0: game 1 (seat 0) is a forfeit, game 2 (seat 1) is played out
    script = bot_script(tmp_path, behaviour, seats=(0,))
    spec = f"cmd:{PY} {script}"
    start = time.monotonic()
    code, stdout, stderr = run("tournament", "--bots", spec, "greedy", "--games", "2", "--preset", "short",
                               "--seed", "1", "--seconds", "0.2", "--json", "--out", str(tmp_path / "out"))
    elapsed = time.monotonic() - start
    assert code == 0, stderr
    rows = csv_rows(tmp_path / "out" / "games.csv")
    first, second = rows
    assert first["reason"] == "forfeit" and first["winners"] == "greedy"
    assert first["error"].startswith(f"seat 0 ({spec}) loses: {spec} ") and reason in first["error"]
    assert second["reason"] != "forfeit" and int(second["plies"]) > 20 and second["error"] == ""
    for row in rows:  # the forfeited game's record replays up to the forfeit
        code, out, _ = spite("check", str(tmp_path / "out" / row["record"]))
        assert code == 0 and json.loads(out)["ok"]
    summary = last_json(stdout)
    assert summary["bots"]["greedy"]["wins"] >= 1 and summary["bots"][spec]["forfeits"] == 1
    assert summary["forfeits"] == [{"game": 1, "error": first["error"]}]
    assert elapsed < 30
    assert running(str(script)) == []  # no bot process is left behind


def test_a_bot_sleeping_past_its_time_is_stopped_at_once(tmp_path: Path) -> None:
    script = bot_script(tmp_path, "sleep")
    bot = ExternalBot([PY, str(script)], grace=0.3)
    state = State.new(Options.from_preset("short"), 1)
    bot.start_game(state.opts, state.to_move)
    assert len(running(str(script))) == 1
    start = time.monotonic()
    with pytest.raises(BotError, match=r"did not answer with a move within 0\.4 s"):
        bot.decide(state.view(state.to_move), random.Random(1), 0.1)
    assert time.monotonic() - start < 5
    assert running(str(script)) == []
    bot.close()


def test_the_program_is_kept_between_games_and_closed_at_the_end(tmp_path: Path) -> None:
    with ExternalBot([PY, str(EXAMPLE_BOT)]) as bot:
        assert running(str(EXAMPLE_BOT)) == []  # started only when a game starts
        opts = Options.from_preset("short")
        pids = set()
        for seed in (1, 2):
            bot.start_game(opts, 0)
            pids.update(running(str(EXAMPLE_BOT)))
            state = State.new(opts, seed, first=0)
            d = bot.decide(state.view(0), random.Random(seed), None)
            assert d.move in state.legal_moves() and d.why
        assert len(pids) == 1 and bot.announced == "example random bot"
    assert running(str(EXAMPLE_BOT)) == []


def test_make_bot_knows_cmd_and_refuses_bad_commands() -> None:
    bot = make_bot(EXAMPLE)
    assert isinstance(bot, ExternalBot) and bot.name == EXAMPLE
    with pytest.raises(OptionsError, match="give the program"):
        make_bot("cmd:")
    with pytest.raises(OptionsError, match="no such program"):
        make_bot("cmd:/no/such/bot --fast")
    with pytest.raises(OptionsError, match="cannot read the command"):
        make_bot("cmd:python 'unclosed")


def test_a_program_that_does_not_speak_the_protocol_loses_at_hello(tmp_path: Path) -> None:
    script = tmp_path / "mute.py"
    script.write_text("import sys\nfor line in sys.stdin:\n    print('ok?', flush=True)\n")
    t = run_tournament(Tournament([f"cmd:{PY} {script}", "random"], games=2, preset="short", seed=1))
    assert [g.reason for g in t.games] == ["forfeit", "forfeit"]
    assert "answered 'ok?', which is not a JSON object" in t.games[0].error
    assert running(str(script)) == []


def test_an_answer_naming_a_hand_card_is_taken_when_its_rank_form_is_legal_and_the_hand_holds_it() -> None:
    from helpers import position

    state = position(stocks=["9C", "9D"], hands=["7H 5D 7S 5S 7C", "4H"], builds=["AS 2S 3S 4S", "", "", ""])
    view = state.view(0)
    legal = {m.text: m for m in view.legal_moves}
    assert ExternalBot._parsed("h7s-d2", view, legal).text == "H7S-D2"
    assert ExternalBot._parsed("H5C-B1", view, legal) is None  # not in the hand
    assert ExternalBot._parsed("H7C-B1", view, legal) is None  # its rank form is not legal
    assert ExternalBot._parsed("h5-b1", view, legal) is legal["H5-B1"]
