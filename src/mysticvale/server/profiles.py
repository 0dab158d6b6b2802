"""A person's profile: games played and won (in all, against people, against each kind of bot),
their rating, and their finished games, read from ``game_results`` (:mod:`.results`).

A profile is public, as on other game sites: anybody may read it by the person's id (which is
not a secret; the personal key is).  It holds only what every seat of those games saw at the
end: names, places, scores, bots.  Bots are counted by their configuration name as the game
stored it (``greedy``, ``ismcts:0.5``; named bot levels will be names of their own).  A game
with people and bots counts both as a game against people and as one against each of its kinds
of bot.
"""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.engine import Engine

from . import ratings
from .meeting_tables import game_results, game_tables, ratings as ratings_table
from .people import FINISHED_LISTED
from .sessions import NotFound
from .social_tables import people
from .storage import games

#: Most finished games one request may ask for.
PAGE_MAX = 50


def profile(engine: Engine, person_id: str, *, finished: int = FINISHED_LISTED, offset: int = 0) -> dict[str, Any]:
    """The profile of ``person_id`` (see the module docstring) with ``finished`` of their finished
    games at most, the most recent first, after skipping ``offset`` (the next page).
    :class:`NotFound` for nobody."""
    finished = max(0, min(finished, PAGE_MAX))
    me = game_results.alias("me")
    other = game_results.alias("other")
    won = func.sum(case((me.c.won.is_(True), 1), else_=0))
    with engine.connect() as conn:
        row = conn.execute(select(people.c.id, people.c.name, people.c.created_at)
                           .where(people.c.id == person_id)).first()
        if row is None:
            raise NotFound("nobody has this id")
        total = conn.execute(select(func.count(), won).select_from(me).where(me.c.person_id == person_id)).one()
        # Distinct (game, kind of opponent) pairs: two greedy bots at one table are one game against greedy.
        pairs = (select(me.c.game_id, me.c.won, func.coalesce(other.c.bot, "").label("bot"))
                 .select_from(me.join(other, and_(other.c.game_id == me.c.game_id, other.c.seat != me.c.seat)))
                 .where(me.c.person_id == person_id).distinct().subquery())
        opponents = conn.execute(select(pairs.c.bot, func.count(),
                                        func.sum(case((pairs.c.won.is_(True), 1), else_=0)))
                                 .group_by(pairs.c.bot).order_by(pairs.c.bot)).all()
        skill = conn.execute(select(ratings_table).where(ratings_table.c.person_id == person_id)).first()
        mine = conn.execute(select(me).where(me.c.person_id == person_id)
                            .order_by(me.c.finished_at.desc(), me.c.game_id).offset(offset).limit(finished)).all()
        ids = [r.game_id for r in mine]
        seats_of: dict[str, list] = {}
        configs: dict[str, tuple] = {}
        names: dict[str, str | None] = {}
        if ids:
            for r in conn.execute(select(game_results, people.c.name)
                                  .outerjoin(people, people.c.id == game_results.c.person_id)
                                  .where(game_results.c.game_id.in_(ids)).order_by(game_results.c.seat)):
                seats_of.setdefault(r.game_id, []).append(r)
            configs = {g.id: (json.loads(g.config), g.round) for g in conn.execute(
                select(games.c.id, games.c.config, games.c.round).where(games.c.id.in_(ids)))}
            names = dict(conn.execute(select(game_tables.c.game_id, game_tables.c.name)
                                      .where(game_tables.c.game_id.in_(ids))).all())
    vs_people = next(((n, int(w or 0)) for bot, n, w in opponents if bot == ""), (0, 0))
    bots = [{"bot": bot, "games": n, "won": int(w or 0)} for bot, n, w in opponents if bot != ""]
    rating = None
    if skill is not None:
        rating = {"value": ratings.shown(skill.mu, skill.sigma), "games": skill.games, "mu": skill.mu,
                  "sigma": skill.sigma, "provisional": skill.games < ratings.PROVISIONAL}
    games_out = []
    for r in mine:
        config, rounds = configs.get(r.game_id, ({}, None))
        change = None
        if r.rated and r.mu_before is not None:
            change = ratings.shown(r.mu_after, r.sigma_after) - ratings.shown(r.mu_before, r.sigma_before)
        games_out.append({
            "id": r.game_id, "name": names.get(r.game_id), "seat": r.seat, "place": r.place, "won": bool(r.won),
            "score": r.score, "finished_at": r.finished_at, "rated": bool(r.rated), "rating_change": change,
            "rating_after": ratings.shown(r.mu_after, r.sigma_after) if r.rated and r.mu_after is not None else None,
            "rounds": rounds, "sets": list(config.get("sets", [])), "ruleset": config.get("ruleset"),
            "leaders": bool(config.get("leaders", False)),
            "players": [{"seat": s.seat, "name": s.name, "bot": s.bot, "person": s.person_id, "place": s.place,
                         "won": bool(s.won), "score": s.score, "you": s.seat == r.seat}
                        for s in seats_of.get(r.game_id, [])],
        })
    return {
        "id": row.id, "name": row.name, "since": row.created_at,
        "rating": rating,
        "games": {"played": int(total[0]), "won": int(total[1] or 0)},
        "against_people": {"games": vs_people[0], "won": vs_people[1]},
        "against_bots": bots,
        "finished": games_out,
        "more": offset + len(mine) < int(total[0]),
    }
