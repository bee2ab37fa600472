"""What a tournament leaves behind: ``games.csv``, ``records/``, ``win_rates.png``, ``summary.json``;
and, while it runs, ``tournament.json`` (its settings) and ``games.jsonl`` (each game as it ends), so
that an interrupted tournament loses nothing and can go on (``spite tournament … --resume``).

``games.csv``'s ``plies`` counts the players' moves only; ``spite check`` on the game's record
counts all of its ``moves`` entries, the chance entries (shuffles, Spit layouts) too.
"""

from __future__ import annotations

import csv
import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spite.arena.runner import GameResult
from spite.errors import OptionsError

__all__ = ["CSV_FIELDS", "GAMES_FILE", "SETTINGS_FILE", "GameWriter", "load_games", "plot_win_rates", "record_name"]

SETTINGS_FILE = "tournament.json"
"""The settings of the tournament in a folder (what ``--resume`` must match)."""
GAMES_FILE = "games.jsonl"
"""One JSON line per finished game, written as each game ends."""

CSV_FIELDS = ["game", "deal", "rotation", "seed", "seats", "winner", "team", "reason", "points", "winners",
              "scores", "turns", "plies", "think_ms", "error", "record"]


def record_name(index: int, total: int) -> str:
    """The record file of game ``index`` (1-based in the name, zero-padded): ``records/game-0007.json``."""
    width = max(4, len(str(total)))
    return f"records/game-{index + 1:0{width}d}.json"


def _result_line(res: GameResult, record: str) -> str:
    fields = {k: v for k, v in dataclasses.asdict(res).items() if k != "record"}
    fields["scores"] = [[bot, score] for bot, score in res.scores.items()]
    return json.dumps({**fields, "record_file": record}, separators=(",", ":"))


def _result_of(line: str) -> tuple[GameResult, str]:
    data = json.loads(line)
    record = data.pop("record_file")
    data["scores"] = {int(bot): float(score) for bot, score in data["scores"]}
    for key in ("seats", "think", "decisions"):
        data[key] = tuple(data[key])
    return GameResult(**data), str(record)


def load_games(out: Path) -> list[tuple[GameResult, str]]:
    """The finished games kept in ``out/games.jsonl`` with their record files; a last line cut short (the
    tournament was stopped while writing it) is dropped, and the file is written again without it.

    Raises :class:`OptionsError` for a damaged file.
    """
    path = out / GAMES_FILE
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    games: list[tuple[GameResult, str]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            games.append(_result_of(line))
        except (ValueError, KeyError, TypeError):
            if number == len(lines):
                path.write_text("".join(_result_line(g, r) + "\n" for g, r in games), encoding="utf-8")
                break
            raise OptionsError(f"{path} line {number} is damaged; cannot go on with this tournament") from None
    return games


class GameWriter:
    """Writes each game as it arrives: its record file and its line in ``games.jsonl`` now, its CSV row
    (in game order) at :meth:`close`. ``finished``: games kept from an earlier run (not written again)."""

    def __init__(self, out: Path, names: Sequence[str], total: int,
                 finished: Sequence[tuple[GameResult, str]] = ()) -> None:
        self.out = out
        self.names = list(names)
        self.total = total
        (out / "records").mkdir(parents=True, exist_ok=True)
        self.rows: dict[int, dict[str, Any]] = {}
        for res, record in finished:
            self._keep_row(res, record)
        self.log = (out / GAMES_FILE).open("a", encoding="utf-8")

    def add(self, res: GameResult) -> None:
        """Write the game's record and its line, and keep its row (the record text is dropped from ``res``)."""
        name = record_name(res.index, self.total)
        if res.record is not None:
            (self.out / name).write_text(res.record, encoding="utf-8")
            res.record = None
        self.log.write(_result_line(res, name) + "\n")
        self.log.flush()  # a game that has ended is kept, whatever happens next
        self._keep_row(res, name)

    def _keep_row(self, res: GameResult, name: str) -> None:
        names = self.names
        self.rows[res.index] = {
            "game": res.index + 1,
            "deal": res.deal + 1,
            "rotation": res.rotation,
            "seed": res.seed,
            "seats": ";".join(names[b] for b in res.seats),
            "winner": "" if res.winner is None else res.winner,
            "team": "" if res.team is None else res.team,
            "reason": res.reason,
            "points": "" if res.points is None else res.points,
            "winners": ";".join(names[b] for b, s in sorted(res.scores.items()) if s == 1.0),
            "scores": ";".join(f"{names[b]}={s:g}" for b, s in sorted(res.scores.items())),
            "turns": res.turns,
            "plies": res.plies,
            "think_ms": ";".join(f"{1000 * t:.3f}" for t in res.think),
            "error": res.error,
            "record": name,
        }

    def close(self, summary: dict[str, Any]) -> None:
        """Write ``games.csv`` (one row per game, in order), ``summary.json`` and ``win_rates.png``."""
        self.log.close()
        with (self.out / "games.csv").open("w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=CSV_FIELDS)
            writer.writeheader()
            for index in sorted(self.rows):
                writer.writerow(self.rows[index])
        (self.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        plot_win_rates(summary, self.out / "win_rates.png")


def _short(name: str, width: int = 28) -> str:
    """A bot name cut to ``width`` characters for a plot label (the end of a command says the most)."""
    return name if len(name) <= width else name[:8] + "…" + name[-(width - 9):]


def plot_win_rates(summary: dict[str, Any], path: Path) -> None:
    """A PNG of each bot's win rate with its 95% interval (and the draw share), and the even-chance line."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    bots = summary["bots"]
    names = list(bots)
    rates = [bots[n]["win_rate"] for n in names]
    lows = [bots[n]["win_rate"] - bots[n]["ci95"][0] for n in names]
    highs = [bots[n]["ci95"][1] - bots[n]["win_rate"] for n in names]
    draws = [bots[n]["draws"] / bots[n]["games"] if bots[n]["games"] else 0 for n in names]
    fig = Figure(figsize=(7, 1.6 + 0.7 * len(names)), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ys = list(range(len(names)))[::-1]
    ax.barh(ys, rates, color="#4c78a8", height=0.55, label="wins")
    ax.barh(ys, draws, left=rates, color="#bbbbbb", height=0.55, label="draws")
    ax.errorbar(rates, ys, xerr=[lows, highs], fmt="none", ecolor="black", capsize=4, label="95% interval")
    sides = summary.get("sides") or len(names)
    ax.axvline(1 / sides, color="#e45756", linestyle="--", linewidth=1, label="even chances")
    for y, rate, name in zip(ys, rates, names, strict=True):
        hi = bots[name]["ci95"][1]
        label = f"{100 * rate:.1f}%  Elo {bots[name]['elo']:+.0f}"
        if hi < 0.75:
            ax.text(hi + 0.015, y, label, fontsize=8, va="center")
        else:
            ax.text(0.015, y + 0.38, label, fontsize=8, va="center")
    ax.set_yticks(ys, [f"{_short(n)}\n({bots[n]['games']} games)" for n in names], fontsize=8)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate")
    games = summary.get("games", "")
    ax.set_title(f"{summary.get('preset', '')}: {games} games, seed {summary.get('seed', '')}", fontsize=10)
    fig.legend(fontsize=7, loc="outside lower center", ncols=4, frameon=False)
    fig.savefig(path, dpi=110)
