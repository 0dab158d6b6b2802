"""Secrets: game ids and seat tokens, and how tokens are checked.

Tokens come from :func:`secrets.token_urlsafe` (192 bits), so they cannot be guessed.  The
database stores only a SHA-256 digest of each token: a leaked database file does not let anybody
act for a seat.  Digests are compared in constant time.
"""

from __future__ import annotations

import base64
import hashlib
import secrets

#: Bytes of randomness in a seat token (32 url-safe characters).
TOKEN_BYTES = 24
#: Bytes of randomness in a game id (16 url-safe characters).  Ids appear in shared links, so
#: they are unguessable too, but knowing one only gives the spectator view.
GAME_ID_BYTES = 12


def new_token() -> str:
    """A fresh, unguessable seat token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    """A fresh game id."""
    return secrets.token_urlsafe(GAME_ID_BYTES)


def rematch_game_id(game_id: str) -> str:
    """The id of the rematch of ``game_id``: derived from it (so every player asking gets the
    same game), as unguessable as the game's own id."""
    digest = hashlib.sha256(f"mysticvale-rematch:{game_id}".encode("utf-8")).digest()
    return base64.urlsafe_b64encode(digest[:GAME_ID_BYTES]).decode("ascii").rstrip("=")


def new_seed() -> int:
    """A fresh game seed (63 bits), never shown to any client: it determines every hidden order."""
    return secrets.randbits(63)


def token_digest(token: str) -> str:
    """The stored form of a token (hex SHA-256)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, digest: str | None) -> bool:
    """Whether ``token`` is the token whose digest is ``digest`` (constant-time)."""
    if not token or not digest:
        return False
    return secrets.compare_digest(token_digest(token), digest)
