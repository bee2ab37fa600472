"""Club tournaments (docs/tournaments.md, :mod:`spite.server.tournaments`):

* ``spite_tournaments``: one row per tournament: its pure state as JSON (``state``, the
  :class:`spite.tournament.state.Tournament` and what the server keeps with it), a ``version`` that
  grows with every change (long polls compare it; every change is made under the row's lock), its
  secret (revealed once it is finished), and who made it;
* ``spite_tournament_tables``: one row per table a tournament made (or is about to make: the row
  comes first, in the transaction that paired it, so that a worker dying in between leaves it to be
  made, never paired again): which pairing and game, each seat's entrant and person's token, and the
  game's result once it is in.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Two tables."""
    op.create_table(
        "spite_tournaments",
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
    op.create_table(
        "spite_tournament_tables",
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
    )
    op.create_index("ix_spite_tournament_tables_unmade", "spite_tournament_tables", ["made"])


def downgrade() -> None:
    op.drop_table("spite_tournament_tables")
    op.drop_table("spite_tournaments")
