"""Who attends which game, shared between the server processes of one PostgreSQL database (issue 22).

A searching bot of a game nobody attends does not search (:mod:`.scheduler`).  Whether somebody
attends a game (a WebSocket open on it, or a request within the attendance time) is known to the
process that holds the socket or answered the request, and the game's bots run in the process
that holds its advisory lock (:mod:`.cluster`): often another one.  So each process tells the
others, through the database:

* Every ``beat`` seconds (a third of ``expiry``), and at once when a game becomes attended here,
  the process writes one ``presence`` row per game with a searching bot that somebody attends
  here, valid ``expiry`` seconds by the database's clock, and deletes its rows of games nobody
  attends here any more.  A new row is also announced (``present`` on the cluster's social
  channel), so the process running that game's bots wakes its parked bot at once.
* The same beat reads which of the games whose bots this process runs other processes attend now.
* A game whose searching bot is to move and that nobody attends anywhere is not taken over by
  another process's sweep when its bots' process gives it up (:meth:`Presence.unattended`): its
  search would be parked at once, and loading it every second would cost for nothing.  Once
  somebody attends it again (a presence row), the sweep takes its bots over as any other's.
* A process that stops deletes its rows; the rows of one that died count until they expire, and
  every beat deletes expired rows.  So there are at most (processes x games in memory) rows.

SQLite serves one process, which knows its own sockets: it uses none of this.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable

from sqlalchemy import Column, Float, ForeignKey, Index, String, Table, delete, func, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.engine import Engine

from .storage import metadata

log = logging.getLogger("mysticvale.server")

#: Seconds a process's presence row stays valid without a heartbeat (``mysticvale serve --presence-expiry``).
EXPIRY = 30.0
#: Shortest time between two beats (seconds), however many games become attended at once.
MIN_GAP = 0.05

presence = Table(
    "presence", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("process", String(32), primary_key=True),
    Column("until", Float, nullable=False),
    Index("ix_presence_until", "until"),
)


class Presence:
    """This process's side of the shared attendance (see the module docstring)."""

    def __init__(self, engine: Engine, process: str, expiry: float = EXPIRY) -> None:
        self.engine = engine
        self.process = process
        self.expiry = expiry
        self.beat_every = max(0.1, expiry / 3)
        #: Games this process has a row for now.
        self.here: set[str] = set()
        self._elsewhere: set[str] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._local: Callable[[], set[str]] = set
        self._owned: Callable[[], set[str]] = set
        self._came: Callable[[str], None] = lambda _gid: None
        self._announce: Callable[[str], None] = lambda _gid: None

    def start(self, local: Callable[[], set[str]], owned: Callable[[], set[str]],
              came: Callable[[str], None], announce: Callable[[str], None]) -> None:
        """Beat on a thread of its own.  ``local()``: the games somebody attends here; ``owned()``:
        the games whose bots this process runs; ``came(game)``: another process attends ``game`` now
        (wake its parked bot); ``announce(game)``: tell the others that this process attends it."""
        self._local, self._owned, self._came, self._announce = local, owned, came, announce
        self._thread = threading.Thread(target=self._run, name="mysticvale-presence", daemon=True)
        self._thread.start()

    def attended_elsewhere(self, game_id: str) -> bool:
        """Whether another process attends ``game_id`` (as of the last beat or ``present`` note)."""
        with self._lock:
            return game_id in self._elsewhere

    def unattended(self, game_ids: list[str]) -> set[str]:
        """Of ``game_ids`` (games waiting for a bot), those whose waiting bot searches, that have a
        person's seat, and that nobody attends on any process: their bots need no process to take
        them over (the search would be parked at once) until somebody attends the game again."""
        if not game_ids:
            return set()
        from .sessions import search_bot_names
        from .storage import games, seats

        searching = or_(*[(seats.c.bot == name) | seats.c.bot.like(name + ":%") for name in search_bot_names()])
        people = select(seats.c.game_id).where(seats.c.token_digest.is_not(None))
        with self.engine.connect() as conn:
            now = float(conn.execute(select(func.extract("epoch", func.now()))).scalar())
            attended = select(presence.c.game_id).where(presence.c.until >= now)
            return set(conn.execute(
                select(games.c.id).join(seats, (seats.c.game_id == games.c.id) & (seats.c.seat == games.c.current_player))
                .where(games.c.id.in_(sorted(game_ids)), searching, games.c.id.in_(people),
                       games.c.id.not_in(attended))).scalars())

    def heard(self, game_id: str) -> None:
        """Another process announced that it attends ``game_id`` now."""
        with self._lock:
            new = game_id not in self._elsewhere
            self._elsewhere.add(game_id)
        if new:
            self._came(game_id)

    def seen(self, game_id: str) -> None:
        """A request or socket of this process uses ``game_id``: write its row now if it has none."""
        if game_id not in self.here:
            self._wake.set()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
        try:
            with self.engine.begin() as conn:
                conn.execute(delete(presence).where(presence.c.process == self.process))
        except Exception as exc:
            log.warning("could not remove this process's presence rows (%s); they expire by themselves", exc)
        self.here = set()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.beat()
            except Exception as exc:
                log.warning("could not share who attends which game (%s); retrying", exc)
            self._wake.wait(self.beat_every)
            # (a burst of new games attended here waits a little and goes out in one beat)
            self._stop.wait(MIN_GAP)
            self._wake.clear()

    def beat(self) -> None:
        """Write this process's rows, drop expired ones, read who attends the games whose bots run here."""
        local = set(self._local())
        owned = set(self._owned())
        with self.engine.begin() as conn:
            now = float(conn.execute(select(func.extract("epoch", func.now()))).scalar())
            gone = self.here - local
            if gone:
                conn.execute(delete(presence).where(presence.c.process == self.process,
                                                    presence.c.game_id.in_(sorted(gone))))
            if local:
                rows = [{"game_id": g, "process": self.process, "until": now + self.expiry} for g in sorted(local)]
                stmt = pg_insert(presence).values(rows)
                conn.execute(stmt.on_conflict_do_update(index_elements=[presence.c.game_id, presence.c.process],
                                                        set_={"until": stmt.excluded.until}))
            conn.execute(delete(presence).where(presence.c.until < now))
            elsewhere = set(conn.execute(select(presence.c.game_id).where(
                presence.c.process != self.process, presence.c.until >= now,
                presence.c.game_id.in_(sorted(owned)))).scalars()) if owned else set()
        new = local - self.here
        self.here = local
        with self._lock:
            came = elsewhere - self._elsewhere
            self._elsewhere = elsewhere
        for gid in sorted(new):
            self._announce(gid)
        for gid in sorted(came):
            self._came(gid)
