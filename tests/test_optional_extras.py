"""The core install and the optional extras: every computer level plays with the core alone, and a
part that needs an extra says in one line which one (``spite: install spite[plot] to …``, exit 2).

Packages are made missing in a fresh Python process by an import hook (a ``sitecustomize`` module
on ``PYTHONPATH``, so processes that the command starts, bot workers and benchmark servers, miss
them too): an import of a blocked package fails as it does when the package is not installed.
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

import pytest

import spite
from spite.bots import BOTS, NeedsExtraError, make_bot
from spite.malice import Options, State

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
    from spite.server.bots import BotRunner

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

            async def ask(level: str) -> tuple[str, bool]:
                return await runner.decide("t1", level, view, "seed")

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

async def main():
    runner = BotRunner(workers=1, budget=0.2)
    runner.start()
    try:
        state = State.new(Options.from_preset("short"), seed=5)
        view = state.view(state.to_move)
        for level in BOT_LEVELS:
            move, fallback = await runner.decide("t-" + level, level, view, "seed")
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
