"""The ``spite`` command. Thin: each subcommand hands over to a layer and turns errors into exit codes.

Exit codes (docs/records.md): 0 fine, 1 a move in the record is illegal, 2 the record or the
command line is malformed, or the optional part a subcommand needs is not installed (``spite:
install spite[server] to serve``). Errors are one line on standard error, never a traceback.

The command starts fast: building it imports Typer and the modules of this package, nothing else.
Each subcommand imports its layer (the engine, the arena, the server, the terminal app) when it
runs; a test holds FastAPI, SQLAlchemy, Textual, matplotlib and the rest out of ``import spite.cli``.
The subcommands live in one module per group: :mod:`spite.cli.records`, :mod:`spite.cli.play`,
:mod:`spite.cli.arena`, :mod:`spite.cli.review`, :mod:`spite.cli.server`, :mod:`spite.cli.figures`,
:mod:`spite.cli.admin`; what they share is in :mod:`spite.cli.common`. A game's own commands (its
demo, its training, the benchmarks of its engine and bots) are its family's: each registered game's
``commands`` hook (:mod:`spite.games`) adds them, after the shared ones.
"""

from __future__ import annotations

import inspect
import os
import sys
from typing import Annotated

import typer

from spite import __version__
from spite.cli import admin, arena, bench, figures, login, play, records, review, server
from spite.cli.common import EXIT_MALFORMED

__all__ = ["app", "bench_app", "main"]

app = typer.Typer(
    name="spite",
    help="Card games (every registered game: spite.games): an exact rules engine, records and play.\n\n"
    "Exit codes: 0 fine; 1 a move in a record is illegal; 2 a malformed record or command line (or a "
    "missing optional part); 3 an internal error; 130 interrupted. Errors are one line on standard error.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
bench_app = typer.Typer(help="Benchmarks (figures for the README).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"spite {__version__}")
        raise typer.Exit()


@app.callback()
def _spite(
    version: Annotated[bool, typer.Option("--version", help="Print the version and exit.", is_eager=True,
                                          callback=_print_version)] = False,
) -> None:
    # the app's own help text stands; this callback only adds --version
    pass


# in the order --help lists them: check, legal, show, verify, new, tournament, hint, review, tui, serve, admin,
# backup, restore, login, logout; bench server, figures; then each game family's own (commands hook)
records.register(app)
arena.register(app, bench_app)
review.register(app)
app.command(name="tui")(play.tui)
server.register(app, bench_app)
admin.register(app, bench_app)
login.register(app)
figures.register(bench_app)
bench.register(bench_app)


def _family_commands() -> None:
    """Each registered game's own commands (its ``commands`` hook), once per family."""
    from spite.games import game_names, has_hook, load_hook

    added: list[object] = []
    for name in game_names():
        if has_hook(name, "commands"):
            register_commands = load_hook(name, "commands")
            if register_commands not in added:
                added.append(register_commands)
                register_commands(app, bench_app)


_family_commands()


def whole_paragraphs(text: str) -> str:
    r"""``text`` with each paragraph on one line: Typer's Rich help keeps a docstring's line breaks,
    which would cut its sentences where the source was wrapped; the terminal wraps them instead.

    >>> whole_paragraphs("Check a record.\n\nEach move is\nreplayed.\n")
    'Check a record.\n\nEach move is replayed.'
    """
    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n") if p.strip())


for _group in (app, bench_app):
    for _command in _group.registered_commands:
        if _command.help is None and _command.callback is not None and _command.callback.__doc__:
            _command.help = whole_paragraphs(_command.callback.__doc__)


def main(args: list[str] | None = None) -> None:
    """Entry point: run the app, turning any unexpected failure into one line and exit code 3.

    Click's own errors (an unknown command or option, ``--seed x``) would be a boxed paragraph;
    outside standalone mode they come here and say one line, like every other error: ``spite: ...``
    and exit code 2.
    """
    try:  # Typer brings its own copy of Click (its errors are those classes), older ones use Click
        from typer._click import exceptions as click
    except ImportError:  # pragma: no cover - an older Typer
        from click import exceptions as click  # type: ignore[no-redef]

    try:
        code = app(args=args, standalone_mode=False)
    except SystemExit:
        raise
    except click.NoArgsIsHelpError as exc:  # a bare group: its help, as before
        typer.echo(exc.format_message(), err=True)
        sys.exit(EXIT_MALFORMED)
    except click.ClickException as exc:
        where = f" (see {exc.ctx.command_path} --help)" if isinstance(exc, click.UsageError) and exc.ctx else ""
        message = " ".join(exc.format_message().split()).rstrip(".")
        typer.echo(f"spite: {message[:1].lower()}{message[1:]}{where}", err=True)
        sys.exit(exc.exit_code if exc.exit_code else EXIT_MALFORMED)
    except typer.Abort:
        typer.echo("spite: interrupted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        typer.echo("spite: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug: still one line, the details for operators in SPITE_DEBUG
        if os.environ.get("SPITE_DEBUG"):
            raise
        typer.echo(f"spite: internal error: {type(exc).__name__}: {exc} (set SPITE_DEBUG=1 for details)", err=True)
        sys.exit(3)
    if isinstance(code, int) and not isinstance(code, bool):  # typer.Exit(code) without standalone mode
        sys.exit(code)


if __name__ == "__main__":
    main()
