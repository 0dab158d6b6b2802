"""The FastAPI application: HTTP + WebSocket API and the static browser client."""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.middleware.gzip import GZipMiddleware

from ..bots import bot_names
from .schemas import ActionRequest, CreatedGame, CreateGame, GameState, GameSummary, SeatLink, UndoRequest
from . import card_catalogue
from .sessions import BadInput, GameError, GameSession, NotFound, SessionManager
from .storage import Storage
from .updates import PROTOCOL, messages_json

log = logging.getLogger("mysticvale.server")

#: The browser client (built by the web package): index.html, app.js, style.css, ...
STATIC_DIR = Path(__file__).resolve().parent.parent / "web" / "static"

DESCRIPTION = """
Play Mystic Vale in the browser.  The server holds the authoritative game; every action is
validated by the rules engine and committed to the database before it is acknowledged.

**Seats and tokens.**  `POST /api/games` returns a secret token per human seat.  Only that token
can act for its seat; a request without a token reads the spectator view.  Nobody ever receives
another seat's hidden information (deck order, private looks).

**seq.**  Every state carries `seq`, the number of records (actions and undos) so far.  Send it with
an action: if the game has moved on meanwhile, the answer is 409 and nothing happens, so a retried
request can never apply an action twice.

**Errors.**  `{"detail": message}` with 403 (wrong token), 404 (unknown game), 409 (not legal now,
not your decision, stale seq, nothing to undo), 422 (malformed body or action notation),
503 (the database did not take the write; nothing changed).

**WebSocket** `WS /api/games/{id}/ws?token=T` (no token: spectator).  The server sends
`{"type": "state", ...the body of GET /state...}` on connect and after changes (including bot
moves; several quick changes may arrive as one state), and `{"type": "error", "message": ...,
"status": code}` when a message of the client fails.
The client may send `{"type": "action", "action": "push", "seq": n}` and `{"type": "undo"}`.
A wrong token gets an error message and the socket closed with code 4403, an unknown game 4404.

**Updates (protocol 2; the browser client uses it).**  Every version (seq) is delivered, not only
the latest, and after the first full state only what changed:

* `WS /api/games/{id}/ws?token=T&since=n` (`since=-1`: from nothing) sends
  `{"type": "full", "v": 2, "seq": n, "view": {...}, "log": [...]}` or, for each later version,
  `{"type": "delta", "v": 2, "seq": n, "from": n-1, "by": seat, "undo": bool, "ops": [...],
  "log": [first, [entries]]}`; also `{"type": "rematch", "id": ...}` when a rematch starts.
* `GET /api/games/{id}/updates?since=n&token=T` answers `{"updates": [message, ...]}` the same way.
* `POST .../actions?since=n` and `POST .../undo?since=n` answer `{"updates": [...]}` (the versions
  after `n`) instead of the whole state.

An op is `[path, value]` (set), `[path]` (delete) or `[path, start, count, items]` (splice a list);
a log change says: drop the entries from index `first`, then append these.  A client further behind
than the server keeps gets a full state.  Card data per advancement (slots, symbols, text, ...) is
not repeated in states: fetch `view.catalogue` (`GET /api/catalogue/{sets}`) once.  The full
description is `docs/protocol.md`.  Responses are gzip-compressed when the client accepts it, and
WebSocket messages use permessage-deflate when the browser offers it.
"""


