"""Chat per game (issue 15): seated players write, anyone with the link reads; exact text; limits.

Over SQLite and PostgreSQL.  Rate limits are tested on the service's clock, set by the test.
"""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from conftest import wait_for
from social_helpers import count, create, dump, key, my_games, person
from waiting import PATIENCE

from mysticvale.server import chat as chat_limits
from mysticvale.server.social import table_feed

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TEXTS = ["<script>alert('x')</script> & <b>bold</b>", "Zweite Zeile:\nnoch eine\tmit Tab ", "  gg  ",
         "Ünïcödé 🌿✨ — \"quotes\" 'and' `ticks`", "x" * chat_limits.MAX_CHARS]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def table(client):
    """A game of Anna (seat 0, by key) and Bob (seat 1, claimed) with a bot at seat 2, on a test clock."""
    clock = Clock()
    social = client.app.state.social
    social.chat.clock = clock
    a, b = person(client, "Anna"), person(client, "Bob")
    g = create(client, a, players=3, bots={"2": "random"})
    tokens = [s["token"] for s in g["seats"]]
    r = client.post(f"/api/games/{g['id']}/claim", json={"token": tokens[1]}, headers=key(b))
    assert r.status_code == 200
    tokens[1] = r.json()["token"]           # Bob's fresh token (the invitation's ended, issue 22)
    # If the bot starts, let it finish its turn: the tests compare pictures of the database.
    wait_for(lambda: client.get(f"/api/games/{g['id']}/summary").json()["current_player"] != 2)
    return {"gid": g["id"], "tokens": tokens, "a": a, "b": b, "clock": clock}


def read(client, gid, **params):
    r = client.get(f"/api/games/{gid}/chat", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_messages_are_stored_and_returned_exactly_as_written(client, table):
    gid, clock = table["gid"], table["clock"]
    sent = []
    for i, text in enumerate(TEXTS):
        clock.now += 10
        # Anna by her seat token (in the header), Bob by his personal key
        headers = {"X-Seat-Token": table["tokens"][0]} if i % 2 else key(table["b"])
        r = client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=headers)
        assert r.status_code == 201, r.text
        sent.append(r.json())
    page = read(client, gid)
    assert [m["text"] for m in page["messages"]] == TEXTS
    assert page["last"] == len(TEXTS) and [m["n"] for m in page["messages"]] == [1, 2, 3, 4, 5]
    assert [(m["seat"], m["name"]) for m in page["messages"]] == [(1, "Bob"), (0, "Anna")] * 2 + [(1, "Bob")]
    assert page["messages"] == sent
    # spectators read it too, and can page from a message on
    assert [m["n"] for m in read(client, gid, after=3)["messages"]] == [4, 5]
    assert [m["n"] for m in read(client, gid, limit=2)["messages"]] == [4, 5]
    assert [m["n"] for m in read(client, gid, after=0, limit=2)["messages"]] == [1, 2]
    row = my_games(client, table["a"])[0]
    assert row["chat_messages"] == 5 and row["last_chat_at"] == clock.now


@pytest.mark.parametrize("text, status, words", [
    ("x" * (chat_limits.MAX_CHARS + 1), 422, "at most 500 characters"),
    ("", 422, "visible"), (" \n\t ", 422, "visible"), ("bell\x07", 422, "control"), ("nul\x00", 422, "control"),
    ("\n".join("line" for _ in range(chat_limits.MAX_LINES + 1)), 422, "lines"),
])
def test_unfit_messages_are_refused_and_nothing_is_stored(client, table, text, status, words):
    gid = table["gid"]
    before = dump(client)
    r = client.post(f"/api/games/{gid}/chat", json={"text": text, "token": table["tokens"][0]})
    assert r.status_code == status, r.text
    assert words in json.dumps(r.json()["detail"])
    assert dump(client) == before and read(client, gid)["last"] == 0


def test_only_seated_players_write(client, table):
    gid, c = table["gid"], person(client, "Cleo")
    before = dump(client)
    for r, status in [
        (client.post(f"/api/games/{gid}/chat", json={"text": "hi"}), 401),                         # a spectator
        (client.post(f"/api/games/{gid}/chat", json={"text": "hi", "token": "wrong"}), 403),
        (client.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers=key(c)), 403),       # holds no seat
        (client.post(f"/api/games/{gid}/chat", json={"text": "hi"}, headers={"X-Player-Key": "x"}), 403),
        (client.post("/api/games/nope/chat", json={"text": "hi"}, headers=key(table["a"])), 404),
        (client.post(f"/api/games/{gid}/chat", json={"text": "hi", "colour": 1}, headers=key(table["a"])), 422),
    ]:
        assert r.status_code == status, r.text
    assert dump(client) == before
    assert client.get("/api/games/nope/chat").status_code == 404


def test_too_fast_is_refused_with_retry_after_and_nothing_stored(client, table):
    gid, clock, token = table["gid"], table["clock"], table["tokens"][0]
    for i in range(chat_limits.SEAT_BURST):
        clock.now += 0.5
        assert client.post(f"/api/games/{gid}/chat", json={"text": f"m{i}", "token": token}).status_code == 201
    before = dump(client)
    clock.now += 0.5
    r = client.post(f"/api/games/{gid}/chat", json={"text": "one more", "token": token})
    assert r.status_code == 429 and "at most 5 messages" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) == 8            # the first of the five leaves the window in 8 s
    assert dump(client) == before
    # the other seat is not held back; the same seat may write again once the window has passed
    assert client.post(f"/api/games/{gid}/chat", json={"text": "hi", "token": table["tokens"][1]}).status_code == 201
    clock.now += 8
    assert client.post(f"/api/games/{gid}/chat", json={"text": "again", "token": token}).status_code == 201


