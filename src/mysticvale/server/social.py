"""Playing together over days, on the server: the service that ties people, chat and e-mail to games.

:class:`Social` is made once per server (``people_api.start``).  It listens to every game change
at the one place a game reports one (``SessionManager.change_listeners``, called from
``GameSession._changed``), and does its work on a thread of its own, never on the request:

* it tells each connected person's lobby (``WS /api/people/me/ws``) that one of their games
  changed, so their list updates live;
* when the decision passes to a seat held by a person who wants e-mail, it notes a "your turn"
  notice for the mailer (:mod:`.notify`).

:class:`Hub` carries live messages inside this process: to a person's lobby socket (the id of a
game of theirs that changed) and to a game's table (``{"type": "chat", ...}`` and
``{"type": "seats", ...}`` messages, see :func:`table_feed`).

**Several server processes** (PostgreSQL, :mod:`.cluster`): whatever this process tells its own
sockets it also announces on the cluster's ``mysticvale_social`` channel, as a small note (the
kind, the game, a chat message's number).  The other processes hear the note and re-read what it
names from the database (the message by its number, the seats from :meth:`People.holders`, the
person's game rows) before telling their sockets; a record stored by another process tells the
lobbies here too.  On SQLite there is one process and the direct path is the only one.
"""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import itertools
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, AsyncIterator, Callable

from sqlalchemy import select

from .chat import Chat
from .notify import Mailer, MailSettings
from .people import People, SeatHolder
from .sessions import GameSession, SessionManager, TurnInfo
from .storage import Storage, records

log = logging.getLogger("mysticvale.server.social")

#: Put on a person's topic when a key of theirs ended: each lobby socket checks that its key still works.
KEY_ENDED = ("key_ended",)


@dataclass
class _Listener:
    loop: Any
    queue: Any
    topic: tuple[str, str]


