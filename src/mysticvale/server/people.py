"""People with names, their personal keys, the seats they hold, invitations and settings.

A **person** is an id and a display name.  What proves that a request comes from that person is
a **credential**, kept apart from the person: today the *personal key*, a random secret the
browser keeps (the server stores its SHA-256 only, like seat tokens).  A password or an external
login would be further kinds of credential for the same person.

A person **holds** a seat by claiming it, with the seat's token (an invitation link) or, for an
*open* seat, with the game link alone; first come, first served, and one seat per person per game.
The claim gives the seat a fresh token (:mod:`.credentials`): the token it was claimed with (an
invitation the creator and anybody who saw the link know) ends.  The fresh token is sealed in the
person's vault (:mod:`.sealing`), so the person can open their seat on any device where they have
their key; nobody else ever holds it.

The creator of a game (with a personal key) can read back the invitation link of every seat until
somebody claims it: the token is sealed in the creator's vault.  An open seat's token is stored in
the clear until it is claimed: anyone with the game link may claim that seat, so its token is no
better kept than the game id; the creator does not receive it, and it is deleted at the claim.

A **rematch** gives every seat a new token derived from the seat's token in the game before
(:func:`.credentials.rematch_token`), and :meth:`People.copy_for_rematch` keeps who holds each
seat, the creator, the creator's invitations and the open seats.  The server cannot seal a token
anew for the rematch (it holds nobody's vault key), so a copied claim or invitation carries the
sealed value of the game it was sealed in, as ``"<that game's id>/<sealed value>"``
(:func:`carry`).  Such a value opens only with that game's context; the token of the rematch is
derived from it along the chain of rematches and must be the rematch seat's token (its digest is
checked; a rematch seat still ``pending`` takes it if the old token is still the old seat's).
Copied onto any other row it reveals nothing.

**Replacing a key** (:meth:`People.replace_key`, :meth:`People.sign_out_everywhere`) ends the old
key at once and replaces every seat token that key could read (:meth:`People.replace_tokens`).
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.dialects import postgresql as pg_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

from . import credentials as seat_tokens, sealing, security
from .names import NAME_MAX, NameTaken, clean_name  # noqa: F401  (clean_name: part of this module's API)
from .sessions import BadInput, Conflict, GameError
from .trust import is_mixed_script, name_key, skeleton
from .social_tables import (
    chat_messages, credentials, email_confirmations, game_creators, invitations, people, person_settings, seat_claims,
)
from .storage import games, seats

log = logging.getLogger("mysticvale.server.people")

#: Languages a person may choose for the interface and for e-mail.
LANGUAGES = ("en", "de")
#: How long an e-mail confirmation code stays valid (seconds), and how many may be sent per hour.
CONFIRMATION_TTL = 2 * 24 * 3600
CONFIRMATIONS_PER_HOUR = 3
#: ... and how many one address gets in a day, whoever asks.
CONFIRMATIONS_PER_DAY = 5
#: Finished games listed by default (the most recent ones); unfinished games are always all listed.
FINISHED_LISTED = 20


class NeedsKey(GameError):
    """No personal key was sent."""

    status = 401


class RateLimited(GameError):
    """Too many requests of one kind; ``retry_after`` seconds until the next one is taken (answered
    with a ``Retry-After`` header)."""

    status = 429

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, int(retry_after + 0.999))


# -- names ---------------------------------------------------------------------------
#: Serialises name changes over every server process on PostgreSQL (an advisory lock's number),
#: so that two people cannot take look-alike names at the same moment.
NAME_LOCK = 0x6D76_6E61


def clean_email(raw: str) -> str:
    """A valid e-mail address in its normal, ASCII form; :class:`BadInput` if it is not one.

    The local part must be ASCII (no SMTPUTF8: few servers take it, and look-alike letters hide
    there); a domain of another script must be proper IDNA, of one script per label and not a
    look-alike of an ASCII domain (Cyrillic ``exаmple.org``).  Stored in its ASCII (Punycode) form,
    which is what the mail goes to and what the settings show.
    """
    if not isinstance(raw, str) or not raw.strip():
        raise BadInput("not a valid e-mail address: it is empty")
    try:
        checked = validate_email(raw.strip(), check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError as exc:
        raise BadInput(f"not a valid e-mail address: {exc}") from None
    for label in checked.domain.split("."):
        if label.isascii():
            continue
        if is_mixed_script(label):
            raise BadInput(f"not a valid e-mail address: the domain part {label!r} mixes scripts")
        if skeleton(label).isascii():
            raise BadInput(f"not a valid e-mail address: the domain part {label!r} looks like the Latin "
                           f"{skeleton(label)!r}")
    return checked.ascii_email


# -- records -------------------------------------------------------------------------
@dataclass(frozen=True)
class Person:
    """A person as one request knows them: their vault is open for the length of the request."""

    id: str
    name: str
    vault: bytes = field(repr=False)
    credential_id: int = 0


@dataclass(frozen=True)
class Settings:
    email: str | None = None
    email_confirmed: bool = False
    email_turns: bool = False
    sound: bool | None = None
    language: str | None = None


@dataclass(frozen=True)
class SeatHolder:
    """Who sits at a seat, as anyone may see it (no secret)."""

    seat: int
    bot: str | None
    name: str | None        # the display name of the person who holds it
    person_id: str | None   # server-side only: never sent to clients
    open: bool              # an open seat nobody has claimed yet


@dataclass(frozen=True)
class Claimed:
    seat: int
    token: str
    new: bool               # False when the person already held this seat


UNSET: Any = object()


class People:
    """Storage of people and what they hold.  Thread-safe: every method runs its own transaction."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock
        self._names = threading.Lock()      # name changes of this process, one at a time

    # -- people and keys --------------------------------------------------------------
    def create(self, name: str) -> tuple[Person, str]:
        """A new person with this name; returns the person and their personal key (shown once).

        :class:`NameRefused` for an unfit name, :class:`NameTaken` if it is somebody's (or looks so)."""
        name = clean_name(name)
        now = self.clock()
        person_id = secrets.token_urlsafe(12)
        key = security.new_token()
        vault = sealing.new_vault_key()
        with self._names, self.engine.begin() as conn:
            self._check_free(conn, name, None)
            conn.execute(insert(people).values(id=person_id, name=name, created_at=now, updated_at=now))
            cid = self._add_key(conn, person_id, key, vault, now)
        return Person(person_id, name, vault, cid), key

    @staticmethod
    def _add_key(conn: Connection, person_id: str, key: str, vault: bytes, now: float) -> int:
        res = conn.execute(insert(credentials).values(
            person_id=person_id, kind="key", lookup=security.token_digest(key), secret=None,
            vault=sealing.wrap_vault(vault, key, person_id), created_at=now))
        return int(res.inserted_primary_key[0])

    def authenticate(self, key: str | None) -> Person | None:
        """The person whose personal key this is, with their vault open; None for any other string."""
        if not key or len(key) > 128:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(
                select(credentials.c.id, credentials.c.person_id, credentials.c.vault, people.c.name)
                .join(people, people.c.id == credentials.c.person_id)
                .where(credentials.c.kind == "key", credentials.c.lookup == security.token_digest(key))).first()
        if row is None:
            return None
        try:
            vault = sealing.unwrap_vault(row.vault, key, row.person_id)
        except sealing.SealError:
            log.error("person %s: a key credential does not open its vault", row.person_id)
            return None
        return Person(row.person_id, row.name, vault, row.id)

    def _check_free(self, conn: Connection, name: str, me: str | None) -> None:
        """:class:`NameTaken` if somebody other than ``me`` has ``name`` or a name that looks like it
        (the same :func:`.trust.name_key`).  Holds the name lock until the transaction ends."""
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_advisory_xact_lock(NAME_LOCK)))
        key = name_key(name)
        for row in conn.execute(select(people.c.id, people.c.name)):
            if row.id != me and name_key(row.name) == key:
                raise NameTaken(f"the name {name!r} is taken, or looks like one in use ({row.name!r}); "
                                f"choose another")

    def rename(self, person: Person, name: str) -> Person:
        """Give ``person`` a new name (:class:`NameRefused`, :class:`NameTaken`: nothing changed)."""
        name = clean_name(name)
        with self._names, self.engine.begin() as conn:
            self._check_free(conn, name, person.id)
            conn.execute(update(people).where(people.c.id == person.id).values(name=name, updated_at=self.clock()))
        return Person(person.id, name, person.vault, person.credential_id)

    def replace_key(self, person: Person, *, everywhere: bool = False) -> tuple[str, dict[str, dict[int, str]]]:
        """A new personal key for ``person``: the key used for this request (``everywhere``: every
        key of the person, on every device) stops working at once, and every seat token that key
        could read is replaced (:meth:`replace_tokens`).  Returns the new key and the seats whose
        tokens changed (game id -> seat -> new digest), for the sessions in memory."""
        key = security.new_token()
        with self.engine.begin() as conn:
            if everywhere:
                conn.execute(delete(credentials).where(credentials.c.person_id == person.id))
            else:
                conn.execute(delete(credentials).where(credentials.c.id == person.credential_id))
            self._add_key(conn, person.id, key, person.vault, self.clock())
        return key, self.replace_tokens(person)

    def key_works(self, key: str) -> bool:
        """Whether the personal key still works (a lobby socket opened with it asks).  Asked by the
        key's digest, not the credential's number: a new key may get the number of an ended one."""
        with self.engine.connect() as conn:
            return conn.execute(select(credentials.c.id).where(
                credentials.c.kind == "key", credentials.c.lookup == security.token_digest(key))).first() is not None

    def replace_tokens(self, person: Person) -> dict[str, dict[int, str]]:
        """Give every seat ``person`` holds, and every invitation they keep as a game's creator, a
        fresh token (the old ones end, as ``replaced``), sealed anew in their vault.  Returns the
        changed seats: game id -> seat -> new digest.  (A seat whose token cannot be opened, or
        changed meanwhile, is left as it is.)"""
        now = self.clock()
        changed: dict[str, dict[int, str]] = {}
        with self.engine.begin() as conn:
            held = conn.execute(select(seat_claims).where(seat_claims.c.person_id == person.id)).all()
            kept = conn.execute(select(invitations).where(invitations.c.creator_id == person.id,
                                                          invitations.c.open.is_(False),
                                                          invitations.c.sealed_token.is_not(None))).all()
            for table, rows in ((seat_claims, held), (invitations, kept)):
                for r in rows:
                    try:
                        old = _digest_held(conn, person.vault, r.sealed_token, r.game_id, r.seat)
                    except sealing.SealError:
                        continue
                    token = seat_tokens.replace_seat_token(conn, r.game_id, r.seat, old, seat_tokens.REPLACED, now)
                    if token is None:
                        continue
                    conn.execute(update(table).where(table.c.game_id == r.game_id, table.c.seat == r.seat)
                                 .values(sealed_token=sealing.seal_token(person.vault, token, r.game_id, r.seat)))
                    changed.setdefault(r.game_id, {})[r.seat] = security.token_digest(token)
        return changed

    # -- settings ---------------------------------------------------------------------
    def settings(self, person_id: str) -> Settings:
        with self.engine.connect() as conn:
            row = conn.execute(select(person_settings).where(person_settings.c.person_id == person_id)).first()
        if row is None:
            return Settings()
        return Settings(row.email, bool(row.email_confirmed), bool(row.email_turns), row.sound, row.language)

    def save_settings(self, person_id: str, *, email: Any = UNSET, email_turns: Any = UNSET, sound: Any = UNSET,
                      language: Any = UNSET, confirm: bool = False) -> tuple[Settings, str | None]:
        """Change the given settings; returns the new settings and, if the address changed and
        ``confirm`` is set, the code that confirms it (see :meth:`new_confirmation`).

        A new address is unconfirmed until its confirmation link is used; no address means no
        "your turn" e-mail.  :class:`BadInput` (nothing changed) for an invalid address or language,
        or for turn e-mails without an address; :class:`RateLimited` (nothing changed) past the hourly
        limit of confirmation e-mails.
        """
        old = self.settings(person_id)
        new_email = old.email if email is UNSET else (clean_email(email) if email else None)
        turns = old.email_turns if email_turns is UNSET else bool(email_turns)
        if language is not UNSET and language is not None and language not in LANGUAGES:
            raise BadInput(f"unknown language {language!r}; languages: {', '.join(LANGUAGES)}")
        if turns and new_email is None:
            if email_turns is not UNSET:
                raise BadInput("give an e-mail address to get an e-mail when it is your turn")
            turns = False           # the address was removed: no more turn e-mails
        changed = new_email != old.email
        now = self.clock()
        values = {
            "email": new_email, "email_confirmed": old.email_confirmed and not changed, "email_turns": turns,
            "sound": old.sound if sound is UNSET else sound,
            "language": old.language if language is UNSET else language, "updated_at": now,
        }
        code = None
        with self.engine.begin() as conn:
            if changed and new_email and confirm:
                code = self._new_confirmation(conn, person_id, new_email, now)
            res = conn.execute(update(person_settings).where(person_settings.c.person_id == person_id).values(**values))
            if res.rowcount == 0:
                conn.execute(insert(person_settings).values(person_id=person_id, **values))
        return self.settings(person_id), code

    def new_confirmation(self, person_id: str, email: str) -> str:
        """A one-time code that confirms ``email`` for this person.

        :class:`RateLimited` past :data:`CONFIRMATIONS_PER_HOUR` e-mails in an hour for this person, or
        to this address from anybody: nobody can make the server write to an address over and over.
        Sent codes are kept (used ones marked expired) until well past their time, for this count.
        """
        with self.engine.begin() as conn:
            return self._new_confirmation(conn, person_id, email, self.clock())

    @staticmethod
    def _new_confirmation(conn: Connection, person_id: str, email: str, now: float) -> str:
        code = secrets.token_urlsafe(24)
        conn.execute(delete(email_confirmations).where(       # (kept a day at least: the daily count)
            email_confirmations.c.created_at < now - max(CONFIRMATION_TTL, 86400) - 3600))
        for column, value in ((email_confirmations.c.person_id, person_id), (email_confirmations.c.email, email)):
            recent = conn.execute(select(email_confirmations.c.created_at).where(
                column == value, email_confirmations.c.created_at > now - 3600)
                .order_by(email_confirmations.c.created_at)).scalars().all()
            if len(recent) >= CONFIRMATIONS_PER_HOUR:
                raise RateLimited(f"at most {CONFIRMATIONS_PER_HOUR} confirmation e-mails per hour; try again later",
                              recent[-CONFIRMATIONS_PER_HOUR] + 3600 - now)
        day = conn.execute(select(email_confirmations.c.created_at).where(
            email_confirmations.c.email == email, email_confirmations.c.created_at > now - 86400)
            .order_by(email_confirmations.c.created_at)).scalars().all()
        if len(day) >= CONFIRMATIONS_PER_DAY:      # one address, from anybody
            raise RateLimited(f"at most {CONFIRMATIONS_PER_DAY} confirmation e-mails a day to one address; try again "
                              f"tomorrow", day[-CONFIRMATIONS_PER_DAY] + 86400 - now)
        conn.execute(insert(email_confirmations).values(
            code_digest=security.token_digest(code), person_id=person_id, email=email, created_at=now,
            expires_at=now + CONFIRMATION_TTL))
        return code

    def reissue_confirmation(self, conn: Connection, person_id: str, email: str, digest: str | None) -> str | None:
        """A fresh code for the confirmation whose code has ``digest`` (its old code stops working):
        each attempt of a confirmation e-mail carries a code drawn for it, so that no code is ever
        stored, only its digest.  None if that confirmation is no longer wanted: used, expired, or
        the person's address is no longer ``email`` or is confirmed.  (In the caller's transaction.)"""
        s = conn.execute(select(person_settings.c.email, person_settings.c.email_confirmed)
                         .where(person_settings.c.person_id == person_id)).first()
        if digest is None or s is None or s.email != email or s.email_confirmed:
            return None
        code = secrets.token_urlsafe(24)
        res = conn.execute(update(email_confirmations).where(
            email_confirmations.c.code_digest == digest, email_confirmations.c.person_id == person_id,
            email_confirmations.c.expires_at > self.clock()).values(code_digest=security.token_digest(code)))
        return code if res.rowcount == 1 else None

    def confirm_email(self, code: str) -> bool:
        """Use a confirmation code: True if it confirmed the address it was sent to."""
        if not code or len(code) > 128:
            return False
        now = self.clock()
        with self.engine.begin() as conn:
            row = conn.execute(select(email_confirmations).where(
                email_confirmations.c.code_digest == security.token_digest(code))).first()
            if row is None or row.expires_at < now:
                return False
            res = conn.execute(update(person_settings).where(
                person_settings.c.person_id == row.person_id, person_settings.c.email == row.email)
                .values(email_confirmed=True, updated_at=now))
            # every code of this person is used up (kept, expired, for the hourly count)
            conn.execute(update(email_confirmations).where(email_confirmations.c.person_id == row.person_id)
                         .values(expires_at=0.0))
            return res.rowcount == 1

    # -- games, seats, claims -----------------------------------------------------------
    def record_game(self, game_id: str, creator: Person | None, creator_seat: int | None, tokens: dict[int, str],
                    open_seats: Iterable[int]) -> None:
        """After a game is created: its creator, the creator's claim, invitations and open seats."""
        now = self.clock()
        open_seats = set(open_seats)
        with self.engine.begin() as conn:
            if creator is not None:
                conn.execute(insert(game_creators).values(game_id=game_id, person_id=creator.id, created_at=now))
                if creator_seat is not None:
                    conn.execute(insert(seat_claims).values(
                        game_id=game_id, seat=creator_seat, person_id=creator.id, claimed_at=now,
                        sealed_token=sealing.seal_token(creator.vault, tokens[creator_seat], game_id, creator_seat)))
            rows = []
            for seat, token in sorted(tokens.items()):
                if seat in open_seats:
                    rows.append({"game_id": game_id, "seat": seat, "open": True, "token": token, "sealed_token": None,
                                 "creator_id": creator.id if creator else None, "created_at": now})
                elif creator is not None and seat != creator_seat:
                    rows.append({"game_id": game_id, "seat": seat, "open": False, "token": None,
                                 "sealed_token": sealing.seal_token(creator.vault, token, game_id, seat),
                                 "creator_id": creator.id, "created_at": now})
            if rows:
                conn.execute(insert(invitations), rows)

    def claim(self, person: Person, game_id: str, seat: int, token: str | None) -> Claimed:
        """``person`` takes ``seat`` of ``game_id``, with a fresh token for the seat (the token it
        was claimed with ends: see :mod:`.credentials`).

        ``token`` is that seat's token, already checked by the caller against the game; None asks
        for an open seat.  :class:`Conflict` (nothing changed) if the seat is someone else's, if the
        person holds another seat of this game, if the seat is not open and no token was given, or
        if the seat's token changed meanwhile (somebody else claimed it just now).
        """
        now = self.clock()
        try:
            with self.engine.begin() as conn:
                held = {row.seat: row for row in conn.execute(
                    select(seat_claims).where(seat_claims.c.game_id == game_id))}
                row = held.get(seat)
                if row is not None and row.person_id == person.id:
                    return Claimed(seat, _open_sealed(conn, person.vault, row.sealed_token, game_id, seat), False)
                if row is not None:
                    name = conn.execute(select(people.c.name).where(people.c.id == row.person_id)).scalar()
                    raise Conflict(f"seat {seat} is already taken by {name}")
                mine = next((r.seat for r in held.values() if r.person_id == person.id), None)
                if mine is not None:
                    raise Conflict(f"you already play seat {mine} in this game; one seat per person")
                inv = conn.execute(select(invitations).where(invitations.c.game_id == game_id,
                                                             invitations.c.seat == seat)).first()
                if token is None:
                    if inv is None or not inv.open or not inv.token:
                        raise Conflict(f"seat {seat} is not an open seat: it is taken with its invitation link")
                    token = inv.token
                token = seat_tokens.replace_seat_token(conn, game_id, seat, security.token_digest(token),
                                                       seat_tokens.CLAIMED, now)
                if token is None:
                    raise Conflict("somebody else claimed this seat just now")
                conn.execute(insert(seat_claims).values(
                    game_id=game_id, seat=seat, person_id=person.id, claimed_at=now,
                    sealed_token=sealing.seal_token(person.vault, token, game_id, seat)))
                conn.execute(delete(invitations).where(invitations.c.game_id == game_id, invitations.c.seat == seat))
        except IntegrityError:
            raise Conflict("somebody else claimed this seat just now, or you took another seat of this game") from None
        return Claimed(seat, token, True)

    def copy_for_rematch(self, old_id: str, new_id: str) -> int:
        """Keep, in the rematch ``new_id`` of ``old_id``, who holds each seat, the creator, the
        creator's unclaimed invitations and the open seats (one transaction); returns how many
        claims the rematch holds.

        Claims and invitations are copied as pointers to the old game's sealed tokens (:func:`carry`):
        the rematch token is derived from them when their person opens them.  An open seat's token
        (stored in the clear) is derived at once.  Idempotent: every row is inserted only where its
        primary key is free, so asking again, or two processes asking at once, leaves one copy; an
        invitation is not brought back for a seat somebody has claimed in the rematch meanwhile.
        """
        now = self.clock()
        with self.engine.begin() as conn:
            human = {r.seat for r in conn.execute(select(seats.c.seat).where(
                seats.c.game_id == new_id, seats.c.bot.is_(None)))}
            creator = conn.execute(select(game_creators.c.person_id).where(game_creators.c.game_id == old_id)).scalar()
            if creator is not None:
                conn.execute(_insert_new(conn, game_creators).values(game_id=new_id, person_id=creator, created_at=now))
            claims = [{"game_id": new_id, "seat": r.seat, "person_id": r.person_id, "claimed_at": now,
                       "sealed_token": carry(r.sealed_token, old_id)}
                      for r in conn.execute(select(seat_claims).where(seat_claims.c.game_id == old_id))
                      if r.seat in human]
            if claims:
                conn.execute(_insert_new(conn, seat_claims), claims)
            taken = set(conn.execute(select(seat_claims.c.seat).where(seat_claims.c.game_id == new_id)).scalars())
            invites = []
            for r in conn.execute(select(invitations).where(invitations.c.game_id == old_id)):
                if r.seat not in human or r.seat in taken:
                    continue
                token = None
                if r.open and r.token:       # an open seat: its token is no secret from the game link
                    token = seat_tokens.derive_for_rematch(conn, old_id, new_id, r.seat, r.token)
                    if token is None:
                        continue
                invites.append({"game_id": new_id, "seat": r.seat, "open": r.open, "creator_id": r.creator_id,
                                "sealed_token": carry(r.sealed_token, old_id) if r.sealed_token else None,
                                "token": token, "created_at": now})
            if invites:
                conn.execute(_insert_new(conn, invitations), invites)
            return len(taken)

    def holders(self, game_id: str) -> list[SeatHolder]:
        """Every seat of a game with its bot, its holder's name and whether it is open ([] if no game)."""
        with self.engine.connect() as conn:
            return _holders(conn, [game_id]).get(game_id, [])

    def people_of_game(self, game_id: str) -> set[str]:
        """Ids of the people holding a seat of the game or having created it."""
        with self.engine.connect() as conn:
            held = conn.execute(select(seat_claims.c.person_id).where(seat_claims.c.game_id == game_id)).scalars()
            made = conn.execute(select(game_creators.c.person_id).where(game_creators.c.game_id == game_id)).scalars()
            return set(held) | set(made)

    def holder_of(self, game_id: str, seat: int) -> str | None:
        """The id of the person holding ``seat``, if any."""
        with self.engine.connect() as conn:
            return conn.execute(select(seat_claims.c.person_id).where(
                seat_claims.c.game_id == game_id, seat_claims.c.seat == seat)).scalar()

    def game_rows(self, person: Person, *, finished: int = FINISHED_LISTED,
                  only: str | None = None) -> list[dict[str, Any]]:
        """The person's games, those where it is their turn first, then running, then finished.

        Each row (see ``people_schemas.MyGame``) holds only what the person may know: everybody's
        names and the public summary, the person's own seat token, and (for the creator) the
        tokens of seats nobody has claimed yet.  ``only``: just that game (or nothing).
        """
        with self.engine.connect() as conn:
            mine = {r.game_id: r for r in conn.execute(
                select(seat_claims.c.game_id, seat_claims.c.seat, seat_claims.c.sealed_token)
                .where(seat_claims.c.person_id == person.id))}
            made = set(conn.execute(select(game_creators.c.game_id).where(game_creators.c.person_id == person.id))
                       .scalars())
            ids = set(mine) | made
            if only is not None:
                ids &= {only}
            if not ids:
                return []
            grows = conn.execute(select(games).where(games.c.id.in_(ids))).all()
            chats = {r.game_id: (r.count, r.last) for r in conn.execute(
                select(chat_messages.c.game_id, func.count().label("count"),
                       func.max(chat_messages.c.created_at).label("last"))
                .where(chat_messages.c.game_id.in_(ids)).group_by(chat_messages.c.game_id))}

            def status(g) -> str:
                if g.over:
                    return "finished"
                m = mine.get(g.id)
                return "your_turn" if m is not None and g.current_player == m.seat else "running"

            def activity(g) -> float:
                return max(g.updated_at, chats.get(g.id, (0, 0.0))[1] or 0.0)

            order = {"your_turn": 0, "running": 1, "finished": 2}
            grows = sorted(grows, key=lambda g: (order[status(g)], -activity(g), g.id))
            done = [g for g in grows if g.over]
            grows = [g for g in grows if not g.over] + done[:finished]
            keep = [g.id for g in grows]
            holders = _holders(conn, keep)
            invites: dict[str, list] = {}
            for r in conn.execute(select(invitations).where(
                    invitations.c.game_id.in_([g for g in keep if g in made]), invitations.c.creator_id == person.id,
                    invitations.c.open.is_(False))):
                invites.setdefault(r.game_id, []).append(r)
            opened = {}
            for g in grows:
                m = mine.get(g.id)
                if m is not None:
                    opened[(g.id, m.seat)] = _open_token(conn, person, m.sealed_token, g.id, m.seat)
                for r in invites.get(g.id, []):
                    opened[(g.id, r.seat)] = _open_token(conn, person, r.sealed_token, g.id, r.seat)
        rows = []
        for g in grows:
            m = mine.get(g.id)
            token = opened.get((g.id, m.seat)) if m is not None else None
            config = json.loads(g.config)
            invitation_list = []
            for r in sorted(invites.get(g.id, []), key=lambda r: r.seat):
                t = opened.get((g.id, r.seat))
                if t is not None:
                    invitation_list.append({"seat": r.seat, "token": t})
            count, last_chat = chats.get(g.id, (0, None))
            rows.append({
                "id": g.id, "seat": m.seat if m is not None else None, "token": token, "status": status(g),
                "creator": g.id in made,
                "players": [{"seat": h.seat, "name": h.name, "bot": h.bot, "open": h.open,
                             "claimed": h.person_id is not None, "you": m is not None and h.seat == m.seat}
                            for h in holders.get(g.id, [])],
                "current_player": g.current_player, "phase": g.phase, "round": g.round, "over": bool(g.over),
                "winners": json.loads(g.winners),
                "sets": list(config.get("sets", [])), "ruleset": config.get("ruleset"),
                "leaders": bool(config.get("leaders", False)),
                "created_at": g.created_at, "updated_at": activity(g),
                "chat_messages": count, "last_chat_at": last_chat,
                "invitations": invitation_list,
            })
        return rows


