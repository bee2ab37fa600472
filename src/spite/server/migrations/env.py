"""Alembic environment: runs on the connection :func:`spite.server.db.migrate` hands over.

From the command line: ``alembic -x url=sqlite:///spite.db upgrade head`` with a config whose
``script_location`` is ``spite.server:migrations``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from spite.server.db import metadata, normalize_url

target_metadata = metadata


def run() -> None:
    """Upgrade on the given connection, or on one opened from ``-x url=...``."""
    config = context.config
    conn = config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not url:
        raise SystemExit("give the database as -x url=...")
    engine = sa.create_engine(normalize_url(url))
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if hasattr(context, "config"):  # only inside an Alembic run (not when a test collector imports this file)
    run()
