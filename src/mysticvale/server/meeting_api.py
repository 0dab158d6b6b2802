"""A place where people meet (issue 21), over HTTP and the lobby's WebSocket: table names, the
open tables anyone may join, profiles with ratings, and replays of finished games.

The hooks :func:`install`, :func:`start`, :func:`stop`, :func:`plan_create`, :func:`after_create`,
:func:`check_open_claim`, :func:`open_claimed`, :func:`decorate_rows` and :func:`directory_feed`
are what ``app.py`` and ``people_api.py`` call.  :class:`Meeting` listens to every game event
that the people service handles (``Social.game_hooks``, on its thread): it records the results
and ratings of a game that ended, keeps the open tables' rows and tells the lobbies when one
changes, and tells a table's sockets its new name.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import select

from . import outage, profiles, results
from .limits import StrictJSONRoute
from .meeting_schemas import Profile, ReplayStep, Table, TablePatch, Tables as TablesOut
from .people import Person, _holders
from .people_api import _AUTH, me, social_of, _rows
from .people_schemas import ClaimOut
from .replay import Replays
from .sessions import BadInput, Conflict, Forbidden, NotFound, SessionManager, TurnInfo
from .social import Social
from .social_tables import game_creators
from .storage import Storage
from .tables_directory import (
    JoinLimiter, JoinLimits, LISTED_MAX, Tables, TableInfo, UNSET, clean_table_name, free_open_seat, player_row,
)

log = logging.getLogger("mysticvale.server.meeting")

#: Added to the API description on /docs.
DESCRIPTION = """
**Tables, open tables, profiles, replays.**  Every game's table has a name (`name` when creating
a game; `PATCH /api/games/{id}/table` by its host) and is private or public (`public: true`).
`GET /api/tables` lists the public tables with a free seat; `POST /api/tables/{id}/join` takes
the lowest free seat under your name (bounded per person and address).  The lobby's WebSocket
also sends `{"type": "tables"}` and `{"type": "open_table"}` / `{"type": "open_table_gone"}`.
`GET /api/people/{id}/profile`: games played and won, against people and each bot, the rating
(openskill, games between people only) and the finished games.  `GET
/api/games/{id}/replay?seat=S&step=K`: a finished game step by step from one seat's view.
"""

router = APIRouter(tags=["tables"], route_class=StrictJSONRoute)

# -- the service ----------------------------------------------------------------------------
class Meeting:
    """Tables, results, the open tables' live rows and replays for one server."""

    def __init__(self, storage: Storage, manager: SessionManager, social: Social) -> None:
        self.engine = storage.engine
        self.manager = manager
        self.social = social
        self.tables = Tables(self.engine)
        self.replays = Replays(manager)
        #: The open tables' rows as last told to the lobbies (id -> row).
        self.listed: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()
        self._sweeper = threading.Thread(target=self._record_missing, name="mysticvale-results", daemon=True)

    def start(self) -> None:
        with self._lock:
            self.listed = {row["id"]: row for row in self.tables.rows(self.tables.listed_ids())}
        self.social.game_hooks.append(self.game_event)
        if self.social.coordinator.shared:
            self.social.coordinator.heard.append(self.heard)
        self._sweeper.start()

    def close(self) -> None:
        for hooks, hook in ((self.social.game_hooks, self.game_event),
                            (getattr(self.social.coordinator, "heard", []), self.heard)):
            try:
                hooks.remove(hook)
            except ValueError:
                pass

    # -- events (on the people service's thread) ----------------------------------------------
    def game_event(self, game_id: str, info: TurnInfo | None) -> None:
        """A game changed: ``info`` for a move (with who is to act), None for anything else (a
        claim, a new game, a new name, a chat message, another process's note)."""
        if info is not None and info.over:
            self.record(game_id)
        if info is None or info.over or game_id in self.listed:
            self.refresh_listing(game_id)

    def heard(self, kind: str, game_id: str, _number: int) -> None:
        """(A listener of the cluster.)  Another server process renamed a table: tell its sockets here."""
        if kind == "table" and self.social.hub.listens(("game", game_id)):
            self.tell_table(game_id)

    def record(self, game_id: str) -> bool:
        """Write the results (and ratings) of a game that has just ended; True if written now."""
        return results.record(self.engine, game_id, self._final(game_id))

    def _final(self, game_id: str) -> results.Final | None:
        with self.manager.use(game_id) as session:
            with session._lock:
                return results.final_of(session.game) if session.game.is_over() else None

    def _record_missing(self) -> None:
        try:
            done = results.record_missing(self.engine, self._final)
            if done:
                log.info("recorded the results of %d finished game(s)", done)
        except Exception:
            log.exception("could not record the results of finished games")

    def refresh_listing(self, game_id: str) -> None:
        """Read the game's open-table row again and tell the lobbies if it changed, came or went."""
        listed = bool(self.tables.listed_ids(only=[game_id]))
        row = self.tables.rows([game_id])[0] if listed else None
        with self._lock:
            old = self.listed.get(game_id)
            if row is not None:
                self.listed[game_id] = row
            else:
                self.listed.pop(game_id, None)
        if row is not None and row != old:
            self.social.hub.publish(("directory", ""), {"type": "open_table", "table": row})
        elif row is None and old is not None:
            self.social.hub.publish(("directory", ""), {"type": "open_table_gone", "id": game_id})

    def tell_table(self, game_id: str) -> None:
        """Tell the game's table sockets in this process the table's name and publicity."""
        info = self.tables.info(game_id)
        self.social.hub.publish(("game", game_id), {"type": "table", "table": {"name": info.name,
                                                                               "public": info.public}})

    def renamed(self, game_id: str) -> None:
        """The host changed the table: its sockets and lobbies, here and in the other processes."""
        self.tell_table(game_id)
        self.social.coordinator.publish("table", game_id)
        self.social.activity(game_id)

    def open_tables(self) -> list[dict[str, Any]]:
        """The open tables as the lobby lists them (read from the database)."""
        return self.tables.rows(self.tables.listed_ids())


