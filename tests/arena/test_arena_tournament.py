"""Real small tournaments through the command line: --json, --out, --jobs, the ray backend, errors."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path
from typing import ClassVar

import pytest
from arena_helpers import csv_rows, last_json, run, spite, without_clock

from spite.arena import Tournament, run_tournament
from spite.bots import Bot, Decision, register_bot
from spite.bots.base import Bot as BotBase
from spite.malice import SeatView, State

BASE = ("tournament", "--bots", "random", "greedy", "--games", "8", "--preset", "short", "--seed", "7")


@pytest.fixture(scope="module")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, object], Path]:
    out = tmp_path_factory.mktemp("local")
    code, stdout, stderr = run(*BASE, "--json", "--out", str(out))
    assert code == 0, stderr
    return last_json(stdout), out


def test_json_summary_has_every_figure_per_bot(local_run: tuple[dict[str, object], Path]) -> None:
    summary, _ = local_run
    bots = summary["bots"]
    assert isinstance(bots, dict) and list(bots) == ["random", "greedy"]
    for b in bots.values():
        assert b["games"] == 8
        assert b["wins"] + b["draws"] + b["losses"] == 8
        assert b["win_rate"] == round(b["wins"] / 8, 4)
        lo, hi = b["ci95"]
        assert 0 <= lo <= b["win_rate"] <= hi <= 1
        assert b["mean_turns"] > 0 and b["mean_think_ms"] > 0 and isinstance(b["elo"], float)
    assert summary["games"] == 8 and summary["deals"] == 4 and summary["seed"] == 7
    # two sides, zero-mean Elo; the side that scored more has the higher rating
    r, g = bots["random"], bots["greedy"]
    assert r["elo"] == -g["elo"]
    assert (g["score"] > r["score"]) == (g["elo"] > r["elo"])


def test_out_writes_a_row_and_a_checkable_record_per_game_and_a_png(local_run: tuple[dict[str, object], Path]) -> None:
    summary, out = local_run
    rows = csv_rows(out / "games.csv", drop=())
    assert len(rows) == 8 == summary["games"]
    assert [int(r["game"]) for r in rows] == list(range(1, 9))
    # duplicate deals: games 1 and 2 share a seed with the seats swapped
    assert rows[0]["seed"] == rows[1]["seed"] and rows[0]["seats"] == "random;greedy"
    assert rows[1]["seats"] == "greedy;random"
    wins = {"random": 0, "greedy": 0}
    for row in rows:
        code, stdout, _ = spite("check", str(out / row["record"]))
        assert code == 0, stdout
        checked = json.loads(stdout)
        record = json.loads((out / row["record"]).read_text())
        assert checked["ok"] and checked["finished"] and checked["plies"] == len(record["moves"])
        assert sum(isinstance(m, str) for m in record["moves"]) == int(row["plies"])  # moves, not shuffles
        assert record["seed"] == int(row["seed"]) and record["preset"] == "short"
        if row["winner"]:
            assert checked["result"]["winner"] == int(row["winner"])
            winner = row["seats"].split(";")[int(row["winner"])]
            assert row["winners"] == winner
            wins[winner] += 1
        else:
            assert checked["result"]["winner"] is None and row["winners"] == ""
    bots = summary["bots"]
    assert isinstance(bots, dict)
    assert {name: bots[name]["wins"] for name in wins} == wins
    first, second = (json.loads((out / rows[i]["record"]).read_text()) for i in (0, 1))
    assert first["deal"] == second["deal"]  # a duplicate deal: the very same cards, seats swapped
    assert (out / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((out / "summary.json").read_text())["bots"] == summary["bots"]


def test_two_jobs_play_exactly_the_same_games(local_run: tuple[dict[str, object], Path], tmp_path: Path) -> None:
    summary, out = local_run
    code, stdout, stderr = run(*BASE, "--json", "--out", str(tmp_path), "--jobs", "2")
    assert code == 0, stderr
    assert without_clock(last_json(stdout)) == without_clock(summary)
    assert csv_rows(tmp_path / "games.csv") == csv_rows(out / "games.csv")
    for rec in sorted((out / "records").iterdir()):
        assert (tmp_path / "records" / rec.name).read_text() == rec.read_text()


@pytest.mark.timeout(180)  # Ray starts its workers
@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install 'spite[ray]')")
def test_the_ray_backend_plays_exactly_the_same_games(local_run: tuple[dict[str, object], Path],
                                                      tmp_path: Path) -> None:
    summary, out = local_run
    code, stdout, stderr = run(*BASE, "--json", "--out", str(tmp_path), "--backend", "ray", "--jobs", "2")
    assert code == 0, stderr
    got = last_json(stdout)
    assert got["backend"] == "ray"
    assert without_clock(got) == without_clock(summary)
    assert csv_rows(tmp_path / "games.csv") == csv_rows(out / "games.csv")
    for rec in sorted((out / "records").iterdir()):
        assert (tmp_path / "records" / rec.name).read_text() == rec.read_text()


def test_another_seed_plays_other_games(local_run: tuple[dict[str, object], Path]) -> None:
    summary, _ = local_run
    code, stdout, _ = run(*BASE[:-1], "8", "--json")
    assert code == 0
    assert without_clock(last_json(stdout)) != without_clock(summary)


def test_human_output_is_a_table(tmp_path: Path) -> None:
    code, stdout, _ = run("tournament", "--bots", "greedy", "greedy", "--games", "2", "--preset", "short",
                          "--seed", "1", "--out", str(tmp_path))
    assert code == 0
    assert "greedy#2" in stdout and "Elo" in stdout and "games.csv" in stdout


def test_four_bots_in_partnerships_win_and_lose_with_their_partner() -> None:
    t = run_tournament(Tournament(["random", "greedy", "greedy", "random"], games=4, preset="partners",
                                  options={"stock_size": 5}, seed=3))
    assert [g.seats for g in t.games] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    for g in t.games:
        assert g.scores[0] == g.scores[2] and g.scores[1] == g.scores[3]
        if g.team is not None:
            assert g.scores[g.seats[g.team]] == 1.0 and g.scores[g.seats[1 - g.team]] == 0.0
    assert list(t.summary["bots"]) == ["random", "greedy", "greedy#2", "random#2"]


def test_three_and_four_player_tournaments(tmp_path: Path) -> None:
    code, stdout, _ = run("tournament", "--bots", "random", "greedy", "random", "--games", "3", "--preset", "party",
                          "--option", "stock_size=5", "--seed", "2", "--json")
    assert code == 0
    s = last_json(stdout)
    assert list(s["bots"]) == ["random", "greedy", "random#2"] and s["games"] == 3 and s["players"] == 3
    code, stdout, _ = run("tournament", "--bots", "greedy", "random", "--games", "2", "--preset", "partners",
                          "--option", "stock_size=5", "--seed", "2", "--json", "--out", str(tmp_path))
    assert code == 0
    s = last_json(stdout)
    assert s["games"] == 2 and s["sides"] == 2
    for row in csv_rows(tmp_path / "games.csv"):
        assert row["seats"] in ("greedy;random;greedy;random", "random;greedy;random;greedy")
        if row["team"]:  # a team win is both its bots' win: one name in winners
            assert row["winners"] == row["seats"].split(";")[int(row["team"])]


@pytest.mark.parametrize(("args", "message"), [
    (("--bots", "random", "--games", "2"), "at least 2 bots"),
    (("--bots", "random", "chess"), "unknown bot 'chess'"),
    (("--bots", "random", "greedy", "--preset", "nope"), "unknown preset 'nope'"),
    (("--bots", "random", "greedy", "--option", "stock_size=x"), "stock_size must be a whole number"),
    (("--bots", "random", "greedy", "random"), "3 bots cannot share 2 seats"),
    (("--bots", "random", "greedy", "--games", "0"), "--games must be at least 1"),
    (("--bots", "random", "greedy", "--jobs", "0"), "--jobs must be at least 1"),
    (("--bots", "random", "greedy", "--seconds", "0"), "--seconds must be more than 0"),
    (("--bots", "random", "greedy", "--backend", "spark"), "unknown backend 'spark'"),
    (("--bots", "random", "cmd:no-such-program-xyz"), "no such program 'no-such-program-xyz'"),
])
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], message: str) -> None:
    code, stdout, stderr = run("tournament", *args)
    assert code == 2 and stdout == ""
    assert stderr.count("\n") == 1 and message in stderr and "Traceback" not in stderr


def test_out_that_is_a_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("x")
    code, _, stderr = run(*BASE, "--out", str(path))
    assert code == 2 and "is a file" in stderr


class Spy(BotBase):
    """Records what it is given, and plays the first legal move."""

    name = "spy"
    seen: ClassVar[list[tuple[object, ...]]] = []

    def start_game(self, opts: object, seat: int) -> None:
        self.seat = seat

    def decide(self, view: SeatView, rng: object, budget: float | None = None) -> Decision:
        Spy.seen.append((type(view), view.seat, view.to_move, self.seat, view.hand is not None, budget))
        return Decision(view.legal_moves[0], "first")


def test_a_bot_only_ever_gets_its_own_seat_view_and_the_budget() -> None:
    register_bot("spy", lambda arg: Spy())
    Spy.seen = []
    try:
        t = run_tournament(Tournament(["spy", "random"], games=2, preset="short", seed=3, seconds=0.25))
    finally:
        from spite.bots import BOTS

        BOTS.pop("spy", None)
    assert Spy.seen and t.summary["bots"]["spy"]["moves"] == len(Spy.seen)
    for kind, seat, to_move, own_seat, has_hand, budget in Spy.seen:
        assert issubclass(kind, SeatView) and not issubclass(kind, State)  # the mover's view may be a lazy SeatView
        assert seat == to_move == own_seat and has_hand and budget == 0.25


class Crashing(BotBase):
    name = "crashing"

    def decide(self, view: SeatView, rng: object, budget: float | None = None) -> Decision:
        if view.turn >= 2:
            raise RuntimeError("out of ideas")
        return Decision(view.legal_moves[-1])


class Cheating(BotBase):
    name = "cheating"

    def decide(self, view: SeatView, rng: object, budget: float | None = None) -> Decision:
        return Decision("S-B1")  # type: ignore[arg-type]  # not a Move, and rarely legal


def test_an_in_process_bot_that_crashes_or_plays_illegally_loses_and_the_tournament_goes_on() -> None:
    register_bot("crashing", lambda arg: Crashing())
    register_bot("cheating", lambda arg: Cheating())
    try:
        t = run_tournament(Tournament(["crashing", "greedy"], games=2, preset="short", seed=1))
        u = run_tournament(Tournament(["cheating", "greedy"], games=2, preset="short", seed=1))
    finally:
        from spite.bots import BOTS

        BOTS.pop("crashing", None)
        BOTS.pop("cheating", None)
    assert [r.reason for r in t.games] == ["forfeit", "forfeit"]
    assert all("crashing) loses: crashed: RuntimeError: out of ideas" in r.error for r in t.games)
    assert t.summary["bots"]["greedy"]["wins"] == 2 and t.summary["bots"]["crashing"]["forfeits"] == 2
    assert [r.reason for r in u.games] == ["forfeit", "forfeit"]
    for r in u.games:
        assert r.forfeit_seat is not None
        assert "(cheating) loses: illegal move S-B1" in r.error
        assert r.scores == {r.seats[r.forfeit_seat]: 0.0, 1 - r.seats[r.forfeit_seat]: 1.0}


def test_csv_has_the_documented_columns(local_run: tuple[dict[str, object], Path]) -> None:
    _, out = local_run
    with (out / "games.csv").open(newline="") as fh:
        header = next(csv.reader(fh))
    assert header[:5] == ["game", "deal", "rotation", "seed", "seats"] and "error" in header and "record" in header
    assert issubclass(Spy, Bot)
