"""Rematch series and takeover-finished games: ``spite_tables.series``, ``spite_game_players.taken_over``.

``series`` holds the score of the games played at one table link across rematches (JSON: games,
wins per seat, the games' ids). ``taken_over`` marks a person's row of a game that a takeover bot
finished in their name: such games are left out of the person's statistics.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two columns (plain ADD COLUMN: no batch copy, which would cascade deletes in SQLite)."""
    op.add_column("spite_tables", sa.Column("series", sa.Text, nullable=True))
    op.add_column("spite_game_players",
                  sa.Column("taken_over", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    """Back to 0003."""
    op.drop_column("spite_game_players", "taken_over")
    op.drop_column("spite_tables", "series")
