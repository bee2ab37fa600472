"""A tournament written to --out keeps every finished game: stopped (Ctrl-C) it says how to go on, and
--resume plays only the missing games, ending exactly as an uninterrupted run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from arena_helpers import csv_rows, last_json, run, without_clock

BASE = ("tournament", "--bots", "random", "greedy", "--preset", "short", "--seed", "5")


def same_games(a: Path, b: Path) -> None:
    assert csv_rows(a / "games.csv") == csv_rows(b / "games.csv")
    names = sorted(p.name for p in (a / "records").iterdir())
    assert names == sorted(p.name for p in (b / "records").iterdir())
    for name in names:
        assert (a / "records" / name).read_text() == (b / "records" / name).read_text()


def summary_without_clock(stdout: str) -> dict[str, object]:
    summary = without_clock(last_json(stdout))
    summary.pop("resumed_games")
    return summary


def test_ctrl_c_keeps_the_games_and_resume_ends_as_an_uninterrupted_run(tmp_path: Path) -> None:
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    args = [*BASE, "--games", "400"]
    code, whole, stderr = run(*args, "--json", "--out", str(straight))
    assert code == 0, stderr

    proc = subprocess.Popen([sys.executable, "-m", "spite", *args, "--out", str(stopped)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    log = stopped / "games.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not log.exists() or log.read_text().count("\n") < 20):
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    kept = log.read_text().count("\n")
    assert 20 <= kept < 400, "the run should have been stopped part-way"
    assert proc.returncode == 130, err
    assert err.strip().splitlines()[-1] == (
        f"spite: stopped after {kept} of 400 games; they are kept in {stopped}: "
        f"run the same command with --resume to go on")
    assert "Traceback" not in err and not (stopped / "games.csv").exists()

    code, resumed, stderr = run(*args, "--json", "--out", str(stopped), "--resume")
    assert code == 0, stderr
    assert last_json(resumed)["resumed_games"] == kept
    assert summary_without_clock(resumed) == summary_without_clock(whole)
    same_games(stopped, straight)


def test_resume_can_add_games_and_takes_the_seed_from_the_folder(tmp_path: Path) -> None:
    straight, grown = tmp_path / "straight", tmp_path / "grown"
    assert run(*BASE, "--games", "12", "--json", "--out", str(straight))[0] == 0
    assert run(*BASE, "--games", "6", "--out", str(grown))[0] == 0
    # no --seed: the folder's seed is used (a run without --seed picks a random one and keeps it there)
    args = [a for a in BASE if a not in ("--seed", "5")]
    code, stdout, stderr = run(*args, "--games", "12", "--json", "--out", str(grown), "--resume")
    assert code == 0, stderr
    summary = last_json(stdout)
    assert summary["seed"] == 5 and summary["resumed_games"] == 6 and summary["games"] == 12
    same_games(grown, straight)


def test_a_cut_last_line_is_dropped_and_its_game_played_again(tmp_path: Path) -> None:
    straight, cut = tmp_path / "straight", tmp_path / "cut"
    assert run(*BASE, "--games", "4", "--out", str(straight))[0] == 0
    assert run(*BASE, "--games", "4", "--out", str(cut))[0] == 0
    log = cut / "games.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text("".join(lines[:2]) + lines[2][:40])  # stopped while writing the third game's line
    code, stdout, stderr = run(*BASE, "--games", "4", "--json", "--out", str(cut), "--resume")
    assert code == 0, stderr
    assert last_json(stdout)["resumed_games"] == 2
    assert [json.loads(line)["index"] for line in log.read_text().splitlines()] == [0, 1, 2, 3]
    same_games(cut, straight)


def test_a_folder_with_a_tournament_is_not_overwritten_and_resume_must_match(tmp_path: Path) -> None:
    assert run(*BASE, "--games", "4", "--out", str(tmp_path))[0] == 0
    before = (tmp_path / "games.jsonl").read_text()
    cases = [
        ((*BASE, "--games", "4", "--out", str(tmp_path)), "already holds a tournament; add --resume"),
        ((*BASE, "--games", "4", "--out", str(tmp_path), "--resume", "--preset", "classic"),
         'holds another tournament: its preset is "short", not "classic"'),
        (("tournament", "--bots", "random", "random", "--games", "4", "--preset", "short", "--seed", "5",
          "--out", str(tmp_path), "--resume"), "its bots is"),
        (("tournament", "--bots", "random", "greedy", "--games", "4", "--resume"), "--resume needs --out"),
    ]
    for args, message in cases:
        code, stdout, stderr = run(*args)
        assert code == 2 and stdout == "", (args, stderr)
        assert stderr.count("\n") == 1 and message in stderr, stderr
    assert (tmp_path / "games.jsonl").read_text() == before

    log = tmp_path / "games.jsonl"
    lines = log.read_text().splitlines(keepends=True)
    log.write_text(lines[0] + "{not json\n" + "".join(lines[1:]))
    code, _, stderr = run(*BASE, "--games", "4", "--out", str(tmp_path), "--resume")
    assert code == 2 and f"{log} line 2 is damaged" in stderr
