"""Nobody can stall the bots: a flood of hostile search-bot games does not hold up an ordinary game's
bot, and the search worker processes die with the server.

The flood is judged by order, not by the clock: the scheduler records which game each worker took
(and in which lane), and between the moment an ordinary game's bot is due and its move, only the
moves already running and at most one bot-only move may start, however many hostile games wait.
(First in, first out across games would run every hostile game once first.)
"""

from __future__ import annotations

import os
import signal
import time

import httpx
import mysticvale as mv
import pytest
from conftest import ServerProcess, wait_for
from waiting import HTTP_TIMEOUT

from mysticvale.bots import bot_names
from mysticvale.server import Storage
from mysticvale.server.sessions import SessionManager

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

HOSTILE = 8


def _need_ismcts():
    if "ismcts" not in bot_names():
        pytest.skip("needs the ismcts bot")


def _seed_where_seat_moves_first(seat: int) -> int:
    return next(s for s in range(1, 500) if mv.new_game(players=2, seed=s).current_player == seat)


def test_an_ordinary_games_bots_move_through_a_flood_of_bot_only_search_games(sqlite_url):
    _need_ismcts()
    store = Storage(sqlite_url)
    manager = SessionManager(store, allow_seed=True, bot_workers=1, bot_threads=1, max_think=0.3)
    try:
        hostile = [manager.create(2, ["base"], False, "yucata", {0: "ismcts:0.3", 1: "ismcts:0.3"})[0]
                   for _ in range(HOSTILE)]
        wait_for(lambda: sum(h.seq for h in hostile) >= 2)     # the search worker is up
        hostile_ids = {h.id for h in hostile}
        picks = manager.scheduler.picks

        def moves_between(game_id: str, start: int) -> int:
            """Hostile moves picked after ``start`` and before ``game_id``'s first pick."""
            seen = list(picks)[start:]
            end = next(i for i, (_, key) in enumerate(seen) if key == game_id)
            return sum(1 for _, key in seen[:end] if key in hostile_ids)

        # A searching bot in a game with a person at the table: at most the running move and one
        # bot-only move go before it (its lane takes bot-only games every 4th pick).
        start = len(picks)
        ordinary, _ = manager.create(2, ["base"], False, "yucata", {1: "ismcts:0.3"},
                                     seed=_seed_where_seat_moves_first(1))
        wait_for(lambda: ordinary.seq >= 1)
        assert moves_between(ordinary.id, start) <= 2
        assert manager.scheduler.waiting()["search"] >= HOSTILE - 3      # the flood was still queued

        # A greedy bot runs in its own lane: no search move at all needs to finish first.  (Judged
        # by the lane it was picked in, not by how many searches ended meanwhile: that counts how
        # fast the machine is.)
        if "greedy" in bot_names():
            quick, _ = manager.create(2, ["base"], False, "yucata", {0: "greedy"},
                                      seed=_seed_where_seat_moves_first(0))
            wait_for(lambda: quick.seq >= 1)
            assert [lane for lane, key in picks if key == quick.id][:1] == ["cheap"]
            assert all(lane == "search" for lane, key in picks if key in hostile_ids)
        # and the flood itself is served round-robin: every hostile game has moved
        wait_for(lambda: all(h.seq >= 1 for h in hostile))
    finally:
        manager.close()
        store.close()


def _children(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                kids.append(int(entry))
    return kids


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_search_workers_die_with_the_server(tmp_path):
    _need_ismcts()
    srv = ServerProcess(tmp_path)
    srv.start()
    try:
        r = httpx.post(srv.base + "/api/games", json={"players": 2, "bots": {"0": "ismcts:5", "1": "ismcts:5"}},
                       timeout=HTTP_TIMEOUT)
        assert r.status_code == 201, r.text
        # a search worker process is running (thinking 5 s per decision)
        workers = wait_for(lambda: [p for p in _children(srv.proc.pid) if _alive(p)])
        time.sleep(0.5)
        workers = [p for p in _children(srv.proc.pid) if _alive(p)]
        srv.proc.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        srv.proc.send_signal(signal.SIGKILL)     # as a supervisor does when SIGTERM takes too long
        srv.proc.wait(timeout=30)
        srv.proc = None
        wait_for(lambda: not any(_alive(p) for p in workers), interval=0.1)
    finally:
        srv.kill()
