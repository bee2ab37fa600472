"""A table's game keeps its own data under a name of no game: ``spite_tables.match`` becomes
``spite_tables.game_data``.

The column holds what a game's adapter keeps with its table besides the moves (JSON; Spite and
Malice: a match table's score, who began and how each game ended, their ids): the adapter writes it
(``Opening.columns``, ``Ending.columns``) and reads it back (``StoredTable.game_data``); the server
itself never looks inside. A rename in place (``ALTER TABLE … RENAME COLUMN``, SQLite 3.25+ and
PostgreSQL): SQLite's batch copy would drop ``spite_tables`` and so cascade to every seat and move.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Rename the column; its values stay as they are."""
    op.execute('ALTER TABLE spite_tables RENAME COLUMN "match" TO game_data')


def downgrade() -> None:
    """Back to 0011's name."""
    op.execute('ALTER TABLE spite_tables RENAME COLUMN game_data TO "match"')