def test_a_person_is_limited_over_all_their_games(client, table):
    clock, a = table["clock"], table["a"]
    games = [create(client, a)["id"] for _ in range(chat_limits.PERSON_BURST // chat_limits.SEAT_BURST + 1)]
    sent = 0
    for gid in games:
        for _ in range(chat_limits.SEAT_BURST):
            clock.now += 0.1
            r = client.post(f"/api/games/{gid}/chat", json={"text": "spam"}, headers=key(a))
            if sent < chat_limits.PERSON_BURST:
                assert r.status_code == 201, r.text
                sent += 1
            else:
                assert r.status_code == 429 and "over all your games" in r.json()["detail"]
    assert count(client, "chat_messages") == chat_limits.PERSON_BURST


def test_the_table_feed_carries_new_messages_and_claims_live(client):
    """What the game's WebSocket forwards: a chat message and a claimed seat, as they happen."""
    a, b = person(client, "Anna"), person(client, "Bob")
    g = create(client, a)
    gid, token1 = g["id"], g["seats"][1]["token"]
    social = client.app.state.social

    async def listen():
        feed = table_feed(social, gid)
        first = asyncio.ensure_future(feed.__anext__())
        while gid not in social.hub.listening("game"):     # subscribed (it runs up to its first await)
            await asyncio.sleep(0.01)
        loop = asyncio.get_running_loop()
        r = await loop.run_in_executor(None, lambda: client.post(
            f"/api/games/{gid}/chat", json={"text": "<i>hello</i>"}, headers=key(a)))
        assert r.status_code == 201
        chat = await asyncio.wait_for(first, PATIENCE)
        r = await loop.run_in_executor(None, lambda: client.post(
            f"/api/games/{gid}/claim", json={"token": token1}, headers=key(b)))
        assert r.status_code == 200
        seats = await asyncio.wait_for(feed.__anext__(), PATIENCE)
        await feed.aclose()
        return chat, seats

    # On a thread of its own: another test of this worker (a browser test) may leave a running loop here.
    result: list = []
    listener = threading.Thread(target=lambda: result.append(asyncio.run(listen())))
    listener.start()
    listener.join(2 * PATIENCE)
    chat, seats = result[0]
    assert chat == {"type": "chat", "message": read(client, gid)["messages"][0]}
    assert chat["message"]["text"] == "<i>hello</i>" and chat["message"]["name"] == "Anna"
    assert seats == {"type": "seats", "seats": [
        {"seat": 0, "bot": None, "name": "Anna", "open": False, "claimed": True},
        {"seat": 1, "bot": None, "name": "Bob", "open": False, "claimed": True}]}
    assert social.hub.listening("game") == set()          # the feed unsubscribed when closed


@pytest.mark.parametrize("text, reason", [
    ("\u200b", "chat_empty"), ("\u3164", "chat_empty"), ("\u200b\u3164 \u2800\n\u3164", "chat_empty"),
    ("\u0301\u0301", "chat_empty"),
    ("hi \u202eolleh", "bidi"), ("\u2066hidden\u2069", "bidi"), ("x\u202dy", "bidi"),
    ("look\u200bhere", "invisible"), ("gg\u3164", "invisible"),
    ("\u0301x", "marks"), ("Z\u0301\u0302\u0303\u0304algo", "marks"),
])
def test_invisible_and_direction_changing_messages_are_refused(client, table, text, reason):
    gid = table["gid"]
    before = dump(client)
    r = client.post(f"/api/games/{gid}/chat", json={"text": text, "token": table["tokens"][0]})
    assert r.status_code == 422, r.text
    assert r.json()["reason"] == reason
    assert dump(client) == before and read(client, gid)["last"] == 0


@pytest.mark.parametrize("text", ["❤️", "👨\u200d👩\u200d👧", "gg 👍🏽", "Tiếng Việt", "नमस्ते", "שלום and hello"])
def test_emoji_and_every_script_are_welcome_in_the_chat(client, table, text):
    r = client.post(f"/api/games/{table['gid']}/chat", json={"text": text, "token": table["tokens"][0]})
    assert r.status_code == 201, r.text
    assert r.json()["text"] == text


def test_a_games_chat_is_bounded_per_hour_and_per_day(client, table, monkeypatch):
    monkeypatch.setattr(chat_limits, "GAME_PER_HOUR", 12)
    monkeypatch.setattr(chat_limits, "GAME_PER_DAY", 20)
    gid, clock, tokens = table["gid"], table["clock"], table["tokens"]

    def post(i):
        clock.now += 5            # well within every seat's and person's rate
        return client.post(f"/api/games/{gid}/chat", json={"text": f"m{i}", "token": tokens[i % 2]})

    for i in range(12):
        assert post(i).status_code == 201
    before = dump(client)
    r = post(12)
    assert r.status_code == 429 and r.json()["reason"] == "chat_game_hour", r.text
    assert r.json()["params"]["limit"] == 12 and r.json()["params"]["minutes"] >= 1
    assert "at most 12 messages in an hour" in r.json()["detail"]
    first = read(client, gid)["messages"][0]["at"]
    assert int(r.headers["Retry-After"]) == int(first + 3600 - clock.now + 0.999)
    assert dump(client) == before
    # other games are not held back
    other = create(client, table["a"])
    assert client.post(f"/api/games/{other['id']}/chat", json={"text": "hi"}, headers=key(table["a"])).status_code == 201
    clock.now += 3600
    for i in range(8):
        assert post(i).status_code == 201
    r = post(9)
    assert r.status_code == 429 and r.json()["reason"] == "chat_game_day", r.text
    assert read(client, gid)["last"] == 20
