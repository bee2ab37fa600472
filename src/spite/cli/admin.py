"""``spite admin`` (moderation, a person's data), ``spite backup`` and ``spite restore``.

``spite admin`` works on the database itself (``--db URL``) or on a live server (``--server URL``
with the operator's token, ``SPITE_OPERATOR_TOKEN``): the same actions either way, each kept in the
audit with who did it (docs/deploy.md, "Moderation"). Exit codes: 0 done; 1 refused as things stand
(no such table, ban or report; banned already), nothing changed; 2 a malformed request or one that
could not be made (a bad target, no database, the server unreachable, a wrong token).
"""

from __future__ import annotations

import getpass
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from spite.cli.common import EXIT_ILLEGAL, EXIT_MALFORMED, fail, needs_extra, require_extra

__all__ = ["register"]

admin_app = typer.Typer(
    help="Moderate a server: tables, players, names, bans, reports, a person's data.\n\n(docs/deploy.md) Against "
         "the database (--db URL) or a live server (--server URL and the operator's token in "
         "SPITE_OPERATOR_TOKEN). Every action is kept in the audit with who did it. Exit codes: 0 done; 1 refused "
         "as things stand (nothing changed); 2 a malformed request or one that could not be made.",
    no_args_is_help=True)


class _Refused(Exception):
    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _exit_for(status: int) -> int:
    """A refusal's exit code from its HTTP status: what cannot be done as things stand is 1, a request
    that is wrong in itself 2."""
    return EXIT_ILLEGAL if status in (403, 404, 409) else EXIT_MALFORMED


class _Database:
    """The actions on the database itself (the server, if one runs on it, follows the audit)."""

    def __init__(self, url: str, who: str) -> None:
        require_extra("server", "moderate")
        from spite.server import db
        from spite.server.config import ServerConfig
        from spite.server.run import CannotServe, check_database

        if url.startswith("sqlite:///") and not Path(url.removeprefix("sqlite:///")).exists():
            raise _Refused(f"there is no database at {url.removeprefix('sqlite:///')}", EXIT_MALFORMED)
        try:
            with needs_extra("postgres", "moderate a PostgreSQL database"):
                check_database(ServerConfig(db_url=url))
        except CannotServe as exc:
            raise _Refused(str(exc), EXIT_MALFORMED) from None
        self.engine = db.make_engine(url)
        db.migrate(self.engine)  # as `spite serve` does: the newest schema
        self.who = f"{who} (database)"

    def call(self, action: str, **kw: Any) -> Any:
        from spite.server import moderation as m

        writes: dict[str, Callable[[Any], Any]] = {"close": lambda c: m.close_table(c, self.who, kw["table"]),
                  "rename": lambda c: m.rename(c, self.who, kw["target"], kw["name"]),
                  "ban": lambda c: m.ban(c, self.who, kw["target"], kw["reason"]),
                  "lift": lambda c: m.lift(c, self.who, kw["ban"]),
                  "clear": lambda c: m.clear_report(c, self.who, kw["report"]),
                  "delete": lambda c: m.delete_player(c, self.who, kw["player"]),
                  "export": lambda c: m.export_for_operator(c, self.who, kw["player"])}
        reads: dict[str, Callable[[Any], Any]] = {"tables": lambda c: m.list_tables(c, kw["status"]),
                 "players": lambda c: m.list_players(c, kw.get("name")),
                 "bans": m.list_bans,
                 "reports": lambda c: m.list_reports(c, kw["everything"]),
                 "audit": lambda c: m.list_audit(c)}
        try:
            if action in writes:
                with self.engine.begin() as conn:
                    return writes[action](conn)
            with self.engine.connect() as conn:
                return reads[action](conn)
        except m.ModerationError as exc:
            raise _Refused(str(exc), _exit_for(exc.status)) from None
        finally:
            self.engine.dispose()


