"""A seat's credential belongs to the person in it (issue 22, findings 1 and 2).

The creator of a game, or anybody who saw an invitation link, must not keep a seat's token once
somebody claimed the seat; a rematch gives each person a new token that only they can read; and a
replaced key (or "sign out everywhere") closes its sockets and replaces every token it could read.
Over SQLite and PostgreSQL.
"""

from __future__ import annotations

import json

import pytest
from conftest import choose
from social_helpers import create, key, my_games, person
from starlette.websockets import WebSocketDisconnect

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _game_socket(client, gid: str, token: str | None = None):
    protocols = ["mysticvale"] + ([f"mysticvale.token.{token}"] if token else [])
    return client.websocket_connect(f"/api/games/{gid}/ws?since=-1", subprotocols=protocols)


def _lobby(client, who: dict):
    return client.websocket_connect("/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key." + who["key"]])


def _closed_with(ws, code: int, status: int) -> None:
    """The socket is told ``status`` (other messages may come first) and then closed with ``code``."""
    for _ in range(200):
        try:
            msg = ws.receive_json()
        except WebSocketDisconnect as closed:
            assert closed.code == code
            return
        if msg.get("type") == "error":
            assert msg["status"] == status, msg
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == code
            return
    raise AssertionError("the socket stayed open")


def _seat_of(client, gid: str, token: str) -> int | None:
    r = client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    return r.json()["seat"]


def test_a_claim_gives_the_claimant_a_fresh_token_and_ends_the_invitation(client):
    anna, bob = person(client, "Anna"), person(client, "Bob")
    g = create(client, anna, seed=12)
    gid, invitation = g["id"], g["seats"][1]["token"]
    assert invitation                                   # the creator holds the invitation until it is claimed
    with _game_socket(client, gid, invitation) as kept, _lobby(client, anna) as lobby:
        assert kept.receive_json()["type"] == "full"
        assert lobby.receive_json()["type"] == "games"
        r = client.post(f"/api/games/{gid}/claim", json={"token": invitation}, headers=key(bob))
        assert r.status_code == 200, r.text
        fresh = r.json()["token"]
        assert fresh != invitation and _seat_of(client, gid, fresh) == 1
        # the socket opened with the invitation closes, and nothing more reaches it
        _closed_with(kept, 4410, 410)
        # Anna's lobby hears of the claim; its rows carry Anna's own token only
        row = lobby.receive_json()
        while not (row["type"] == "game" and row["game"]["players"][1]["name"] == "Bob"):
            row = lobby.receive_json()
        assert fresh not in json.dumps(row)
    # the invitation is used: a clear 410 everywhere, never Bob's view
    for method, path, body in (("GET", "state", None), ("GET", "updates", None), ("POST", "chat", {"text": "hi"}),
                               ("POST", "actions", {"action": "push", "seq": 0})):
        r = client.request(method, f"/api/games/{gid}/{path}", headers={"X-Seat-Token": invitation}, json=body)
        assert r.status_code == 410 and "already used" in r.json()["detail"], (path, r.status_code, r.text)
    with _game_socket(client, gid, invitation) as ws:
        _closed_with(ws, 4410, 410)
    # a third person with the used invitation cannot claim the seat (a clear answer, nothing changes)
    cleo = person(client, "Cleo")
    r = client.post(f"/api/games/{gid}/claim", json={"token": invitation}, headers=key(cleo))
    assert r.status_code == 410 and "already used" in r.json()["detail"]
    # Bob again with his own invitation (a second tab): his seat, his token
    r = client.post(f"/api/games/{gid}/claim", json={"token": invitation}, headers=key(bob))
    assert r.status_code == 200 and r.json()["new"] is False and r.json()["token"] == fresh
    # nothing Anna reads holds Bob's token
    anna_reads = [client.get("/api/people/me/games", headers=key(anna)).text,
                  client.get(f"/api/people/me/games/{gid}", headers=key(anna)).text]
    assert all(fresh not in text for text in anna_reads)


def test_an_open_seats_token_ends_at_its_claim(client):
    anna, bob = person(client, "Anna"), person(client, "Bob")
    g = create(client, anna, open_seats=[1], seed=13)
    gid = g["id"]
    from social_helpers import engine
    import sqlalchemy as sa
    with engine(client).connect() as conn:
        open_token = conn.execute(sa.text("SELECT token FROM invitations WHERE game_id = :g AND seat = 1"),
                                  {"g": gid}).scalar()
    assert _seat_of(client, gid, open_token) == 1
    fresh = client.post(f"/api/games/{gid}/claim", json={"seat": 1}, headers=key(bob)).json()["token"]
    assert fresh != open_token and _seat_of(client, gid, fresh) == 1
    assert client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": open_token}).status_code == 410


