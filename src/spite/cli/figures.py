"""``spite bench figures``: measure the README's quick figures again and rewrite the tables it owns.

A table this command owns lies in the README between ``<!-- figures:NAME -->`` and
``<!-- /figures:NAME -->``; it is replaced whole, and nothing else in the file changes. Each figure
is measured by running the commands its table names, as a person would:

* ``startup``: ``spite check tests/conformance/classic-15-mid.json``, wall time from start to end;
* ``rl``: ``spite bench rl --seconds 5 --json`` (the ``rl`` extra; OpenSpiel's row with ``openspiel``);
* ``review``: ``spite tournament --bots hard hard --games 4 --seed 2027 --out DIR``, then the CPU time
  of ``spite review DIR/records/game-0003.json`` (every seat, the default budget) per turn.

Together they take about a minute. The strength tables, the server's and the other benchmarks take
from minutes to hours, or a quiet machine: they keep their commands and dates and are made by hand.
``make figures`` runs this command on the README.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from spite.cli.common import EXIT_MALFORMED, check_count, fail, require_extra

__all__ = ["FIGURES", "figures", "register", "rewrite"]

CHECKED_RECORD = "tests/conformance/classic-15-mid.json"
"""The record ``startup`` checks (in the checkout whose README is rewritten)."""


def rewrite(text: str, name: str, block: str) -> str:
    """``text`` with what lies between the markers of ``name`` replaced by ``block``.

    >>> rewrite("a\\n<!-- figures:x -->\\nold\\n<!-- /figures:x -->\\nb\\n", "x", "new")
    'a\\n<!-- figures:x -->\\nnew\\n<!-- /figures:x -->\\nb\\n'
    >>> rewrite("a\\n", "x", "new")
    Traceback (most recent call last):
    ...
    ValueError: the README has no <!-- figures:x --> … <!-- /figures:x --> to rewrite
    """
    start, end = f"<!-- figures:{name} -->", f"<!-- /figures:{name} -->"
    pattern = re.compile(re.escape(start) + r"\n.*?" + re.escape(end), re.S)
    if text.count(start) != 1 or text.count(end) != 1 or not pattern.search(text):
        raise ValueError(f"the README has no {start} … {end} to rewrite")
    return pattern.sub(lambda _match: f"{start}\n{block.strip()}\n{end}", text)


def _spite() -> list[str]:
    """The ``spite`` command of this Python (its script beside the interpreter, else ``python -m spite``)."""
    script = Path(sys.executable).with_name("spite")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "spite"]


def _run(args: Sequence[str], where: Path) -> str:
    """Run ``spite ARGS`` in ``where``; its standard output, or fail with its own one line."""
    proc = subprocess.run([*_spite(), *args], cwd=where, capture_output=True, text=True)
    if proc.returncode != 0:
        lines = proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"]
        fail(f"spite {' '.join(args)}: {lines[-1].removeprefix('spite: ')}", EXIT_MALFORMED)
    return proc.stdout


def _when() -> str:
    """The date, the load and the cores: what the figures depend on besides the code."""
    load = f"load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "load not known"
    return f"{time.strftime('%Y-%m-%d')}, {load} at the start, {os.cpu_count()} cores"


def _seconds(values: Sequence[float]) -> str:
    return f"{statistics.median(values):.2f} s"


def _span(values: Sequence[float]) -> str:
    low, high = round(min(values)), round(max(values))
    return f"{low:,}" if low == high else f"{low:,}–{high:,}"


def startup(where: Path, runs: int) -> str:
    """``spite check`` of a record, from the shell to the answer: median and fastest of ``runs``."""
    times: list[float] = []
    _run(["check", CHECKED_RECORD], where)  # once before: the files in the page cache, as on a second try
    for _ in range(runs):
        start = time.perf_counter()
        _run(["check", CHECKED_RECORD], where)
        times.append(time.perf_counter() - start)
    return "\n".join([
        "| command | median | fastest | runs |",
        "|---|---|---|---|",
        f"| `time spite check {CHECKED_RECORD}` | {_seconds(times)} | {min(times):.2f} s | {runs} |",
        "",
        f"(`spite bench figures --only startup`, {_when()}.)",
    ])


def research(where: Path, runs: int) -> str:
    """``spite bench rl --seconds 5 --json``, ``runs`` times: the range of each rate."""
    require_extra("rl", "measure the research environments")
    results: list[dict[str, Any]] = [json.loads(_run(["bench", "rl", "--seconds", "5", "--json"], where)
                                                .strip().splitlines()[-1]) for _ in range(runs)]

    def rates(key: str) -> list[float]:
        return [r[key] for r in results if r.get(key) is not None]

    spiel = rates("openspiel_moves_per_s")
    command = "`spite bench rl --seconds 5 --json`"
    return "\n".join([
        f"| measured, per CPU second | {runs} runs | command |",
        "|---|---|---|",
        f"| PettingZoo steps/s, with the text view / without | {_span(rates('aec_steps_per_s'))} / "
        f"{_span(rates('aec_steps_per_s_no_text'))} | {command} |",
        "| Gymnasium steps/s (`spite/SpiteMalice-v0` against `random`: the agent's move and the bot's up to its "
        f"next turn) | {_span(rates('gym_steps_per_s'))} | the same |",
        "| OpenSpiel (`spite_malice`) seats' moves/s with their observation tensors, chance nodes sampled in "
        f"between | {_span(spiel) if spiel else 'not measured (no `openspiel` extra)'} | the same |",
        f"| observation vectors/s (`Encoding.observe`) | {_span(rates('encode_per_s'))} | the same |",
        "",
        f"(`spite bench figures --only rl`, {_when()}.)",
    ])


def review(where: Path, runs: int) -> str:
    """The CPU time of reviewing a classic game of ``hard`` against itself, every seat at the default budget."""
    try:
        import resource
    except ImportError:  # not on Windows
        fail("the review's figure reads the CPU time of a process, which needs a Unix machine", EXIT_MALFORMED)
    with tempfile.TemporaryDirectory(prefix="spite-figures-") as tmp:
        _run(["tournament", "--bots", "hard", "hard", "--games", "4", "--seed", "2027", "--out", tmp], where)
        record = str(Path(tmp) / "records" / "game-0003.json")
        cpu: list[float] = []
        wall: list[float] = []
        turns = 0
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            turns = len(json.loads(_run(["review", record, "--json"], where))["turns"])
            wall.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    per_turn = statistics.median(cpu) / max(turns, 1)
    median = f", median of {runs}" if runs > 1 else ""
    return "\n".join([
        "| game reviewed | turns | CPU time | a turn | wall time | command |",
        "|---|---|---|---|---|---|",
        f"| classic, `hard` against itself: the 3rd game of `spite tournament --bots hard hard --games 4 --seed 2027 "
        f"--out DIR` | {turns} | {_seconds(cpu)} | {per_turn:.2f} s | {_seconds(wall)} | `spite review "
        f"DIR/records/game-0003.json` (every seat, the default 0.5 s a turn{median}) |",
        "",
        f"(`spite bench figures --only review`, {_when()}.)",
    ])


FIGURES: dict[str, tuple[Callable[[Path, int], str], int]] = {
    "startup": (startup, 11),
    "rl": (research, 3),
    "review": (review, 1),
}
"""Each figure the README owns a table of: how it is measured, and how many runs by default."""


def figures(
    readme: Annotated[Path, typer.Argument(help="The README to rewrite (its folder is the checkout the commands "
                                                "run in).")] = Path("README.md"),
    only: Annotated[list[str] | None, typer.Option(help=f"Only this figure (repeatable): {', '.join(FIGURES)}.")]
    = None,
    runs: Annotated[int | None, typer.Option(help="Runs of each figure (default: startup 11, rl 3, review 1).")]
    = None,
) -> None:
    """Measure the README's quick figures again and rewrite them.

    The tables between <!-- figures:NAME --> and <!-- /figures:NAME --> markers: start-up time, the
    research environments' rates and a game review's time, each measured by the commands it names (about
    a minute in all). The strength tables and the server's figures take hours: they are not made here.
    """
    names = list(dict.fromkeys(only or FIGURES))
    unknown = [name for name in names if name not in FIGURES]
    if unknown:
        fail(f"unknown figure {unknown[0]!r} (one of {', '.join(FIGURES)})", EXIT_MALFORMED)
    check_count("--runs", runs, 1)
    try:
        text = readme.read_text(encoding="utf-8")
        for name in names:
            rewrite(text, name, "")  # every marker is there before anything is measured
    except OSError as exc:
        fail(f"cannot read {readme}: {exc.strerror or exc}", EXIT_MALFORMED)
    except ValueError as exc:
        fail(str(exc), EXIT_MALFORMED)
    where = readme.resolve().parent
    for name in names:
        measure, default_runs = FIGURES[name]
        typer.echo(f"spite: measuring {name} …", err=True)
        text = rewrite(text, name, measure(where, runs or default_runs))
        readme.write_text(text, encoding="utf-8")  # each table as soon as it is made
        typer.echo(f"spite: rewrote the {name} table of {readme}", err=True)


def register(bench: typer.Typer) -> None:
    """Add ``figures`` to the ``bench`` group."""
    bench.command("figures")(figures)
