"""House cards (issue 21 item 1): a host creates a game with their own card-values file.

The file is checked with every problem on its line (``POST /api/house-cards/check``, and the same
when a game is created with ``house_cards``), bounded in size, cards and copies (a hostile file
gets a 4xx with a message and leaves no game behind), kept with the game (its configuration and
its engine save: a server restart plays on with it, an undo too), used by its engine, and shown
to every seat: the view's options name it and its catalogue says which values differ."""

from __future__ import annotations

import re
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from house_files import BASE, with_value
from mysticvale.cards.catalogue import builtin_path
from mysticvale.server import create_app
from mysticvale.server import house_cards



#: The base game with Stag at 9 mana and Calm Weather at 1.
HOUSE, STAG_LINE = with_value(BASE, "Stag", "cost", "9")
HOUSE, _ = with_value(HOUSE, "Calm Weather", "cost", "1")


def _games(client) -> int:
    from mysticvale.server.storage import games
    st = client.app.state.manager.storage
    with st.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(games)).scalar_one()


def _view(client, game_id: str, seat: int = 0) -> dict:
    """The versioned view a seat's socket receives (server/updates.py)."""
    from mysticvale.server.updates import view_of
    with client.app.state.manager.use(game_id) as session, session._lock:
        return view_of(session, seat)


def _create(client, text, **more):
    return client.post("/api/games", json={"players": 2, "sets": ["base"], "bots": {"1": "random"}, "seed": 5,
                                           "house_cards": text, **more})


def test_a_good_file_is_checked_and_says_which_values_differ(sqlite_client):
    r = sqlite_client.post("/api/house-cards/check", json={"sets": ["base"], "text": HOUSE})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["set"] == "base" and body["cards"] > 50
    diffs = {(d["name"], d["field"]): (d["shipped"], d["house"]) for d in body["differences"]}
    assert diffs == {("Stag", "cost"): (4, 9), ("Calm Weather", "cost"): (3, 1)}
    assert _games(sqlite_client) == 0                  # checking stores nothing


def test_every_problem_is_reported_on_its_line(sqlite_client):
    bad, line = with_value(BASE, "Stag", "level", "7")
    bad, line2 = with_value(bad, "Seedling", "cost", '"cheap"')
    r = sqlite_client.post("/api/house-cards/check", json={"sets": ["base"], "text": bad})
    assert r.status_code == 422, r.text
    problems = r.json()["problems"]
    by_line = {p["line"]: p["message"] for p in problems}
    assert line in by_line and "Stag" in by_line[line] and "'level' = 7" in by_line[line], problems
    assert line2 in by_line and "Seedling" in by_line[line2] and "'cost'" in by_line[line2], problems
    assert "problem" in r.json()["detail"]
    # a TOML syntax error names its line
    broken = BASE.splitlines()
    broken[40] = "this is = = not toml"
    r = sqlite_client.post("/api/house-cards/check", json={"sets": ["base"], "text": "\n".join(broken)})
    assert r.status_code == 422
    (p,) = r.json()["problems"]
    assert p["code"] == "toml" and p["line"] == 41, p
    # a file for a set the game does not play: the [set] line
    tg = builtin_path("vale_of_magic").read_text(encoding="utf-8")
    r = sqlite_client.post("/api/house-cards/check", json={"sets": ["base"], "text": tg})
    (p,) = r.json()["problems"]
    assert p["code"] == "wrong_set" and tg.splitlines()[p["line"] - 1].strip() == "[set]", p


def test_a_file_with_problems_creates_no_game(sqlite_client):
    bad, line = with_value(BASE, "Stag", "level", "7")
    r = _create(sqlite_client, bad)
    assert r.status_code == 422 and r.json()["problems"][0]["line"] == line, r.text
    assert _games(sqlite_client) == 0


@pytest.mark.parametrize("hostile, code", [
    ("x" * (house_cards.MAX_BYTES + 1), None),                                          # too large
    ("[set]\nid = \"base\"\n" + "[[advancement]]\nname = \"A\"\n" * (house_cards.MAX_CARDS + 1), "too_many_cards"),
    ("[set]\nid = \"base\"\n[[advancement]]\nname = \"A\"\ncopies = [" + "[\"top\"]," * 2000 + "]\n", "too_many_copies"),
    ("a = " + "[" * 30000 + "]" * 30000 + "\n", "toml"),                                # nested too deeply
    ("[set]\nid = \"base\"\nx = \"\x00\"\n", "not_utf8"),
])
def test_a_hostile_file_gets_a_4xx_with_a_message_and_leaves_nothing(sqlite_client, hostile, code):
    for r in (sqlite_client.post("/api/house-cards/check", json={"sets": ["base"], "text": hostile}),
              _create(sqlite_client, hostile)):
        assert 400 <= r.status_code < 500, r.text
        body = r.json()
        assert body["detail"] and len(r.text) < 5000
        if code:
            assert [p["code"] for p in body["problems"]] == [code], body
    assert _games(sqlite_client) == 0


def test_the_largest_file_is_checked_quickly():
    # the largest accepted file: the base game padded with comments to the bound
    text = HOUSE + "#" * (house_cards.MAX_BYTES - len(HOUSE.encode()) - 1) + "\n"
    assert len(text.encode()) == house_cards.MAX_BYTES
    start = time.perf_counter()
    got = house_cards.check(text.encode(), ["base"])
    took = time.perf_counter() - start
    assert got["set"] == "base"
    assert took < 5, f"checking the largest file took {took:.2f} s"     # measured: about 0.05 s


