"""Several server processes on one database: who hears of which change, and who runs which bots.

**SQLite** is the embedded default and serves exactly one process: :class:`LocalCoordinator` runs
every game's bots, and :func:`hold_sqlite` refuses a second server process on the same file with
a clear message (``mysticvale serve --workers N`` with N > 1 is refused before it starts).

**PostgreSQL** lets any number of server processes (``mysticvale serve --workers N``, or instances
on several machines behind a proxy that routes each request anywhere) serve the same games.
:class:`PgCoordinator` implements the design:

1. *One authority per game and record: the database.*  Each process keeps its own copy of the
   games it serves (:class:`~mysticvale.server.sessions.GameSession`), but a record is stored only
   as the next number of the game's log (a conditional update of the game row: PostgreSQL takes
   the row lock, so two processes appending at once are serialised and the second is refused).
   The refused process catches up from the record log and answers "stale", exactly as if the two
   requests had come to one process.  Nothing needs taking over when a process dies: its open
   transaction is rolled back, and the others go on from the log.
2. *Changes are announced with LISTEN/NOTIFY.*  Every append sends ``NOTIFY mysticvale_games,
   '<game> <seq> <process>'`` inside its transaction, so the notification goes out exactly when
   the record is committed.  Each process LISTENs on its own connection; for a game it holds, it
   reads the new records and tells its WebSocket listeners (the same
   :meth:`~mysticvale.server.sessions.GameSession._changed` as for its own changes).  After the
   listening connection was lost it catches every game up, since notifications may have been
   missed meanwhile.  A request reading a state also checks the game's ``seq`` (one cheap query),
   so no client reads an old state from a process that has not caught up yet.
3. *Bots of a game run in exactly one process*: the one holding the PostgreSQL advisory lock of
   the game (``pg_try_advisory_lock`` on the process's lock connection).  A process takes the lock
   when one of its own changes hands the turn to a bot and nobody holds it, and gives it up when it
   drops the game from memory.  A process that dies loses its connection and with it all its
   locks at once; every process looks for games whose bot is to move each ``sweep_every``
   seconds and takes over those nobody holds.  Should two processes ever think for the same move
   (a lock connection lost and taken over while a search was running), the conditional append
   stores only one of the moves.
4. *The schema* is created and upgraded by the migrations under an advisory lock
   (:mod:`mysticvale.server.migrate`), never by racing ``create_all``.
5. *People and chat* (issue 15) have a channel of their own, ``mysticvale_social``: after a chat
   message, a claim, a new name or a new game is committed, :meth:`PgCoordinator.publish` sends
   ``'<kind> <game> <number> <process>'`` (kinds ``chat`` with the message's number, ``seats``,
   ``activity``; ``person`` with a person's id where the game goes, when a key of theirs ended).
   The payload names what changed, never what it is: every process that hears it
   reads the rest from the database (:class:`~mysticvale.server.social.Social`).  Listeners of
   :attr:`PgCoordinator.heard` receive these notes and, as kind ``record``, other processes'
   records, so a person's lobby hears of a move in a game this process does not hold.
6. *Attendance is shared* (issue 22): a searching bot of a game nobody attends does not search,
   and the process running its bots must know about sockets and requests of the others.  Each
   process keeps ``presence`` rows, with a heartbeat and an expiry, for the games somebody attends
   there, and reads those of the others for the games whose bots it runs; a new row is announced
   as a ``present`` note, which wakes a parked bot at once (:mod:`mysticvale.server.presence`).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from sqlalchemy import text

if TYPE_CHECKING:
    from .sessions import SessionManager
    from .storage import Storage

log = logging.getLogger("mysticvale.server")

#: The notification channel of stored records.
CHANNEL = "mysticvale_games"
#: The notification channel of chat messages, claims and other news of people (issue 15).
SOCIAL_CHANNEL = "mysticvale_social"
#: What a note on :data:`SOCIAL_CHANNEL` may be about.
SOCIAL_KINDS = ("chat", "seats", "activity", "table",     # table: a table's new name (issue 21)
                "person",       # person: a person's key ended (issue 22); the "game" field is the person's id
                "present")      # present: somebody attends the game on the sending process (issue 22)


class LocalCoordinator:
    """The only process on its database: it hears of every change itself and runs every bot."""

    shared = False

    def start(self, manager: "SessionManager") -> None:
        pass

    def claim(self, game_id: str) -> bool:
        return True

    def owns(self, game_id: str) -> bool:
        return True

    def release(self, game_id: str) -> None:
        pass

    def publish(self, kind: str, game_id: str, number: int = 0) -> None:
        """Nobody else to tell: this process's sockets are told directly."""

    def seen(self, game_id: str) -> None:
        """A request or socket uses the game: this process knows it already."""

    def attended_elsewhere(self, game_id: str) -> bool:
        return False                    # there is nowhere else

    def close(self) -> None:
        pass


