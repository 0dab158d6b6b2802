"""Each game's chat: stored with the game, written by its seated players, read by anyone with the link.

Messages are plain text, stored and returned exactly as written (clients render them as text,
never as markup).  A message is refused whole, with nothing stored, when it is empty, longer than
:data:`MAX_CHARS` characters or :data:`MAX_LINES` lines, contains control characters other than
line breaks and tabs, shows nothing (only spaces, invisible characters or fillers such as U+200B
or U+3164), holds bidi controls (U+202E and the other overrides, embeddings and isolates) or lone
or stacked combining marks (the rules of :mod:`.trust`, as for names), or comes too fast: at most
:data:`SEAT_BURST` messages per seat of a game in :data:`SEAT_WINDOW` seconds, at most
:data:`PERSON_BURST` per person over all their games in :data:`PERSON_WINDOW` seconds, and at
most :data:`GAME_PER_HOUR` messages in a game in an hour and :data:`GAME_PER_DAY` in a day,
however many seats, sockets or games its writers have.  The limits are counted in the database,
so they hold across server processes and restarts.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .people import RateLimited
from .sessions import BadInput, Unavailable
from .trust import Untrusted, check_characters, has_visible
from .social_tables import chat_messages, people

MAX_CHARS = 500
MAX_LINES = 12
SEAT_BURST, SEAT_WINDOW = 5, 10.0
PERSON_BURST, PERSON_WINDOW = 20, 60.0
#: Most messages one game's chat takes in an hour and in a day (a lively table writes far fewer).
GAME_PER_HOUR, GAME_PER_DAY = 200, 1000
#: Most messages one read returns.
PAGE = 200


class ChatRefused(BadInput):
    """A message that cannot be posted (422); ``reason`` names the rule for the page's language."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def _limited(message: str, retry_after: float, reason: str, **params: Any) -> RateLimited:
    exc = RateLimited(message, retry_after)
    exc.reason = reason
    exc.params = {**params, "minutes": max(1, int(retry_after / 60 + 0.999))}
    return exc


def check_text(text: Any) -> str:
    """``text`` unchanged if it may be posted; :class:`BadInput` saying why not."""
    if not isinstance(text, str):
        raise BadInput("a chat message must be text")
    if not has_visible(text, letters_only=False):
        raise ChatRefused("chat_empty", "a chat message needs at least one visible character")
    if len(text) > MAX_CHARS:
        raise BadInput(f"a chat message has at most {MAX_CHARS} characters (this one has {len(text)})")
    if text.count("\n") >= MAX_LINES:
        raise BadInput(f"a chat message has at most {MAX_LINES} lines")
    try:
        check_characters(text, allow="\n\t ", what="a chat message", emoji=True)
    except Untrusted as exc:
        raise ChatRefused(exc.reason, exc.message) from None
    return text


def _message(row) -> dict[str, Any]:
    return {"n": row.n, "seat": row.seat, "name": row.name, "text": row.text, "at": row.created_at}


class Chat:
    """The chat messages of every game.  Thread-safe."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def post(self, game_id: str, seat: int, person_id: str | None, text: Any) -> dict[str, Any]:
        """Store a message of ``seat`` (held by ``person_id``, if anybody); returns it as read back."""
        text = check_text(text)
        for _attempt in range(5):
            now = self.clock()
            try:
                with self.engine.begin() as conn:
                    recent = conn.execute(select(chat_messages.c.created_at).where(
                        chat_messages.c.game_id == game_id, chat_messages.c.seat == seat,
                        chat_messages.c.created_at > now - SEAT_WINDOW).order_by(chat_messages.c.created_at)
                    ).scalars().all()
                    if len(recent) >= SEAT_BURST:
                        raise RateLimited(f"at most {SEAT_BURST} messages in {SEAT_WINDOW:g} seconds; wait a moment",
                                      recent[-SEAT_BURST] + SEAT_WINDOW - now)
                    self._check_game_bound(conn, game_id, now)
                    if person_id is not None:
                        mine = conn.execute(select(chat_messages.c.created_at).where(
                            chat_messages.c.person_id == person_id,
                            chat_messages.c.created_at > now - PERSON_WINDOW).order_by(chat_messages.c.created_at)
                        ).scalars().all()
                        if len(mine) >= PERSON_BURST:
                            raise RateLimited(f"at most {PERSON_BURST} messages in {PERSON_WINDOW:g} seconds over all "
                                          f"your games; wait a moment", mine[-PERSON_BURST] + PERSON_WINDOW - now)
                    n = (conn.execute(select(func.max(chat_messages.c.n)).where(chat_messages.c.game_id == game_id))
                         .scalar() or 0) + 1
                    conn.execute(insert(chat_messages).values(game_id=game_id, n=n, seat=seat, person_id=person_id,
                                                              text=text, created_at=now))
            except IntegrityError:      # another message took this number at the same moment
                continue
            return self.messages(game_id, after=n - 1, limit=1)[0]
        raise Unavailable("the message could not be stored; try again")

    @staticmethod
    def _check_game_bound(conn, game_id: str, now: float) -> None:
        """:class:`RateLimited` when the game's chat holds its most messages of the hour or the day."""
        for limit, window, reason, span in ((GAME_PER_HOUR, 3600.0, "chat_game_hour", "an hour"),
                                            (GAME_PER_DAY, 86400.0, "chat_game_day", "a day")):
            times = conn.execute(select(chat_messages.c.created_at).where(
                chat_messages.c.game_id == game_id, chat_messages.c.created_at > now - window)
                .order_by(chat_messages.c.created_at.desc()).limit(limit)).scalars().all()
            if len(times) >= limit:
                raise _limited(f"this game's chat takes at most {limit} messages in {span}; try again later",
                               times[-1] + window - now, reason, limit=limit)

    def messages(self, game_id: str, after: int | None = None, limit: int = PAGE) -> list[dict[str, Any]]:
        """Messages numbered above ``after`` (None: the newest ones), oldest first, at most ``limit``."""
        query = (select(chat_messages.c.n, chat_messages.c.seat, chat_messages.c.text, chat_messages.c.created_at,
                        people.c.name)
                 .outerjoin(people, people.c.id == chat_messages.c.person_id)
                 .where(chat_messages.c.game_id == game_id))
        if after is None:
            query = query.order_by(chat_messages.c.n.desc()).limit(limit)
        else:
            query = query.where(chat_messages.c.n > after).order_by(chat_messages.c.n).limit(limit)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return sorted((_message(r) for r in rows), key=lambda m: m["n"])

    def last(self, game_id: str) -> int:
        """The number of the game's newest message (0: none yet)."""
        with self.engine.connect() as conn:
            return conn.execute(select(func.max(chat_messages.c.n)).where(chat_messages.c.game_id == game_id)
                                ).scalar() or 0
