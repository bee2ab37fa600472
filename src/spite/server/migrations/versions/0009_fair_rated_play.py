"""Rated play that holds (docs/ratings.md, "What rated play guards against").

* ``spite_seats.address``: a hash of the address a person took the seat from (as ``spite_tables.creator``):
  a rated table seats one address on one side only, and a table made for seekers counts against
  each seeker's address (``max_open_tables``);
* ``spite_game_players.left``: the person left a rated game (their grace time or turn clock ran out
  once every side had moved): the game ended there and their side lost it;
* ``spite_aborts``: one row per rated game a player aborted (left before every side had moved):
  repeated aborts pause that player's rated play for a while.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Two columns and a table."""
    op.add_column("spite_seats", sa.Column("address", sa.String(64), nullable=True))
    op.create_index("ix_spite_seats_address", "spite_seats", ["address"])
    op.add_column("spite_game_players", sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "spite_aborts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_spite_aborts_player", "spite_aborts", ["player_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_spite_aborts_player", "spite_aborts")
    op.drop_table("spite_aborts")
    op.drop_column("spite_game_players", "left")
    op.drop_index("ix_spite_seats_address", "spite_seats")
    op.drop_column("spite_seats", "address")
