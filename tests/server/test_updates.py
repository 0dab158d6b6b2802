"""Protocol 2: every version as a delta of the seat's view, the log's new tail, full states when behind,
the card catalogue, compression, and the rematch."""

from __future__ import annotations

import gzip
import json
import random

import mysticvale as mv
import pytest
from conftest import choose, wait_for

from mysticvale.server.updates import KEEP, apply_ops, clean_text, diff

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _create(client, **body):
    body.setdefault("players", 2)
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


class Replica:
    """A client's copy of one seat's view, built only from protocol-2 messages."""

    def __init__(self) -> None:
        self.seq = None
        self.view = None
        self.log: list[dict] = []
        self.deltas = 0

    def take(self, msg: dict) -> None:
        assert msg["v"] == 2
        if msg["type"] == "full":
            self.seq, self.view, self.log = msg["seq"], msg["view"], list(msg["log"])
            return
        assert msg["type"] == "delta", msg
        assert msg["from"] == self.seq, (msg["from"], self.seq)      # every version, in order
        self.view = apply_ops(self.view, msg["ops"])
        if "log" in msg:
            first, entries = msg["log"]
            self.log = [e for e in self.log if e["i"] < first] + entries
        self.seq = msg["seq"]
        self.deltas += 1


def _check(rep: Replica, ref, seat, reference_log) -> None:
    assert rep.view["observation"] == ref.observe(seat)
    mine = seat is not None and ref.current_player == seat
    assert rep.view["legal_actions"] == ([str(a) for a in ref.legal_actions()] if mine else [])
    assert [e["i"] for e in rep.log] == [e["index"] for e in reference_log]
    assert [e["t"] for e in rep.log] == [clean_text(e["text"]) for e in reference_log]


# -- the diff itself -------------------------------------------------------------------------
def _random_json(rng: random.Random, depth: int = 0):
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(5)
    if kind == 1:
        return rng.choice(["a", "b", None, 2.5])   # (no booleans: the diff treats 1 and true alike)
    if kind == 2:
        return None
    if kind == 3:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice("abcde"): _random_json(rng, depth + 1) for _ in range(rng.randrange(4))}


def _mutate(rng: random.Random, value):
    if isinstance(value, list):
        out = [_mutate(rng, v) if rng.random() < 0.3 else v for v in value]
        for _ in range(rng.randrange(3)):
            op = rng.randrange(3)
            if op == 0:
                out.insert(rng.randrange(len(out) + 1), _random_json(rng, 2))
            elif op == 1 and out:
                del out[rng.randrange(len(out))]
        return out
    if isinstance(value, dict):
        out = {k: (_mutate(rng, v) if rng.random() < 0.4 else v) for k, v in value.items() if rng.random() < 0.85}
        if rng.random() < 0.4:
            out[rng.choice("abcdef")] = _random_json(rng, 2)
        return out
    return _random_json(rng, 2) if rng.random() < 0.5 else value


def test_applying_the_diff_gives_the_new_value():
    rng = random.Random(7)
    for _ in range(3000):
        old = _random_json(rng)
        new = _mutate(rng, old)
        ops = diff(old, new)
        assert apply_ops(json.loads(json.dumps(old)), json.loads(json.dumps(ops))) == new
        if old == new:
            assert ops == []


def test_deltas_of_real_observations_are_small_and_exact():
    g = mv.new_game(players=3, seed=11, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True)
    views = [g.observe(1)]
    sizes_full, sizes_delta = [], []
    for step in range(400):
        if g.is_over():
            break
        g.apply_action(choose(step, [str(a) for a in g.legal_actions()], salt=5))
        new = g.observe(1)
        ops = diff(views[-1], new)
        copy = json.loads(json.dumps(views[-1]))
        assert apply_ops(copy, json.loads(json.dumps(ops))) == json.loads(json.dumps(new))
        sizes_full.append(len(json.dumps(new)))
        sizes_delta.append(len(json.dumps(ops)))
        views.append(new)
    assert sum(sizes_delta) * 5 < sum(sizes_full), (sum(sizes_delta), sum(sizes_full))


