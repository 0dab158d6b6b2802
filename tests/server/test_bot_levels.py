"""The server offers the bot levels (issue 20): `GET /api/bots` lists each with its name,
description and rating; a game is created with a level's name and its bot plays as the level's
configuration, in a worker when it searches; a level takes no thinking time of its own."""

from __future__ import annotations

import random

import pytest
from conftest import wait_for
from social_helpers import count

from mysticvale import Game, new_game
from mysticvale.bots import SeatView, make_bot
from mysticvale.bots.levels import LEVELS, levels
from mysticvale.engine import native
from mysticvale.server import bot_engine
from mysticvale.server.names import reserved_keys
from mysticvale.server.sessions import BadInput, bot_options, is_search_bot, parse_bot_spec, think_in_process
from mysticvale.server.trust import name_key

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def test_the_bots_list_says_each_levels_name_description_and_rating(sqlite_client):
    body = sqlite_client.get("/api/bots").json()
    assert body["bots"][:4] == ["seedling", "wanderer", "druid", "archdruid"]
    assert {"random", "greedy", "ismcts"} <= set(body["bots"])
    listed = body["levels"]
    assert [lv["name"] for lv in listed] == ["seedling", "wanderer", "druid", "archdruid"]
    for got, lv in zip(listed, levels()):
        assert got["rank"] == lv.rank and got["bot"] == lv.spec and got["rating"] == lv.rating
        assert set(got["label"]) == {"en", "de"} and set(got["description"]) == {"en", "de"}
        assert got["description"]["de"] == lv.description("de")
    assert listed[2]["label"] == {"en": "Druid", "de": "Druide"}


def test_a_game_with_a_level_is_created_by_its_name_and_a_thinking_time_is_refused(sqlite_client):
    c = sqlite_client
    r = c.post("/api/games", json={"players": 3, "seed": 2, "bots": {"1": "seedling", "2": "druid"}})
    assert r.status_code == 201, r.text
    assert [s.get("bot") for s in r.json()["seats"]] == [None, "seedling", "druid"]
    before = count(c, "games")
    r = c.post("/api/games", json={"players": 2, "bots": {"1": "druid:0.5"}})
    assert r.status_code == 422
    assert "the level 'druid' has its own strength" in r.json()["detail"]
    assert count(c, "games") == before          # nothing was made


def test_a_level_plays_as_its_bot_with_its_options_and_the_servers_limit_caps_its_time():
    assert parse_bot_spec("archdruid") == ("archdruid", {})
    assert bot_options("druid") == ("ismcts", {"iterations": 200, "think": 1.5})
    assert bot_options("archdruid", max_think=1.0) == ("ismcts", {"iterations": 1000, "think": 1.0})
    assert bot_options("seedling") == ("greedy", dict(LEVELS["seedling"].options))
    assert bot_options("wanderer") == ("greedy", {})
    # the searching levels think in workers, the others in the server as greedy does
    assert is_search_bot("druid") and is_search_bot("archdruid") and is_search_bot("ismcts:0.5")
    assert not is_search_bot("seedling") and not is_search_bot("wanderer")
    with pytest.raises(BadInput, match="has its own strength"):
        parse_bot_spec("wanderer:1")


def _position(seed: int = 5):
    g = new_game(players=2, seed=seed)
    pick = random.Random(seed)
    for _ in range(12):
        g.apply_action(pick.choice(g.legal_actions()))
    return g.to_json(), g.current_player, [str(a) for a in g.legal_actions()]


def test_the_worker_plays_a_level_as_its_configuration_with_either_engine():
    save, seat, legal = _position()
    engines = ["python"] + (["native"] if native.available() else [])
    for spec in ("seedling", "wanderer"):
        lv = LEVELS[spec]
        own = make_bot(lv.bot, seed=11, **dict(lv.options)).act(SeatView(Game.from_json(save), seat))
        answers = {think_in_process(save, seat, spec, 11, None, e) for e in engines}
        assert answers == {str(own)} and str(own) in legal, spec


def test_a_searching_level_searches_its_iteration_budget_with_the_native_core(native_bots_made):
    made = native_bots_made
    save, seat, legal = _position(9)
    assert len(legal) > 1
    assert think_in_process(save, seat, "druid", 5, None, bot_engine.resolve("auto")) in legal
    assert [b.name for b in made] == ["ismcts"]
    assert made[0]._core.last()["iterations"] == 200


def test_a_bot_game_with_a_searching_level_plays_on(sqlite_client):
    c = sqlite_client
    r = c.post("/api/games", json={"players": 2, "seed": 4, "bots": {"1": "druid"}})
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]

    def state():
        return c.get(f"/api/games/{gid}/state", params={"token": token}).json()

    # My seat plays its first legal action each time; the Druid (a worker's search) answers.
    st, moved = state(), 0
    while moved < 2 and st["observation"]["phase"] != "over":
        if st["legal_actions"]:
            r = c.post(f"/api/games/{gid}/actions", json={"token": token, "action": st["legal_actions"][0],
                                                          "seq": st["seq"]})
            assert r.status_code == 200, r.text
        else:
            seq = st["seq"]
            wait_for(lambda: state()["seq"] != seq)
            moved += 1
        st = state()
    assert moved == 2


def test_the_levels_names_are_the_tables_own_and_no_person_may_take_them():
    keys = reserved_keys()
    for name in ("Druid", "Archdruid", "Seedling", "Wanderer", "Druide", "Erzdruide", "Setzling", "Druid 2"):
        assert name_key(name) in keys, name
    # a level's patterns take only a level's name: "Greedy 1" is a person's (the table says "Greedy bot 1")
    assert name_key("Greedy 1") not in keys and name_key("Greedy bot 1") in keys
