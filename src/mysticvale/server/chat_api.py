"""A game's chat: read by anyone with the game link, written by its seated players.

Over HTTP (the routes below) and over the game's WebSocket (:func:`forward_table` and
:func:`socket_chat`, which ``app._serve_socket`` calls): every table socket receives each new
message and each change of who sits where as it happens, and a seated socket may write.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool

from .limits import StrictJSONRoute

from .chat import PAGE
from .people import NeedsKey, RateLimited
from .people_api import key_header, social_of
from .people_schemas import ChatMessage, ChatPage, ChatPost
from .sessions import Forbidden, GameError
from .social import Social, table_feed

router = APIRouter(tags=["chat"], route_class=StrictJSONRoute)


@router.get("/api/games/{game_id}/chat", response_model=ChatPage, summary="Read the chat",
            responses={404: {"description": "unknown game"}})
def read_chat(game_id: str, request: Request,
              after: int | None = Query(None, ge=0, description="only messages numbered above this (omit: the newest "
                                                                f"{PAGE})"),
              limit: int = Query(PAGE, ge=1, le=PAGE, description="at most this many messages")) -> dict:
    """The game's chat, oldest first.  Everybody with the game link may read it (spectators too); the
    text is exactly what was written: show it as text."""
    social = social_of(request)
    social.manager.get(game_id)                     # 404 for an unknown game
    return {"messages": social.chat.messages(game_id, after=after, limit=limit), "last": social.chat.last(game_id)}


@router.post("/api/games/{game_id}/chat", status_code=201, response_model=ChatMessage, summary="Write in the chat",
             responses={401: {"description": "neither a seat token nor a personal key was sent"},
                        403: {"description": "not a seated player of this game (spectators only read)"},
                        404: {"description": "unknown game"},
                        422: {"description": "empty or invisible, too long, too many lines, control or bidi "
                                             "characters, stray combining marks (``reason`` says which)"},
                        429: {"description": "too many messages too fast, or the game's chat is full for the hour "
                                             "or the day (see Retry-After; ``reason``); nothing stored"}})
def write_chat(game_id: str, body: ChatPost, request: Request, key: str | None = Depends(key_header),
               x_seat_token: str | None = Header(None, max_length=128, description="your seat token")) -> dict:
    """Post a message as the seat of your seat token (the `X-Seat-Token` header, or `token` in the body),
    or as the seat you hold (your personal key in `X-Player-Key`).  Everybody at the table receives it live."""
    social = social_of(request)
    session = social.manager.get(game_id)
    token = x_seat_token or body.token
    if token is not None:
        seat = session.seat_for_token(token)            # 403 for a token of no seat of this game
    elif key is not None:
        person = social.people.authenticate(key)
        if person is None:
            raise Forbidden("this personal key belongs to nobody")
        seat = next((h.seat for h in social.people.holders(game_id) if h.person_id == person.id), None)
        if seat is None:
            raise Forbidden("you hold no seat in this game: spectators read the chat but do not write")
    else:
        raise NeedsKey("send your seat token (X-Seat-Token) or your personal key (X-Player-Key) to write")
    if session.seats[seat].bot is not None:
        raise Forbidden("bots do not chat")
    return social.post_chat(game_id, seat, body.text)


# -- the game's WebSocket -----------------------------------------------------------------
async def forward_table(websocket: WebSocket, social: Social, game_id: str) -> None:
    """Send the table's live messages to the socket as they come (``{"type": "chat", "message": ...}``,
    ``{"type": "seats", "seats": [...]}``), until the socket ends or the task is cancelled (the feed
    then unsubscribes).  Start it before the socket's first state is sent: it subscribes at its
    first step, so a client that has its first state hears of every message written after it."""
    feed = table_feed(social, game_id)
    try:
        async for message in feed:
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError):     # the client went away mid-send
        pass
    finally:
        await feed.aclose()


async def socket_chat(websocket: WebSocket, social: Social, game_id: str, seat: int | None,
                      msg: dict[str, Any]) -> None:
    """``{"type": "chat", "text": T}`` from a table socket: written as ``seat`` (it comes back to every
    table socket, this one too, as a ``chat`` message), or refused with ``{"type": "error", ...}``:
    403 for a spectator, 422 for an unfit text, 429 (with ``retry_after`` seconds) when too fast.
    A refused message stores nothing and leaves the socket open."""
    try:
        if seat is None:
            raise Forbidden("spectators read the chat but do not write; open the game with a seat's token")
        await run_in_threadpool(social.post_chat, game_id, seat, msg.get("text"))
    except GameError as exc:
        error: dict[str, Any] = {"type": "error", "message": exc.message, "status": exc.status}
        if isinstance(exc, RateLimited):
            error["retry_after"] = exc.retry_after
        if getattr(exc, "reason", None):        # which rule refused it, for the page's language
            error["reason"] = exc.reason
            error["params"] = getattr(exc, "params", {})
        await websocket.send_json(error)
