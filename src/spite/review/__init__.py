"""Game review: where a finished game was won and lost, turn by turn.

:func:`review_record` replays a finished record and, for every turn of the seats asked for, says
which plan was played, which plan ``expert`` prefers (of ``hard``'s plans, compared as the stock-valued
search bot compares its own), the estimated chance of winning before and after the turn, and how much
of that chance the turn gave away; turns that gave away much are marked (:data:`INACCURACY`,
:data:`BLUNDER`), and each seat gets a summary: its accuracy and its three costliest turns
(docs/bots.md, "Game review").

A layer above the bots: the game looks up its reviewer as the ``review`` hook of :mod:`spite.games`
(a family's ``review`` package). A game without one (a real-time game has no turns to review) is
refused with one line. Every estimate comes from the reviewed
seat's view of the position, never from the cards it could not see.

>>> from spite.games import game_names, get_game, has_hook
>>> reviewed = next(name for name in game_names() if has_hook(name, "review"))
>>> game = get_game(reviewed).new(None, {"stock_size": 2}, seed=4)
>>> while not game.is_over:
...     seat, = game.to_act()
...     _ = game.apply(seat, game.legal_moves(seat)[0])
>>> review = review_record(game.to_record(), budget=0.05)
>>> review.turns[0].turn, review.turns[0].seat, 0.0 <= review.turns[0].win_before <= 1.0
(1, 0, True)
>>> sorted(review.to_json())  # doctest: +NORMALIZE_WHITESPACE
['budget', 'format', 'game', 'players', 'preset', 'result', 'seats', 'seed', 'sides', 'summary',
 'thresholds', 'turns']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from spite.errors import OptionsError
from spite.games import Record, get_game, has_hook, load_hook

__all__ = [
    "BLUNDER",
    "DEFAULT_BUDGET",
    "FORMAT",
    "INACCURACY",
    "DecisionReview",
    "Progress",
    "Review",
    "SeatSummary",
    "TurnReview",
    "accuracy",
    "mark_of",
    "merge_parts",
    "review_record",
]

FORMAT = "spite-review/1"
"""The ``format`` of a review's JSON (docs/bots.md, "Game review")."""

DEFAULT_BUDGET = 0.5
"""Seconds of search per reviewed turn by default (about: a game's reviewer turns it into its own search's work)."""

INACCURACY = 0.05
"""A turn that gave away at least this much win probability (5 points) is an inaccuracy."""

BLUNDER = 0.15
"""A turn that gave away at least this much win probability (15 points) is a blunder."""

Progress = Callable[[int, int], None]
"""Called after each reviewed turn with the turns done and the turns in all."""


def mark_of(loss: float) -> str | None:
    """``"blunder"``, ``"inaccuracy"`` or ``None`` for a turn that gave away ``loss``.

    >>> mark_of(0.2), mark_of(0.07), mark_of(0.01)
    ('blunder', 'inaccuracy', None)
    """
    if loss >= BLUNDER:
        return "blunder"
    if loss >= INACCURACY:
        return "inaccuracy"
    return None


def accuracy(loss: float) -> float:
    """A turn's accuracy in per cent from the win probability it gave away (the curve lichess uses
    for chess moves: 100 for no loss, about 64 for 10 points, about 8 for 50).

    >>> accuracy(0.0), round(accuracy(0.1), 1), round(accuracy(0.5), 1)
    (100.0, 63.6, 8.5)
    """
    value = 103.1668 * math.exp(-0.04354 * 100.0 * loss) - 3.1669
    return round(min(100.0, max(0.0, value)), 1)


