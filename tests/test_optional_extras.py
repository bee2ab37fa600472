"""The core install and the optional extras: every computer level plays with the core alone, and a
part that needs an extra says in one line which one (``spite: install spite[plot] to …``, exit 2).

Packages are made missing in a fresh Python process by an import hook (a ``sitecustomize`` module
on ``PYTHONPATH``, so processes that the command starts, bot workers and benchmark servers, miss
them too): an import of a blocked package fails as it does when the package is not installed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import re
import signal
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

import spite
from ports import free_port, listens
from spite.bots import BOTS, NeedsExtraError, make_bot
from spite.cli.common import EXTRAS
from spite.malice import Options, State
from waiting import bounded, wait_until

SRC = Path(spite.__file__).resolve().parent.parent

BLOCKER = '''
"""Test hook: SPITE_TEST_BLOCK=a,b makes the packages a and b missing; SPITE_TEST_ASKED=FILE notes
which of SPITE_TEST_WATCH the process asked for (imported or looked up)."""
import os
import sys

_BLOCKED = frozenset(filter(None, os.environ.get("SPITE_TEST_BLOCK", "").split(",")))
_WATCHED = frozenset(filter(None, os.environ.get("SPITE_TEST_WATCH", "").split(",")))
_ASKED = os.environ.get("SPITE_TEST_ASKED")


class _MissingPackages:
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if _ASKED and top in _WATCHED:
            with open(_ASKED, "a") as fh:
                fh.write(top + "\\n")
        if top in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


if _BLOCKED or _ASKED:
    sys.meta_path.insert(0, _MissingPackages())
'''


@pytest.fixture(scope="session")
def blocker(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the ``sitecustomize`` that makes packages missing (see the module's docstring)."""
    folder = tmp_path_factory.mktemp("blocker")
    (folder / "sitecustomize.py").write_text(BLOCKER)
    (folder / "drive_tui.py").write_text(DRIVE_TUI)
    return folder


def environment(blocker: Path, blocked: tuple[str, ...] = (), asked: Path | None = None,
                watched: tuple[str, ...] = ()) -> dict[str, str]:
    """The environment of a process that misses ``blocked`` (and notes in ``asked`` what it asks for)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SPITE_TEST_")}
    env["PYTHONPATH"] = os.pathsep.join([str(blocker), str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    env["SPITE_TEST_BLOCK"] = ",".join(blocked)
    if asked is not None:
        env["SPITE_TEST_ASKED"] = str(asked)
        env["SPITE_TEST_WATCH"] = ",".join(watched)
    env["COLUMNS"] = "120"
    return env


# ---------------------------------------------------------------------- the server's bots
def test_a_level_whose_bot_cannot_be_made_is_an_operator_error_logged_once(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from spite.malice.server import pack_view
    from spite.server.bots import BotRunner
    from spite.server.table.effects import BotAsk

    make_bot("greedy")  # the bots' own modules are loaded: the factory below stays
    needs_numpy = NeedsExtraError("rl", "play the learned bot")

    def cannot(arg: str) -> NoReturn:
        raise needs_numpy

    monkeypatch.setitem(BOTS, "learned", cannot)
    runner = BotRunner(workers=0)
    with caplog.at_level(logging.WARNING, logger="spite.server.bots"):
        runner.start()
        try:
            state = State.new(Options.from_preset("short"), seed=3)
            view = state.view(state.to_move)
            question = BotAsk("spite.malice.server:BOTS", state.to_move, tuple(m.text for m in view.legal_moves),
                              pack_view(view))

            async def ask(level: str) -> tuple[str, bool]:
                return await runner.decide("t1", level, question, "seed")

            hard = [asyncio.run(ask("hard")) for _ in range(3)]
            easy = asyncio.run(ask("easy"))
        finally:
            runner.close()
    assert runner.unavailable == {"hard": "install spite[rl] to play the learned bot"}
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(errors) == 1 and errors[0].levelno == logging.ERROR  # at start, once; not at every move
    assert "bot level hard cannot play on this install: install spite[rl]" in errors[0].getMessage()
    assert all(fallback for _move, fallback in hard)  # the table goes on: the first legal move
    assert easy[1] is False and easy[0] in {m.text for m in view.legal_moves}


def test_every_level_plays_at_a_server_without_numpy(blocker: Path) -> None:
    """``pip install 'spite[server]'`` has no numpy: every level's bot plays its own move in the
    bot worker process (spawned: it misses numpy too), none falls back."""

    code = """
import asyncio
from spite.malice import Options, State
from spite.server.bots import BotRunner
from spite.server.config import BOT_LEVELS
from spite.malice.server import pack_view
from spite.server.table.effects import BotAsk

