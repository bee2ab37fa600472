"""Ratings of people with a player key, per rules group (docs/ratings.md).

The arithmetic is the ``openskill`` library's (Weng-Lin Bayesian ratings, the Plackett-Luce model):
one model rates duels, free-for-all games of 3 or 4 (a ranking) and 2-against-2 partnerships (teams)
alike. A rating is a belief ``mu ± sigma``; it is shown as one conservative number,
``1000 + 40 · (mu − 3·sigma)`` (a newcomer shows 1000 and rises as the server grows sure of them),
with its uncertainty (``± 80 · sigma``, two standard deviations on the shown scale) while it is
provisional (``sigma`` above :data:`PROVISIONAL_SIGMA`).

Which games rate together is the game's own business: :func:`rating_group` asks the game's server
hook (:meth:`~spite.server.table.play.ServerGame.rating_group`), the one place that knows that the
match game or partners are rated apart from the classic rules. This module never asks which game it is.

Fair use (checked here, when a rated game's end is stored, in the same commit as the game; what the
table and the lobby guard is in docs/ratings.md, "What rated play guards against"):

* only seats with a player id are rated; a game with one key at two seats is not rated at all;
* a side a person left (their grace time or turn clock ran out: the game ended there, ``left``) or
  that a bot played for a while (``taken_over``) ranks last, whatever the board said;
* a computer seat plays at its level's measured rating (:data:`LEVEL_RATINGS`, measured by
  ``spite rate-levels``); it is not changed by the game, and a game against a level never measured
  is not rated.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spite.server import db
from spite.server.protocol import SeatRating

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

__all__ = [
    "BASE",
    "LEVEL_RATINGS",
    "PROVISIONAL_SIGMA",
    "SCALE",
    "Rating",
    "RatingGroup",
    "display",
    "games_to_establish",
    "groups",
    "level_rating",
    "measured",
    "model",
    "nearest_level",
    "rate_game",
    "rating_group",
    "team_ranks",
]

@functools.cache
def groups() -> tuple[str, ...]:
    """The rules groups, each with a leaderboard of its own: those every served game's hook names."""
    from spite.server.lobby import served_games, server_game

    return tuple(group for game in served_games() for group in server_game(game).rating_groups(game))

BASE = 1000
"""The shown rating of ``mu − 3·sigma = 0`` (a newcomer)."""
SCALE = 40
"""Shown points per unit of ``mu`` (openskill's default scale has ``mu = 25``, ``sigma = 25/3``)."""
Z = 3.0
"""How many ``sigma`` the shown number stays below ``mu``."""
PROVISIONAL_SIGMA = 4.0
"""A rating is provisional (shown with its uncertainty) while ``sigma`` is above this: about the
first 12 games against equals."""


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

    def seat(self) -> SeatRating:
        """The rating as a rated table shows it beside the person's name."""
        return SeatRating(rating=self.shown, provisional=self.provisional, games=self.games)


@functools.cache
def _settling() -> tuple[float, ...]:
    """A newcomer's ``sigma`` after each rated game, until it is established: duels against an
    opponent of equal ``mu`` who has just become established (``sigma`` 4), won and lost in turn.
    People read how many games are left in words ("provisional: 4 more games"), never the formula."""
    m = model()
    mu, sigma = m.mu, m.sigma
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
    """The rating of someone with no rated game in a group."""
    return Rating(model().mu, model().sigma, 0)


def rating_group(game: str, preset: str, options: Mapping[str, Any], seats: int) -> RatingGroup:
    """The rules group of a ``game`` table of ``preset`` and ``options``: the game's server hook says."""
    from spite.server.lobby import server_game

    return server_game(game).rating_group(game, preset, dict(options), seats)


# ---------------------------------------------------------------------- the computer's levels
@functools.cache
def _level_table() -> dict[str, dict[str, list[float]]]:
    text = resources.files("spite.server").joinpath("level_ratings.json").read_text("utf-8")
    data: dict[str, dict[str, list[float]]] = json.loads(text)["groups"]
    return data


