"""A person's live lobby (issue 15): ``WS /api/people/me/ws`` tells of every change to their games."""

from __future__ import annotations

import pytest
from social_helpers import act, create, key, person, state
from waiting import PATIENCE

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _until(ws, predicate, limit: int = 200) -> dict:
    for _ in range(limit):
        msg = ws.receive_json()
        if predicate(msg):
            return msg
    raise AssertionError("no such message")


def test_the_lobby_socket_sends_the_list_then_each_changed_or_new_game(client):
    a, b = person(client, "Anna"), person(client, "Bob")
    g = create(client, a, seed=31)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    with client.websocket_connect("/api/people/me/ws") as ws:
        ws.send_json({"type": "hello", "key": a["key"]})
        first = ws.receive_json()
        assert first["type"] == "games" and [r["id"] for r in first["games"]] == [gid]
        assert first["games"][0]["token"] == tokens[0]
        # Bob claims the other seat: Anna's row now shows his name
        assert client.post(f"/api/games/{gid}/claim", json={"token": tokens[1]}, headers=key(b)).status_code == 200
        msg = _until(ws, lambda m: m["type"] == "game" and m["game"]["players"][1]["name"] == "Bob")
        assert msg["game"]["id"] == gid and msg["game"]["invitations"] == []
        # a move: whoever acts, Anna hears of the new position
        seat = state(client, gid)["observation"]["acting_player"]
        after = act(client, gid, tokens[seat])
        msg = _until(ws, lambda m: m["type"] == "game" and m["game"]["current_player"] == after["observation"][
            "acting_player"] and m["game"]["updated_at"] > first["games"][0]["updated_at"])
        assert msg["game"]["id"] == gid
        # a chat message counts as activity
        assert client.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers=key(b)).status_code == 201
        _until(ws, lambda m: m["type"] == "game" and m["game"]["chat_messages"] == 1)
        # a new game of Anna's appears
        other = create(client, a, seed=32)
        msg = _until(ws, lambda m: m["type"] == "game" and m["game"]["id"] == other["id"])
        assert msg["game"]["seat"] == 0
        ws.send_json({"type": "ping"})
        _until(ws, lambda m: m["type"] == "pong")


def test_the_lobby_socket_never_tells_of_other_peoples_games(client):
    a, c = person(client, "Anna"), person(client, "Cleo")
    create(client, a)
    # the key offered as a subprotocol, as the game's socket takes seat tokens
    with client.websocket_connect("/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key." + c["key"]]) \
            as ws:
        assert ws.accepted_subprotocol == "mysticvale"
        assert ws.receive_json() == {"type": "games", "games": []}
        mine = create(client, c)
        create(client, a)                        # Anna's new game is not Cleo's business
        msg = ws.receive_json()
        assert msg["type"] == "game" and msg["game"]["id"] == mine["id"]
        assert client.app.state.social.wait_idle(PATIENCE)
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}     # nothing came in between


@pytest.mark.parametrize("hello, code", [
    ({"type": "hello", "key": "nobody's"}, 4403), ({"type": "hello"}, 4401), ({"key": "x"}, 4401), ([1], 4401),
])
def test_the_lobby_socket_wants_a_key_first(client, hello, code):
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/api/people/me/ws") as ws:
        ws.send_json(hello)
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == code - 4000
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == code
    with client.websocket_connect("/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key.nobody"]) as ws:
        msg = ws.receive_json()
        assert msg["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


def test_the_lobby_socket_closes_without_a_key_in_time(client, monkeypatch):
    from starlette.websockets import WebSocketDisconnect

    from mysticvale.server import people_api

    monkeypatch.setattr(people_api, "HELLO_TIMEOUT", 0.2)
    with client.websocket_connect("/api/people/me/ws") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["status"] == 401
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
