"""``spite bench pairing``: a simulated Swiss paired round by round, its figures in one line or JSON."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from spite.cli import app

runner = CliRunner()


def test_the_pairing_bench_plays_a_whole_swiss_and_reports_each_round() -> None:
    result = runner.invoke(app, ["bench", "pairing", "--entrants", "41", "--rounds", "4", "--json"])
    assert result.exit_code == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["entrants"] == 41 and figures["rounds"] == 4 and figures["finished"] is True
    assert len(figures["pairing_ms"]) == 4 and figures["rematches"] == 0 and figures["seat_difference_max"] <= 2
    assert 0 < figures["pairing_ms_median"] <= figures["pairing_ms_max"]
    line = runner.invoke(app, ["bench", "pairing", "--entrants", "12", "--rounds", "2"])
    assert line.exit_code == 0 and line.stdout.startswith("pairing 12 entrants: median ")


def test_the_pairing_bench_refuses_impossible_figures_in_one_line() -> None:
    for args, words in ((["--entrants", "1"], "--entrants must be at least 2"),
                        (["--rounds", "16"], "--rounds must be 1 to 15"),
                        (["--window", "1"], "--window must be at least 2")):
        result = runner.invoke(app, ["bench", "pairing", *args])
        assert result.exit_code == 2 and result.stderr.count("\n") == 1 and words in result.stderr
