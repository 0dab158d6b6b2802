"""Seat tokens that belong to the person in the seat (issue 22).

A seat's token is the password of that seat.  It must be known only to whoever plays the seat:

- **A claim issues a fresh token.**  The token a seat was claimed with (an invitation, which the
  creator and anybody who saw the link know, or an open seat's token) ends at the claim; the
  claimant gets a new one that nobody else ever saw (:func:`replace_seat_token`).  The ended
  token is remembered by its digest (``ended_tokens``), so that the invitation link gets a clear
  "this invitation was already used" (410) instead of "no seat".
- **Replacing a personal key, or signing out everywhere, replaces every token the old key could
  read**: the seats the person holds and the invitations they keep as creator.
- **A rematch gives each seat a new token, derived from the seat's token in the game before**
  (:func:`rematch_token`, an HMAC keyed with that token): only whoever holds the old seat's token
  can know the new one, and asking again (from any device of that person, or again after a lost
  answer) gives the same token.  The server cannot make those tokens when the rematch starts (it
  stores only digests): a human seat of a new rematch holds :data:`PENDING` until its token is
  first derived, by its player asking for the rematch with the old token or reading their games
  with their key (the old token is sealed in their vault).  A pending seat is nobody's: no token
  matches it.

All functions here work inside the caller's transaction (``conn``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import time

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from . import security
from .storage import ended_tokens, seats

#: The token digest of a rematch seat whose token has not been derived yet (never a SHA-256 digest).
PENDING = "pending"
#: Why a token ended.
CLAIMED, REPLACED = "claimed", "replaced"
#: Longest chain of rematches a token is derived along (a rematch of a rematch of ...).
MAX_CHAIN = 64


def rematch_token(token: str, rematch_id: str) -> str:
    """The token of the same seat in the rematch ``rematch_id``, derived from the seat's ``token`` in
    the game before: unguessable without that token, the same every time."""
    mac = hmac.new(token.encode("utf-8"), f"mysticvale-rematch:{rematch_id}".encode("utf-8"), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()[:security.TOKEN_BYTES]).decode("ascii").rstrip("=")


def token_along(token: str, origin: str, game_id: str) -> str | None:
    """The token of a seat in ``game_id`` that a rematch chain started from ``origin`` gives to the
    holder of ``token`` in ``origin`` (``token`` itself when they are the same game); None if
    ``game_id`` is no rematch of ``origin`` (within :data:`MAX_CHAIN` rematches)."""
    gid = origin
    for _ in range(MAX_CHAIN + 1):
        if gid == game_id:
            return token
        gid = security.rematch_game_id(gid)
        token = rematch_token(token, gid)
    return None


def seat_digest(conn: Connection, game_id: str, seat: int) -> str | None:
    return conn.execute(select(seats.c.token_digest).where(seats.c.game_id == game_id, seats.c.seat == seat)
                        ).scalar()


def replace_seat_token(conn: Connection, game_id: str, seat: int, old_digest: str, reason: str,
                       now: float | None = None) -> str | None:
    """Give ``seat`` a fresh token if its token is still the one of ``old_digest``; the old token
    ends (remembered with ``reason``).  Returns the new token, or None (nothing changed) if the
    seat's token is another one by now."""
    token = security.new_token()
    moved = conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat,
                                             seats.c.token_digest == old_digest)
                         .values(token_digest=security.token_digest(token)))
    if moved.rowcount != 1:
        return None
    if old_digest != PENDING:
        conn.execute(insert(ended_tokens).values(game_id=game_id, digest=old_digest, seat=seat, reason=reason,
                                                 ended_at=time.time() if now is None else now))
    return token


def issue_derived(conn: Connection, game_id: str, seat: int, token: str) -> bool:
    """Whether ``token`` is the token of ``seat`` now, after making it so if the seat was
    :data:`PENDING` (a rematch seat whose token is derived for the first time)."""
    digest = security.token_digest(token)
    conn.execute(update(seats).where(seats.c.game_id == game_id, seats.c.seat == seat,
                                     seats.c.token_digest == PENDING).values(token_digest=digest))
    return seat_digest(conn, game_id, seat) == digest


def derive_for_rematch(conn: Connection, old_id: str, rematch_id: str, seat: int, old_token: str) -> str | None:
    """The token of ``seat`` in the rematch for the holder of ``old_token``, its token in the game
    ``old_id`` before (checked: it must still be that seat's token there); issued if pending.
    None if ``old_token`` is not (or no longer) the seat's token, or the rematch seat's token was
    replaced since."""
    if not security.token_matches(old_token, seat_digest(conn, old_id, seat)):
        return None
    token = rematch_token(old_token, rematch_id)
    return token if issue_derived(conn, rematch_id, seat, token) else None
