"""Durable storage of games: an append-only record log plus periodic snapshots.

Five tables (SQLAlchemy Core, the same code for SQLite and PostgreSQL; created and upgraded by the
Alembic migrations in ``server/migrations``, see :mod:`mysticvale.server.migrate`; the table objects
here describe the newest revision for queries):

``games``      one row per game: its configuration (players, sets, ruleset, leaders, seed), the
               last record number ``seq`` and a public summary (whose turn, phase, round, over,
               winners) kept up to date in the same transaction as every record;
``seats``      one row per seat: the SHA-256 digest of its token (human seats) or its bot spec;
``ended_tokens`` the digests of seat tokens that stopped working, and why (issue 22);
``records``    the append-only log, primary key (game, seq): ``action`` records hold the action
               notation and the acting seat; ``undo`` records hold the number of actions the game
               was rolled back to.  The primary key makes a duplicated record impossible;
``snapshots``  ``Game.to_json()`` after record ``seq`` (taken at creation, every
               :data:`SNAPSHOT_EVERY` records, and after every undo).

A record is acknowledged to a client only after its transaction has committed, so a process
killed at any moment has either stored a record (and the client may not have heard of it: it
retries with its ``seq`` and gets a clear "stale" answer) or has not (and the client got no
acknowledgement).  Snapshots are an optimisation: a game is rebuilt from the latest snapshot
plus the records after it, or, if no snapshot loads, by replaying every record from the seed.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from sqlalchemy import (
    Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, create_engine, event,
    bindparam, func, select, update, delete,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import migrate

#: A snapshot is written after every this many records.
SNAPSHOT_EVERY = 32
#: Besides the creation snapshot, keep this many of the most recent snapshots per game.
SNAPSHOTS_KEPT = 2

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(64), primary_key=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Column("config", Text, nullable=False),
    Column("seq", Integer, nullable=False),
    Column("current_player", Integer, nullable=True),
    Column("phase", String(32), nullable=False),
    Column("round", Integer, nullable=False),
    Column("over", Boolean, nullable=False),
    Column("winners", Text, nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token_digest", String(64), nullable=True),
    Column("bot", String(64), nullable=True),
)

#: Seat tokens that stopped working (revision 0004_credentials, issue 22): an invitation's token once
#: its seat was claimed ("claimed"), a player's token after they replaced their key ("replaced").
#: Kept only to answer such a link clearly (410); a digest opens nothing.
ended_tokens = Table(
    "ended_tokens", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("digest", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("reason", String(16), nullable=False),
    Column("ended_at", Float, nullable=False),
)

records = Table(
    "records", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),          # "action" or "undo"
    Column("seat", Integer, nullable=False),
    Column("action", String(200), nullable=True),        # notation, for "action"
    Column("target", Integer, nullable=True),            # actions kept, for "undo"
    Column("barrier", Boolean, nullable=False),          # the action revealed hidden information
    Column("turn", Integer, nullable=False),             # turn number before the record
    Column("created_at", Float, nullable=False),
)

snapshots = Table(
    "snapshots", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("actions", Integer, nullable=False),          # len(history) of the saved game
    Column("state", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


# The statements of every appended record, built once (building them was a fifth of the writer's time).
_NEXT_RECORD = (update(games).where(games.c.id == bindparam("game"), games.c.seq == bindparam("previous"))
                .values(seq=bindparam("seq"), updated_at=bindparam("updated_at"),
                        current_player=bindparam("current_player"), phase=bindparam("phase"),
                        round=bindparam("round"), over=bindparam("over"), winners=bindparam("winners")))
_INSERT_RECORD = records.insert()


class StorageError(RuntimeError):
    """The database refused a write (for example a record number that is already taken)."""


@dataclass(frozen=True)
class Record:
    """One entry of a game's append-only log."""

    seq: int
    kind: str
    seat: int
    action: str | None
    target: int | None
    barrier: bool
    turn: int
    #: When the record was made (seconds since 1970; 0.0 for one not stored yet): the log's turn times.
    created_at: float = 0.0


