"""People with names, their credentials, seat claims, invitations, chat and turn notices (issue 15).

Revision ID: 0002_people
Revises: 0001
Create Date: 2026-12-02

``people``               a person: an id and a display name, nothing that logs in;
``credentials``          how a person proves who they are: today a personal key (``kind`` "key",
                         ``lookup`` its SHA-256); a password or an external login would be other kinds.
                         Each credential wraps the person's vault key (see ``server/sealing.py``);
``person_settings``      e-mail address (and whether it is confirmed), "e-mail me when it is my turn",
                         and preferences the client keeps across devices;
``email_confirmations``  digests of the one-time codes mailed to confirm an address;
``game_creators``        who created a game (with a personal key);
``seat_claims``          the person who holds a seat, and that seat's token sealed in their vault;
``invitations``          an unclaimed seat: its token sealed in the creator's vault, or, for an
                         open seat, the token itself (anyone with the game link may claim it);
``chat_messages``        each game's chat, numbered from 1;
``turn_notices``         one row per (game, seat, turn) for which a "your turn" e-mail was due:
                         the primary key makes a second e-mail for the same turn impossible.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_people"
down_revision = "0001"
branch_labels = None
depends_on = None


def _game_fk() -> sa.ForeignKey:
    return sa.ForeignKey("games.id", ondelete="CASCADE")


def _person_fk() -> sa.ForeignKey:
    return sa.ForeignKey("people.id", ondelete="CASCADE")


def upgrade() -> None:
    op.create_table(
        "people",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "credentials",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("person_id", sa.String(32), _person_fk(), nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("lookup", sa.String(255), nullable=False),
        sa.Column("secret", sa.Text, nullable=True),
        sa.Column("vault", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.UniqueConstraint("kind", "lookup", name="uq_credentials_kind_lookup"),
    )
    op.create_table(
        "person_settings",
        sa.Column("person_id", sa.String(32), _person_fk(), primary_key=True),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("email_confirmed", sa.Boolean, nullable=False),
        sa.Column("email_turns", sa.Boolean, nullable=False),
        sa.Column("sound", sa.Boolean, nullable=True),
        sa.Column("language", sa.String(8), nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "email_confirmations",
        sa.Column("code_digest", sa.String(64), primary_key=True),
        sa.Column("person_id", sa.String(32), _person_fk(), nullable=False, index=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "game_creators",
        sa.Column("game_id", sa.String(64), _game_fk(), primary_key=True),
        sa.Column("person_id", sa.String(32), _person_fk(), nullable=False, index=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "seat_claims",
        sa.Column("game_id", sa.String(64), _game_fk(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.String(32), _person_fk(), nullable=False, index=True),
        sa.Column("sealed_token", sa.Text, nullable=False),
        sa.Column("claimed_at", sa.Float, nullable=False),
        sa.UniqueConstraint("game_id", "person_id", name="uq_seat_claims_one_seat_per_person"),
    )
    op.create_table(
        "invitations",
        sa.Column("game_id", sa.String(64), _game_fk(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("open", sa.Boolean, nullable=False),
        sa.Column("creator_id", sa.String(32), _person_fk(), nullable=True),
        sa.Column("sealed_token", sa.Text, nullable=True),
        sa.Column("token", sa.String(128), nullable=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "chat_messages",
        sa.Column("game_id", sa.String(64), _game_fk(), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("person_id", sa.String(32), sa.ForeignKey("people.id", ondelete="SET NULL"), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_messages_person_time", "chat_messages", ["person_id", "created_at"])
    op.create_table(
        "turn_notices",
        sa.Column("game_id", sa.String(64), _game_fk(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.String(32), _person_fk(), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("due_at", sa.Float, nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("done_at", sa.Float, nullable=True),
    )
    op.create_index("ix_turn_notices_state_due", "turn_notices", ["state", "due_at"])


def downgrade() -> None:
    op.drop_index("ix_turn_notices_state_due", table_name="turn_notices")
    op.drop_index("ix_chat_messages_person_time", table_name="chat_messages")
    for table in ("turn_notices", "chat_messages", "invitations", "seat_claims", "game_creators",
                  "email_confirmations", "person_settings", "credentials", "people"):
        op.drop_table(table)
