"""``spite review``: a finished game turn by turn, where it was won and lost (:mod:`spite.review`).

The review itself is imported when the command runs, not when the command line is built.
"""

from __future__ import annotations

import json
import math
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from spite.cli.common import EXIT_MALFORMED, RecordArg, fail, plural, read_record, record_errors

if TYPE_CHECKING:
    from spite.review import Review

__all__ = ["register", "review", "review_table"]


def review_table(review: Review) -> str:
    """The review for a person: one line per turn, then each seat's summary."""
    lines = [f"Review of a {review.game} game ({review.preset}), {review.budget:g} s a turn, seed {review.seed}",
             "", f"{'turn':>4} {'seat':>4} {'win':>9} {'loss':>5}  {'mark':<10} played / expert prefers"]
    for turn in review.turns:
        win = f"{100 * turn.win_before:3.0f}→{100 * turn.win_after:3.0f}%"
        loss = f"{100 * turn.loss:4.1f}" if turn.loss else "   ."
        lines.append(f"{turn.turn:>4} {turn.seat:>4} {win:>9} {loss:>5}  {turn.mark or '':<10} {' '.join(turn.played)}")
        if turn.loss:
            worst = turn.costliest
            where = "" if worst.ply == turn.ply else f" (from move {worst.ply + 1})"
            lines.append(f"{'':>37}expert{where}: {' '.join(worst.best)}")
    lines.append("")
    for seat in review.seats:
        s = review.summary(seat)
        costly = ", ".join(f"turn {t.turn} (-{100 * t.loss:.1f})" for t in s.costliest) or "none"
        marks = f"{plural(s.inaccuracies, 'inaccuracy', 'inaccuracies')}, {plural(s.blunders, 'blunder')}"
        lines.append(f"seat {seat}: accuracy {s.accuracy:.1f} %, {marks} in {plural(s.turns, 'turn')}; "
                     f"costliest: {costly}")
    return "\n".join(lines)


def review(
    record: RecordArg,
    seat: Annotated[int | None, typer.Option("--as", help="Review only this seat's turns (default: every seat).")]
    = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object (docs/bots.md, \"Game review\").")]
    = False,
    budget: Annotated[float | None, typer.Option(
        help="Seconds of search per turn, about (default 0.5); turned into a number of samples, so a review "
             "is the same for a given seed on any machine.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the sampled deals of the unseen cards.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="Processes to review turns in (the same review "
                                      "whatever the number).")] = 1,
) -> None:
    """Show where a finished game with turns was won and lost.

    For every turn the plan played, the plan expert prefers, the estimated win probability before and
    after, and the inaccuracies and blunders; then each seat's accuracy.
    """
    from spite.review import DEFAULT_BUDGET, review_record

    if budget is not None and not (budget > 0 and math.isfinite(budget)):
        fail(f"--budget must be a number of seconds above 0, not {budget:g}", EXIT_MALFORMED)
    if jobs < 1:
        fail(f"--jobs must be 1 or more, not {jobs}", EXIT_MALFORMED)
    with record_errors():
        rec = read_record(record)
        # the progress bar goes to standard error, and only to a terminal (a pipe gets the result alone)
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        bar = Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TextColumn("turns"),
                       TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                       disable=not sys.stderr.isatty())
        with bar:
            task = bar.add_task("review", total=None)

            def step(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            result = review_record(rec, seats=None if seat is None else [seat],
                                   budget=DEFAULT_BUDGET if budget is None else budget, seed=seed, progress=step,
                                   jobs=jobs)
    if as_json:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        typer.echo(review_table(result))


def register(app: typer.Typer) -> None:
    """Add ``review`` to ``app``."""
    app.command("review")(review)