@dataclass(frozen=True)
class Summary:
    """The public summary columns of a game row."""

    current_player: int | None
    phase: str
    round: int
    over: bool
    winners: list[int]


@dataclass(frozen=True)
class StoredGame:
    """Everything needed to rebuild a game in memory."""

    id: str
    config: dict[str, Any]
    seq: int
    seats: list[tuple[int, str | None, str | None]]   # (seat, token digest, bot spec)
    records: list[Record]
    snapshot: tuple[int, int, str] | None             # (seq, actions, state json), latest
    summary: Summary
    created_at: float = 0.0                            # when the game was created (seconds since 1970)


def normalize_url(url: str) -> str:
    """Accept ``postgresql://`` and ``postgres://`` as the psycopg (3) driver, which we ship."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def sqlite_url(data_dir: str | Path) -> str:
    """The default database: an SQLite file ``mysticvale.db`` in ``data_dir`` (created if needed)."""
    path = Path(data_dir).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'mysticvale.db'}"


class Storage:
    """The games database.  Thread-safe: every method opens its own transaction."""

    def __init__(self, url: str) -> None:
        url = normalize_url(url)
        self.url = url
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            # Each request thread may hold a connection while it appends (the thread pool has 40).
            kwargs.update(pool_pre_ping=True, pool_size=20, max_overflow=30)
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # SQLite takes one writer at a time (and makes the others sleep and retry), and each commit
        # waits for the disk: one thread commits all writes waiting at that moment together.
        self._group = _GroupCommit(self.engine) if url.startswith("sqlite") else None
        #: Called inside the transaction of every appended record, with (connection, game id, seq):
        #: the PostgreSQL coordinator sends its change notification there (delivered at commit).
        self.on_append: Callable[[Any, str, int], None] | None = None
        # The schema comes from the migrations (server/migrations), never from create_all: two
        # processes starting at once on a fresh database would race to create the tables.
        migrate.upgrade(self.engine)

    @property
    def shared(self) -> bool:
        """Whether several server processes may use this database at once (PostgreSQL, not SQLite)."""
        return self.engine.dialect.name == "postgresql"

    def close(self) -> None:
        if self._group is not None:
            self._group.close()
        self.engine.dispose()

    def _write(self, work: Callable[[Any], None]) -> None:
        """Run ``work(connection)`` in a transaction and commit it (with others, on SQLite)."""
        if self._group is not None:
            self._group.write(work)
        else:
            with self.engine.begin() as conn:
                work(conn)

    # -- writing ---------------------------------------------------------------------
    def create_game(self, game_id: str, config: dict[str, Any], seat_rows: Iterable[tuple[int, str | None, str | None]],
                    state_json: str, summary: Summary) -> None:
        """Store a new game with its seats and its creation snapshot (one transaction)."""
        now = time.time()

        def work(conn) -> None:
            conn.execute(games.insert().values(
                id=game_id, created_at=now, updated_at=now, config=json.dumps(config, sort_keys=True), seq=0,
                **_summary_values(summary)))
            conn.execute(seats.insert(), [
                {"game_id": game_id, "seat": s, "token_digest": d, "bot": b} for s, d, b in seat_rows])
            conn.execute(snapshots.insert().values(game_id=game_id, seq=0, actions=0, state=state_json,
                                                   created_at=now))

        self._write(work)

    def append(self, game_id: str, record: Record, summary: Summary,
               snapshot: tuple[int, str] | None = None) -> None:
        """Append ``record`` (and optionally a snapshot ``(actions, json)`` taken after it).

        Commits before returning.  Raises :class:`StorageError` if ``record.seq`` is not the next
        number (another writer got there first) or the database fails.
        """
        now = time.time()
        moved = {"game": game_id, "previous": record.seq - 1, "seq": record.seq, "updated_at": now,
                 **_summary_values(summary)}
        row = {"game_id": game_id, "seq": record.seq, "kind": record.kind, "seat": record.seat,
               "action": record.action, "target": record.target, "barrier": record.barrier, "turn": record.turn,
               "created_at": record.created_at or now}

        def after(conn) -> None:
            # What follows the record row in its transaction: a snapshot now and then, the notification.
            if snapshot is not None:
                actions, state_json = snapshot
                conn.execute(snapshots.insert().values(
                    game_id=game_id, seq=record.seq, actions=actions, state=state_json, created_at=now))
                self._prune_snapshots(conn, game_id)
            if self.on_append is not None:
                self.on_append(conn, game_id, record.seq)

        def work(conn) -> None:
            if conn.execute(_NEXT_RECORD, moved).rowcount != 1:     # (raised before anything is written)
                raise StorageError(f"game {game_id}: record {record.seq} is not the next record")
            conn.execute(_INSERT_RECORD, row)
            after(conn)

        try:
            if self._group is not None:
                self._group.write(work, (moved, row, after))
            else:
                self._write(work)
        except IntegrityError as exc:
            raise StorageError(f"game {game_id}: record {record.seq} already exists") from exc

    @staticmethod
    def _prune_snapshots(conn, game_id: str) -> None:
        # Keep the creation snapshot (a full replay's safety net) and the latest few.
        rows = conn.execute(select(snapshots.c.seq).where(snapshots.c.game_id == game_id, snapshots.c.seq > 0)
                            .order_by(snapshots.c.seq.desc())).scalars().all()
        old = rows[SNAPSHOTS_KEPT:]
        if old:
            conn.execute(delete(snapshots).where(snapshots.c.game_id == game_id, snapshots.c.seq.in_(old)))

    # -- reading ---------------------------------------------------------------------
    def load(self, game_id: str) -> StoredGame | None:
        """A stored game, or None if there is no game with this id."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            seat_rows = conn.execute(select(seats.c.seat, seats.c.token_digest, seats.c.bot)
                                     .where(seats.c.game_id == game_id).order_by(seats.c.seat)).all()
            recs = conn.execute(select(records).where(records.c.game_id == game_id, records.c.seq <= row["seq"])
                                .order_by(records.c.seq)).mappings().all()
            snap = conn.execute(select(snapshots.c.seq, snapshots.c.actions, snapshots.c.state)
                                .where(snapshots.c.game_id == game_id, snapshots.c.seq <= row["seq"])
                                .order_by(snapshots.c.seq.desc()).limit(1)).first()
        return StoredGame(
            id=game_id, config=json.loads(row["config"]), seq=row["seq"],
            seats=[(s, d, b) for s, d, b in seat_rows],
            records=[_record(r) for r in recs],
            snapshot=(snap[0], snap[1], snap[2]) if snap is not None else None,
            summary=_summary_from_row(row),
            created_at=float(row["created_at"]),
        )

    def records_after(self, game_id: str, seq: int) -> list[Record]:
        """The records of ``game_id`` numbered above ``seq``, in order (what a copy at ``seq`` has not seen)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(records).where(records.c.game_id == game_id, records.c.seq > seq)
                                .order_by(records.c.seq)).mappings().all()
        return [_record(r) for r in rows]

    def record(self, game_id: str, seq: int) -> Record | None:
        """Record ``seq`` of ``game_id``, or None."""
        with self.engine.connect() as conn:
            row = conn.execute(select(records).where(records.c.game_id == game_id, records.c.seq == seq)
                               ).mappings().first()
        return _record(row) if row is not None else None

    def seq_of(self, game_id: str) -> int | None:
        """The number of the last record of ``game_id`` (None: no such game)."""
        with self.engine.connect() as conn:
            return conn.execute(select(games.c.seq).where(games.c.id == game_id)).scalar()

    def summary(self, game_id: str) -> Summary | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games).where(games.c.id == game_id)).mappings().first()
        return _summary_from_row(row) if row is not None else None

    def seat_digests(self, game_id: str) -> dict[int, str | None]:
        """The token digest of each seat of ``game_id`` as stored now (None: a bot seat)."""
        with self.engine.connect() as conn:
            return {r.seat: r.token_digest for r in conn.execute(
                select(seats.c.seat, seats.c.token_digest).where(seats.c.game_id == game_id))}

    def ended_token(self, game_id: str, digest: str) -> tuple[int, str] | None:
        """(seat, reason) if the token of this digest was a token of ``game_id`` that has ended."""
        with self.engine.connect() as conn:
            row = conn.execute(select(ended_tokens.c.seat, ended_tokens.c.reason).where(
                ended_tokens.c.game_id == game_id, ended_tokens.c.digest == digest)).first()
        return (row.seat, row.reason) if row is not None else None

    def games_waiting_for_bots(self) -> list[str]:
        """Ids of unfinished games whose acting seat is a bot (to resume after a restart)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games.c.id).join(seats, (seats.c.game_id == games.c.id)
                                        & (seats.c.seat == games.c.current_player))
                .where(games.c.over.is_(False), seats.c.bot.is_not(None))).scalars().all()
        return list(rows)

    def bot_only_games(self) -> int:
        """How many unfinished games have no human seat."""
        humans = select(seats.c.game_id).where(seats.c.token_digest.is_not(None))
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(games)
                                .where(games.c.over.is_(False), games.c.id.not_in(humans))).scalar_one()

    def record_count(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return len(conn.execute(select(records.c.seq).where(records.c.game_id == game_id)).all())


class _Write:
    def __init__(self, work: Callable[[Any], None], append: tuple | None) -> None:
        self.work = work
        self.append = append        # (game row update, record row, what follows) of a record
        self.error: BaseException | None = None
        self.done = threading.Event()


class _Fallback(Exception):
    """A batch cannot be written together: write its items one by one."""


class _GroupCommit:
    """Group commit for SQLite: one thread writes every write that is waiting when it is free in one
    transaction, so many games' records share one disk flush (``synchronous=FULL`` stays: a record
    is acknowledged only once it is on disk), and the records of a batch go to the database in
    one statement per table: the SQLite driver gives up Python's interpreter lock around each
    statement, and taking it back behind busy request threads cost up to 5 ms per statement.

    If any record of a batch is not the next of its game (another writer took its number), or
    anything else fails, the batch is rolled back and its writes run again one transaction each,
    so exactly the failing ones fail.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._waiting: list[_Write] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="mysticvale-commit", daemon=True)
        self._thread.start()

    def write(self, work: Callable[[Any], None], append: tuple | None = None) -> None:
        item = _Write(work, append)
        with self._cond:
            if self._closed:
                raise StorageError("the database is closed")
            self._waiting.append(item)
            self._cond.notify()
        item.done.wait()
        if item.error is not None:
            raise item.error

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._closed:
                    self._cond.wait()
                if not self._waiting:
                    return
                batch, self._waiting = self._waiting, []
            self._commit(batch)

    def _commit(self, batch: list[_Write]) -> None:
        try:
            with self.engine.begin() as conn:
                if len(batch) == 1:
                    try:
                        batch[0].work(conn)
                    except StorageError as exc:
                        batch[0].error = exc
                else:
                    appends = [item.append for item in batch if item.append is not None]
                    for item in batch:
                        if item.append is None:
                            item.work(conn)
                    if appends:
                        if conn.execute(_NEXT_RECORD, [a[0] for a in appends]).rowcount != len(appends):
                            raise _Fallback()
                        conn.execute(_INSERT_RECORD, [a[1] for a in appends])
                        for a in appends:
                            a[2](conn)
        except Exception as exc:
            if len(batch) == 1:
                batch[0].error = exc
            else:
                for item in batch:
                    item.error = None
                    self._commit([item])
                return
        for item in batch:
            item.done.set()


def _record(r) -> Record:
    return Record(r["seq"], r["kind"], r["seat"], r["action"], r["target"], bool(r["barrier"]), r["turn"],
                  float(r["created_at"]))


def _summary_values(s: Summary) -> dict[str, Any]:
    return {"current_player": s.current_player, "phase": s.phase, "round": s.round, "over": s.over,
            "winners": json.dumps(s.winners)}


def _summary_from_row(row) -> Summary:
    return Summary(row["current_player"], row["phase"], row["round"], bool(row["over"]), json.loads(row["winners"]))


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    # WAL: readers do not block the writer; synchronous=FULL: a committed record survives even a
    # power cut, not just a killed process; foreign keys are off by default in SQLite.
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=FULL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