async def main():
    runner = BotRunner(workers=1, budget=0.2)
    runner.start()
    try:
        state = State.new(Options.from_preset("short"), seed=5)
        view = state.view(state.to_move)
        ask = BotAsk("spite.malice.server:BOTS", state.to_move, tuple(m.text for m in view.legal_moves),
                     pack_view(view))
        for level in BOT_LEVELS:
            move, fallback = await runner.decide("t-" + level, level, ask, "seed")
            print(level, move, fallback)
    finally:
        runner.close()
    print("unavailable", runner.unavailable)

asyncio.run(main())
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          env=environment(blocker, ("numpy",)))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "unavailable {}"
    assert [line.split()[0] for line in lines[:-1]] == ["random", "easy", "medium", "hard", "expert"]
    assert all(line.endswith(" False") for line in lines[:-1]), lines


def test_a_bot_that_needs_an_extra_names_it(blocker: Path) -> None:

    code = "from spite.bots import make_bot\nmake_bot('policy:weights.npz')\n"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env=environment(blocker, ("numpy",)))
    assert "spite.bots.NeedsExtraError: install spite[rl] to play the policy bot" in proc.stderr


# ---------------------------------------------------------------------- every subcommand without each package
OPTIONAL = ("numpy", "matplotlib", "textual", "fastapi", "uvicorn", "sqlalchemy", "alembic", "websockets", "ray",
            "gymnasium", "pettingzoo", "open_spiel", "pyspiel", "psycopg", "prometheus_client", "webauthn", "qrcode")
"""The packages of the optional extras (pyproject.toml) a subcommand may ask for."""

INSTALL = re.compile(r"spite: install spite\[(?P<extra>[a-z]+)\] to [^\n]+\n")
"""The one line a subcommand says when an extra it needs is missing (exit code 2)."""

CONFORMANCE = Path(__file__).resolve().parent / "conformance"

DRIVE_TUI = '''
"""``spite ARGS`` with the terminal app headless: wait for the person's turn (the computer may
begin), ask for a hint (?), end the turn with a discard, wait for the computer's answer, quit."""
import asyncio
import sys

from spite.cli import main


def headless(app, *args, **kwargs):
    from spite.malice import DISCARD, PASS
    from spite.malice.tui.screen import MaliceScreen

    async def until(pilot, done, what):
        for _ in range(6000):
            if done():
                return
            await pilot.pause(0.01)
        raise SystemExit(f"the app never {what}")

    async def drive():
        async with app.run_test(size=(100, 32)) as pilot:
            await until(pilot, lambda: isinstance(app.game_screen, MaliceScreen), "showed the table")
            screen = app.game_screen
            table = screen.table
            person = table.humans[0]
            await until(pilot, lambda: screen.waiting_for_human, "let the person play")
            await pilot.press("question_mark")
            if "Hint: " not in screen.message:
                raise SystemExit(f"no hint after ?: {screen.message!r}")
            moves = len(table.log)
            table.play(next(m for m in table.view(person).legal_moves if m.kind in (DISCARD, PASS)))
            screen.advance()
            await until(pilot, lambda: (screen.waiting_for_human and len(table.log) > moves + 1)
                        or table.state.is_over, "answered the person's turn")
            print("the computer played", " ".join(e.move for e in table.log[moves + 1:]))

    asyncio.run(drive())


try:
    from textual.app import App
except ModuleNotFoundError:  # the command itself must say so
    pass
else:
    App.run = headless
sys.argv = ["spite", *sys.argv[1:]]
main()
'''


@dataclass(frozen=True)
class Case:
    """One run of a subcommand: its arguments (``{conf}``, ``{tmp}``, ``{port}`` filled in), the extra it
    needs (None: the core install is enough) and what its output shows when it works."""

    args: tuple[str, ...]
    extra: str | None = None
    shows: str = ""
    mode: str = "run"
    """``run`` to the end; ``tui`` headless (:data:`DRIVE_TUI`); ``serve`` until it answers, then Ctrl-C."""

    @property
    def needs(self) -> frozenset[str]:
        """The packages without which ``spite: install spite[EXTRA] to …`` is the right answer."""
        return EXTRAS[self.extra] if self.extra else frozenset()


