"""The game's table socket carries the chat and who sits where (issue 15), and a rematch keeps the names.

Over SQLite and PostgreSQL (one process; two processes are tests/server/test_social_cluster.py).
"""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa
from conftest import choose, wait_for
from social_helpers import count, create, dump, engine, key, my_games, person

from mysticvale.server import chat as chat_limits
from mysticvale.server.people import People

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

MARKUP = "<script>alert('x')</script> <img src=x onerror=alert(1)> &amp; <b>bold</b>\n\t✨"


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


def until(ws, kind: str, limit: int = 200) -> dict:
    """The next message of type ``kind`` on the socket (states, deltas and acknowledgements skipped)."""
    for _ in range(limit):
        msg = ws.receive_json()
        if msg["type"] == kind:
            return msg
        assert msg["type"] in ("state", "full", "delta", "applied"), msg
    raise AssertionError(f"no {kind} message")


def socket(client, gid: str, token: str | None = None, protocol2: bool = False):
    protocols = ["mysticvale"] + ([f"mysticvale.token.{token}"] if token else [])
    return client.websocket_connect(f"/api/games/{gid}/ws" + ("?since=-1" if protocol2 else ""),
                                    subprotocols=protocols)


@pytest.fixture
def table(client):
    """Anna (seat 0, creator, by key) and Bob (seat 1, claimed) in a two-player game."""
    a, b = person(client, "Anna"), person(client, "Bob")
    g = create(client, a)
    tokens = [s["token"] for s in g["seats"]]
    r = client.post(f"/api/games/{g['id']}/claim", json={"token": tokens[1]}, headers=key(b))
    assert r.status_code == 200
    tokens[1] = r.json()["token"]           # the claim gave Bob a fresh token (issue 22)
    return {"gid": g["id"], "tokens": tokens, "a": a, "b": b}


def test_chat_over_the_socket_reaches_every_table_socket_as_text(client, table):
    gid, tokens = table["gid"], table["tokens"]
    with socket(client, gid, tokens[0]) as ws0, socket(client, gid, tokens[1], protocol2=True) as ws1, \
            socket(client, gid) as spectator:
        for ws in (ws0, ws1, spectator):
            ws.receive_json()                       # the first state: the table feed is subscribed
        ws0.send_json({"type": "chat", "text": MARKUP})
        got = [until(ws, "chat") for ws in (ws0, ws1, spectator)]
        ws1.send_json({"type": "chat", "text": "gg"})
        second = [until(ws, "chat") for ws in (ws0, ws1, spectator)]
    stored = client.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [m["text"] for m in stored] == [MARKUP, "gg"]            # byte for byte, markup and all
    assert got == [{"type": "chat", "message": stored[0]}] * 3
    assert second == [{"type": "chat", "message": stored[1]}] * 3
    assert (stored[0]["seat"], stored[0]["name"], stored[1]["seat"], stored[1]["name"]) == (0, "Anna", 1, "Bob")
    wait_for(lambda: client.app.state.social.hub.listening("game") == set())   # feeds ended too


def test_a_spectator_or_an_unfit_text_is_refused_and_nothing_is_stored(client, table):
    gid = table["gid"]
    before = dump(client)
    with socket(client, gid) as spectator, socket(client, gid, table["tokens"][0]) as ws0:
        spectator.receive_json()
        ws0.receive_json()
        spectator.send_json({"type": "chat", "text": "let me in"})
        err = spectator.receive_json()
        assert err["type"] == "error" and err["status"] == 403 and "spectators" in err["message"]
        for text, words in [("", "visible"), ("x" * (chat_limits.MAX_CHARS + 1), "at most"), (7, "text"),
                            ("bell\x07", "control"), (None, "text")]:
            ws0.send_json({"type": "chat", "text": text} if text is not None else {"type": "chat"})
            err = until(ws0, "error")
            assert err["status"] == 422 and words in err["message"], err
        ws0.send_json({"type": "gossip", "text": "hi"})
        err = until(ws0, "error")
        assert err["status"] == 422 and '"chat"' in err["message"]
        assert dump(client) == before
        # the sockets stay open and usable: a later message goes through
        ws0.send_json({"type": "chat", "text": "still here"})
        assert until(spectator, "chat")["message"]["text"] == "still here"
    assert count(client, "chat_messages") == 1


