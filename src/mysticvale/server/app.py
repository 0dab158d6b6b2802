"""The FastAPI application: HTTP + WebSocket API and the static browser client."""

from __future__ import annotations

import asyncio
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI, Header, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware
from starlette.websockets import WebSocketDisconnected

from ..bots import bot_names
from ..bots.levels import levels
from ..runtime import settle, tune_for_serving
from .bot_engine import resolve as resolve_bot_engine
from .cluster import LocalCoordinator, PgCoordinator, hold_sqlite
from .limits import (CreationLimiter, Limits, MessageLimiter, SocketLimiter, StrictJSONRoute, TooLarge, strict_loads,
                     TooManySockets, client_address, receive_client_message, validation_error_handler, whole_number)
from . import outage
from .privacy import SecurityHeaders, install_log_redaction, invitation_url, websocket_token
from .tables_directory import JoinLimits
from .schemas import (ActionRequest, ChangeResult, CreatedGame, CreateGame, GameState, GameSummary,
                      HouseCardsCheck, RematchRequest, SeatLink, UndoRequest)
from . import card_catalogue
from . import house_cards          # issue 21: the host's own card values
from ..cards.catalogue import check_sets
from . import people_api          # issue 15: people, claims, chat, e-mail
from . import chat_api            # issue 15: the table's chat over the game's socket
from . import meeting_api         # issue 21: table names, open tables, profiles, ratings, replays
from .notify import MailSettings
from .rules_page import rules_page
from .sessions import Applied, BadInput, GameError, GameSession, NotFound, SessionManager
from .storage import Storage
from .updates import PROTOCOL, messages_json, updates_after

log = logging.getLogger("mysticvale.server")

#: The browser client (built by the web package): index.html, app.js, style.css, ...
STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"

DESCRIPTION = """
Play Mystic Vale in the browser.  The server holds the authoritative game; every action is
validated by the rules engine and committed to the database before it is acknowledged.

**Seats and tokens.**  `POST /api/games` returns a secret token per human seat and an invitation
link `{public URL}/games/{id}#token=T`: the token is in the URL *fragment*, which browsers never
send to a server, so it reaches no access log, proxy or referrer.  Send a token in the
`X-Seat-Token` header (or, for actions and undo, as `token` in the body).  Only that token can act
for its seat; a request without a token reads the spectator view.  Nobody ever receives another
seat's hidden information (deck order, private looks).  (`?token=T` on `GET /state` and the
WebSocket still works for old clients; the server never logs it.)  A token belongs to whoever sits
in the seat: a claim (`POST /api/games/{id}/claim`) issues a fresh one and ends the invitation's,
a rematch gives each seat a new one, and a replaced personal key replaces the tokens it could read;
an ended token answers 410 and its sockets close with 4410.

**seq: every change is idempotent.**  Every state carries `seq`, the number of records (actions
and undos) so far.  Actions and undos **must** send the `seq` of the state they were made in (a
whole number: `true` or `1.0` is refused).  If the game has moved on, the answer is 409 (stale)
and nothing happens.  If the same request is sent again after its answer was lost, it is not
applied twice: the answer repeats the state with `repeated: true`.  Every answer to an action or
undo says which record was its own, `applied_seq`; the state's `seq` may be higher when bot moves
followed it.

**Errors.**  `{"detail": message}`, short, never repeating the input: 403 (wrong token),
404 (unknown game), 409 (not legal now, not your decision, stale seq, nothing to undo), 410 (a seat
token that has ended: an invitation already used, a replaced token), 413 (body
over 16 KiB), 422 (malformed body, JSON with NaN / Infinity / out-of-range numbers, action
notation that does not parse, a set combination without a base game), 429 (more than 20 new games
a minute from one address, or more than 4 without a human seat), 503 (the database cannot be
reached or did not take the write, the server runs too many games without a human seat, or holds
too many games in play; nothing changed, try again).  Every API answer says `Cache-Control:
no-store` unless it says otherwise (the card catalogue).

**Bots.**  `bots` maps seats to bot names (`GET /api/bots`), optionally with a thinking time in
seconds (`ismcts:0.5`), at most the server's `max_think` (5 s unless configured).  Bot moves are
scheduled fairly: games with a person at the table first, one move per game at a time.

**WebSocket** `WS /api/games/{id}/ws`.  Offer the subprotocols `["mysticvale",
"mysticvale.token.T"]` to play seat T (no token: spectator); the server accepts `mysticvale`.
The server sends `{"type": "state", ...the body of GET /state...}` on connect and after every
change (including bot moves and changes made through another server process), `{"type":
"applied", "applied_seq": n, "repeated": false}` after one of the client's own changes (before the
push that carries version n), and
`{"type": "error", "message": ..., "status": code}` when a message of the client fails (the socket
stays open).  The client may send `{"type": "action", "action": "push", "seq": n}` and
`{"type": "undo", "seq": n}`: JSON objects of at most 4 096 characters, at most 50 per 10 seconds;
with `"ref": r` (a whole number the client chooses) the `applied` or `error` answer carries the same
`ref`.  The browser client plays this way while its socket is open (the version then comes once,
as the push, not also in an HTTP answer) and POSTs otherwise; `seq` makes a change sent both ways
count once.
**Chat at the table:** every socket (spectators too) also receives `{"type": "chat", "message":
{"n", "seat", "name", "text", "at"}}` for each new chat message and `{"type": "seats", "seats":
[{"seat", "bot", "name", "open", "claimed"}]}` when a seat is claimed or a name changes; a seated
socket may send `{"type": "chat", "text": T}` (it comes back as a `chat` message to every table
socket, its own too; refused with an `error`: 403 spectator, 422 unfit text, 429 too fast with
`retry_after` seconds; nothing is stored).  Read the history with `GET /api/games/{id}/chat`.
A wrong token gets an error message and the socket closed with code 4403, an unknown game 4404,
an ended token (also while the socket is open) 4410, one socket more than a client address may
hold (24) 4429, a database that cannot be reached 4503; frames over 64 KiB close the socket
(1009).  Messages: 50 per 10 seconds per socket, 100 per client address over all its sockets.

**Updates (protocol 2; the browser client uses it).**  Every version (seq) is delivered, not only
the latest, and after the first full state only what changed:

* `WS /api/games/{id}/ws?since=n` (token offered as above; `since=-1`: from nothing) sends
  `{"type": "full", "v": 2, "seq": n, "view": {...}, "log": [...]}` or, for each later version,
  `{"type": "delta", "v": 2, "seq": n, "from": n-1, "by": seat, "undo": bool, "ops": [...],
  "log": [first, [entries]]}`; also `{"type": "rematch", "id": ...}` when a rematch starts.
* `GET /api/games/{id}/updates?since=n` (token in `X-Seat-Token`) answers `{"updates": [message, ...]}` the
  same way.
* `POST .../actions?since=n` and `POST .../undo?since=n` answer `{"updates": [...], "applied_seq": a,
  "repeated": bool}` (the versions after `n`) instead of the whole state.

An op is `[path, value]` (set), `[path]` (delete) or `[path, start, count, items]` (splice a list);
a log change says: drop the entries from index `first`, then append these.  A client further behind
than the server keeps gets a full state.  Card data per advancement (slots, symbols, text, ...) is
not repeated in states: fetch `view.catalogue` (`GET /api/catalogue/{sets}`) once.  The full
description is `docs/protocol.md`.  Responses are gzip-compressed when the client accepts it, and
WebSocket messages use permessage-deflate when the browser offers it.
"""



