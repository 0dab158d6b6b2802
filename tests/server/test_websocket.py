"""WebSocket: two seats connected at once both get every change, each only its own view."""

from __future__ import annotations

import time

import mysticvale as mv
import pytest
from conftest import choose, server_game
from starlette.websockets import WebSocketDisconnect

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _create(client, **body):
    body.setdefault("players", 2)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def _until_seq(ws, seq: int) -> dict:
    """Read state messages until one at ``seq`` (states may be merged when changes come fast)."""
    for _ in range(1000):
        msg = ws.receive_json()
        if msg["type"] == "applied":            # the acknowledgement of this socket's own action
            assert msg["applied_seq"] <= seq
            continue
        assert msg["type"] == "state", msg
        assert msg["seq"] <= seq, (msg["seq"], seq)
        if msg["seq"] == seq:
            return msg
    raise AssertionError(f"no state at seq {seq}")


def test_two_seats_get_updates_each_with_its_own_view(client):
    g = _create(client, seed=21)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    ref = server_game(players=2, seed=21)
    # seat 0 as old clients do (token in the query), seat 1 with the token offered as a subprotocol
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}") as ws0, \
            client.websocket_connect(f"/api/games/{gid}/ws",
                                     subprotocols=["mysticvale", "mysticvale.token." + tokens[1]]) as ws1, \
            client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        assert ws1.accepted_subprotocol == "mysticvale"
        first = [ws0.receive_json(), ws1.receive_json(), spectator.receive_json()]
        assert [m["seat"] for m in first] == [0, 1, None]
        assert [m["observation"] for m in first] == [ref.observe(0), ref.observe(1), ref.observe(None)]
        assert first[0]["observation"] != first[1]["observation"]    # own deck contents differ
        sockets = (ws0, ws1)
        for step in range(30):
            seat = ref.current_player
            legal = [str(a) for a in ref.legal_actions()]
            action = choose(step, legal, salt=2)
            if step % 2:    # alternate: over the socket, and over HTTP
                sockets[seat].send_json({"type": "action", "action": action, "seq": step})
            else:
                r = client.post(f"/api/games/{gid}/actions", json={"action": action, "seq": step},
                                headers={"X-Seat-Token": tokens[seat]})
                assert r.status_code == 200, r.text
            ref.apply_action(action)
            for viewer, ws in ((0, ws0), (1, ws1), (None, spectator)):
                msg = _until_seq(ws, step + 1)
                assert msg["seat"] == viewer
                assert msg["observation"] == ref.observe(viewer)
                assert msg["log"] == ref.log(viewer)
                mine = viewer is not None and ref.current_player == viewer
                assert msg["legal_actions"] == ([str(a) for a in ref.legal_actions()] if mine else [])


def test_socket_errors(client):
    g = _create(client, seed=22)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    acting = client.get(f"/api/games/{gid}/state").json()["observation"]["acting_player"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[acting]}") as ws:
        assert ws.receive_json()["seq"] == 0
        ws.send_json({"type": "action", "action": "buy 3.3", "seq": 0})
        err = ws.receive_json()
        assert err["type"] == "error" and err["status"] == 409 and "not legal" in err["message"]
        ws.send_json({"type": "action", "action": "push", "seq": 5})
        err = ws.receive_json()
        assert err["status"] == 409 and "stale" in err["message"]
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["status"] == 422
        ws.send_text("not json")
        assert ws.receive_json()["status"] == 422
        ws.send_json({"type": "action", "action": 3})
        assert ws.receive_json()["status"] == 422
        ws.send_json({"type": "undo"})
        assert ws.receive_json()["status"] == 422         # no seq: a retried undo must not undo twice
        ws.send_json({"type": "undo", "seq": 0})
        assert ws.receive_json()["status"] == 409
        ws.send_json({"type": "action", "action": "push", "seq": 0})
        assert _until_seq(ws, 1)["seq"] == 1
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        spectator.receive_json()
        spectator.send_json({"type": "action", "action": "pass"})
        assert spectator.receive_json()["status"] == 403
    for url, code in ((f"/api/games/{gid}/ws?token=wrong", 4403), ("/api/games/nope/ws", 4404)):
        with client.websocket_connect(url) as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["status"] == code - 4000
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == code


