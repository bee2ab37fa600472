"""How the Spite and Malice family is rated (its ``rating`` hook in the registry, docs/ratings.md):
the deck, the scoring and the number of players make rules groups of their own, partners are rated
as teams of the seats that share a stock, and a rated table plays a preset as it is (a party of four
too, the seeds' party being for three or four)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spite.malice.options import Options
from spite.rating import RatingGroup, RatingRules

__all__ = ["RATING", "MaliceRating"]


class MaliceRating(RatingRules):
    """The family's rules groups: ``skip-bo`` (Skip-Bo's deck), ``match`` (payoff scoring), ``party``
    (3 or 4 each for themselves), ``partners`` (two teams), and ``classic`` for every other two-player
    preset (classic, short, kings-only, ...)."""

    def groups(self, game: str) -> tuple[str, ...]:
        return ("classic", "skip-bo", "match", "party", "partners")

    def group(self, game: str, preset: str, options: Mapping[str, Any], seats: int) -> RatingGroup:
        opts = Options.from_preset(preset, options)
        if opts.partnerships:
            teams = tuple(tuple(s for s in range(seats) if opts.stock_of(s) == team) for team in range(opts.n_stocks))
            return RatingGroup("partners", teams)
        solo = tuple((seat,) for seat in range(seats))
        if opts.skipbo:
            return RatingGroup("skip-bo", solo)
        if opts.players > 2:
            return RatingGroup("party", solo)
        if opts.scoring == "payoff":
            return RatingGroup("match", solo)
        return RatingGroup("classic", solo)

    def standard(self, game: str, preset: str, options: Mapping[str, Any]) -> bool:
        """A preset as it is; a party may also be of four."""
        if not options:
            return True
        base = Options.from_preset(preset)
        return dict(options) == {"players": 4} and base.players == 3 and not base.partnerships


RATING = MaliceRating()