class SecondServer(RuntimeError):
    """Another server process already serves this SQLite database."""


def hold_sqlite(storage: "Storage"):
    """Lock the SQLite database file for this server process (a lock file beside it); returns the lock.

    :class:`SecondServer` if another process holds it: SQLite serves one server process, whose
    sessions are the only copies of its games.
    """
    from filelock import FileLock, Timeout

    database = storage.engine.url.database
    if storage.engine.dialect.name != "sqlite" or not database or database == ":memory:":
        return None
    path = Path(database).with_name(Path(database).name + ".server.lock")
    lock = FileLock(str(path), is_singleton=False)
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise SecondServer(f"another server process is already serving {database} (lock {path}); an SQLite "
                           f"database serves one process: use PostgreSQL (--database postgresql://...) to run "
                           f"several") from None
    return lock


def lock_key(game_id: str) -> int:
    """The advisory lock number of a game's bots: 63 bits of a hash, kept apart from the migration lock."""
    digest = hashlib.sha256(b"mysticvale-bots:" + game_id.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class PgCoordinator:
    """Processes sharing one PostgreSQL database (see the module docstring)."""

    shared = True

    def __init__(self, storage: "Storage", sweep_every: float = 1.0, presence_expiry: float | None = None) -> None:
        import psycopg  # noqa: F401  (the driver of the storage engine; fail early if missing)

        from .presence import EXPIRY, Presence

        self.storage = storage
        self.sweep_every = sweep_every
        #: This process's name in notifications (its own are not read back).
        self.instance = secrets.token_hex(6)
        self._conninfo = storage.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self._manager: SessionManager | None = None
        self._locks: Any = None                 # the connection holding this process's bot locks
        self._locks_mutex = threading.Lock()
        self._owned: set[str] = set()
        self._unlock: list[str] = []            # games given up; unlocked by the sweeper
        self._stop = threading.Event()
        self.listening = threading.Event()
        self._threads: list[threading.Thread] = []
        #: Called with ``(kind, game_id, number)`` for every note of *another* process: the kinds of
        #: :data:`SOCIAL_KINDS`, and ``record`` (number: the record's seq).  On the listening thread:
        #: a listener must return at once (queue the work) and not raise.
        self.heard: list[Callable[[str, str, int], None]] = []
        #: Who attends which game in the other processes (issue 22).
        self.presence = Presence(storage.engine, self.instance, EXPIRY if presence_expiry is None else presence_expiry)

    # -- life ----------------------------------------------------------------------------
    def start(self, manager: "SessionManager") -> None:
        self._manager = manager
        self.storage.on_append = self._announce
        self._threads = [threading.Thread(target=self._listen, name="mysticvale-listen", daemon=True),
                         threading.Thread(target=self._sweep, name="mysticvale-sweep", daemon=True)]
        for t in self._threads:
            t.start()
        self.listening.wait(timeout=30)
        self.presence.start(manager.attended_here, self._owned_now, manager.wake,
                            lambda gid: self.publish("present", gid))

    def _owned_now(self) -> set[str]:
        with self._locks_mutex:
            return set(self._owned)

    def seen(self, game_id: str) -> None:
        """A request or socket of this process uses ``game_id`` (the others learn of it soon)."""
        self.presence.seen(game_id)

    def attended_elsewhere(self, game_id: str) -> bool:
        """Whether somebody attends ``game_id`` on another server process."""
        return self.presence.attended_elsewhere(game_id)

    def close(self) -> None:
        self._stop.set()
        self.presence.close()
        for t in self._threads:
            t.join(timeout=10)
        with self._locks_mutex:
            if self._locks is not None:
                try:
                    self._locks.close()         # releases every bot lock of this process at once
                except Exception:
                    pass
                self._locks = None
            self._owned.clear()
        if self.storage.on_append == self._announce:
            self.storage.on_append = None

    # -- announcing ----------------------------------------------------------------------
    def _announce(self, conn, game_id: str, seq: int) -> None:
        # Inside the record's transaction: PostgreSQL delivers it when (and only if) it commits.
        conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                     {"channel": CHANNEL, "payload": f"{game_id} {seq} {self.instance}"})

    def publish(self, kind: str, game_id: str, number: int = 0) -> None:
        """Tell the other processes that something of ``kind`` about ``game_id`` was committed (see 5.
        in the module docstring).  A failure is logged, never raised: the change itself is stored,
        and clients read it again when they reconnect."""
        try:
            with self.storage.engine.begin() as conn:
                conn.execute(text("SELECT pg_notify(:channel, :payload)"),
                             {"channel": SOCIAL_CHANNEL, "payload": f"{kind} {game_id} {int(number)} {self.instance}"})
        except Exception as exc:
            log.warning("could not tell the other server processes of %s in game %s (%s)", kind, game_id, exc)

    def _listen(self) -> None:
        import psycopg

        first = True
        delay = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    conn.execute(f"LISTEN {SOCIAL_CHANNEL}")
                    if not first and self._manager is not None:
                        self._manager.resync()      # notifications may have been missed meanwhile
                    first = False
                    delay = 0.1
                    self.listening.set()
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=0.5):
                            if note.channel == SOCIAL_CHANNEL:
                                self._heard_social(note.payload)
                            else:
                                self._heard(note.payload)
            except Exception as exc:
                self.listening.set()                # do not hold up the start; retry in the background
                log.warning("listening for other server processes' changes failed (%s); retrying", exc)
                self._stop.wait(delay)
                delay = min(delay * 2, 5.0)

    def _heard(self, payload: str) -> None:
        try:
            game_id, seq, origin = payload.split(" ")
            number = int(seq)
        except ValueError:
            return
        if origin != self.instance and self._manager is not None:
            self._manager.on_remote_change(game_id, number)
            self._tell("record", game_id, number)

    def _heard_social(self, payload: str) -> None:
        try:
            kind, game_id, number, origin = payload.split(" ")
            n = int(number)
        except ValueError:
            return
        if origin == self.instance or kind not in SOCIAL_KINDS:
            return
        if kind == "present":
            if game_id in self._owned:
                self.presence.heard(game_id)
            return
        self._tell(kind, game_id, n)

    def _tell(self, kind: str, game_id: str, number: int) -> None:
        for listener in list(self.heard):
            try:
                listener(kind, game_id, number)
            except Exception:
                log.exception("game %s: a listener of other processes' %s notes failed", game_id, kind)

    # -- bot locks -------------------------------------------------------------------------
    def claim(self, game_id: str) -> bool:
        """Run ``game_id``'s bots in this process if no other process does (True: this one does)."""
        with self._locks_mutex:
            if game_id in self._owned:
                return True
            if game_id in self._unlock:             # given up but still locked: keep it
                self._unlock.remove(game_id)
                self._owned.add(game_id)
                return True
        got = self._locked("SELECT pg_try_advisory_lock(%s)", lock_key(game_id))
        if got:
            with self._locks_mutex:
                self._owned.add(game_id)
        return bool(got)

    def owns(self, game_id: str) -> bool:
        return game_id in self._owned

    def release(self, game_id: str) -> None:
        """Stop running ``game_id``'s bots (the lock is given back by the sweeper, off the caller's thread)."""
        with self._locks_mutex:
            if game_id in self._owned:
                self._owned.discard(game_id)
                self._unlock.append(game_id)

    def _locked(self, sql: str, key: int):
        import psycopg

        with self._locks_mutex:
            try:
                if self._locks is None or self._locks.closed:
                    self._owned.clear()             # a new connection holds none of the old locks
                    self._unlock.clear()
                    self._locks = psycopg.connect(self._conninfo, autocommit=True)
                return self._locks.execute(sql, (key,)).fetchone()[0]
            except psycopg.Error as exc:
                log.warning("bot lock connection failed (%s); this process runs no bots until it is back", exc)
                try:
                    self._locks.close()
                except Exception:
                    pass
                self._locks = None
                self._owned.clear()
                self._unlock.clear()
                return False

    def _sweep(self) -> None:
        while not self._stop.wait(self.sweep_every):
            with self._locks_mutex:
                unlock, self._unlock = self._unlock, []
            for gid in unlock:
                self._locked("SELECT pg_advisory_unlock(%s)", lock_key(gid))
            try:
                waiting = self.storage.games_waiting_for_bots()
            except Exception as exc:
                log.warning("could not look for games waiting for a bot (%s)", exc)
                continue
            try:                                    # nobody needs the bots of a game nobody attends
                idle = self.presence.unattended([gid for gid in waiting if gid not in self._owned])
            except Exception as exc:
                log.warning("could not tell who attends the games waiting for a bot (%s)", exc)
                continue
            for gid in waiting:
                if self._stop.is_set():
                    return
                if gid in idle:
                    continue
                if gid not in self._owned and self.claim(gid) and self._manager is not None:
                    self._manager.adopt(gid)        # nobody ran its bots (a process died): this one does
