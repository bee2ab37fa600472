"""Moderation and a person's data: bans, reports, the operator's actions and their audit, exports
and deletions (docs/protocol.md, "Moderation"; docs/deploy.md).

Everything an operator does is a database change made by one function here, on a connection, with
its row in ``spite_audit`` in the same transaction (who did it, what, to whom) and a log line. The
same functions serve ``spite admin --db URL`` (straight on the database) and the operator's REST
endpoints of a live server (``/api/admin/…``, :mod:`spite.server.admin`), so both do exactly the
same.

A live server follows the audit: each process (:class:`Moderation`) reads the audit rows newer than
the last it saw, every :attr:`~spite.server.config.ServerConfig.moderation_poll` seconds and, under
PostgreSQL, at once when any process commits one (``NOTIFY spite_moderation`` in the same
transaction, which every worker ``LISTEN``s for, as the seeks do). A new or lifted ban reloads the
process's ban list (:class:`BanBook`: a set of player ids and a few address networks, with the
answer for each address kept until the list changes) and closes the sockets of whoever it keeps
out; a closed table or a new name is applied to the tables the process holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from spite.server import db
from spite.server.notify import listen
from spite.server.table.seats import PLAYER_ID, LobbyError

if TYPE_CHECKING:
    from spite.server.lobby import Lobby

__all__ = ["CHANGED", "DELETED_NAME", "BanBook", "Moderation", "ModerationError", "add_report", "audit_since",
           "ban", "clear_report", "close_table", "delete_player", "export_for_operator", "export_player", "lift",
           "list_audit", "list_bans", "list_players", "list_reports", "list_tables", "parse_target", "rename"]

log = logging.getLogger("spite.server.moderation")

CHANGED = "spite_moderation"
"""The PostgreSQL notification channel an operator action is announced on."""

DELETED_NAME = "p-deleted"
"""The name a deleted player's seats and games keep: ``p-`` is reserved (no person can take it), and it
is no player id (those are ``p-`` and 24 hex digits), so the games it stands in are nobody's."""

REPORT_KINDS = ("name", "table")


class ModerationError(LobbyError):
    """An operator's or a player's request that cannot be done (one line; HTTP status; catalogue key,
    whose last part is the answer's ``code``)."""

    def __init__(self, message: str, status: int, key: str, **params: str | int) -> None:
        super().__init__(message, status, key, **params)
        self.code = key.rsplit(".", 1)[-1]


# ====================================================================== targets
def parse_target(text: str) -> tuple[str, str]:
    """What a ban is on: ``("player", id)`` for a player id, ``("address", network)`` for an address
    or a CIDR range (a single address as its /32 or /128).

    >>> parse_target("p-0123456789abcdef01234567"), parse_target("203.0.113.0/24"), parse_target("2001:db8::1")
    (('player', 'p-0123456789abcdef01234567'), ('address', '203.0.113.0/24'), ('address', '2001:db8::1/128'))
    """
    text = text.strip()
    if PLAYER_ID.fullmatch(text):
        return "player", text
    try:
        return "address", str(ipaddress.ip_network(text, strict=False))
    except ValueError:
        raise ModerationError(f"{text!r} is neither a player id (p- and 24 hex digits) nor an address or range "
                              "(203.0.113.7, 203.0.113.0/24, 2001:db8::/48)", 400, "admin.bad-target",
                              target=text[:80]) from None


# ====================================================================== the audit
def _audit(conn: Connection, who: str, action: str, target: str | None, **detail: Any) -> int:
    """One operator action, kept with who did it; announced to every worker when it commits."""
    result = conn.execute(sa.insert(db.audit).values(at=time.time(), who=who[:128], action=action,
                                                     target=target[:128] if target else None,
                                                     detail=json.dumps(detail, ensure_ascii=False)))
    if conn.dialect.name == "postgresql":
        conn.execute(sa.select(sa.func.pg_notify(CHANGED, action)))
    log.info("operator %s: %s %s %s", who, action, target or "", json.dumps(detail, ensure_ascii=False),
             extra={"operator": who, "action": action, "target": target})
    key = result.inserted_primary_key
    return int(key[0]) if key is not None else 0