def create_app(database_url: str, *, allow_seed: bool = False, static_dir: Path | None = None,
               bot_workers: int = 2) -> FastAPI:
    """The server application for the database at ``database_url`` (SQLite or PostgreSQL URL).

    ``allow_seed`` lets ``POST /api/games`` fix the seed (tests, reproducible games).
    """
    static = Path(static_dir) if static_dir is not None else STATIC_DIR

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        storage = Storage(database_url)
        manager = SessionManager(storage, allow_seed=allow_seed, bot_workers=bot_workers)
        app.state.manager = manager
        resumed = await run_in_threadpool(manager.resume_bots)
        if resumed:
            log.info("resumed bots in %d game(s)", resumed)
        try:
            yield
        finally:
            await run_in_threadpool(manager.close)
            storage.close()

    app = FastAPI(title="Mystic Vale", description=DESCRIPTION, version="1", lifespan=lifespan)
    # Compress answers of 1 kB and more (states, catalogue, client files) for clients that accept it.
    app.add_middleware(GZipMiddleware, minimum_size=1000, compresslevel=6)

    def manager_of(request: Request | WebSocket) -> SessionManager:
        return request.app.state.manager

    @app.exception_handler(GameError)
    async def _game_error(_request: Request, exc: GameError):
        return JSONResponse({"detail": exc.message}, status_code=exc.status)

    # -- API ------------------------------------------------------------------------
    @app.get("/api/health", summary="Liveness check", tags=["server"])
    def health() -> dict:
        """`{"ok": true}` once the server has started (and resumed its bots)."""
        return {"ok": True}

    @app.get("/api/bots", summary="Bot names", tags=["server"])
    def bots() -> dict:
        """The bot names `POST /api/games` accepts (a thinking time may follow: `ismcts:0.5`)."""
        return {"bots": bot_names()}

    @app.post("/api/games", status_code=201, response_model=CreatedGame, summary="Create a game", tags=["games"],
              responses={422: {"description": "invalid options (unknown set, bot, rule set; leaders unavailable)"}})
    def create_game(body: CreateGame, request: Request) -> dict:
        """Create a game.  Every seat not given a bot is a human seat and gets a secret token and an
        invitation link `/games/{id}?token=T`.  Bot seats play on the server as soon as it is their turn."""
        bots_by_seat = {int(k): v for k, v in body.bots.items()}
        session, tokens = manager_of(request).create(body.players, body.sets, body.leaders, body.ruleset,
                                                     bots_by_seat, body.seed)
        base = str(request.base_url)
        spectator = f"{base}games/{session.id}"
        seats = [SeatLink(seat=s.seat, token=tokens.get(s.seat), bot=s.bot,
                          url=f"{spectator}?token={tokens[s.seat]}" if s.seat in tokens else spectator)
                 for s in session.seats]
        return {"id": session.id, "seats": seats, "spectator_url": spectator}

    @app.get("/api/games/{game_id}/state", response_model=None, summary="A seat's view", tags=["games"],
             responses={200: {"model": GameState}, 403: {"description": "wrong token"},
                        404: {"description": "unknown game"}})
    def get_state(game_id: str, request: Request,
                  token: str | None = Query(None, max_length=128, description="seat token; omit to spectate")
                  ) -> JSONResponse:
        """The seat's observation, its legal actions (empty unless it is its decision), the log as it may
        read it, and whether it can undo.  Without a token: the spectator view."""
        session = manager_of(request).get(game_id)
        return JSONResponse(session.state_for(session.seat_for_token(token)))

    @app.get("/api/games/{game_id}/updates", response_model=None, summary="Versions since n (protocol 2)",
             tags=["games"], responses={403: {"description": "wrong token"}, 404: {"description": "unknown game"}})
    def get_updates(game_id: str, request: Request,
                    since: int = Query(-1, ge=-1, description="the version the client holds; -1: none"),
                    token: str | None = Query(None, max_length=128, description="seat token; omit to spectate")
                    ) -> Response:
        """`{"updates": [message, ...]}`: one delta per version after `since`, or one full state when
        the client holds none or is further behind than the server keeps (see the description above)."""
        session = manager_of(request).get(game_id)
        seat = session.seat_for_token(token)
        _seq, texts = session.feed.since(session, seat, since)
        return Response(messages_json(texts), media_type="application/json")

    @app.post("/api/games/{game_id}/actions", response_model=None, summary="Play an action", tags=["games"],
              responses={200: {"model": GameState}, 403: {"description": "wrong token"},
                         404: {"description": "unknown game"},
                         409: {"description": "not legal now, not this seat's decision, or stale seq"},
                         422: {"description": "malformed body or action notation"}})
    def post_action(game_id: str, body: ActionRequest, request: Request,
                    since: int | None = Query(None, ge=-1, description="answer with the updates after this "
                                                                       "version (protocol 2) instead of the state")
                    ) -> Response:
        """Apply an action in notation for the token's seat.  Answers (with the new state, or with
        `since`: the updates after that version) only after the action is committed to the database."""
        session = manager_of(request).get(game_id)
        seat = _seat_required(session, body.token)
        session.act(seat, body.action, body.seq)
        return _answer(session, seat, since)

    @app.post("/api/games/{game_id}/undo", response_model=None, summary="Undo", tags=["games"],
              responses={200: {"model": GameState}, 403: {"description": "wrong token"},
                         404: {"description": "unknown game"},
                         409: {"description": "nothing can be undone (with the reason)"}})
    def post_undo(game_id: str, body: UndoRequest, request: Request,
                  since: int | None = Query(None, ge=-1, description="answer with the updates after this "
                                                                     "version (protocol 2) instead of the state")
                  ) -> Response:
        """Take back the seat's last action while it is still its decision in the same turn, one action per
        request, never past an action that revealed hidden information (a card, a shuffle, a private look)."""
        session = manager_of(request).get(game_id)
        seat = _seat_required(session, body.token)
        session.undo(seat)
        return _answer(session, seat, since)

    @app.post("/api/games/{game_id}/rematch", response_model=CreatedGame, summary="Start the rematch",
              tags=["games"], responses={403: {"description": "wrong token"}, 404: {"description": "unknown game"},
                                         409: {"description": "the game is not over"}})
    def post_rematch(game_id: str, body: UndoRequest, request: Request) -> dict:
        """A new game with the same seats, bots, card sets and rules (a new seed), once this one is over.
        Every seat keeps its token, so each player opens the rematch with the link they had; asking
        again (any seat) answers the same rematch.  Tables of the old game are told of it."""
        manager = manager_of(request)
        session = manager.get(game_id)
        seat = _seat_required(session, body.token)
        new = manager.rematch(session)
        base = str(request.base_url)
        spectator = f"{base}games/{new.id}"
        seats = [SeatLink(seat=s.seat, token=body.token if s.seat == seat else None, bot=s.bot,
                          url=f"{spectator}?token={body.token}" if s.seat == seat else spectator)
                 for s in new.seats]
        return {"id": new.id, "seats": seats, "spectator_url": spectator}

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
        return manager_of(request).get(game_id).summary()

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str, token: str | None = None, since: str | None = None) -> None:
        manager = manager_of(websocket)
        try:
            session = await run_in_threadpool(manager.get, game_id)
            seat = session.seat_for_token(token) if token is None or len(token) <= 128 else \
                session.seat_for_token("?")
        except GameError as exc:
            # Accept, then close with 4000 + the HTTP status: browsers cannot read a refused handshake.
            await websocket.accept()
            await websocket.send_json({"type": "error", "message": exc.message, "status": exc.status})
            await websocket.close(code=4000 + exc.status, reason=exc.message[:120])
            return
        await websocket.accept()
        if since is None:
            await _serve_socket(websocket, session, seat)
        else:
            try:
                held: int | None = int(since)
            except ValueError:
                held = None
            await _serve_socket(websocket, session, seat, since=held if held is not None and held >= 0 else None,
                                updates=True)

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

    @app.get("/games/{game_id}", include_in_schema=False)
    def invitation(game_id: str):
        # Invitation links open the single-page client, which reads the id and token from the URL.
        return index()

    return app


