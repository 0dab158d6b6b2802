"""E-mail: "your turn" messages and address confirmations, sent through the operator's SMTP server.

Only when the server runs with ``--smtp URL`` (``smtp://user:pass@host:port``, STARTTLS when the
server offers it, or ``smtps://`` for TLS from the start).  Mail goes out on a thread of its own,
never on a request: a slow or failing SMTP server delays no move and breaks no game.

**"Your turn".**  When a game hands the decision to a seat held by a person whose confirmed
address asked for it, a row ``turn_notices(game, seat, turn)`` is written, due ``delay`` seconds
later.  Its primary key allows one row per turn, however many server processes see the change.
When it is due the mailer claims it (``pending`` -> ``sending``, one process wins) and sends it
only if nothing has happened in the game since (the person has not acted meanwhile) and the
person still holds the seat and still wants e-mail; a process killed after the claim never sends
that notice: at most one e-mail per turn.  The message names the game's players and round and
links to the game (``public_url``/games/ID); it holds no key, no token and nothing hidden.

**Confirmation.**  A new address gets one message with a one-time link; "your turn" e-mail goes
only to a confirmed address, so nobody can have the server write to somebody else's.  The message
holds no text a stranger chose (no name: it greets "Hello,"), and its link carries the code in
the URL fragment (``/confirm-email#code=...``), which browsers never send: the page reads it and
posts it, so the code is in no access log.

**Failures.**  A message the SMTP server did not take is tried again after :data:`BACKOFF` seconds
(a confirmation in this process's memory; a turn notice goes back to ``pending`` with a later
``due_at``), at most :data:`ATTEMPTS` times in all; the settings say a confirmation is
``retrying`` or ``failed`` rather than sent.  A turn notice is only sent while it is still that
person's turn, and at most :data:`TURN_MAILS_PER_HOUR` turn e-mails go to one address in an hour.

Texts are in ``server/mail/<language>.toml`` (English and German), in the person's language.
"""

from __future__ import annotations

import collections
import logging
import smtplib
import ssl
import threading
import time
import tomllib
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from .people import People
from .social_tables import person_settings, seat_claims, turn_notices
from .storage import games

log = logging.getLogger("mysticvale.server.mail")

MAIL_TEXTS = Path(__file__).resolve().parent / "mail"
#: Longest the mailer sleeps before looking for due notices left by another process.
SWEEP = 60.0
#: Seconds before each new attempt of a message that failed, and how many attempts in all.
BACKOFF = (30.0, 120.0, 480.0, 1800.0)
ATTEMPTS = len(BACKOFF) + 1
#: Most "your turn" e-mails to one address in an hour (more are skipped, state ``limited``).
TURN_MAILS_PER_HOUR = 10
#: Longest a request waits for the first attempt of its confirmation e-mail (seconds).
FIRST_ATTEMPT_WAIT = 10.0


@dataclass(frozen=True)
class SmtpServer:
    """Where to send mail: from ``smtp://user:pass@host:port`` or ``smtps://...``."""

    tls: bool                      # smtps: TLS from the first byte; smtp: STARTTLS if offered
    host: str
    port: int
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    def describe(self) -> str:
        """The server without its password, for logs and the start-up line."""
        who = f"{self.username}@" if self.username else ""
        return f"{'smtps' if self.tls else 'smtp'}://{who}{self.host}:{self.port}"


