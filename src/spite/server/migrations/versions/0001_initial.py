"""Tables, seats, moves, finished games and their players.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the five tables."""
    op.create_table(
        "spite_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("start", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("owner", sa.String(128), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_spite_tables_status", "spite_tables", ["status"])
    op.create_table(
        "spite_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("spite_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("level", sa.String(32), nullable=True),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("controller", sa.String(8), nullable=False),
    )
    op.create_index("ix_spite_seats_player", "spite_seats", ["player"])
    op.create_table(
        "spite_moves",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("spite_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("entries", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "spite_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False, unique=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
    )
    op.create_index("ix_spite_games_preset", "spite_games", ["preset"])
    op.create_table(
        "spite_game_players",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("spite_games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("is_bot", sa.Boolean, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
    )
    op.create_index("ix_spite_game_players_player", "spite_game_players", ["player"])


def downgrade() -> None:
    """Drop everything."""
    op.drop_table("spite_game_players")
    op.drop_table("spite_games")
    op.drop_table("spite_moves")
    op.drop_table("spite_seats")
    op.drop_table("spite_tables")