def test_a_rematch_gives_each_person_a_token_only_they_can_read(client):
    anna, bob = person(client, "Anna"), person(client, "Bob")
    g = create(client, anna, seed=24)
    gid, invitation = g["id"], g["seats"][1]["token"]
    bob_token = client.post(f"/api/games/{gid}/claim", json={"token": invitation}, headers=key(bob)).json()["token"]
    anna_token = g["seats"][0]["token"]
    session = client.app.state.manager.get(gid)
    for _ in range(3000):                               # play the game to its end on the server
        game = session.game
        if game.is_over():
            break
        legal = [str(a) for a in game.legal_actions()]
        session.act(game.current_player, choose(session.seq, legal, 8), session.seq)
    assert session.game.is_over()
    # the used invitation cannot ask for the rematch
    r = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": invitation})
    assert r.status_code == 410
    new = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": anna_token}).json()
    rid = new["id"]
    anna_new = new["seats"][0]["token"]
    assert anna_new and anna_new != anna_token and new["seats"][1]["token"] is None
    # Bob reads his rematch token with his key; it is new, and in nothing Anna receives
    bob_new = next(r for r in my_games(client, bob) if r["id"] == rid)["token"]
    assert bob_new and bob_new not in (bob_token, invitation, anna_new)
    assert _seat_of(client, rid, bob_new) == 1 and _seat_of(client, rid, anna_new) == 0
    anna_reads = json.dumps([new, my_games(client, anna),
                             client.post(f"/api/games/{gid}/rematch", json={},
                                         headers={"X-Seat-Token": anna_token}).json()])
    assert bob_new not in anna_reads and bob_token not in anna_reads
    # asked again by Bob with his old token: the same token as his key reads
    again = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": bob_token}).json()
    assert again["id"] == rid and again["seats"][1]["token"] == bob_new


@pytest.mark.parametrize("route", ["/api/people/me/key", "/api/people/me/sign-out-everywhere"])
def test_a_new_key_closes_the_old_keys_sockets_and_replaces_the_tokens_it_could_read(client, route):
    # (Anna's key is the newest credential: SQLite gives her new key the number of the ended one)
    bob = person(client, "Bob")
    anna = person(client, "Anna")
    g = create(client, anna, players=3, seed=15)       # seat 2 stays an invitation Anna keeps
    gid, invitation2 = g["id"], g["seats"][2]["token"]
    bob_token = client.post(f"/api/games/{gid}/claim", json={"token": g["seats"][1]["token"]},
                            headers=key(bob)).json()["token"]
    anna_token = g["seats"][0]["token"]
    with _lobby(client, anna) as lobby, _game_socket(client, gid, anna_token) as seat0, \
            _game_socket(client, gid, invitation2) as seat2, _game_socket(client, gid, bob_token) as seat1:
        assert lobby.receive_json()["type"] == "games"
        for ws in (seat0, seat2, seat1):
            assert ws.receive_json()["type"] == "full"
        r = client.post(route, headers=key(anna))
        assert r.status_code == 200, r.text
        new_key = r.json()["key"]
        # the old key's lobby socket and the sockets of the tokens it could read close at once
        _closed_with(lobby, 4410, 410)
        _closed_with(seat0, 4410, 410)
        _closed_with(seat2, 4410, 410)
        # Bob's seat is not Anna's: his socket stays and still plays
        seat1.send_json({"type": "chat", "text": "still here"})
        msg = seat1.receive_json()
        while msg["type"] != "chat":
            msg = seat1.receive_json()
        assert msg["message"]["text"] == "still here"
    assert client.get("/api/people/me", headers=key(anna)).status_code == 403
    for old in (anna_token, invitation2):
        r = client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": old})
        assert r.status_code == 410 and "replaced" in r.json()["detail"]
    # the new key reads the new tokens, which work
    [row] = my_games(client, {"key": new_key})
    assert row["token"] not in (anna_token, None) and _seat_of(client, gid, row["token"]) == 0
    [inv] = row["invitations"]
    assert inv["seat"] == 2 and inv["token"] != invitation2 and _seat_of(client, gid, inv["token"]) == 2
    assert _seat_of(client, gid, bob_token) == 1
    with _lobby(client, anna) as old_lobby:             # the old key opens no lobby any more
        _closed_with(old_lobby, 4403, 403)
