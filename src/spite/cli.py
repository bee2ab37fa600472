"""The ``spite`` command. Thin: each subcommand hands over to a layer and turns errors into exit codes.

Exit codes (records.md §5): 0 fine, 1 a move in the record is illegal, 2 the record or the command
line is malformed. Errors are one line on standard error, never a traceback.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from spite.errors import IllegalMoveError, MalformedRecordError, OptionsError, RecordMoveError, SpiteError
from spite.records import Record, dump_record, parse_record, replay

app = typer.Typer(
    name="spite",
    help="Spite and Malice (and its family) and Spit: an exact rules engine, records and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
bench_app = typer.Typer(help="Benchmarks (figures for the README).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")

EXIT_ILLEGAL = 1
EXIT_MALFORMED = 2

RecordArg = Annotated[str, typer.Argument(help="A record file (spite-record/1 JSON); - reads standard input.")]
OptionOpt = Annotated[
    list[str] | None,
    typer.Option("--option", "-O", help="An option as key=value (repeatable), e.g. stock_size=13."),
]


def _fail(message: str, code: int) -> NoReturn:
    typer.echo(f"spite: {message}", err=True)
    raise typer.Exit(code)


def _read(path: str) -> Record:
    if path == "-":
        return parse_record(sys.stdin.buffer.read())
    if not Path(path).exists():
        raise MalformedRecordError(f"no such file: {path}")
    if Path(path).is_dir():
        raise MalformedRecordError(f"{path} is a folder, not a record file")
    return parse_record(Path(path).read_bytes())


def _parse_options(items: list[str] | None) -> dict[str, Any]:
    """``["stock_size=5", "jokers=0"]`` → ``{"stock_size": 5, "jokers": 0}`` (values read as JSON if they are)."""
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


def _write(text: str, out: Path | None) -> None:
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out)
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_MALFORMED)


# ---------------------------------------------------------------------- the three record commands
@app.command()
def check(record: RecordArg) -> None:
    """Replay a record and check every move; prints one JSON object."""
    try:
        result = replay(_read(record)).check()
    except RecordMoveError as exc:
        typer.echo(json.dumps({"ok": False, "ply": exc.ply, "move": exc.move, "error": exc.message}))
        raise typer.Exit(EXIT_ILLEGAL) from None
    except SpiteError as exc:
        typer.echo(json.dumps({"ok": False, "error": str(exc)}))
        raise typer.Exit(EXIT_MALFORMED) from None
    typer.echo(json.dumps(result))


def _replayed(record: str) -> Any:
    try:
        return replay(_read(record))
    except RecordMoveError as exc:
        _fail(f"ply {exc.ply}: {exc.move}: {exc.message}", EXIT_ILLEGAL)
    except IllegalMoveError as exc:
        _fail(str(exc), EXIT_ILLEGAL)
    except SpiteError as exc:
        _fail(str(exc), EXIT_MALFORMED)


@app.command()
def legal(record: RecordArg) -> None:
    """Replay a record and print every legal move in the position reached, one per line."""
    for line in _replayed(record).legal():
        typer.echo(line)


@app.command()
def show(
    record: RecordArg,
    seat: Annotated[int | None, typer.Option("--as", help="Show only what this seat may know.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON (records.md §5).")] = False,
) -> None:
    """Replay a record and print the position reached: the whole table, or one seat's view."""
    replayed = _replayed(record)
    try:
        if as_json:
            typer.echo(json.dumps(replayed.show(seat), ensure_ascii=False))
        else:
            typer.echo(replayed.show_text(seat))
    except ValueError as exc:
        _fail(str(exc), EXIT_MALFORMED)


# ---------------------------------------------------------------------- making records
def _seed(seed: int | None) -> int:
    return seed if seed is not None else random.SystemRandom().randrange(2**31)


@app.command()
def new(
    preset: Annotated[str | None, typer.Option(help="A preset (default: the game's basic one).")] = None,
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal (default: a random one, recorded).")] = None,
    game: Annotated[str, typer.Option(help="spite-malice, spit or speed.")] = "spite-malice",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of standard output.")] = None,
) -> None:
    """Write the record of a freshly dealt game."""
    try:
        options = _parse_options(option)
        if game == "spite-malice":
            from spite.records.malice import new_record

            rec = new_record(preset or "classic", options, _seed(seed))
        elif game in ("spit", "speed"):
            from spite.records.spit import new_record as new_spit_record

            rec = new_spit_record(game, preset, options, _seed(seed))
        else:
            raise OptionsError(f"unknown game {game!r} (one of spite-malice, spit, speed)")
    except SpiteError as exc:
        _fail(str(exc), EXIT_MALFORMED)
    _write(dump_record(rec), out)


@app.command("random-game")
def random_game(
    preset: Annotated[str, typer.Option(help="A Spite and Malice preset.")] = "classic",
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the random player.")] = None,
    policy: Annotated[str, typer.Option(help="uniform: any legal move; builds-first: build while possible.")]
    = "builds-first",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write here instead of standard output.")] = None,
) -> None:
    """Play random legal moves to the end of a game and write its record."""
    from spite.malice import Options, State
    from spite.records.malice import record_from_state

    if policy not in ("uniform", "builds-first"):
        _fail(f"policy must be uniform or builds-first, not {policy!r}", EXIT_MALFORMED)
    try:
        opts = Options.from_preset(preset, _parse_options(option))
    except SpiteError as exc:
        _fail(str(exc), EXIT_MALFORMED)
    s = _seed(seed)
    state = State.new(opts, s)
    rng = random.Random(f"random-game/{s}")
    while not state.is_over:
        moves = state.build_moves() if policy == "builds-first" else state.legal_moves()
        state.play(rng.choice(moves or state.end_moves()))
    _write(dump_record(record_from_state(state, preset)), out)


