"""One live session per game in a process: never dropped while in use, loaded once however many ask.

The issue's case: past the cache bound, a game held by a request, a WebSocket or a thinking bot was
dropped and loaded a second time; clients then read a stale copy, sockets got no pushes, bots failed.
"""

from __future__ import annotations

import threading
import time

import pytest
from conftest import wait_for
from fastapi.testclient import TestClient

from mysticvale.bots import bot_names
from mysticvale.server import Storage, create_app
from mysticvale.server.sessions import SessionManager, Unavailable

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _until(ws, predicate, limit=200):
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == "state" and predicate(msg):
            return msg
    raise AssertionError("no such message")


def test_games_in_use_stay_one_game_and_keep_pushing_while_the_cache_overflows(sqlite_url):
    if "ismcts" not in bot_names():
        pytest.skip("needs a searching bot")
    with TestClient(create_app(sqlite_url, allow_seed=True, max_cached=2, bot_workers=1)) as c:
        manager = c.app.state.manager
        # A: two humans, a socket open on seat 0.  B: a human and a bot that thinks 1 s per decision.
        a = c.post("/api/games", json={"players": 2, "seed": 31}).json()
        b = c.post("/api/games", json={"players": 2, "seed": 32, "bots": {"0": "ismcts:1", "1": "ismcts:1"}})
        assert b.status_code == 201
        b = b.json()
        session_a, session_b = manager.get(a["id"]), manager.get(b["id"])
        ta = [s["token"] for s in a["seats"]]
        with c.websocket_connect(f"/api/games/{a['id']}/ws",
                                 subprotocols=["mysticvale", "mysticvale.token." + ta[0]]) as ws:
            first = ws.receive_json()
            # A request holds a third game meanwhile.
            held_game = c.post("/api/games", json={"players": 2}).json()["id"]
            with manager.use(held_game) as held:
                wait_for(lambda: session_b.bot_busy)
                for _ in range(12):                 # the cache (2) overflows many times over
                    assert c.post("/api/games", json={"players": 2}).status_code == 201
                assert manager.loaded() >= 3
                assert manager.get(held_game) is held
            # the socket's game is the same session, and an action on it is pushed to the socket
            assert manager.get(a["id"]) is session_a
            acting = first["observation"]["acting_player"]
            st = c.get(f"/api/games/{a['id']}/state", headers={"X-Seat-Token": ta[acting]}).json()
            r = c.post(f"/api/games/{a['id']}/actions", json={"action": st["legal_actions"][0], "seq": st["seq"]},
                       headers={"X-Seat-Token": ta[acting]})
            assert r.status_code == 200, r.text
            assert _until(ws, lambda m: m["seq"] == 1)["seq"] == 1
        # the thinking bot's game is the same session, and its bots went on playing in it
        wait_for(lambda: session_b.seq >= 2)
        assert manager.get(b["id"]) is session_b and session_b.bot_error is None
        # (the bots go on moving meanwhile: the state served lies between the session's versions read
        # before and after the request)
        before = session_b.seq
        served = c.get(f"/api/games/{b['id']}/state").json()["seq"]
        assert before <= served <= session_b.seq
        # when nobody uses them any more, idle games are dropped down to the bound; the bots' game stays
        manager.release(manager.acquire(held_game))
        assert manager.loaded() <= 2 and b["id"] in manager._sessions


def test_a_game_is_loaded_once_however_many_ask_at_once(sqlite_url, monkeypatch):
    store = Storage(sqlite_url)
    maker = SessionManager(store, allow_seed=True)
    gid = maker.create(2, ["base"], False, "yucata", {}, seed=3)[0].id
    maker.close()
    manager = SessionManager(store)
    loads = []
    real = store.load

    def slow_load(game_id):
        loads.append(game_id)
        time.sleep(0.3)             # every request below arrives while the first is loading
        return real(game_id)

    monkeypatch.setattr(store, "load", slow_load)
    got: list = []
    threads = [threading.Thread(target=lambda: got.append(manager.acquire(gid))) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(loads) == 1 and len(got) == 8 and all(s is got[0] for s in got)
    assert got[0].users == 8
    manager.close()
    store.close()


def test_at_the_memory_bound_a_new_game_waits_with_503_and_nothing_is_duplicated(sqlite_url):
    store = Storage(sqlite_url)
    manager = SessionManager(store, max_cached=1, max_live=2)
    ids = [manager.create(2, ["base"], False, "yucata", {})[0].id for _ in range(3)]
    first, second = manager.acquire(ids[0]), manager.acquire(ids[1])
    with pytest.raises(Unavailable) as full:
        manager.acquire(ids[2])
    assert "try again" in full.value.message
    assert manager.acquire(ids[0]) is first          # games in use are still served
    manager.release(first)
    manager.release(first)
    third = manager.acquire(ids[2])                  # the idle one made room
    assert manager.loaded() == 2 and ids[0] not in manager._sessions and third is not second
    manager.close()
    store.close()


def test_a_second_server_on_one_sqlite_file_is_refused(sqlite_url):
    from mysticvale.server.cluster import SecondServer

    with TestClient(create_app(sqlite_url)):
        with pytest.raises(SecondServer) as second:
            with TestClient(create_app(sqlite_url)):
                pass
        assert "PostgreSQL" in str(second.value)
