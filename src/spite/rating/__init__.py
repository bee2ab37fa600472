"""Ratings: the model that rates people, the number they see, and the computer's levels on the same
scale — below the server and the arena, which both use it (docs/ratings.md).

The arithmetic is the ``openskill`` library's (Weng-Lin Bayesian ratings, the Plackett-Luce model):
one model rates duels, free-for-all games of 3 or 4 (a ranking) and 2-against-2 partnerships (teams)
alike. A rating is a belief ``mu ± sigma``; it is shown as one conservative number,
``1000 + 40 · (mu − 3·sigma)`` (a newcomer shows 1000 and rises as the server grows sure of them),
with its uncertainty (``± 80 · sigma``, two standard deviations on the shown scale) while it is
provisional (``sigma`` above :data:`PROVISIONAL_SIGMA`).

Which games rate together, and what a rated table plays, is the game's own business: its ``rating``
hook in the registry (:class:`RatingRules`; a game without one rates every seat for itself in a group
named after the game, at its presets as they are). Nothing here asks which game it is. ``openskill``
is imported only when a rating is computed (the ``server`` extra).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

from spite.games import game_names, has_hook, load_hook

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

__all__ = [
    "BASE",
    "PROVISIONAL_SIGMA",
    "SCALE",
    "Rating",
    "RatingGroup",
    "RatingRules",
    "Z",
    "display",
    "games_to_establish",
    "groups",
    "level_rating",
    "level_table",
    "measured",
    "model",
    "nearest_level",
    "newcomer",
    "rating_group",
    "rules",
    "standard",
    "team_ranks",
]

BASE = 1000
"""The shown rating of ``mu − 3·sigma = 0`` (a newcomer)."""
SCALE = 40
"""Shown points per unit of ``mu`` (openskill's default scale has ``mu = 25``, ``sigma = 25/3``)."""
Z = 3.0
"""How many ``sigma`` the shown number stays below ``mu``."""
PROVISIONAL_SIGMA = 4.0
"""A rating is provisional (shown with its uncertainty) while ``sigma`` is above this: a newcomer's
first 25 games or so (:func:`games_to_establish`)."""


@dataclass(frozen=True)
class RatingGroup:
    """Which leaderboard a game counts for, and its sides: each a tuple of seats (one seat a side in
    duels and free-for-all games; two in partnerships)."""

    name: str
    sides: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Rating:
    """A rating as the library keeps it, and how many rated games made it."""

    mu: float
    sigma: float
    games: int = 0

    @property
    def shown(self) -> int:
        """The conservative number people see."""
        return display(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def uncertainty(self) -> int:
        """Two standard deviations on the shown scale."""
        return round(2 * SCALE * self.sigma)

    @property
    def games_to_establish(self) -> int:
        """About how many more rated games keep this rating provisional (0: it is established)."""
        return games_to_establish(self.sigma)

    def as_json(self) -> dict[str, Any]:
        return {"rating": self.shown, "provisional": self.provisional, "uncertainty": self.uncertainty,
                "games": self.games, "provisionalGames": self.games_to_establish,
                "mu": round(self.mu, 4), "sigma": round(self.sigma, 4)}


@functools.cache
def model() -> PlackettLuce:
    """The Weng-Lin model every rating uses: Plackett-Luce (see docs/ratings.md for why)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def display(mu: float, sigma: float) -> int:
    """The shown, conservative number: ``BASE + SCALE·(mu − Z·sigma)``.

    >>> display(25.0, 25 / 3)
    1000
    >>> display(30.0, 1.5)
    2020
    """
    return round(BASE + SCALE * (mu - Z * sigma))


def newcomer() -> Rating:
    """The rating of someone with no rated game in a group (openskill's own start: 25 ± 25/3)."""
    return Rating(25.0, 25.0 / 3.0, 0)


@functools.cache
def _settling() -> tuple[float, ...]:
    """A newcomer's ``sigma`` after each rated game, until it is established: duels against an
    opponent of equal ``mu`` who has just become established (``sigma`` 4), won and lost in turn.
    People read how many games are left in words ("provisional: 4 more games"), never the formula."""
    m = model()
    start = newcomer()
    mu, sigma = start.mu, start.sigma
    steps = [sigma]
    while sigma > PROVISIONAL_SIGMA and len(steps) < 200:
        me, other = m.rating(mu=mu, sigma=sigma), m.rating(mu=mu, sigma=PROVISIONAL_SIGMA)
        [[after], _] = m.rate([[me], [other]], ranks=[0.0, 1.0] if len(steps) % 2 else [1.0, 0.0])
        mu, sigma = float(after.mu), float(after.sigma)
        steps.append(sigma)
    return tuple(steps)


def games_to_establish(sigma: float) -> int:
    """About how many more rated games a rating of ``sigma`` stays provisional (0: established): as
    many as a newcomer's ``sigma`` takes from ``sigma`` down to :data:`PROVISIONAL_SIGMA`.

    >>> games_to_establish(4.0), games_to_establish(4.01) >= 1, games_to_establish(25 / 3) > games_to_establish(6)
    (0, True, True)
    """
    if sigma <= PROVISIONAL_SIGMA:
        return 0
    return max(1, sum(1 for s in _settling() if PROVISIONAL_SIGMA < s <= sigma + 1e-9))


# ---------------------------------------------------------------------- a game's rules of rating
class RatingRules:
    """A game's ``rating`` hook: its rules groups and what a rated table of it plays. These defaults
    are what a game without the hook gets: one group named after the game, every seat for itself, a
    preset as it is (no option changed)."""

    def groups(self, game: str) -> tuple[str, ...]:
        """Every rules group :meth:`group` can name for ``game`` (a leaderboard each)."""
        return (game,)

    def group(self, game: str, preset: str, options: Mapping[str, Any], seats: int) -> RatingGroup:
        """Which ratings a rated ``game`` table of ``preset`` and ``options`` counts for, and its sides."""
        return RatingGroup(game, tuple((seat,) for seat in range(seats)))

    def standard(self, game: str, preset: str, options: Mapping[str, Any]) -> bool:
        """Whether a ``game`` table of ``preset`` with the option overrides ``options`` (the overrides a
        record keeps) plays standard rules, the only ones a rated table plays."""
        return not options


_DEFAULT_RULES = RatingRules()


def rules(game: str) -> RatingRules:
    """The rating rules of ``game`` (its ``rating`` hook, or the defaults)."""
    if not has_hook(game, "rating"):
        return _DEFAULT_RULES
    found = load_hook(game, "rating")
    assert isinstance(found, RatingRules)
    return found


def rating_group(game: str, preset: str, options: Mapping[str, Any], seats: int) -> RatingGroup:
    """The rules group of a ``game`` table of ``preset`` and ``options``: the game says."""
    return rules(game).group(game, preset, dict(options), seats)


def standard(game: str, preset: str, options: Mapping[str, Any]) -> bool:
    """Whether a rated table may play ``preset`` with the option overrides ``options``: the game says."""
    return rules(game).standard(game, preset, dict(options))


@functools.cache
def groups() -> tuple[str, ...]:
    """The rules groups, each with a leaderboard of its own: those every registered game names."""
    return tuple(group for game in game_names() for group in rules(game).groups(game))


# ---------------------------------------------------------------------- the computer's levels
@functools.cache
def level_table() -> dict[str, dict[str, list[float]]]:
    """Group → level → ``[mu, sigma]`` as ``spite rate-levels`` measured them (``levels.json``)."""
    text = resources.files("spite.rating").joinpath("levels.json").read_text("utf-8")
    data: dict[str, dict[str, list[float]]] = json.loads(text)["groups"]
    return data


def measured(group: str, level: str | None) -> bool:
    """Whether the computer's ``level`` has a measured rating in ``group`` (only those play rated).

    >>> measured("classic", "medium"), measured("classic", "random"), measured("spit", "reflex:60000")
    (True, False, False)
    """
    return (level or "") in level_table().get(group, {})


def level_rating(group: str, level: str | None) -> Rating:
    """The rating a computer of ``level`` plays at in ``group`` (a level never measured: a newcomer's
    ``mu`` with a small ``sigma``, so it neither gives nor takes much; a rated table has none)."""
    found = level_table().get(group, {}).get(level or "")
    if found is None:
        return Rating(25.0, 2.0, 0)
    return Rating(found[0], found[1], 0)


def nearest_level(group: str, mu: float, levels: Sequence[str]) -> str | None:
    """The computer level of ``levels`` whose measured ``mu`` is nearest ``mu`` (``None``: none measured)."""
    table = level_table().get(group, {})
    known = [(abs(table[lv][0] - mu), i, lv) for i, lv in enumerate(levels) if lv in table]
    return min(known)[2] if known else None


# ---------------------------------------------------------------------- a game's outcome
def team_ranks(group: RatingGroup, players: Sequence[Mapping[str, Any]]) -> list[int]:
    """Each side's rank (0 first; ties share one): the winning side first, the others tied after it;
    a side with a seat its person left (``left``) or a takeover bot played (``taken_over``) after
    everyone else.

    >>> g = RatingGroup("party", ((0,), (1,), (2,)))
    >>> team_ranks(g, [{"seat": 0, "won": False, "taken_over": False}, {"seat": 1, "won": True, "taken_over": False},
    ...                {"seat": 2, "won": False, "taken_over": True}])
    [1, 0, 2]
    """
    by_seat = {int(p["seat"]): p for p in players}
    ranks = []
    for side in group.sides:
        if any(by_seat[s].get("taken_over") or by_seat[s].get("left") for s in side):
            ranks.append(2)
        elif any(by_seat[s]["won"] for s in side):
            ranks.append(0)
        else:
            ranks.append(1)
    return ranks


def paused_until(aborts: Sequence[float], limit: int, window: float) -> float | None:
    """Until when a player with these abort times (oldest first, those of the last ``window`` seconds)
    may not play rated: ``limit`` aborts within ``window`` seconds pause it until the oldest of the
    last ``limit`` is ``window`` seconds old (``None``: not paused).

    >>> paused_until([10.0, 20.0], 3, 3600), paused_until([10.0, 20.0, 30.0], 3, 3600)
    (None, 3610.0)
    """
    if limit <= 0 or len(aborts) < limit:
        return None
    return aborts[-limit] + window