# ---------------------------------------------------------------------- playing
@app.command()
def demo(
    preset: Annotated[str, typer.Option(help="A Spite and Malice preset.")] = "classic",
    option: OptionOpt = None,
    seed: Annotated[int | None, typer.Option(help="Seed for the deal and the players.")] = None,
    delay: Annotated[float, typer.Option(help="Seconds to pause after each turn.")] = 0.4,
    turns: Annotated[int | None, typer.Option(help="Stop after this many turns.")] = None,
) -> None:
    """Watch two random players play a game, turn by turn, drawn as a table."""
    from spite.malice import Options
    from spite.tui.demo import run_demo

    try:
        opts = Options.from_preset(preset, _parse_options(option))
    except SpiteError as exc:
        _fail(str(exc), EXIT_MALFORMED)
    run_demo(opts, _seed(seed), delay=delay, max_turns=turns)


# ---------------------------------------------------------------------- benchmarks
@bench_app.command("engine")
def bench_engine(
    seconds: Annotated[float, typer.Option(help="How long to play.")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
    baseline: Annotated[
        Path | None, typer.Option(help="Also run this bare_loop.py, interleaved, and report the ratio.")
    ] = None,
) -> None:
    """Random playouts through the public API (classic, 2 players, one core): games/s and moves/s."""
    from spite.bench.engine import run_compared, run_engine_bench

    if seconds <= 0:
        _fail("--seconds must be more than 0", EXIT_MALFORMED)
    if baseline is not None and not baseline.is_file():
        _fail(f"no such file: {baseline}", EXIT_MALFORMED)

    def measure(progress: Callable[[float], None] | None) -> dict[str, Any]:
        if baseline is not None:
            return run_compared(baseline, seconds, progress=progress)
        return run_engine_bench(seconds, progress=progress)

    if as_json:
        result = measure(None)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task("random playouts", total=1.0)
            result = measure(lambda f: bar.update(task, completed=f))
    if as_json:
        typer.echo(json.dumps(result))
        return
    typer.echo(f"engine: {result['games_per_s']} games/s, {result['moves_per_s']} moves/s "
               f"({result['games']} games in {result['seconds']} s)")
    if baseline is not None:
        bare = result["bare_loop"]
        typer.echo(f"bare loop: {bare['games_per_s']} games/s, {bare['moves_per_s']} moves/s; "
                   f"ratio {result['ratio_games']} (games/s), {result['ratio_moves']} (moves/s)")


@bench_app.command("rl")
def bench_rl(
    seconds: Annotated[float, typer.Option(help="How long to measure.")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Research environments: PettingZoo steps/s (with and without the text view), encodings/s."""
    try:
        from spite.bench.rl import run_rl_bench

        result = run_rl_bench(seconds)
    except ImportError as exc:
        _fail(f"{exc} (install the extra: pip install 'spite[rl]')", EXIT_MALFORMED)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(", ".join(f"{k}: {v}" for k, v in result.items()))


@bench_app.command("spit")
def bench_spit(
    seconds: Annotated[float, typer.Option(help="How long to simulate.")] = 5.0,
    game: Annotated[str, typer.Option(help="spit or speed.")] = "spit",
    curve: Annotated[Path | None, typer.Option(help="Also measure win rate against the reaction-time gap and "
                                                    "plot it into this PNG.")] = None,
    deals: Annotated[int, typer.Option(help="Deals per point of the curve (each played twice).")] = 100,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON line.")] = False,
) -> None:
    """Simulated Spit/Speed games per second (expert vs expert), and the reaction-gap curve."""
    from spite.bench.spit import reaction_gap_curve, run_spit_bench

    if game not in ("spit", "speed"):
        _fail(f"--game must be spit or speed, not {game!r}", EXIT_MALFORMED)
    if seconds <= 0 or deals < 1:
        _fail("--seconds must be more than 0 and --deals at least 1", EXIT_MALFORMED)
    result: dict[str, Any] = run_spit_bench(seconds, game=game)
    if curve is not None:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("reaction-gap curve", total=1.0)
            gap = reaction_gap_curve(deals=deals, game=game, png=str(curve),
                                     progress=lambda f: bar.update(task, completed=f))
        result["reaction_gap"] = {k: v for k, v in gap.items() if k in ("gap75_ms", "ratio75", "gap75_fit_ms")}
        result["plot"] = str(curve)
    if as_json:
        typer.echo(json.dumps(result))
    else:
        typer.echo(", ".join(f"{k}: {v}" for k, v in result.items()))


def _register_layers() -> None:
    """Commands that live with their layers (tournaments and hints; later the server and the UIs)."""
    from spite.cli_arena import register as register_arena
    from spite.server.cli import register as register_server
    from spite.tui.cli import register as register_tui

    register_arena(app)
    register_tui(app)
    register_server(app)


_register_layers()


def main() -> None:
    """Entry point: run the app, turning any unexpected failure into one line and exit code 3."""
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        typer.echo("spite: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # a bug: still one line, the details for operators in SPITE_DEBUG
        if os.environ.get("SPITE_DEBUG"):
            raise
        typer.echo(f"spite: internal error: {type(exc).__name__}: {exc} (set SPITE_DEBUG=1 for details)", err=True)
        sys.exit(3)


if __name__ == "__main__":
    main()
