"""Two server processes on one PostgreSQL database (issue 15): chat messages, claims and moves made
on one process reach the table and lobby sockets connected to the other (cluster channel
``mysticvale_social``, server/cluster.py; the receiving process re-reads them from the database)."""

from __future__ import annotations

import json
import time

import httpx
import pytest
from conftest import ServerProcess, _fresh_pg_database
from waiting import HTTP_TIMEOUT, PATIENCE
from websockets.sync.client import connect

MARKUP = "<script>alert(1)</script> & <b>hi</b>"


def until(ws, wanted, timeout: float = PATIENCE) -> dict:
    """The first message on ``ws`` for which ``wanted(message)`` is true (others are skipped)."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError("the message did not come")
        try:
            msg = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            continue
        if wanted(msg):
            return msg


@pytest.fixture
def servers(tmp_path, pg_url):
    database = _fresh_pg_database(pg_url)
    procs = [ServerProcess(tmp_path / name, database) for name in ("a", "b")]
    try:
        for p in procs:
            p.data_dir.mkdir()
            p.start()
        yield procs
    finally:
        for p in procs:
            p.kill()


def test_chat_claims_and_moves_reach_the_other_process(servers):
    a, b = servers
    ws_a, ws_b = (s.base.replace("http://", "ws://") for s in servers)
    post = lambda srv, path, **kw: httpx.post(srv.base + path, timeout=HTTP_TIMEOUT, **kw)
    anna = post(a, "/api/people", json={"name": "Anna"}).json()
    bob = post(a, "/api/people", json={"name": "Bob"}).json()
    g = post(a, "/api/games", json={"players": 2, "seed": 5}, headers={"X-Player-Key": anna["key"]}).json()
    g2 = post(a, "/api/games", json={"players": 2, "seed": 6}, headers={"X-Player-Key": anna["key"]}).json()
    gid, t0, t1 = g["id"], g["seats"][0]["token"], g["seats"][1]["token"]
    with connect(f"{ws_b}/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key." + bob["key"]],
                 open_timeout=HTTP_TIMEOUT) as lobby_b, \
            connect(f"{ws_b}/api/games/{gid}/ws", subprotocols=["mysticvale"], open_timeout=HTTP_TIMEOUT) as table_b, \
            connect(f"{ws_a}/api/games/{gid}/ws", subprotocols=["mysticvale", "mysticvale.token." + t0],
                    open_timeout=HTTP_TIMEOUT) as table_a:
        assert until(lobby_b, lambda m: m["type"] == "games")["games"] == []
        until(table_b, lambda m: m["type"] == "state")
        until(table_a, lambda m: m["type"] == "state")
        # a claim on A: B's table hears who sits where, and Bob's lobby on B gets his new game
        r = post(a, f"/api/games/{gid}/claim", json={"token": t1}, headers={"X-Player-Key": bob["key"]})
        assert r.status_code == 200, r.text
        invitation, t1 = t1, r.json()["token"]          # the claim's fresh token (issue 22)
        seats = until(table_b, lambda m: m["type"] == "seats")["seats"]
        assert [(s["name"], s["claimed"]) for s in seats] == [("Anna", True), ("Bob", True)]
        row = until(lobby_b, lambda m: m["type"] == "game" and m["game"]["id"] == gid)["game"]
        assert row["seat"] == 1 and row["token"] == t1 and [p["name"] for p in row["players"]] == ["Anna", "Bob"]
        # B, which holds the game in memory, takes the new token and refuses the used invitation
        r = httpx.get(f"{b.base}/api/games/{gid}/state", headers={"X-Seat-Token": invitation}, timeout=HTTP_TIMEOUT)
        assert r.status_code == 410 and "already used" in r.json()["detail"]
        # a chat message on A reaches the table on B, as written, and Bob's lobby row counts it
        r = post(a, f"/api/games/{gid}/chat", json={"text": MARKUP}, headers={"X-Seat-Token": t0})
        assert r.status_code == 201, r.text
        chat = until(table_b, lambda m: m["type"] == "chat")
        assert chat == {"type": "chat", "message": r.json()} and chat["message"]["text"] == MARKUP
        assert until(table_a, lambda m: m["type"] == "chat") == chat         # and A's own table, directly
        assert until(lobby_b, lambda m: m["type"] == "game" and m["game"]["chat_messages"] == 1)["game"]["id"] == gid
        # and the other way: a message written over a seat's socket on B reaches the table on A
        with connect(f"{ws_b}/api/games/{gid}/ws", subprotocols=["mysticvale", "mysticvale.token." + t1],
                     open_timeout=HTTP_TIMEOUT) as bob_b:
            until(bob_b, lambda m: m["type"] == "state")
            bob_b.send(json.dumps({"type": "chat", "text": "gg, Anna"}))
            mine = until(bob_b, lambda m: m["type"] in ("chat", "error"))
            heard = until(table_a, lambda m: m["type"] == "chat")
        assert mine == heard and heard["message"]["text"] == "gg, Anna" and heard["message"]["name"] == "Bob"
        # a move on A in a game B does not hold in memory: Bob's lobby on B gets its row again
        r = post(a, f"/api/games/{g2['id']}/claim", json={"token": g2["seats"][1]["token"]},
                 headers={"X-Player-Key": bob["key"]})
        assert r.status_code == 200, r.text
        g2["seats"][1]["token"] = r.json()["token"]
        before = until(lobby_b, lambda m: m["type"] == "game" and m["game"]["id"] == g2["id"])["game"]
        st = httpx.get(f"{a.base}/api/games/{g2['id']}/state", timeout=HTTP_TIMEOUT).json()
        seat = st["observation"]["acting_player"]
        token = g2["seats"][seat]["token"]
        legal = httpx.get(f"{a.base}/api/games/{g2['id']}/state", headers={"X-Seat-Token": token},
                          timeout=HTTP_TIMEOUT).json()["legal_actions"]
        r = post(a, f"/api/games/{g2['id']}/actions", json={"action": legal[0], "seq": st["seq"]},
                 headers={"X-Seat-Token": token})
        assert r.status_code == 200, r.text
        # (the claim may bring a second row first: its seats note and its activity note can come apart)
        after = until(lobby_b, lambda m: m["type"] == "game" and m["game"]["id"] == g2["id"]
                      and m["game"]["updated_at"] > before["updated_at"])["game"]
        assert after["updated_at"] > before["updated_at"]
    stored = httpx.get(f"{b.base}/api/games/{gid}/chat", timeout=HTTP_TIMEOUT).json()
    assert [m["text"] for m in stored["messages"]] == [MARKUP, "gg, Anna"]


def test_open_tables_and_table_names_reach_the_other_process(servers):
    """(issue 21) A public table made on A appears in a lobby on B that asked for the open tables, a
    join on A takes it off that list, and the host's new name on A reaches B's table socket."""
    a, b = servers
    ws_b = b.base.replace("http://", "ws://")
    post = lambda srv, path, **kw: httpx.post(srv.base + path, timeout=HTTP_TIMEOUT, **kw)
    anna = post(a, "/api/people", json={"name": "Anna"}).json()
    bob = post(a, "/api/people", json={"name": "Bob"}).json()
    cleo = post(b, "/api/people", json={"name": "Cleo"}).json()
    with connect(f"{ws_b}/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key." + cleo["key"]],
                 open_timeout=HTTP_TIMEOUT) as lobby_b:
        until(lobby_b, lambda m: m["type"] == "games")
        lobby_b.send(json.dumps({"type": "tables"}))
        assert until(lobby_b, lambda m: m["type"] == "tables")["tables"] == []
        g = post(a, "/api/games", json={"players": 2, "seed": 7, "open_seats": [1], "public": True, "name": "Come"},
                 headers={"X-Player-Key": anna["key"]}).json()
        row = until(lobby_b, lambda m: m["type"] == "open_table")["table"]
        assert row["id"] == g["id"] and row["name"] == "Come" and row["seats_free"] == 1
        with connect(f"{ws_b}/api/games/{g['id']}/ws", subprotocols=["mysticvale"], open_timeout=HTTP_TIMEOUT) as table_b:
            until(table_b, lambda m: m["type"] == "state")
            r = httpx.patch(a.base + f"/api/games/{g['id']}/table", json={"name": "Come in"}, timeout=HTTP_TIMEOUT,
                            headers={"X-Player-Key": anna["key"]})
            assert r.status_code == 200, r.text
            assert until(table_b, lambda m: m["type"] == "table")["table"]["name"] == "Come in"
        assert post(a, f"/api/tables/{g['id']}/join", headers={"X-Player-Key": bob["key"]}).status_code == 200
        assert until(lobby_b, lambda m: m["type"] == "open_table_gone")["id"] == g["id"]