def test_too_fast_chat_gets_429_and_the_socket_still_plays(client, table):
    gid, token = table["gid"], table["tokens"][0]
    clock = Clock()
    client.app.state.social.chat.clock = clock
    acting = client.get(f"/api/games/{gid}/state").json()["observation"]["acting_player"]
    token = table["tokens"][acting]
    with socket(client, gid, token) as ws:
        first = ws.receive_json()
        for i in range(chat_limits.SEAT_BURST):
            clock.now += 1
            ws.send_json({"type": "chat", "text": f"m{i}"})
            assert until(ws, "chat")["message"]["text"] == f"m{i}"
        clock.now += 1
        ws.send_json({"type": "chat", "text": "one too many"})
        err = until(ws, "error")
        assert err["status"] == 429 and "at most 5 messages" in err["message"] and err["retry_after"] == 5
        ws.send_json({"type": "action", "action": choose(first["seq"], first["legal_actions"]), "seq": first["seq"]})
        assert until(ws, "applied")["applied_seq"] == first["seq"] + 1
    assert count(client, "chat_messages") == chat_limits.SEAT_BURST


def test_the_seats_message_follows_claims_and_names(client):
    a, b = person(client, "Anna"), person(client, "Bob")
    g = create(client, a, players=3, bots={"2": "random"}, open_seats=[1])
    gid = g["id"]
    with socket(client, gid) as spectator:
        spectator.receive_json()
        assert client.post(f"/api/games/{gid}/claim", json={"seat": 1}, headers=key(b)).status_code == 200
        assert until(spectator, "seats")["seats"] == [
            {"seat": 0, "bot": None, "name": "Anna", "open": False, "claimed": True},
            {"seat": 1, "bot": None, "name": "Bob", "open": False, "claimed": True},
            {"seat": 2, "bot": "random", "name": None, "open": False, "claimed": False}]
        assert client.patch("/api/people/me", json={"name": "Robert"}, headers=key(b)).status_code == 200
        assert [s["name"] for s in until(spectator, "seats")["seats"]] == ["Anna", "Robert", None]


# -- rematch -------------------------------------------------------------------------------
def _finish(client, gid: str) -> None:
    """Play every seat with deterministic picks until the game is over, through the server's session
    (each action checked and stored as over HTTP, without the requests: this test is about the rematch)."""
    with client.app.state.manager.use(gid) as session:
        for _ in range(3000):
            game = session.game
            if game.is_over():
                return
            legal = [str(a) for a in game.legal_actions()]
            session.act(game.current_player, choose(session.seq, legal, 8), session.seq)
    raise AssertionError("the game did not end")


