"""The record commands: ``check``, ``legal``, ``show`` (replay a record), ``verify`` (was its deal fair?)
and ``new``, ``random-game`` (make one).

The engine and the records are imported when a command runs, not when the command line is built.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from spite.cli.common import (
    EXIT_ILLEGAL,
    EXIT_MALFORMED,
    OptionOpt,
    RecordArg,
    fail,
    new_seed,
    parse_options,
    read_record,
    record_errors,
    write_output,
)
from spite.errors import RecordMoveError, SpiteError
from spite.games import DEFAULT_GAME, game_names

if TYPE_CHECKING:
    from spite.records import Replay

__all__ = ["check", "legal", "new", "register", "show", "verify"]


def check(record: RecordArg) -> None:
    """Replay a record and check every move; prints one JSON object."""
    from spite.records import replay

    try:
        result = replay(read_record(record)).check()
    except RecordMoveError as exc:
        typer.echo(json.dumps({"ok": False, "ply": exc.ply, "move": exc.move, "error": exc.message}))
        raise typer.Exit(EXIT_ILLEGAL) from None
    except SpiteError as exc:
        typer.echo(json.dumps({"ok": False, "error": str(exc)}))
        raise typer.Exit(EXIT_MALFORMED) from None
    typer.echo(json.dumps(result))


def _replayed(record: str) -> Replay:
    from spite.records import replay

    with record_errors():
        return replay(read_record(record))


def legal(record: RecordArg) -> None:
    """Print every legal move in the position a record reaches.

    The record is replayed and checked first; the moves come one per line, sorted.
    """
    for line in _replayed(record).legal():
        typer.echo(line)


def show(
    record: RecordArg,
    seat: Annotated[int | None, typer.Option("--as", help="Show only what this seat may know.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (records.md §5).")] = False,
) -> None:
    """Print the position a record reaches, or one seat's view of it.

    The whole table, or with --as SEAT only what that seat may know; --json as docs/records.md §5.
    """
    replayed = _replayed(record)
    try:
        if as_json:
            typer.echo(json.dumps(replayed.show(seat), ensure_ascii=False))
        else:
            typer.echo(replayed.show_text(seat))
    except ValueError as exc:
        fail(str(exc), EXIT_MALFORMED)


def verify(record: RecordArg) -> None:
    """Check that a server game's deal and shuffles were fair.

    Each must follow from the revealed secret and the players' nonces (docs/fairness.md). One line;
    exit 0 fair, 1 not (naming the first chance entry that does not follow), 2 unusable input, such
    as a record without a fairness object (only a server's games have one: GET /api/games/ID/record).
    """
    from spite.records.verify import verify_record

    with record_errors():
        verdict = verify_record(read_record(record))
    typer.echo(verdict.line)
    if not verdict.fair:
        raise typer.Exit(EXIT_ILLEGAL)


def new(
    preset: Annotated[str | None, typer.Option(help="A preset (default: the game's basic one).")] = None,
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal (default: a random one, recorded).")] = None,
    game: Annotated[str, typer.Option(help=f"One of {', '.join(game_names())}.")] = DEFAULT_GAME,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of standard output.")] = None,
) -> None:
    """Write the record of a freshly dealt game."""
    from spite.games import get_game
    from spite.records import dump_record

    try:
        options = parse_options(option)
        rec = get_game(game).new(preset, options, seed=new_seed(seed)).to_record()
    except SpiteError as exc:
        fail(str(exc), EXIT_MALFORMED)
    write_output(dump_record(rec), out)


def register(app: typer.Typer) -> None:
    """Add ``check``, ``legal``, ``show``, ``verify`` and ``new`` to ``app``, in that order."""
    app.command("check")(check)
    app.command("legal")(legal)
    app.command("show")(show)
    app.command("verify")(verify)
    app.command("new")(new)