def audit_since(conn: Connection, after: int) -> list[dict[str, Any]]:
    """The audit rows newer than ``after`` (by id), oldest first."""
    a = db.audit
    return [{**dict(r), "detail": json.loads(r["detail"] or "{}")}
            for r in conn.execute(sa.select(a).where(a.c.id > after).order_by(a.c.id).limit(1000)).mappings()]


def last_audit(conn: Connection) -> int:
    return int(conn.execute(sa.select(sa.func.max(db.audit.c.id))).scalar() or 0)


def list_audit(conn: Connection, limit: int = 100) -> list[dict[str, Any]]:
    """The newest operator actions, newest first."""
    a = db.audit
    return [{"id": r["id"], "at": r["at"], "who": r["who"], "action": r["action"], "target": r["target"],
             "detail": json.loads(r["detail"] or "{}")}
            for r in conn.execute(sa.select(a).order_by(a.c.id.desc()).limit(limit)).mappings()]


# ====================================================================== bans
def ban(conn: Connection, who: str, target: str, reason: str = "") -> dict[str, Any]:
    """Keep a player id or an address range out (at once, on every worker)."""
    kind, value = parse_target(target)
    b = db.bans
    existing = conn.execute(sa.select(b.c.id).where(b.c.kind == kind, b.c.value == value, b.c.lifted_at.is_(None))
                            ).scalar()
    if existing is not None:
        raise ModerationError(f"{value} is banned already (ban {existing})", 409, "admin.banned-already",
                              target=value, ban=int(existing))
    now = time.time()
    key = conn.execute(sa.insert(b).values(kind=kind, value=value, reason=reason[:200], created_at=now,
                                           created_by=who[:128])).inserted_primary_key
    assert key is not None
    ban_id = int(key[0])
    _audit(conn, who, "ban", value, ban=ban_id, kind=kind, reason=reason[:200])
    return {"id": ban_id, "kind": kind, "value": value, "reason": reason[:200], "createdAt": now, "createdBy": who}


def lift(conn: Connection, who: str, ban_id: int) -> dict[str, Any]:
    """Lift a ban (by its id)."""
    b = db.bans
    row = conn.execute(sa.select(b).where(b.c.id == ban_id)).mappings().first()
    if row is None or row["lifted_at"] is not None:
        raise ModerationError(f"there is no ban {ban_id} in force", 404, "admin.no-ban", ban=ban_id)
    conn.execute(sa.update(b).where(b.c.id == ban_id).values(lifted_at=time.time(), lifted_by=who[:128]))
    _audit(conn, who, "lift", row["value"], ban=ban_id)
    return {"id": ban_id, "kind": row["kind"], "value": row["value"], "lifted": True}


def list_bans(conn: Connection) -> list[dict[str, Any]]:
    """The bans in force, oldest first."""
    b = db.bans
    return [{"id": r["id"], "kind": r["kind"], "value": r["value"], "reason": r["reason"],
             "createdAt": r["created_at"], "createdBy": r["created_by"]}
            for r in conn.execute(sa.select(b).where(b.c.lifted_at.is_(None)).order_by(b.c.id)).mappings()]


class BanBook:
    """The bans in force in this process: player ids, and address networks with each address's answer
    kept until the bans change (a check is then one dict look-up)."""

    MAX_CACHED = 100_000

    def __init__(self) -> None:
        self.players: frozenset[str] = frozenset()
        self.networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
        self._answers: dict[str, bool] = {}

    def load(self, rows: Iterable[dict[str, Any]]) -> None:
        rows = list(rows)
        self.players = frozenset(r["value"] for r in rows if r["kind"] == "player")
        self.networks = tuple(ipaddress.ip_network(r["value"], strict=False) for r in rows if r["kind"] == "address")
        self._answers = {}

    def address(self, address: str | None) -> bool:
        """Whether ``address`` (a client's IP address as the server sees it) is in a banned range."""
        if not self.networks or not address:
            return False
        known = self._answers.get(address)
        if known is not None:
            return known
        try:
            ip = ipaddress.ip_address(address.split("%", 1)[0])
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        found = any(ip in net for net in self.networks)
        if len(self._answers) >= self.MAX_CACHED:
            self._answers.clear()
        self._answers[address] = found
        return found

    def player(self, player_id: str | None) -> bool:
        """Whether ``player_id`` is banned."""
        return player_id is not None and player_id in self.players