CASES: dict[str, Case] = {
    "check": Case(("check", "{conf}/classic-15-mid.json"), shows='"ok": true'),
    "legal": Case(("legal", "{conf}/classic-15-mid.json"), shows="-B"),
    "show": Case(("show", "{conf}/partners-14-mid.json", "--as", "2"), shows="Seat 2"),
    "verify": Case(("verify", "{tmp}/fair.json"), shows="fair: "),
    "new": Case(("new", "--preset", "match", "--seed", "42"), shows='"seed": 42'),
    "random-game": Case(("random-game", "--preset", "short", "--seed", "7"), shows='"result"'),
    "demo": Case(("demo", "--preset", "short", "--delay", "0", "--turns", "2", "--seed", "1"), shows="moves:"),
    "tournament": Case(("tournament", "--bots", "hard", "expert", "--preset", "short", "--games", "2", "--seed", "1",
                        "--seconds", "0.05"), shows="expert"),
    "tournament --out": Case(("tournament", "--bots", "easy", "medium", "--preset", "short", "--games", "2",
                              "--seed", "1", "--out", "{tmp}/t"), extra="plot", shows="win_rates.png"),
    "tournament --game spit": Case(("tournament", "--game", "spit", "--bots", "hard", "easy", "--games", "2",
                                    "--seed", "1"), shows="hard"),
    "hint": Case(("hint", "{conf}/classic-15-mid.json"), shows="why: "),
    "hint --bot greedy": Case(("hint", "{conf}/classic-15-mid.json", "--bot", "greedy"), shows="why: "),
    "review": Case(("review", "{tmp}/fair.json", "--as", "0", "--budget", "0.01"), shows="accuracy"),
    "train": Case(("train", "--games", "2", "--epochs", "3", "--bots", "greedy,casual", "--out", "{tmp}/v.json"),
                  extra="plot", shows="trained on"),
    "tui": Case(("tui", "--preset", "short", "--seats", "human,hard", "--seed", "3", "--bot-delay", "0"),
                extra="tui", shows="the computer played", mode="tui"),
    "serve": Case(("serve", "--port", "{port}", "--db", "sqlite:///{tmp}/spite.db", "--bot-workers", "0",
                   "--log-level", "warning"), extra="server", shows='"ok":true', mode="serve"),
    "admin": Case(("admin", "--db", "sqlite:///{tmp}/club.db", "bans"), extra="server", shows="no bans"),
    "backup": Case(("backup", "{tmp}/club.backup", "--db", "sqlite:///{tmp}/club.db"), extra="server",
                   shows="backed up 0 tables"),
    "deploy": Case(("deploy", "{tmp}/deploy", "--domain", "club.example"), extra="server", shows="spite.service"),
    "bench backup": Case(("bench", "backup", "--games", "3", "--json"), extra="server", shows="restore_s"),
    "bench engine": Case(("bench", "engine", "--seconds", "0.2", "--json"), shows="moves_per_s"),
    "bench bots": Case(("bench", "bots", "--bots", "hard", "medium", "--games", "1", "--preset", "short", "--json"),
                       shows="ms_mean"),
    "bench rl": Case(("bench", "rl", "--seconds", "0.1", "--json"), extra="rl", shows="aec_steps_per_s"),
    "bench spit": Case(("bench", "spit", "--seconds", "0.2", "--json"), shows="games_per_s"),
    "bench spit --curve": Case(("bench", "spit", "--seconds", "0.1", "--curve", "{tmp}/gap.png", "--deals", "1",
                                "--json"), extra="plot", shows="reaction_gap"),
    "bench tournament": Case(("bench", "tournament", "--seconds", "0.2", "--jobs", "2", "--json"), shows="speedup"),
    "bench figures": Case(("bench", "figures", "{tmp}/README.md", "--only", "startup", "--runs", "1"),
                          shows="rewrote the startup table"),
    "bench server": Case(("bench", "server", "--tables", "1", "--seconds", "0.5", "--warmup", "0", "--think", "0.05",
                          "--json"), extra="server", shows="moves_per_s"),
}


def finished_record() -> dict[str, object]:
    """A short fair game played to the end (random moves, stocks of 3): its record, for ``verify`` and
    ``review`` (which takes a few seconds on a whole classic game)."""
    from spite.fairness import game_seed
    from spite.games import get_game
    from spite.malice.record import record_from_state
    from test_fairness import NONCES, SECRET, TABLE, _proof

    seed = game_seed(SECRET, TABLE, 1, NONCES)
    state: State = get_game("spite-malice").dealt("short", {"stock_size": 3}, seed).engine
    rng = random.Random(1)
    for _ in bounded(20_000, "the game's end", until=lambda: state.is_over):
        state.play(rng.choice(state.build_moves() or state.end_moves()))
    return {**record_from_state(state, "short").to_json(), "fairness": _proof()}


def fill(args: tuple[str, ...], tmp: Path, port: int) -> list[str]:
    return [a.format(conf=CONFORMANCE, tmp=tmp, port=port) for a in args]