#: The body bound of the routes that take a house-cards file: the file and the rest of the request.
HOUSE_BODY = house_cards.MAX_BYTES * 2 + 16 * 1024     # (JSON may escape what the file says)


def house_cards_refused(exc: "house_cards.HouseCardsError") -> JSONResponse:
    """422 for a house-cards file with problems: every problem with its line, code and message."""
    return JSONResponse({"detail": f"the card-values file has {len(exc.problems)} problem(s): {exc}"[:2000],
                         "problems": exc.problems[:100]}, status_code=422)

def create_app(database_url: str, *, allow_seed: bool = False, static_dir: Path | None = None,
               bot_workers: int = 2, bot_threads: int = 2, public_url: str | None = None,
               limits: Limits | None = None, max_cached: int = 256, max_live: int = 4096,
               sweep_every: float = 1.0, mail: MailSettings | None = None, absent_after: float | None = None,
               presence_expiry: float | None = None, bot_engine: str = "auto") -> FastAPI:
    """The server application for the database at ``database_url`` (SQLite or PostgreSQL URL).

    ``allow_seed`` lets ``POST /api/games`` fix the seed (tests, reproducible games);
    ``public_url`` is where people reach this server (invitation links start with it; without
    it they are relative links); ``limits`` bounds what clients may ask for; ``bot_workers``
    search processes and ``bot_threads`` threads play the bots.  On PostgreSQL, several
    processes may serve the same database (:mod:`mysticvale.server.cluster`).  ``mail``: how
    to send "your turn" e-mail (None: no e-mail).  ``absent_after``: seconds after its last request
    that a game with nobody's socket open still counts as attended (its searching bots search);
    ``presence_expiry``: on PostgreSQL, seconds a process's word that somebody attends a game
    there lasts without its heartbeat (:mod:`mysticvale.server.presence`).  ``bot_engine``: what
    the searching bots think with (:mod:`mysticvale.server.bot_engine`: auto, native or python).
    """
    static = Path(static_dir) if static_dir is not None else STATIC_DIR
    limits = limits if limits is not None else Limits()
    resolve_bot_engine(bot_engine)      # a choice the machine cannot serve fails here, not at start-up

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        install_log_redaction()
        # The catalogue lives as long as the server: out of the garbage collector's way (its full
        # collections walked it and every game's state, pausing requests for tens of ms).
        await run_in_threadpool(settle)
        tune_for_serving()              # fewer, not longer, collector pauses (runtime.py)
        storage = Storage(database_url)
        held = hold_sqlite(storage)
        coordinator = (PgCoordinator(storage, sweep_every=sweep_every, presence_expiry=presence_expiry)
                       if storage.shared else LocalCoordinator())
        manager = SessionManager(storage, allow_seed=allow_seed, bot_workers=bot_workers, bot_threads=bot_threads,
                                 max_cached=max_cached, max_live=max_live, max_think=limits.max_think,
                                 coordinator=coordinator, absent_after=absent_after, bot_engine=bot_engine)
        app.state.manager = manager
        # Changes sent on a table's socket are applied (and wait for their commit) on these
        # threads: a standard pool hands work over through a C queue, 42-52 us of CPU per call
        # against 80-104 us for anyio's hand-over (20 callers at once, measured 2026-12-02).
        # 32 threads: changes of different games wait for the disk at once.
        app.state.change_pool = ThreadPoolExecutor(max_workers=32, thread_name_prefix="mysticvale-change")
        app.state.creations = CreationLimiter(limits)
        app.state.messages = MessageLimiter(limits)
        app.state.sockets = SocketLimiter(limits)
        app.state.limits = limits
        people_api.start(app, storage, manager)        # issue 15: before the bots resume, to hear their moves
        meeting_api.start(app, storage, manager)       # issue 21: hears the same events
        resumed = await run_in_threadpool(manager.resume_bots)
        if resumed:
            log.info("resumed bots in %d game(s)", resumed)
        try:
            yield
        finally:
            meeting_api.stop(app)
            await run_in_threadpool(people_api.stop, app)
            app.state.change_pool.shutdown(wait=True)
            await run_in_threadpool(manager.close)
            storage.close()
            if held is not None:
                held.release()

    app = FastAPI(title="Mystic Vale", description=DESCRIPTION, version="1", lifespan=lifespan,
                  max_body_size=limits.max_body)
    app.router.route_class = StrictJSONRoute
    app.add_middleware(SecurityHeaders)
    app.add_exception_handler(RequestValidationError, validation_error_handler)
    outage.install(app)         # the database out of reach: 503, never a traceback
    # Compress answers of 1 kB and more (states, catalogue, client files) for clients that accept it.
    app.add_middleware(GZipMiddleware, minimum_size=1000, compresslevel=6)
    people_api.install(app, mail=mail, public_url=public_url, people_per_window=limits.people_per_10min)     # issue 15: people and chat routes
    meeting_api.install(app, JoinLimits(per_address=limits.joins_per_10min))     # issue 21

    def manager_of(request: Request | WebSocket) -> SessionManager:
        return request.app.state.manager

    @app.exception_handler(GameError)
    async def _game_error(_request: Request, exc: GameError):
        body = {"detail": exc.message}
        if getattr(exc, "reason", None):      # which rule refused it: the page says it in its language
            body["reason"] = exc.reason
            body["params"] = getattr(exc, "params", None) or {}
        return JSONResponse(body, status_code=exc.status)

    # -- API ------------------------------------------------------------------------
    @app.get("/api/health", summary="Liveness and database check", tags=["server"],
             responses={503: {"description": "the database cannot be reached (`reason` says how it failed)"}})
    def health(request: Request) -> JSONResponse:
        """`{"ok": true, "database": "ok"}` once the server has started (and resumed its bots) and its
        database answers; 503 `{"ok": false, "database": "unreachable", "reason": ...}` while it does not."""
        status, body = outage.health(manager_of(request).storage.engine)
        return JSONResponse(body, status_code=status)

    @app.get("/api/bots", summary="Bot names and levels", tags=["server"])
    def bots(request: Request) -> dict:
        """The bot names `POST /api/games` accepts (the levels first; a thinking time may follow
        `ismcts`: `ismcts:0.5`); the levels a player chooses by strength, from the gentlest to the
        strongest, each with its `label` and one-line `description` in English and German, its
        measured `rating` and the `bot` configuration it plays; the longest thinking time this
        server allows; and the engine its searching bots think with (`native` or `python`: in the
        same time the native core searches further)."""
        return {"bots": bot_names(), "levels": [lv.as_dict() for lv in levels()],
                "max_think": limits.max_think, "engine": manager_of(request).bot_engine}

    async def house_body_bound(request: Request) -> None:
        """A new game's body may be up to HOUSE_BODY bytes (the route's bound) only when it carries
        a house-cards file; without one it keeps the server's bound (413).  The body is read as
        JSON once more only when it is that large."""
        body = await request.body()
        if len(body) <= limits.max_body:
            return
        try:
            doc = strict_loads(body)
        except ValueError:
            doc = None
        if not (isinstance(doc, dict) and isinstance(doc.get("house_cards"), str)):
            raise TooLarge(f"the request body is larger than {limits.max_body} bytes")

    @app.post("/api/games", status_code=201, response_model=CreatedGame, summary="Create a game", tags=["games"],
              max_body_size=HOUSE_BODY,
              responses={422: {"description": "invalid options (unknown set, bot, rule set; leaders unavailable; "
                                              "house cards with problems: `problems`, each with its `line`)"},
                         429: {"description": "this client created too many games in the last minute"},
                         503: {"description": "the server runs too many bot-only games or holds too many games"}})
    def create_game(body: CreateGame, request: Request,
                    creator: people_api.Person | None = Depends(people_api.creator),
                    _bound: None = Depends(house_body_bound)) -> dict:
        """Create a game.  Every seat not given a bot is a human seat and gets a secret token and an
        invitation link `{public URL}/games/{id}#token=T`.  Bot seats play on the server as soon as it is
        their turn.  With a personal key (`X-Player-Key`) your seat is claimed for you and the invitation
        links are kept for you (`GET /api/people/me/games`); `open_seats` may be claimed by anyone with the
        game link."""
        manager = manager_of(request)
        plan = people_api.plan_create(body, creator)   # issue 15: checked before anything is stored
        table = meeting_api.plan_create(request, body, creator)    # issue 21: name, public
        bots_by_seat = {int(k): v for k, v in body.bots.items()}
        bot_only = len(bots_by_seat) == body.players
        client = request.client.host if request.client else "unknown"
        creations = request.app.state.creations
        creations.check(client, bot_only, manager.storage.bot_only_games() if bot_only else None)
        principals = (f"addr:{client}",) + ((f"person:{creator.id}",) if creator is not None else ())
        try:
            session, tokens = manager.create(body.players, body.sets, body.leaders, body.ruleset,
                                             bots_by_seat, body.seed, principals=principals,
                                             house_cards=body.house_cards)
        except house_cards.HouseCardsError as exc:
            return house_cards_refused(exc)
        creations.count(client, bot_only)
        base = public_url or ""
        spectator = invitation_url(base, session.id, None)
        seats = [SeatLink(seat=s.seat, token=tokens.get(s.seat), bot=s.bot,
                          url=invitation_url(base, session.id, tokens.get(s.seat)))
                 for s in session.seats]
        response = {"id": session.id, "seats": seats, "spectator_url": spectator}
        meeting_api.after_create(request, table, session.id)                   # issue 21: before it is announced
        people_api.after_create(request, plan, session.id, tokens, response)   # issue 15: claims, invitations
        return response

    @app.get("/api/games/{game_id}/state", response_model=None, summary="A seat's view", tags=["games"],
             responses={200: {"model": GameState}, 403: {"description": "wrong token"},
                        404: {"description": "unknown game"}})
    def get_state(game_id: str, request: Request,
                  x_seat_token: str | None = Header(None, max_length=128, description="seat token; omit to "
                                                                                       "spectate"),
                  token: str | None = Query(None, max_length=128, deprecated=True,
                                            description="seat token (old clients; use the X-Seat-Token header)")
                  ) -> JSONResponse:
        """The seat's observation, its legal actions (empty unless it is its decision), the log as it may
        read it, and whether it can undo.  Without a token: the spectator view."""
        with manager_of(request).use(game_id, fresh=True) as session:
            return JSONResponse(session.state_for(session.seat_for_token(x_seat_token or token)))

    @app.get("/api/games/{game_id}/updates", response_model=None, summary="Versions since n (protocol 2)",
             tags=["games"], responses={403: {"description": "wrong token"}, 404: {"description": "unknown game"}})
    def get_updates(game_id: str, request: Request,
                    since: int = Query(-1, ge=-1, description="the version the client holds; -1: none"),
                    token: str | None = Query(None, max_length=128, description="seat token (old clients; "
                                              "prefer the X-Seat-Token header); omit to spectate"),
                    x_seat_token: str | None = Header(None, max_length=128)) -> Response:
        """`{"updates": [message, ...]}`: one delta per version after `since`, or one full state when
        the client holds none or is further behind than the server keeps (see the description above)."""
        with manager_of(request).use(game_id, fresh=True) as session:
            seat = session.seat_for_token(x_seat_token or token)
            _seq, texts = session.feed.since(session, seat, since if since >= 0 else None)
            return Response(messages_json(texts), media_type="application/json")

    @app.post("/api/games/{game_id}/actions", response_model=None, summary="Play an action", tags=["games"],
              responses={200: {"model": ChangeResult}, 403: {"description": "wrong token"},
                         404: {"description": "unknown game"},
                         409: {"description": "not legal now, not this seat's decision, or stale seq"},
                         422: {"description": "malformed body or action notation"}})
    def post_action(game_id: str, body: ActionRequest, request: Request,
                    x_seat_token: str | None = Header(None, max_length=128),
                    since: int | None = Query(None, ge=-1, description="answer with the updates after this "
                                                                       "version (protocol 2) instead of the state")
                    ) -> Response:
        """Apply an action in notation for the token's seat, in the state `seq`.  Answers (with the new
        state, or with `since`: the updates after that version; and `applied_seq`, the number of this
        action's record) only after the action is committed to the database.  The same request sent
        again answers the same, with `repeated: true`."""
        with manager_of(request).use(game_id) as session:
            seat = _seat_required(session, x_seat_token or body.token)
            session.note_actor(request.client.host if request.client else None)   # whose search it is
            applied = session.act(seat, body.action, body.seq)
            return _answer(session, seat, since, applied)

    @app.post("/api/games/{game_id}/undo", response_model=None, summary="Undo", tags=["games"],
              responses={200: {"model": ChangeResult}, 403: {"description": "wrong token"},
                         404: {"description": "unknown game"},
                         409: {"description": "nothing can be undone (with the reason), or stale seq"}})
    def post_undo(game_id: str, body: UndoRequest, request: Request,
                  x_seat_token: str | None = Header(None, max_length=128),
                  since: int | None = Query(None, ge=-1, description="answer with the updates after this "
                                                                     "version (protocol 2) instead of the state")
                  ) -> Response:
        """Take back the seat's last action while it is still its decision in the same turn, one action per
        request, never past an action that revealed hidden information (a card, a shuffle, a private look).
        `seq` as for actions: a retried undo never takes back a second action."""
        with manager_of(request).use(game_id) as session:
            seat = _seat_required(session, x_seat_token or body.token)
            applied = session.undo(seat, body.seq)
            return _answer(session, seat, since, applied)

    @app.post("/api/games/{game_id}/rematch", response_model=CreatedGame, summary="Start the rematch",
              tags=["games"], responses={403: {"description": "wrong token"}, 404: {"description": "unknown game"},
                                         409: {"description": "the game is not over"}})
    def post_rematch(game_id: str, body: RematchRequest, request: Request,
                     x_seat_token: str | None = Header(None, max_length=128)) -> dict:
        """A new game with the same seats, bots, card sets and rules (a new seed), once this one is over.
        Every seat gets a new token, derived from its token in this game: the answer holds the asking
        seat's (the same every time it asks), and nobody else's; each player asks with their own
        token, or reads it with their personal key.  Asking again (any seat) answers the same rematch.  Tables of the old game are told of it.  Who holds
        each seat, the creator, the creator's invitations and the open seats are kept too: the
        rematch is in each person's `GET /api/people/me/games`, with the names."""
        manager = manager_of(request)
        token = x_seat_token or body.token
        with manager.use(game_id) as session:
            seat = _seat_required(session, token)
            new = manager.rematch(session)
        mine = manager.rematch_token(game_id, new, seat, token)     # issue 22: a new token, only the asker's
        base = public_url or ""
        spectator = invitation_url(base, new.id, None)
        seats = [SeatLink(seat=s.seat, token=mine if s.seat == seat else None, bot=s.bot,
                          url=invitation_url(base, new.id, mine if s.seat == seat else None))
                 for s in new.seats]
        response = {"id": new.id, "seats": seats, "spectator_url": spectator}
        meeting_api.after_rematch(request, game_id, new.id)                   # issue 21: the table's name
        people_api.after_rematch(request, game_id, new.id, seat, response)    # issue 15: names, claims
        return response

    @app.post("/api/house-cards/check", summary="Check a card-values file (house cards)", tags=["cards"],
              max_body_size=HOUSE_BODY, response_model=None,
              responses={422: {"description": "the file has problems: `problems`, each with its `line` (or null), "
                                              "a `code` and the `message`"}})
    def check_house_cards(body: HouseCardsCheck) -> Response:
        """Check a card-values file in the catalogue format (docs/catalogue.md) for a game of `sets`, as
        creating the game with `house_cards` would: its set, how many cards it has, and which values
        differ from the shipped ones (`differences`).  Nothing is stored."""
        try:
            got = house_cards.check(body.text.encode("utf-8"), body.sets)
            cat = house_cards.catalogue(got["text"], check_sets(body.sets))
        except house_cards.HouseCardsError as exc:
            return house_cards_refused(exc)
        doc = json.loads(card_catalogue.house_catalogue_text(cat)[0])
        return JSONResponse({"set": got["set"], "cards": got["cards"], "differences": doc["house"]["differences"]})

    @app.get("/api/games/{game_id}/catalogue", response_model=None, summary="A game's own card data (house cards)",
             tags=["cards"], responses={404: {"description": "unknown game"}})
    def get_game_catalogue(game_id: str, request: Request, v: str | None = Query(None, max_length=64)) -> Response:
        """The card data of a game played with the host's card values (`view.catalogue` names it), in the
        format of `GET /api/catalogue/{sets}`, with `house`: the sets the host's file replaced and the
        values that differ from the shipped ones.  A game without house cards answers its sets' catalogue."""
        with manager_of(request).use(game_id) as session:
            cat = session.game.state.cat
        text, version = (card_catalogue.house_catalogue_text(cat) if cat.raw
                         else card_catalogue.catalogue_text(tuple(cat.sets)))
        etag = f'"{version}"'
        cache = "public, max-age=31536000, immutable" if v == version else "no-cache"
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"ETag": etag, "Cache-Control": cache})
        return Response(text, media_type="application/json", headers={"ETag": etag, "Cache-Control": cache})

    @app.get("/api/catalogue/{sets}", response_model=None, summary="Card data of a set combination",
             tags=["cards"], responses={404: {"description": "unknown set"}})
    def get_catalogue(sets: str, request: Request, v: str | None = Query(None, max_length=64)) -> Response:
        """Per advancement type (`types`, with `copies`: label -> type), vale and leader: slots, symbols,
        cost, level, abilities' triggers, text, `stand_in` and `provisional` values.  `sets` is the
        game's sets joined by `+` (`base+vale_of_magic`); a state's `view.catalogue` is the URL to use.
        With `v` (the version in that URL) the answer may be cached for good."""
        if len(sets) > 100:
            raise NotFound("unknown card sets")
        try:
            text, version = card_catalogue.catalogue_text(tuple(sets.split("+")))
        except ValueError as exc:
            raise NotFound(str(exc)) from None
        etag = f'"{version}"'
        cache = "public, max-age=31536000, immutable" if v == version else "no-cache"
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"ETag": etag, "Cache-Control": cache})
        return Response(text, media_type="application/json", headers={"ETag": etag, "Cache-Control": cache})

    @app.get("/api/games/{game_id}/summary", response_model=GameSummary, summary="Public summary", tags=["games"],
             responses={404: {"description": "unknown game"}})
    def get_summary(game_id: str, request: Request) -> dict:
        """Whose turn it is, phase, round, and the winners once over (no hidden information, no token)."""
        with manager_of(request).use(game_id, fresh=True) as session:
            return session.summary()

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str, token: str | None = None, since: str | None = None) -> None:
        offered, protocol = websocket_token(websocket.scope)
        async with socket_bound(websocket, protocol) as admitted:
            if admitted:
                await _game_socket(websocket, game_id, offered or token, since, protocol)

    async def _game_socket(websocket: WebSocket, game_id: str, token: str | None, since: str | None,
                           protocol: str | None) -> None:
        manager = manager_of(websocket)
        try:
            session = await run_in_threadpool(manager.acquire, game_id)
        except GameError as exc:
            await _refuse_socket(websocket, exc, protocol)
            return
        except outage.DATABASE_ERRORS as exc:
            await outage.refuse_socket(websocket, f"game {game_id}: socket", exc, protocol)
            return
        try:
            try:
                await run_in_threadpool(session.refresh)
                seat = await run_in_threadpool(session.seat_for_token,
                                               token if token is None or len(token) <= 128 else "?")
            except GameError as exc:
                await _refuse_socket(websocket, exc, protocol)
                return
            except outage.DATABASE_ERRORS as exc:
                await outage.refuse_socket(websocket, f"game {game_id}: socket", exc, protocol)
                return
            await websocket.accept(subprotocol=protocol)
            held: int | None = None
            if since is not None:
                try:
                    held = int(since) if len(since) <= 12 else None
                except ValueError:
                    held = None
            await _serve_socket(websocket, session, seat, limits, websocket.app.state.messages,
                                since=held if held is not None and held >= 0 else None,
                                updates=since is not None)
        finally:
            await run_in_threadpool(manager.release, session)

    # -- static client --------------------------------------------------------------
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    def index() -> FileResponse | PlainTextResponse:
        page = static / "index.html"
        if not page.is_file():
            return PlainTextResponse(f"The browser client is not installed ({page} is missing); the API is at "
                                     f"/docs.", status_code=503)
        return FileResponse(page, media_type="text/html")

    @app.get("/", include_in_schema=False)
    def root():
        return index()

    @app.get("/rules/{lang}", include_in_schema=False)
    def rules(lang: str) -> HTMLResponse:
        # The rules help (web/static/help/<lang>.html, a fragment the table also reads) as a page of
        # its own, with the table's styles: the top bar's Rules link opens it in a new tab.
        return rules_page(static, lang)

    @app.get("/games/{game_id}", include_in_schema=False)
    def invitation(game_id: str):
        # Invitation links open the single-page client, which reads the id from the path and the
        # token from the fragment (#token=...), which never reaches a server.
        return index()

    @app.get("/games/{game_id}/replay", include_in_schema=False)
    def replay_page(game_id: str):
        return index()          # issue 21: a finished game step by step (js/replay.js)

    @app.get("/people/{person_id}", include_in_schema=False)
    def profile_page(person_id: str):
        return index()          # issue 21: a person's profile (js/profilepage.js)

    return app


