"""Storage: rebuilding games from snapshots plus records, fallbacks, and writes that must not half-happen."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from conftest import choose, wait_for
from waiting import PATIENCE
from fastapi.testclient import TestClient

from mysticvale.server import Storage, create_app
from mysticvale.server.sessions import Conflict, SessionManager
from mysticvale.server.storage import SNAPSHOT_EVERY, SNAPSHOTS_KEPT, Record, StorageError, Summary, snapshots

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _play(session, moves: int, salt: int = 0, undo_every: int = 0) -> int:
    """Play ``moves`` records on a session (both seats human), undoing now and then."""
    undos = 0
    for i in range(moves):
        if session.game.is_over():
            break
        seat = session.game.current_player
        body = session.state_for(seat)
        if undo_every and body["can_undo"] and i % undo_every == 0:
            session.undo(seat, session.seq)
            undos += 1
        else:
            session.act(seat, choose(session.seq, body["legal_actions"], salt), session.seq)
    return undos


def _same(a, b) -> None:
    assert a.seq == b.seq
    assert a.game.history == b.game.history
    assert a.game.to_json() == b.game.to_json()
    for seat in (None, *range(a.game.players)):
        assert a.state_for(seat) == b.state_for(seat)


def test_restore_from_snapshot_and_records_equals_the_live_game(db_url):
    store = Storage(db_url)
    live_mgr = SessionManager(store, allow_seed=True)
    try:
        live, _ = live_mgr.create(2, ["base"], False, "yucata", {}, seed=61)
        undos = _play(live, 3 * SNAPSHOT_EVERY + 5, salt=1, undo_every=2)
        assert undos > 0
        # a second manager on the same database plays the part of the restarted server
        restored = SessionManager(store, allow_seed=True).get(live.id)
        _same(live, restored)
        # the restored session plays on, and is restored exactly again
        _play(restored, 20, salt=2, undo_every=3)
        _same(restored, SessionManager(store, allow_seed=True).get(live.id))
        # the old session (like another server process's copy) is behind: its record number is taken,
        # so its write is refused as stale, nothing of it is stored, and it catches up from the log in place
        seat, old_seq = live.game.current_player, live.seq
        taken = store.record(live.id, old_seq + 1)
        mine = next(a for a in live.state_for(seat)["legal_actions"] if seat != taken.seat or a != taken.action)
        with pytest.raises(Conflict) as refused:
            live.act(seat, mine, old_seq)
        assert "stale" in refused.value.message
        assert store.record(live.id, old_seq + 1) == taken
        assert live_mgr.get(live.id) is live
        _same(live, restored)
        # old snapshots are pruned: the creation snapshot and the latest few remain
        with store.engine.connect() as c:
            kept = c.execute(sa.select(snapshots.c.seq).where(snapshots.c.game_id == live.id)).scalars().all()
        assert 0 in kept and len(kept) <= SNAPSHOTS_KEPT + 1
    finally:
        live_mgr.close()
        store.close()


def test_unusable_snapshot_falls_back_to_replaying_the_log(sqlite_url):
    store = Storage(sqlite_url)
    mgr = SessionManager(store, allow_seed=True)
    live, _ = mgr.create(2, ["base"], False, "yucata", {}, seed=62)
    _play(live, SNAPSHOT_EVERY + 7, salt=3)
    with store.engine.begin() as c:
        c.execute(sa.update(snapshots).where(snapshots.c.game_id == live.id).values(state="{not a save"))
    _same(live, SessionManager(store, allow_seed=True).get(live.id))
    mgr.close()
    store.close()


def test_a_record_number_cannot_be_stored_twice(db_url):
    store = Storage(db_url)
    mgr = SessionManager(store, allow_seed=True)
    live, _ = mgr.create(2, ["base"], False, "yucata", {}, seed=63)
    _play(live, 3)
    summary = Summary(0, "planting", 1, False, [])
    for seq in (1, 3, 5):       # taken, taken, and not the next number
        with pytest.raises(StorageError):
            store.append(live.id, Record(seq, "action", 0, "push", None, True, 1), summary)
    assert store.record_count(live.id) == 3
    mgr.close()
    store.close()


def test_a_failed_commit_changes_nothing(sqlite_url, monkeypatch):
    with TestClient(create_app(sqlite_url, allow_seed=True)) as client:
        g = client.post("/api/games", json={"players": 2, "seed": 64}).json()
        gid, tokens = g["id"], [s["token"] for s in g["seats"]]
        session = client.app.state.manager.get(gid)
        seat = session.game.current_player
        before = client.get(f"/api/games/{gid}/state", params={"token": tokens[seat]}).json()

        def broken(*args, **kwargs):
            raise sa.exc.OperationalError("INSERT", {}, Exception("disk I/O error"))

        monkeypatch.setattr(session.storage, "append", broken)
        r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": "push", "seq": 0})
        assert r.status_code == 503 and "nothing changed" in r.json()["detail"]
        assert client.get(f"/api/games/{gid}/state", params={"token": tokens[seat]}).json() == before
        monkeypatch.undo()
        r = client.post(f"/api/games/{gid}/actions", json={"token": tokens[seat], "action": "push", "seq": 0})
        assert r.status_code == 200 and r.json()["seq"] == 1
    # what was acknowledged is what is stored
    restored = SessionManager(Storage(sqlite_url)).get(gid)
    assert restored.seq == 1 and restored.game.history == ["push"]


def test_postgres_urls_use_psycopg3():
    from mysticvale.server import normalize_url

    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"


def test_idle_sessions_are_dropped_from_memory_and_reloaded(sqlite_url):
    store = Storage(sqlite_url)
    mgr = SessionManager(store, allow_seed=True, max_cached=3)
    made = [mgr.create(2, ["base"], False, "yucata", {}, seed=70 + i)[0] for i in range(5)]
    _play(made[0], 5)
    assert len(mgr._sessions) == 3 and made[0].id not in mgr._sessions
    again = mgr.get(made[0].id)          # reloaded from storage, the same game
    assert again is not made[0]
    _same(again, made[0])
    mgr.close()
    store.close()


def test_group_commit_stores_a_batch_together_and_refuses_only_the_taken_number(sqlite_url):
    import threading

    store = Storage(sqlite_url)
    mgr = SessionManager(store, allow_seed=True)
    games = [mgr.create(2, ["base"], False, "yucata", {}, seed=80 + i)[0] for i in range(5)]
    summary = Summary(0, "planting", 1, False, [])
    gate, holding = threading.Event(), threading.Event()

    def hold(conn):
        holding.set()
        assert gate.wait(PATIENCE), "the test did not release the writer"

    # Hold the writer, so the appends below wait and are written as one batch.  The appends start
    # only once the writer thread runs the holder: a write queued before that joins its batch.
    holder = threading.Thread(target=store._group.write, args=(hold,))
    holder.start()
    assert holding.wait(PATIENCE)
    results: dict[str, object] = {}

    def append(gid, seq):
        try:
            store.append(gid, Record(seq, "action", 0, "push", None, True, 1), summary)
            results[gid] = "stored"
        except StorageError as exc:
            results[gid] = exc

    threads = [threading.Thread(target=append, args=(g.id, 2 if i == 2 else 1)) for i, g in enumerate(games)]
    for t in threads:
        t.start()
    wait_for(lambda: len(store._group._waiting) == 5)
    gate.set()
    for t in threads + [holder]:
        t.join()
    assert isinstance(results[games[2].id], StorageError)          # record 2 is not the next of a new game
    assert [results[g.id] for i, g in enumerate(games) if i != 2] == ["stored"] * 4
    assert [store.record_count(g.id) for g in games] == [1, 1, 0, 1, 1]
    mgr.close()
    store.close()