def test_log_text_names_cards_as_players_do():
    assert clean_text("Player 2 pushes #36 Stag + Seedling.") == "Player 2 pushes Stag + Seedling."
    assert clean_text("Player 1 buys Stag@middle for 3 mana to sleeve on #4 Blank.") == \
        "Player 1 buys Stag (middle) for 3 mana to sleeve on Blank."
    assert clean_text("Player 1 sleeves Kojen@top+middle on #12 Cursed Land.") == \
        "Player 1 sleeves Kojen (top + middle) on Cursed Land."


# -- over HTTP -------------------------------------------------------------------------------
def test_http_updates_replay_every_version_of_a_game(client):
    g = _create(client, seed=31, sets=["base", "vale_of_magic"])
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    first = client.get(f"/api/games/{gid}/updates").json()["updates"][0]
    # the same game as the server's (with Finish Turn when the engine has it, as for people)
    opts = {"finish_turn": True} if first["view"]["options"]["finish_turn"] else {}

    def new_ref():
        return mv.new_game(players=2, seed=31, sets=("base", "vale_of_magic"), **opts)

    ref = new_ref()
    reps = {0: Replica(), 1: Replica(), None: Replica()}
    for seat, rep in reps.items():
        q = f"?token={tokens[seat]}" if seat is not None else ""
        r = client.get(f"/api/games/{gid}/updates{q}")
        assert r.status_code == 200
        [msg] = r.json()["updates"]
        assert msg["type"] == "full" and msg["seq"] == 0
        rep.take(msg)
        _check(rep, ref, seat, ref.log(seat))
    undone = 0
    for step in range(160):
        if ref.is_over():
            break
        seat = ref.current_player
        action = choose(step, [str(a) for a in ref.legal_actions()], salt=3)
        rep = reps[seat]
        r = client.post(f"/api/games/{gid}/actions?since={rep.seq}",
                        json={"token": tokens[seat], "action": action, "seq": rep.seq})
        assert r.status_code == 200, r.text
        for msg in r.json()["updates"]:
            rep.take(msg)
        ref.apply_action(action)
        if rep.view["can_undo"] and step % 7 == 0:
            r = client.post(f"/api/games/{gid}/undo?since={rep.seq}", json={"token": tokens[seat], "seq": rep.seq})
            assert r.status_code == 200, r.text
            [msg] = r.json()["updates"]
            assert msg["undo"] is True and msg["by"] == seat
            rep.take(msg)
            history = ref.history[:-1]
            ref = new_ref()
            for a in history:
                ref.apply_action(a)
            undone += 1
        for viewer, other in reps.items():
            if viewer == seat:
                continue
            q = f"&token={tokens[viewer]}" if viewer is not None else ""
            for msg in client.get(f"/api/games/{gid}/updates?since={other.seq}{q}").json()["updates"]:
                assert msg["type"] == "delta"
                other.take(msg)
        for viewer, r_ in reps.items():
            _check(r_, ref, viewer, ref.log(viewer))
            state = client.get(f"/api/games/{gid}/state" + (f"?token={tokens[viewer]}" if viewer is not None
                                                              else "")).json()
            assert r_.seq == state["seq"] and r_.view["can_undo"] == state["can_undo"]
    assert undone >= 2
    # Deltas only, never a second full state, for clients that keep up.
    assert all(r_.deltas >= 100 for r_ in reps.values())


