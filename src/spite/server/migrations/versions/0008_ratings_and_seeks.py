"""Rated tables, ratings with their history, and seeks (docs/ratings.md, docs/protocol.md "Play a person").

* ``spite_tables.rated``: the table was made rated (its games change its keyed players' ratings);
* ``spite_ratings``: one row per player id and rules group: openskill's ``mu`` and ``sigma``, the
  rated games, the name last played under (the leaderboard shows it);
* ``spite_rating_history``: one row per rated game of each player (the rating over time);
* ``spite_seeks``: "play a person" requests of several workers (one process keeps its own in
  memory): ``active_key`` is the player id while the seek waits (unique: one seek per key; ``NULL``
  once paired or cancelled).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The column and the three tables."""
    op.add_column("spite_tables", sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "spite_ratings",
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("group", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_spite_ratings_group_mu", "spite_ratings", ["group", "mu"])
    op.create_index("ix_spite_ratings_name", "spite_ratings", ["name"])
    op.create_table(
        "spite_rating_history",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("group", sa.String(16), nullable=False),
        sa.Column("game_id", sa.Integer, nullable=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_spite_rating_history_player", "spite_rating_history", ["player_id", "group", "id"])
    op.create_table(
        "spite_seeks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("active_key", sa.String(32), nullable=True, unique=True),
        sa.Column("creator", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("computer_after", sa.Float, nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("token", sa.String(64), nullable=True),
        sa.Column("computer", sa.String(32), nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_spite_seeks_player_id", "spite_seeks", ["player_id"])
    op.create_index("ix_spite_seeks_creator", "spite_seeks", ["creator"])
    op.create_index("ix_spite_seeks_status", "spite_seeks", ["status"])


def downgrade() -> None:
    """Back to 0007."""
    op.drop_table("spite_seeks")
    op.drop_table("spite_rating_history")
    op.drop_table("spite_ratings")
    op.drop_column("spite_tables", "rated")
