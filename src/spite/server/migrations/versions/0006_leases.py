"""Several worker processes on one database: table leases and the workers' heartbeats.

``spite_tables`` gets ``lease_until`` (until when its ``owner`` holds it, in seconds since the
epoch by the database's clock) and ``wanted_by`` (a worker that was asked for the table and waits
for its owner to hand it over); ``spite_workers`` has one row per running worker process with its
last heartbeat. One process on its own (SQLite, or PostgreSQL without ``--workers``) leaves them
empty. docs/scaling.md says how they are used.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The two columns, an index on ``owner`` (a worker's leases are renewed by owner), the workers."""
    with op.batch_alter_table("spite_tables") as batch:
        batch.add_column(sa.Column("lease_until", sa.Float, nullable=True))
        batch.add_column(sa.Column("wanted_by", sa.String(128), nullable=True))
        batch.create_index("ix_spite_tables_owner", ["owner"])
    op.create_table(
        "spite_workers",
        sa.Column("id", sa.String(128), primary_key=True),
        sa.Column("address", sa.String(128), nullable=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
    )


def downgrade() -> None:
    """Back to 0005."""
    op.drop_table("spite_workers")
    with op.batch_alter_table("spite_tables") as batch:
        batch.drop_index("ix_spite_tables_owner")
        batch.drop_column("wanted_by")
        batch.drop_column("lease_until")
