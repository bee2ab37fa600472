"""``spite bench club --system swiss|arena``: a whole club tournament of computers on one server
process, to its end with no error (the lighter sizes of the benchmark docs/tournaments.md reports for
64 and 200 entrants)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from spite.bench.club import run_club_bench
from spite.cli import app


@pytest.mark.timeout(120)
def test_the_benchmark_plays_a_swiss_to_its_end_without_error() -> None:
    result = CliRunner().invoke(app, ["bench", "club", "--system", "swiss", "--entrants", "9", "--rounds", "2",
                                      "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["rounds"] == 2 and figures["games"] == 2 * 4 * 2  # a bye a round: no game
    assert figures["errors"] == 0 and figures["botFallbacks"] == 0


@pytest.mark.timeout(120)
def test_an_arena_of_twenty_ends_without_error() -> None:
    figures = run_club_bench("arena", 20, minutes=1, time_scale=0.05)
    assert figures["games"] >= 10 and figures["errors"] == 0


def test_the_benchmark_refuses_another_system() -> None:
    result = CliRunner().invoke(app, ["bench", "club", "--system", "knockout"])
    assert result.exit_code != 0 and "--system is swiss or arena" in result.output