def carry(sealed: str, game_id: str) -> str:
    """A sealed seat token of ``game_id`` as stored for its rematch: it keeps the game it was sealed
    in (a value already carried keeps its first game, for a rematch of a rematch)."""
    return sealed if "/" in sealed else f"{game_id}/{sealed}"


def _open_sealed(conn: Connection, vault: bytes, sealed: str, game_id: str, seat: int) -> str:
    """The token of a sealed value stored for ``game_id``'s ``seat`` (own or carried, see :func:`carry`);
    :class:`sealing.SealError` if it does not open, or if a carried token does not give that seat's
    token.  A carried value gives the token derived along the rematches from its game
    (:func:`.credentials.token_along`); a rematch seat still pending takes it as its token if the
    token before it is still the seat's token in the game before (written in its own transaction)."""
    origin, _, body = sealed.rpartition("/")
    if not origin:
        return sealing.unseal_token(vault, sealed, game_id, seat)
    first = sealing.unseal_token(vault, body, origin, seat)
    token = seat_tokens.token_along(first, origin, game_id)
    if token is None:
        raise sealing.SealError("a carried token of a game this is no rematch of")
    digest = seat_tokens.seat_digest(conn, game_id, seat)
    if digest == seat_tokens.PENDING:
        before = next(g for g in _chain(origin, game_id) if security.rematch_game_id(g) == game_id)
        previous = seat_tokens.token_along(first, origin, before)
        with conn.engine.begin() as write:
            if seat_tokens.derive_for_rematch(write, before, game_id, seat, previous) == token:
                return token
        raise sealing.SealError("the token before this rematch is no longer the seat's token")
    if not security.token_matches(token, digest):
        raise sealing.SealError("a carried token that is not this seat's token")
    return token


