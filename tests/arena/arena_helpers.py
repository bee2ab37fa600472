"""Helpers for the arena tests: a CLI with the arena commands, and small external bot programs."""

from __future__ import annotations

import csv
import json
import sys
import textwrap
from pathlib import Path

import typer
from typer.testing import CliRunner

from spite.cli import app as main_app
from spite.cli.arena import register

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_BOT = ROOT / "examples" / "random_bot.py"
PY = sys.executable

arena_app = typer.Typer(pretty_exceptions_enable=False)
register(arena_app)
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    """Run an arena command (tournament, hint); exit code, stdout, stderr."""
    result = runner.invoke(arena_app, list(args))
    return result.exit_code, result.stdout, result.stderr


def spite(*args: str) -> tuple[int, str, str]:
    """Run a command of the main ``spite`` app (check, legal, new …)."""
    result = runner.invoke(main_app, list(args))
    return result.exit_code, result.stdout, result.stderr


def last_json(out: str) -> dict[str, object]:
    """The JSON object on the last line of ``out``."""
    data = json.loads(out.strip().splitlines()[-1])
    assert isinstance(data, dict)
    return data


def csv_rows(path: Path, drop: tuple[str, ...] = ("think_ms",)) -> list[dict[str, str]]:
    """The rows of a games.csv, without the clock columns."""
    with path.open(newline="") as fh:
        return [{k: v for k, v in row.items() if k not in drop} for row in csv.DictReader(fh)]


def without_clock(summary: dict[str, object]) -> dict[str, object]:
    """A --json summary without what depends on the clock or the backend."""
    out = {k: v for k, v in summary.items() if k not in ("elapsed_s", "moves_per_s", "backend", "jobs", "out")}
    bots = summary["bots"]
    assert isinstance(bots, dict)
    out["bots"] = {name: {k: v for k, v in b.items() if k != "mean_think_ms"} for name, b in bots.items()}
    return out


# A bot program: handshake like the example bot, then `BEHAVIOUR` decides each answer.
_BOT = '''
import json, sys, time, random
seat = None
def send(m):
    sys.stdout.write(json.dumps(m) + "\\n"); sys.stdout.flush()
for line in sys.stdin:
    msg = json.loads(line)
    t = msg.get("type")
    if t == "hello":
        send({"type": "ready", "name": "test bot"})
    elif t == "start":
        seat = msg["seat"]
    elif t == "move":
        legal = msg["legal"]
        misbehave = seat in MISBEHAVE_SEATS
        if not misbehave:
            send({"move": random.Random(msg["seed"]).choice(legal), "why": "fine"})
            continue
BEHAVIOUR
    elif t == "quit":
        break
'''

BEHAVIOURS = {
    "garbage": 'print("I resign, good game", flush=True)',
    "illegal": 'send({"move": next(m for m in ["pass", "D4-B4", "S-B4", "H9-B1"] if m not in legal)})',
    "nomove": 'send({"type": "move", "why": "forgot the move"})',
    "sleep": "time.sleep(60)",
    "crash": "1 / 0",
    "exit": "sys.exit(3)",
}


def bot_script(tmp_path: Path, behaviour: str, seats: tuple[int, ...] = (0, 1, 2, 3)) -> Path:
    """A bot program that misbehaves (``behaviour``) whenever it plays one of ``seats``, else plays randomly."""
    body = textwrap.indent(BEHAVIOURS[behaviour], " " * 8)
    path = tmp_path / f"bot_{behaviour}.py"
    path.write_text(_BOT.replace("MISBEHAVE_SEATS", repr(seats)).replace("BEHAVIOUR", body))
    return path


def running(marker: str) -> list[int]:
    """Pids of live processes whose command line contains ``marker`` (Linux /proc)."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            status = (proc / "status").read_text()
        except OSError:
            continue
        if marker in cmdline and "State:\tZ" not in status:
            pids.append(int(proc.name))
    return pids
