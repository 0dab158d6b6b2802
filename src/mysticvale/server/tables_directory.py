"""Tables with names, and the directory of public tables anyone may join without a link.

A game's **table** has a name and is *private* or *public*.  The name is the host's (the person
who created the game with their key; they may change it) or, when none is given, made from the
people seated ("Anna vs. Ben").  Names follow the rules of display names (no control or
invisible characters, trimmed, runs of spaces made one) and have at most :data:`NAME_MAX`
characters.

A **private** table is what every game was before: its open seats are taken by whoever has the
game link.  A **public** table is also listed in the lobby's *open tables* while it has a free
open seat, is not over and has had activity in the last :data:`LISTED_DAYS` days; anyone with a
name may join it there (the lowest free open seat is claimed under their name).

**Bounds** (a public table is a public place, every request may be hostile):

* a person hosts at most :data:`HOSTED_MAX` public tables with free seats at once;
* taking a seat at a public table counts against :attr:`JoinLimits.per_address` per client
  address and :attr:`JoinLimits.per_person` per person in any 10 minutes (one address may make
  many names), and a person sits at most at :data:`JOINED_MAX` unfinished public tables of others;
* one seat per person per game (the seat claims' unique key), so nobody fills a table alone;
* the list is at most :data:`LISTED_MAX` tables, read in one query plus one for their seats.
"""

from __future__ import annotations

import json
import time
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from sqlalchemy import and_, exists, func, insert, select, update
from sqlalchemy.engine import Connection, Engine

from .meeting_tables import game_tables
from .people import _holders, _insert_new
from .names import NameRefused
from .results import rating_of
from .sessions import BadInput, Conflict, TooMany
from .social_tables import game_creators, invitations, people, seat_claims
from .storage import games
from .trust import Untrusted, check_characters, has_visible

#: Longest table name, in characters, after trimming.
NAME_MAX = 40
#: A public table without activity for this many days leaves the list (its game stays).
LISTED_DAYS = 14
#: Most tables listed at once (the most recently created first).
LISTED_MAX = 50
#: Public tables with free seats one person may host at once.
HOSTED_MAX = 3
#: Unfinished public tables of others one person may sit at.
JOINED_MAX = 8

UNSET: Any = object()


def clean_table_name(raw: Any) -> str | None:
    """A table name as stored: NFC, trimmed, runs of spaces made one; None for no name (then the
    table is named after its people).  :class:`BadInput` for a name that is not text, holds
    control or invisible characters (they could hide or reorder what others see), or is longer
    than :data:`NAME_MAX`."""
    if raw is None:
        return None
    if not isinstance(raw, str):
        raise BadInput("a table name must be text")
    name = unicodedata.normalize("NFC", raw)
    try:        # the rules of display names (issue 22): nothing invisible, no bidi, no stacked marks
        check_characters(name, allow=" ", what="a table name")
    except Untrusted as exc:
        raise NameRefused(exc.reason, exc.message) from None
    name = " ".join(name.split())
    if not name:
        return None
    if not has_visible(name, letters_only=True):
        raise NameRefused("no_letter", "a table name needs at least one visible letter or digit")
    if len(name) > NAME_MAX:
        raise BadInput(f"a table name has at most {NAME_MAX} characters (this one has {len(name)})")
    return name


def default_title(players: Iterable[dict[str, Any]]) -> str:
    """The name of a table nobody named: its people and bots, "Anna vs. Ben" ("Anna's table"
    while Anna sits alone).  Clients make it in their own language from the same players."""
    labels = [p["name"] if p.get("name") else f"{p['bot'].split(':')[0]} bot"
              for p in players if p.get("name") or p.get("bot")]
    if len(labels) == 1:
        return f"{labels[0]}'s table"
    return " vs. ".join(labels) if labels else "A table"


@dataclass(frozen=True)
class TableInfo:
    name: str | None
    public: bool


@dataclass(frozen=True)
class JoinLimits:
    """Seats one client address / one person may take at public tables per 10 minutes."""

    per_address: int = 10
    per_person: int = 6


