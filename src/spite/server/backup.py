"""``spite backup`` and ``spite restore``: the server's database to a file and back (docs/deploy.md,
"Backups").

* **SQLite**: Python's ``sqlite3`` online backup API, in one step (``pages=-1``): it reads the
  database in one read transaction, which in WAL mode never blocks the server's writer, so the copy
  is the database as of one instant, taken while the server plays on. A restore copies the file back
  the same way.
* **PostgreSQL**: ``pg_dump --format=custom`` (one snapshot of the database, also while it serves)
  and ``pg_restore`` in one transaction (PostgreSQL 15's client tools, ``apt-get install
  postgresql-client``); the password goes in the environment, never on a command line.

A move is acknowledged to its player only after it is committed, so a backup holds every move
acknowledged before it began (and perhaps a few after): a server started on a restored backup
replays each live table from its stored moves and goes on from its last acknowledged move.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

__all__ = ["BackupError", "restore_backup", "take_backup"]

SQLITE_MAGIC = b"SQLite format 3\x00"
PGDUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done: one line for the operator."""


def _sqlite_path(url: str) -> Path | None:
    u = sa.make_url(url)
    if not u.drivername.startswith("sqlite"):
        return None
    if not u.database or u.database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up or restore into")
    return Path(u.database)


def _counts(conn: Any) -> tuple[int, int]:
    """Live tables and stored games in a database (a DB-API connection)."""
    cur = conn.cursor()
    try:
        cur.execute("SELECT count(*) FROM spite_tables WHERE status IN ('open', 'playing')")
        tables = int(cur.fetchone()[0])
        cur.execute("SELECT count(*) FROM spite_games")
        return tables, int(cur.fetchone()[0])
    finally:
        cur.close()


def _libpq(url: str) -> tuple[str, dict[str, str]]:
    """A libpq connection URI without the password, and the environment that carries it."""
    u = sa.make_url(url)
    env = dict(os.environ)
    if u.password:
        env["PGPASSWORD"] = str(u.password)
    plain = u.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _tool(name: str) -> str:
    found = shutil.which(name) or next((str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"),
                                                                reverse=True) if p.exists()), None)
    if found is None:
        raise BackupError(f"{name} is not installed: apt-get install postgresql-client")
    return found


def take_backup(db_url: str, out: Path, *, force: bool = False) -> dict[str, Any]:
    """Back up ``db_url`` into ``out`` (written beside it first, then moved into place): how many live
    tables and games it holds, its size and the time it took."""
    if out.exists() and not force:
        raise BackupError(f"{out} exists already (--force overwrites it)")
    if not out.parent.is_dir():
        raise BackupError(f"there is no folder {out.parent}")
    t0 = time.perf_counter()
    partial = out.with_name(out.name + ".partial")
    path = _sqlite_path(db_url)
    try:
        if path is not None:
            if not path.exists():
                raise BackupError(f"there is no database at {path}")
            source = sqlite3.connect(path, timeout=30)
            target = sqlite3.connect(partial)
            try:
                source.backup(target)  # one step: one read transaction, the database as of one instant
                tables, games = _counts(target)
            except sqlite3.DatabaseError as exc:
                raise BackupError(f"{path} cannot be backed up: {exc}") from None
            finally:
                target.close()
                source.close()
        else:
            uri, env = _libpq(db_url)
            done = subprocess.run([_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
                                   "--file", str(partial), "--dbname", uri], env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise BackupError(f"pg_dump failed: {_first_line(done.stderr)}")
            tables, games = _pg_counts(db_url)
        partial.replace(out)
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
    return {"tables": tables, "games": games, "bytes": out.stat().st_size, "seconds": time.perf_counter() - t0}


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), "no message")


def _pg_counts(db_url: str) -> tuple[int, int]:
    from spite.server import db

    engine = db.make_engine(db_url)
    try:
        with engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            return _counts(raw)
    except sa.exc.SQLAlchemyError as exc:
        raise BackupError(f"cannot read {sa.make_url(db_url).render_as_string()}: {_first_line(str(exc))}") from None
    finally:
        engine.dispose()


def restore_backup(source: Path, db_url: str, *, force: bool = False) -> dict[str, Any]:
    """Restore ``source`` (made by :func:`take_backup`) into ``db_url``: a new or empty database, or
    with ``force`` one whose contents it replaces. Stop the server on it first."""
    if not source.is_file():
        raise BackupError(f"there is no backup {source}")
    with open(source, "rb") as f:
        head = f.read(16)
    path = _sqlite_path(db_url)
    t0 = time.perf_counter()
    if path is not None:
        if not head.startswith(SQLITE_MAGIC):
            raise BackupError(f"{source} is not a backup of a SQLite database")
        backup = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            if backup.execute("PRAGMA quick_check").fetchone()[0] != "ok":
                raise BackupError(f"{source} is damaged (SQLite's quick_check fails)")
            if path.exists():
                if _has_spite(path) and not force:
                    raise BackupError(f"{path} holds a server's database already (--force replaces it)")
                for extra in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                    with contextlib.suppress(FileNotFoundError):
                        extra.unlink()
            if not path.parent.is_dir():
                raise BackupError(f"there is no folder {path.parent}")
            target = sqlite3.connect(path)
            try:
                backup.backup(target)
                tables, games = _counts(target)
            finally:
                target.close()
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{source} cannot be restored: {exc}") from None
        finally:
            backup.close()
        shown = str(path)
    else:
        if not head.startswith(PGDUMP_MAGIC):
            raise BackupError(f"{source} is not a backup of a PostgreSQL database (pg_dump's custom format)")
        if _pg_has_spite(db_url) and not force:
            raise BackupError("the database holds a server's tables already (--force replaces them)")
        uri, env = _libpq(db_url)
        args = [_tool("pg_restore"), "--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
                "--dbname", uri, str(source)]
        if force:
            args[1:1] = ["--clean", "--if-exists"]
        done = subprocess.run(args, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise BackupError(f"pg_restore failed: {_first_line(done.stderr)}")
        tables, games = _pg_counts(db_url)
        shown = sa.make_url(db_url).render_as_string()
    return {"tables": tables, "games": games, "database": shown, "seconds": time.perf_counter() - t0}


def _has_spite(path: Path) -> bool:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'spite_tables'").fetchone() is not None
    except sqlite3.DatabaseError:
        return True  # not a database we know: not ours to replace without --force
    finally:
        conn.close()


def _pg_has_spite(db_url: str) -> bool:
    from spite.server import db

    engine = db.make_engine(db_url)
    try:
        with engine.connect() as conn:
            return bool(conn.execute(sa.text("SELECT to_regclass('spite_tables') IS NOT NULL")).scalar())
    except sa.exc.SQLAlchemyError as exc:
        raise BackupError(f"cannot open {sa.make_url(db_url).render_as_string()}: {_first_line(str(exc))}") from None
    finally:
        engine.dispose()
