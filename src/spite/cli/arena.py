"""The arena's commands: ``spite tournament``, ``spite hint`` and ``spite bench tournament``.

:func:`register` adds them to an app and its ``bench`` group. Errors are one line on standard
error, exit code 2 for bad input (1 for a record with an illegal move, as for ``spite check``);
never a traceback. The arena is imported when a command runs.
"""

from __future__ import annotations

import json
import random
import signal
from pathlib import Path
from typing import Annotated, Any

import typer

from spite.cli.common import (
    EXIT_MALFORMED,
    OptionOpt,
    RecordArg,
    check_seconds,
    fail,
    parse_options,
    plural,
    read_record,
    record_errors,
    require_extra,
)
from spite.errors import OptionsError, SpiteError
from spite.games import DEFAULT_GAME, game_names

__all__ = ["register"]


def _human_table(summary: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{summary['preset']}: {plural(summary['games'], 'game')} "
                        f"({plural(summary['deals'], 'deal')}), "
                        f"seed {summary['seed']}")
    for col in ("bot", "games", "wins", "draws", "win%", "95% CI", "Elo", "turns", "ms/move"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for name, b in summary["bots"].items():
        table.add_row(name, str(b["games"]), str(b["wins"]), str(b["draws"]), f"{100 * b['win_rate']:.1f}%",
                      f"{100 * b['ci95'][0]:.0f}–{100 * b['ci95'][1]:.0f}%", f"{b['elo']:+.0f}",
                      f"{b['mean_turns']:.1f}", f"{b['mean_think_ms']:.3f}")
    console = Console(highlight=False)
    console.print(table)
    for f in summary["forfeits"][:10]:
        console.print(f"game {f['game']}: {f['error']}", markup=False)
    if len(summary["forfeits"]) > 10:
        console.print(f"… and {len(summary['forfeits']) - 10} more forfeits (see games.csv)")
    jobs = f"{summary['backend']}, {plural(summary['jobs'], 'job')}"
    resumed = summary.get("resumed_games", 0)
    rate = f"{summary['moves_per_s']} moves/s, " if summary["moves_per_s"] is not None else ""
    if resumed:  # the time is that of the games played now: say their moves with it, the total apart
        now = plural(summary["games"] - resumed, "game")
        console.print(f"{now} played now: {plural(summary['new_moves'], 'move')} in {summary['elapsed_s']} s "
                      f"({rate}{jobs})")
        console.print(f"{resumed} kept from before; {plural(summary['moves'], 'move')} in all "
                      f"{plural(summary['games'], 'game')}")
    else:
        console.print(f"{plural(summary['moves'], 'move')} in {summary['elapsed_s']} s ({rate}{jobs})")
    if "out" in summary:
        console.print(f"wrote {summary['out']}/games.csv, records/, win_rates.png, summary.json", markup=False)


def _games_kept(out: Path | None, total: int, counted: int) -> int:
    """How many of the ``total`` games a stopped run kept in ``out``: read back from the file, since
    the stop can fall between a game being written and the progress bar counting it (``counted``, what
    the bar had; also the answer without ``out`` or with a file that cannot be read)."""
    if out is None:
        return counted
    from spite.arena.output import load_games

    try:
        return len({res.index for res, _ in load_games(out) if res.index < total})
    except (OptionsError, OSError):
        return counted


def register(app: typer.Typer, bench: typer.Typer | None = None) -> None:
    """Add ``tournament`` and ``hint`` to ``app``, and ``tournament`` to its ``bench`` group if given."""

    @app.command(context_settings={"allow_extra_args": True})
    def tournament(
        ctx: typer.Context,
        bots: Annotated[list[str], typer.Option(
            "--bots", help="The bots: --bots A B [C D] (specs such as random, greedy, heuristic, search:0.5, "
                           "search:1.0,horizon=3, easy…expert, 'cmd:python mybot.py'; the same spec twice "
                           "is allowed).")],
        games: Annotated[int, typer.Option(help="Games to play (rounded up to whole deals: each deal is "
                                                "played once per seat rotation).")] = 100,
        preset: Annotated[str | None, typer.Option(help="A preset of the game (default: its basic one).")] = None,
        option: OptionOpt = None,
        seed: Annotated[int | None, typer.Option(help="Tournament seed (deals and bots' random sources; "
                                                      "default: a random one, reported).")] = None,
        jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes to play in (1: this one).")] = 1,
        backend: Annotated[str, typer.Option(help="local (processes here) or ray (RAY_ADDRESS or a local Ray).")]
        = "local",
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (the last line).")] = False,
        out: Annotated[Path | None, typer.Option(help="Write games.csv, records/, win_rates.png, summary.json "
                                                      "into this folder.")] = None,
        seconds: Annotated[float | None, typer.Option(help="Time budget per move, in seconds.")] = None,
        game: Annotated[str, typer.Option(help=f"One of {', '.join(game_names())}, with its own bots (a "
                                               "real-time game is played in virtual time).")] = DEFAULT_GAME,
        resume: Annotated[bool, typer.Option(help="Go on with the tournament kept in --out (the same command; "
                                                  "--games may be more): play only the games it lacks.")] = False,
    ) -> None:
        """Play bots against each other and rate them.

        Seats are rotated on duplicate deals; the summary gives win rates with 95% intervals and Elo.
        """
        from spite.arena import Tournament, run_tournament
        from spite.arena.tournament import saved_settings

        extra = [a for a in ctx.args]
        stray = [a for a in extra if a.startswith("-")]
        if stray:
            fail(f"unknown option {stray[0]!r}", EXIT_MALFORMED)
        specs = list(bots) + extra
        check_seconds("--seconds", seconds, above_zero=True)
        if out is not None:
            require_extra("plot", "draw win_rates.png (--out)")  # before the games, not after them
        if backend == "ray":
            require_extra("ray", "play on Ray (--backend ray)")
        try:
            saved = saved_settings(out) if resume and out is not None else None
            if seed is None and saved is not None and isinstance(saved.get("seed"), int):
                seed = saved["seed"]  # a random seed chosen by the run being resumed
            t_seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
            t = Tournament(bots=specs, games=games, preset=preset, options=parse_options(option), seed=t_seed,
                           jobs=jobs, backend=backend, seconds=seconds, out=out, game=game, resume=resume)
            total = len(t.check()[1])
        except SpiteError as exc:
            fail(str(exc), EXIT_MALFORMED)
        done = [0]
        stopped_by = [signal.SIGINT]

        def advance(finished: int, total: int) -> None:
            done[0] = finished
            bar.update(task, completed=finished, total=total)

        def stop(signum: int, frame: object) -> None:
            stopped_by[0] = signal.Signals(signum)
            raise KeyboardInterrupt  # `kill` stops a tournament as Ctrl-C does: games kept, workers ended

        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        previous = signal.signal(signal.SIGTERM, stop)
        try:
            with Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=Console(stderr=True), transient=True) as bar:
                task = bar.add_task("games", total=total)
                result = run_tournament(t, advance)
        except KeyboardInterrupt:
            kept = (f"; they are kept in {out}: run the same command with --resume to go on" if out is not None
                    else " (with --out DIR the games played are kept and --resume goes on)")
            fail(f"stopped after {_games_kept(out, total, done[0])} of {total} games{kept}", 128 + stopped_by[0])
        except SpiteError as exc:
            fail(str(exc), EXIT_MALFORMED)
        except OSError as exc:
            fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_MALFORMED)
        finally:
            signal.signal(signal.SIGTERM, previous)
        if as_json:
            typer.echo(json.dumps(result.summary))
        else:
            _human_table(result.summary)

    @app.command("rate-levels")
    def level_ratings(
        levels: Annotated[list[str] | None, typer.Option(
            "--levels", help="The levels, weakest first: neighbours play each other (default: the game's "
                             "server levels).")] = None,
        game: Annotated[str, typer.Option(help="A registered game.")] = DEFAULT_GAME,
        preset: Annotated[str | None, typer.Option(help="A preset of the game (default: its basic one).")] = None,
        games: Annotated[int, typer.Option(help="Games per pair of neighbouring levels (whole duplicate "
                                                "deals).")] = 40,
        seed: Annotated[int, typer.Option(help="Tournament seed.")] = 0,
        jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes to play in (1: this one).")] = 1,
        write: Annotated[bool, typer.Option(help="Keep the figures in spite/rating/levels.json (what "
                                                 "a rated game against the computer uses).")] = False,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
        people: Annotated[str | None, typer.Option(
            "--people", help="Also fit people's rated games against the computer from this server database "
                             "(spite serve --db URL).")] = None,
    ) -> None:
        """Rate the computer levels on the scale of people's ratings."""
        require_extra("server", "rate the levels with openskill")
        from spite import rating
        from spite.arena.level_ratings import measure_levels
        from spite.games import get_game
        from spite.rating.fit import fit_levels, write_figures
        from spite.server.lobby import server_game
        from spite.server.ratings import people_runs
        from spite.server.seeks import skill

        try:
            hook = server_game(game).listing
            chosen = list(levels or hook.levels)
            if "random" in chosen and levels is None:
                chosen.remove("random")  # no one seeks a partner near random play
            the_preset = preset or get_game(game).default_preset
            group = rating.rating_group(game, the_preset, {}, get_game(game).seats(the_preset, {})).name
            against_people = people_runs(people, game, group) if people is not None else []  # read first: fail fast
            runs = measure_levels(game, the_preset, chosen, games, seed, jobs,
                                  progress=lambda line: typer.echo(line, err=True))
            anchor = hook.default_level if hook.default_level in chosen else chosen[0]
            fitted = fit_levels([*runs, *against_people], anchor, seed)
            figures = {lv: fitted[lv] for lv in chosen if lv in fitted}  # the people are not figures
        except SpiteError as exc:
            fail(str(exc), EXIT_MALFORMED)
        played = sum(len(r.games) for r in runs)
        levels_json = {lv: {"mu": mu, "sigma": sg, "games": n, "rating": rating.display(mu, sg),
                            "skill": round(skill(mu))} for lv, (mu, sg, n) in figures.items()}
        summary: dict[str, Any] = {"game": game, "preset": the_preset, "group": group, "anchor": anchor,
                                   "games": played, "peopleGames": len(against_people), "seed": seed,
                                   "levels": levels_json}
        if write:
            from importlib import resources

            path = Path(str(resources.files("spite.rating").joinpath("levels.json")))
            write_figures(path, group, figures, f"spite rate-levels --game {game} --preset {the_preset} "
                          f"--games {games} --seed {seed}{' --people DB' if people else ''}: {played} games"
                          + (f" and {len(against_people)} of people" if people else ""))
        if as_json:
            typer.echo(json.dumps(summary))
            return
        with_people = f" and {plural(len(against_people), 'rated game')} of people" if people is not None else ""
        typer.echo(f"{group} ({game} {the_preset}), {plural(played, 'game')}{with_people}, {anchor} at mu 25:")
        for lv, f in sorted(summary["levels"].items(), key=lambda item: item[1]["mu"]):
            typer.echo(f"  {lv:>10}  mu {f['mu']:6.2f}  sigma {f['sigma']:5.2f}  skill {f['skill']:5d}  "
                       f"shown {f['rating']:5d}  ({f['games']} games)")

    @app.command()
    def hint(
        record: RecordArg,
        bot: Annotated[str, typer.Option(help="The bot or level that gives the hint.")] = "hard",
        seconds: Annotated[float | None, typer.Option(help="Time to think, in seconds.")] = None,
        seed: Annotated[int, typer.Option(help="Seed of the bot's random source.")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    ) -> None:
        """Print the move a bot would play next in a record, and why.

        The bot sees only the view of the player to move in the position the record reaches.
        """
        check_seconds("--seconds", seconds, above_zero=True)
        from spite.games import has_hook, load_hook
        from spite.records import replay

        with record_errors():
            rec = read_record(record)
            if not has_hook(rec.game, "hint"):
                raise OptionsError(f"{rec.game} has no hints (the bots give them for turn games)")
            state = replay(rec).state
            decision = load_hook(rec.game, "hint")(state, bot, seconds, seed)
        if as_json:
            typer.echo(json.dumps({"seat": state.to_move, "bot": bot, "move": decision.move.text,
                                   "why": decision.why}))
        else:
            typer.echo(decision.move.text)
            typer.echo(f"why: {decision.why or '(the bot gave no reason)'}")
