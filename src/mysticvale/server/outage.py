"""The database out of reach: every request, handshake and socket says 503, never a traceback.

When the database cannot be reached (PostgreSQL stopped or restarting, the network to it down, an
SQLite file that cannot be opened), SQLAlchemy raises a :class:`~sqlalchemy.exc.DBAPIError`
(``OperationalError``, ``InterfaceError``, ...) wherever the server reads or writes.  Writes already
answer 503 ("nothing changed", :class:`~mysticvale.server.sessions.Unavailable`); here the same holds
for everything else:

- an HTTP request answers ``503 {"detail": ...}`` (:func:`install`);
- a WebSocket, in its handshake or while it runs, gets ``{"type": "error", "status": 503}`` and is
  closed with code **4503** (:func:`refuse_socket`), and the client connects again later;
- ``GET /api/health`` asks the database and answers 503 with the reason while it cannot.

Each outage is logged as one warning line per request (what failed and why), not a traceback.
Nothing is lost: a write that failed changed nothing, and the server serves again as soon as the
database answers (its connection pool checks connections before use).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import JSONResponse
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError
from starlette.websockets import WebSocketDisconnect

log = logging.getLogger("mysticvale.server")

#: What the client is told (the database's own message stays in the server's log).
MESSAGE = "the database cannot be reached right now; nothing changed, try again in a moment"
#: The close code of a socket that the database's outage ends (4000 + 503).
CLOSE_CODE = 4503
#: Exceptions that mean the database did not answer.
DATABASE_ERRORS = (DBAPIError,)


def describe(exc: BaseException) -> str:
    """One line for the log: the kind of failure and the driver's first line, no parameters."""
    origin = getattr(exc, "orig", None) or exc
    first = str(origin).strip().splitlines()[0][:200] if str(origin).strip() else ""
    return f"{type(origin).__name__}: {first}" if first else type(origin).__name__


def install(app: FastAPI) -> None:
    """Answer every request that meets an unreachable database with 503."""

    @app.exception_handler(DBAPIError)
    async def _database_down(request: Request, exc: DBAPIError):
        log.warning("%s %s: the database is unreachable (%s)", request.method, request.url.path, describe(exc))
        return JSONResponse({"detail": MESSAGE}, status_code=503, headers={"Retry-After": "5"})


def check(engine: Engine) -> str | None:
    """None if the database answers a trivial query; else why not (for ``/api/health``)."""
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # any failure to answer is an outage, whatever the driver raised
        return describe(exc)
    return None


async def refuse_socket(websocket: WebSocket, where: str, exc: BaseException | None = None,
                        subprotocol: str | None = None) -> None:
    """Tell a socket's client that the database is unreachable and close with :data:`CLOSE_CODE`
    (accepting the socket first if it is still in its handshake: browsers cannot read a refused one)."""
    if exc is not None:
        log.warning("%s: the database is unreachable (%s)", where, describe(exc))
    try:
        if websocket.client_state.name == "CONNECTING":
            await websocket.accept(subprotocol=subprotocol)
        await websocket.send_json({"type": "error", "message": MESSAGE, "status": 503})
        await websocket.close(code=CLOSE_CODE, reason="the database is unreachable; reconnect later")
    except (WebSocketDisconnect, RuntimeError):
        pass


def health(engine: Engine) -> tuple[int, dict[str, Any]]:
    """The answer of ``GET /api/health``: (status, body)."""
    problem = check(engine)
    if problem is None:
        return 200, {"ok": True, "database": "ok"}
    log.warning("health: the database is unreachable (%s)", problem)
    return 503, {"ok": False, "database": "unreachable", "reason": problem.split(":")[0], "detail": MESSAGE}