def run_case(case: Case, blocker: Path, tmp: Path, blocked: tuple[str, ...] = (),
             asked: Path | None = None) -> tuple[int, str, str]:
    """Run ``case`` in a fresh process that misses ``blocked``: exit code, output, errors."""
    tmp.mkdir(parents=True, exist_ok=True)
    if case.args[0] in ("verify", "review"):
        (tmp / "fair.json").write_text(json.dumps(finished_record()))
    if case.args[:2] == ("bench", "figures"):  # a README to rewrite, beside the record it checks
        from spite.cli.figures import CHECKED_RECORD

        (tmp / CHECKED_RECORD).parent.mkdir(parents=True, exist_ok=True)
        (tmp / CHECKED_RECORD).write_bytes((CONFORMANCE.parent.parent / CHECKED_RECORD).read_bytes())
        (tmp / "README.md").write_text("<!-- figures:startup -->\n<!-- /figures:startup -->\n")
    if case.args[0] in ("admin", "backup"):  # a server's database to moderate or back up
        from spite.server import db

        engine = db.make_engine(f"sqlite:///{tmp / 'club.db'}")
        db.migrate(engine)
        engine.dispose()
    port = free_port()
    args = fill(case.args, tmp, port)
    env = environment(blocker, blocked, asked, OPTIONAL)
    env["XDG_CONFIG_HOME"] = env["XDG_DATA_HOME"] = str(tmp / "home")
    if case.mode == "tui":
        command = [sys.executable, str(blocker / "drive_tui.py"), *args]
    else:
        command = [sys.executable, "-m", "spite", *args]
    if case.mode != "serve":
        proc = subprocess.run(command, capture_output=True, text=True, timeout=240, env=env, cwd=tmp)
        return proc.returncode, proc.stdout, proc.stderr
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          cwd=tmp) as server:
        answered = ""

        def answers() -> bool:
            nonlocal answered
            if server.poll() is not None:
                return True
            with contextlib.suppress(OSError), urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                                                       timeout=2) as reply:
                body = reply.read().decode()
                if listens(server.pid, port):  # this server's answer, not another test's on a port it took
                    answered = body
            return bool(answered)

        with contextlib.suppress(AssertionError):  # (what the server said is checked by the caller)
            wait_until(answers, "the server's answer to /healthz", timeout=120, every=0.05)
        if server.poll() is None:
            server.send_signal(signal.SIGINT)  # Ctrl-C: the server stops cleanly
        out, err = server.communicate(timeout=60)
    return server.returncode, out + answered, err


SERVERS = ("serve", "bench server")
"""Cases that start a server process: marked slow (``pytest -m "not slow"`` leaves them out)."""


@pytest.mark.timeout(180)  # a subcommand in a fresh process each (a server, a benchmark among them)
@pytest.mark.parametrize("name", [pytest.param(name, marks=pytest.mark.slow) if name in SERVERS else name
                                  for name in CASES])
def test_a_subcommand_works_or_names_its_extra_without_each_optional_package(
        name: str, blocker: Path, tmp_path: Path) -> None:
    """With every package installed the subcommand works, and it works with only the core and the extra
    it needs (every other optional package missing). Then it is run without each optional package it
    asked for (imported or looked up) in the first run, one at a time: it must still work, or, for a
    package of its extra, say ``spite: install spite[EXTRA] to …`` and exit with 2. (A package a run
    never asks for cannot change it: leaving it out is the same run again.)"""
    case = CASES[name]
    asked = tmp_path / "asked.txt"
    code, out, err = run_case(case, blocker, tmp_path / "all", asked=asked)
    assert code == 0 and case.shows in out + err, err
    asked_for = sorted(set(asked.read_text().split()) if asked.exists() else set())
    assert not case.extra or case.needs & set(asked_for), asked_for  # (what a run asks for is noted)
    alone = tuple(p for p in OPTIONAL if p not in case.needs)
    code, out, err = run_case(case, blocker, tmp_path / "alone", blocked=alone)
    alone_said = f"spite[{case.extra or ''}] alone"
    assert code == 0 and case.shows in out + err and "Traceback" not in err, (alone_said, err[-2000:])
    for package in asked_for:
        code, out, err = run_case(case, blocker, tmp_path / package, blocked=(package,))
        if package in case.needs:
            said = INSTALL.fullmatch(err)
            assert code == 2 and said is not None, (package, code, err)
            assert package in EXTRAS[said["extra"]], (package, err)
        else:
            assert code == 0 and case.shows in out + err and "Traceback" not in err, (package, code, err[-2000:])
