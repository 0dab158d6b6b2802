"""E-mail that survives a restart: the confirmation outbox, and turn notices that count their attempts (issue 22).

Revision ID: 0005_mail_outbox
Revises: 0004_credentials
Create Date: 2026-12-03

``mail_outbox``   one row per confirmation e-mail to send: to whom (the person, the address, the
                  language), the digest of the confirmation code it will carry (a new code is
                  drawn for each attempt and only its digest is stored: the code itself is never
                  written anywhere), its ``state`` (``queued``, ``retrying``, ``sending`` while an
                  SQLite server sends it, ``sent``, ``failed``, ``replaced``), how many ``attempts``
                  were made and when the next is due (``next_at``).  A restarted server resumes the
                  retries; several PostgreSQL processes claim a row with ``FOR UPDATE SKIP LOCKED``.
``turn_notices``  gains ``attempts`` (the failed attempts so far, so that the bound on retries
                  holds across restarts) and ``cause``: a digest of the client address whose
                  game or move brought the turn about, for the bound on turn e-mails per client
                  address.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_mail_outbox"
down_revision = "0004_credentials"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("person_id", sa.String(32), sa.ForeignKey("people.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("email", sa.String(320), nullable=False),
        sa.Column("language", sa.String(8), nullable=True),
        sa.Column("code_digest", sa.String(64), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("next_at", sa.Float, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("done_at", sa.Float, nullable=True),
    )
    op.create_index("ix_mail_outbox_state_next", "mail_outbox", ["state", "next_at"])
    with op.batch_alter_table("turn_notices") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("cause", sa.String(64), nullable=True))
    op.create_index("ix_turn_notices_cause_done", "turn_notices", ["cause", "done_at"])


def downgrade() -> None:
    op.drop_index("ix_turn_notices_cause_done", "turn_notices")
    with op.batch_alter_table("turn_notices") as batch:
        batch.drop_column("cause")
        batch.drop_column("attempts")
    op.drop_index("ix_mail_outbox_state_next", "mail_outbox")
    op.drop_table("mail_outbox")
