"""Revisions 0005_mail_outbox and 0006_presence (issue 22): a database of revision 0004 keeps its turn
notices, which gain ``attempts`` (0) and ``cause`` (unknown), and gains ``mail_outbox`` and
``presence``; both revisions also go back down cleanly.  Over SQLite and PostgreSQL."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from test_people_migration import _tables, _to

from mysticvale.server import Storage, migrate

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NEW_TABLES = {"mail_outbox", "presence"}


def test_a_database_of_revision_0004_keeps_its_turn_notices_and_gains_the_outbox_and_presence(db_url):
    eng = sa.create_engine(db_url)
    try:
        _to(eng, "0004_credentials")
        assert not NEW_TABLES & _tables(eng)
        with eng.begin() as c:
            c.execute(sa.text("INSERT INTO games (id, created_at, updated_at, config, seq, current_player, phase, "
                              "round, over, winners) VALUES ('old', 0, 0, :cfg, 3, 0, 'planting', 1, false, '[]')"),
                      {"cfg": json.dumps({"players": 2})})
            c.execute(sa.text("INSERT INTO people (id, name, created_at, updated_at) VALUES ('p1', 'Anna', 0, 0)"))
            c.execute(sa.text("INSERT INTO turn_notices (game_id, seat, turn, person_id, seq, due_at, state, done_at) "
                              "VALUES ('old', 0, 2, 'p1', 3, 100, 'pending', NULL)"))
    finally:
        eng.dispose()
    storage = Storage(db_url)                       # opening the database upgrades it
    try:
        assert migrate.current_revision(storage.engine) == migrate.head_revision()
        assert NEW_TABLES <= _tables(storage.engine)
        with storage.engine.connect() as c:
            assert [tuple(r) for r in c.execute(sa.text(
                "SELECT game_id, state, due_at, attempts, cause FROM turn_notices"))] == [("old", "pending", 100, 0, None)]
        _to(storage.engine, "0004_credentials", down=True)
        assert not NEW_TABLES & _tables(storage.engine)
        with storage.engine.connect() as c:
            assert [tuple(r) for r in c.execute(sa.text("SELECT game_id, state FROM turn_notices"))] == [("old", "pending")]
            assert "attempts" not in {col["name"] for col in sa.inspect(c).get_columns("turn_notices")}
        _to(storage.engine, "head")
        assert NEW_TABLES <= _tables(storage.engine)
    finally:
        storage.close()