def test_rematch_keeps_names_claims_invitations_and_open_seats_once(client):
    a, b, c = person(client, "Anna"), person(client, "Bob"), person(client, "Cleo")
    g = create(client, a, players=4, seed=24, open_seats=[3])
    gid = g["id"]
    tokens = {s["seat"]: s["token"] for s in g["seats"] if s["token"]}
    r = client.post(f"/api/games/{gid}/claim", json={"token": tokens[1]}, headers=key(b))
    assert r.status_code == 200
    tokens[1] = r.json()["token"]                    # Bob's own token since the claim (issue 22)
    with engine(client).connect() as conn:           # the open seat's token: whoever claims it gets it
        tokens[3] = conn.execute(sa.text("SELECT token FROM invitations WHERE seat = 3 AND game_id = :g"),
                                 {"g": gid}).scalar()
    _finish(client, gid)
    old_rows = {p["name"]: my_games(client, p) for p in (a, b)}
    with client.websocket_connect("/api/people/me/ws", subprotocols=["mysticvale", "mysticvale.key." + b["key"]]) as lobby:
        assert lobby.receive_json()["type"] == "games"
        r = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": tokens[1]})
        assert r.status_code == 200, r.text
        new = r.json()
        row = lobby.receive_json()
        while row["game"]["id"] != new["id"]:         # the old game's row may come first
            row = lobby.receive_json()
    # issue 22: every seat of the rematch has a new token; the answer holds only the asker's
    rematch_tokens = {1: new["seats"][1]["token"]}
    assert rematch_tokens[1] and rematch_tokens[1] != tokens[1]
    assert row["type"] == "game" and row["game"]["seat"] == 1 and row["game"]["token"] == rematch_tokens[1]
    assert [(s["seat"], s["name"], s["open"], s["token"]) for s in new["seats"]] == [
        (0, "Anna", False, None), (1, "Bob", False, rematch_tokens[1]), (2, None, False, None), (3, None, True, None)]
    # asked again, by another seat, and by a second "process" (another engine) at the same time: one copy
    again = client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": tokens[0]}).json()
    assert again["id"] == new["id"] and [s["token"] is not None for s in again["seats"]] == [True, False, False, False]
    rematch_tokens[0] = again["seats"][0]["token"]
    assert rematch_tokens[0] not in (tokens[0], rematch_tokens[1])
    other = sa.create_engine(engine(client).url.render_as_string(hide_password=False))
    copied: list = []
    try:
        copies = [People(other), People(engine(client))]
        threads = [threading.Thread(target=lambda p=p: copied.append(p.copy_for_rematch(gid, new["id"])))
                   for p in copies]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        other.dispose()
    assert copied == [2, 2]                             # both ran through; each sees the two claims
    for table, rows in (("seat_claims", 2), ("game_creators", 1), ("invitations", 2)):
        with engine(client).connect() as conn:
            assert conn.execute(sa.text(f"SELECT count(*) FROM {table} WHERE game_id = :g"),
                                {"g": new["id"]}).scalar() == rows, table
    # each person finds the rematch among their games, with the names, their token, and (Anna) the links
    for p, seat in ((a, 0), (b, 1)):
        rows = my_games(client, p)
        assert len(rows) == len(old_rows[p["name"]]) + 1
        mine = next(r for r in rows if r["id"] == new["id"])
        assert mine["seat"] == seat and mine["token"] == rematch_tokens[seat] and mine["status"] != "finished"
        assert [(q["name"], q["open"], q["claimed"]) for q in mine["players"]] == [
            ("Anna", False, True), ("Bob", False, True), (None, False, False), (None, True, False)]
        assert mine["creator"] == (seat == 0)
        assert [i["seat"] for i in mine["invitations"]] == ([2] if seat == 0 else [])
    anna = next(r for r in my_games(client, a) if r["id"] == new["id"])
    invitation = anna["invitations"][0]["token"]     # a new invitation, derived from the old one
    assert invitation != tokens[2]
    assert client.get(f"/api/games/{new['id']}/state", params={"token": invitation}).json()["seat"] == 2
    # the kept open seat is open to anyone with the link; the kept invitation goes away when claimed
    cleo = client.post(f"/api/games/{new['id']}/claim", json={"seat": 3}, headers=key(c)).json()["token"]
    assert cleo not in (tokens[3], None)
    assert client.post(f"/api/games/{new['id']}/claim", json={"token": invitation}, headers=key(c)).status_code == 409
    # a later ask copies nothing back (Cleo's claim stands, no invitation returns for seat 3)
    assert client.post(f"/api/games/{gid}/rematch", json={}, headers={"X-Seat-Token": tokens[0]}).status_code == 200
    with engine(client).connect() as conn:
        assert conn.execute(sa.text("SELECT seat FROM invitations WHERE game_id = :g"), {"g": new["id"]}
                            ).scalars().all() == [2]
    assert next(r for r in my_games(client, c) if r["id"] == new["id"])["seat"] == 3
    # a carried token opens only where it is the seat's token: copied onto the same seat of another
    # game (which it would open: it is sealed for the old game's seat 1) it reveals nothing
    elsewhere = create(client, a)["id"]
    with engine(client).connect() as conn:
        sealed = conn.execute(sa.text("SELECT sealed_token FROM seat_claims WHERE game_id = :g AND seat = 1"),
                              {"g": new["id"]}).scalar()
        assert sealed.startswith(gid + "/")
        conn.execute(sa.text("INSERT INTO seat_claims (game_id, seat, person_id, sealed_token, claimed_at) "
                             "VALUES (:g, 1, :p, :s, 0)"), {"g": elsewhere, "p": b["id"], "s": sealed})
        conn.commit()
    bob = next(r for r in my_games(client, b) if r["id"] == elsewhere)
    assert bob["seat"] == 1 and bob["token"] is None