def parse_smtp_url(url: str) -> SmtpServer:
    """:class:`SmtpServer` from an URL; ``ValueError`` saying what is wrong with it."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("smtp", "smtps"):
        raise ValueError("the SMTP server is given as smtp://user:password@host:port or smtps://...")
    if not parts.hostname:
        raise ValueError("the SMTP URL names no host")
    try:
        port = parts.port or (465 if parts.scheme == "smtps" else 25)
    except ValueError:
        raise ValueError("the SMTP URL's port is not a number from 1 to 65535") from None
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("the SMTP URL has nothing after host:port")
    return SmtpServer(parts.scheme == "smtps", parts.hostname, port,
                      unquote(parts.username) if parts.username else None,
                      unquote(parts.password) if parts.password is not None else None)


@dataclass(frozen=True)
class MailSettings:
    """How this server sends e-mail."""

    smtp: SmtpServer
    public_url: str                 # where players open the game, e.g. https://vale.example.org/
    sender: str                     # the From: header, e.g. "Mystic Vale <vale@example.org>"
    delay: float = 120.0            # seconds a turn waits before its e-mail (an active player needs none)
    timeout: float = 20.0           # seconds for each SMTP exchange

    def link(self, path: str) -> str:
        return self.public_url.rstrip("/") + "/" + path.lstrip("/")


def default_sender(public_url: str) -> str:
    host = urlsplit(public_url).hostname or "localhost"
    return f"Mystic Vale <noreply@{host}>"


def send(settings: MailSettings, message: EmailMessage) -> None:
    """Deliver one message through the SMTP server (blocking; raises on any failure)."""
    s = settings.smtp
    context = ssl.create_default_context()
    if s.tls:
        client: smtplib.SMTP = smtplib.SMTP_SSL(s.host, s.port, timeout=settings.timeout, context=context)
    else:
        client = smtplib.SMTP(s.host, s.port, timeout=settings.timeout)
    with client:
        client.ehlo()
        if not s.tls and client.has_extn("starttls"):
            client.starttls(context=context)
            client.ehlo()
        if s.username:
            client.login(s.username, s.password or "")
        client.send_message(message)


_texts: dict[str, dict[str, Any]] = {}


def texts(language: str | None) -> dict[str, Any]:
    """The e-mail texts in ``language`` (English if there is no file for it)."""
    lang = language if language and (MAIL_TEXTS / f"{language}.toml").is_file() else "en"
    if lang not in _texts:
        with open(MAIL_TEXTS / f"{lang}.toml", "rb") as f:
            _texts[lang] = tomllib.load(f)
    return _texts[lang]


def _message(settings: MailSettings, to: str, subject: str, body: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = settings.sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = formatdate(localtime=False)
    msg["Message-ID"] = make_msgid(domain=urlsplit(settings.public_url).hostname or "localhost")
    msg["Auto-Submitted"] = "auto-generated"        # RFC 3834: vacation responders stay quiet
    msg.set_content(body)
    return msg


def confirmation_link(settings: MailSettings, code: str) -> str:
    """The confirmation page with the code in its fragment (never sent to a server, never logged)."""
    return settings.link(f"confirm-email#code={code}")


def confirmation_message(settings: MailSettings, to: str, language: str | None, code: str) -> EmailMessage:
    """The confirmation e-mail: only the server's own words and the link (no name: whoever asked for
    it chose the name, and the address may be somebody else's)."""
    t = texts(language)["confirm"]
    return _message(settings, to, t["subject"], t["body"].format(link=confirmation_link(settings, code)))


@dataclass(eq=False)
class Delivery:
    """One confirmation e-mail on its way: ``state`` is "queued", "sent", "retrying" or "failed";
    ``tried`` is set once its first attempt is over."""

    person_id: str
    message: EmailMessage
    state: str = "queued"
    attempts: int = 0
    next_at: float = 0.0
    tried: threading.Event = field(default_factory=threading.Event)


def turn_message(settings: MailSettings, to: str, name: str, language: str | None, game_id: str,
                 others: list[str], round_: int) -> EmailMessage:
    t = texts(language)
    words = t["words"]
    if len(others) > 1:
        together = words["list"].format(first=", ".join(others[:-1]), last=others[-1])
    else:
        together = others[0] if others else words["nobody"]
    fields = {"name": name, "others": together, "round": round_, "link": settings.link(f"games/{game_id}")}
    return _message(settings, to, t["turn"]["subject"].format(**fields), t["turn"]["body"].format(**fields))