class JoinLimiter:
    """Counts seats taken at public tables (in memory, per server process; see the module docstring)."""

    def __init__(self, limits: JoinLimits) -> None:
        self.limits = limits
        self._address = RateLimitItemPerMinute(limits.per_address, 10)
        self._person = RateLimitItemPerMinute(limits.per_person, 10)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, address: str, person_id: str) -> None:
        """:class:`TooMany` if this address or person took too many seats at public tables lately."""
        if not self._limiter.test(self._address, "join-address", address) or \
                not self._limiter.test(self._person, "join-person", person_id):
            raise TooMany("you took many seats at open tables in the last minutes; try again in ten minutes")

    def count(self, address: str, person_id: str) -> None:
        self._limiter.hit(self._address, "join-address", address)
        self._limiter.hit(self._person, "join-person", person_id)


class Tables:
    """Storage of table names and public tables.  Thread-safe: every method runs its own transaction."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    # -- one table ------------------------------------------------------------------------
    def record(self, game_id: str, name: str | None, public: bool) -> None:
        """The table of a new game (a private table without a name needs no row)."""
        if name is None and not public:
            return
        now = self.clock()
        with self.engine.begin() as conn:
            conn.execute(insert(game_tables).values(game_id=game_id, name=name, public=public, created_at=now,
                                                    updated_at=now))

    def copy(self, old_id: str, new_id: str) -> None:
        """The rematch ``new_id`` of ``old_id`` keeps its table's name and publicity (idempotent:
        asked again, or by two processes at once, it leaves one row)."""
        now = self.clock()
        with self.engine.begin() as conn:
            row = conn.execute(select(game_tables).where(game_tables.c.game_id == old_id)).first()
            if row is not None:
                conn.execute(_insert_new(conn, game_tables).values(
                    game_id=new_id, name=row.name, public=row.public, created_at=now, updated_at=now))

    def info(self, game_id: str) -> TableInfo:
        with self.engine.connect() as conn:
            row = conn.execute(select(game_tables.c.name, game_tables.c.public)
                               .where(game_tables.c.game_id == game_id)).first()
        return TableInfo(row.name, bool(row.public)) if row is not None else TableInfo(None, False)

    def infos(self, game_ids: Iterable[str]) -> dict[str, TableInfo]:
        """The tables of these games (games without a row: private, unnamed)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        with self.engine.connect() as conn:
            found = {r.game_id: TableInfo(r.name, bool(r.public)) for r in conn.execute(
                select(game_tables.c.game_id, game_tables.c.name, game_tables.c.public)
                .where(game_tables.c.game_id.in_(ids)))}
        return {g: found.get(g, TableInfo(None, False)) for g in ids}

    def change(self, game_id: str, *, name: Any = UNSET, public: Any = UNSET) -> TableInfo:
        """Set the name (None: named after the people) and/or whether the table is public."""
        now = self.clock()
        with self.engine.begin() as conn:
            old = conn.execute(select(game_tables).where(game_tables.c.game_id == game_id)).first()
            values = {"name": old.name if old is not None else None, "public": bool(old.public) if old else False}
            if name is not UNSET:
                values["name"] = name
            if public is not UNSET:
                values["public"] = bool(public)
            if old is None:
                conn.execute(insert(game_tables).values(game_id=game_id, created_at=now, updated_at=now, **values))
            else:
                conn.execute(update(game_tables).where(game_tables.c.game_id == game_id)
                             .values(updated_at=now, **values))
        return TableInfo(values["name"], values["public"])

    # -- bounds ---------------------------------------------------------------------------
    def hosted(self, person_id: str) -> int:
        """Public tables with a free open seat that ``person_id`` created and that are not over."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count()).select_from(game_tables)
                .join(game_creators, game_creators.c.game_id == game_tables.c.game_id)
                .join(games, games.c.id == game_tables.c.game_id)
                .where(game_creators.c.person_id == person_id, game_tables.c.public.is_(True),
                       games.c.over.is_(False), _has_free_seat())).scalar_one()

    def joined(self, person_id: str) -> int:
        """Unfinished public tables of others at which ``person_id`` holds a seat."""
        made_by_them = exists().where(and_(game_creators.c.game_id == seat_claims.c.game_id,
                                           game_creators.c.person_id == person_id))
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count()).select_from(seat_claims)
                .join(game_tables, game_tables.c.game_id == seat_claims.c.game_id)
                .join(games, games.c.id == seat_claims.c.game_id)
                .where(seat_claims.c.person_id == person_id, game_tables.c.public.is_(True),
                       games.c.over.is_(False), ~made_by_them)).scalar_one()

    def check_join(self, person_id: str) -> None:
        """:class:`Conflict` if ``person_id`` sits at :data:`JOINED_MAX` unfinished public tables of others."""
        if self.joined(person_id) >= JOINED_MAX:
            raise Conflict(f"you already play at {JOINED_MAX} open tables of other people; finish one of them first")

    def check_host(self, person_id: str) -> None:
        """:class:`Conflict` if ``person_id`` hosts :data:`HOSTED_MAX` public tables with free seats."""
        if self.hosted(person_id) >= HOSTED_MAX:
            raise Conflict(f"you already host {HOSTED_MAX} open tables waiting for players; wait until they fill "
                           f"up (or make this one private)")

    # -- the directory ----------------------------------------------------------------------
    def listed_ids(self, limit: int = LISTED_MAX, only: Iterable[str] | None = None) -> list[str]:
        """Ids of the public tables to list (see the module docstring), the newest first."""
        since = self.clock() - LISTED_DAYS * 86400
        q = (select(game_tables.c.game_id).join(games, games.c.id == game_tables.c.game_id)
             .where(game_tables.c.public.is_(True), games.c.over.is_(False), games.c.updated_at >= since,
                    _has_free_seat())
             .order_by(game_tables.c.created_at.desc(), game_tables.c.game_id).limit(limit))
        if only is not None:
            q = q.where(game_tables.c.game_id.in_(sorted(set(only))))
        with self.engine.connect() as conn:
            return list(conn.execute(q).scalars())

    def rows(self, game_ids: list[str]) -> list[dict[str, Any]]:
        """The directory rows of these games, in this order: name, host, seats (with names,
        ratings and the people's public ids), free seats, sets and rules, round."""
        if not game_ids:
            return []
        with self.engine.connect() as conn:
            grows = {g.id: g for g in conn.execute(select(games).where(games.c.id.in_(game_ids)))}
            tables = {r.game_id: r for r in conn.execute(select(game_tables).where(game_tables.c.game_id.in_(game_ids)))}
            hosts = dict(conn.execute(select(game_creators.c.game_id, game_creators.c.person_id)
                                      .where(game_creators.c.game_id.in_(game_ids))).all())
            host_names = dict(conn.execute(select(people.c.id, people.c.name)
                                           .where(people.c.id.in_(set(hosts.values())))).all()) if hosts else {}
            holders = _holders(conn, list(game_ids))
        skills = rating_of(self.engine, [h.person_id for hs in holders.values() for h in hs if h.person_id]
                           + list(hosts.values()))
        out = []
        for gid in game_ids:
            g = grows.get(gid)
            if g is None:
                continue
            config = json.loads(g.config)
            players = [player_row(h, skills) for h in holders.get(gid, [])]
            table = tables.get(gid)
            host = hosts.get(gid)
            out.append({
                "id": gid, "name": table.name if table is not None else None,
                "title": (table.name if table is not None and table.name else default_title(players)),
                "public": bool(table.public) if table is not None else False,
                "host": {"person": host, "name": host_names.get(host),
                         "rating": skills[host].shown if host in skills else None} if host else None,
                "players": players,
                "seats": len(players), "seats_free": sum(1 for p in players if p["open"] and not p["claimed"]),
                "sets": list(config.get("sets", [])), "ruleset": config.get("ruleset"),
                "leaders": bool(config.get("leaders", False)),
                "round": g.round, "started": g.seq > 0, "over": bool(g.over),
                "created_at": table.created_at if table is not None else g.created_at, "updated_at": g.updated_at,
            })
        return out


def player_row(h, skills: dict) -> dict[str, Any]:
    """A seat as the directory and the games list show it: with the holder's public id and rating."""
    skill = skills.get(h.person_id) if h.person_id else None
    return {"seat": h.seat, "name": h.name, "bot": h.bot, "open": h.open, "claimed": h.person_id is not None,
            "person": h.person_id, "rating": skill.shown if skill is not None else None}


def _has_free_seat():
    """(A condition on ``game_tables``.)  An open seat nobody has claimed."""
    return exists().where(and_(invitations.c.game_id == game_tables.c.game_id, invitations.c.open.is_(True)))


def free_open_seat(conn: Connection, game_id: str) -> int | None:
    """The lowest open seat of the game nobody has claimed (None: none left)."""
    return conn.execute(select(func.min(invitations.c.seat)).where(
        invitations.c.game_id == game_id, invitations.c.open.is_(True))).scalar()
