"""Who attends which game, shared between server processes (issue 22: games whose people are gone do not search).

Revision ID: 0006_presence
Revises: 0005_mail_outbox
Create Date: 2026-12-03

``presence``  one row per (game, server process) while somebody attends the game on that process:
              a WebSocket open on it, or a request within the attendance time.  ``until`` (seconds
              since 1970, by the database's clock) is pushed forward by the process's heartbeat;
              the process deletes its row when nobody attends the game there any more, and all its
              rows when it stops; a row a dead process left behind counts only until ``until``.
              The process that runs a game's bots reads these rows to tell whether anybody is at
              its table (``server/presence.py``).  Used on PostgreSQL only (SQLite serves one
              process, which knows its own sockets).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_presence"
down_revision = "0005_mail_outbox"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_index("ix_presence_until", "presence", ["until"])


def downgrade() -> None:
    op.drop_index("ix_presence_until", "presence")
    op.drop_table("presence")
