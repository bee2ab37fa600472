"""Alembic migrations of the server's database (run by :func:`spite.server.db.migrate`)."""
