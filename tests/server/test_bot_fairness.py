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


# -- issue 22: search is shared between people, not between games -----------------------------------
FLOOD_GAMES = 10
THINK = 0.05


def _flood_scenario_app(sqlite_url):
    from mysticvale.server.app import create_app
    from mysticvale.server.limits import Limits

    return create_app(sqlite_url, allow_seed=True, bot_workers=1, bot_threads=1, limits=Limits(max_think=THINK))


def test_a_flood_from_one_client_leaves_other_peoples_search_bots_at_their_turn_and_stops_when_it_leaves(
        sqlite_url):
    """Issue 22's scenario: ten anonymous 4-seat games from one client, each with three searching
    bots, its human seat played at once; then another client's game with a searching bot.  Judged
    by the scheduler's record of which game's move was queued, picked and parked, never by time."""
    _need_ismcts()
    from fastapi.testclient import TestClient

    app = _flood_scenario_app(sqlite_url)
    with TestClient(app, client=("198.51.100.7", 4000)) as flood:
        other = TestClient(app, client=("203.0.113.9", 4001))
        manager = app.state.manager
        scheduler = manager.scheduler
        games = []
        for _ in range(FLOOD_GAMES):
            r = flood.post("/api/games", json={"players": 4, "bots": {str(s): f"ismcts:{THINK}" for s in (1, 2, 3)}})
            assert r.status_code == 201, r.text
            games.append((r.json()["id"], r.json()["seats"][0]["token"]))
        flood_ids = {gid for gid, _ in games}

        def play_flood() -> None:
            """The flood's human seats act the moment it is their decision."""
            for gid, token in games:
                st = flood.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()
                if st["legal_actions"]:
                    flood.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": token},
                               json={"action": st["legal_actions"][0], "seq": st["seq"]})

        def backlog() -> int:
            play_flood()
            return scheduler.waiting()["search"]

        # the flood has searched for a while (its client's share is in use) and has a queue
        wait_for(lambda: sum(1 for e in scheduler.events() if e[0] == "done" and e[1] in flood_ids) >= 3
                 and backlog() >= 4)

        # another person's game: a human seat and a searching bot, played from another address
        r = other.post("/api/games", json={"players": 2, "bots": {"1": f"ismcts:{THINK}"}})
        assert r.status_code == 201, r.text
        mine, my_token = r.json()["id"], r.json()["seats"][0]["token"]

        def my_bot_queued() -> bool:
            st = other.get(f"/api/games/{mine}/state", headers={"X-Seat-Token": my_token}).json()
            if st["legal_actions"]:
                other.post(f"/api/games/{mine}/actions", headers={"X-Seat-Token": my_token},
                           json={"action": st["legal_actions"][0], "seq": st["seq"]})
            return any(e[0] == "queued" for e in scheduler.events(mine))

        wait_for(my_bot_queued)
        wait_for(lambda: any(e[0] == "picked" for e in scheduler.events(mine)))
        record = scheduler.events()
        queued = next(i for i, e in enumerate(record) if e[0] == "queued" and e[1] == mine)
        picked = next(i for i, e in enumerate(record) if e[0] == "picked" and e[1] == mine)
        waiting_flood = (sum(1 for e in record[:queued] if e[1] in flood_ids and e[0] == "queued")
                         - sum(1 for e in record[:queued] if e[1] in flood_ids and e[0] in ("picked", "parked")))
        assert waiting_flood >= 2, "the flood had no backlog when the other person's bot was due"
        # first come, first served would have run the flood's queue first: nothing of it went before
        assert [e for e in record[queued:picked] if e[0] == "picked"] == []
        assert scheduler.usage.of("addr:198.51.100.7") > scheduler.usage.of("addr:203.0.113.9")

        # The flood's client goes away (no request, no socket) and time passes: its backlog is parked,
        # not searched.  (The attendance clock is moved instead of waiting for it.)
        real = manager.clock
        manager.clock = lambda: real() + 10 * manager.absent_after
        # (a flood move already picked when the clock moved runs to its end first: then its game
        # parks too, and no flood bot is busy)
        sessions = {gid: manager._sessions[gid] for gid in flood_ids}     # (looked at, not used: get() is a use)
        wait_for(lambda: scheduler.waiting()["search"] == 0 and all(not s.bot_busy for s in sessions.values()))
        parked_at = len(scheduler.events())
        stalled = [gid for gid, s in sessions.items() if s.bot_parked]
        assert stalled, "no flood game was waiting for its bots"
        # the other person plays on (their requests count at the new time): their bot still moves,
        # and no move of the flood is searched meanwhile
        moved = sum(1 for e in scheduler.events(mine) if e[0] == "done")
        wait_for(lambda: my_bot_queued() and sum(1 for e in scheduler.events(mine) if e[0] == "done") >= moved + 2)
        assert [e for e in scheduler.events()[parked_at:] if e[1] in flood_ids and e[0] == "picked"] == []

        # somebody opens a parked game again: its bots play on
        back = stalled[0]
        before = len(scheduler.events(back))
        assert flood.get(f"/api/games/{back}/state").status_code == 200
        wait_for(lambda: any(e[0] == "picked" for e in scheduler.events(back)[before:]))