def test_a_game_with_house_cards_uses_them_shows_them_and_keeps_them_over_a_restart(sqlite_url):
    with TestClient(create_app(sqlite_url, allow_seed=True)) as c:
        r = _create(c, HOUSE)
        assert r.status_code == 201, r.text
        game = r.json()
        token = game["seats"][0]["token"]
        view = _view(c, game["id"])
        assert view["options"]["house_cards"] == ["base"]
        assert _view(c, game["id"], 1)["options"]["house_cards"] == ["base"]      # every seat is told
        url = view["catalogue"]
        assert url.startswith(f"/api/games/{game['id']}/catalogue?v="), url
        cat = c.get(url).json()
        assert cat["types"]["Stag"]["cost"] == 9 and cat["types"]["Calm Weather"]["cost"] == 1
        assert {(d["name"], d["field"]) for d in cat["house"]["differences"]} == {("Stag", "cost"), ("Calm Weather", "cost")}
        # the engine plays with them: every Stag copy costs 9
        with c.app.state.manager.use(game["id"]) as session:
            assert session.game.state.cat.advancements["Stag"].cost == 9
        # a game without house cards keeps the shipped catalogue, and no notice
        plain = _create(c, None).json()
        pview = _view(c, plain["id"])
        assert "house_cards" not in pview["options"] and pview["catalogue"].startswith("/api/catalogue/base?")
        # play a few actions, undo one (the game is replayed from its configuration)
        for _ in range(3):
            st = c.get(f"/api/games/{game['id']}/state", headers={"X-Seat-Token": token}).json()
            legal = st["legal_actions"]
            if not legal:
                break
            act = next((a for a in legal if a.startswith("buy")), legal[0])
            assert c.post(f"/api/games/{game['id']}/actions", json={"token": token, "action": act,
                                                                     "seq": st["seq"]}).status_code == 200
    # a restarted server plays on with the host's values
    with TestClient(create_app(sqlite_url, allow_seed=True)) as c:
        st = c.get(f"/api/games/{game['id']}/state", headers={"X-Seat-Token": token}).json()
        view = _view(c, game["id"])
        assert view["options"]["house_cards"] == ["base"]
        assert c.get(view["catalogue"]).json()["types"]["Stag"]["cost"] == 9
        with c.app.state.manager.use(game["id"]) as session:
            assert session.game.state.cat.advancements["Stag"].cost == 9
            assert session.config["house_cards"] == HOUSE
        if st["can_undo"]:
            assert c.post(f"/api/games/{game['id']}/undo", json={"token": token, "seq": st["seq"]}).status_code == 200
            with c.app.state.manager.use(game["id"]) as session:
                assert session.game.state.cat.advancements["Stag"].cost == 9


def test_a_plain_game_keeps_the_servers_body_bound(sqlite_client):
    r = sqlite_client.post("/api/games", json={"players": 2, "sets": ["base"], "bots": {"1": "random"},
                                               "name": "x", "padding": "y" * 40000})
    assert r.status_code == 413, r.text
    # naming the field is not enough: only a body that carries a house-cards file may be larger
    r = sqlite_client.post("/api/games", json={"players": 2, "sets": ["base"], "bots": {"1": "random"},
                                               "house_cards": None, "name": "y" * 40000})
    assert r.status_code == 413, r.text
    assert _games(sqlite_client) == 0


def test_a_rematch_undo_and_replay_start_from_the_stored_configuration_with_the_hosts_values(monkeypatch):
    """A rematch (the old configuration with a new seed), an undo and a replay of a finished game
    all build the game again with ``start_game(config)``: the host's values come with it, and the
    temporary file it was read from is gone."""
    from pathlib import Path

    from mysticvale.server.sessions import start_game
    made: list[str] = []
    real = house_cards.game_file
    monkeypatch.setattr(house_cards, "game_file", lambda text: made.append(real(text)) or made[-1])
    config = {"players": 2, "sets": ["base"], "leaders": False, "ruleset": "yucata", "seed": 11, "house_cards": HOUSE}
    for seed in (11, 12):
        g = start_game(dict(config, seed=seed))
        assert g.state.cat.advancements["Stag"].cost == 9 and g.state.cat.raw
        assert start_game(dict(config, seed=seed, house_cards=None)).state.cat.advancements["Stag"].cost == 4
    assert len(made) == 2 and not any(Path(p).exists() for p in made)


def test_a_validator_problem_comes_as_data_for_the_page_to_word(sqlite_client):
    """Besides its English text, each catalogue problem carries its code, arguments and place in
    the file (cards/problems.py), which the lobby words in the page's language."""
    bad, line = with_value(BASE, "Stag", "level", "7")
    bad = bad.replace('trigger = "harvest"', 'trigger = "harvst"', 1)
    r = sqlite_client.post("/api/house-cards/check", json={"sets": ["base"], "text": bad})
    assert r.status_code == 422, r.text
    problems = r.json()["problems"]
    level = next(p for p in problems if p["line"] == line)
    assert level["check"] == "out_of_range" and level["where"] == {"kind": "advancement", "name": "'Stag'"}
    assert level["args"] == {"key": "level", "value": "7", "lo": 1, "hi": 3}
    trigger = next(p for p in problems if p.get("check") == "unknown_trigger")
    assert trigger["where"]["ability"] >= 1 and trigger["args"]["value"] == "'harvst'", trigger
    assert trigger["message"].startswith(f"advancement {trigger['where']['name']}, ability "), trigger
