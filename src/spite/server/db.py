"""The database: schema (SQLAlchemy Core), engines for SQLite and PostgreSQL, Alembic upgrades.

What is stored (see ``docs/scaling.md``):

* ``spite_tables``: one row per table: game, preset, options, the seed and the start of the record
  (the deal and any shuffle before the first move; at a match table the game's own seed too), its
  status and how many moves it has; ``version_base`` (``stateVersion`` is ``version_base`` plus the
  moves stored: an undo adds 2, a match's next game starts one past the last version) and
  ``game_data``: what the game's adapter keeps with the table (JSON, the server never looks inside;
  Spite and Malice: a match's scores, who began and how each finished game ended, their ids);
* ``spite_seats``: one row per seat: person or bot, the player's name, a hash of the seat's secret
  token, and who controls it now (the person, or a bot that took it over);
* ``spite_moves``: one row per accepted move, with the shuffle entries it caused (an undone move's
  row is deleted; a match's next game starts with none); a table is rebuilt by replaying its start
  and its moves;
* ``spite_workers`` and ``spite_tables.owner``/``lease_until``/``wanted_by``: with several worker
  processes (``spite serve --workers N``, PostgreSQL), which worker holds which table and until when
  (:mod:`spite.server.leases`), and ``spite_tables.creator``: a hash of the address that created the
  table, so that ``max_open_tables`` counts an address's tables over every worker;
* ``spite_games`` and ``spite_game_players``: finished games as complete records (each game of a
  match is one), and one row per seat of each for the statistics (``taken_over``: a bot that took
  the person's seat over finished the game, so it is not counted in their figures);
* ``spite_tables.rated``, ``spite_ratings`` and ``spite_rating_history``: a table made rated, the
  keyed players' ratings per rules group (openskill's ``mu`` and ``sigma``) and one row per rated
  game of each (the chart over time); see :mod:`spite.server.ratings` and :mod:`spite.rating`;
* ``spite_seats.address``, ``spite_game_players.left`` and ``spite_aborts``: what keeps rated play
  fair (docs/ratings.md): the hashed address a person sat down from (one address, one side; a
  seekers' table counts against each seeker's address), a person who lost a rated game by leaving
  it, and the rated games a player aborted;
* ``spite_seeks``: "play a person" requests waiting to be paired (with several workers: one
  process alone keeps them in memory), and once paired their table and seat token;
* ``spite_bans``, ``spite_reports`` and ``spite_audit``: moderation (:mod:`spite.server.moderation`):
  the player ids and address ranges kept out, the names and tables players reported, and every
  operator action with who did it;
* ``spite_accounts``, ``spite_passkeys``, ``spite_sessions``, ``spite_account_challenges`` and
  ``spite_link_codes``: accounts (:mod:`spite.server.accounts`, docs/accounts.md): a handle and the
  player id it owns, each passkey's public key and signature counter, a hash of each device's session
  token, the open WebAuthn challenges, a hash of each device link code, and the seat tokens of the
  account's tables (``spite_account_seats``: any of its signed-in devices may take its seat).

The schema is created and upgraded only by Alembic (``spite/server/migrations``);
:data:`metadata` mirrors the newest revision for queries.
"""

from __future__ import annotations

import contextlib
import logging
import uuid
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

__all__ = [
    "account_challenges",
    "account_seats",
    "accounts",
    "audit",
    "bans",
    "game_players",
    "games",
    "link_codes",
    "make_engine",
    "metadata",
    "migrate",
    "moves",
    "normalize_url",
    "passkeys",
    "rating_history",
    "ratings",
    "reports",
    "scratch_database",
    "seats",
    "seeks",
    "sessions",
    "tables",
    "workers",
]

log = logging.getLogger("spite.server.db")

metadata = sa.MetaData()