# ====================================================================== tables and players
def list_tables(conn: Connection, status: str = "playing", limit: int = 200) -> list[dict[str, Any]]:
    """The tables of ``status`` (``open``, ``playing``), oldest first, with their seats' names and ids."""
    t, s = db.tables, db.seats
    rows = conn.execute(sa.select(t.c.id, t.c.game, t.c.preset, t.c.status, t.c.plies, t.c.created_at, t.c.rated,
                                  t.c.owner).where(t.c.status == status).order_by(t.c.created_at)
                        .limit(limit)).mappings().all()
    ids = [r["id"] for r in rows]
    seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
    if ids:
        for r in conn.execute(sa.select(s.c.table_id, s.c.seat, s.c.kind, s.c.level, s.c.player, s.c.player_id,
                                        s.c.controller).where(s.c.table_id.in_(ids))
                              .order_by(s.c.table_id, s.c.seat)).mappings():
            seats[r["table_id"]].append({"seat": r["seat"], "kind": r["kind"], "level": r["level"],
                                         "player": r["player"], "playerId": r["player_id"],
                                         "controller": r["controller"]})
    return [{"id": r["id"], "game": r["game"], "preset": r["preset"], "status": r["status"], "plies": r["plies"],
             "createdAt": r["created_at"], "rated": bool(r["rated"]), "worker": r["owner"], "seats": seats[r["id"]]}
            for r in rows]


def list_players(conn: Connection, name: str | None = None, limit: int = 200) -> list[dict[str, Any]]:
    """Keyed players (by player id): the name they were last seen under, their finished games and when
    they last played; with ``name``, those whose name holds it. Newest first."""
    gp, g, s, t = db.game_players, db.games, db.seats, db.tables
    games = (sa.select(gp.c.player_id, sa.func.count().label("games"), sa.func.max(g.c.finished_at).label("last"))
             .select_from(gp.join(g, g.c.id == gp.c.game_id)).where(gp.c.player_id.is_not(None))
             .group_by(gp.c.player_id)).subquery()
    seated = (sa.select(s.c.player_id, sa.func.max(t.c.updated_at).label("last"))
              .select_from(s.join(t, t.c.id == s.c.table_id)).where(s.c.player_id.is_not(None))
              .group_by(s.c.player_id)).subquery()
    found: dict[str, dict[str, Any]] = {}
    for r in conn.execute(sa.select(games)).mappings():
        found[r["player_id"]] = {"playerId": r["player_id"], "games": int(r["games"]), "last": r["last"]}
    for r in conn.execute(sa.select(seated)).mappings():
        entry = found.setdefault(r["player_id"], {"playerId": r["player_id"], "games": 0, "last": r["last"]})
        entry["last"] = max(entry["last"] or 0, r["last"] or 0)
    names = _names(conn, list(found))
    out = []
    for pid, entry in found.items():
        entry["name"] = names.get(pid)
        if name is None or (entry["name"] and name.casefold() in entry["name"].casefold()):
            out.append(entry)
    out.sort(key=lambda e: -(e["last"] or 0))
    return out[:limit]


def _names(conn: Connection, ids: Sequence[str]) -> dict[str, str]:
    """Each player id's newest name (its newest seat's)."""
    s, t = db.seats, db.tables
    out: dict[str, str] = {}
    for chunk in (ids[i:i + 500] for i in range(0, len(ids), 500)):
        for r in conn.execute(sa.select(s.c.player_id, s.c.player).select_from(s.join(t, t.c.id == s.c.table_id))
                              .where(s.c.player_id.in_(chunk), s.c.player.is_not(None))
                              .order_by(t.c.updated_at)).mappings():
            out[r["player_id"]] = r["player"]
    return out


