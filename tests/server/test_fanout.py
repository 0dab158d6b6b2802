"""Many sockets watching one game: each version is serialised once for all of them, in both update
protocols, and every socket gets it (issue 16, item 5: "500 spectators on one game take 0.5 s per
action").  The serialisers are spied on and their calls counted per message."""

from __future__ import annotations

import json
from collections import Counter
from contextlib import ExitStack

import pytest
from conftest import server_game
from waiting import run_coroutine
from fastapi.testclient import TestClient

from mysticvale.server import create_app, sessions, updates
from mysticvale.server.limits import Limits
from mysticvale.server.updates import apply_ops

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

#: Spectator sockets per game (the benchmark runs 500; here enough to show sharing, and quick).
WATCHERS = 40


@pytest.fixture
def watched_client(sqlite_url):
    """A server that lets this test's one client address hold all its watchers' sockets (the bound
    per address, 24 by default, is for strangers: issue 22)."""
    with TestClient(create_app(sqlite_url, allow_seed=True, limits=Limits(sockets_per_address=WATCHERS + 4))) as c:
        yield c


def _create(client, seed: int) -> tuple[str, list[str]]:
    r = client.post("/api/games", json={"players": 2, "seed": seed})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["id"], [s["token"] for s in g["seats"]]


def _spy(monkeypatch, module) -> Counter:
    """Count every call of ``module.dumps`` by the message's (type, seq)."""
    calls: Counter = Counter()
    real = module.dumps

    def counting(value):
        calls[(value.get("type"), value.get("seq"))] += 1
        return real(value)

    monkeypatch.setattr(module, "dumps", counting)
    return calls


def _act(client, gid: str, token: str, ref, seq: int) -> None:
    action = str(ref.legal_actions()[0])
    r = client.post(f"/api/games/{gid}/actions", json={"action": action, "seq": seq},
                    headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    ref.apply_action(action)


def test_protocol_2_spectators_share_one_delta_per_version(watched_client, monkeypatch):
    client = watched_client
    gid, tokens = _create(client, seed=31)
    ref = server_game(players=2, seed=31)
    calls = _spy(monkeypatch, updates)
    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/api/games/{gid}/ws?since=-1"))
                   for _ in range(WATCHERS)]
        firsts = [ws.receive_text() for ws in sockets]
        assert len(set(firsts)) == 1                        # one text, sent as is by every socket
        full = json.loads(firsts[0])
        assert (full["type"], full["seq"], full["view"]["seat"]) == ("full", 0, None)
        assert calls == Counter({("full", 0): 1})
        view = full["view"]
        for seq in range(3):
            seat = ref.current_player
            _act(client, gid, tokens[seat], ref, seq)       # its answer is a protocol-1 state: no feed text
            texts = [ws.receive_text() for ws in sockets]
            assert len(set(texts)) == 1
            delta = json.loads(texts[0])
            assert (delta["type"], delta["seq"], delta["from"], delta["by"]) == ("delta", seq + 1, seq, seat)
            view = apply_ops(view, delta["ops"])
            assert view["observation"] == ref.observe(None)
            assert calls[("delta", seq + 1)] == 1
        assert sum(calls.values()) == 4                     # the full state and three deltas, for 40 sockets
        session = client.app.state.manager.get(gid)
        # What the pushers read without a worker thread is what the feed answers in one.
        assert session.feed.cached_since(None, 1) == session.feed.since(session, None, 1)
        assert session.feed.cached_since(None, 3) == (3, [])
        assert session.feed.cached_since(0, 0) is None      # seat 0 has no table open: not tracked
        assert sum(calls.values()) == 4


def test_protocol_1_spectators_share_one_state_text_per_version(watched_client, monkeypatch):
    client = watched_client
    gid, tokens = _create(client, seed=32)
    ref = server_game(players=2, seed=32)
    calls = _spy(monkeypatch, sessions)
    with ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(f"/api/games/{gid}/ws"))
                   for _ in range(WATCHERS)]
        firsts = [ws.receive_text() for ws in sockets]
        assert len(set(firsts)) == 1
        first = json.loads(firsts[0])
        assert (first["type"], first["seq"], first["seat"]) == ("state", 0, None)
        assert calls == Counter({("state", 0): 1})
        for seq in range(3):
            _act(client, gid, tokens[ref.current_player], ref, seq)
            texts = [ws.receive_text() for ws in sockets]
            assert len(set(texts)) == 1
            state = json.loads(texts[0])
            assert (state["type"], state["seq"]) == ("state", seq + 1)
            assert state["observation"] == ref.observe(None)
            assert state["log"] == ref.log(None)
            assert calls[("state", seq + 1)] == 1
        assert sum(calls.values()) == 4


def test_pushers_read_serialised_versions_without_a_worker_thread(watched_client, monkeypatch):
    """``updates_after``: a socket that holds a tracked version gets the cached deltas on the event
    loop; anything else (here: a seat's first full state) goes to :meth:`Feed.since` in a thread."""
    import starlette.concurrency

    client = watched_client
    gid, tokens = _create(client, seed=33)
    ref = server_game(players=2, seed=33)
    session = client.app.state.manager.get(gid)
    hops: list = []
    real = starlette.concurrency.run_in_threadpool

    async def counting(func, *args):
        hops.append(func.__name__)
        return await real(func, *args)

    monkeypatch.setattr(starlette.concurrency, "run_in_threadpool", counting)
    seq, [full] = run_coroutine(updates.updates_after(session, None, None))     # not tracked: a full state
    assert (seq, json.loads(full)["type"], hops) == (0, "full", ["since"])
    for step in range(2):
        _act(client, gid, tokens[ref.current_player], ref, step)
    seq, texts = run_coroutine(updates.updates_after(session, None, 0))
    assert seq == 2 and [json.loads(t)["seq"] for t in texts] == [1, 2]
    assert texts == session.feed.since(session, None, 0)[1]
    assert hops == ["since"]                                  # no second hop: both deltas were cached
    assert run_coroutine(updates.updates_after(session, None, 2)) == (2, [])
    assert run_coroutine(updates.updates_after(session, None, 7))[1][0].startswith('{"type":"full"')
    assert hops == ["since", "since"]                         # ahead of the game: the feed decides