def test_a_client_far_behind_gets_one_full_state(client):
    g = _create(client, seed=32, bots={"1": "random"})
    gid, token = g["id"], g["seats"][0]["token"]
    first = client.get(f"/api/games/{gid}/updates?token={token}").json()["updates"][0]
    assert first["type"] == "full"
    # Play until more versions than the server keeps have gone by.
    seq = first["seq"]
    while seq < KEEP + 5:
        state = client.get(f"/api/games/{gid}/state?token={token}").json()
        if state["observation"]["over"]:
            pytest.skip("the game ended too early for this seed")
        if state["legal_actions"]:
            r = client.post(f"/api/games/{gid}/actions",
                            json={"token": token, "action": choose(state["seq"], state["legal_actions"], 6),
                                  "seq": state["seq"]})
            assert r.status_code in (200, 409), r.text
        seq = state["seq"]
    msgs = client.get(f"/api/games/{gid}/updates?since=1&token={token}").json()["updates"]
    assert len(msgs) == 1 and msgs[0]["type"] == "full"
    rep = Replica()
    rep.take(msgs[0])
    state = client.get(f"/api/games/{gid}/state?token={token}").json()
    if state["seq"] == rep.seq:
        assert rep.view["observation"] == state["observation"]
    # a client ahead of the game (a stale tab of a restored game) is also put right
    msgs = client.get(f"/api/games/{gid}/updates?since=999999&token={token}").json()["updates"]
    assert msgs[0]["type"] == "full"


def test_websocket_delivers_every_version_of_bot_moves(client):
    g = _create(client, seed=33, players=3, bots={"1": "random", "2": "random"})
    gid, token = g["id"], g["seats"][0]["token"]
    rep = Replica()
    by_bots = 0
    with client.websocket_connect(f"/api/games/{gid}/ws?token={token}&since=-1") as ws:
        rep.take(ws.receive_json())
        sent_at = None
        while by_bots < 40 and not rep.view["observation"]["over"]:
            if rep.view["legal_actions"] and sent_at != rep.seq:
                sent_at = rep.seq
                ws.send_json({"type": "action", "action": choose(rep.seq, rep.view["legal_actions"], 7),
                              "seq": rep.seq})
            msg = ws.receive_json()
            if msg["type"] == "applied":                # the acknowledgement of our own action
                assert msg["applied_seq"] > 0 and msg["repeated"] is False
                continue
            assert msg["type"] == "delta", msg          # never coalesced, never a second full state
            rep.take(msg)                               # (checks each version follows the last)
            by_bots += msg["by"] in (1, 2)
    state = client.get(f"/api/games/{gid}/state?token={token}").json()
    assert state["seq"] >= rep.seq
    if state["seq"] == rep.seq:
        assert rep.view["observation"] == state["observation"]
        assert [e["i"] for e in rep.log] == [e["index"] for e in state["log"]]


def test_websocket_resumes_from_a_version(client):
    g = _create(client, seed=34)
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}&since=-1") as ws:
        first = ws.receive_json()
        assert first["type"] == "full"
    state = client.get(f"/api/games/{gid}/state?token={tokens[0]}").json()
    seat = state["observation"]["acting_player"]
    r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": "pass", "seq": state["seq"]})
    assert r.status_code == 200, r.text
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[0]}&since=0") as ws:
        msg = ws.receive_json()
        assert msg["type"] == "delta" and msg["from"] == 0 and msg["seq"] == 1


