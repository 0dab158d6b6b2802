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
"""

from __future__ import annotations

import asyncio
import collections
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


@dataclass
class _Listener:
    loop: Any
    queue: Any
    topic: tuple[str, str]


class Hub:
    """In-process fan-out to asyncio queues: ``("person", id)`` and ``("game", id)`` topics."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: dict[int, _Listener] = {}
        self._keys = itertools.count(1)

    def subscribe(self, topic: tuple[str, str], loop, queue) -> int:
        with self._lock:
            key = next(self._keys)
            self._listeners[key] = _Listener(loop, queue, topic)
            return key

    def unsubscribe(self, key: int) -> None:
        with self._lock:
            self._listeners.pop(key, None)

    def listening(self, kind: str) -> set[str]:
        """Ids with at least one listener of this kind ("person" or "game")."""
        with self._lock:
            return {li.topic[1] for li in self._listeners.values() if li.topic[0] == kind}

    def publish(self, topic: tuple[str, str], item: Any) -> None:
        with self._lock:
            targets = [li for li in self._listeners.values() if li.topic == topic]
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
        self._cond = threading.Condition()
        self._closed = False
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._run, name="mysticvale-social", daemon=True)

    def start(self) -> None:
        self.manager.change_listeners.append(self._game_changed)
        self._thread.start()
        if self.mailer is not None:
            self.mailer.start()

    def close(self) -> None:
        try:
            self.manager.change_listeners.remove(self._game_changed)
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
        self._queue(session.id, session.turn_info())

    def activity(self, game_id: str) -> None:
        """Something about a game changed besides its moves (a claim, a chat message, a new game)."""
        self._queue(game_id, None)

    def _queue(self, game_id: str, info: TurnInfo | None) -> None:
        with self._cond:
            if info is None and game_id in self._pending:
                info = self._pending[game_id]     # keep a queued move's turn information
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
                while not self._pending and not self._closed:
                    self._idle.set()
                    self._cond.wait()
                if self._closed:
                    self._idle.set()
                    return
                game_id, info = self._pending.popitem(last=False)
            try:
                if info is not None and self.mailer is not None:
                    self._maybe_notice(info)
                self._tell_people(game_id)
            except Exception:
                log.exception("game %s: could not tell its people of a change", game_id)

    def _tell_people(self, game_id: str) -> None:
        listening = self.hub.listening("person")
        if not listening:
            return
        for person_id in self.people.people_of_game(game_id) & listening:
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
            self.mailer.turn_came(info.game_id, seat, info.turn, info.seq, person_id)

    # -- a game's table ---------------------------------------------------------------
    def post_chat(self, game_id: str, seat: int, text: Any) -> dict[str, Any]:
        """Store a chat message of ``seat`` (checked and rate-limited, see :mod:`.chat`), tell the
        table and the lobbies; returns the message.  The one way to write in a game's chat (the HTTP
        route, and the game's WebSocket when it takes ``{"type": "chat", "text": ...}``)."""
        message = self.chat.post(game_id, seat, self.people.holder_of(game_id, seat), text)
        self._to_table(game_id, {"type": "chat", "message": message})
        self.activity(game_id)
        return message

    def publish_seats(self, game_id: str) -> None:
        """Tell the table who sits where (after a claim or a new name)."""
        self._to_table(game_id, seats_message(self.people.holders(game_id)))

    def _to_table(self, game_id: str, message: dict[str, Any]) -> None:
        # Sockets of this process only.  With several server processes on one database, this is
        # where the message must also go to the others (the cluster's notification channel).
        self.hub.publish(("game", game_id), message)


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
