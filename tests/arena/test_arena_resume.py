"""A tournament written to --out keeps every finished game: stopped (Ctrl-C) it says how to go on, and
--resume plays only the missing games, ending exactly as an uninterrupted run."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from arena_helpers import csv_rows, last_json, run, without_clock

from spite.arena import GameResult, Setup, run_local, schedule
from spite.arena.backends import chunks
from spite.bots import BOTS, Decision, register_bot
from spite.malice import SeatView
from spite.malice.bots.simple import RandomBot
from waiting import wait_until

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
    summary.pop("new_moves")  # the moves of the games played in this run, like resumed_games
    return summary


@pytest.mark.timeout(180)  # a 400-game tournament twice, stopped and resumed
@pytest.mark.slow
@pytest.mark.parametrize(("stop", "jobs"), [(signal.SIGINT, "1"), (signal.SIGTERM, "2")])
def test_ctrl_c_or_kill_keeps_the_games_and_resume_ends_as_an_uninterrupted_run(
        tmp_path: Path, stop: signal.Signals, jobs: str) -> None:
    straight, stopped = tmp_path / "straight", tmp_path / "stopped"
    args = [*BASE, "--games", "400", "--jobs", jobs]
    code, whole, stderr = run(*args, "--json", "--out", str(straight))
    assert code == 0, stderr

    proc = subprocess.Popen([sys.executable, "-m", "spite", *args, "--out", str(stopped)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"},
                            # as at a terminal: a run in the background (nohup, some CI runners) ignores Ctrl-C
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    log = stopped / "games.jsonl"
    wait_until(lambda: log.exists() and log.read_text().count("\n") >= 20, "the first 20 games in the log", 60,
               every=0.01)
    workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
    assert len(workers) == int(jobs) - 1 if jobs == "1" else len(workers) >= 2
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=60)
    kept = log.read_text().count("\n")
    assert 20 <= kept < 400, "the run should have been stopped part-way"
    assert proc.returncode == 128 + stop, err
    assert err.strip().splitlines()[-1] == (
        f"spite: stopped after {kept} of 400 games; they are kept in {stopped}: "
        f"run the same command with --resume to go on")
    assert "Traceback" not in err and not (stopped / "games.csv").exists()
    for pid in workers:  # the pool's workers ended with the tournament
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid), 0)

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


class HeldBot(RandomBot):
    """A random player that, from its second game in a process on, waits for a file to appear before
    its first move (and gives up after 30 s: the game is then lost by forfeit)."""

    games_here = 0

    def __init__(self, release: str) -> None:
        self.release = Path(release)
        self.held = False

    def start_game(self, opts: object, seat: int) -> None:
        HeldBot.games_here += 1
        self.held = HeldBot.games_here >= 2

    def decide(self, view: SeatView, rng: random.Random, budget: float | None = None) -> Decision:
        if self.held:
            wait_until(self.release.exists, "the release of the held game", 30)
        self.held = False
        return super().decide(view, rng, budget)


def test_two_jobs_hand_back_each_game_as_it_ends_not_when_its_chunk_ends(tmp_path: Path) -> None:
    """Each worker's second game waits until the parent has been handed two games: only a game handed
    back the moment it ends lets that happen (else the waiting game forfeits after 30 s)."""
    release = tmp_path / "release"
    register_bot("held", lambda arg: HeldBot(arg))
    arrived: list[int] = []

    def on_done(res: GameResult) -> None:
        arrived.append(res.index)
        if len(arrived) == 2:
            release.touch()

    try:
        setup = Setup(specs=(f"held:{release}", "random"), preset="short", seed=4)
        games = schedule(2, players=2, games=20, seed=4)
        assert all(len(c) >= 2 for c in chunks(games, 2)[:2])
        results = run_local(setup, games, jobs=2, on_done=on_done)
    finally:
        BOTS.pop("held", None)
    assert sorted(arrived) == list(range(20)) == [r.index for r in results]
    assert [r.error for r in results if r.error] == []


STOPPED_WHILE_THE_PIPE_IS_FULL = """
import os
from pathlib import Path

from spite.arena import Setup, run_local, schedule
from waiting import wait_until

def a_worker_waits_to_hand_over() -> bool:
    \"\"\"A worker's thread that hands games to the parent is stuck writing the queue's full pipe.\"\"\"
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) != os.getpid():
                continue
            if any("pipe_write" in w.read_text() for w in stat.parent.glob("task/*/wchan")):
                return True
        except (OSError, ValueError, IndexError):
            continue
    return False

def on_done(res):
    # the parent stops reading while the workers go on, until the queue's pipe is full
    wait_until(a_worker_waits_to_hand_over, "a worker waiting at the full pipe", 20)
    raise KeyboardInterrupt

try:
    run_local(Setup(specs=("random", "greedy"), preset="short", seed=5),
              schedule(2, players=2, games=4000, seed=5), jobs=2, on_done=on_done)
except KeyboardInterrupt:
    print("stopped")
"""


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sees the full pipe in /proc")
def test_a_pool_stopped_while_its_workers_wait_to_hand_over_games_ends_at_once() -> None:
    """Stopping the pool must not wait for the workers to hand over games nobody will read: with the
    queue's pipe full, that wait never ended and a stopped tournament hung."""
    tests = str(Path(__file__).resolve().parents[1])  # (the script waits with tests/waiting.py)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [tests, os.environ.get("PYTHONPATH")]))}
    proc = subprocess.Popen([sys.executable, "-c", STOPPED_WHILE_THE_PIPE_IS_FULL], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=env)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:  # hung: end the run and its workers too
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert out.strip() == "stopped", err
