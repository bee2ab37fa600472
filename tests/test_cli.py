"""The ``spite`` command: the three record commands, new, random-game, bench; exit codes and errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ports import free_port
from spite.cli import app

CONFORMANCE = Path(__file__).resolve().parent / "conformance"
runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin)
    return result.exit_code, result.stdout, result.stderr


def write(tmp_path: Path, record: dict[str, object], name: str = "r.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


def base_record() -> dict[str, object]:
    return json.loads((CONFORMANCE / "classic-11-mid.json").read_text())


def test_check_a_good_record() -> None:
    code, out, _ = run("check", str(CONFORMANCE / "classic-11.json"))
    assert code == 0
    data = json.loads(out)
    assert data["ok"] is True and data["plies"] == 329 and data["finished"] is True
    assert data["result"] == {"winner": 1, "reason": "stock"}


def test_check_names_the_illegal_ply_in_words(tmp_path: Path) -> None:
    rec = base_record()
    moves = rec["moves"]
    assert isinstance(moves, list)
    moves.append("H7-B9")
    code, out, _ = run("check", write(tmp_path, rec))
    assert code == 1
    data = json.loads(out)
    assert data == {"ok": False, "ply": len(moves) - 1, "move": "H7-B9", "error": data["error"]}
    assert "build pile 9" in data["error"] or "hold no 7" in data["error"]


@pytest.mark.parametrize("bad", ["H12-B1", "Z-B1", "HX-B1", "S-D1", ""])
def test_texts_that_are_no_move_of_the_game_are_illegal_moves(tmp_path: Path, bad: str) -> None:
    rec = base_record()
    rec["preset"] = "kings-only" if bad == "HX-B1" else "classic"
    if bad == "HX-B1":
        rec = {"game": "spite-malice", "preset": "kings-only", "seed": 5, "moves": ["HX-B1"]}
    else:
        moves = rec["moves"]
        assert isinstance(moves, list)
        moves.append(bad)
    code, out, _ = run("check", write(tmp_path, rec))
    assert code == 1, out
    assert json.loads(out)["ok"] is False


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(options={"colour": 1}), "unknown option"),
        (lambda r: r.update(preset="bridge"), "unknown preset"),
        (lambda r: r["deal"]["stocks"][0].__setitem__(0, "ZZ"), "is not a card"),
        (lambda r: r["deal"]["stocks"][0].__setitem__(0, r["deal"]["stocks"][0][1]), "the deck has"),
        (lambda r: r.update(format="pgn"), "format"),
        (lambda r: r.pop("deal"), "neither a deal nor a seed"),
    ],
)
def test_malformed_records_exit_2_with_one_line(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    rec = base_record()
    change(rec)
    code, out, _ = run("check", write(tmp_path, rec))
    assert code == 2
    data = json.loads(out)
    assert data["ok"] is False and message in data["error"]
    code, out, err = run("legal", write(tmp_path, rec))
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_missing_chance_entry_is_malformed_and_a_seed_fills_it_in(tmp_path: Path) -> None:
    rec = json.loads((CONFORMANCE / "classic-11.json").read_text())
    moves = rec["moves"]
    first = next(i for i, m in enumerate(moves) if isinstance(m, dict))
    del moves[first]
    code, out, _ = run("check", write(tmp_path, rec))
    assert code == 2
    assert f"ply {first}" in json.loads(out)["error"]
    rec["seed"] = 1  # with a seed the engine shuffles itself; the game goes on differently but legally
    rec["moves"] = moves[:first]
    code, out, _ = run("check", write(tmp_path, rec))
    assert code == 0 and json.loads(out)["plies"] == first


def test_shuffle_entry_that_is_not_the_shuffled_cards_is_malformed(tmp_path: Path) -> None:
    rec = json.loads((CONFORMANCE / "classic-11.json").read_text())
    first = next(i for i, m in enumerate(rec["moves"]) if isinstance(m, dict))
    rec["moves"][first]["shuffle"][0] = "X" if rec["moves"][first]["shuffle"][0] != "X" else "AS"
    code, out, _ = run("check", write(tmp_path, rec))
    assert code == 2 and f"ply {first}" in json.loads(out)["error"]
    rec["moves"].insert(1, {"shuffle": ["AS"]})  # a stray entry where nothing is shuffled
    code, out, _ = run("check", write(tmp_path, rec))
    assert code == 2 and "ply 1" in json.loads(out)["error"]


def test_bad_json_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, out, _ = run("check", str(bad))
    assert code == 2 and "not valid JSON" in json.loads(out)["error"]
    code, out, _ = run("check", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in json.loads(out)["error"]


def test_legal_prints_sorted_canonical_moves_and_nothing_when_over() -> None:
    code, out, _ = run("legal", str(CONFORMANCE / "classic-15-mid.json"))
    expected = json.loads((CONFORMANCE / "classic-15.expected.json").read_text())["mid"]["legal"]
    assert code == 0 and out.split() == sorted(expected)
    code, out, _ = run("legal", str(CONFORMANCE / "classic-15.json"))
    assert code == 0 and out == ""


def test_show_as_a_seat_hides_the_other_hands_and_the_draw_order() -> None:
    path = str(CONFORMANCE / "partners-14-mid.json")
    code, out, _ = run("show", path, "--json")
    full = json.loads(out)
    assert code == 0 and all(p["hand"] is not None for p in full["players"]) and "draw_pile" in full
    code, out, _ = run("show", path, "--as", "2", "--json")
    mine = json.loads(out)
    assert [p["hand"] is not None for p in mine["players"]] == [False, False, True, False]
    assert mine["players"][2]["hand"] == full["players"][2]["hand"]
    assert "draw_pile" not in mine and all("stock_cards" not in p for p in mine["players"])
    assert mine["players"][0]["stock"] == mine["players"][2]["stock"]  # the team stock on both partners
    code, out, _ = run("show", path, "--as", "2")
    assert code == 0 and "Seat 2" in out
    code, _, err = run("show", path, "--as", "7")
    assert code == 2 and "no seat 7" in err


def test_standard_input_is_read_for_dash() -> None:
    text = (CONFORMANCE / "skip-bo-13.json").read_text()
    code, out, _ = run("check", "-", stdin=text)
    assert code == 0 and json.loads(out)["result"]["winner"] == 0


def test_new_writes_a_record_that_replays(tmp_path: Path) -> None:
    out_file = tmp_path / "new.json"
    code, _, _ = run("new", "--preset", "short", "--option", "open_stock=3", "--seed", "9", "-o", str(out_file))
    assert code == 0
    rec = json.loads(out_file.read_text())
    assert rec["preset"] == "short" and rec["options"] == {"open_stock": 3} and rec["seed"] == 9
    assert len(rec["deal"]["stocks"][0]) == 13
    code, out, _ = run("check", str(out_file))
    assert code == 0 and json.loads(out)["plies"] == 0
    code, _, err = run("new", "--preset", "party", "--option", "partnerships=true")
    assert code == 2 and "partnerships need exactly 4 players" in err


def test_random_game_plays_to_the_end_and_the_record_checks(tmp_path: Path) -> None:
    out_file = tmp_path / "game.json"
    code, _, _ = run("random-game", "--preset", "match", "--seed", "3", "-o", str(out_file))
    assert code == 0
    rec = json.loads(out_file.read_text())
    assert rec["result"] is not None
    code, out, _ = run("check", str(out_file))
    data = json.loads(out)
    assert code == 0 and data["finished"] is True and data["result"] == rec["result"]


def test_bench_engine_prints_one_json_line() -> None:
    code, out, _ = run("bench", "engine", "--seconds", "0.3", "--json")
    assert code == 0
    data = json.loads(out.strip().splitlines()[-1])
    assert data["games_per_s"] > 0 and data["moves_per_s"] > data["games_per_s"]


def test_bench_bots_gives_each_bots_cpu_time_per_decision() -> None:
    code, out, _ = run("bench", "bots", "--bots", "greedy", "heuristic", "--games", "2", "--preset", "short", "--json")
    assert code == 0
    data = json.loads(out.strip().splitlines()[-1])
    assert [row["bot"] for row in data["bots"]] == ["greedy", "heuristic"]
    for row in data["bots"]:
        assert row["decisions"] > 0 and 0 <= row["ms_mean"] <= row["ms_max"] and row["ms_p99"] <= row["ms_max"]
    code, _, err = run("bench", "bots", "--bots", "chess", "greedy")
    assert code == 2 and err.startswith("spite: unknown bot 'chess'")


@pytest.mark.timeout(180)  # a server benchmark
@pytest.mark.slow
def test_bench_server_prints_its_figures_as_the_last_json_line() -> None:
    code, out, _ = run("bench", "server", "--tables", "2", "--seconds", "2", "--think", "0.05", "--warmup", "0.5",
                       "--json")
    assert code == 0
    data = json.loads(out.strip().splitlines()[-1])
    for key in ("tables", "think_s", "setup_s", "seconds", "moves", "offered_moves_per_s", "moves_per_s", "p50_ms",
                "p95_ms", "p99_ms", "max_ms", "games_finished", "errors", "server_cpu_pct", "server_cpu_ms_per_move",
                "server_cpu_wait_pct", "server_cpu_pct_each", "client_cpu_pct", "workers", "load_average"):
        assert key in data, key
    assert data["tables"] == 2 and data["think_s"] == 0.05 and data["offered_moves_per_s"] == 40.0
    assert data["moves"] > 0 and data["errors"] == {}
    assert 0 < data["p50_ms"] <= data["p95_ms"] <= data["p99_ms"] <= data["max_ms"]


@pytest.mark.timeout(120)  # a server benchmark and its baseline
@pytest.mark.slow
def test_bench_server_baseline_measures_the_floor_beside_the_server_and_prints_the_ratio(
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run("bench", "server", "--tables", "2", "--seconds", "2", "--think", "0.05", "--warmup", "0.5",
                       "--baseline", "--json")
    assert code == 0
    data = json.loads(out.strip().splitlines()[-1])
    assert data["floor"]["moves"] > 0 and data["floor_cpu_ms_per_move"] > 0
    assert data["floor_ratio"] == round(data["server_cpu_ms_per_move"] / data["floor_cpu_ms_per_move"], 2)
    assert data["server_gc_max_ms"] >= 0 and data["client_gc_max_ms"] >= 0
    # the same figures in words: measured once (a second run would only measure again what is printed)
    import spite.bench.server

    monkeypatch.setattr(spite.bench.server, "run_server_bench", lambda *args, **kwargs: data)
    code, out, _ = run("bench", "server", "--tables", "2", "--seconds", "2", "--think", "0.05", "--warmup", "0.5",
                       "--baseline")
    assert code == 0
    lines = out.strip().splitlines()
    floor_line = lines[-1]
    assert floor_line.startswith("the floor (bare app on the same stack): ") and " × the floor" in floor_line
    assert float(floor_line.rsplit(": ", 1)[1].split(" ×")[0]) == data["floor_ratio"] > 0
    # the server's own figures come first, with its longest collector pause (its probe answered)
    assert f"the server's longest collector pause {data['server_gc_max_ms']} ms" in lines[-2]


def test_bench_server_refuses_bad_flags() -> None:
    code, _, err = run("bench", "server", "--think", "-1")
    assert code == 2 and "--think" in err
    code, _, err = run("bench", "server", "--workers", "2")  # the bench's default database is SQLite
    assert code == 2 and "PostgreSQL" in err and err.count("\n") == 1


def test_the_installed_command_never_prints_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "spite-malice", "seed": 1, "moves": [42]}')
    proc = subprocess.run([sys.executable, "-m", "spite", "legal", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


# ---------------------------------------------------------------------- starting fast; optional parts
HEAVY = ("fastapi", "starlette", "uvicorn", "pydantic", "sqlalchemy", "alembic", "textual", "matplotlib", "ray",
         "gymnasium", "pettingzoo", "numpy", "websockets", "networkx")


def test_building_the_command_loads_no_layer_and_no_optional_package() -> None:
    """``spite check`` starts fast because ``import spite.cli`` leaves the server, the terminal app, plots and
    the research stack alone; each subcommand imports its layer when it runs."""
    code = ("import sys, spite.cli\n"
            f"print(','.join(sorted(m for m in sys.modules if m.partition('.')[0] in {HEAVY!r})))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.strip() == ""


def spite_without(blocked: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the command as if the packages ``blocked`` were not installed (an import of them fails)."""
    code = ("import sys\n"
            f"for name in {blocked!r}: sys.modules[name] = None\n"
            f"sys.argv = ['spite', *{list(args)!r}]\n"
            "from spite.cli import main\n"
            "main()\n")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("blocked", "args", "message"),
    [
        (("fastapi",), ("serve", "--port", "1"), "spite: install spite[server] to serve\n"),
        (("websockets",), ("bench", "server"), "spite: install spite[server] to measure the server\n"),
        (("textual",), ("tui", "--seats", "human,easy"), "spite: install spite[tui] to play in the terminal\n"),
        (("matplotlib",), ("tournament", "--bots", "random", "random", "--games", "2", "--out", "OUT"),
         "spite: install spite[plot] to draw win_rates.png (--out)\n"),
        (("numpy",), ("bench", "rl", "--seconds", "0.1"),
         "spite: install spite[rl] to measure the research environments\n"),
        (("matplotlib",), ("train", "--games", "2", "--out", "OUT"),
         "spite: install spite[plot] to train the learned value and plot its learning curve\n"),
        (("ray",), ("tournament", "--bots", "random", "random", "--games", "2", "--backend", "ray"),
         "spite: install spite[ray] to play on Ray (--backend ray)\n"),
        (("numpy",), ("tournament", "--bots", "policy:weights.npz", "random", "--games", "2"),
         "spite: install spite[rl] to play the policy bot\n"),
        (("psycopg",), ("serve", "--port", "FREE", "--db", "postgresql://nobody@127.0.0.1:1/spite"),
         "spite: install spite[postgres] to serve on PostgreSQL\n"),
    ],
)
def test_a_subcommand_whose_extra_is_missing_says_which_to_install(
        tmp_path: Path, blocked: tuple[str, ...], args: tuple[str, ...], message: str) -> None:
    out = tmp_path / "out"
    filled = {"OUT": str(out), "FREE": str(free_port())}
    proc = spite_without(blocked, *(filled.get(a, a) for a in args))
    assert (proc.returncode, proc.stderr) == (2, message)
    assert not out.exists()  # refused before any game was played


