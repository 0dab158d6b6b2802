"""HTTP API: create, state, actions, undo, summary, and every error status (SQLite and PostgreSQL)."""

from __future__ import annotations

import mysticvale as mv
import pytest
from conftest import choose, server_game, wait_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def create(client, **body):
    body.setdefault("players", 2)
    body.setdefault("seed", 11)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def state(client, gid, token=None):
    r = client.get(f"/api/games/{gid}/state", params={"token": token} if token else None)
    assert r.status_code == 200, r.text
    return r.json()


def test_create_returns_tokens_links_and_bots(client):
    g = create(client, players=3, bots={"2": "random"})
    assert len(g["seats"]) == 3
    humans = [s for s in g["seats"] if s["bot"] is None]
    assert [s["seat"] for s in humans] == [0, 1]
    tokens = [s["token"] for s in humans]
    assert len(set(tokens)) == 2 and all(len(t) >= 30 for t in tokens)
    for s in humans:
        assert s["url"].endswith(f"/games/{g['id']}#token={s['token']}")     # a fragment: never sent to a server
    bot = g["seats"][2]
    assert bot == {"seat": 2, "token": None, "url": g["spectator_url"], "bot": "random", "name": None, "open": False}
    assert g["spectator_url"].endswith(f"/games/{g['id']}")


def test_state_is_the_seats_observation(client):
    g = create(client, seed=3)
    t0, t1 = g["seats"][0]["token"], g["seats"][1]["token"]
    ref = server_game(players=2, seed=3)
    s0, s1, spec = state(client, g["id"], t0), state(client, g["id"], t1), state(client, g["id"])
    assert s0["seat"] == 0 and s1["seat"] == 1 and spec["seat"] is None
    assert s0["observation"] == ref.observe(0)
    assert s1["observation"] == ref.observe(1)
    assert spec["observation"] == ref.observe(None)
    assert s0["log"] == ref.log(0) and spec["log"] == ref.log(None)
    acting = ref.current_player
    legal = [str(a) for a in ref.legal_actions()]
    assert (s0, s1)[acting]["legal_actions"] == legal
    assert (s0, s1)[1 - acting]["legal_actions"] == [] and spec["legal_actions"] == []
    assert s0["seq"] == 0 and s0["can_undo"] is False
    assert s0["players"] == [{"seat": 0, "bot": None}, {"seat": 1, "bot": None}]


def test_actions_follow_the_engine(client):
    g = create(client, seed=4)
    tokens = [s["token"] for s in g["seats"]]
    ref = server_game(players=2, seed=4)
    for _ in range(40):
        seat = ref.current_player
        st = state(client, g["id"], tokens[seat])
        action = choose(st["seq"], st["legal_actions"])
        r = client.post(f"/api/games/{g['id']}/actions", json={"token": tokens[seat], "action": action,
                                                               "seq": st["seq"]})
        assert r.status_code == 200, r.text
        ref.apply_action(action)
        body = r.json()
        assert body["seq"] == st["seq"] + 1 and body["applied_seq"] == st["seq"] + 1 and not body["repeated"]
        assert body["observation"] == ref.observe(seat)
        assert body["log"] == ref.log(seat)


def test_errors_403_404_409_422(client):
    g = create(client, seed=5)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    st = state(client, gid, tokens[0])
    acting = st["observation"]["acting_player"]
    legal = state(client, gid, tokens[acting])["legal_actions"]
    url = f"/api/games/{gid}/actions"
    # 404: unknown game, for every endpoint
    assert client.get("/api/games/nope/state").status_code == 404
    assert client.get("/api/games/nope/summary").status_code == 404
    assert client.post("/api/games/nope/actions", json={"token": "x", "action": "push", "seq": 0}).status_code == 404
    assert client.post("/api/games/nope/undo", json={"token": "x", "seq": 0}).status_code == 404
    # 403: a token that is not this game's
    other = create(client, seed=6)["seats"][0]["token"]
    r = client.post(url, json={"token": other, "action": legal[0], "seq": 0})
    assert r.status_code == 403 and "token" in r.json()["detail"]
    assert client.get(f"/api/games/{gid}/state", params={"token": "wrong"}).status_code == 403
    assert client.post(f"/api/games/{gid}/undo", json={"token": "wrong", "seq": 0}).status_code == 403
    # 409: not this seat's decision; not legal now (with the engine's message); stale seq
    r = client.post(url, json={"token": tokens[1 - acting], "action": legal[0], "seq": 0})
    assert r.status_code == 409 and "not your decision" in r.json()["detail"]
    r = client.post(url, json={"token": tokens[acting], "action": "buy 3.3", "seq": 0})
    assert r.status_code == 409
    with pytest.raises(mv.IllegalActionError) as engine_says:
        mv.new_game(players=2, seed=5).apply_action("buy 3.3")
    assert r.json()["detail"] == str(engine_says.value)
    r = client.post(url, json={"token": tokens[acting], "action": legal[0], "seq": 7})
    assert r.status_code == 409 and "stale" in r.json()["detail"]
    # 422: malformed bodies and notation
    for bad in ({"action": "push", "seq": 0}, {"token": tokens[acting], "seq": 0},
                {"token": tokens[acting], "action": "", "seq": 0},
                {"token": tokens[acting], "action": "push"},
                {"token": tokens[acting], "action": "push", "seq": "x"},
                {"token": tokens[acting], "action": "push", "seq": 0, "extra": 1}, [1, 2]):
        assert client.post(url, json=bad).status_code == 422, bad
    assert client.post(url, content=b"{not json", headers={"content-type": "application/json"}).status_code == 422
    r = client.post(url, json={"token": tokens[acting], "action": "fly away", "seq": 0})
    assert r.status_code == 422 and "unknown verb" in r.json()["detail"]
    # nothing of the above changed the game
    assert state(client, gid, tokens[0])["seq"] == 0


