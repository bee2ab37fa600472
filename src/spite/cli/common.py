"""What the ``spite`` subcommands share: exit codes, common arguments, reading records, writing output.

Exit codes (docs/records.md): 0 fine, 1 a move in the record is illegal, 2 the record or the
command line is malformed (or a subcommand's optional part is not installed). Errors are one line
on standard error, never a traceback.

This module imports only Typer and the engine's errors and records: every subcommand module
imports it, and ``spite check`` must start fast.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from spite.errors import IllegalMoveError, MalformedRecordError, OptionsError, RecordMoveError, SpiteError

if TYPE_CHECKING:
    from spite.records import Record

__all__ = [
    "EXIT_ILLEGAL",
    "EXIT_MALFORMED",
    "EXTRAS",
    "OptionOpt",
    "RecordArg",
    "check_count",
    "check_seconds",
    "fail",
    "needs_extra",
    "new_seed",
    "parse_options",
    "plural",
    "read_record",
    "record_errors",
    "require_extra",
    "write_output",
]

EXIT_ILLEGAL = 1
EXIT_MALFORMED = 2


def plural(n: int, one: str, many: str | None = None) -> str:
    """``1 deal``, ``2 deals``: a count and its noun, made where the line is made.

    >>> plural(1, "deal"), plural(3, "deal"), plural(0, "match", "matches")
    ('1 deal', '3 deals', '0 matches')
    """
    return f"{n} {one if n == 1 else many or one + 's'}"

RecordArg = Annotated[str, typer.Argument(help="A record file (spite-record/1 JSON); - reads standard input.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-O", help="An option as key=value (repeatable), e.g. stock_size=13."),
]

# The top-level modules each optional extra of pyproject.toml brings. A subcommand that needs one
# and does not find it says which extra to install; a missing module not listed here is a broken
# install, not a missing extra, and is reported as such.
EXTRAS: dict[str, frozenset[str]] = {
    "server": frozenset({"fastapi", "starlette", "uvicorn", "websockets", "sqlalchemy", "alembic", "pydantic",
                         "platformdirs", "prometheus_client", "webauthn", "qrcode"}),
    "tui": frozenset({"textual", "websockets"}),
    "plot": frozenset({"matplotlib", "numpy"}),
    "rl": frozenset({"gymnasium", "pettingzoo", "numpy"}),
    "openspiel": frozenset({"pyspiel", "open_spiel", "numpy"}),
    "ray": frozenset({"ray"}),
    "postgres": frozenset({"psycopg", "psycopg_binary"}),
}


def fail(message: str, code: int) -> NoReturn:
    """Print ``spite: message`` on standard error and end the command with ``code``."""
    typer.echo(f"spite: {message}", err=True)
    raise typer.Exit(code)


def check_seconds(option: str, value: float | None, *, above_zero: bool = False) -> None:
    """Fail with one line unless ``value`` (when given) is a number of seconds: finite, and 0 or more
    (more than 0 with ``above_zero``). ``nan`` and ``inf`` are refused too: a pause of ``inf`` never
    ends, and ``nan`` passes every comparison.

    >>> check_seconds("--delay", 0.0), check_seconds("--seconds", None, above_zero=True)
    (None, None)
    """
    if value is None:
        return
    if math.isinf(value):
        fail(f"{option} must be a finite number of seconds, not {value:g}", EXIT_MALFORMED)
    if above_zero and not value > 0:
        fail(f"{option} must be more than 0, not {value:g}", EXIT_MALFORMED)
    if not value >= 0:
        fail(f"{option} must be 0 or more, not {value:g}", EXIT_MALFORMED)


def check_count(option: str, value: int | None, least: int, most: int | None = None) -> None:
    """Fail with one line unless ``value`` (when given) lies between ``least`` and ``most`` (inclusive)."""
    if value is None:
        return
    if most is not None and not least <= value <= most:
        fail(f"{option} must be {least} to {most}, not {value}", EXIT_MALFORMED)
    if value < least:
        fail(f"{option} must be at least {least}, not {value}", EXIT_MALFORMED)


@contextmanager
def needs_extra(extra: str, purpose: str) -> Iterator[None]:
    """Wrap the imports of a layer: if one of ``extra``'s packages is missing, fail with one line.

    ``with needs_extra("server", "serve"): from spite.server.run import serve`` turns a missing
    FastAPI into ``spite: install spite[server] to serve`` and exit code 2.
    """
    try:
        yield
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] in EXTRAS[extra]:
            fail(f"install spite[{extra}] to {purpose}", EXIT_MALFORMED)
        raise


def require_extra(extra: str, purpose: str) -> None:
    """Fail as :func:`needs_extra` does when ``extra``'s packages are not installed, without importing them.

    For parts that are imported late (a plot drawn after a long run, a server started in another
    process), so that the command stops before it begins rather than after the work.
    """
    from importlib.util import find_spec

    for name in sorted(EXTRAS[extra]):
        try:
            found = find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            fail(f"install spite[{extra}] to {purpose}", EXIT_MALFORMED)


@contextmanager
def record_errors() -> Iterator[None]:
    """Turn what reading and replaying a record can raise into one line and the documented exit
    code: 1 for a move that may not be made (naming its ply where the record has one), 2 for the rest."""
    try:
        yield
    except RecordMoveError as exc:
        fail(f"ply {exc.ply}: {exc.move}: {exc.message}", EXIT_ILLEGAL)
    except IllegalMoveError as exc:
        fail(str(exc), EXIT_ILLEGAL)
    except SpiteError as exc:
        fail(str(exc), EXIT_MALFORMED)


def read_record(path: str) -> Record:
    """The record in file ``path`` (``-``: standard input); a missing file or a folder is malformed input."""
    from spite.records import parse_record

    if path == "-":
        return parse_record(sys.stdin.buffer.read())
    if not Path(path).exists():
        raise MalformedRecordError(f"no such file: {path}")
    if Path(path).is_dir():
        raise MalformedRecordError(f"{path} is a folder, not a record file")
    return parse_record(Path(path).read_bytes())


def parse_options(items: list[str] | None) -> dict[str, Any]:
    """``["stock_size=5", "jokers=0"]`` → ``{"stock_size": 5, "jokers": 0}`` (values read as JSON if they are).

    >>> parse_options(["stock_size=5", "completed=set_aside"])
    {'stock_size': 5, 'completed': 'set_aside'}
    """
    options: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise OptionsError(f"an option is written key=value, not {item!r}")
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        options[key.strip()] = value
    return options


def write_output(text: str, out: Path | None) -> None:
    """Write ``text`` to ``out`` whole (through a temporary file) or, without ``out``, to standard output."""
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_MALFORMED)


def new_seed(seed: int | None) -> int:
    """``seed``, or a fresh random one (which the record then carries)."""
    return seed if seed is not None else random.SystemRandom().randrange(2**31)