LEVEL_RATINGS = _level_table
"""Group → level → ``[mu, sigma]`` as ``spite arena ratings`` measured them (``level_ratings.json``)."""


def measured(group: str, level: str | None) -> bool:
    """Whether the computer's ``level`` has a measured rating in ``group`` (only those play rated).

    >>> measured("classic", "medium"), measured("classic", "random"), measured("spit", "reflex:60000")
    (True, False, False)
    """
    return (level or "") in _level_table().get(group, {})


def level_rating(group: str, level: str | None) -> Rating:
    """The rating a computer of ``level`` plays at in ``group`` (a level never measured: a newcomer's
    ``mu`` with a small ``sigma``, so it neither gives nor takes much)."""
    found = _level_table().get(group, {}).get(level or "")
    if found is None:
        return Rating(model().mu, 2.0, 0)
    return Rating(found[0], found[1], 0)


def nearest_level(group: str, mu: float, levels: Sequence[str]) -> str | None:
    """The computer level of ``levels`` whose measured ``mu`` is nearest ``mu`` (``None``: none measured)."""
    known = [(abs(_level_table()[group][lv][0] - mu), i, lv) for i, lv in enumerate(levels)
             if lv in _level_table().get(group, {})]
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


def _unrated_reason(group: RatingGroup, players: Sequence[Mapping[str, Any]]) -> str | None:
    """Why a rated table's game does not count (``None``: it does)."""
    keyed = [p["player_id"] for p in players if not p["is_bot"] and p.get("player_id")]
    if not keyed:
        return "no keyed player"
    if len(keyed) != len(set(keyed)):
        return "one key at two seats"
    if any(p["is_bot"] and not measured(group.name, str(p["player"]).removeprefix("bot:")) for p in players):
        return "a computer of a level never measured"
    if len(group.sides) < 2:
        return "one side"
    return None


def rate_game(conn: Connection, game_id: int, group: RatingGroup, players: Sequence[Mapping[str, Any]],
              names: Mapping[int, str] | None = None, now: float | None = None) -> dict[str, Rating]:
    """Rate a finished game of a rated table, inside the transaction that stores it: the keyed
    players' ratings in ``group`` are read (locked, under PostgreSQL, so two games ending at once on
    two workers update one after the other), updated as the library says, written back, and each
    change kept in the history. Guests and bots keep no rating (a bot plays at its level's). Returns
    the new ratings by player id (empty when the game does not count: :func:`_unrated_reason`)."""
    if _unrated_reason(group, players) is not None:
        return {}
    now = time.time() if now is None else now
    r, h = db.ratings, db.rating_history
    by_seat = {int(p["seat"]): p for p in players}
    ids = sorted({p["player_id"] for p in players if not p["is_bot"] and p.get("player_id")})
    rows = conn.execute(sa.select(r).where(r.c.group == group.name, r.c.player_id.in_(ids))
                        .with_for_update()).mappings().all()
    old = {row["player_id"]: Rating(row["mu"], row["sigma"], row["games"]) for row in rows}
    m = model()
    teams = []
    for side in group.sides:
        team = []
        for seat in side:
            p = by_seat[seat]
            pid = p.get("player_id") if not p["is_bot"] else None
            if pid:
                now_rating = old.get(pid, newcomer())
            elif p["is_bot"]:
                now_rating = level_rating(group.name, str(p["player"]).removeprefix("bot:"))
            else:  # a guest at a rated table (cannot be seated there): a newcomer who is not kept
                now_rating = newcomer()
            team.append(m.rating(mu=now_rating.mu, sigma=now_rating.sigma, name=pid or f"seat{seat}"))
        teams.append(team)
    rated = m.rate(teams, ranks=[float(rank) for rank in team_ranks(group, players)])
    out: dict[str, Rating] = {}
    for side, team in zip(group.sides, rated, strict=True):
        for seat, after in zip(side, team, strict=True):
            p = by_seat[seat]
            pid = p.get("player_id") if not p["is_bot"] else None
            if not pid:
                continue
            games = old[pid].games + 1 if pid in old else 1
            new = Rating(float(after.mu), float(after.sigma), games)
            out[pid] = new
            name = (names or {}).get(seat) or str(p["player"])
            values = {"mu": new.mu, "sigma": new.sigma, "games": games, "name": name, "updated_at": now}
            if pid in old:
                conn.execute(sa.update(r).where(r.c.group == group.name, r.c.player_id == pid).values(**values))
            else:
                conn.execute(sa.insert(r).values(player_id=pid, group=group.name, **values))
            conn.execute(sa.insert(h).values(player_id=pid, group=group.name, game_id=game_id, mu=new.mu,
                                             sigma=new.sigma, rating=new.shown, at=now))
    return out