@pytest.mark.parametrize("body, words", [
    ({"players": 5}, "players"), ({"players": 1}, "players"),
    ({"sets": ["moon"]}, "unknown set"), ({"ruleset": "house"}, "unknown rule set"),
    ({"bots": {"1": "superbot"}}, "unknown bot"), ({"bots": {"2": "random"}}, "seat 2"),
    ({"bots": {"x": "random"}}, "seat"), ({"bots": {"1": "random:fast"}}, "thinking time"),
    ({"bots": {"1": "random:0.5"}}, "thinking time"), ({"sets": []}, "sets"), ({"colour": "red"}, "colour"),
])
def test_create_rejects_bad_options(client, body, words):
    r = client.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    assert words in str(r.json()["detail"])


def test_leaders_pass_through_or_clear_422(client):
    try:
        mv.new_game(players=2, seed=1, sets=("base", "twilight_garden"), leaders=True)
        supported = True
    except ValueError:
        supported = False
    r = client.post("/api/games", json={"players": 2, "sets": ["base", "twilight_garden"], "leaders": True,
                                        "seed": 1})
    if supported:
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        assert state(client, gid)["observation"] == server_game(
            players=2, seed=1, sets=("base", "twilight_garden"), leaders=True).observe(None)
    else:
        assert r.status_code == 422 and "leaders" in r.json()["detail"]


def test_seed_refused_unless_allowed(tmp_path):
    from fastapi.testclient import TestClient
    from mysticvale.server import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'x.db'}")) as c:
        r = c.post("/api/games", json={"players": 2, "seed": 3})
        assert r.status_code == 422 and "seed" in r.json()["detail"]
        assert c.post("/api/games", json={"players": 2}).status_code == 201


def _play_until_undoable(client, gid, tokens, trail=None):
    """Play (deterministically) until some seat can undo; returns (seat, state before, action, state after).

    ``trail`` gets (actor, can_undo after, the actor's observation after, spectator observation after).
    """
    for _ in range(300):
        spec = state(client, gid)
        seat = spec["observation"]["acting_player"]
        before = state(client, gid, tokens[seat])
        action = choose(before["seq"], before["legal_actions"], salt=3)
        r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": action,
                                                           "seq": before["seq"]})
        assert r.status_code == 200, r.text
        if trail is not None:
            trail.append((seat, r.json()["can_undo"], r.json()["observation"], state(client, gid)["observation"]))
        if r.json()["can_undo"]:
            return seat, before, action, r.json()
    raise AssertionError("no undoable action in 300 moves")


def test_undo_restores_the_state_before_the_action(client):
    g = create(client, seed=8)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    seat, before, action, after = _play_until_undoable(client, gid, tokens)
    other = 1 - seat
    r = client.post(f"/api/games/{gid}/undo", json={"token": tokens[other], "seq": after["seq"]})
    assert r.status_code == 409 and "nothing to undo" in r.json()["detail"]
    r = client.post(f"/api/games/{gid}/undo", json={"token": tokens[seat], "seq": after["seq"]})
    assert r.status_code == 200, r.text
    undone = r.json()
    assert undone["seq"] == after["seq"] + 1          # an undo is a record of its own
    for key in ("observation", "legal_actions", "log"):
        assert undone[key] == before[key], key
    assert undone["can_undo"] in (True, False)
    # the same action can be played again and gives the same result
    r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": action,
                                                       "seq": undone["seq"]})
    assert r.status_code == 200 and r.json()["observation"] == after["observation"]
    assert r.json()["log"] == after["log"]


