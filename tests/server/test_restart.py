"""Kill ``mysticvale serve`` with SIGKILL mid-game, restart it, continue: nothing lost, nothing doubled.

Two games run on the server: A (a human seat played over HTTP against a bot) and B (bots only,
which the server plays by itself).  The server is killed while B's bots are playing, again with an
action request of A in flight, and again while A's bot is playing.  After every restart the games go
on (bots resume by themselves); B is played to its end and A for many turns, and both must equal the
same games played without interruption, computed here directly with the engine and the bots (same
seed, same choices); the database must hold exactly one record per action.
"""

from __future__ import annotations

import threading
import time

import httpx
import mysticvale as mv
import pytest
from conftest import choose, server_game, server_on_backend, wait_for
from waiting import HTTP_TIMEOUT

from mysticvale.bots import SeatView, make_bot
from mysticvale.server import Storage, bot_seed

SEED_A, SEED_B = 101, 202


def reference(seed: int, players: int, bots: dict[int, str], actions: int | None = None) -> mv.Game:
    """The uninterrupted game: humans pick ``choose(seq, legal)``, bots play as the server seeds them.

    Played to the end, or to ``actions`` actions.
    """
    g = server_game(players=players, seed=seed, humans=len(bots) < players)
    while not g.is_over() and (actions is None or len(g.history) < actions):
        seq, seat = len(g.history), g.current_player
        if seat in bots:
            action = make_bot(bots[seat], seed=bot_seed(seed, seat, seq)).act(SeatView(g, seat))
        else:
            action = choose(seq, [str(a) for a in g.legal_actions()])
        g.apply_action(action)
    return g


def get_state(base: str, gid: str, token: str | None = None) -> dict:
    r = httpx.get(f"{base}/api/games/{gid}/state", params={"token": token} if token else None, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200, r.text
    return r.json()


def my_turn_or_over(base, gid, token):
    st = get_state(base, gid, token)
    return st if st["legal_actions"] or st["observation"]["over"] else None


def play_human(base: str, gid: str, token: str, moves: int) -> dict:
    """Play ``moves`` actions of the human seat (waiting for the bot in between)."""
    st = get_state(base, gid, token)
    for _ in range(moves):
        st = wait_for(lambda: my_turn_or_over(base, gid, token), interval=0.02)
        if st["observation"]["over"]:
            break
        r = httpx.post(f"{base}/api/games/{gid}/actions", timeout=HTTP_TIMEOUT,
                       json={"token": token, "action": choose(st["seq"], st["legal_actions"]), "seq": st["seq"]})
        assert r.status_code == 200, r.text
        st = r.json()
    return st


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_sigkill_mid_game_loses_and_duplicates_nothing(tmp_path, request, backend):
    srv = server_on_backend(tmp_path, request, backend)
    try:
        base = srv.base
        b = httpx.post(f"{base}/api/games", json={"players": 2, "seed": SEED_B,
                                                   "bots": {"0": "random", "1": "random"}}, timeout=HTTP_TIMEOUT).json()
        a = httpx.post(f"{base}/api/games", json={"players": 2, "seed": SEED_A, "bots": {"1": "random"}},
                       timeout=HTTP_TIMEOUT).json()
        gid_a, gid_b, token = a["id"], b["id"], a["seats"][0]["token"]

        # 1. Kill while B's bots are playing.
        wait_for(lambda: get_state(base, gid_b)["seq"] >= 20, interval=0.002)
        srv.kill()
        srv.start()
        seq_b_killed = get_state(base, gid_b)["seq"]
        assert seq_b_killed >= 20

        # 2. Play some of A, then kill with an action request in flight.
        st = play_human(base, gid_a, token, 25)
        st = wait_for(lambda: my_turn_or_over(base, gid_a, token))
        action, seq = choose(st["seq"], st["legal_actions"]), st["seq"]
        answers: list = []

        def send():
            try:
                answers.append(httpx.post(f"{base}/api/games/{gid_a}/actions", timeout=HTTP_TIMEOUT,
                                          json={"token": token, "action": action, "seq": seq}).status_code)
            except httpx.HTTPError as exc:
                answers.append(exc)

        sender = threading.Thread(target=send)
        sender.start()
        time.sleep(0.003)
        srv.kill()
        sender.join()
        srv.start()
        # The client does not know whether its action was stored: it retries with the same seq.
        retry = httpx.post(f"{base}/api/games/{gid_a}/actions", timeout=HTTP_TIMEOUT,
                           json={"token": token, "action": action, "seq": seq})
        # Either way the retry succeeds, and the action is in the log exactly once: if it was stored
        # before the kill, the retry finds its own record and says so instead of applying it again.
        assert retry.status_code == 200, retry.text
        assert retry.json()["applied_seq"] == seq + 1
        if answers and answers[0] == 200:
            assert retry.json()["repeated"] is True

        # 3. Kill just after the human hands the turn to A's bot (the bot is playing), then finish.
        for _ in range(500):
            st = wait_for(lambda: my_turn_or_over(base, gid_a, token))
            if st["observation"]["over"]:
                break
            r = httpx.post(f"{base}/api/games/{gid_a}/actions", timeout=HTTP_TIMEOUT, json={
                "token": token, "action": choose(st["seq"], st["legal_actions"]), "seq": st["seq"]})
            assert r.status_code == 200, r.text
            if r.json()["observation"]["acting_player"] == 1:
                break
        srv.kill()
        srv.start()
        play_human(base, gid_a, token, 15)
        wait_for(lambda: my_turn_or_over(base, gid_a, token))
        wait_for(lambda: get_state(base, gid_b)["observation"]["over"])

        # 4. Compare with the uninterrupted games.
        final_a, final_b = get_state(base, gid_a, token), get_state(base, gid_b)
        ref_a = reference(SEED_A, 2, {1: "random"}, actions=final_a["seq"])
        ref_b = reference(SEED_B, 2, {0: "random", 1: "random"})
        assert final_a["observation"]["turn_number"] > 10
        assert final_a["observation"] == ref_a.observe(0)
        assert final_a["log"] == ref_a.log(0)
        assert get_state(base, gid_a)["log"] == ref_a.log(None)
        assert final_b["observation"] == ref_b.observe(None)
        assert final_b["log"] == ref_b.log(None)
        assert final_a["seq"] == len(ref_a.history) and final_b["seq"] == len(ref_b.history)
        assert final_b["observation"]["scores"] == ref_b.observe(None)["scores"]
    finally:
        srv.kill()
    # exactly one stored record per action
    store = Storage(srv.database or f"sqlite:///{tmp_path / 'mysticvale.db'}")
    try:
        assert store.record_count(gid_a) == len(ref_a.history)
        assert store.record_count(gid_b) == len(ref_b.history)
    finally:
        store.close()
    assert seq_b_killed < len(ref_b.history)      # B really was interrupted mid-game, and resumed
