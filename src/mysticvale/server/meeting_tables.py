"""The tables of a place where people meet, as revision ``0003_meeting`` made them
(``server/migrations/versions/0003_meeting.py`` creates them; these objects are for queries).

``game_tables``   a game's table: the name its host gave it (null: named after the people seated)
                  and whether it is *public* (listed among the lobby's open tables);
``game_results``  one row per seat of a finished game with people at it: who sat there (person
                  or bot), the place and score, and for a rated game the rating before and after.
                  Written once, when the game ends (the primary key makes a second time fail);
``ratings``       each person's rating (openskill's mu and sigma) from games between people.

They live in :data:`mysticvale.server.storage.metadata` beside the game and people tables, so
joins with ``games``, ``seats``, ``seat_claims`` and ``people`` resolve.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Index, Integer, String, Table

from . import social_tables  # noqa: F401  (the people table must exist for the foreign keys)
from .storage import metadata

game_tables = Table(
    "game_tables", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("name", String(200), nullable=True),
    Column("public", Boolean, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_game_tables_public_created", "public", "created_at"),
)

game_results = Table(
    "game_results", metadata,
    Column("game_id", String(64), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("person_id", String(32), ForeignKey("people.id", ondelete="SET NULL"), nullable=True),
    Column("bot", String(64), nullable=True),
    Column("place", Integer, nullable=False),            # 1: won (shared wins share the place)
    Column("won", Boolean, nullable=False),
    Column("score", Integer, nullable=True),
    Column("finished_at", Float, nullable=False),
    Column("rated", Boolean, nullable=False),            # this seat's rating changed with this game
    Column("mu_before", Float, nullable=True),
    Column("sigma_before", Float, nullable=True),
    Column("mu_after", Float, nullable=True),
    Column("sigma_after", Float, nullable=True),
    Index("ix_game_results_person_finished", "person_id", "finished_at"),
)

ratings = Table(
    "ratings", metadata,
    Column("person_id", String(32), ForeignKey("people.id", ondelete="CASCADE"), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)