def test_undo_goes_back_to_the_last_reveal_and_no_further(client):
    g = create(client, seed=9)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    seat = state(client, gid)["observation"]["acting_player"]
    start = state(client, gid, tokens[seat])
    # "push" turns up the next card of the deck: it can never be taken back.
    r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": "push", "seq": 0})
    assert r.status_code == 200, r.text
    assert r.json()["can_undo"] is False
    r = client.post(f"/api/games/{gid}/undo", json={"token": tokens[seat], "seq": 1})
    assert r.status_code == 409 and "revealed hidden information" in r.json()["detail"]
    trail = [(seat, False, r.json() and state(client, gid, tokens[seat])["observation"],
              state(client, gid)["observation"])]
    seat, _, _, after = _play_until_undoable(client, gid, tokens, trail)
    # keep playing while the seat's actions stay undoable, to build a longer undo chain
    for _ in range(6):
        st = state(client, gid, tokens[seat])
        if not st["legal_actions"]:
            break
        safe = [a for a in st["legal_actions"] if a.split()[0] in ("use", "buy", "vale", "token", "trade")]
        if not safe:
            break
        r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": safe[0],
                                                           "seq": st["seq"]})
        assert r.status_code == 200
        trail.append((seat, r.json()["can_undo"], r.json()["observation"], state(client, gid)["observation"]))
        if not r.json()["can_undo"]:
            break
    undos = 0
    while (st := state(client, gid, tokens[seat]))["can_undo"]:
        r = client.post(f"/api/games/{gid}/undo", json={"token": tokens[seat], "seq": st["seq"]})
        assert r.status_code == 200
        undos += 1
        # each undo gives exactly the state before the action undone, for everybody
        assert r.json()["observation"] == trail[-1 - undos][2] or trail[-1 - undos][0] != seat
        assert state(client, gid)["observation"] == trail[-1 - undos][3]
    assert undos >= 1
    r = client.post(f"/api/games/{gid}/undo", json={"token": tokens[seat], "seq": st["seq"]})
    assert r.status_code == 409
    # the undone actions were exactly the seat's trailing undoable ones; the one before is a barrier
    # (an action that revealed something) or another seat's action
    undone, kept = trail[len(trail) - undos:], trail[len(trail) - undos - 1]
    assert all(actor == seat and can for actor, can, _, _ in undone)
    assert kept[0] != seat or kept[1] is False
    assert start["seq"] == 0


def _my_turn_or_over(client, gid, token):
    st = state(client, gid, token)
    return st if st["legal_actions"] or st["observation"]["over"] else None


def test_summary_and_bot_plays_its_seat(client):
    g = create(client, seed=12, bots={"1": "random"})
    gid, token = g["id"], g["seats"][0]["token"]
    summary = client.get(f"/api/games/{gid}/summary").json()
    assert summary["id"] == gid and summary["players"] == 2 and summary["over"] is False
    assert summary["seats"] == [{"seat": 0, "bot": None}, {"seat": 1, "bot": "random"}]
    assert summary["winners"] == [] and summary["round"] >= 1
    # the bot moves by itself until the human must act; then the human plays until the game ends
    for _ in range(2000):
        st = wait_for(lambda: _my_turn_or_over(client, gid, token))
        if st["observation"]["over"]:
            break
        assert st["observation"]["acting_player"] == 0
        r = client.post(f"/api/games/{gid}/actions",
                        json={"token": token, "action": choose(st["seq"], st["legal_actions"], 5), "seq": st["seq"]})
        assert r.status_code == 200, r.text
    final = state(client, gid, token)
    assert final["observation"]["over"] is True
    summary = client.get(f"/api/games/{gid}/summary").json()
    assert summary["over"] is True and summary["current_player"] is None
    assert summary["winners"] == final["observation"]["winners"] and summary["phase"] == "over"
    r = client.post(f"/api/games/{gid}/actions", json={"token": token, "action": "push", "seq": final["seq"]})
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_static_client_and_openapi(sqlite_client):
    c = sqlite_client
    for path in ("/", "/games/abc"):
        r = c.get(path)
        if r.status_code == 200:
            assert "text/html" in r.headers["content-type"] and "<html" in r.text.lower()
        else:   # the web client is built by another package; without it the answer says so
            assert r.status_code == 503 and "index.html" in r.text
    spec = c.get("/openapi.json").json()
    for path in ("/api/games", "/api/games/{game_id}/state", "/api/games/{game_id}/actions",
                 "/api/games/{game_id}/undo", "/api/games/{game_id}/summary"):
        assert path in spec["paths"], path
    assert "WebSocket" in spec["info"]["description"]
    assert "random" in c.get("/api/bots").json()["bots"]


def test_a_german_game_with_a_bot_seat_plays_to_the_end_with_its_prep_decisions(sqlite_client):
    client = sqlite_client
    g = create(client, seed=12, ruleset="german", bots={"1": "greedy"})
    gid, token = g["id"], g["seats"][0]["token"]
    asked = 0
    for _ in range(3000):
        st = wait_for(lambda: _my_turn_or_over(client, gid, token))
        if st["observation"]["over"]:
            break
        assert st["observation"]["ruleset"] == "german"
        legal = st["legal_actions"]
        if (st["observation"]["pending"] or {}).get("kind") == "prep_stop":
            assert legal == ["stop", "push"]
            asked += 1
        r = client.post(f"/api/games/{gid}/actions",
                        json={"token": token, "action": choose(st["seq"], legal, 7), "seq": st["seq"]})
        assert r.status_code == 200, r.text
    final = state(client, gid, token)
    assert final["observation"]["over"] is True
    texts = " ".join(e["text"] for e in final["log"])
    assert asked, "the human seat never met the German Prep decision"
    assert "the Prep phase" in texts
