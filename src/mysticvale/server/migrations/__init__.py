"""The database schema's history as Alembic migrations (see :mod:`mysticvale.server.migrate`)."""
