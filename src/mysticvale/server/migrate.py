"""The database schema, created and upgraded by Alembic migrations (``server/migrations``).

Every server process calls :func:`upgrade` when it opens the database.  Several processes may
start at once on a fresh database (``serve --workers N``, instances behind a proxy), so the
upgrade runs under a lock that only one of them holds at a time: PostgreSQL's advisory lock, or
for an SQLite file a lock file beside it.  The others wait, then find the schema at the newest
revision and do nothing.  Tables are never built by ``create_all``.

A database made by a version before the migrations existed (the four tables, no
``alembic_version``) is recognised and stamped as revision ``0001`` before upgrading.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from filelock import FileLock
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

#: An arbitrary constant naming "the schema migration" among PostgreSQL advisory locks.
PG_MIGRATION_LOCK = 0x6D76_0001
#: The tables of revision 0001 (a database that has them and no version table predates Alembic).
FIRST_TABLES = frozenset({"games", "seats", "records", "snapshots"})


def _script_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", "mysticvale.server:migrations")
    return cfg


def _config(connection: Connection) -> Config:
    cfg = _script_config()
    cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest revision of the schema this code expects."""
    return ScriptDirectory.from_config(_script_config()).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: no schema yet)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database to the newest revision, safely when several processes start at once."""
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": PG_MIGRATION_LOCK})
            conn.commit()
            try:
                _upgrade_on(conn)
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": PG_MIGRATION_LOCK})
                conn.commit()
        return
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:":
        with FileLock(str(Path(database).with_name(Path(database).name + ".migrate.lock")), timeout=120):
            with engine.connect() as conn:
                _upgrade_on(conn)
        return
    with engine.connect() as conn:
        _upgrade_on(conn)


def _upgrade_on(conn: Connection) -> None:
    cfg = _config(conn)
    if MigrationContext.configure(conn).get_current_revision() is None and \
            FIRST_TABLES <= set(inspect(conn).get_table_names()):
        command.stamp(cfg, "0001")
        conn.commit()
    command.upgrade(cfg, "head")
    conn.commit()