# -- catalogue, compression ------------------------------------------------------------------
def test_catalogue_has_every_layer_of_the_game_and_is_cacheable(client):
    g = _create(client, seed=35, sets=["base", "twilight_garden"], leaders=True)
    token = g["seats"][0]["token"]
    full = client.get(f"/api/games/{g['id']}/updates?token={token}").json()["updates"][0]
    url = full["view"]["catalogue"]
    assert url.startswith("/api/catalogue/base+twilight_garden?v=")
    r = client.get(url)
    assert r.status_code == 200 and "immutable" in r.headers["cache-control"]
    cat = r.json()
    obs = full["view"]["observation"]
    labels = {lab for p in obs["players"] for c in p["field"] + p.get("deck", []) + ([p["on_deck"]] if p["on_deck"]
                                                                                      else [])
              for lab in c["advancements"]}
    labels |= {c["label"] for row in obs["commons"].values() for c in row if c}
    assert labels and labels <= set(cat["copies"])
    for lab in labels:
        t = cat["types"][cat["copies"][lab]]
        assert {"name", "level", "cost", "symbols", "text", "abilities", "stand_in", "provisional"} <= set(t)
    assert set(cat["leaders"]) and all(ld["start"] and ld["upgraded"] for ld in cat["leaders"].values())
    assert all(lab in cat["copies"] for ld in cat["leaders"].values() for lab in ld["start"] + ld["upgraded"])
    generic = [t for t in cat["types"].values() if t["name"].startswith("Generic")]
    assert generic and all(t["stand_in"] for t in generic)
    again = client.get(url, headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304
    assert client.get("/api/catalogue/base+nonsense").status_code == 404


def test_answers_are_compressed(client):
    g = _create(client, seed=36)
    token = g["seats"][0]["token"]
    r = client.get(f"/api/games/{g['id']}/state?token={token}", headers={"Accept-Encoding": "gzip"})
    assert r.headers.get("content-encoding") == "gzip"
    assert int(r.headers["content-length"]) * 3 < len(r.content)      # httpx decompressed it
    assert json.loads(r.content)["seq"] == 0
    raw = client.get(f"/api/games/{g['id']}/updates?token={token}", headers={"Accept-Encoding": "identity"})
    assert raw.headers.get("content-encoding") is None
    assert len(gzip.compress(raw.content)) < len(raw.content) / 3


# -- rematch ---------------------------------------------------------------------------------
def test_rematch_keeps_seats_and_bots_and_is_the_same_for_everyone(client):
    g = _create(client, seed=37, players=3, bots={"2": "random"})
    gid, tokens = g["id"], [s["token"] for s in g["seats"] if s["token"]]
    r = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    # finish the game quickly: every human passes and finishes until the end
    for _ in range(5000):
        state = client.get(f"/api/games/{gid}/state").json()
        if state["observation"]["over"]:
            break
        seat = state["observation"]["acting_player"]
        if seat == 2:
            wait_for(lambda: client.get(f"/api/games/{gid}/state").json()["seq"] > state["seq"])
            continue
        tok = tokens[seat]
        legal = client.get(f"/api/games/{gid}/state?token={tok}").json()["legal_actions"]
        action = "push" if "push" in legal else choose(state["seq"], legal, 8)
        client.post(f"/api/games/{gid}/actions", json={"token": tok, "action": action, "seq": state["seq"]})
    else:
        raise AssertionError("the game did not end")
    with client.websocket_connect(f"/api/games/{gid}/ws?token={tokens[1]}&since=-1") as ws:
        ws.receive_json()
        r = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[0]})
        assert r.status_code == 200, r.text
        new = r.json()
        assert ws.receive_json() == {"type": "rematch", "v": 2, "id": new["id"]}
    assert new["id"] != gid
    assert [s["bot"] for s in new["seats"]] == [None, None, "random"]
    again = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]}).json()
    assert again["id"] == new["id"]
    # each player opens the rematch with the new token of their own answer (issue 22), not the old one
    for seat, answer in ((0, new), (1, again)):
        tok = answer["seats"][seat]["token"]
        assert tok not in tokens and all(s["token"] is None for s in answer["seats"] if s["seat"] != seat)
        st = client.get(f"/api/games/{new['id']}/state?token={tok}").json()
        assert st["seat"] == seat
    assert client.get(f"/api/games/{new['id']}/state?token={tokens[0]}").status_code == 403
    assert client.get(f"/api/games/{gid}/updates?token={tokens[0]}").json()["updates"][0]["view"]["rematch"] == \
        new["id"]
    assert client.post(f"/api/games/{gid}/rematch", json={"token": "wrong"}).status_code == 403