def _answer(session: GameSession, seat: int, since: int | None) -> Response:
    """The answer to an action or undo: the whole state, or (``since``) the updates after it."""
    if since is None:
        return JSONResponse(session.state_for(seat))
    _seq, texts = session.feed.since(session, seat, since if since >= 0 else None)
    return Response(messages_json(texts), media_type="application/json")


def _seat_required(session: GameSession, token: str) -> int:
    seat = session.seat_for_token(token)
    if seat is None:          # an empty token cannot pass validation; kept for clarity
        raise BadInput("a token is required")
    return seat


async def _serve_socket(websocket: WebSocket, session: GameSession, seat: int | None, *,
                        since: int | None = None, updates: bool = False) -> None:
    """Push this seat's state on connect and after every change; take actions from the client.

    ``updates`` (protocol 2): every version after ``since`` as a delta (or one full state), each
    message serialised once per version and seat by the session's feed (server/updates.py)."""
    loop = asyncio.get_running_loop()
    changes: asyncio.Queue = asyncio.Queue()
    key = session.subscribe(loop, changes)

    async def push_states() -> None:
        try:
            while True:
                state = await run_in_threadpool(session.state_for, seat)
                await websocket.send_json({"type": "state", **state})
                await changes.get()
                while not changes.empty():      # several changes at once: send the latest state once
                    changes.get_nowait()
        except (WebSocketDisconnect, RuntimeError):     # the client went away mid-send
            pass

    async def push_updates() -> None:
        held, rematch = since, None
        try:
            while True:
                held, texts = await run_in_threadpool(session.feed.since, session, seat, held)
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

    async def send_error(message: str, status: int) -> None:
        await websocket.send_json({"type": "error", "message": message, "status": status})

    pusher = asyncio.create_task(push_updates() if updates else push_states())
    try:
        while True:
            try:
                msg = await websocket.receive_json()
            except (ValueError, KeyError):
                await send_error("messages must be JSON objects", 422)
                continue
            if not isinstance(msg, dict) or msg.get("type") not in ("action", "undo"):
                await send_error('unknown message; send {"type": "action", "action": ..., "seq": n} '
                                 'or {"type": "undo"}', 422)
                continue
            if seat is None:
                await send_error("spectators cannot act; open the game with a seat's token", 403)
                continue
            try:
                if msg["type"] == "undo":
                    await run_in_threadpool(session.undo, seat)
                else:
                    action, seq = msg.get("action"), msg.get("seq")
                    if not isinstance(action, str) or not 0 < len(action) <= 200:
                        raise BadInput("'action' must be action notation such as \"push\"")
                    if seq is not None and (isinstance(seq, bool) or not isinstance(seq, int)):
                        raise BadInput("'seq' must be a whole number")
                    await run_in_threadpool(session.act, seat, action, seq)
            except GameError as exc:
                await send_error(exc.message, exc.status)
    except WebSocketDisconnect:
        pass
    finally:
        session.unsubscribe(key)
        pusher.cancel()
