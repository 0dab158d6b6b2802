"""The FastAPI application: HTTP + WebSocket API and the static browser client."""

from __future__ import annotations

import asyncio
import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles

from ..bots import bot_names
from .schemas import ActionRequest, CreatedGame, CreateGame, GameState, GameSummary, SeatLink, UndoRequest
from .sessions import BadInput, GameError, GameSession, SessionManager
from .storage import Storage

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
`{"type": "state", ...the body of GET /state...}` on connect and after every change (including bot
moves), and `{"type": "error", "message": ..., "status": code}` when a message of the client fails.
The client may send `{"type": "action", "action": "push", "seq": n}` and `{"type": "undo"}`.
A wrong token gets an error message and the socket closed with code 4403, an unknown game 4404.
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

    @app.post("/api/games/{game_id}/actions", response_model=None, summary="Play an action", tags=["games"],
              responses={200: {"model": GameState}, 403: {"description": "wrong token"},
                         404: {"description": "unknown game"},
                         409: {"description": "not legal now, not this seat's decision, or stale seq"},
                         422: {"description": "malformed body or action notation"}})
    def post_action(game_id: str, body: ActionRequest, request: Request) -> JSONResponse:
        """Apply an action in notation for the token's seat.  Answers (with the new state) only after the
        action is committed to the database."""
        session = manager_of(request).get(game_id)
        seat = _seat_required(session, body.token)
        session.act(seat, body.action, body.seq)
        return JSONResponse(session.state_for(seat))

    @app.post("/api/games/{game_id}/undo", response_model=None, summary="Undo", tags=["games"],
              responses={200: {"model": GameState}, 403: {"description": "wrong token"},
                         404: {"description": "unknown game"},
                         409: {"description": "nothing can be undone (with the reason)"}})
    def post_undo(game_id: str, body: UndoRequest, request: Request) -> JSONResponse:
        """Take back the seat's last action while it is still its decision in the same turn, one action per
        request, never past an action that revealed hidden information (a card, a shuffle, a private look)."""
        session = manager_of(request).get(game_id)
        seat = _seat_required(session, body.token)
        session.undo(seat)
        return JSONResponse(session.state_for(seat))

    @app.get("/api/games/{game_id}/summary", response_model=GameSummary, summary="Public summary", tags=["games"],
             responses={404: {"description": "unknown game"}})
    def get_summary(game_id: str, request: Request) -> dict:
        """Whose turn it is, phase, round, and the winners once over (no hidden information, no token)."""
        return manager_of(request).get(game_id).summary()

    @app.websocket("/api/games/{game_id}/ws")
    async def ws(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
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
        await _serve_socket(websocket, session, seat)

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


def _seat_required(session: GameSession, token: str) -> int:
    seat = session.seat_for_token(token)
    if seat is None:          # an empty token cannot pass validation; kept for clarity
        raise BadInput("a token is required")
    return seat


async def _serve_socket(websocket: WebSocket, session: GameSession, seat: int | None) -> None:
    """Push this seat's state on connect and after every change; take actions from the client."""
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

    async def send_error(message: str, status: int) -> None:
        await websocket.send_json({"type": "error", "message": message, "status": status})

    pusher = asyncio.create_task(push_states())
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
