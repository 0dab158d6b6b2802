"""The schema comes from the Alembic migrations: a fresh database, a database made before the
migrations existed, and several processes opening one fresh database at once."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import sqlalchemy as sa

from mysticvale.server import Storage
from mysticvale.server import migrate
from mysticvale.server.storage import Summary, metadata

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _tables(url: str) -> set[str]:
    eng = sa.create_engine(url)
    try:
        return set(sa.inspect(eng).get_table_names())
    finally:
        eng.dispose()


def test_a_fresh_database_is_built_by_the_migrations_up_to_the_newest_revision(db_url):
    storage = Storage(db_url)
    try:
        assert migrate.current_revision(storage.engine) == migrate.head_revision()
        assert {"games", "seats", "records", "snapshots", "alembic_version"} <= _tables(storage.engine.url
                                                                                         .render_as_string(False))
        # Opening it again changes nothing and keeps the data.
        storage.create_game("g1", {"players": 2}, [(0, None, "random"), (1, None, "random")], "{}",
                            Summary(0, "planting", 1, False, []))
    finally:
        storage.close()
    again = Storage(db_url)
    try:
        assert again.summary("g1") is not None
        assert migrate.current_revision(again.engine) == migrate.head_revision()
    finally:
        again.close()


def test_a_database_from_before_the_migrations_is_stamped_and_keeps_its_games(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    eng = sa.create_engine(url)
    # What versions before the migrations did: create_all, no alembic_version table.
    metadata.create_all(eng, tables=[metadata.tables[t] for t in ("games", "seats", "records", "snapshots")])
    with eng.begin() as c:
        c.execute(metadata.tables["games"].insert().values(
            id="old", created_at=0.0, updated_at=0.0, config=json.dumps({"players": 2}), seq=0,
            current_player=0, phase="planting", round=1, over=False, winners="[]"))
    eng.dispose()
    storage = Storage(url)
    try:
        assert migrate.current_revision(storage.engine) == migrate.head_revision()
        assert storage.summary("old") == Summary(0, "planting", 1, False, [])
    finally:
        storage.close()


_OPEN = "import sys; from mysticvale.server import Storage; Storage(sys.argv[1]).close(); print('ok')"


def test_several_processes_opening_one_fresh_database_at_once_all_start(db_url):
    # Before the migrations, two servers starting at once raced in create_all and one crashed.
    procs = [subprocess.Popen([sys.executable, "-c", _OPEN, db_url], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(4)]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], [err for _out, err in results]
    storage = Storage(db_url)
    try:
        assert migrate.current_revision(storage.engine) == migrate.head_revision()
    finally:
        storage.close()