class Mailer:
    """The thread that sends e-mail: queued confirmations and due "your turn" notices."""

    def __init__(self, engine: Engine, settings: MailSettings, people: People) -> None:
        self.engine = engine
        self.settings = settings
        self.people = people
        self._queue: collections.deque[Delivery] = collections.deque()
        #: The latest confirmation of each person (queued, retrying, or its outcome).
        self._latest: dict[str, Delivery] = {}
        self._lock = threading.Lock()
        #: Failed attempts of each turn notice (game, seat, turn), for its backoff.
        self._notice_attempts: dict[tuple[str, int, int], int] = {}
        self.backoff: tuple[float, ...] = BACKOFF
        self._wake = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="mysticvale-mail", daemon=True)
        #: Outcome counts since start (sent, skipped, failed): for the operator and the tests.
        self.counts: collections.Counter[str] = collections.Counter()

    def start(self) -> None:
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        self._closed = True
        self._wake.set()
        self._thread.join(timeout)

    # -- what the server asks for ---------------------------------------------------
    def queue_confirmation(self, person_id: str, to: str, language: str | None, code: str) -> Delivery:
        """Send ``person_id``'s confirmation e-mail (replacing any earlier one still waiting)."""
        d = Delivery(person_id, confirmation_message(self.settings, to, language, code))
        with self._lock:
            old = self._latest.get(person_id)
            if old is not None and old.state in ("queued", "retrying"):
                old.state = "replaced"
                old.tried.set()
            self._latest[person_id] = d
            self._queue.append(d)
        self._wake.set()
        return d

    def confirmation_state(self, person_id: str) -> str | None:
        """How the person's latest confirmation e-mail went: "queued", "sent", "retrying", "failed"
        (None: none since this process started)."""
        with self._lock:
            d = self._latest.get(person_id)
        return d.state if d is not None else None

    def retry_now(self) -> None:
        """Make every waiting retry (confirmations and turn notices of this process) due now: for an
        operator whose SMTP server is back, and for the tests."""
        with self._lock:
            for d in self._queue:
                d.next_at = 0.0
            keys = list(self._notice_attempts)
        now = time.time()
        with self.engine.begin() as conn:
            for game_id, seat, turn in keys:
                conn.execute(update(turn_notices).where(
                    turn_notices.c.game_id == game_id, turn_notices.c.seat == seat, turn_notices.c.turn == turn,
                    turn_notices.c.state == "pending").values(due_at=now))
        self._wake.set()

    def forget_confirmation(self, person_id: str) -> None:
        """The address was confirmed, removed or changed without a new mail: stop any retry."""
        with self._lock:
            d = self._latest.pop(person_id, None)
            if d is not None and d.state in ("queued", "retrying"):
                d.state = "replaced"
                d.tried.set()

    def turn_came(self, game_id: str, seat: int, turn: int, seq: int, person_id: str) -> bool:
        """Note that ``seat`` of ``game_id`` must decide in ``turn``; False if that turn already has a notice."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(turn_notices).values(
                    game_id=game_id, seat=seat, turn=turn, person_id=person_id, seq=seq,
                    due_at=time.time() + self.settings.delay, state="pending", done_at=None))
        except IntegrityError:
            return False
        self._wake.set()
        return True

    # -- the thread -----------------------------------------------------------------
    def _run(self) -> None:
        while not self._closed:
            try:
                next_retry = self._send_confirmations()
                next_due = self._send_due()
                if next_retry is not None:
                    next_due = next_retry if next_due is None else min(next_due, next_retry)
            except Exception:           # the database is away: try again at the next sweep
                log.exception("mailer: could not read the notices")
                next_due = None
            wait = SWEEP if next_due is None else min(SWEEP, max(0.0, next_due - time.time()))
            self._wake.wait(wait)
            self._wake.clear()

    def _send_confirmations(self) -> float | None:
        """Send the queued confirmations and those whose retry is due; returns when the next retry
        is due (None: none waiting)."""
        while not self._closed:
            now = time.time()
            with self._lock:
                due = next((d for d in self._queue if d.state == "queued" or d.next_at <= now), None)
                if due is None:
                    waiting = [d.next_at for d in self._queue if d.state == "retrying"]
                    return min(waiting) if waiting else None
                self._queue.remove(due)
                if due.state == "replaced":
                    continue
            ok = self._deliver(due.message, "confirmation")
            with self._lock:
                due.attempts += 1
                if due.state == "replaced":
                    pass
                elif ok:
                    due.state = "sent"
                elif due.attempts < len(self.backoff) + 1:
                    due.state = "retrying"
                    due.next_at = time.time() + self.backoff[due.attempts - 1]
                    self._queue.append(due)
                else:
                    due.state = "failed"
                    log.warning("mail: gave up a confirmation e-mail after %d attempts", due.attempts)
            due.tried.set()
        return None

    def _deliver(self, message: EmailMessage, what: str) -> bool:
        try:
            send(self.settings, message)
        except Exception as exc:
            log.warning("mail: could not send a %s e-mail through %s: %s: %s", what, self.settings.smtp.describe(),
                        type(exc).__name__, exc)
            self.counts["failed"] += 1
            return False
        self.counts["sent"] += 1
        return True

    def _send_due(self) -> float | None:
        """Send every due notice; returns when the next one is due (None: none pending)."""
        now = time.time()
        with self.engine.connect() as conn:
            due = conn.execute(select(turn_notices).where(turn_notices.c.state == "pending",
                                                          turn_notices.c.due_at <= now)
                               .order_by(turn_notices.c.due_at).limit(50)).all()
        for n in due:
            if self._closed:
                return None
            key = (turn_notices.c.game_id == n.game_id, turn_notices.c.seat == n.seat, turn_notices.c.turn == n.turn)
            with self.engine.begin() as conn:
                won = conn.execute(update(turn_notices).where(*key, turn_notices.c.state == "pending")
                                   .values(state="sending")).rowcount == 1
            if not won:
                continue                # another process has it
            outcome = self._turn_mail(n)
            if outcome in ("skipped", "limited"):
                self.counts[outcome] += 1
            values: dict[str, Any] = {"state": outcome, "done_at": time.time()}
            if outcome == "failed":
                tries = self._notice_attempts.get((n.game_id, n.seat, n.turn), 0) + 1
                if tries < len(self.backoff) + 1:      # try again later (still only if it is their turn)
                    self._notice_attempts[(n.game_id, n.seat, n.turn)] = tries
                    values = {"state": "pending", "due_at": time.time() + self.backoff[tries - 1]}
                else:
                    self._notice_attempts.pop((n.game_id, n.seat, n.turn), None)
            else:
                self._notice_attempts.pop((n.game_id, n.seat, n.turn), None)
            with self.engine.begin() as conn:
                conn.execute(update(turn_notices).where(*key).values(**values))
        with self.engine.connect() as conn:
            return conn.execute(select(func.min(turn_notices.c.due_at)).where(turn_notices.c.state == "pending")
                                ).scalar()

    def _turn_mail(self, n) -> str:
        """Send the e-mail of notice ``n`` if it is still wanted: "sent", "skipped", "limited" (the
        address had its most turn e-mails this hour) or "failed"."""
        with self.engine.connect() as conn:
            g = conn.execute(select(games.c.seq, games.c.current_player, games.c.over, games.c.round)
                             .where(games.c.id == n.game_id)).first()
            holder = conn.execute(select(seat_claims.c.person_id).where(
                seat_claims.c.game_id == n.game_id, seat_claims.c.seat == n.seat)).scalar()
            s = conn.execute(select(person_settings).where(person_settings.c.person_id == n.person_id)).first()
        if g is None or g.over or g.seq != n.seq or g.current_player != n.seat:
            return "skipped"            # the game moved on: the person has acted, or it is over
        if holder != n.person_id or s is None or not (s.email and s.email_confirmed and s.email_turns):
            return "skipped"
        with self.engine.connect() as conn:     # at most so many turn e-mails to one address an hour
            recent = conn.execute(select(func.count()).select_from(turn_notices).join(
                person_settings, person_settings.c.person_id == turn_notices.c.person_id).where(
                person_settings.c.email == s.email, turn_notices.c.state == "sent",
                turn_notices.c.done_at > time.time() - 3600)).scalar()
        if recent >= TURN_MAILS_PER_HOUR:
            return "limited"
        holders = self.people.holders(n.game_id)
        me = next((h for h in holders if h.seat == n.seat), None)
        if me is None or me.name is None:
            return "skipped"
        t = texts(s.language)["words"]
        others = [h.name if h.name else (t["bot"].format(bot=h.bot.split(":")[0]) if h.bot else
                                         t["player"].format(number=h.seat + 1))
                  for h in holders if h.seat != n.seat]
        message = turn_message(self.settings, s.email, me.name, s.language, n.game_id, others, g.round)
        return "sent" if self._deliver(message, "turn") else "failed"
