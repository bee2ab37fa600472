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
    from spite.games import Record
    from spite.records import Replay
    from spite.records.verify import Verdict

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


def verify(
    record: RecordArg,
    secret: Annotated[str | None, typer.Option(
        "--secret", help="A tournament's revealed secret (64 hex digits), for a tournament game's record "
                         "that does not carry it yet.")] = None,
) -> None:
    """Check that a server game's deal and shuffles were fair.

    Each must follow from the revealed secret and the players' nonces (docs/fairness.md), or, for a
    tournament game, from the tournament's secret (docs/tournaments.md; --secret HEX if the record does not
    carry it yet). One line; exit 0 fair, 1 not (naming the first chance entry that does not follow), 2
    unusable input, such as a record without a fairness object (only a server's games have one: GET
    /api/games/ID/record).
    """
    from spite.records.verify import verify_record
    from spite.tournament.deals import SCHEME as TOURNAMENT_SCHEME

    with record_errors():
        read = read_record(record)
        data = read.fairness
        if isinstance(data, dict) and data.get("scheme") == TOURNAMENT_SCHEME:
            verdict = _verify_tournament_game(read, secret)
        elif secret is not None:
            fail(f"--secret is for a tournament game's record (fairness scheme {TOURNAMENT_SCHEME}); "
                 "any other record carries its own secret", EXIT_MALFORMED)
        else:
            verdict = verify_record(read)
    typer.echo(verdict.line)
    if not verdict.fair:
        raise typer.Exit(EXIT_ILLEGAL)


def _verify_tournament_game(record: Record, secret: str | None) -> Verdict:
    """A tournament game's record: the commitment and the deal's seed (spite.tournament.deals), then the
    deal and every chance entry from that seed (spite.records.verify)."""
    from spite.records.verify import Verdict, verify_dealt
    from spite.tournament.deals import parse_secret
    from spite.tournament.deals import verify as verify_deal

    data = record.fairness or {}
    try:
        found = verify_deal(data, record.seed, None if secret is None else parse_secret(secret))
    except ValueError as exc:
        fail(str(exc), EXIT_MALFORMED)
    if not found.fair or found.seed is None:
        return Verdict(False, found.line, found.where)
    first = data.get("first")
    failed, chance = verify_dealt(record, found.seed, first=first if isinstance(first, int) else None,
                                  source="the tournament's secret")
    if failed is not None:
        return failed
    game = data.get("game", 1)
    which = f"deal {data['deal']}" + (f", game {game}" if game != 1 else "")
    return Verdict(True, f"fair: the commitment, the deal and {chance} chance entr{'y' if chance == 1 else 'ies'} "
                   f"follow from the tournament's secret (tournament {data['tournament']}, {which})", None, chance)


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
