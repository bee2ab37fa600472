"""Players own their statistics: ``spite_seats.player_id`` and ``spite_game_players.player_id``.

A player id (``p-`` and 24 hex digits) is made from the secret key a browser or terminal app keeps;
games count for it, and the display name is only a label. Rows from before have no id (``NULL``):
they stay counted under their name, as guests' games are.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the two nullable columns (no table copy: plain ``ADD COLUMN`` on SQLite too) and an index."""
    op.add_column("spite_seats", sa.Column("player_id", sa.String(32), nullable=True))
    op.add_column("spite_game_players", sa.Column("player_id", sa.String(32), nullable=True))
    op.create_index("ix_spite_game_players_player_id", "spite_game_players", ["player_id"])


def downgrade() -> None:
    """Back to 0002 (the ids are lost; the games stay, counted under their names)."""
    op.drop_index("ix_spite_game_players_player_id", "spite_game_players")
    with op.batch_alter_table("spite_game_players") as batch:
        batch.drop_column("player_id")
    with op.batch_alter_table("spite_seats") as batch:
        batch.drop_column("player_id")
