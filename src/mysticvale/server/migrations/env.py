"""Alembic's environment: runs the migrations on the connection :mod:`mysticvale.server.migrate`
hands over (the server never builds its schema with ``create_all``)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through mysticvale.server.migrate.upgrade(), which passes a connection")

context.configure(connection=connection, render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