def _digest_held(conn: Connection, vault: bytes, sealed: str, game_id: str, seat: int) -> str:
    """The digest of the token a sealed value gives for ``game_id``'s ``seat`` (:func:`_open_sealed`),
    or ``pending`` for a carried value of a rematch seat whose token was never derived (replaced
    then without deriving it: nothing is written here)."""
    origin, _, body = sealed.rpartition("/")
    if origin and seat_tokens.seat_digest(conn, game_id, seat) == seat_tokens.PENDING:
        sealing.unseal_token(vault, body, origin, seat)         # it must be the person's to replace
        return seat_tokens.PENDING
    return security.token_digest(_open_sealed(conn, vault, sealed, game_id, seat))


def _chain(origin: str, game_id: str) -> list[str]:
    """The games from ``origin`` up to (not including) ``game_id`` along its rematches."""
    out, gid = [], origin
    for _ in range(seat_tokens.MAX_CHAIN):
        if gid == game_id:
            break
        out.append(gid)
        gid = security.rematch_game_id(gid)
    return out


def _open_token(conn: Connection, person: Person, sealed: str | None, game_id: str, seat: int) -> str | None:
    if not sealed:
        return None
    try:
        return _open_sealed(conn, person.vault, sealed, game_id, seat)
    except sealing.SealError:
        log.error("game %s seat %d: a sealed token does not open with its person's vault", game_id, seat)
        return None


