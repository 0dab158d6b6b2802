"""The server runs the garbage collector with a server's thresholds (runtime.tune_for_serving): a
young collection every 25 000 allocations, not every 700, so that hundreds of games in memory do
not pause every action (measured in benchmarks/README.md, "Server capacity")."""

from __future__ import annotations

import gc

import pytest
from fastapi.testclient import TestClient

from mysticvale.runtime import SERVING_THRESHOLDS
from mysticvale.server import create_app

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_server_collects_with_a_servers_thresholds(sqlite_url):
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        with TestClient(create_app(sqlite_url)) as client:
            assert client.get("/api/health").json() == {"ok": True, "database": "ok"}
            assert gc.get_threshold() == SERVING_THRESHOLDS
            assert SERVING_THRESHOLDS[0] >= 10_000 and gc.isenabled()
    finally:
        gc.set_threshold(*before)
