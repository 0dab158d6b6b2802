"""Seat credentials that belong to their players (issue 22).

Revision ID: 0004_credentials
Revises: 0003_meeting
Create Date: 2026-12-03

``ended_tokens``  the digest of every seat token that stopped working, with its seat and why:
                  ``claimed`` (an invitation or open seat's token, ended when somebody took the
                  seat: the claimant got a fresh token) or ``replaced`` (its player replaced their
                  personal key or signed out everywhere).  Only so that such a link gets a clear
                  answer ("this invitation was already used", 410) instead of "no seat"; a digest
                  opens nothing.

Nothing else changes: a seat's current token is still the digest in ``seats``; a human seat of a
rematch nobody has opened yet holds the marker ``pending`` there until its player's token for the
rematch is derived (``server/credentials.py``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_credentials"
down_revision = "0003_meeting"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ended_tokens",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("ended_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ended_tokens")