def _insert_new(conn: Connection, table):
    """``INSERT`` that skips rows whose primary key (or another unique constraint) is already taken."""
    if conn.dialect.name == "postgresql":
        return pg_dialect.insert(table).on_conflict_do_nothing()
    if conn.dialect.name == "sqlite":
        return sqlite_dialect.insert(table).on_conflict_do_nothing()
    raise NotImplementedError(f"copying rows on {conn.dialect.name} (SQLite and PostgreSQL are supported)")


def _holders(conn: Connection, game_ids: list[str]) -> dict[str, list[SeatHolder]]:
    if not game_ids:
        return {}
    seat_rows = conn.execute(select(seats.c.game_id, seats.c.seat, seats.c.bot)
                             .where(seats.c.game_id.in_(game_ids)).order_by(seats.c.game_id, seats.c.seat)).all()
    claims = {(r.game_id, r.seat): (r.person_id, r.name) for r in conn.execute(
        select(seat_claims.c.game_id, seat_claims.c.seat, seat_claims.c.person_id, people.c.name)
        .join(people, people.c.id == seat_claims.c.person_id).where(seat_claims.c.game_id.in_(game_ids)))}
    open_seats = {(r.game_id, r.seat) for r in conn.execute(
        select(invitations.c.game_id, invitations.c.seat).where(
            and_(invitations.c.game_id.in_(game_ids), invitations.c.open.is_(True))))}
    out: dict[str, list[SeatHolder]] = {}
    for r in seat_rows:
        pid, name = claims.get((r.game_id, r.seat), (None, None))
        out.setdefault(r.game_id, []).append(SeatHolder(r.seat, r.bot, name, pid, (r.game_id, r.seat) in open_seats))
    return out