# ---------------------------------------------------------------------- aborts
def aborts_since(conn: Connection, player: str, since: float) -> list[float]:
    """When ``player`` aborted rated games (left before every side had moved) since ``since``, oldest first."""
    a = db.aborts
    return [float(at) for at in conn.execute(sa.select(a.c.at).where(a.c.player_id == player, a.c.at >= since)
                                             .order_by(a.c.at)).scalars()]


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


# ---------------------------------------------------------------------- reads
def rating_of(conn: Connection, player: str, group: str) -> Rating:
    """``player``'s rating in ``group`` (a newcomer's when they have none)."""
    r = db.ratings
    row = conn.execute(sa.select(r).where(r.c.player_id == player, r.c.group == group)).mappings().first()
    return Rating(row["mu"], row["sigma"], row["games"]) if row is not None else newcomer()


def leaderboard(conn: Connection, group: str, limit: int, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    """The players of ``group``, best shown rating first (established ratings before provisional ones),
    and how many there are."""
    r = db.ratings
    total = int(conn.execute(sa.select(sa.func.count()).select_from(r).where(r.c.group == group)).scalar() or 0)
    provisional = sa.case((r.c.sigma > PROVISIONAL_SIGMA, 1), else_=0)
    rows = conn.execute(sa.select(r).where(r.c.group == group)
                        .order_by(provisional, (r.c.mu - Z * r.c.sigma).desc(), r.c.player_id)
                        .limit(limit).offset(offset)).mappings().all()
    return [{"playerId": row["player_id"], "name": row["name"],
             **Rating(row["mu"], row["sigma"], row["games"]).as_json()} for row in rows], total


def ratings_of(conn: Connection, player: str, history: int = 200) -> list[dict[str, Any]]:
    """Every group ``player`` is rated in, with the rating after each of their last ``history``
    rated games there (oldest first: the chart's points)."""
    r, h, g = db.ratings, db.rating_history, db.games
    out = []
    for row in conn.execute(sa.select(r).where(r.c.player_id == player).order_by(r.c.group)).mappings():
        points = conn.execute(sa.select(h.c.game_id, h.c.rating, h.c.at, g.c.table_id)
                              .select_from(h.outerjoin(g, g.c.id == h.c.game_id))
                              .where(h.c.player_id == player, h.c.group == row["group"])
                              .order_by(h.c.id.desc()).limit(history)).mappings().all()
        out.append({"group": row["group"], "name": row["name"],
                    **Rating(row["mu"], row["sigma"], row["games"]).as_json(),
                    "history": [{"gameId": p["game_id"], "tableId": p["table_id"], "rating": p["rating"],
                                 "at": p["at"]} for p in reversed(points)]})
    return out


def resolve_player(conn: Connection, player: str) -> str | None:
    """A player id from an id or a name (the most recently rated player of that name)."""
    from spite.server.store import PLAYER_ID

    r = db.ratings
    if PLAYER_ID.fullmatch(player):  # an id is a player once they have a rating or a game
        known = conn.execute(sa.select(r.c.player_id).where(r.c.player_id == player).limit(1)).scalar() or \
            conn.execute(sa.select(db.game_players.c.player_id).where(db.game_players.c.player_id == player)
                         .limit(1)).scalar()
        return player if known is not None else None
    found = conn.execute(sa.select(r.c.player_id).where(r.c.name == player)
                         .order_by(r.c.updated_at.desc()).limit(1)).scalar()
    return str(found) if found is not None else None