def close_table(conn: Connection, who: str, table_id: str) -> dict[str, Any]:
    """Close an open or playing table: it is ``abandoned`` (no record, no statistics, nobody's rating
    moves); the worker that holds it closes it at once, telling everyone at it."""
    t = db.tables
    row = conn.execute(sa.select(t.c.status).where(t.c.id == table_id)).first()
    if row is None:
        raise ModerationError(f"there is no table {table_id}", 404, "lobby.no-table", table=table_id)
    if row.status not in ("open", "playing"):
        raise ModerationError(f"table {table_id} is {row.status} already", 409, "admin.table-closed",
                              table=table_id)
    conn.execute(sa.update(t).where(t.c.id == table_id).values(status="abandoned", updated_at=time.time()))
    _audit(conn, who, "close", table_id, was=row.status)
    return {"table": table_id, "status": "abandoned"}


def _seat_filter(target: str) -> tuple[str | None, str | None]:
    """A rename's target: ``(player id, None)`` or ``(None, name)``."""
    return (target, None) if PLAYER_ID.fullmatch(target) else (None, target)


def rename(conn: Connection, who: str, target: str, new: str) -> dict[str, Any]:
    """Give a player id (or everyone shown under a name) a new name: on the leaderboard, at live tables
    (the worker holding each tells it at once), in their games' statistics and waiting seeks."""
    from spite.server.protocol import clean_name

    try:
        new = clean_name(new)[:40]
    except Exception as exc:
        raise ModerationError(f"the new name: {exc}", 400, "admin.bad-name") from None
    pid, name = _seat_filter(target)
    s, gp, r, k = db.seats, db.game_players, db.ratings, db.seeks
    changed = 0
    for table, column, id_column in ((s, s.c.player, s.c.player_id), (gp, gp.c.player, gp.c.player_id),
                                     (r, r.c.name, r.c.player_id), (k, k.c.name, k.c.player_id)):
        where = id_column == pid if pid is not None else column == name
        changed += conn.execute(sa.update(table).where(where).values({column.name: new})).rowcount or 0
    if not changed:
        raise ModerationError(f"nobody is called {target} or has that player id", 404, "admin.no-player",
                              player=target[:80])
    _audit(conn, who, "rename", target, name=new, rows=changed)
    return {"target": target, "name": new, "rows": changed}


# ====================================================================== reports
def add_report(conn: Connection, kind: str, *, table_id: str | None, seat: int | None, name: str | None,
               reason: str, reporter: str | None, reporter_id: str | None) -> dict[str, Any]:
    """A player reports a name or a table: it waits in the operator's queue. A name is given by the
    table and seat it is shown at (or as the name itself, from a leaderboard)."""
    if kind not in REPORT_KINDS:
        raise ModerationError(f"a report is of a name or a table, not {kind!r}", 400, "report.bad-kind")
    player_id = None
    if table_id is not None:
        t, s = db.tables, db.seats
        if conn.execute(sa.select(t.c.id).where(t.c.id == table_id)).first() is None:
            raise ModerationError(f"there is no table {table_id}", 404, "lobby.no-table", table=table_id)
        if kind == "name":
            if seat is None:
                raise ModerationError("a name is reported by its table and seat", 400, "report.no-seat")
            row = conn.execute(sa.select(s.c.player, s.c.player_id, s.c.kind).where(
                s.c.table_id == table_id, s.c.seat == seat)).first()
            if row is None or row.kind != "person" or not row.player:
                raise ModerationError(f"seat {seat} of table {table_id} shows no person's name", 404,
                                      "report.no-name", table=table_id, seat=seat)
            name, player_id = row.player, row.player_id
    elif kind == "table" or not name:
        raise ModerationError("a report names a table (and a seat for a name) or a name", 400, "report.no-target")
    key = conn.execute(sa.insert(db.reports).values(
        at=time.time(), kind=kind, table_id=table_id, seat=seat, name=name, player_id=player_id,
        reason=reason[:200], reporter=reporter, reporter_id=reporter_id, status="open")).inserted_primary_key
    assert key is not None
    log.info("report %s: a %s (%s) reported", key[0], kind, table_id or name)
    return {"id": int(key[0]), "status": "open"}


