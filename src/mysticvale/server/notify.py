"""E-mail: "your turn" messages and address confirmations, sent through the operator's SMTP server.

Only when the server runs with ``--smtp URL`` (``smtp://user:pass@host:port``, STARTTLS when the
server offers it, or ``smtps://`` for TLS from the start).  Mail goes out on a thread of its own,
never on a request: a slow or failing SMTP server delays no move and breaks no game.

**"Your turn".**  When a game hands the decision to a seat held by a person whose confirmed
address asked for it, a row ``turn_notices(game, seat, turn)`` is written, due ``delay`` seconds
later.  Its primary key allows one row per turn, however many server processes see the change.
When it is due one mailer claims it (:mod:`.outbox`) and sends it only if nothing has happened in
the game since (the person has not acted meanwhile) and the person still holds the seat and still
wants e-mail: at most one e-mail per turn.  The message names the game's players and round and
links to the game (``public_url``/games/ID); it holds no key, no token and nothing hidden.

**Confirmation.**  A new address gets one message with a one-time link; "your turn" e-mail goes
only to a confirmed address, so nobody can have the server write to somebody else's.  The message
holds no text a stranger chose (no name: it greets "Hello,"), and its link carries the code in
the URL fragment (``/confirm-email#code=...``), which browsers never send: the page reads it and
posts it, so the code is in no access log.

**Failures, restarts and several processes.**  What is to be sent is kept in the database, not
in a process's memory: a confirmation as a row of ``mail_outbox``, a turn notice as its row of
``turn_notices``, each with the attempts made so far and when the next is due.  A message the SMTP
server did not take is tried again after :data:`BACKOFF` seconds, at most :data:`ATTEMPTS` times
in all, whichever process makes the attempt and however often the server restarts meanwhile (a
new server resumes the retries where the old one stopped); the settings say a confirmation is
``retrying`` or ``failed`` rather than sent.  Each due row is claimed by one process only
(:mod:`.outbox`: ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, a ``sending`` state on SQLite's single
process), so several processes never send the same mail twice.  A confirmation's code is never
stored: each attempt draws a fresh one for the same confirmation and keeps only its digest.  A
turn notice is only sent while it is still that person's turn.

**Bounds.**  At most :attr:`MailSettings.turn_mails_per_hour` turn e-mails go to one address in an
hour, and at most :attr:`MailSettings.turn_mails_per_address` are caused by one client address: a
notice remembers (as a digest, ``cause``) the address of the request that created the game or made
the move that handed the turn over (the last person who played in it, as the process that made the
change knows it; a game known to that process only from the database counts as its own cause).
Further notices are ``limited``, not sent.  Confirmations are bounded per person, per recipient
and per client address in :mod:`.people` and :mod:`.people_api`.

Texts are in ``server/mail/<language>.toml`` (English and German), in the person's language.
"""

from __future__ import annotations

import collections
import logging
import os
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

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import security
from .outbox import SENDING, claim_next, resume_sending
from .people import People
from .social_tables import mail_outbox, person_settings, seat_claims, turn_notices
from .storage import games

log = logging.getLogger("mysticvale.server.mail")

MAIL_TEXTS = Path(__file__).resolve().parent / "mail"
#: Longest the mailer sleeps before looking for due notices left by another process.
SWEEP = 60.0
#: Seconds before each new attempt of a message that failed, and how many attempts in all.
BACKOFF = (30.0, 120.0, 480.0, 1800.0)
ATTEMPTS = len(BACKOFF) + 1
#: Most "your turn" e-mails to one address in an hour (more are skipped, state ``limited``): the
#: default of :attr:`MailSettings.turn_mails_per_hour`.
TURN_MAILS_PER_HOUR = 10
#: Most "your turn" e-mails one client address may cause in an hour: the default of
#: :attr:`MailSettings.turn_mails_per_address`.
TURN_MAILS_PER_ADDRESS = 30
def _seconds_from_environment(name: str, default: float) -> float:
    value = os.environ.get(name)
    if not value:
        return default
    try:
        return float(value)
    except ValueError:
        raise RuntimeError(f"{name} must be a number of seconds, not {value!r}") from None


#: Longest a request waits for the first attempt of its confirmation e-mail (seconds).  The
#: environment variable MYSTICVALE_FIRST_ATTEMPT_WAIT sets another: the tests' servers wait as long
#: as the tests do, as a loaded machine can take longer than 10 s for an attempt (docs/testing.md).
FIRST_ATTEMPT_WAIT = _seconds_from_environment("MYSTICVALE_FIRST_ATTEMPT_WAIT", 10.0)
#: States of an outbox row still to be sent.
LIVE = ("queued", "retrying", SENDING)
#: Seconds a sent, failed or replaced outbox row is kept (the settings show the latest outcome).
OUTBOX_KEPT = 7 * 86400.0


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
    #: Most "your turn" e-mails to one recipient address in an hour (``--turn-mails-per-hour``).
    turn_mails_per_hour: int = TURN_MAILS_PER_HOUR
    #: Most "your turn" e-mails in an hour whose turn one client address brought about, by creating
    #: the game or by the move that handed the turn over (``--turn-mails-per-address``).
    turn_mails_per_address: int = TURN_MAILS_PER_ADDRESS

    def link(self, path: str) -> str:
        return self.public_url.rstrip("/") + "/" + path.lstrip("/")