@dataclass
class DecisionReview:
    """One point of a turn where the seat chose a plan: the turn's start, or where a card it could
    not see came to light (a stock card turned up, a refilled hand) and it planned again."""

    ply: int
    """Moves played before this point (shuffle entries not counted): the replay viewer's position."""
    played: list[str]
    """The moves played from here to the next such point or the end of the turn."""
    best: list[str]
    """The plan ``expert`` prefers from here (the same moves when it prefers what was played)."""
    win_before: float
    """The estimated chance of winning here with the best plan found (the played one or expert's)."""
    win_after: float
    """The estimated chance of winning after the played plan."""
    loss: float
    """``win_before - win_after``: 0 when the played plan did as well, or when the difference was
    within the estimate's noise (not more than two standard errors)."""
    samples: int
    """Sampled deals of the unseen cards each compared plan was played out on."""
    rollouts: int = field(default=0, compare=False)
    """Rollouts spent (not in the JSON: what the turn's later decisions may still spend)."""

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "played": self.played, "best": self.best, "win_before": _p(self.win_before),
                "win_after": _p(self.win_after), "loss": _p(self.loss), "samples": self.samples}


@dataclass
class TurnReview:
    """One reviewed turn: its decisions and what they add up to."""

    turn: int
    """The turn's number (1 for the first turn of the game)."""
    seat: int
    ply: int
    """Moves played before the turn (the replay viewer's position at its start)."""
    decisions: list[DecisionReview]

    @property
    def played(self) -> list[str]:
        """Every move of the turn."""
        return [move for d in self.decisions for move in d.played]

    @property
    def costliest(self) -> DecisionReview:
        """The decision that gave away most (the first one when none gave away anything)."""
        return max(self.decisions, key=lambda d: d.loss)

    @property
    def best(self) -> list[str]:
        """The plan ``expert`` prefers at the costliest decision."""
        return self.costliest.best

    @property
    def win_before(self) -> float:
        return self.decisions[0].win_before

    @property
    def win_after(self) -> float:
        return self.decisions[-1].win_after

    @property
    def loss(self) -> float:
        return sum(d.loss for d in self.decisions)

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)

    def to_json(self) -> dict[str, Any]:
        worst = self.costliest
        return {"turn": self.turn, "seat": self.seat, "ply": self.ply, "played": self.played,
                "best": worst.best, "best_ply": worst.ply, "win_before": _p(self.win_before),
                "win_after": _p(self.win_after), "loss": _p(self.loss), "mark": self.mark,
                "accuracy": accuracy(self.loss), "decisions": [d.to_json() for d in self.decisions]}


@dataclass
class SeatSummary:
    """What a seat's turns add up to."""

    seat: int
    turns: int
    accuracy: float
    """The mean of its turns' accuracies (100 when every turn was as good as expert's)."""
    inaccuracies: int
    blunders: int
    costliest: list[TurnReview]
    """Its three costliest turns that gave anything away, costliest first."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "turns": self.turns, "accuracy": self.accuracy,
                "inaccuracies": self.inaccuracies, "blunders": self.blunders,
                "costliest": [{"turn": t.turn, "ply": t.ply, "loss": _p(t.loss), "mark": t.mark}
                              for t in self.costliest]}


@dataclass
class Review:
    """The review of one game (see the module docstring); :meth:`to_json` is the documented object."""

    game: str
    preset: str
    players: int
    sides: int
    """Sides that race (2 with partnerships: seats 0 and 2 against 1 and 3); a side's chance is its seats'."""
    seats: list[int]
    budget: float
    seed: int
    result: dict[str, Any] | None
    turns: list[TurnReview] = field(default_factory=list)
    total: int = 0
    """The turns the seats asked for have in all (a review of a ``part`` holds only some of them)."""

    def summary(self, seat: int) -> SeatSummary:
        mine = [t for t in self.turns if t.seat == seat]
        costly = sorted((t for t in mine if t.loss > 0), key=lambda t: (-t.loss, t.turn))[:3]
        acc = round(sum(accuracy(t.loss) for t in mine) / len(mine), 1) if mine else 100.0
        return SeatSummary(seat, len(mine), acc, sum(t.mark == "inaccuracy" for t in mine),
                           sum(t.mark == "blunder" for t in mine), costly)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "preset": self.preset, "players": self.players,
                "sides": self.sides, "seats": self.seats, "budget": self.budget, "seed": self.seed,
                "result": self.result,
                "thresholds": {"inaccuracy": INACCURACY, "blunder": BLUNDER},
                "turns": (turns := [t.to_json() for t in self.turns]),
                "summary": _summaries(self.seats, turns)}


def _p(x: float) -> float:
    return round(x, 4)


def merge_parts(parts: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The JSON of reviews of consecutive parts of one game (:func:`review_record` with ``part``) as one
    review: the turns one after the other, each seat's summary made again from all of them (as
    :meth:`Review.summary` makes it). A server shows a review so as it is made, part by part.

    >>> turn = {"turn": 1, "seat": 0, "ply": 0, "loss": 0.2, "mark": "blunder", "accuracy": 40.0}
    >>> merged = merge_parts([{"seats": [0], "turns": [turn], "summary": []},
    ...                       {"seats": [0], "turns": [{**turn, "turn": 3, "loss": 0.0, "mark": None,
    ...                                                 "accuracy": 100.0}], "summary": []}])
    >>> [t["turn"] for t in merged["turns"]], merged["summary"][0]["accuracy"], merged["summary"][0]["blunders"]
    ([1, 3], 70.0, 1)
    """
    out = dict(parts[0])
    out["turns"] = [t for part in parts for t in part["turns"]]
    out["summary"] = _summaries(out["seats"], out["turns"])
    return out