def list_reports(conn: Connection, everything: bool = False, limit: int = 200) -> list[dict[str, Any]]:
    """The reports waiting (``everything``: cleared ones too), oldest first."""
    rp = db.reports
    q = sa.select(rp).order_by(rp.c.id).limit(limit)
    if not everything:
        q = q.where(rp.c.status == "open")
    return [{"id": r["id"], "at": r["at"], "kind": r["kind"], "table": r["table_id"], "seat": r["seat"],
             "name": r["name"], "playerId": r["player_id"], "reason": r["reason"], "status": r["status"],
             "reporterId": r["reporter_id"], "clearedBy": r["cleared_by"]}
            for r in conn.execute(q).mappings()]


def clear_report(conn: Connection, who: str, report_id: int) -> dict[str, Any]:
    """Take a report off the queue (dealt with, or nothing to do)."""
    rp = db.reports
    row = conn.execute(sa.select(rp.c.status).where(rp.c.id == report_id)).first()
    if row is None or row.status != "open":
        raise ModerationError(f"there is no open report {report_id}", 404, "admin.no-report", report=report_id)
    conn.execute(sa.update(rp).where(rp.c.id == report_id).values(status="cleared", cleared_at=time.time(),
                                                                  cleared_by=who[:128]))
    _audit(conn, who, "clear", str(report_id))
    return {"id": report_id, "status": "cleared"}


# ====================================================================== a person's data
def export_player(conn: Connection, player_id: str) -> dict[str, Any]:
    """Everything stored about a player id, as JSON: their seats (with the hash of the address they sat
    down from), finished games (with each game's record), ratings and their history, seeks, aborted
    rated games, reports they made and reports and bans about them, operator actions on them. Not in
    it: the hashes of their seat tokens (a hash of a secret only they hold) and who reported them."""
    s, t, gp, g = db.seats, db.tables, db.game_players, db.games
    seats = [{"table": r["table_id"], "seat": r["seat"], "name": r["player"], "addressHash": r["address"],
              "tableStatus": r["status"], "game": r["game"], "preset": r["preset"], "createdAt": r["created_at"]}
             for r in conn.execute(sa.select(s.c.table_id, s.c.seat, s.c.player, s.c.address, t.c.status, t.c.game,
                                             t.c.preset, t.c.created_at)
                                   .select_from(s.join(t, t.c.id == s.c.table_id))
                                   .where(s.c.player_id == player_id).order_by(t.c.created_at)).mappings()]
    games = [{"id": r["id"], "table": r["table_id"], "game": r["game"], "preset": r["preset"], "seat": r["seat"],
              "name": r["player"], "won": bool(r["won"]), "points": r["points"], "takenOver": bool(r["taken_over"]),
              "left": bool(r["left"]), "finishedAt": r["finished_at"], "result": json.loads(r["result"]),
              "record": json.loads(r["record"])}
             for r in conn.execute(sa.select(g.c.id, g.c.table_id, g.c.game, g.c.preset, g.c.finished_at,
                                             g.c.result, g.c.record, gp.c.seat, gp.c.player, gp.c.won, gp.c.points,
                                             gp.c.taken_over, gp.c.left)
                                   .select_from(gp.join(g, g.c.id == gp.c.game_id))
                                   .where(gp.c.player_id == player_id).order_by(g.c.id)).mappings()]
    r, h = db.ratings, db.rating_history
    ratings = [{"group": x["group"], "name": x["name"], "mu": x["mu"], "sigma": x["sigma"], "games": x["games"],
                "updatedAt": x["updated_at"]}
               for x in conn.execute(sa.select(r).where(r.c.player_id == player_id).order_by(r.c.group)).mappings()]
    history = [{"group": x["group"], "game": x["game_id"], "mu": x["mu"], "sigma": x["sigma"], "rating": x["rating"],
                "at": x["at"]}
               for x in conn.execute(sa.select(h).where(h.c.player_id == player_id).order_by(h.c.id)).mappings()]
    k = db.seeks
    seeks = [{"id": x["id"], "name": x["name"], "game": x["game"], "preset": x["preset"], "rated": x["rated"],
              "status": x["status"], "table": x["table_id"], "createdAt": x["created_at"],
              "addressHash": x["creator"]}
             for x in conn.execute(sa.select(k).where(k.c.player_id == player_id).order_by(k.c.created_at)).mappings()]
    a = db.aborts
    aborts = [{"table": x["table_id"], "at": x["at"]}
              for x in conn.execute(sa.select(a).where(a.c.player_id == player_id).order_by(a.c.at)).mappings()]
    rp = db.reports
    made = [{"id": x["id"], "at": x["at"], "kind": x["kind"], "table": x["table_id"], "name": x["name"],
             "reason": x["reason"], "status": x["status"]}
            for x in conn.execute(sa.select(rp).where(rp.c.reporter_id == player_id).order_by(rp.c.id)).mappings()]
    about = [{"id": x["id"], "at": x["at"], "kind": x["kind"], "table": x["table_id"], "name": x["name"],
              "reason": x["reason"], "status": x["status"]}
             for x in conn.execute(sa.select(rp).where(rp.c.player_id == player_id).order_by(rp.c.id)).mappings()]
    b = db.bans
    bans = [{"id": x["id"], "reason": x["reason"], "createdAt": x["created_at"], "liftedAt": x["lifted_at"]}
            for x in conn.execute(sa.select(b).where(b.c.kind == "player", b.c.value == player_id)
                                  .order_by(b.c.id)).mappings()]
    au = db.audit
    actions = [{"at": x["at"], "action": x["action"], "detail": json.loads(x["detail"] or "{}")}
               for x in conn.execute(sa.select(au).where(au.c.target == player_id).order_by(au.c.id)).mappings()]
    return {"format": "spite-player-export/1", "playerId": player_id, "exportedAt": time.time(), "seats": seats,
            "games": games, "ratings": ratings, "ratingHistory": history, "seeks": seeks, "abortedRatedGames": aborts,
            "reportsMade": made, "reportsAbout": about, "bans": bans, "operatorActions": actions}