def test_bot_moves_are_pushed_and_reconnect_gets_the_current_state(client):
    g = _create(client, seed=23, bots={"1": "random"})
    gid, token = g["id"], g["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={token}") as ws:
        msg = ws.receive_json()
        while not msg["legal_actions"]:          # the bot may move first
            msg = ws.receive_json()
        turn = msg["observation"]["turn_number"]
        # play the human's turn; the bot's moves then arrive without asking
        while msg["observation"]["current_player"] == 0 and not msg["observation"]["over"]:
            if msg["legal_actions"]:
                ws.send_json({"type": "action", "action": choose(msg["seq"], msg["legal_actions"], 4),
                              "seq": msg["seq"]})
            msg = ws.receive_json()
            while msg["type"] == "applied":
                msg = ws.receive_json()
            assert msg["type"] == "state", msg
        seen_bot = msg["observation"]["current_player"] == 1
        while msg["type"] == "applied" or (not msg["legal_actions"] and not msg["observation"]["over"]):
            msg = ws.receive_json()
        assert seen_bot and msg["observation"]["turn_number"] > turn
        last = msg
    with client.websocket_connect(f"/api/games/{gid}/ws?token={token}") as ws:
        again = ws.receive_json()
        assert again["seq"] == last["seq"] and again["observation"] == last["observation"]


def test_a_change_on_the_socket_is_answered_with_its_ref_and_counts_once(client):
    # The browser plays on its socket and numbers its changes ("ref"); each answer repeats the
    # number.  A change whose answer was lost is sent again by POST at the same seq: repeated,
    # not applied twice.
    g = _create(client, seed=22)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    acting = client.get(f"/api/games/{gid}/state").json()["observation"]["acting_player"]
    with client.websocket_connect(f"/api/games/{gid}/ws?since=-1",
                                  subprotocols=["mysticvale", "mysticvale.token." + tokens[acting]]) as ws:
        assert ws.receive_json()["type"] == "full"

        def answer():
            while True:
                msg = ws.receive_json()
                if msg["type"] in ("applied", "error"):
                    return msg

        ws.send_json({"type": "action", "action": "buy 3.3", "seq": 0, "ref": 7})
        err = answer()
        assert err["status"] == 409 and err["ref"] == 7
        for bad in ("7", -1, 2 ** 31, True, 1.5):           # not a ref: answered without one
            ws.send_json({"type": "undo", "seq": 0, "ref": bad})
            assert "ref" not in answer()
        ws.send_json({"type": "action", "action": "push", "seq": 0, "ref": 8})
        ok = answer()
        assert ok == {"type": "applied", "applied_seq": 1, "repeated": False, "ref": 8}
        r = client.post(f"/api/games/{gid}/actions?since=0", json={"action": "push", "seq": 0},
                        headers={"X-Seat-Token": tokens[acting]})
        assert r.status_code == 200 and r.json()["repeated"] is True and r.json()["applied_seq"] == 1
        assert client.get(f"/api/games/{gid}/state").json()["seq"] == 1
        ws.send_json({"type": "undo", "seq": 1, "ref": 9})     # the push showed a card: no undo
        refused = answer()
        assert refused["ref"] == 9 and refused["status"] == 409


@pytest.mark.parametrize("protocol2", [False, True])
def test_the_answer_to_a_change_comes_before_the_push_of_its_version(sqlite_client, monkeypatch, protocol2):
    # docs/protocol.md: a socket's own change is answered ("applied") before the push of the version
    # it made.  The thread that applies the change wakes the socket's pusher before it returns; here
    # it is made slow to return after that (as a loaded machine may make it), which used to let the
    # push overtake the answer.
    client = sqlite_client
    g = _create(client, seed=22)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    session = client.app.state.manager.get(gid)
    wake = session._on_change

    def slow_to_return(*args):
        wake(*args)
        time.sleep(0.3)

    monkeypatch.setattr(session, "_on_change", slow_to_return)
    acting = client.get(f"/api/games/{gid}/state").json()["observation"]["acting_player"]
    with client.websocket_connect(f"/api/games/{gid}/ws" + ("?since=-1" if protocol2 else ""),
                                  subprotocols=["mysticvale", "mysticvale.token." + tokens[acting]]) as ws:
        assert ws.receive_json()["seq"] == 0
        for seq in range(3):
            st = client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[acting]}).json()
            if not st["legal_actions"]:
                break
            ws.send_json({"type": "action", "action": choose(seq, st["legal_actions"], 5), "seq": seq, "ref": seq})
            assert ws.receive_json() == {"type": "applied", "applied_seq": seq + 1, "repeated": False, "ref": seq}
            pushed = ws.receive_json()
            assert pushed["type"] == ("delta" if protocol2 else "state") and pushed["seq"] == seq + 1