def meeting_of(request: Request | WebSocket) -> Meeting:
    return request.app.state.meeting


# -- hooks for app.py and people_api.py -------------------------------------------------------
def install(app: FastAPI, join_limits: JoinLimits | None = None) -> None:
    """Add the routes (called once by ``create_app``)."""
    app.state.join_limiter = JoinLimiter(join_limits or JoinLimits())
    app.include_router(router)
    app.description = (app.description or "") + DESCRIPTION


def start(app: FastAPI, storage: Storage, manager: SessionManager) -> Meeting:
    """Start the service once the people service runs (called from the app's lifespan)."""
    meeting = Meeting(storage, manager, app.state.social)
    meeting.start()
    app.state.meeting = meeting
    return meeting


def stop(app: FastAPI) -> None:
    meeting = getattr(app.state, "meeting", None)
    if meeting is not None:
        meeting.close()


@dataclass(frozen=True)
class TablePlan:
    name: str | None
    public: bool


def plan_create(request: Request, body: Any, creator: Person | None) -> TablePlan:
    """Check a new game's table options before anything is stored: :class:`BadInput` for an unfit
    name, a public table without a personal key or without an open seat; :class:`Conflict` for a
    host who already has :data:`tables_directory.HOSTED_MAX` public tables waiting."""
    name = clean_table_name(body.name)
    if body.public:
        if creator is None:
            raise BadInput("a public table needs a host: send your personal key (X-Player-Key)")
        if not body.open_seats:
            raise BadInput("a public table needs at least one open seat for others to take")
        meeting_of(request).tables.check_host(creator.id)
    return TablePlan(name, bool(body.public))


def after_create(request: Request, plan: TablePlan, game_id: str) -> None:
    """Store the new game's table (before its seats are recorded and announced)."""
    meeting_of(request).tables.record(game_id, plan.name, plan.public)


def after_rematch(request: Request, old_id: str, new_id: str) -> None:
    """The rematch keeps the table's name and publicity (every time it is asked for; before its
    seats are announced)."""
    meeting_of(request).tables.copy(old_id, new_id)


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def check_open_claim(request: Request, person: Person, game_id: str) -> bool:
    """Before ``person`` takes an open seat: at a public table, the bounds on joining
    (:class:`TooMany`, :class:`Conflict`).  Returns whether the table is public."""
    meeting = meeting_of(request)
    if not meeting.tables.info(game_id).public:
        return False
    request.app.state.join_limiter.check(_client(request), person.id)
    meeting.tables.check_join(person.id)
    return True


