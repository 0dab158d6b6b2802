"""Tables with names, and the open tables anyone may join without a link (issue 21), over SQLite
and PostgreSQL: names and their rules, the host's changes, the list and its live updates on the
lobby's socket, joining, and the bounds on what one client may take."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from meeting_helpers import finish, settle
from social_helpers import create, key, my_games, person
from test_people_socket import _until

from mysticvale.server import create_app
from mysticvale.server.limits import Limits
from mysticvale.server.tables_directory import HOSTED_MAX, JOINED_MAX, NAME_MAX, JoinLimiter, JoinLimits

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _public(client, host: dict, players: int = 2, **body) -> dict:
    return create(client, host, players=players, open_seats=list(range(1, players)), public=True, **body)


def _ids(client) -> list[str]:
    r = client.get("/api/tables")
    assert r.status_code == 200, r.text
    return [t["id"] for t in r.json()["tables"]]


# -- names ---------------------------------------------------------------------------------------
def test_a_table_is_named_by_its_host_or_after_its_people(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    plain = create(client, anna, open_seats=[1])
    named = create(client, anna, name="  Friday   night  ", seed=12)
    assert client.get(f"/api/games/{named['id']}/table").json()["name"] == "Friday night"     # trimmed, spaces one
    t = client.get(f"/api/games/{plain['id']}/table").json()
    assert t["name"] is None and t["title"] == "Anna's table" and t["public"] is False
    assert client.post(f"/api/games/{plain['id']}/claim", json={"seat": 1}, headers=key(ben)).status_code == 200
    t = client.get(f"/api/games/{plain['id']}/table").json()
    assert t["title"] == "Anna vs. Ben" and [p["name"] for p in t["players"]] == ["Anna", "Ben"]
    assert t["players"][1]["person"] == ben["id"] and t["host"] == {"person": anna["id"], "name": "Anna", "rating": None}
    # the games list names each table
    rows = {r["id"]: r for r in my_games(client, anna)}
    assert rows[named["id"]]["name"] == "Friday night" and rows[plain["id"]]["name"] is None
    assert rows[plain["id"]]["players"][1]["person"] == ben["id"]


@pytest.mark.parametrize("name, why", [
    ("x" * (NAME_MAX + 1), f"at most {NAME_MAX}"), ("Anna\u202evs", "direction"), ("a\x00b", "control"),
    (7, "string"), ("\u3164\u3164", "invisible"), ("Za\u0301\u0302\u0303\u0304lgo", "stack"), ("\u2605 \u2605", "visible letter"),
])
def test_an_unfit_table_name_is_refused_and_nothing_is_made(client, name, why):
    anna = person(client, "Anna")
    r = client.post("/api/games", json={"players": 2, "name": name}, headers=key(anna))
    assert r.status_code == 422 and why in r.json()["detail"]
    assert my_games(client, anna) == []


def test_only_the_host_renames_the_table_and_its_sockets_hear_it(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    g = create(client, anna, open_seats=[1])
    gid = g["id"]
    client.post(f"/api/games/{gid}/claim", json={"seat": 1}, headers=key(ben))
    assert client.patch(f"/api/games/{gid}/table", json={"name": "Ours"}).status_code == 401
    r = client.patch(f"/api/games/{gid}/table", json={"name": "Ours"}, headers=key(ben))
    assert r.status_code == 403 and "host" in r.json()["detail"]
    assert client.patch(f"/api/games/{gid}/table", json={"name": "x" * 41}, headers=key(anna)).status_code == 422
    assert client.get(f"/api/games/{gid}/table").json()["name"] is None        # nothing changed
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.receive_json()                                                        # the first state
        r = client.patch(f"/api/games/{gid}/table", json={"name": "Rematch league"}, headers=key(anna))
        assert r.status_code == 200 and r.json()["title"] == "Rematch league"
        msg = _until(ws, lambda m: m.get("type") == "table")
        assert msg["table"] == {"name": "Rematch league", "public": False}
        # an empty name goes back to the people's names
        assert client.patch(f"/api/games/{gid}/table", json={"name": " "}, headers=key(anna)).json()["title"] == \
            "Anna vs. Ben"
        assert _until(ws, lambda m: m.get("type") == "table")["table"]["name"] is None


# -- open tables -----------------------------------------------------------------------------------
def test_a_public_table_is_listed_until_its_last_free_seat_is_taken(client):
    anna, ben, cleo = person(client, "Anna"), person(client, "Ben"), person(client, "Cleo")
    private = create(client, anna, open_seats=[1], seed=5)
    g = _public(client, anna, players=3, name="Come and play", seed=6)
    gid = g["id"]
    settle(client)
    assert _ids(client) == [gid]                               # the private table is not listed
    row = client.get("/api/tables").json()["tables"][0]
    assert row["title"] == "Come and play" and row["seats_free"] == 2 and row["host"]["name"] == "Anna"
    r = client.post(f"/api/tables/{gid}/join", headers=key(ben))
    assert r.status_code == 200 and r.json()["seat"] == 1 and r.json()["token"]
    assert r.json()["game"]["players"][1]["name"] == "Ben" and r.json()["game"]["public"] is True
    assert client.get("/api/tables").json()["tables"][0]["seats_free"] == 1
    again = client.post(f"/api/tables/{gid}/join", headers=key(ben))
    assert again.status_code == 409 and "already" in again.json()["detail"]
    assert client.post(f"/api/tables/{gid}/join", headers=key(cleo)).json()["seat"] == 2
    assert _ids(client) == []                                  # full: off the list
    full = client.post(f"/api/tables/{gid}/join", headers=key(person(client, "Dora")))
    assert full.status_code == 409 and "full" in full.json()["detail"]
    # a private table is joined only through its link
    assert client.post(f"/api/tables/{private['id']}/join", headers=key(cleo)).status_code == 404
    assert client.post(f"/api/tables/{gid}/join").status_code == 401


def test_a_public_table_needs_a_host_and_an_open_seat(client):
    anna = person(client, "Anna")
    r = client.post("/api/games", json={"players": 2, "public": True, "open_seats": [1]})
    assert r.status_code == 422 and "host" in r.json()["detail"]
    r = client.post("/api/games", json={"players": 2, "public": True}, headers=key(anna))
    assert r.status_code == 422 and "open seat" in r.json()["detail"]
    assert my_games(client, anna) == []


def test_the_host_makes_a_table_public_or_private(client):
    anna = person(client, "Anna")
    g = create(client, anna, open_seats=[1])
    assert _ids(client) == []
    r = client.patch(f"/api/games/{g['id']}/table", json={"public": True}, headers=key(anna))
    assert r.status_code == 200 and r.json()["public"] is True
    assert _ids(client) == [g["id"]]
    client.patch(f"/api/games/{g['id']}/table", json={"public": False}, headers=key(anna))
    assert _ids(client) == []


def test_one_host_keeps_only_a_few_tables_waiting(client):
    anna = person(client, "Anna")
    for seed in range(HOSTED_MAX):
        _public(client, anna, seed=40 + seed)
    r = client.post("/api/games", json={"players": 2, "public": True, "open_seats": [1]}, headers=key(anna))
    assert r.status_code == 409 and "host" in r.json()["detail"]
    assert len(_ids(client)) == HOSTED_MAX
    # a private table is still fine
    assert client.post("/api/games", json={"players": 2, "open_seats": [1]}, headers=key(anna)).status_code == 201


def test_one_client_cannot_take_every_seat_of_every_open_table(db_url):
    """Ten hosts' public tables; one client address makes names and joins as fast as it can: it gets
    at most ``joins_per_10min`` seats, and one person at most ``JOINED_MAX`` tables; the /claim route
    for an open seat of a public table counts the same."""
    with TestClient(create_app(db_url, allow_seed=True, limits=Limits(joins_per_10min=5))) as client:
        tables = []
        for i in range(10):
            host = person(client, f"Host {i}")
            tables.append(_public(client, host, players=4, seed=60 + i)["id"])
        taken = 0
        refused = None
        for i, gid in enumerate(tables):
            joiner = person(client, f"Greedy {i}")
            r = client.post(f"/api/tables/{gid}/join", headers=key(joiner))
            if r.status_code == 200:
                taken += 1
            else:
                refused = r
                break
        assert taken == 5 and refused.status_code == 429
        # the claim route by seat is the same door
        r = client.post(f"/api/games/{tables[-1]}/claim", json={"seat": 2}, headers=key(person(client, "Sly")))
        assert r.status_code == 429
        assert all(t["seats_free"] >= 2 for t in client.get("/api/tables").json()["tables"])


def test_one_person_sits_at_a_bounded_number_of_open_tables(sqlite_url):
    with TestClient(create_app(sqlite_url, allow_seed=True)) as client:
        ben = person(client, "Ben")
        # (the bounds on seats per 10 minutes are not what this test is about)
        client.app.state.join_limiter = JoinLimiter(JoinLimits(per_address=1000, per_person=1000))
        for i in range(JOINED_MAX):
            gid = _public(client, person(client, f"Host {i}"), seed=80 + i)["id"]
            assert client.post(f"/api/tables/{gid}/join", headers=key(ben)).status_code == 200
        gid = _public(client, person(client, "Host X"), seed=99)["id"]
        r = client.post(f"/api/tables/{gid}/join", headers=key(ben))
        assert r.status_code == 409 and str(JOINED_MAX) in r.json()["detail"]


def test_the_lobby_socket_follows_the_open_tables_when_asked(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    with client.websocket_connect("/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key." + ben["key"]]) \
            as ws:
        assert ws.receive_json()["type"] == "games"
        ws.send_json({"type": "tables"})
        assert _until(ws, lambda m: m["type"] == "tables")["tables"] == []
        g = _public(client, anna, players=3, seed=21)
        msg = _until(ws, lambda m: m["type"] == "open_table")
        assert msg["table"]["id"] == g["id"] and msg["table"]["seats_free"] == 2
        client.patch(f"/api/games/{g['id']}/table", json={"name": "Night owls"}, headers=key(anna))
        msg = _until(ws, lambda m: m["type"] == "open_table" and m["table"]["name"] == "Night owls")
        client.post(f"/api/tables/{g['id']}/join", headers=key(ben))
        msg = _until(ws, lambda m: m["type"] == "open_table" and m["table"]["seats_free"] == 1)
        assert msg["table"]["players"][1]["name"] == "Ben"
        client.post(f"/api/tables/{g['id']}/join", headers=key(person(client, "Cleo")))
        assert _until(ws, lambda m: m["type"] == "open_table_gone")["id"] == g["id"]


def test_a_lobby_that_does_not_ask_hears_nothing_of_open_tables(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    with client.websocket_connect("/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key." + ben["key"]]) \
            as ws:
        assert ws.receive_json() == {"type": "games", "games": []}
        _public(client, anna, seed=22)
        settle(client)
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


def test_a_rematch_keeps_the_tables_name(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    g = create(client, anna, open_seats=[1], name="Best of three", seed=31)
    client.post(f"/api/games/{g['id']}/claim", json={"seat": 1}, headers=key(ben))
    finish(client, g["id"])
    r = client.post(f"/api/games/{g['id']}/rematch", json={"token": g["seats"][0]["token"]})
    assert r.status_code == 200, r.text
    again = client.post(f"/api/games/{g['id']}/rematch", json={"token": g["seats"][0]["token"]})
    assert again.json()["id"] == r.json()["id"]
    t = client.get(f"/api/games/{r.json()['id']}/table").json()
    assert t["name"] == "Best of three" and t["public"] is False and t["title"] == "Best of three"


def test_a_new_public_table_merged_with_a_move_still_comes_to_the_open_tables(sqlite_url):
    """The people service merges a game's queued events; a new public table whose bot moves at once
    (its "new game" and the bot's move queued together, as on a loaded machine) must still be
    listed: the hooks hear the change besides the move (None) and the move."""
    from mysticvale.server.sessions import TurnInfo

    with TestClient(create_app(sqlite_url, allow_seed=True)) as client:
        social = client.app.state.social
        heard: list = []
        social.game_hooks.insert(0, lambda gid, info: heard.append((gid, info)))
        move = TurnInfo(game_id="g1", seq=1, current_player=0, turn=1, over=False)
        with social._cond:          # the service's thread waits while both are queued
            social._queue("g1", None)
            social._queue("g1", move)
            social._queue("g2", move)
            social._queue("g2", None)
            social._queue("g3", move)
        settle(client)
        assert [h for h in heard if h[0] == "g1"] == [("g1", None), ("g1", move)]
        assert [h for h in heard if h[0] == "g2"] == [("g2", None), ("g2", move)]
        assert [h for h in heard if h[0] == "g3"] == [("g3", move)]
        # and end to end: the table is listed
        host = person(client, "Hanna")
        gid = _public(client, host, players=3, seed=5)["id"]
        settle(client)
        assert gid in [t["id"] for t in client.get("/api/tables").json()["tables"]]
