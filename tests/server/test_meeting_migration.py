"""Revision 0003_meeting: a database of revision 0002_people gains the tables of table names, results
and ratings, keeps its games and people, and its games that ended with people at them are
recorded when the server starts; the revision also goes back down cleanly.  Over SQLite and
PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from conftest import wait_for
from fastapi.testclient import TestClient
from meeting_helpers import finish
from social_helpers import create, key, person
from test_people_migration import _tables, _to

from mysticvale.server import Storage, create_app, migrate, results

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

NEW_TABLES = {"game_tables", "game_results", "ratings"}


def test_a_database_of_revision_0002_gains_the_new_tables_and_records_its_finished_games(db_url):
    # A server of today plays a game between two people to the end...
    with TestClient(create_app(db_url, allow_seed=True)) as client:
        anna, ben = person(client, "Anna"), person(client, "Ben")
        g = create(client, anna, players=2, open_seats=[1], seed=9)
        client.post(f"/api/games/{g['id']}/claim", json={"seat": 1}, headers=key(ben))
        finish(client, g["id"])
    # ... and the database goes back to revision 0002, as a server before this revision left it.
    eng = sa.create_engine(db_url)
    try:
        _to(eng, "0002_people", down=True)
        assert not NEW_TABLES & _tables(eng)
        assert migrate.current_revision(eng) == "0002_people"
    finally:
        eng.dispose()
    storage = Storage(db_url)                 # opening it upgrades it
    try:
        assert migrate.current_revision(storage.engine) == migrate.head_revision()
        assert NEW_TABLES <= _tables(storage.engine)
        assert storage.summary(g["id"]).over
    finally:
        storage.close()
    with TestClient(create_app(db_url, allow_seed=True)) as client:
        wait_for(lambda: results.counted(client.app.state.manager.storage.engine) == 1, timeout=120)
        profile = client.get(f"/api/people/{anna['id']}/profile").json()
        assert profile["name"] == "Anna" and profile["games"]["played"] == 1
        assert profile["rating"]["games"] == 1
        assert client.get(f"/api/games/{g['id']}/table").json()["title"] == "Anna vs. Ben"
        assert client.get(f"/api/games/{g['id']}/replay").status_code == 200
