"""Results of finished games with people at them, and the ratings they change (written once).

When a game with at least one person at it ends, :func:`record` writes one ``game_results`` row
per seat (who sat there: a person, a bot, or a seat played with its link alone; the place, the
score, whether it won) and, for a rated game (:mod:`.ratings`), every person's rating before and
after, and their new rating, all in one transaction.  The rows' primary key (game, seat) makes a
second recording fail as a whole, so a game changes ratings exactly once however many threads or
server processes hear that it ended.  Games that ended while no process recorded them (a crash
between the last move and the recording, or a database of an older revision) are recorded by
:func:`record_missing` when a server starts.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from typing import Callable

from sqlalchemy import and_, exists, func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from . import ratings
from .meeting_tables import game_results, ratings as ratings_table
from .social_tables import seat_claims
from .storage import games, seats

log = logging.getLogger("mysticvale.server.results")


@dataclass(frozen=True)
class Final:
    """How a game ended, per seat: ``(total, tiebreak)`` and the winners (from the engine)."""

    totals: list[tuple[int, int]]
    winners: list[int]


def final_of(game) -> Final:
    """The final standing of an engine game that is over."""
    totals = []
    for seat in range(game.players):
        b = game.score_breakdown(seat)
        totals.append((int(b["total"]), int(b.get("tiebreak", 0))))
    return Final(totals, list(game.winners()))


def record(engine: Engine, game_id: str, final: Final | None, clock: Callable[[], float] = time.time) -> bool:
    """Write the results of the finished game ``game_id`` (and change ratings if it is rated);
    True if this call wrote them, False if they were written before, the game is not over, or
    nobody with a name sat at it.  ``final`` None: places from the stored winners only (a game
    recorded late without its engine state: winners first, everyone else second, no scores)."""
    for _attempt in range(3):
        try:
            return _record(engine, game_id, final, clock())
        except IntegrityError:
            # Written before (by another thread or server process); or, on PostgreSQL, a
            # newcomer's first rating was inserted by another game's recording at the same
            # moment: then nothing of this one was written, and it is tried again.
            if _written(engine, game_id):
                return False
    log.error("game %s: its results could not be written", game_id)
    return False


def _written(engine: Engine, game_id: str) -> bool:
    with engine.connect() as conn:
        return conn.execute(select(game_results.c.seat).where(game_results.c.game_id == game_id).limit(1)).first() \
            is not None


def _record(engine: Engine, game_id: str, final: Final | None, now: float) -> bool:
    with engine.begin() as conn:
        row = conn.execute(select(games.c.over, games.c.winners, games.c.updated_at)
                           .where(games.c.id == game_id)).first()
        if row is None or not row.over:
            return False
        seat_rows = conn.execute(select(seats.c.seat, seats.c.bot).where(seats.c.game_id == game_id)
                                 .order_by(seats.c.seat)).all()
        holders = dict(conn.execute(select(seat_claims.c.seat, seat_claims.c.person_id)
                                    .where(seat_claims.c.game_id == game_id)).all())
        if not holders:
            return False
        if final is None:
            winners = json.loads(row.winners)
            places = [1 if s in winners else 2 for s, _ in seat_rows]
            scores: list[int | None] = [None] * len(seat_rows)
        else:
            winners = final.winners
            places = ratings.places_of(final.totals, winners)
            scores = [t for t, _ in final.totals]
        bots = {s: b for s, b in seat_rows}
        people = [s for s, _ in seat_rows if s in holders and bots.get(s) is None]
        rated = len(people) >= 2 and all(b is None for b in bots.values())
        finished_at = row.updated_at            # the time of the last move
        rows = [{"game_id": game_id, "seat": s, "person_id": holders.get(s), "bot": bots[s], "place": places[i],
                 "won": s in winners, "score": scores[i], "finished_at": finished_at, "rated": rated and s in people}
                for i, (s, _) in enumerate(seat_rows)]
        # First, so that a second recording fails here (IntegrityError: the whole transaction
        # goes), before any rating is read; the insert also takes SQLite's write lock, so the
        # ratings read below cannot go stale.
        conn.execute(insert(game_results), rows)
        if rated:
            _rate(conn, game_id, [(s, holders[s], places[[x for x, _ in seat_rows].index(s)]) for s in people], now)
    return True


def _rate(conn, game_id: str, people: list[tuple[int, str, int]], now: float) -> None:
    ids = [p for _, p, _ in people]
    held = {r.person_id: ratings.Skill(r.mu, r.sigma, r.games) for r in conn.execute(
        select(ratings_table).where(ratings_table.c.person_id.in_(ids)).with_for_update())}
    before = [held.get(p, ratings.Skill()) for p in ids]
    after = ratings.rate(before, [place for _, _, place in people])
    for (seat, person, _), old, new in zip(people, before, after):
        values = {"mu": new.mu, "sigma": new.sigma, "games": new.games, "updated_at": now}
        if person in held:
            conn.execute(update(ratings_table).where(ratings_table.c.person_id == person).values(**values))
        else:
            conn.execute(insert(ratings_table).values(person_id=person, **values))
        conn.execute(update(game_results).where(game_results.c.game_id == game_id, game_results.c.seat == seat)
                     .values(mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu, sigma_after=new.sigma))


def missing(engine: Engine, limit: int = 200) -> list[str]:
    """Ids of finished games with a person at them whose results are not written (oldest first)."""
    claimed = exists().where(seat_claims.c.game_id == games.c.id)
    written = exists().where(game_results.c.game_id == games.c.id)
    with engine.connect() as conn:
        return list(conn.execute(select(games.c.id).where(and_(games.c.over.is_(True), claimed, ~written))
                                 .order_by(games.c.updated_at, games.c.id).limit(limit)).scalars())


def record_missing(engine: Engine, final_of_game: Callable[[str], Final | None], batch: int = 200) -> int:
    """Write the results of every finished game that has none (see the module docstring), in the
    order the games ended; ``final_of_game(id)`` gives each one's final standing (None: from the
    stored winners).  Returns how many were written."""
    done = 0
    seen: set[str] = set()
    while True:
        ids = [g for g in missing(engine, batch) if g not in seen]
        if not ids:
            return done
        for gid in ids:
            seen.add(gid)
            try:
                final = final_of_game(gid)
            except Exception:
                log.exception("game %s: could not rebuild its end to record its results", gid)
                final = None
            if record(engine, gid, final):
                done += 1


def rating_of(engine: Engine, person_ids: list[str]) -> dict[str, ratings.Skill]:
    """The ratings of these people (those who have one)."""
    if not person_ids:
        return {}
    with engine.connect() as conn:
        return {r.person_id: ratings.Skill(r.mu, r.sigma, r.games) for r in conn.execute(
            select(ratings_table).where(ratings_table.c.person_id.in_(sorted(set(person_ids)))))}


def counted(engine: Engine) -> int:
    """How many games have results written (for tests and logs)."""
    with engine.connect() as conn:
        return conn.execute(select(func.count(func.distinct(game_results.c.game_id)))).scalar_one()
