"""A table's seed as text of any length: ``spite_tables.seed`` was ``VARCHAR(64)``.

A fair table's seed (docs/fairness.md) is 64 hex digits, stored as JSON text with its quotes: 66
characters, which PostgreSQL refused. SQLite does not enforce a ``VARCHAR`` length, and altering a
column there would copy the table (and cascade deletes), so only other databases are changed.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """``seed`` becomes ``TEXT`` (not on SQLite, where the length was never enforced)."""
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("spite_tables", "seed", type_=sa.Text, existing_type=sa.String(64), existing_nullable=False)


def downgrade() -> None:
    """Back to 0004 (a seed longer than 64 characters would not fit: such tables must be gone first)."""
    if op.get_bind().dialect.name != "sqlite":
        op.alter_column("spite_tables", "seed", type_=sa.String(64), existing_type=sa.Text, existing_nullable=False)
