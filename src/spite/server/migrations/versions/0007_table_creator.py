"""Who created a table, for ``max_open_tables`` across workers: ``spite_tables.creator``.

With several workers (``spite serve --workers N``) a client address's creations may land on any of
them, so the open or playing tables an address has created are counted in the database: the new
table's row keeps a hash of the creating address (:func:`spite.server.host.address_key`, never the
address itself), indexed. One process on its own counts in memory and leaves the column empty.
Both statements are plain ``ALTER TABLE … ADD COLUMN`` and ``CREATE INDEX`` on SQLite too (no copy
of the table).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """The column and its index."""
    op.add_column("spite_tables", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_spite_tables_creator", "spite_tables", ["creator"])


def downgrade() -> None:
    """Back to 0006."""
    op.drop_index("ix_spite_tables_creator", "spite_tables")
    op.drop_column("spite_tables", "creator")