def test_the_record_commands_need_no_optional_package() -> None:
    path = str(CONFORMANCE / "classic-15-mid.json")
    # (not pydantic: Typer reads the command line with it, so it comes with the core install)
    proc = spite_without(tuple(m for m in HEAVY if m != "pydantic"), "check", path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["plies"] == 70


def test_version_is_the_package_version() -> None:
    from importlib.metadata import version

    import spite

    code, out, _ = run("--version")
    assert code == 0 and out == f"spite {spite.__version__}\n"
    assert version("spite") == spite.__version__  # pyproject.toml reads it from the package: one place


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """The ``spite`` command as installed (``main()``, which turns the parser's errors into one line)."""
    from spite.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return code if isinstance(code, int) else (0 if code is None else 1), out, err


@pytest.mark.parametrize(("args", "words"), [
    (("new", "--seed", "x"), "invalid value for '--seed': 'x' is not a valid int"),
    (("show", str(CONFORMANCE / "classic-11.json"), "--as", "abc"), "invalid value for '--as'"),
    (("frobnicate",), "no such command 'frobnicate'"),
    (("check",), "missing argument 'record'"),
])
def test_the_parsers_own_errors_are_one_line_with_exit_code_2(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str) -> None:
    code, out, err = run_main(capsys, *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("spite: ") and words in err, err
    assert "╭" not in err and "Usage" not in err


def test_help_names_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_main(capsys, "--help")
    assert code == 0
    text = " ".join(out.replace("│", " ").split())
    assert "Exit codes: 0 fine; 1 a move in a record is illegal; 2 a malformed record or command line" in text


def test_counts_of_one_are_singular(tmp_path: Path) -> None:
    code, _, err = run("tui", "--preset", "short", "--seats", "human")
    assert code == 2 and "--seats names 1 seat, but this game has 2 players" in err
    code, out, _ = run("tournament", "--bots", "greedy", "random", "--games", "2", "--seed", "1")
    assert code == 0 and "(1 deal)" in out and "1 deals" not in out


def test_resumed_tournament_says_moves_and_time_of_the_same_games(tmp_path: Path) -> None:
    out_dir = str(tmp_path / "t")
    code, _, _ = run("tournament", "--bots", "greedy", "random", "--games", "2", "--seed", "1", "--out", out_dir)
    assert code == 0
    code, out, _ = run("tournament", "--bots", "greedy", "random", "--games", "4", "--seed", "1", "--out", out_dir,
                       "--resume")
    assert code == 0
    summary = json.loads((tmp_path / "t" / "summary.json").read_text())
    assert f"2 games played now: {summary['new_moves']} moves in {summary['elapsed_s']} s" in out
    assert f"2 kept from before; {summary['moves']} moves in all 4 games" in out
    assert summary["new_moves"] < summary["moves"]


# ---------------------------------------------------------------------- option values, the server's start
@pytest.mark.parametrize(("args", "words"), [
    (("serve", "--port", "99999"), "--port must be 1 to 65535, not 99999"),
    (("serve", "--port", "0"), "--port must be 1 to 65535, not 0"),
    (("serve", "--grace", "-5"), "--grace must be 0 or more, not -5"),
    (("serve", "--bot-delay", "nan"), "--bot-delay must be 0 or more, not nan"),
    (("serve", "--bot-budget", "0"), "--bot-budget must be more than 0, not 0"),
    (("serve", "--bot-workers", "-1"), "--bot-workers must be at least 0, not -1"),
    (("serve", "--turn-clock", "inf"), "--turn-clock must be a finite number of seconds, not inf"),
    (("serve", "--log-level", "loud"), "--log-level is one of debug, info, warning, error, not 'loud'"),
    (("serve", "--port", "FREE", "--db", "nosuch://x"), "--db nosuch://x: no database of that kind is known"),
    (("serve", "--port", "FREE", "--db", "not a url"), "--db 'not a url' is not a database URL"),
    (("serve", "--port", "FREE", "--db", "sqlite:////no/such/folder/spite.db"), "cannot open the database sqlite:////no/such/folder"),
    (("serve", "--host", "name.invalid"), "cannot serve on name.invalid:8000"),
    (("demo", "--delay", "-1"), "--delay must be 0 or more, not -1"),
    (("demo", "--turns", "0"), "--turns must be at least 1, not 0"),
    (("tui", "--bot-delay", "-2"), "--bot-delay must be 0 or more, not -2"),
    (("tournament", "--bots", "random", "random", "--seconds", "inf"), "--seconds must be a finite number"),
    (("hint", str(CONFORMANCE / "classic-15-mid.json"), "--seconds", "nan"), "--seconds must be more than 0, not nan"),
    (("bench", "engine", "--seconds", "nan"), "--seconds must be more than 0, not nan"),
    (("bench", "rl", "--seconds", "-1"), "--seconds must be more than 0, not -1"),
    (("bench", "spit", "--seconds", "inf"), "--seconds must be a finite number of seconds, not inf"),
    (("bench", "spit", "--deals", "0"), "--deals must be at least 1, not 0"),
    (("bench", "tournament", "--seconds", "nan"), "--seconds must be more than 0, not nan"),
    (("bench", "server", "--warmup", "-1"), "--warmup must be 0 or more, not -1"),
])
def test_option_values_are_checked_in_one_line_with_exit_code_2(
        capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str) -> None:
    code, out, err = run_main(capsys, *(str(free_port()) if a == "FREE" else a for a in args))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("spite: ") and words in err, err


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run("serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'spite.db'}")
    assert (code, out) == (2, "")
    assert err == f"spite: cannot serve on 127.0.0.1:{port}: address already in use\n"
    assert not (tmp_path / "spite.db").exists()  # refused before anything was made


@pytest.mark.parametrize("game", ["spite-malice", "spit", "speed"])
def test_every_game_takes_the_level_words_in_a_tournament(game: str) -> None:
    """``spite tui --game spit --seats human,hard`` and ``spite tournament --game spit --bots hard …``
    take the same words: easy, medium, hard, expert, for every game."""
    from spite.games import game_names, get_game

    assert game in game_names()
    short = () if get_game(game).realtime else ("--preset", "short", "--seconds", "0.02")
    for pair in (("easy", "hard"), ("medium", "expert")):
        code, out, err = run("tournament", "--game", game, "--bots", *pair, "--games", "2", "--seed", "1", *short,
                             "--json")
        assert code == 0, err
        summary = json.loads(out.strip().splitlines()[-1])
        assert set(summary["bots"]) == set(pair) and summary["games"] == 2
    code, _, err = run("tournament", "--game", game, "--bots", "wizard", "easy", "--games", "2")
    assert code == 2 and "easy, medium, hard, expert" in err


@pytest.mark.parametrize("group", [(), ("bench",)])
def test_help_lists_each_command_with_one_whole_sentence(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, group: tuple[str, ...]) -> None:
    """In an 80-column terminal ``spite --help`` gives each command one line, a whole sentence (never a
    description cut where its docstring's source line ended)."""
    import typer.main

    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run_main(capsys, *group, "--help")
    assert code == 0
    command = typer.main.get_command(app)
    for name in group:
        command = command.commands[name]  # type: ignore[attr-defined]
    commands = command.commands  # type: ignore[attr-defined]
    panel = [line for line in out[out.index("Commands"):].splitlines()[1:] if line.startswith("│")]
    rows = [line.strip("│ ").split(maxsplit=1) for line in panel]
    assert [row[0] for row in rows] == list(commands), panel  # no row carries on the one before it
    assert all(row[1].endswith(".") for row in rows), panel
    for name, sub in commands.items():  # a command's own help: each paragraph one line, wrapped by the terminal
        assert all("\n" not in paragraph for paragraph in (sub.help or "").split("\n\n")), name


# ---------------------------------------------------------------------- the README's figures
def test_figures_rewrites_only_the_tables_it_owns(tmp_path: Path) -> None:
    from spite.cli.figures import CHECKED_RECORD

    (tmp_path / CHECKED_RECORD).parent.mkdir(parents=True)
    (tmp_path / CHECKED_RECORD).write_bytes((Path(__file__).parent.parent / CHECKED_RECORD).read_bytes())
    readme = tmp_path / "README.md"
    before, after = "# spite\n\nStart-up:\n\n", "\n| a hand-made table | 1 |\n"
    readme.write_text(f"{before}<!-- figures:startup -->\n| old | 9.99 s |\n<!-- /figures:startup -->{after}")
    code, _, err = run("bench", "figures", str(readme), "--only", "startup", "--runs", "2")
    assert code == 0, err
    text = readme.read_text()
    assert text.startswith(before + "<!-- figures:startup -->\n") and text.endswith("<!-- /figures:startup -->" + after)
    row = next(line for line in text.splitlines() if line.startswith("| `time spite check"))
    median, fastest, runs = (cell.strip() for cell in row.split("|")[2:5])
    assert runs == "2" and 0 < float(fastest.removesuffix(" s")) <= float(median.removesuffix(" s")) < 10
    assert "9.99" not in text and "spite bench figures --only startup" in text


def test_figures_refuses_a_readme_without_the_markers_before_measuring(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# spite\n")
    code, _, err = run("bench", "figures", str(readme), "--only", "review")
    assert code == 2
    assert err == "spite: the README has no <!-- figures:review --> … <!-- /figures:review --> to rewrite\n"
    assert readme.read_text() == "# spite\n"
    code, _, err = run("bench", "figures", str(readme), "--only", "speed")
    assert code == 2 and "unknown figure 'speed' (one of startup, rl, review)" in err


def test_the_readme_holds_the_markers_of_every_figure() -> None:
    from spite.cli.figures import FIGURES, rewrite

    text = (Path(__file__).parent.parent / "README.md").read_text()
    for name in FIGURES:
        rewrite(text, name, "")  # raises when a marker is missing or doubled
