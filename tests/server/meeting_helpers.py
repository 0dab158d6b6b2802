"""Helpers of the tests of tables, open tables, results, ratings, profiles and replays (issue 21)."""

from __future__ import annotations

import time

from conftest import wait_for

from mysticvale.bots import SeatView, make_bot
from mysticvale.server import results


def finish(client, gid: str, limit: int = 5000) -> None:
    """Play every human seat of ``gid`` (a game with a person at it) with a greedy bot until the game
    is over (bot seats play themselves on the server), through the game's session as the HTTP routes
    do; then wait until the people service has written its results (on its own thread)."""
    manager = client.app.state.manager
    bots = {}
    for _ in range(limit):
        with manager.use(gid) as s:
            with s._lock:
                g = s.game
                if g.is_over():
                    break
                seat = g.current_player
                mine = s.seats[seat].bot is None
                copy, seq = g.clone(), s.seq
        if not mine:
            before = seq
            wait_for(lambda: manager.get(gid).seq != before or manager.get(gid).game.is_over(), timeout=120)
            continue
        bot = bots.setdefault(seat, make_bot("greedy", seed=seat + 7))
        with manager.use(gid) as s:
            s.act(seat, str(bot.act(SeatView(copy, seat))), seq)
    else:
        raise AssertionError("the game did not end")
    # The end reaches the people service just after the move's lock is let go: wait for the
    # results it writes (every game finished here has a person at it), then for the rest.
    wait_for(lambda: results._written(manager.storage.engine, gid), timeout=120)
    settle(client)


def settle(client) -> None:
    """Wait until the people service has handled every event so far (results, open tables)."""
    social = client.app.state.social
    deadline = time.monotonic() + 120
    while not social.wait_idle(1.0):
        assert time.monotonic() < deadline, "the people service did not settle"


def winners(client, gid: str) -> list[int]:
    return client.get(f"/api/games/{gid}/summary").json()["winners"]
