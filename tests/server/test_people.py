"""People with names (issue 15): personal keys, seat claims, invitations, open seats, my games.

Over SQLite and PostgreSQL (the ``client`` fixture).  Every refused request must leave everything
as it was.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from conftest import wait_for
from social_helpers import count, create, dump, key, my_games, person, play_until, state

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_a_name_gives_a_secret_key_and_a_personal_link(client):
    a = person(client, "  Anna   Maria ")
    assert a["name"] == "Anna Maria" and len(a["key"]) >= 30
    assert a["link"].endswith(f"/#key={a['key']}") and "?" not in a["link"]
    r = client.get("/api/people/me", headers=key(a))
    assert r.status_code == 200 and r.json() == {"id": a["id"], "name": "Anna Maria"}
    # the database holds the key's digest, never the key
    stored = dump(client)
    assert a["key"] not in stored and hashlib.sha256(a["key"].encode()).hexdigest() in stored


@pytest.mark.parametrize("name, words", [
    ("", "at least"), ("   ", "visible"), ("x" * 25, "at most 24"), ("Bob\x00", "control"), ("Bob\u202e", "direction"),
    ("Tab\there", "control"), ("two\nlines", "control"), ("zero\u200bwidth", "control"), (7, "string"),
])
def test_unfit_names_are_refused_and_nobody_is_made(client, name, words):
    before = count(client, "people")
    r = client.post("/api/people", json={"name": name})
    assert r.status_code == 422, r.text
    assert words in json.dumps(r.json()["detail"])
    assert count(client, "people") == before


def test_a_key_goes_only_in_its_header(client):
    a = person(client, "Anna")
    assert client.get("/api/people/me").status_code == 401
    assert client.get("/api/people/me", params={"key": a["key"]}).status_code == 401
    r = client.get("/api/people/me", headers={"X-Player-Key": "not-a-key"})
    assert r.status_code == 403 and "nobody" in r.json()["detail"]
    assert client.get("/api/people/me/games", headers={"X-Player-Key": a["key"] + "x"}).status_code == 403


def test_rename_shows_at_every_seat(client):
    a = person(client, "Anna")
    g = create(client, a)
    r = client.patch("/api/people/me", json={"name": "Annika"}, headers=key(a))
    assert r.status_code == 200 and r.json()["name"] == "Annika"
    assert client.get(f"/api/games/{g['id']}/seats").json()["seats"][0]["name"] == "Annika"
    assert client.patch("/api/people/me", json={"name": ""}, headers=key(a)).status_code == 422
    assert client.get("/api/people/me", headers=key(a)).json()["name"] == "Annika"


def test_a_replaced_key_stops_working_and_the_new_one_opens_the_same_seats(client):
    a = person(client, "Anna")
    g = create(client, a)
    r = client.post("/api/people/me/key", headers=key(a))
    assert r.status_code == 200
    new = r.json()
    assert new["key"] != a["key"] and new["link"].endswith("#key=" + new["key"])
    assert client.get("/api/people/me", headers=key(a)).status_code == 403
    rows = my_games(client, new)
    # the same seat, with a new token (issue 22: the tokens the old key could read are replaced)
    assert [(x["id"], x["seat"]) for x in rows] == [(g["id"], 0)] and rows[0]["token"] != g["seats"][0]["token"]
    assert client.get(f"/api/games/{g['id']}/state", headers={"X-Seat-Token": rows[0]["token"]}).json()["seat"] == 0


def test_the_creator_holds_a_seat_and_finds_the_invitations_until_they_are_claimed(client):
    a, b = person(client, "Anna"), person(client, "Bob")
    g = create(client, a, players=3, bots={"2": "random"})
    gid = g["id"]
    tokens = {s["seat"]: s["token"] for s in g["seats"]}
    assert g["seats"][0]["name"] == "Anna" and g["seats"][1]["name"] is None
    [row] = my_games(client, a)
    assert row["id"] == gid and row["seat"] == 0 and row["token"] == tokens[0] and row["creator"] is True
    assert [(i["seat"], i["token"]) for i in row["invitations"]] == [(1, tokens[1])]
    assert row["invitations"][0]["url"].endswith(f"/games/{gid}#token={tokens[1]}")
    assert [(p["seat"], p["name"], p["bot"], p["you"]) for p in row["players"]] == [
        (0, "Anna", None, True), (1, None, None, False), (2, None, "random", False)]
    assert "seed" not in json.dumps(row)
    # Bob opens his invitation and claims the seat under his name
    r = client.post(f"/api/games/{gid}/claim", json={"token": tokens[1]}, headers=key(b))
    assert r.status_code == 200, r.text
    fresh = r.json()["token"]
    # issue 22: the claim gives Bob a fresh token; the invitation's ends
    assert r.json()["seat"] == 1 and fresh != tokens[1] and r.json()["new"] is True
    [row] = my_games(client, a)
    assert row["invitations"] == []
    assert [p["name"] for p in row["players"]] == ["Anna", "Bob", None]
    [brow] = my_games(client, b)
    assert brow["seat"] == 1 and brow["token"] == fresh and brow["creator"] is False
    # Bob's token opens his seat; the claim changed nothing else in the game
    assert state(client, gid, fresh)["seat"] == 1
    assert client.get(f"/api/games/{gid}/state", params={"token": tokens[1]}).status_code == 410


def test_a_key_reveals_no_other_persons_seats_tokens_or_invitations(client):
    a, b, c = person(client, "Anna"), person(client, "Bob"), person(client, "Cleo")
    g = create(client, a, players=3)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    r = client.post(f"/api/games/{gid}/claim", json={"token": tokens[1]}, headers=key(b))
    assert r.status_code == 200
    text = json.dumps(my_games(client, b))
    assert r.json()["token"] in text and tokens[0] not in text and tokens[2] not in text and a["key"] not in text
    assert my_games(client, c) == []
    assert client.get(f"/api/people/me/games/{gid}", headers=key(c)).status_code == 404
    # reading the game as a spectator, or with a wrong token, gives no row either
    state(client, gid)
    assert client.get(f"/api/games/{gid}/state", params={"token": "bad"}).status_code == 403
    assert my_games(client, c) == []
    public = client.get(f"/api/games/{gid}/seats").json()
    assert all(t not in json.dumps(public) for t in tokens) and a["id"] not in json.dumps(public)


def test_claims_are_first_come_one_seat_per_person_and_refusals_change_nothing(client):
    a, b, c = person(client, "Anna"), person(client, "Bob"), person(client, "Cleo")
    g = create(client, a, players=4, bots={"2": "random"}, open_seats=[3])
    gid, tokens = g["id"], {s["seat"]: s["token"] for s in g["seats"]}
    url = f"/api/games/{gid}/claim"
    claimed = client.post(url, json={"token": tokens[1]}, headers=key(b))
    assert claimed.status_code == 200
    # The random bot (seat 2) starts this game: let it finish its turn, so that no move of its lands
    # between the two pictures of the database.
    wait_for(lambda: client.get(f"/api/games/{gid}/summary").json()["current_player"] != 2)
    before = (dump(client), my_games(client, a), my_games(client, b), my_games(client, c))
    refusals = [
        (client.post(url, json={"token": tokens[1]}, headers=key(c)), 410, "already used"),
        (client.post(url, json={"token": tokens[0]}, headers=key(b)), 409, "taken by Anna"),
        (client.post(url, json={"seat": 3}, headers=key(b)), 409, "already play seat 1"),
        (client.post(url, json={"token": "wrong"}, headers=key(c)), 403, "token"),
        (client.post(url, json={"seat": 2}, headers=key(c)), 409, "not an open seat"),
        (client.post(url, json={"seat": 1}, headers=key(c)), 409, "taken by Bob"),
        (client.post(url, json={"seat": 4}, headers=key(c)), 422, "less than or equal to 3"),
        (client.post(url, json={"token": tokens[1], "seat": 1}, headers=key(c)), 422, "either"),
        (client.post(url, json={}, headers=key(c)), 422, "either"),
        (client.post(url, json={"token": tokens[1]}), 401, "X-Player-Key"),
        (client.post("/api/games/nope/claim", json={"token": tokens[1]}, headers=key(c)), 404, "no game"),
    ]
    for r, status, words in refusals:
        assert r.status_code == status, (r.text, words)
        assert words in json.dumps(r.json()["detail"]), (r.text, words)
    assert (dump(client), my_games(client, a), my_games(client, b), my_games(client, c)) == before
    # claiming one's own seat again is harmless
    for token in (tokens[1], claimed.json()["token"]):      # the invitation used, or the seat's new token
        r = client.post(url, json={"token": token}, headers=key(b))
        assert r.status_code == 200 and r.json()["new"] is False and r.json()["token"] == claimed.json()["token"]


def test_open_seats_go_to_whoever_claims_them_first(client):
    a, b, c, d = (person(client, n) for n in ("Anna", "Bob", "Cleo", "Dan"))
    g = create(client, a, players=4, open_seats=[1, 3], bots={"2": "random"})
    gid = g["id"]
    seats = {s["seat"]: s for s in g["seats"]}
    assert seats[1]["open"] and seats[3]["open"] and not seats[0]["open"]
    assert seats[1]["token"] is None and seats[1]["url"] == g["spectator_url"]
    assert [s["open"] for s in client.get(f"/api/games/{gid}/seats").json()["seats"]] == [False, True, False, True]
    [row] = my_games(client, a)
    assert row["invitations"] == []              # open seats need no invitation
    r = client.post(f"/api/games/{gid}/claim", json={"seat": 1}, headers=key(b))
    assert r.status_code == 200, r.text
    token_b = r.json()["token"]
    assert state(client, gid, token_b)["seat"] == 1
    r = client.post(f"/api/games/{gid}/claim", json={"seat": 1}, headers=key(c))
    assert r.status_code == 409 and "taken by Bob" in r.json()["detail"]
    assert client.post(f"/api/games/{gid}/claim", json={"seat": 3}, headers=key(c)).status_code == 200
    assert client.post(f"/api/games/{gid}/claim", json={"seat": 3}, headers=key(d)).status_code == 409
    assert [(s["name"], s["open"]) for s in client.get(f"/api/games/{gid}/seats").json()["seats"]] == [
        ("Anna", False), ("Bob", False), (None, False), ("Cleo", False)]
    # once claimed, the open seat's token is stored only sealed for its holder
    assert token_b not in dump(client)


def test_open_seats_without_a_creator_key(client):
    b = person(client, "Bob")
    g = create(client, None, players=2, open_seats=[1])
    assert g["seats"][0]["token"] and g["seats"][1]["token"] is None
    r = client.post(f"/api/games/{g['id']}/claim", json={"seat": 3}, headers=key(b))
    assert r.status_code == 404 and "no seat 3" in r.json()["detail"]
    r = client.post(f"/api/games/{g['id']}/claim", json={"seat": 1}, headers=key(b))
    assert r.status_code == 200 and my_games(client, b)[0]["seat"] == 1


@pytest.mark.parametrize("body, headers, status, words", [
    ({"open_seats": [1], "bots": {"1": "random"}}, True, 422, "bot"),
    ({"open_seats": [2]}, True, 422, "does not exist"),
    ({"open_seats": [1, 1]}, True, 422, "twice"),
    ({"creator_seat": 1}, False, 422, "personal key"),
    ({"creator_seat": 1, "bots": {"1": "random"}}, True, 422, "not a human seat"),
    ({"creator_seat": 1, "open_seats": [1]}, True, 422, "open seat"),
    ({}, "bad", 403, "nobody"),
])
def test_people_options_of_a_new_game_are_checked_before_anything_is_stored(client, body, headers, status, words):
    a = person(client, "Anna")
    before = dump(client)
    hdr = key(a) if headers is True else ({"X-Player-Key": "bad"} if headers == "bad" else None)
    r = client.post("/api/games", json={"players": 2, "seed": 1, **body}, headers=hdr)
    assert r.status_code == status, r.text
    assert words in json.dumps(r.json()["detail"])
    assert dump(client) == before


def test_my_games_list_my_turn_first_then_running_then_finished(client):
    a, b = person(client, "Anna"), person(client, "Bob")
    # finished: a bots-only game Anna created (she holds no seat in it)
    done = create(client, a, players=2, bots={"0": "random", "1": "random"}, seed=5)
    # two games of Anna and Bob; in one it is Anna's decision, in the other Bob's
    games = []
    for seed in (21, 22):
        g = create(client, a, seed=seed)
        t = {s["seat"]: s["token"] for s in g["seats"]}
        assert client.post(f"/api/games/{g['id']}/claim", json={"token": t[1]}, headers=key(b)).status_code == 200
        games.append((g["id"], t))
    (mine, t_mine), (theirs, t_theirs) = games
    play_until(client, mine, t_mine, lambda s: s["observation"]["acting_player"] == 0 and s["seq"] > 0)
    play_until(client, theirs, t_theirs, lambda s: s["observation"]["acting_player"] == 1 and s["seq"] > 0)
    wait_for(lambda: state(client, done["id"])["observation"]["over"])
    rows = my_games(client, a)
    assert [(r["id"], r["status"]) for r in rows] == [(mine, "your_turn"), (theirs, "running"),
                                                      (done["id"], "finished")]
    fin = rows[2]
    assert fin["seat"] is None and fin["token"] is None and fin["over"] is True and fin["winners"]
    assert rows[1]["current_player"] == 1 and [p["name"] for p in rows[1]["players"]] == ["Anna", "Bob"]
    assert rows[0]["round"] >= 1 and rows[0]["updated_at"] >= rows[0]["created_at"]
    # Bob sees the same two running games, from his side
    assert [(r["id"], r["status"], r["seat"]) for r in my_games(client, b)] == [
        (theirs, "your_turn", 1), (mine, "running", 1)]
    assert my_games(client, a, finished=0)[-1]["id"] == theirs
    # within a group, the most recent activity first
    two = create(client, a, seed=23)
    rows = my_games(client, a)
    status = next(r["status"] for r in rows if r["id"] == two["id"])
    assert [r["id"] for r in rows if r["status"] == status][0] == two["id"]


def test_every_people_and_chat_route_is_documented(sqlite_client):
    spec = sqlite_client.get("/openapi.json").json()
    routes = {
        ("post", "/api/people"), ("get", "/api/people/me"), ("patch", "/api/people/me"),
        ("post", "/api/people/me/key"), ("get", "/api/people/me/settings"), ("patch", "/api/people/me/settings"),
        ("post", "/api/people/me/settings/confirm-email"), ("get", "/api/people/me/games"),
        ("get", "/api/people/me/games/{game_id}"), ("get", "/api/games/{game_id}/seats"),
        ("post", "/api/games/{game_id}/claim"), ("get", "/api/games/{game_id}/chat"),
        ("post", "/api/games/{game_id}/chat"), ("post", "/api/people/email/confirm"), ("post", "/api/games/{game_id}/rematch"),
    }
    assert spec["paths"]["/confirm-email"]["get"]["description"]      # the page the e-mailed link opens
    for method, path in routes:
        op = spec["paths"][path][method]
        assert op.get("description") and op.get("summary"), (method, path)
        assert any(code.startswith("4") for code in op["responses"]), (method, path)
    assert spec["components"]["securitySchemes"]["PersonalKey"] == {
        "type": "apiKey", "in": "header", "name": "X-Player-Key", "description": "your personal key (from POST /api/people)"}
    for model in ("MyGame", "PersonWithKey", "SettingsOut", "ClaimOut", "ChatMessage", "ChatPage", "SeatsOut"):
        assert model in spec["components"]["schemas"], model
    assert "X-Player-Key" in spec["info"]["description"] and "WS /api/people/me/ws" in spec["info"]["description"]
    create = spec["paths"]["/api/games"]["post"]
    assert {"PersonalKey": []} in create.get("security", [])


def test_new_people_per_address_are_bounded_by_the_servers_limit(sqlite_url):
    """``Limits.people_per_10min`` (``serve --people-per-10min``) bounds the names one address makes:
    past it, a short 429 with Retry-After, and nobody is made."""
    from fastapi.testclient import TestClient
    from mysticvale.server import create_app
    from mysticvale.server.limits import Limits

    with TestClient(create_app(sqlite_url, limits=Limits(people_per_10min=2))) as c:
        person(c, "Ada")
        person(c, "Bea")
        r = c.post("/api/people", json={"name": "Cy"})
        assert r.status_code == 429, r.text
        assert int(r.headers["Retry-After"]) >= 1
        assert len(r.content) < 300
        with c.app.state.social.engine.connect() as conn:
            import sqlalchemy as sa
            assert conn.execute(sa.text("SELECT count(*) FROM people")).scalar() == 2