def export_for_operator(conn: Connection, who: str, player_id: str) -> dict[str, Any]:
    """:func:`export_player` for the operator: a look at a person's data is an action of the audit too."""
    found = export_player(conn, player_id)
    _audit(conn, who, "export", player_id, games=len(found["games"]), seats=len(found["seats"]))
    return found


def delete_player(conn: Connection, who: str, player_id: str) -> dict[str, Any]:
    """Delete a player id: their ratings and rating history, seeks and aborts are deleted; their seats
    and finished games stay for the others, anonymised (name :data:`DELETED_NAME`, no player id, no
    address hash), so every other player's games, statistics and replays are whole; the reports they
    made no longer name them. Their ratings leave the leaderboard at once."""
    s, gp = db.seats, db.game_players
    counts = {
        "seats": conn.execute(sa.update(s).where(s.c.player_id == player_id)
                              .values(player=DELETED_NAME, player_id=None, address=None)).rowcount or 0,
        "games": conn.execute(sa.update(gp).where(gp.c.player_id == player_id)
                              .values(player=DELETED_NAME, player_id=None)).rowcount or 0,
        "ratings": conn.execute(sa.delete(db.ratings).where(db.ratings.c.player_id == player_id)).rowcount or 0,
    }
    conn.execute(sa.delete(db.rating_history).where(db.rating_history.c.player_id == player_id))
    conn.execute(sa.delete(db.seeks).where(db.seeks.c.player_id == player_id))
    conn.execute(sa.delete(db.aborts).where(db.aborts.c.player_id == player_id))
    conn.execute(sa.update(db.reports).where(db.reports.c.reporter_id == player_id).values(reporter_id=None))
    conn.execute(sa.update(db.reports).where(db.reports.c.player_id == player_id)
                 .values(player_id=None, name=DELETED_NAME))
    if not any(counts.values()):
        raise ModerationError(f"nothing is stored about {player_id}", 404, "admin.no-player", player=player_id)
    _audit(conn, who, "delete", player_id, **counts)
    return {"playerId": player_id, "deleted": True, **counts}


