"""Accounts with passkeys (docs/accounts.md, :mod:`spite.server.accounts`):

* ``spite_accounts``: a handle (as typed, and the key that keeps look-alike handles apart) and the
  player id the account owns;
* ``spite_passkeys``: each passkey's credential id, public key (COSE) and signature counter;
* ``spite_sessions``: one row per signed-in device: a hash of its session token, never the token;
* ``spite_account_challenges``: the WebAuthn challenges handed out and not used yet (any worker may
  answer the second half of a ceremony);
* ``spite_link_codes``: a hash of each short code that links a device, until it is used or expires;
* ``spite_account_seats``: the seat tokens of the tables an account sat down at from a signed-in
  device, so that any of its signed-in devices may take the seat (hello with ``account``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Six tables."""
    op.create_table(
        "spite_accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("handle", sa.String(24), nullable=False),
        sa.Column("handle_key", sa.String(24), nullable=False, unique=True),
        sa.Column("player_id", sa.String(32), nullable=False, unique=True),
        sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "spite_passkeys",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.Text, nullable=False),
        sa.Column("sign_count", sa.BigInteger, nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_used", sa.Float, nullable=True),
    )
    op.create_table(
        "spite_sessions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "spite_account_challenges",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("handle", sa.String(24), nullable=True),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("expires_at", sa.Float, nullable=False, index=True),
    )
    op.create_table(
        "spite_link_codes",
        sa.Column("code_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float, nullable=True),
    )
    op.create_table(
        "spite_account_seats",
        sa.Column("account_id", sa.String(32), sa.ForeignKey("spite_accounts.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("at", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("spite_account_seats")
    op.drop_table("spite_link_codes")
    op.drop_table("spite_account_challenges")
    op.drop_table("spite_sessions")
    op.drop_table("spite_passkeys")
    op.drop_table("spite_accounts")