def _summaries(seats: Sequence[int], turns: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each seat's summary (:class:`SeatSummary`'s JSON) from the turns' JSON: a whole review and its
    parts put together say the same, to the last digit."""
    out = []
    for seat in seats:
        mine = [t for t in turns if t["seat"] == seat]
        costly = sorted((t for t in mine if t["loss"] > 0), key=lambda t: (-t["loss"], t["turn"]))[:3]
        out.append({"seat": seat, "turns": len(mine),
                    "accuracy": round(sum(t["accuracy"] for t in mine) / len(mine), 1) if mine else 100.0,
                    "inaccuracies": sum(t["mark"] == "inaccuracy" for t in mine),
                    "blunders": sum(t["mark"] == "blunder" for t in mine),
                    "costliest": [{"turn": t["turn"], "ply": t["ply"], "loss": t["loss"], "mark": t["mark"]}
                                  for t in costly]})
    return out


class Reviewer(Protocol):
    """A game's ``review`` hook: reviews a finished record of that game (with ``part``, only the
    reviewed turns ``part[0]`` up to ``part[1]``, counted from 0; :attr:`Review.total` says how many
    there are in all)."""

    def __call__(self, record: Record, *, seats: Sequence[int] | None, budget: float, seed: int,
                 progress: Progress | None, jobs: int, part: tuple[int, int] | None = None) -> Review: ...


def review_record(record: Record, *, seats: Sequence[int] | None = None, budget: float = DEFAULT_BUDGET,
                  seed: int = 0, progress: Progress | None = None, jobs: int = 1,
                  part: tuple[int, int] | None = None) -> Review:
    """Review the finished game ``record`` for ``seats`` (default: every seat), with about
    ``budget`` seconds of search per turn, in ``jobs`` processes; the same ``seed`` gives the same
    review, whatever ``jobs``. With ``part`` (``start``, ``stop``) only those of the reviewed turns,
    each reviewed exactly as in the whole review (:func:`merge_parts` puts parts together).

    Raises :class:`~spite.errors.OptionsError` for a game that has no review (a real-time game), an
    unfinished game, a seat that is not in the game, a budget that is not positive or fewer than one
    job, and the record errors of :mod:`spite.records` for a record that cannot be replayed.
    """
    game = get_game(record.game)
    if not has_hook(record.game, "review"):
        if game.realtime:
            raise OptionsError(f"{record.game} is played in real time: a review is for turn-based games")
        raise OptionsError(f"{record.game} games cannot be reviewed")
    if not budget > 0 or not math.isfinite(budget):
        raise OptionsError(f"the budget must be a number of seconds above 0, not {budget}")
    if jobs < 1:
        raise OptionsError(f"jobs must be 1 or more, not {jobs}")
    reviewer: Reviewer = load_hook(record.game, "review")
    return reviewer(record, seats=seats, budget=budget, seed=seed, progress=progress, jobs=jobs, part=part)
