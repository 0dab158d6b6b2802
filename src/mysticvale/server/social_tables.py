"""The tables of people, claims, invitations, chat, turn notices and the mail outbox, as revisions
``0002_people`` and ``0005_mail_outbox`` made them (``server/migrations/versions/``; these objects
are for queries).

They live in :data:`mysticvale.server.storage.metadata` beside the game tables, so joins with
``games`` and ``seats`` resolve.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, String, Table, Text, UniqueConstraint

from .storage import metadata

people = Table(
    "people", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(100), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

credentials = Table(
    "credentials", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("kind", String(16), nullable=False),          # "key" (a personal key); later "password", ...
    Column("lookup", String(255), nullable=False),       # what finds the credential: SHA-256 of the key
    Column("secret", Text, nullable=True),               # a verifier, for kinds that need one
    Column("vault", Text, nullable=False),               # the person's vault key wrapped under this credential
    Column("created_at", Float, nullable=False),
    UniqueConstraint("kind", "lookup", name="uq_credentials_kind_lookup"),
)

person_settings = Table(
    "person_settings", metadata,
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), primary_key=True),
    Column("email", String(320), nullable=True),
    Column("email_confirmed", Boolean, nullable=False),
    Column("email_turns", Boolean, nullable=False),
    Column("sound", Boolean, nullable=True),
    Column("language", String(8), nullable=True),
    Column("updated_at", Float, nullable=False),
)

email_confirmations = Table(
    "email_confirmations", metadata,
    Column("code_digest", String(64), primary_key=True),
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("email", String(320), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)

game_creators = Table(
    "game_creators", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
)

seat_claims = Table(
    "seat_claims", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("sealed_token", Text, nullable=False),
    Column("claimed_at", Float, nullable=False),
    UniqueConstraint("game_id", "person_id", name="uq_seat_claims_one_seat_per_person"),
)

invitations = Table(
    "invitations", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("open", Boolean, nullable=False),
    Column("creator_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=True),
    Column("sealed_token", Text, nullable=True),         # the creator's copy, in the creator's vault
    Column("token", String(128), nullable=True),         # an open seat's token (see people.py)
    Column("created_at", Float, nullable=False),
)

chat_messages = Table(
    "chat_messages", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("person_id", String(32), ForeignKey("people.id", ondelete="SET NULL"), nullable=True),
    Column("text", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_chat_messages_person_time", "person_id", "created_at"),
)

turn_notices = Table(
    "turn_notices", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("turn", Integer, primary_key=True),
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("due_at", Float, nullable=False),
    Column("state", String(16), nullable=False),         # pending, sending, sent, skipped, limited, failed
    Column("done_at", Float, nullable=True),
    # revision 0005_mail_outbox: failed attempts so far; digest of the client address that caused the turn
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("cause", String(64), nullable=True),
    Index("ix_turn_notices_state_due", "state", "due_at"),
    Index("ix_turn_notices_cause_done", "cause", "done_at"),
)

#: Confirmation e-mails to send (revision 0005_mail_outbox, issue 22): kept until sent or given up,
#: so a restart resumes their retries (server/outbox.py).
mail_outbox = Table(
    "mail_outbox", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),          # "confirmation"
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("email", String(320), nullable=False),
    Column("language", String(8), nullable=True),
    Column("code_digest", String(64), nullable=True),    # the confirmation it carries (a digest, never the code)
    Column("state", String(16), nullable=False),         # queued, retrying, sending, sent, failed, replaced
    Column("attempts", Integer, nullable=False),
    Column("next_at", Float, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("done_at", Float, nullable=True),
    Index("ix_mail_outbox_state_next", "state", "next_at"),
)
