"""A place where people meet (issue 21): table names and public tables, results and ratings.

Revision ID: 0003_meeting
Revises: 0002_people
Create Date: 2026-12-09

``game_tables``   a game's table: its name (null: named after the people seated) and whether it
                  is public (listed among the lobby's open tables).  Games of older revisions have
                  no row: they are private tables named after their people, as before;
``game_results``  one row per seat of a finished game with people at it (who, place, score, and
                  for a rated game the rating before and after); written once when the game ends.
                  Games that ended before this revision are recorded by the server when it starts
                  (``server/results.py``, :func:`record_missing`);
``ratings``       each person's openskill rating (mu, sigma) from games between people.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_meeting"
down_revision = "0002_people"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_game_tables_public_created", "game_tables", ["public", "created_at"])
    op.create_table(
        "game_results",
        sa.Column("game_id", sa.String(64), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("person_id", sa.String(32), sa.ForeignKey("people.id", ondelete="SET NULL"), nullable=True),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("score", sa.Integer, nullable=True),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=True),
        sa.Column("sigma_before", sa.Float, nullable=True),
        sa.Column("mu_after", sa.Float, nullable=True),
        sa.Column("sigma_after", sa.Float, nullable=True),
    )
    op.create_index("ix_game_results_person_finished", "game_results", ["person_id", "finished_at"])
    op.create_table(
        "ratings",
        sa.Column("person_id", sa.String(32), sa.ForeignKey("people.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_index("ix_game_results_person_finished", table_name="game_results")
    op.drop_index("ix_game_tables_public_created", table_name="game_tables")
    for table in ("ratings", "game_results", "game_tables"):
        op.drop_table(table)
