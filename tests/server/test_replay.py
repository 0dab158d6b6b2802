"""Replays of finished games (issue 21): step by step from one seat's view, exactly what that seat
saw, with its log; refused before the end; bounded work per request."""

from __future__ import annotations

import threading

import pytest
from meeting_helpers import finish
from social_helpers import create, key, person

from mysticvale.engine.game import Game
from mysticvale.server import replay as replay_module
from mysticvale.server.replay import STRIDE, Replays

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _step(client, gid: str, **params) -> dict:
    r = client.get(f"/api/games/{gid}/replay", params=params)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture
def finished(sqlite_client):
    anna, ben = person(sqlite_client, "Anna"), person(sqlite_client, "Ben")
    g = create(sqlite_client, anna, players=2, open_seats=[1], seed=17)
    sqlite_client.post(f"/api/games/{g['id']}/claim", json={"seat": 1}, headers=key(ben))
    tokens = {0: g["seats"][0]["token"]}
    tokens[1] = sqlite_client.get(f"/api/people/me/games/{g['id']}", headers=key(ben)).json()["token"]
    return sqlite_client, g["id"], tokens


def test_a_running_game_is_not_replayed(sqlite_client):
    g = create(sqlite_client, players=2, bots={"1": "random"}, seed=2)
    r = sqlite_client.get(f"/api/games/{g['id']}/replay")
    assert r.status_code == 409 and "over" in r.json()["detail"]
    assert sqlite_client.get("/api/games/nope/replay").status_code == 404


def test_each_step_shows_what_the_chosen_seat_saw_then(finished):
    client, gid, tokens = finished
    # Mid-game, each seat's view as the table showed it (kept to compare with the replay later).
    seen = {}
    manager = client.app.state.manager
    from mysticvale.bots import SeatView, make_bot
    bot = make_bot("greedy", seed=1)
    for _ in range(40):
        with manager.use(gid) as s:
            seat, seq, copy = s.game.current_player, s.seq, s.game.clone()
        s.act(seat, str(bot.act(SeatView(copy, seat))), seq)
    for seat in (0, 1):
        st = client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[seat]}).json()
        seen[seat] = (st["seq"], st["observation"])
    assert seen[0][0] == seen[1][0] == 40
    finish(client, gid)

    first = _step(client, gid, seat=0, step=0, outline="true")
    steps = first["steps"]
    assert first["step"] == 0 and first["view"]["legal_actions"] == [] and first["view"]["can_undo"] is False
    outline = first["outline"]
    assert outline["turns"][0]["step"] == 0 and len(outline["events"]) == steps + 1
    assert all(a["step"] < b["step"] for a, b in zip(outline["turns"], outline["turns"][1:]))
    # the replay from each seat at step 40 is exactly what that seat saw then; the seats differ
    # (each knows its own deck's top card, its own looks), and no view shows more than its own
    at40 = {seat: _step(client, gid, seat=seat, step=40) for seat in (0, 1)}
    for seat in (0, 1):
        assert at40[seat]["view"]["observation"] == seen[seat][1]
    assert at40[0]["view"]["observation"] != at40[1]["view"]["observation"]
    spectator = _step(client, gid, step=40)
    assert spectator["seat"] is None and spectator["view"]["observation"] != seen[0][1]
    # the last step is the end, with the scores
    last = _step(client, gid, seat=1, step=steps)
    assert last["view"]["observation"]["over"] is True and last["view"]["observation"]["scores"]
    end = client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[1]}).json()
    assert last["view"]["observation"] == end["observation"] and last["log"][-1]["i"] == len(end["log"]) - 1
    # each turn says when it began, as the table's log does
    turns = [e for e in last["log"] if e["k"] == "turn"]
    assert turns and all(isinstance(e.get("at"), int) for e in turns)
    # the log grows with the steps, as the outline says
    # (the texts; a card's name in the arguments is the card as it was then: it grows advancements)
    assert [(e["i"], e["t"]) for e in at40[0]["log"]] == \
        [(e["i"], e["t"]) for e in last["log"] if e["i"] < outline["events"][40]]
    assert at40[0]["actor"] == outline["actors"][40] in (0, 1)


@pytest.mark.parametrize("params", [{"step": 10 ** 6}, {"seat": 2}, {"seat": -1}, {"step": "x"}])
def test_a_step_or_seat_the_game_does_not_have_is_refused(finished, params):
    client, gid, _tokens = finished
    finish(client, gid)
    r = client.get(f"/api/games/{gid}/replay", params=params)
    assert r.status_code in (409, 422) and r.json()["detail"]


def test_a_game_is_replayed_once_and_each_step_costs_at_most_a_stride(finished, monkeypatch):
    client, gid, _tokens = finished
    finish(client, gid)
    builds = []
    real_build = replay_module.build
    monkeypatch.setattr(replay_module, "build", lambda *a: builds.append(1) or real_build(*a))
    replays = Replays(client.app.state.manager)
    # many requests for the same game at once: one replay
    threads = [threading.Thread(target=replays.step, args=(gid, 0, k)) for k in range(0, 80, 10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert builds == [1]
    applied = []
    real_apply = Game.apply_action
    monkeypatch.setattr(Game, "apply_action", lambda self, a: applied.append(a) or real_apply(self, a))
    steps = replays.get(gid).steps
    for k in (0, 1, STRIDE - 1, STRIDE, steps // 2, steps - 1, steps):
        applied.clear()
        replays.step(gid, 1, k)
        assert len(applied) == k % STRIDE <= STRIDE - 1