# ====================================================================== a live server's part
@dataclass
class Applied:
    """What one process did about the audit rows it read (for tests and the log)."""

    bans: int = 0
    closed: int = 0
    renamed: int = 0


class Moderation:
    """One server process's side of moderation: its ban list, kept in step with the database, and the
    operator's actions applied to the tables it holds (see the module's text)."""

    def __init__(self, engine: Engine, lobby: Lobby, poll: float = 2.0) -> None:
        self.engine = engine
        self.lobby = lobby
        self.poll = poll
        self.bans = BanBook()
        self.seen = 0
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        def read(conn: Connection) -> tuple[int, list[dict[str, Any]]]:
            return last_audit(conn), list_bans(conn)

        self.seen, rows = await asyncio.to_thread(self._read, read)
        self.bans.load(rows)
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._run(), name="spite-moderation"))
        if self.engine.dialect.name == "postgresql":
            self._tasks.append(loop.create_task(listen(self.engine, CHANGED, self.wake, poll=self.poll,
                                                           what="the operator's actions"),
                                                    name="spite-moderation-listen"))

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _read(self, fn: Callable[[Connection], Any]) -> Any:
        with self.engine.connect() as conn:
            return fn(conn)

    def wake(self) -> None:
        """Look at the audit now (an action was just taken here, or announced)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll)
            self._wake.clear()
            try:
                await self.follow()
            except Exception as exc:  # the next round tries again
                log.warning("reading the operator's actions failed: %s", exc)

    async def follow(self) -> Applied:
        """Apply the audit rows this process has not seen yet."""
        async with self._lock:
            rows = await asyncio.to_thread(self._read, lambda c: audit_since(c, self.seen))
            done = Applied()
            if not rows:
                return done
            self.seen = rows[-1]["id"]
            if any(r["action"] in ("ban", "lift") for r in rows):
                self.bans.load(await asyncio.to_thread(self._read, list_bans))
                done.bans = await self._keep_out()
            for row in rows:
                if row["action"] == "close":
                    done.closed += await self._close(str(row["target"]))
                elif row["action"] == "rename":
                    done.renamed += await self._rename(str(row["target"]), str(row["detail"].get("name")))
                elif row["action"] == "delete":
                    done.renamed += await self._rename(str(row["target"]), DELETED_NAME, forget=True)
            return done

    async def _keep_out(self) -> int:
        """Close the sockets of banned players and addresses at this process's tables."""
        from spite.errors import Phrase

        closed = 0
        for table in list(self.lobby.tables.values()):
            by_conn = {c: s for s in table.seats for c in s.conns}
            for conn in table.connections():
                seat = by_conn.get(conn.conn_id)
                if self.bans.address(conn.ip) or (seat is not None and self.bans.player(seat.player_id)):
                    conn.error("banned", "you may not play on this server", phrase=Phrase("error.banned"))
                    conn.close(1008)
                    closed += 1
        return closed

    async def _close(self, table_id: str) -> int:
        from spite.server.table.effects import Shut

        table = self.lobby.tables.get(table_id)
        if table is None or table.status not in ("open", "playing"):
            return 0
        await table.submit(Shut())
        return 1

    async def _rename(self, target: str, name: str, forget: bool = False) -> int:
        from spite.server.table.effects import Rename

        pid, old = _seat_filter(target)
        renamed = 0
        for table in list(self.lobby.tables.values()):
            if table.status not in ("open", "playing"):
                continue
            for seat in list(table.seats):
                if (pid is not None and seat.player_id == pid) or (old is not None and seat.player == old
                                                                   and seat.kind == "person"):
                    await table.submit(Rename(seat.seat, name, forget))
                    renamed += 1
        return renamed
