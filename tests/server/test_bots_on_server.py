"""Bots chosen at creation play on the server, at the strength asked for, without holding up requests."""

from __future__ import annotations

import time

import pytest
from conftest import wait_for

from mysticvale.bots import bot_names

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _need(name):
    if name not in bot_names():
        pytest.skip(f"the {name} bot is not available in this build")


def test_thinking_time_only_for_bots_that_take_it(sqlite_client):
    _need("greedy")
    r = sqlite_client.post("/api/games", json={"players": 2, "bots": {"1": "greedy:0.5"}})
    assert r.status_code == 422 and "thinking time" in r.json()["detail"]
    r = sqlite_client.post("/api/games", json={"players": 2, "bots": {"1": "greedy"}})
    assert r.status_code == 201


def test_searching_bot_does_not_block_the_server(sqlite_client):
    _need("ismcts")
    c = sqlite_client
    r = c.post("/api/games", json={"players": 2, "seed": 3, "bots": {"0": "ismcts:1", "1": "ismcts:1"}})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    assert r.json()["seats"][0]["bot"] == "ismcts:1"
    session = c.app.state.manager.get(gid)
    wait_for(lambda: session.bot_busy)
    # The bots think 1 s per decision meanwhile.  A request answered while the game stayed at one
    # version was answered during a search, not after it: a server that waited for the bots would
    # answer every request only once a move was made (seq changed), whatever the machine's load.
    # (How long a request took is not measured: on a loaded machine any request may take long,
    # whether or not the bots block the server; the versions tell the two apart.)
    during = []
    end = time.monotonic() + 2.5
    while time.monotonic() < end or not during:
        at = session.seq
        assert c.get(f"/api/games/{gid}/summary").status_code == 200
        during.append(session.seq == at)
        time.sleep(0.02)            # (a pace, so as not to crowd the searching worker off the cores)
    assert sum(during) >= len(during) / 2, f"{sum(during)} of {len(during)} requests were answered during a search"
    seq = wait_for(lambda: c.get(f"/api/games/{gid}/state").json()["seq"] >= 3)
    assert seq


def test_bot_games_share_the_workers_fairly(sqlite_url):
    from mysticvale.server import Storage
    from mysticvale.server.sessions import SessionManager

    store = Storage(sqlite_url)
    mgr = SessionManager(store, bot_workers=1, bot_threads=1)
    try:
        a, _ = mgr.create(2, ["base"], False, "yucata", {0: "random", 1: "random"})
        b, _ = mgr.create(2, ["base"], False, "yucata", {0: "random", 1: "random"})
        wait_for(lambda: a.game.is_over() or b.game.is_over())
        # one worker, two games: they moved in turns, so the other game is well under way too
        assert min(a.seq, b.seq) > 0.5 * max(a.seq, b.seq)
    finally:
        mgr.close()
        store.close()