def cause_digest(principal: str) -> str:
    """The stored form of the principal that caused a turn notice (``addr:...``, ``game:...``):
    equal principals give equal digests, and no client address is stored as it is."""
    return security.token_digest("mysticvale-turn-cause:" + principal)


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
    """The thread that sends e-mail: due confirmations (``mail_outbox``) and "your turn" notices
    (``turn_notices``), both kept in the database until sent or given up (see the module docstring)."""

    def __init__(self, engine: Engine, settings: MailSettings, people: People) -> None:
        self.engine = engine
        self.settings = settings
        self.people = people
        #: Seconds before each new attempt (this process's; tests shorten or lengthen them).
        self.backoff: tuple[float, ...] = BACKOFF
        self._wake = threading.Event()
        #: Notified after every attempt of a confirmation (requests wait for their first one).
        self._attempted = threading.Condition()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="mysticvale-mail", daemon=True)
        #: Outcome counts since start (sent, skipped, failed): for the operator and the tests.
        self.counts: collections.Counter[str] = collections.Counter()

    def start(self) -> None:
        # (SQLite: this is the only process.)  What a killed server was sending is due again.
        now = time.time()
        resume_sending(self.engine, mail_outbox, lambda r: {"state": "retrying" if r.attempts else "queued",
                                                            "next_at": now})
        resume_sending(self.engine, turn_notices, lambda r: {"state": "pending", "due_at": now})
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        self._closed = True
        self._wake.set()
        self._thread.join(timeout)

    # -- what the server asks for ---------------------------------------------------
    def queue_confirmation(self, person_id: str, to: str, language: str | None, code: str) -> int:
        """Send ``person_id``'s confirmation e-mail for the confirmation of ``code`` (replacing any
        earlier one still waiting); returns its outbox row's id.  Only the code's digest is kept:
        each attempt draws a fresh code for the same confirmation (:meth:`People.reissue_confirmation`)."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(update(mail_outbox).where(
                mail_outbox.c.person_id == person_id, mail_outbox.c.kind == "confirmation",
                mail_outbox.c.state.in_(LIVE)).values(state="replaced", done_at=now))
            conn.execute(delete(mail_outbox).where(mail_outbox.c.state.not_in(LIVE),
                                                   mail_outbox.c.done_at < now - OUTBOX_KEPT))
            outbox_id = conn.execute(insert(mail_outbox).values(
                kind="confirmation", person_id=person_id, email=to, language=language,
                code_digest=security.token_digest(code), state="queued", attempts=0, next_at=now, created_at=now,
                done_at=None)).inserted_primary_key[0]
        self._wake.set()
        return outbox_id

    def wait_first_attempt(self, outbox_id: int, timeout: float = FIRST_ATTEMPT_WAIT) -> str | None:
        """Wait (at most ``timeout`` seconds) until the first attempt of outbox row ``outbox_id`` is
        over, by any server process; returns its state then ("sent", "retrying", "failed", ...)."""
        end = time.monotonic() + timeout
        while True:
            with self.engine.connect() as conn:
                row = conn.execute(select(mail_outbox.c.state, mail_outbox.c.attempts)
                                   .where(mail_outbox.c.id == outbox_id)).first()
            left = end - time.monotonic()
            if row is None or row.attempts > 0 or row.state not in LIVE or left <= 0:
                return row.state if row is not None else None
            with self._attempted:
                self._attempted.wait(min(left, 0.25))

    def confirmation_state(self, person_id: str) -> str | None:
        """How the person's latest confirmation e-mail went: "queued", "sent", "retrying", "failed"
        (None: none, or it was replaced)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(mail_outbox.c.state, mail_outbox.c.attempts).where(
                mail_outbox.c.person_id == person_id, mail_outbox.c.kind == "confirmation")
                .order_by(mail_outbox.c.id.desc()).limit(1)).first()
        if row is None or row.state == "replaced":
            return None
        if row.state == SENDING:
            return "retrying" if row.attempts else "queued"
        return row.state

    def retry_now(self) -> None:
        """Make every waiting retry (confirmations and turn notices) due now: for an operator whose
        SMTP server is back, and for the tests."""
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(update(mail_outbox).where(mail_outbox.c.state == "retrying").values(next_at=0.0))
            conn.execute(update(turn_notices).where(turn_notices.c.state == "pending", turn_notices.c.attempts > 0)
                         .values(due_at=now))
        self._wake.set()

    def forget_confirmation(self, person_id: str) -> None:
        """The address was confirmed, removed or changed without a new mail: stop any retry."""
        with self.engine.begin() as conn:
            conn.execute(update(mail_outbox).where(
                mail_outbox.c.person_id == person_id, mail_outbox.c.kind == "confirmation",
                mail_outbox.c.state.in_(LIVE)).values(state="replaced", done_at=time.time()))

    def turn_came(self, game_id: str, seat: int, turn: int, seq: int, person_id: str,
                  cause: str | None = None) -> bool:
        """Note that ``seat`` of ``game_id`` must decide in ``turn``; False if that turn already has a notice.

        ``cause``: the principal (``addr:...``) whose game or move brought the turn about, counted
        against :attr:`MailSettings.turn_mails_per_address`; None when this process does not know
        it (another process made the change: that one notes it too, and its cause wins)."""
        digest = cause_digest(cause) if cause else None
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(turn_notices).values(
                    game_id=game_id, seat=seat, turn=turn, person_id=person_id, seq=seq,
                    due_at=time.time() + self.settings.delay, state="pending", done_at=None, attempts=0,
                    cause=digest))
        except IntegrityError:
            if digest is not None:      # the process that made the change knows whose it was
                with self.engine.begin() as conn:
                    conn.execute(update(turn_notices).where(
                        turn_notices.c.game_id == game_id, turn_notices.c.seat == seat, turn_notices.c.turn == turn,
                        turn_notices.c.state == "pending").values(cause=digest))
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

    def _next_attempt(self, attempts: int) -> dict[str, Any]:
        """The state after ``attempts`` failed attempts: due again after its backoff, or given up."""
        if attempts < len(self.backoff) + 1:
            return {"state": "retrying", "next_at": time.time() + self.backoff[attempts - 1]}
        log.warning("mail: gave up a confirmation e-mail after %d attempts", attempts)
        return {"state": "failed", "done_at": time.time()}

    def _send_confirmations(self) -> float | None:
        """Send every due confirmation; returns when the next retry is due (None: none waiting)."""
        while not self._closed:
            now = time.time()
            with claim_next(self.engine, mail_outbox, (mail_outbox.c.state.in_(("queued", "retrying")),
                                                       mail_outbox.c.next_at <= now),
                            (mail_outbox.c.next_at, mail_outbox.c.id), lambda r: (mail_outbox.c.id == r.id,)) as claim:
                if claim is None:
                    break
                row = claim.row

                def fresh_code(conn) -> str | None:
                    code = self.people.reissue_confirmation(conn, row.person_id, row.email, row.code_digest)
                    if code is not None:
                        conn.execute(update(mail_outbox).where(mail_outbox.c.id == row.id)
                                     .values(code_digest=security.token_digest(code)))
                    return code

                code = claim.run(fresh_code)
                if code is None:        # confirmed, changed or expired meanwhile: nothing to send
                    claim.finish(state="replaced", done_at=time.time())
                else:
                    ok = self._deliver(confirmation_message(self.settings, row.email, row.language, code),
                                       "confirmation")
                    attempts = row.attempts + 1
                    claim.finish(attempts=attempts, **({"state": "sent", "done_at": time.time()} if ok
                                                       else self._next_attempt(attempts)))
            with self._attempted:
                self._attempted.notify_all()
        with self.engine.connect() as conn:
            return conn.execute(select(func.min(mail_outbox.c.next_at)).where(
                mail_outbox.c.state.in_(("queued", "retrying")))).scalar()

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
        while not self._closed:
            now = time.time()
            with claim_next(self.engine, turn_notices, (turn_notices.c.state == "pending", turn_notices.c.due_at <= now),
                            (turn_notices.c.due_at,),
                            lambda n: (turn_notices.c.game_id == n.game_id, turn_notices.c.seat == n.seat,
                                       turn_notices.c.turn == n.turn)) as claim:
                if claim is None:
                    break
                n = claim.row
                outcome = self._turn_mail(n)
                if outcome in ("skipped", "limited"):
                    self.counts[outcome] += 1
                values: dict[str, Any] = {"state": outcome, "done_at": time.time()}
                if outcome == "failed":
                    tries = n.attempts + 1
                    values["attempts"] = tries
                    if tries < len(self.backoff) + 1:      # try again later (still only if it is their turn)
                        values.update(state="pending", done_at=None, due_at=time.time() + self.backoff[tries - 1])
                claim.finish(**values)
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
        if recent >= self.settings.turn_mails_per_hour:
            return "limited"
        if n.cause is not None:                 # ... and caused by one client address (issue 22)
            with self.engine.connect() as conn:
                caused = conn.execute(select(func.count()).select_from(turn_notices).where(
                    turn_notices.c.cause == n.cause, turn_notices.c.state == "sent",
                    turn_notices.c.done_at > time.time() - 3600)).scalar()
            if caused >= self.settings.turn_mails_per_address:
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
