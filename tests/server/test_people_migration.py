"""Revision 0002_people: a database of revision 0001 gains the people tables and keeps its games;
the revision also goes back down cleanly.  Over SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from alembic import command

from mysticvale.server import Storage, migrate
from mysticvale.server.storage import Summary

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PEOPLE_TABLES = {"people", "credentials", "person_settings", "email_confirmations", "game_creators", "seat_claims",
                 "invitations", "chat_messages", "turn_notices"}


def _to(engine: sa.engine.Engine, revision: str, down: bool = False) -> None:
    with engine.connect() as conn:
        cfg = migrate._config(conn)
        (command.downgrade if down else command.upgrade)(cfg, revision)
        conn.commit()


def _tables(engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


def test_a_database_of_revision_0001_gains_the_people_tables_and_keeps_its_games(db_url):
    eng = sa.create_engine(db_url)
    try:
        _to(eng, "0001")
        assert not PEOPLE_TABLES & _tables(eng)
        with eng.begin() as c:
            c.execute(sa.text("INSERT INTO games (id, created_at, updated_at, config, seq, current_player, phase, "
                              "round, over, winners) VALUES ('old', 0, 0, :cfg, 0, 0, 'planting', 1, false, '[]')"),
                      {"cfg": json.dumps({"players": 2})})
    finally:
        eng.dispose()
    storage = Storage(db_url)                       # opening the database upgrades it
    try:
        assert migrate.current_revision(storage.engine) == migrate.head_revision()
        assert PEOPLE_TABLES <= _tables(storage.engine)
        assert storage.summary("old") == Summary(0, "planting", 1, False, [])
        # and back down: the people tables go, the games stay
        _to(storage.engine, "0001", down=True)
        assert not PEOPLE_TABLES & _tables(storage.engine)
        assert storage.summary("old") == Summary(0, "planting", 1, False, [])
        _to(storage.engine, "head")
        assert PEOPLE_TABLES <= _tables(storage.engine)
    finally:
        storage.close()
