"""Helpers of the people, chat and e-mail tests: people, games and moves over the HTTP API."""

from __future__ import annotations

import sqlalchemy as sa
from conftest import choose, wait_for


def person(client, name: str) -> dict:
    """A new person: {id, name, key, link}."""
    r = client.post("/api/people", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()


def key(p: dict) -> dict:
    """The header that carries a person's key."""
    return {"X-Player-Key": p["key"]}


def create(client, who: dict | None = None, **body) -> dict:
    body.setdefault("players", 2)
    body.setdefault("seed", 11)
    r = client.post("/api/games", json=body, headers=key(who) if who else None)
    assert r.status_code == 201, r.text
    return r.json()


def my_games(client, who: dict, **params) -> list[dict]:
    r = client.get("/api/people/me/games", headers=key(who), params=params)
    assert r.status_code == 200, r.text
    return r.json()["games"]


def state(client, gid: str, token: str | None = None) -> dict:
    r = client.get(f"/api/games/{gid}/state", params={"token": token} if token else None)
    assert r.status_code == 200, r.text
    return r.json()


def act(client, gid: str, token: str, salt: int = 0) -> dict:
    """Play one deterministic legal action of the token's seat (it must be its decision)."""
    st = state(client, gid, token)
    assert st["legal_actions"], "not this seat's decision"
    r = client.post(f"/api/games/{gid}/actions",
                    json={"token": token, "action": choose(st["seq"], st["legal_actions"], salt), "seq": st["seq"]})
    assert r.status_code == 200, r.text
    return r.json()


def play_until(client, gid: str, tokens: dict[int, str], done, limit: int = 400, salt: int = 0) -> dict:
    """Play the human seats (``tokens``: seat -> token) until ``done(spectator state)``; bots play themselves."""
    for _ in range(limit):
        spec = state(client, gid)
        if done(spec):
            return spec
        if spec["observation"]["over"]:
            raise AssertionError("the game ended first")
        seat = spec["observation"]["acting_player"]
        if seat in tokens:
            act(client, gid, tokens[seat], salt)
        else:
            wait_for(lambda: state(client, gid)["seq"] != spec["seq"])
    raise AssertionError("the condition never came")


def engine(client) -> sa.engine.Engine:
    """The app's database engine (to check what is stored)."""
    return client.app.state.manager.storage.engine


def count(client, table: str) -> int:
    with engine(client).connect() as c:
        return c.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar()


def dump(client) -> str:
    """Every row of every table, as text (to check that a secret is stored nowhere)."""
    eng = engine(client)
    out = []
    with eng.connect() as c:
        for t in sa.inspect(eng).get_table_names():
            out += [repr(tuple(r)) for r in c.execute(sa.text(f"SELECT * FROM {t}"))]
    return "\n".join(out)
