"""Results, ratings and profiles (issue 21), over SQLite and PostgreSQL: a game between people
changes their ratings once when it ends; games with bots change none but count per kind of bot;
the profile says games played and won and lists the finished games; games that ended unrecorded
are recorded when the server starts."""

from __future__ import annotations

import threading

import pytest
import sqlalchemy as sa
from conftest import wait_for
from fastapi.testclient import TestClient
from meeting_helpers import finish, settle, winners
from social_helpers import create, engine, key, person

from mysticvale.server import create_app, results
from mysticvale.server.ratings import Skill, places_of, rate, shown

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _profile(client, who: dict, **params) -> dict:
    r = client.get(f"/api/people/{who['id']}/profile", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def _ratings(client) -> dict[str, tuple]:
    with engine(client).connect() as c:
        return {r.person_id: (r.mu, r.sigma, r.games) for r in c.execute(sa.text("SELECT * FROM ratings"))}


def _duel(client, a: dict, b: dict, seed: int, name: str | None = None) -> str:
    g = create(client, a, players=2, open_seats=[1], seed=seed, **({"name": name} if name else {}))
    assert client.post(f"/api/games/{g['id']}/claim", json={"seat": 1}, headers=key(b)).status_code == 200
    finish(client, g["id"])
    return g["id"]


def test_a_game_between_people_changes_their_ratings_once(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    gid = _duel(client, anna, ben, seed=3, name="Duel")
    won = winners(client, gid)
    assert len(won) == 1
    winner, loser = (anna, ben) if won == [0] else (ben, anna)
    p_w, p_l = _profile(client, winner), _profile(client, loser)
    assert p_w["games"] == {"played": 1, "won": 1} and p_l["games"] == {"played": 1, "won": 0}
    assert p_w["against_people"] == {"games": 1, "won": 1} and p_w["against_bots"] == []
    assert p_w["rating"]["value"] > 1000 > p_l["rating"]["value"]
    assert p_w["rating"]["games"] == 1 and p_w["rating"]["provisional"] is True
    game = p_w["finished"][0]
    assert game["id"] == gid and game["name"] == "Duel" and game["won"] and game["place"] == 1 and game["rated"]
    assert game["rating_change"] == p_w["rating"]["value"] - 1000 and game["rating_after"] == p_w["rating"]["value"]
    assert [p["name"] for p in game["players"]] == ["Anna", "Ben"] and game["players"][0]["person"] == anna["id"]
    assert game["score"] is not None and p_l["finished"][0]["rating_change"] < 0
    # the lobby shows the ratings beside the names
    row = client.get(f"/api/people/me/games/{gid}", headers=key(anna)).json()
    assert {p["name"]: p["rating"] for p in row["players"]} == {
        winner["name"]: p_w["rating"]["value"], loser["name"]: p_l["rating"]["value"]}
    # hearing of the end again (another thread, another process, a restart) changes nothing
    before = _ratings(client)
    meeting = client.app.state.meeting
    assert meeting.record(gid) is False
    meeting.game_event(gid, None)
    assert _ratings(client) == before


def test_recording_the_same_end_at_once_from_many_threads_rates_it_once(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    gid = _duel(client, anna, ben, seed=4)
    with engine(client).begin() as c:                # as if nobody had recorded it yet
        c.execute(sa.text("DELETE FROM game_results"))
        c.execute(sa.text("DELETE FROM ratings"))
    meeting = client.app.state.meeting
    final = meeting._final(gid)
    got = []
    threads = [threading.Thread(target=lambda: got.append(results.record(engine(client), gid, final)))
               for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert sorted(got) == [False] * 5 + [True]
    assert sorted(g for _mu, _s, g in _ratings(client).values()) == [1, 1]


def test_games_with_bots_change_no_rating_and_count_per_kind_of_bot(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    a = create(client, anna, players=3, bots={"1": "random", "2": "greedy"}, seed=7)
    finish(client, a["id"])
    b = create(client, anna, players=3, bots={"2": "random"}, open_seats=[1], seed=8)
    client.post(f"/api/games/{b['id']}/claim", json={"seat": 1}, headers=key(ben))
    finish(client, b["id"])
    p = _profile(client, anna)
    assert p["rating"] is None and _ratings(client) == {}          # bots at both tables: nobody is rated
    assert p["games"]["played"] == 2
    bots = {x["bot"]: x for x in p["against_bots"]}
    assert set(bots) == {"random", "greedy"} and bots["random"]["games"] == 2 and bots["greedy"]["games"] == 1
    assert p["against_people"]["games"] == 1
    won_a = 0 in winners(client, a["id"])
    assert bots["greedy"]["won"] == int(won_a)
    assert all(g["rated"] is False and g["rating_change"] is None for g in p["finished"])
    assert p["finished"][0]["id"] == b["id"]                           # the most recent first
    assert [x["bot"] for x in p["finished"][1]["players"]] == [None, "random", "greedy"]


def test_the_profile_pages_through_the_finished_games(client):
    anna, ben = person(client, "Anna"), person(client, "Ben")
    ids = [_duel(client, anna, ben, seed=s) for s in (11, 12, 13)]
    first = _profile(client, anna, finished=2)
    assert [g["id"] for g in first["finished"]] == ids[::-1][:2] and first["more"] is True
    rest = _profile(client, anna, finished=2, offset=2)
    assert [g["id"] for g in rest["finished"]] == [ids[0]] and rest["more"] is False
    assert first["rating"]["games"] == 3
    assert client.get("/api/people/nobody/profile").status_code == 404
    assert client.get(f"/api/people/{anna['id']}/profile", params={"finished": 51}).status_code == 422


def test_a_game_that_ended_unrecorded_is_recorded_when_the_server_starts(db_url):
    with TestClient(create_app(db_url, allow_seed=True)) as client:
        anna, ben = person(client, "Anna"), person(client, "Ben")
        gid = _duel(client, anna, ben, seed=5)
        recorded = _ratings(client)
        with engine(client).begin() as c:            # a crash between the last move and its recording
            c.execute(sa.text("DELETE FROM game_results"))
            c.execute(sa.text("DELETE FROM ratings"))
    with TestClient(create_app(db_url, allow_seed=True)) as client:
        wait_for(lambda: results.counted(engine(client)) == 1, timeout=120)
        assert _ratings(client) == recorded
        assert _profile(client, anna)["finished"][0]["id"] == gid


def test_places_and_ratings_follow_the_rules_tie_break():
    # Scores (total, tiebreak): seat 1 wins on the tie-break; 0 and 2 share the second place.
    assert places_of([(30, 1), (30, 2), (30, 1), (12, 0)], [1]) == [2, 1, 2, 3]
    # a card that declares a winner: the others by their points
    assert places_of([(40, 0), (10, 0), (20, 0)], [1]) == [2, 1, 3]
    assert places_of([(20, 0), (20, 0)], [0, 1]) == [1, 1]
    a, b = rate([Skill(), Skill()], [1, 1])
    assert shown(a.mu, a.sigma) == shown(b.mu, b.sigma)       # a shared win moves both alike
    strong, weak = Skill(35.0, 3.0, 20), Skill(15.0, 3.0, 20)
    s2, w2 = rate([strong, weak], [2, 1])                      # the upset moves both more than the expected win
    s3, w3 = rate([strong, weak], [1, 2])
    assert (strong.mu - s2.mu) > (s3.mu - strong.mu) and w2.games == 21
    assert Skill().shown == 1000