tables = sa.Table(
    "spite_tables",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("start", sa.Text, nullable=False),
    sa.Column("status", sa.String(16), nullable=False, index=True),
    sa.Column("plies", sa.Integer, nullable=False, default=0),
    sa.Column("owner", sa.String(128), nullable=True, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Column("version_base", sa.Integer, nullable=False, default=0, server_default="0"),
    sa.Column("game_data", sa.Text, nullable=True),
    sa.Column("series", sa.Text, nullable=True),
    sa.Column("lease_until", sa.Float, nullable=True),
    sa.Column("wanted_by", sa.String(128), nullable=True),
    sa.Column("creator", sa.String(64), nullable=True, index=True),
    sa.Column("rated", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
)

workers = sa.Table(
    "spite_workers",
    metadata,
    sa.Column("id", sa.String(128), primary_key=True),
    sa.Column("address", sa.String(128), nullable=True),
    sa.Column("started_at", sa.Float, nullable=False),
    sa.Column("heartbeat", sa.Float, nullable=False),
)

seats = sa.Table(
    "spite_seats",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("spite_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("level", sa.String(32), nullable=True),
    sa.Column("player", sa.String(64), nullable=True, index=True),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("token_hash", sa.String(64), nullable=True),
    sa.Column("controller", sa.String(8), nullable=False),
    sa.Column("address", sa.String(64), nullable=True, index=True),
)

moves = sa.Table(
    "spite_moves",
    metadata,
    sa.Column("table_id", sa.String(32), sa.ForeignKey("spite_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("entries", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)

games = sa.Table(
    "spite_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(32), nullable=False, index=True),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False, index=True),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("result", sa.Text, nullable=False),
    sa.Column("plies", sa.Integer, nullable=False),
    sa.Column("turns", sa.Integer, nullable=False),
    sa.Column("finished_at", sa.Float, nullable=False),
)

game_players = sa.Table(
    "spite_game_players",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("spite_games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player", sa.String(64), nullable=False, index=True),
    sa.Column("player_id", sa.String(32), nullable=True, index=True),
    sa.Column("is_bot", sa.Boolean, nullable=False),
    sa.Column("won", sa.Boolean, nullable=False),
    sa.Column("points", sa.Integer, nullable=False),
    sa.Column("taken_over", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
    sa.Column("left", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
)

aborts = sa.Table(
    "spite_aborts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("table_id", sa.String(32), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_spite_aborts_player", "player_id", "at"),
)


ratings = sa.Table(
    "spite_ratings",
    metadata,
    sa.Column("player_id", sa.String(32), primary_key=True),
    sa.Column("group", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    sa.Index("ix_spite_ratings_group_mu", "group", "mu"),
    sa.Index("ix_spite_ratings_name", "name"),
)

rating_history = sa.Table(
    "spite_rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("player_id", sa.String(32), nullable=False),
    sa.Column("group", sa.String(16), nullable=False),
    sa.Column("game_id", sa.Integer, nullable=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
    sa.Index("ix_spite_rating_history_player", "player_id", "group", "id"),
)

seeks = sa.Table(
    "spite_seeks",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("player_id", sa.String(32), nullable=False, index=True),
    sa.Column("active_key", sa.String(32), nullable=True, unique=True),
    sa.Column("creator", sa.String(64), nullable=True, index=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("game", sa.String(16), nullable=False),
    sa.Column("preset", sa.String(40), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("seats", sa.Integer, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("computer_after", sa.Float, nullable=True),
    sa.Column("status", sa.String(12), nullable=False, index=True),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("token", sa.String(64), nullable=True),
    sa.Column("computer", sa.String(32), nullable=True),
    sa.Column("updated_at", sa.Float, nullable=False),
)


tournaments = sa.Table(
    "spite_tournaments",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("status", sa.String(12), nullable=False, index=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("state", sa.Text, nullable=False),
    sa.Column("secret", sa.String(64), nullable=False),
    sa.Column("creator", sa.String(32), nullable=False),
    sa.Column("address", sa.String(64), nullable=True, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)

tournament_tables = sa.Table(
    "spite_tournament_tables",
    metadata,
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("tournament_id", sa.String(32), sa.ForeignKey("spite_tournaments.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("pairing", sa.Integer, nullable=False),
    sa.Column("game", sa.Integer, nullable=False),
    sa.Column("deal", sa.Integer, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("made", sa.Boolean, nullable=False),
    sa.Column("result", sa.Text, nullable=True),
    sa.Column("game_id", sa.Integer, nullable=True, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_spite_tournament_tables_unmade", "made"),
)


bans = sa.Table(
    "spite_bans",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("value", sa.String(64), nullable=False),
    sa.Column("reason", sa.String(200), nullable=False, server_default=""),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("created_by", sa.String(128), nullable=False),
    sa.Column("lifted_at", sa.Float, nullable=True),
    sa.Column("lifted_by", sa.String(128), nullable=True),
    sa.Index("ix_spite_bans_live", "lifted_at"),
)

reports = sa.Table(
    "spite_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("table_id", sa.String(32), nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("reason", sa.String(200), nullable=False, server_default=""),
    sa.Column("reporter", sa.String(64), nullable=True),
    sa.Column("reporter_id", sa.String(32), nullable=True),
    sa.Column("status", sa.String(8), nullable=False),
    sa.Column("cleared_at", sa.Float, nullable=True),
    sa.Column("cleared_by", sa.String(128), nullable=True),
    sa.Index("ix_spite_reports_status", "status", "id"),
)

audit = sa.Table(
    "spite_audit",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("who", sa.String(128), nullable=False),
    sa.Column("action", sa.String(32), nullable=False),
    sa.Column("target", sa.String(128), nullable=True),
    sa.Column("detail", sa.Text, nullable=False, server_default="{}"),
)


accounts = sa.Table(
    "spite_accounts",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("handle", sa.String(24), nullable=False),
    sa.Column("handle_key", sa.String(24), nullable=False, unique=True),
    sa.Column("player_id", sa.String(32), nullable=False, unique=True),
    sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.Float, nullable=False),
)

passkeys = sa.Table(
    "spite_passkeys",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"), nullable=False,
              index=True),
    sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
    sa.Column("public_key", sa.Text, nullable=False),
    sa.Column("sign_count", sa.BigInteger, nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_used", sa.Float, nullable=True),
)

sessions = sa.Table(
    "spite_sessions",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"), nullable=False,
              index=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)

account_challenges = sa.Table(
    "spite_account_challenges",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(12), nullable=False),
    sa.Column("challenge", sa.String(128), nullable=False),
    sa.Column("account_id", sa.String(32), nullable=True),
    sa.Column("handle", sa.String(24), nullable=True),
    sa.Column("player_id", sa.String(32), nullable=True),
    sa.Column("expires_at", sa.Float, nullable=False, index=True),
)

link_codes = sa.Table(
    "spite_link_codes",
    metadata,
    sa.Column("code_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"), nullable=False,
              index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
    sa.Column("used_at", sa.Float, nullable=True),
)

account_seats = sa.Table(
    "spite_account_seats",
    metadata,
    sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("table_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("token", sa.String(64), nullable=False),
    sa.Column("at", sa.Float, nullable=False, index=True),
)


def normalize_url(url: str) -> str:
    """Use the psycopg 3 driver for plain ``postgresql://`` URLs (psycopg2 is not a dependency)."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def make_engine(url: str, *, sqlite_synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``. SQLite gets WAL mode (readers never wait for the writer), foreign
    keys, and ``synchronous`` as configured (NORMAL survives a killed process, FULL a power cut)."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        sync = sqlite_synchronous.upper()
        if sync not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"sqlite synchronous must be OFF, NORMAL, FULL or EXTRA, not {sqlite_synchronous!r}")

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute(f"PRAGMA synchronous={sync}")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return sa.create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=5)


@contextlib.contextmanager
def scratch_database(base_url: str, prefix: str = "spite_scratch", template: str | None = None) -> Iterator[str]:
    """A fresh, empty database on the PostgreSQL server of ``base_url`` (its URL), dropped afterwards
    even while sessions still hold it: for tests and benchmarks that must not share state. With
    ``template`` (a database's name nobody is connected to), a copy of that database instead."""
    url = sa.make_url(normalize_url(base_url))
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else "")))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision`` with the Alembic scripts shipped in this package."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", "spite.server:migrations")
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    log.info("database schema at %s", revision)