class _Server:
    """The same actions on a live server's operator endpoints (``/api/admin/…``)."""

    def __init__(self, url: str, token: str | None, who: str) -> None:
        if not token:
            raise _Refused("--server needs the operator's token: set SPITE_OPERATOR_TOKEN (or --operator-token)",
                           EXIT_MALFORMED)
        self.base = url.rstrip("/")
        self.token = token
        self.who = who

    def call(self, action: str, **kw: Any) -> Any:
        q = urllib.parse.quote
        routes: dict[str, tuple[str, str, dict[str, Any] | None]] = {
            "tables": ("GET", f"/api/admin/tables?status={q(kw.get('status', ''))}", None),
            "players": ("GET", "/api/admin/players" + (f"?name={q(kw['name'])}" if kw.get("name") else ""), None),
            "close": ("POST", f"/api/admin/tables/{q(kw.get('table', ''))}/close", None),
            "rename": ("POST", "/api/admin/rename", {"target": kw.get("target"), "name": kw.get("name")}),
            "bans": ("GET", "/api/admin/bans", None),
            "ban": ("POST", "/api/admin/bans", {"target": kw.get("target"), "reason": kw.get("reason", "")}),
            "lift": ("DELETE", f"/api/admin/bans/{kw.get('ban')}", None),
            "reports": ("GET", "/api/admin/reports" + ("?all=true" if kw.get("everything") else ""), None),
            "clear": ("POST", f"/api/admin/reports/{kw.get('report')}/clear", None),
            "audit": ("GET", "/api/admin/audit", None),
            "export": ("GET", f"/api/admin/players/{q(kw.get('player', ''))}/export", None),
            "delete": ("DELETE", f"/api/admin/players/{q(kw.get('player', ''))}", None),
        }
        method, path, body = routes[action]
        request = urllib.request.Request(
            self.base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
            headers={"Authorization": f"Bearer {self.token}", "X-Spite-Operator": self.who,
                     "Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as exc:
            try:
                detail = json.loads(exc.read()).get("detail", exc.reason)
            except (ValueError, AttributeError):
                detail = exc.reason
            raise _Refused(f"the server refused: {detail}", _exit_for(exc.code)) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise _Refused(f"cannot reach {self.base}: {reason}", EXIT_MALFORMED) from None


def _backend(ctx: typer.Context) -> _Database | _Server:
    obj = ctx.obj or {}
    try:
        if obj.get("server"):
            return _Server(obj["server"], obj.get("token"), obj["who"])
        if obj.get("db"):
            return _Database(obj["db"], obj["who"])
    except _Refused as exc:
        fail(str(exc), exc.code)
    fail("spite admin needs --db URL (the database) or --server URL (a live server)", EXIT_MALFORMED)


def _run(ctx: typer.Context, action: str, show: Any = None, **kw: Any) -> None:
    backend = _backend(ctx)
    try:
        answer = backend.call(action, **kw)
    except _Refused as exc:
        fail(str(exc), exc.code)
    if (ctx.obj or {}).get("json") or show is None:
        typer.echo(json.dumps(answer, ensure_ascii=False, indent=None if isinstance(answer, list) else 1))
        return
    for line in show(answer):
        typer.echo(line)


def _when(at: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(at)) if at else "-"


@admin_app.callback()
def _admin(
    ctx: typer.Context,
    db: Annotated[str | None, typer.Option("--db", help="The server's database URL (sqlite:///FILE or "
                                           "postgresql://USER@HOST/DB).")] = None,
    server: Annotated[str | None, typer.Option("--server", help="A live server's address (https://club.example "
                                               "or http://127.0.0.1:8000).")] = None,
    operator_token: Annotated[str | None, typer.Option(
        "--operator-token", envvar="SPITE_OPERATOR_TOKEN", show_envvar=True,
        help="The operator's token of the server (--server); better given in the environment.")] = None,
    who: Annotated[str | None, typer.Option("--as", help="Who is acting, for the audit (default: your login name "
                                            "and this machine).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the answer as JSON.")] = False,
) -> None:
    if db and server:
        fail("spite admin takes --db or --server, not both", EXIT_MALFORMED)
    try:
        login = getpass.getuser()
    except Exception:
        login = "operator"
    ctx.obj = {"db": db, "server": server, "token": operator_token, "json": as_json,
               "who": who or f"{login}@{socket.gethostname()}"}


@admin_app.command("tables")
def tables(ctx: typer.Context, status: Annotated[str, typer.Option(help="playing or open.")] = "playing") -> None:
    """List the playing (or open) tables with their players."""
    if status not in ("playing", "open"):
        fail(f"--status is playing or open, not {status!r}", EXIT_MALFORMED)

    def show(rows: list[dict[str, Any]]) -> list[str]:
        return [f"{r['id']}  {r['game']}:{r['preset']}  {r['status']}  {r['plies']} moves  " + ", ".join(
            f"{s['seat'] + 1}:{s['player'] or (('bot:' + s['level']) if s['kind'] == 'bot' else 'free')}"
            + (f" ({s['playerId']})" if s.get("playerId") else "") for s in r["seats"]) for r in rows] \
            or [f"no {status} tables"]

    _run(ctx, "tables", show, status=status)


@admin_app.command("players")
def players(ctx: typer.Context, name: Annotated[str | None, typer.Option(help="Only names holding this.")] = None
            ) -> None:
    """List the players with a player key: id, name, games, last played."""
    def show(rows: list[dict[str, Any]]) -> list[str]:
        return [f"{r['playerId']}  {r['name'] or '-'}  {r['games']} games  last {_when(r['last'])}" for r in rows] \
            or ["no players"]

    _run(ctx, "players", show, name=name)


@admin_app.command("close")
def close(ctx: typer.Context, table: Annotated[str, typer.Argument(help="The table's id.")]) -> None:
    """Close a table now: it is abandoned, its players are told; no record, no rating."""
    _run(ctx, "close", lambda a: [f"table {a['table']} closed"], table=table)


@admin_app.command("rename")
def rename(ctx: typer.Context, target: Annotated[str, typer.Argument(help="A player id, or the name to change.")],
           name: Annotated[str, typer.Argument(help="The new name.")]) -> None:
    """Give a player (or everyone shown under a name) a new name: leaderboard, live tables, statistics."""
    _run(ctx, "rename", lambda a: [f"{a['target']} is called {a['name']} now ({a['rows']} rows)"],
         target=target, name=name)


@admin_app.command("ban")
def ban(ctx: typer.Context,
        target: Annotated[str, typer.Argument(help="A player id (p-…), an address or a range (CIDR).")],
        reason: Annotated[str, typer.Option(help="Why (kept with the ban).")] = "") -> None:
    """Keep a player id or an address range out: refused at once by every worker, their sockets closed."""
    _run(ctx, "ban", lambda a: [f"ban {a['id']}: {a['value']} is kept out"], target=target, reason=reason)


@admin_app.command("bans")
def bans(ctx: typer.Context) -> None:
    """List the bans in force."""
    _run(ctx, "bans", lambda rows: [f"{r['id']}  {r['value']}  since {_when(r['createdAt'])} by {r['createdBy']}"
                                    + (f"  ({r['reason']})" if r["reason"] else "") for r in rows] or ["no bans"])


@admin_app.command("lift")
def lift(ctx: typer.Context, ban_id: Annotated[int, typer.Argument(help="The ban's number (spite admin bans).")]
         ) -> None:
    """Lift a ban."""
    _run(ctx, "lift", lambda a: [f"ban {a['id']} lifted: {a['value']} may play again"], ban=ban_id)


@admin_app.command("reports")
def reports(ctx: typer.Context, everything: Annotated[bool, typer.Option("--all", help="Cleared ones too.")] = False
            ) -> None:
    """List the reports players sent (names, tables) that wait for you."""
    def show(rows: list[dict[str, Any]]) -> list[str]:
        return [f"{r['id']}  {_when(r['at'])}  {r['kind']}  "
                + (f"table {r['table']}" if r["table"] else "") + (f" name {r['name']}" if r["name"] else "")
                + (f" ({r['playerId']})" if r["playerId"] else "") + (f": {r['reason']}" if r["reason"] else "")
                + ("" if r["status"] == "open" else f"  [cleared by {r['clearedBy']}]") for r in rows] \
            or ["no reports waiting"]

    _run(ctx, "reports", show, everything=everything)


@admin_app.command("clear")
def clear(ctx: typer.Context, report: Annotated[int, typer.Argument(help="The report's number.")]) -> None:
    """Take a report off the queue."""
    _run(ctx, "clear", lambda a: [f"report {a['id']} cleared"], report=report)


@admin_app.command("audit")
def audit(ctx: typer.Context) -> None:
    """The newest operator actions, who took them and when."""
    _run(ctx, "audit", lambda rows: [f"{_when(r['at'])}  {r['who']}  {r['action']} {r['target'] or ''}  "
                                     f"{json.dumps(r['detail'], ensure_ascii=False)}" for r in rows] or ["no actions"])


@admin_app.command("export")
def export(ctx: typer.Context, player: Annotated[str, typer.Argument(help="The player id (p-…).")],
           out: Annotated[Path | None, typer.Option("-o", "--out", help="Write it here (default: print).")] = None
           ) -> None:
    """Everything stored about a player, as JSON."""
    backend = _backend(ctx)
    try:
        found = backend.call("export", player=player)
    except _Refused as exc:
        fail(str(exc), exc.code)
    text = json.dumps(found, ensure_ascii=False, indent=1) + "\n"
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}", EXIT_MALFORMED)
    typer.echo(f"{player}: {len(found['games'])} games, {len(found['seats'])} seats written to {out}", err=True)


@admin_app.command("delete-player")
def delete_player(ctx: typer.Context, player: Annotated[str, typer.Argument(help="The player id (p-…).")],
                  yes: Annotated[bool, typer.Option("--yes", help="Really: this cannot be undone.")] = False) -> None:
    """Delete a player: their ratings leave the leaderboard; their games stay for the others, anonymised."""
    if not yes:
        fail(f"deleting {player} cannot be undone: add --yes", EXIT_MALFORMED)
    _run(ctx, "delete", lambda a: [f"{a['playerId']} deleted: {a['games']} games and {a['seats']} seats "
                                   f"anonymised, {a['ratings']} ratings gone"], player=player)


def backup(
    out: Annotated[Path, typer.Argument(help="The backup file to write (SQLite: a database file; PostgreSQL: "
                                        "pg_dump's custom format).")],
    db: Annotated[str, typer.Option("--db", help="The server's database URL.")],
    force: Annotated[bool, typer.Option("--force", help="Overwrite an existing file.")] = False,
) -> None:
    """Back up the server's database while it serves.

    SQLite's online backup API, or pg_dump for PostgreSQL. The backup holds every move acknowledged
    before it began (a move is acknowledged only once committed); a table restored from it goes on
    from its last acknowledged move.
    """
    require_extra("server", "back up")
    from spite.server.backup import BackupError, take_backup

    try:
        with needs_extra("postgres", "back up PostgreSQL"):
            took = take_backup(db, out, force=force)
    except BackupError as exc:
        fail(str(exc), EXIT_MALFORMED)
    typer.echo(f"spite: backed up {took['tables']} tables and {took['games']} games to {out} "
               f"({took['bytes']:,} bytes in {took['seconds']:.2f} s)", err=True)


def restore(
    source: Annotated[Path, typer.Argument(help="A backup made by spite backup.")],
    db: Annotated[str, typer.Option("--db", help="The database to restore into (a new or empty one).")],
    force: Annotated[bool, typer.Option("--force", help="Replace what the database holds.")] = False,
) -> None:
    """Restore a backup into a new or empty database.

    --force replaces what the database holds. Stop the server first; started on it again, its tables
    go on from their last acknowledged move."""
    require_extra("server", "restore")
    from spite.server.backup import BackupError, restore_backup

    try:
        with needs_extra("postgres", "restore into PostgreSQL"):
            done = restore_backup(source, db, force=force)
    except BackupError as exc:
        fail(str(exc), EXIT_MALFORMED)
    typer.echo(f"spite: restored {done['tables']} tables and {done['games']} games into "
               f"{done['database']} in {done['seconds']:.2f} s", err=True)


def bench_backup(
    games: Annotated[int, typer.Option(help="Stored games in the database backed up.")] = 10_000,
    db: Annotated[str | None, typer.Option("--db", help="A PostgreSQL server (postgresql://…): fresh databases are "
                                           "made there; default: temporary SQLite files.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON line.")] = False,
) -> None:
    """Time spite backup and restore of a database of N stored games."""
    from spite.cli.common import check_count

    check_count("--games", games, 1)
    require_extra("server", "measure backups")
    from spite.bench.backup import run_backup_bench
    from spite.server.backup import BackupError

    typer.echo(f"spite: storing {games:,} games, then backing them up and restoring them…", err=True)
    try:
        with needs_extra("postgres", "measure PostgreSQL's backups"):
            figures = run_backup_bench(games, db)
    except BackupError as exc:
        fail(str(exc), EXIT_MALFORMED)
    if as_json:
        typer.echo(json.dumps(figures))
        return
    size = f"{figures['backup_bytes'] / 2**20:.1f} MiB"
    typer.echo(f"{figures['games']:,} games ({figures['moves']:,} moves; made in {figures['made_s']} s): backup "
               f"{figures['backup_s']} s ({size}), restore {figures['restore_s']} s")


def deploy(
    folder: Annotated[Path, typer.Argument(help="Where to write the files (made if missing).")],
    domain: Annotated[str, typer.Option(help="The site's name (club.example).")],
    db: Annotated[str, typer.Option("--db", help="The database URL the server uses.")] = "postgresql:///spite",
    workers: Annotated[int, typer.Option(help="Server processes (one per core).")] = 2,
    spite_bin: Annotated[str, typer.Option(help="The spite command on the server.")] = "/opt/spite/bin/spite",
    user: Annotated[str, typer.Option(help="The system user the server runs as.")] = "spite",
    backups: Annotated[str, typer.Option(help="Where the nightly backups go.")] = "/var/backups/spite",
    keep_days: Annotated[int, typer.Option(help="Days of backups kept.")] = 14,
    metrics_port: Annotated[int, typer.Option(help="The loopback port of /metrics.")] = 9464,
) -> None:
    """Write a club server's systemd units, TLS hook and scrape job.

    docs/deploy.md says where each goes; every file is checked by the tests (systemd-analyze verify,
    haproxy -c, the hook run).
    """
    from spite.cli.common import check_count

    check_count("--workers", workers, 1)
    check_count("--keep-days", keep_days, 1)
    check_count("--metrics-port", metrics_port, 1, 65535)
    require_extra("server", "write a server's deploy files")
    from spite.server.deploy import Site, write

    try:
        written = write(Site(domain=domain, db=db, workers=workers, spite=spite_bin, user=user, backups=backups,
                             keep_days=keep_days, metrics_port=metrics_port), folder)
    except OSError as exc:
        fail(f"cannot write into {folder}: {exc.strerror or exc}", EXIT_MALFORMED)
    for path in written:
        typer.echo(str(path))


def register(app: typer.Typer, bench: typer.Typer | None = None) -> None:
    """Add ``admin``, ``backup`` and ``restore`` to ``app`` (and ``backup`` to its ``bench`` group)."""
    if bench is not None:
        bench.command("backup")(bench_backup)
    app.add_typer(admin_app, name="admin", short_help="Moderate a server: bans, names, tables, reports.")
    app.command("backup")(backup)
    app.command("restore")(restore)
    app.command("deploy")(deploy)
