"""Attendance is shared between server processes on PostgreSQL (issue 22: games whose people are gone
do not search).

Process A is a ``mysticvale serve`` subprocess; process B is a server in the test's own process, so
the test can ask B's session manager what its bot worker asks before every search:
``attended(session)``.  Both serve one database, with the attendance time and the presence
expiry made short through their settings (``--absent-after``, ``--presence-expiry``).  A game
created on B whose only watcher is a socket on A is attended for B; once the watcher has left, or
once A has died with the socket open and its word has expired, it is not.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import sqlalchemy as sa
from conftest import ServerProcess, _fresh_pg_database, server_game, wait_for
from fastapi.testclient import TestClient
from waiting import HTTP_TIMEOUT
from websockets.sync.client import connect

from mysticvale.server import create_app

#: The presence expiry is long enough that a heartbeat (every third of it) is never missed on a
#: loaded machine, where a starved process could otherwise let a live watcher's row lapse.
ABSENT_AFTER, EXPIRY = 1.0, 12.0


def person_first(start: int) -> int:
    """A seed from ``start`` on whose game the person (seat 0) begins, as the engine deals it: the
    bot's first move then comes only after the person's."""
    return next(s for s in range(start, start + 100) if server_game(players=2, seed=s).current_player == 0)


def _presence(url: str, gid: str) -> list[str]:
    eng = sa.create_engine(url)
    try:
        with eng.connect() as c:
            return list(c.execute(sa.text("SELECT process FROM presence WHERE game_id = :g"), {"g": gid}).scalars())
    finally:
        eng.dispose()


@dataclass
class Pair:
    """Process A (a subprocess), process B (the test's own app), and a game B created and runs."""
    a: ServerProcess
    manager: object         # B's session manager
    session: object         # the game's session on B
    gid: str
    database: str

    def watcher(self):
        """A spectator's socket on process A for the game."""
        url = self.a.base.replace("http://", "ws://") + f"/api/games/{self.gid}/ws"
        return connect(url, subprotocols=["mysticvale"], open_timeout=HTTP_TIMEOUT)


@contextmanager
def two_processes(tmp_path, pg_url, seed: int):
    """A and B on one fresh database, both with the short attendance and presence settings, and a
    game with a searching bot (seat 1) created on B, which holds it and runs its bot."""
    database = _fresh_pg_database(pg_url)
    a = ServerProcess(tmp_path, database, ("--absent-after", str(ABSENT_AFTER), "--presence-expiry", str(EXPIRY)))
    a.start()
    try:
        app = create_app(database, allow_seed=True, absent_after=ABSENT_AFTER, presence_expiry=EXPIRY)
        with TestClient(app) as b:
            manager = app.state.manager
            r = b.post("/api/games", json={"players": 2, "seed": seed, "bots": {"1": "ismcts:0.1"}})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            assert manager.coordinator.claim(gid)
            yield Pair(a, manager, manager._sessions[gid], gid, database)
    finally:
        a.kill()


def test_a_watcher_on_one_process_keeps_the_game_attended_for_the_bots_on_another(tmp_path, pg_url):
    with two_processes(tmp_path, pg_url, seed=71) as pair:
        manager, session, database, gid = pair.manager, pair.session, pair.database, pair.gid
        # Nobody is at the table: once B's own request is past the attendance time, nobody attends it.
        wait_for(lambda: not manager.attended(session))
        with pair.watcher() as watcher:
            watcher.recv(timeout=HTTP_TIMEOUT)      # the first state: the watcher is at the table on A
            wait_for(lambda: manager.attended(session))
            assert not manager._attended_here(session)      # B itself has seen nobody: A's word counts
            assert set(_presence(database, gid)) - {manager.coordinator.instance}     # A's row
        # The watcher left: A withdraws its word, and B's bots stop counting the game as attended.
        wait_for(lambda: not manager.attended(session))
        wait_for(lambda: _presence(database, gid) == [])
        # A watcher again, and then A dies with the socket open: its word counts until it expires.
        with pair.watcher() as watcher:
            watcher.recv(timeout=HTTP_TIMEOUT)
            wait_for(lambda: manager.attended(session))
            pair.a.kill()
        wait_for(lambda: not manager.attended(session))
        wait_for(lambda: _presence(database, gid) == [])     # the expired row is cleared too


def test_a_parked_bot_plays_on_when_somebody_opens_the_game_on_another_process(tmp_path, pg_url):
    """The bot of a game nobody attends is parked on B; a watcher opening the game on A wakes it at
    once (A's ``present`` note), and it plays its move."""
    with two_processes(tmp_path, pg_url, seed=person_first(72)) as pair:
        manager, session, gid = pair.manager, pair.session, pair.gid
        assert session.bot_spec_to_move() is None                       # the person's turn
        # Time passes on B (its attendance clock is moved instead of waiting): nobody attends the
        # game anywhere.  The person's moves are applied by B itself (a request would attend the
        # game), until the turn passes to the searching bot: it is parked, not searched.
        real = manager.clock
        manager.clock = lambda: real() + 1000 * ABSENT_AFTER
        for _ in range(200):
            if session.bot_spec_to_move() is not None:
                break
            seat = session.game.current_player
            session.act(seat, str(session.game.legal_actions()[0]), session.seq)
        assert session.bot_spec_to_move() is not None
        wait_for(lambda: session.bot_parked)
        parked_at = session.seq
        assert [e[0] for e in manager.scheduler.events(gid)][-1] == "parked"
        # were B to give the game up, no process's sweep would take over a bot nobody waits for
        assert manager.coordinator.presence.unattended([gid]) == {gid}
        # Somebody opens the game on A: B's parked bot plays its move.
        with pair.watcher() as watcher:
            watcher.recv(timeout=HTTP_TIMEOUT)
            wait_for(lambda: session.seq > parked_at)
            assert "picked" in [e[0] for e in manager.scheduler.events(gid)]
            assert not manager._attended_here(session)