class Hub:
    """In-process fan-out to asyncio queues: ``("person", id)`` and ``("game", id)`` topics.

    Listeners are kept by topic, so telling one game's or person's sockets costs the same however
    many other sockets the process holds (every action asks who listens)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[int, _Listener] = {}
        self._by_topic: dict[tuple[str, str], dict[int, _Listener]] = {}
        self._per_kind: dict[str, int] = {}
        self._keys = itertools.count(1)

    def subscribe(self, topic: tuple[str, str], loop, queue) -> int:
        with self._lock:
            key = next(self._keys)
            listener = _Listener(loop, queue, topic)
            self._listeners[key] = listener
            self._by_topic.setdefault(topic, {})[key] = listener
            self._per_kind[topic[0]] = self._per_kind.get(topic[0], 0) + 1
            return key

    def unsubscribe(self, key: int) -> None:
        with self._lock:
            listener = self._listeners.pop(key, None)
            if listener is None:
                return
            self._per_kind[listener.topic[0]] -= 1
            same = self._by_topic.get(listener.topic)
            if same is not None:
                same.pop(key, None)
                if not same:
                    del self._by_topic[listener.topic]

    def listening(self, kind: str) -> set[str]:
        """Ids with at least one listener of this kind ("person" or "game")."""
        with self._lock:
            return {topic[1] for topic in self._by_topic if topic[0] == kind}

    def anyone(self, kind: str) -> bool:
        """Whether any listener of this kind is connected to this process."""
        return self._per_kind.get(kind, 0) > 0

    def listens(self, topic: tuple[str, str]) -> bool:
        """Whether anyone listens to ``topic``."""
        with self._lock:
            return topic in self._by_topic

    def publish(self, topic: tuple[str, str], item: Any) -> None:
        with self._lock:
            targets = list(self._by_topic.get(topic, {}).values())
        for li in targets:
            try:
                li.loop.call_soon_threadsafe(li.queue.put_nowait, item)
            except RuntimeError:        # that event loop is closed: the client is gone
                pass


def seats_message(holders: list[SeatHolder]) -> dict[str, Any]:
    """``{"type": "seats", "seats": [...]}``: who sits where, as anyone may see it."""
    return {"type": "seats", "seats": [
        {"seat": h.seat, "bot": h.bot, "name": h.name, "open": h.open, "claimed": h.person_id is not None}
        for h in holders]}


class Social:
    """People, chat and e-mail for one server, listening to its games."""

    def __init__(self, storage: Storage, manager: SessionManager, *, mail: MailSettings | None = None,
                 public_url: str | None = None, clock: Callable[[], float] = time.time) -> None:
        self.engine = storage.engine
        self.manager = manager
        self.people = People(self.engine, clock)
        self.chat = Chat(self.engine, clock)
        self.hub = Hub()
        self.mail = mail
        self.public_url = public_url or (mail.public_url if mail else None)
        self.mailer = Mailer(self.engine, mail, self.people) if mail else None
        self._pending: collections.OrderedDict[str, TurnInfo | None] = collections.OrderedDict()
        #: Notes of other server processes to pass on to this process's tables: (kind, game, number).
        self._remote: collections.deque[tuple[str, str, int]] = collections.deque()
        #: Where notes for the other processes go (a no-op with one process, see .cluster).
        self.coordinator = manager.coordinator
        self._cond = threading.Condition()
        self._closed = False
        self._idle = threading.Event()
        self._idle.set()
        #: Queued games with a change besides their moves (see _queue).
        self._besides_moves: set[str] = set()
        self._thread = threading.Thread(target=self._run, name="mysticvale-social", daemon=True)
        #: Called on this service's thread with (game id, TurnInfo of a move or None) for every event
        #: it handles, after the lobbies are told (issue 21: results, open tables, table names).
        self.game_hooks: list[Callable[[str, TurnInfo | None], None]] = []

    def start(self) -> None:
        self.manager.change_listeners.append(self._game_changed)
        if self.coordinator.shared:
            self.coordinator.heard.append(self._heard)
        self._thread.start()
        if self.mailer is not None:
            self.mailer.start()

    def close(self) -> None:
        for listeners, listener in ((self.manager.change_listeners, self._game_changed),
                                    (getattr(self.coordinator, "heard", []), self._heard)):
            try:
                listeners.remove(listener)
            except ValueError:
                pass
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        self._thread.join(5)
        if self.mailer is not None:
            self.mailer.close()

    # -- events ---------------------------------------------------------------------
    def _game_changed(self, session: GameSession, local: bool = True) -> None:
        """(A change listener: on the thread that changed the game, or that caught up with a change
        another server process made: ``local`` False.  Both count: the notice table keeps one e-mail
        per turn however many processes hear of it.)  Queue the work, return."""
        info = session.turn_info()
        # Only the process that made the change knows whose request it was (another process's copy
        # knows its own requests): the notice takes that process's cause (issue 22).
        self._queue(session.id, info if local else dataclasses.replace(info, cause=None))

    def activity(self, game_id: str) -> None:
        """Something about a game changed besides its moves (a claim, a new name, a new game): its
        people's lobbies, here and in the other server processes, get its row again."""
        self._queue(game_id, None)
        self.coordinator.publish("activity", game_id)

    def _heard(self, kind: str, game_id: str, number: int) -> None:
        """(A listener of the cluster, on its listening thread.)  Another process's note: queue it."""
        with self._cond:
            self._remote.append((kind, game_id, number))
            self._idle.clear()
            self._cond.notify()

    def _queue(self, game_id: str, info: TurnInfo | None) -> None:
        with self._cond:
            if info is None:
                # Something besides a move (a new game, a claim, a name): however it is merged
                # with a move queued before or after it, the hooks hear of it (a new public table
                # whose bot moved at once must still come to the open tables).
                self._besides_moves.add(game_id)
                info = self._pending.get(game_id)     # keep a queued move's turn information
            self._pending.pop(game_id, None)
            self._pending[game_id] = info
            self._idle.clear()
            self._cond.notify()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Wait until every queued event is handled (for tests and an orderly shutdown)."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._remote and not self._closed:
                    self._idle.set()
                    self._cond.wait()
                if self._closed:
                    self._idle.set()
                    return
                note = self._remote.popleft() if self._remote else None
                if note is None:
                    game_id, info = self._pending.popitem(last=False)
                    besides = game_id in self._besides_moves
                    self._besides_moves.discard(game_id)
            if note is not None:
                try:
                    self._pass_on(*note)
                except Exception:
                    log.exception("game %s: could not pass on another process's %s note", note[1], note[0])
                continue
            try:
                if info is not None and self.mailer is not None:
                    self._maybe_notice(info)
                self._tell_people(game_id)
            except Exception:
                log.exception("game %s: could not tell its people of a change", game_id)
            # A move merged with another change: the hooks hear both (None, then the move).
            heard = [None, info] if besides and info is not None else [info]
            for hook in list(self.game_hooks):
                for one in heard:
                    try:
                        hook(game_id, one)
                    except Exception:
                        log.exception("game %s: a game hook failed", game_id)

    def _pass_on(self, kind: str, game_id: str, number: int) -> None:
        """Tell this process's sockets what another process's note names, read from the database."""
        if kind == "person":                # a key of this person ended: their lobby sockets check theirs
            self.hub.publish(("person", game_id), KEY_ENDED)
            return
        if kind == "seats":                 # a claim or replaced tokens: the copy here takes the new digests
            self.manager.seat_digests_changed(game_id)
        if kind == "chat":
            if self.hub.listens(("game", game_id)):
                found = self.chat.messages(game_id, after=number - 1, limit=1)
                if found and found[0]["n"] == number:
                    self.hub.publish(("game", game_id), {"type": "chat", "message": found[0]})
        elif kind == "seats":
            if self.hub.listens(("game", game_id)):
                self.hub.publish(("game", game_id), seats_message(self.people.holders(game_id)))
        self._queue(game_id, None)          # every kind: the lobbies of this game's people

    def _tell_people(self, game_id: str) -> None:
        if not self.hub.anyone("person"):
            return
        for person_id in self.people.people_of_game(game_id):
            if self.hub.listens(("person", person_id)):
                self.hub.publish(("person", person_id), game_id)

    def _maybe_notice(self, info: TurnInfo) -> None:
        """Note a "your turn" e-mail if the decision has just passed to a seat whose person wants one."""
        seat = info.current_player
        if info.over or seat is None or info.seq == 0:
            return
        with self.engine.connect() as conn:
            actor = conn.execute(select(records.c.seat).where(records.c.game_id == info.game_id,
                                                              records.c.seq == info.seq)).scalar()
        if actor is None or actor == seat:
            return                      # the seat itself acted (or undid): its person is at the table
        person_id = self.people.holder_of(info.game_id, seat)
        if person_id is None:
            return
        s = self.people.settings(person_id)
        if s.email and s.email_confirmed and s.email_turns:
            self.mailer.turn_came(info.game_id, seat, info.turn, info.seq, person_id, cause=info.cause)

    # -- a game's table ---------------------------------------------------------------
    def post_chat(self, game_id: str, seat: int, text: Any) -> dict[str, Any]:
        """Store a chat message of ``seat`` (checked and rate-limited, see :mod:`.chat`), tell the
        table and the lobbies; returns the message.  The one way to write in a game's chat (the HTTP
        route, and the game's WebSocket when it takes ``{"type": "chat", "text": ...}``)."""
        message = self.chat.post(game_id, seat, self.people.holder_of(game_id, seat), text)
        self.hub.publish(("game", game_id), {"type": "chat", "message": message})
        self._queue(game_id, None)
        self.coordinator.publish("chat", game_id, message["n"])     # the others re-read it by its number
        return message

    def publish_seats(self, game_id: str) -> None:
        """Tell the table who sits where (after a claim or a new name), here and in the other processes."""
        self.hub.publish(("game", game_id), seats_message(self.people.holders(game_id)))
        self.coordinator.publish("seats", game_id)

    def key_ended(self, person_id: str, changed: dict[str, dict[int, str]]) -> None:
        """A key of ``person_id`` ended (replaced, or signed out everywhere) and the seat tokens it
        could read were replaced (``changed``: game -> seat -> new digest): the lobby sockets of that
        key close, the copies of those games here and in the other processes take the new digests
        (so game sockets opened with an old token close), and the person's lobbies get the rows."""
        self.hub.publish(("person", person_id), KEY_ENDED)
        self.coordinator.publish("person", person_id)
        for game_id, digests in changed.items():
            self.manager.seat_digests_changed(game_id, digests)
            self.coordinator.publish("seats", game_id)
            self.activity(game_id)

    def claimed(self, game_id: str) -> None:
        """A seat of ``game_id`` was claimed with a fresh token: the copy here takes it (its sockets
        opened with the ended token close), the table and the other processes hear of it."""
        self.manager.seat_digests_changed(game_id)
        self.publish_seats(game_id)
        self.activity(game_id)

    def rematch_started(self, old_id: str, new_id: str) -> None:
        """The rematch ``new_id`` of ``old_id`` exists: keep who holds which seat, the creator, the
        invitations and the open seats (:meth:`People.copy_for_rematch`, idempotent), and tell the
        people's lobbies of their new game.  Called every time the rematch is asked for."""
        self.people.copy_for_rematch(old_id, new_id)
        self.publish_seats(new_id)
        self.activity(new_id)


async def table_feed(social: Social, game_id: str) -> AsyncIterator[dict[str, Any]]:
    """The live messages of a game's table, for its WebSocket to forward as they come.

    Yields ``{"type": "chat", "message": {n, seat, name, text, at}}`` for every new chat message and
    ``{"type": "seats", "seats": [{seat, bot, name, open, claimed}]}`` when a seat is claimed.
    Unsubscribes when the consumer stops iterating.
    """
    queue: asyncio.Queue = asyncio.Queue()
    key = social.hub.subscribe(("game", game_id), asyncio.get_running_loop(), queue)
    try:
        while True:
            yield await queue.get()
    finally:
        social.hub.unsubscribe(key)
