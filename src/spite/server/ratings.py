"""The ratings a server keeps (docs/ratings.md): a finished rated game rated in the commit that stores
it, the leaderboards and a player's ratings read back, a player's aborted rated games. The model, the
shown number and the computer's levels are :mod:`spite.rating`'s (below the server: the arena uses
them too).

Fair use (checked here, when a rated game's end is stored, in the same commit as the game; what the
table and the lobby guard is in docs/ratings.md, "What rated play guards against"):

* only seats with a player id are rated; a game with one key at two seats is not rated at all;
* a side a person left (their grace time or turn clock ran out: the game ended there, ``left``) or
  that a bot played for a while (``taken_over``) ranks last, whatever the board said;
* a computer seat plays at its level's measured rating (``spite rate-levels``); it is not changed by
  the game, and a game against a level never measured is not rated.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from spite.errors import OptionsError
from spite.games import get_game
from spite.rating import (
    PROVISIONAL_SIGMA,
    Rating,
    RatingGroup,
    Z,
    level_rating,
    measured,
    model,
    newcomer,
    rating_group,
    team_ranks,
)
from spite.rating.fit import LevelRun
from spite.server import db
from spite.server.protocol import SeatRating
from spite.server.table.seats import PLAYER_ID

__all__ = ["aborts_since", "leaderboard", "people_runs", "rate_game", "rating_of", "ratings_of", "resolve_player",
           "seat_rating"]


def seat_rating(rating: Rating) -> SeatRating:
    """A rating as a rated table shows it beside the person's name (``SeatInfo.rating``)."""
    return SeatRating(rating=rating.shown, provisional=rating.provisional, games=rating.games)


# ---------------------------------------------------------------------- a game's outcome
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
    a = db.accounts  # a player an account owns is shown by its handle, unique on the server
    rows = conn.execute(sa.select(r, a.c.handle).select_from(r.outerjoin(a, a.c.player_id == r.c.player_id))
                        .where(r.c.group == group)
                        .order_by(provisional, (r.c.mu - Z * r.c.sigma).desc(), r.c.player_id)
                        .limit(limit).offset(offset)).mappings().all()
    return [{"playerId": row["player_id"], "name": row["name"], "handle": row["handle"],
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
    r = db.ratings
    if PLAYER_ID.fullmatch(player):  # an id is a player once they have a rating or a game
        known = conn.execute(sa.select(r.c.player_id).where(r.c.player_id == player).limit(1)).scalar() or \
            conn.execute(sa.select(db.game_players.c.player_id).where(db.game_players.c.player_id == player)
                         .limit(1)).scalar()
        return player if known is not None else None
    a = db.accounts
    owner = conn.execute(sa.select(a.c.player_id).where(a.c.handle == player)).scalar()
    if owner is not None:  # a handle names one player for good
        return str(owner)
    found = conn.execute(sa.select(r.c.player_id).where(r.c.name == player)
                         .order_by(r.c.updated_at.desc()).limit(1)).scalar()
    return str(found) if found is not None else None


def people_runs(url: str, game: str, group: str) -> list[LevelRun]:
    """For ``spite rate-levels --people DB_URL`` (docs/ratings.md): the rated games of ``game`` in rules
    group ``group`` that people played against the computer, from the server database at ``url``: one
    run a game, its entrants the levels (``bot:LEVEL`` seats) and the people (their player ids), scored 1
    for a win, 0 for a loss, a half each when nobody won."""
    g, gp, h = db.games, db.game_players, db.rating_history
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            if not sa.inspect(conn).has_table(h.name):
                raise OptionsError(f"{url} holds no rated games (is it a spite server's database?)")
            rated = sa.select(h.c.game_id).where(h.c.group == group, h.c.game_id.is_not(None)).distinct()
            rows = conn.execute(sa.select(g.c.id, g.c.preset, gp.c.seat, gp.c.player, gp.c.player_id, gp.c.is_bot,
                                          gp.c.won).join(gp, gp.c.game_id == g.c.id)
                                .where(g.c.game == game, g.c.id.in_(rated)).order_by(g.c.id, gp.c.seat)).all()
    except sa.exc.SQLAlchemyError as exc:
        raise OptionsError(f"cannot read the server database {url}: {exc.__class__.__name__}") from None
    finally:
        engine.dispose()
    by_game: dict[int, list[Any]] = {}
    for row in rows:
        by_game.setdefault(row.id, []).append(row)
    runs = []
    for seats in by_game.values():
        preset = seats[0].preset
        sides = rating_group(game, preset, {}, get_game(game).seats(preset, {})).sides
        if any(len(side) > 1 for side in sides) or not any(s.is_bot for s in seats):
            continue
        if not all(s.is_bot or s.player_id for s in seats):
            continue
        names = tuple(str(s.player).removeprefix("bot:") if s.is_bot else str(s.player_id) for s in seats)
        won = [bool(s.won) for s in seats]
        scores = {i: (1.0 if won[i] else 0.0) if any(won) else 0.5 for i in range(len(seats))}
        runs.append(LevelRun(game, preset, names, [(tuple(range(len(seats))), scores)]))
    return runs