def open_claimed(request: Request, person: Person) -> None:
    """After ``person`` took a seat at a public table: count it."""
    request.app.state.join_limiter.count(_client(request), person.id)


def decorate_rows(request: Request | WebSocket, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Add to "my games" rows the table's name and publicity, and each seat's public id and rating."""
    if not rows:
        return rows
    meeting = meeting_of(request)
    ids = [r["id"] for r in rows]
    infos = meeting.tables.infos(ids)
    with meeting.engine.connect() as conn:
        holders = _holders(conn, ids)
    skills = results.rating_of(meeting.engine, [h.person_id for hs in holders.values() for h in hs if h.person_id])
    for r in rows:
        info = infos.get(r["id"], TableInfo(None, False))
        r["name"], r["public"] = info.name, info.public
        extra = {h.seat: player_row(h, skills) for h in holders.get(r["id"], [])}
        for p in r["players"]:
            e = extra.get(p["seat"])
            p["person"] = e["person"] if e else None
            p["rating"] = e["rating"] if e else None
    return rows


async def directory_feed(websocket: WebSocket) -> None:
    """(For the lobby's socket.)  Send ``{"type": "tables", "tables": [...]}`` with the open tables,
    then ``{"type": "open_table", "table": row}`` when one comes or changes and ``{"type":
    "open_table_gone", "id": ...}`` when one leaves the list (full, over, made private), until the
    socket ends or the task is cancelled."""
    meeting = meeting_of(websocket)
    queue: asyncio.Queue = asyncio.Queue()
    key = meeting.social.hub.subscribe(("directory", ""), asyncio.get_running_loop(), queue)
    try:
        rows = await run_in_threadpool(meeting.open_tables)
        await websocket.send_json({"type": "tables", "tables": rows})
        while True:
            await websocket.send_json(await queue.get())
    except (WebSocketDisconnect, RuntimeError):
        pass
    except outage.DATABASE_ERRORS as exc:       # the client connects again later (issue 22)
        await outage.refuse_socket(websocket, "open tables feed", exc)
    finally:
        meeting.social.hub.unsubscribe(key)


# -- routes ---------------------------------------------------------------------------------------
@router.get("/api/tables", response_model=TablesOut, summary="Open tables")
def open_tables(request: Request) -> dict:
    """The public tables anyone may join: with a free open seat, not over, active in the last two
    weeks; the newest first, at most 50.  The lobby's WebSocket keeps this list live."""
    return {"tables": meeting_of(request).open_tables()}


@router.get("/api/games/{game_id}/table", response_model=Table, summary="A game's table",
            responses={404: {"description": "unknown game"}})
def get_table(game_id: str, request: Request) -> dict:
    """The table's name, host, seats and whether it is public (no secret)."""
    rows = meeting_of(request).tables.rows([game_id])
    if not rows:
        raise NotFound(f"no game with id {game_id[:64]!r}")
    return rows[0]


@router.patch("/api/games/{game_id}/table", response_model=Table, summary="Rename a table, make it public or private",
              responses={**_AUTH, 404: {"description": "unknown game"},
                         403: {"description": "not the host of this game"},
                         409: {"description": "the game is over, or you host too many open tables"},
                         422: {"description": "an unfit name"}})
def patch_table(game_id: str, body: TablePatch, request: Request, person: Person = Depends(me)) -> dict:
    """The host (the person who created the game) names the table (null or empty: named after the people
    seated) or makes it public or private.  Every seat and lobby sees the change live."""
    meeting = meeting_of(request)
    with meeting.engine.connect() as conn:
        host = conn.execute(select(game_creators.c.person_id).where(game_creators.c.game_id == game_id)).scalar()
    rows = meeting.tables.rows([game_id])
    if not rows:
        raise NotFound(f"no game with id {game_id[:64]!r}")
    if host != person.id:
        raise Forbidden("only the host of this table (who created the game) may change it")
    given = body.model_fields_set
    changes: dict[str, Any] = {}
    if "name" in given:
        changes["name"] = clean_table_name(body.name)
    if "public" in given:
        if body.public is None:
            raise BadInput("public is true or false")
        if body.public and rows[0]["over"]:
            raise Conflict("the game is over: it cannot be listed among the open tables")
        if body.public and not rows[0]["public"]:
            meeting.tables.check_host(person.id)
        changes["public"] = body.public
    if changes:
        meeting.tables.change(game_id, name=changes.get("name", UNSET), public=changes.get("public", UNSET))
        meeting.renamed(game_id)                    # table sockets, lobbies (games lists, open tables)
    return meeting.tables.rows([game_id])[0]


@router.post("/api/tables/{game_id}/join", response_model=ClaimOut, summary="Join an open table",
             responses={**_AUTH, 404: {"description": "unknown game, or not a public table"},
                        409: {"description": "no free seat left, you already sit there, or you sit at too many "
                                             "open tables"},
                        429: {"description": "too many seats taken lately from this address or by you"}})
def join_table(game_id: str, request: Request, person: Person = Depends(me)) -> dict:
    """Take the lowest free open seat of a public table under your name (first come, first served).
    The answer is that of `POST /api/games/{id}/claim`: your seat, its token and the game's row."""
    meeting = meeting_of(request)
    social = meeting.social
    social.manager.get(game_id)                        # 404 for an unknown game
    if not meeting.tables.info(game_id).public:
        raise NotFound("this is not a public table: open it with the link its host shared")
    mine = next((h for h in social.people.holders(game_id) if h.person_id == person.id), None)
    if mine is not None:
        raise Conflict(f"you already play seat {mine.seat} at this table")
    check_open_claim(request, person, game_id)
    for _attempt in range(4):                          # another person may take a seat at the same moment
        with meeting.engine.connect() as conn:
            seat = free_open_seat(conn, game_id)
        if seat is None:
            raise Conflict("this table is full: every open seat was taken")
        try:
            claimed = social.people.claim(person, game_id, seat, None)
        except Conflict:
            continue
        open_claimed(request, person)
        social.publish_seats(game_id)
        social.activity(game_id)
        return {"seat": claimed.seat, "token": claimed.token, "new": claimed.new,
                "game": _rows(request, person, only=game_id, finished=1)[0]}
    raise Conflict("the seats of this table were taken just now; try another table")


@router.get("/api/people/{person_id}/profile", response_model=Profile, summary="A person's profile", tags=["people"],
            responses={404: {"description": "nobody has this id"}})
def get_profile(person_id: str, request: Request,
                finished: int = Query(20, ge=0, le=profiles.PAGE_MAX, description="finished games to list"),
                offset: int = Query(0, ge=0, le=100_000, description="skip this many (the next page)")) -> dict:
    """Games played and won (in all, against people, against each kind of bot), the rating from games
    between people, and the finished games, the most recent first.  Public, as on other game sites."""
    if len(person_id) > 32:
        raise NotFound("nobody has this id")
    return profiles.profile(meeting_of(request).engine, person_id, finished=finished, offset=offset)


@router.get("/api/games/{game_id}/replay", response_model=ReplayStep, summary="Replay a finished game",
            tags=["games"], responses={404: {"description": "unknown game"},
                                       409: {"description": "the game is not over, or no such seat or step"},
                                       429: {"description": "the server is replaying many games; try again"}})
def get_replay(game_id: str, request: Request,
               step: int = Query(0, ge=0, le=1_000_000, description="0: the setup; n: after n actions"),
               seat: int | None = Query(None, ge=0, le=3, description="whose view (omit: a spectator's)"),
               outline: bool = Query(False, description="add the turns and log positions of every step")) -> dict:
    """A finished game at one step, from one seat's view: exactly what that seat saw then (its hand,
    its private looks), never more, and the log as it read it.  Anybody with the game link may replay
    a finished game, from any seat."""
    return meeting_of(request).replays.step(game_id, seat, step, outline)
