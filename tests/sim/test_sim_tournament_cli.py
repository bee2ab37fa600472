"""``spite tournament --game spit|speed`` plays reflex bots in virtual time with the usual outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spite.cli import app

runner = CliRunner()


@pytest.mark.parametrize("game", ["spit", "speed"])
def test_real_time_tournament_writes_replayable_records(tmp_path: Path, game: str) -> None:
    out = tmp_path / "t"
    result = runner.invoke(app, ["tournament", "--game", game, "--bots", "expert", "beginner", "--games", "4",
                                 "--seed", "3", "--json", "--out", str(out)])
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["game"] == game and summary["games"] == 4
    assert summary["bots"]["expert"]["wins"] + summary["bots"]["beginner"]["wins"] + \
        summary["bots"]["expert"]["draws"] == 4
    records = sorted((out / "records").glob("*.json"))
    assert len(records) == 4
    for path in records:
        check = runner.invoke(app, ["check", str(path)])
        assert check.exit_code == 0 and json.loads(check.stdout)["finished"] is True


def test_real_time_tournament_refuses_board_game_bots() -> None:
    result = runner.invoke(app, ["tournament", "--game", "spit", "--bots", "heuristic", "expert", "--games", "2"])
    assert result.exit_code == 2 and "heuristic" in result.stderr
