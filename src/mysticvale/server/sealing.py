"""A person's vault: seat tokens kept so that only that person can read them back.

The server stores only digests of secrets it checks (seat tokens, personal keys).  Two things must
nevertheless be read back later: the token of a seat a person holds (so that the person can open
the seat on any device) and, for the creator of a game, the invitation links of seats nobody has
claimed yet.  They are *sealed*: encrypted with AES-256-GCM (the ``cryptography`` package) under
the person's **vault key**, 32 random bytes that are themselves stored only wrapped (encrypted)
under a key derived from each of the person's credentials.  The server never stores a personal
key, so a copy of the database opens no vault and reveals no token.

Every credential wraps the same vault key, which is what lets other ways of logging in (a
password, an external login) be added later: a new credential wraps the vault key under its own
secret, and the seats sealed so far stay readable.

Each sealed value is bound to what it is (``context``: e.g. the game and seat), so a sealed token
copied onto another row does not open.
"""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

#: Format tag in front of every sealed value (a later format can be told apart).
VERSION = "v1"
_NONCE = 12


class SealError(ValueError):
    """A sealed value that does not open with this key and context (wrong key, altered, or moved)."""


def new_vault_key() -> bytes:
    """A fresh vault key (32 random bytes)."""
    return AESGCM.generate_key(bit_length=256)


def key_from_secret(secret: str, purpose: str) -> bytes:
    """A 32-byte key derived (HKDF-SHA256) from a high-entropy secret such as a personal key."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                info=f"mysticvale {purpose} {VERSION}".encode()).derive(secret.encode("utf-8"))


def seal(key: bytes, plaintext: bytes, context: str) -> str:
    """``plaintext`` encrypted and authenticated under ``key``, bound to ``context``; text to store."""
    nonce = os.urandom(_NONCE)
    box = AESGCM(key).encrypt(nonce, plaintext, context.encode("utf-8"))
    return VERSION + "." + base64.urlsafe_b64encode(nonce + box).decode("ascii")


def unseal(key: bytes, sealed: str, context: str) -> bytes:
    """The plaintext of :func:`seal`; :class:`SealError` if the key or context is not the one used."""
    tag, _, body = sealed.partition(".")
    if tag != VERSION or not body:
        raise SealError("not a sealed value of this version")
    try:
        raw = base64.urlsafe_b64decode(body.encode("ascii"))
        return AESGCM(key).decrypt(raw[:_NONCE], raw[_NONCE:], context.encode("utf-8"))
    except (InvalidTag, ValueError) as exc:
        raise SealError("the sealed value does not open with this key") from exc


def wrap_vault(vault: bytes, credential_secret: str, person_id: str) -> str:
    """The vault key wrapped under a key derived from a credential's secret (a personal key)."""
    return seal(key_from_secret(credential_secret, "vault"), vault, f"vault:{person_id}")


def unwrap_vault(wrapped: str, credential_secret: str, person_id: str) -> bytes:
    """The vault key from :func:`wrap_vault`; :class:`SealError` for another secret or person."""
    return unseal(key_from_secret(credential_secret, "vault"), wrapped, f"vault:{person_id}")


def seal_token(vault: bytes, token: str, game_id: str, seat: int) -> str:
    """A seat token sealed in a vault, bound to its game and seat."""
    return seal(vault, token.encode("utf-8"), f"seat:{game_id}:{seat}")


def unseal_token(vault: bytes, sealed: str, game_id: str, seat: int) -> str:
    """The seat token of :func:`seal_token`."""
    return unseal(vault, sealed, f"seat:{game_id}:{seat}").decode("utf-8")
