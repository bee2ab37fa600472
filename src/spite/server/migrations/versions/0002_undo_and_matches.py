"""Undo and match tables: ``spite_tables.version_base`` and ``.match``; several games per table.

``stateVersion`` is ``version_base`` plus the moves stored (an undo deletes its move's row and adds
2, a match's next game starts one past the version the last one ended with). ``match`` holds a match
table's score as JSON. A match stores each of its games in ``spite_games``, so ``table_id`` is no
longer unique there (just indexed).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-20
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_NAMES = {"uq": "uq_%(table_name)s_%(column_0_name)s"}


@contextlib.contextmanager
def _players_kept(bind: sa.engine.Connection) -> Iterator[None]:
    """SQLite's batch copy drops the old ``spite_games``, and with foreign keys on that deletes every
    player row (ON DELETE CASCADE): keep them aside and put them back."""
    players = sa.table("spite_game_players", sa.column("game_id"), sa.column("seat"), sa.column("player"),
                       sa.column("is_bot"), sa.column("won"), sa.column("points"))
    saved = [dict(r) for r in bind.execute(sa.select(players)).mappings()]
    yield
    bind.execute(sa.delete(players))
    if saved:
        bind.execute(sa.insert(players), saved)


def upgrade() -> None:
    """Add the two columns; make ``spite_games.table_id`` an index instead of unique."""
    with op.batch_alter_table("spite_tables") as batch:
        batch.add_column(sa.Column("version_base", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("match", sa.Text, nullable=True))
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        # SQLite's inline UNIQUE has no name: the batch copy names it by the convention, then drops it
        with _players_kept(bind), op.batch_alter_table("spite_games", naming_convention=_NAMES,
                                                        recreate="always") as batch:
            batch.drop_constraint("uq_spite_games_table_id", type_="unique")
    else:
        for uc in sa.inspect(bind).get_unique_constraints("spite_games"):
            if uc["column_names"] == ["table_id"] and uc["name"]:
                op.drop_constraint(uc["name"], "spite_games", type_="unique")
    op.create_index("ix_spite_games_table_id", "spite_games", ["table_id"])


def downgrade() -> None:
    """Back to 0001 (fails if a table holds several games)."""
    op.drop_index("ix_spite_games_table_id", "spite_games")
    bind = op.get_bind()
    kept = _players_kept(bind) if bind.dialect.name == "sqlite" else contextlib.nullcontext()
    with kept, op.batch_alter_table("spite_games", naming_convention=_NAMES) as batch:
        batch.create_unique_constraint("uq_spite_games_table_id", ["table_id"])
    # not a batch copy: that would drop spite_tables and so cascade to every seat and move
    op.drop_column("spite_tables", "match")
    op.drop_column("spite_tables", "version_base")
