"""Running a server for a club (docs/deploy.md, docs/protocol.md "Moderation"):

* ``spite_bans``: a player id or an address range (CIDR) kept out, until the ban is lifted;
* ``spite_reports``: a name or a table a player reported, waiting for the operator;
* ``spite_audit``: every operator action, who did it and when; each worker follows it (by its
  growing ``id``) to apply what concerns the tables it holds.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Three tables."""
    op.create_table(
        "spite_bans",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("value", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False, server_default=""),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("created_by", sa.String(128), nullable=False),
        sa.Column("lifted_at", sa.Float, nullable=True),
        sa.Column("lifted_by", sa.String(128), nullable=True),
    )
    op.create_index("ix_spite_bans_live", "spite_bans", ["lifted_at"])
    op.create_table(
        "spite_reports",
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
    )
    op.create_index("ix_spite_reports_status", "spite_reports", ["status", "id"])
    op.create_table(
        "spite_audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("who", sa.String(128), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(128), nullable=True),
        sa.Column("detail", sa.Text, nullable=False, server_default="{}"),
    )


def downgrade() -> None:
    op.drop_table("spite_audit")
    op.drop_index("ix_spite_reports_status", "spite_reports")
    op.drop_table("spite_reports")
    op.drop_index("ix_spite_bans_live", "spite_bans")
    op.drop_table("spite_bans")