@asynccontextmanager
async def socket_bound(websocket: WebSocket, protocol: str | None = None):
    """Count the socket against its client address's bound for as long as the block runs; yields
    False (the socket accepted and closed with 4429 and the reason) when the address holds as many
    sockets as it may."""
    limiter: SocketLimiter = websocket.app.state.sockets
    address = client_address(websocket)
    try:
        limiter.opened(address)
    except TooManySockets as exc:
        await _refuse_socket(websocket, exc, protocol)
        yield False
        return
    try:
        yield True
    finally:
        limiter.closed(address)


def applied_message(applied: Applied, ref: int | None = None) -> dict:
    """The WebSocket message that acknowledges a client's action or undo (its state comes as a push),
    with the client's ``ref`` for it if it gave one."""
    answer = {"type": "applied", "applied_seq": applied.seq, "repeated": applied.repeated}
    if ref is not None:
        answer["ref"] = ref
    return answer


def change_answer(state: dict, applied: Applied) -> dict:
    """The answer to an action or undo: the seat's state, and which record was the request's own."""
    return {**state, "applied_seq": applied.seq, "repeated": applied.repeated}


def _answer(session: GameSession, seat: int, since: int | None, applied: Applied) -> Response:
    """The answer to an action or undo: the whole state, or (``since``) the updates after that
    version; either way with ``applied_seq`` and ``repeated``."""
    if since is None:
        return JSONResponse(change_answer(session.state_for(seat), applied))
    _seq, texts = session.feed.since(session, seat, since if since >= 0 else None)
    body = messages_json(texts)[:-1] + f',"applied_seq":{applied.seq},"repeated":{"true" if applied.repeated else "false"}}}'
    return Response(body, media_type="application/json")


async def _refuse_socket(websocket: WebSocket, exc: GameError, protocol: str | None) -> None:
    # Accept, then close with 4000 + the HTTP status: browsers cannot read a refused handshake.
    await websocket.accept(subprotocol=protocol)
    await websocket.send_json({"type": "error", "message": exc.message, "status": exc.status})
    await websocket.close(code=4000 + exc.status, reason=exc.message[:120])


def _seat_required(session: GameSession, token: str | None) -> int:
    seat = session.seat_for_token(token)
    if seat is None:
        raise BadInput("a seat token is required: send it in the X-Seat-Token header (or as 'token' in the body)")
    return seat


async def _serve_socket(websocket: WebSocket, session: GameSession, seat: int | None, limits: Limits,
                        limiter: MessageLimiter | None = None, *, since: int | None = None,
                        updates: bool = False) -> None:
    """Push this seat's state on connect and after every change; take actions from the client.

    ``updates`` (protocol 2): every version after ``since`` as a delta (or one full state), each
    message serialised once per version and seat by the session's feed (server/updates.py)."""
    loop = asyncio.get_running_loop()
    pool = websocket.app.state.change_pool
    changes: asyncio.Queue = asyncio.Queue()
    key = session.subscribe(loop, changes)
    # The token this socket was opened with: when the seat's token is replaced (its invitation was
    # claimed, its player replaced their key), the socket closes (4410) and sends nothing more.
    opened_with = session.seat_digest(seat) if seat is not None else None

    def token_ended() -> bool:
        return seat is not None and session.seat_digest(seat) != opened_with

    async def close_ended() -> None:
        # Nothing more reaches the ended token's socket: the table's chat and seats stop first (the
        # claim itself changes the seats, which would otherwise come between the error and the close).
        if table is not None:
            table.cancel()
            await asyncio.wait({table})
        try:
            message = await run_in_threadpool(session.ended_reason, opened_with)
        except Exception:           # the database is away: the socket closes all the same
            message = "this seat's token was replaced"
        try:
            await websocket.send_json({"type": "error", "message": message, "status": 410})
            await websocket.close(code=4410, reason="this seat's token was replaced")
        except (WebSocketDisconnect, RuntimeError):
            pass
    # The answer to this socket's own change goes out before the push of the version it made
    # (docs/protocol.md).  The worker thread that applies a change wakes the pusher (session
    # listeners) before it returns, so without this lock the push could overtake the answer: held
    # by a change from before it is applied until its answer is sent, and by the pusher while it
    # reads and sends versions.
    answering = asyncio.Lock()

    async def push_states() -> None:
        try:
            while True:
                # Protocol 1: one text per version and seat, shared by every socket of the seat
                # (all spectators send the same text), made in a worker thread only if not made yet.
                # The yield lets the request whose action this is answer before every socket sends.
                await asyncio.sleep(0)
                async with answering:
                    if token_ended():
                        await close_ended()
                        return
                    text = session.cached_state_text(seat) or await run_in_threadpool(session.state_text, seat)
                    await websocket.send_text(text)
                await changes.get()
                while not changes.empty():      # several changes at once: send the latest state once
                    changes.get_nowait()
        except (WebSocketDisconnect, RuntimeError):     # the client went away mid-send
            pass

    async def push_updates() -> None:
        held, rematch = since, None
        try:
            while True:
                async with answering:
                    if token_ended():
                        await close_ended()
                        return
                    held, texts = await updates_after(session, seat, held)
                    for text in texts:
                        await websocket.send_text(text)
                if session.rematch_id is not None and session.rematch_id != rematch:
                    rematch = session.rematch_id
                    await websocket.send_json({"type": "rematch", "v": PROTOCOL, "id": rematch})
                await changes.get()
                while not changes.empty():      # the feed answers every version since `held` at once
                    changes.get_nowait()
        except (WebSocketDisconnect, RuntimeError):
            pass

    async def send_error(message: str, status: int, ref: int | None = None) -> None:
        answer = {"type": "error", "message": message, "status": status}
        if ref is not None:
            answer["ref"] = ref
        await websocket.send_json(answer)

    # issue 15: the table's chat and seats, subscribed before the first state goes out
    social = getattr(websocket.app.state, "social", None)
    table = asyncio.create_task(chat_api.forward_table(websocket, social, session.id)) if social else None
    pusher = asyncio.create_task(push_updates() if updates else push_states())
    try:
        while True:
            try:
                msg = await receive_client_message(websocket, limits, limiter)
            except GameError as exc:            # too large, too many, not a JSON object
                await send_error(exc.message, exc.status)
                continue
            if msg.get("type") == "chat" and social is not None:
                try:
                    await chat_api.socket_chat(websocket, social, session.id, seat, msg)
                except outage.DATABASE_ERRORS as exc:
                    outage.log.warning("game %s: chat not stored, the database is unreachable (%s)", session.id,
                                       outage.describe(exc))
                    await send_error(outage.MESSAGE, 503)
                continue
            if msg.get("type") not in ("action", "undo"):
                await send_error('unknown message; send {"type": "action", "action": ..., "seq": n}, '
                                 '{"type": "undo", "seq": n} or {"type": "chat", "text": ...}', 422)
                continue
            # A client may number its changes ("ref", a whole number below 2**31): the answer to
            # each (applied or error) repeats it, so it is told apart from other messages.
            ref = msg.get("ref")
            if isinstance(ref, bool) or not isinstance(ref, int) or not 0 <= ref < 2 ** 31:
                ref = None
            if seat is None:
                await send_error("spectators cannot act; open the game with a seat's token", 403, ref)
                continue
            if token_ended():
                await close_ended()
                break
            try:
                seq = whole_number(msg.get("seq"), "seq")
                if msg["type"] == "undo":
                    change = (session.undo, seat, seq)
                else:
                    action = msg.get("action")
                    if not isinstance(action, str) or not 0 < len(action) <= 200:
                        raise BadInput("'action' must be action notation such as \"push\"")
                    change = (session.act, seat, action, seq)
                    session.note_actor(websocket.client.host if websocket.client else None)
                async with answering:
                    applied = await loop.run_in_executor(pool, *change)
                    await websocket.send_json(applied_message(applied, ref))
            except GameError as exc:
                await send_error(exc.message, exc.status, ref)
    except (WebSocketDisconnect, WebSocketDisconnected):
        # The client went away, also while its own change was being answered (the pusher's send
        # found the socket closed first: Starlette then refuses every later send).
        pass
    finally:
        session.unsubscribe(key)
        pusher.cancel()
        if table is not None:
            table.cancel()
