"""HTTP API of a game's chat: read by anyone with the game link, written by its seated players."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Header, Query, Request

from .limits import StrictJSONRoute

from .chat import PAGE
from .people import NeedsKey
from .people_api import key_header, social_of
from .people_schemas import ChatMessage, ChatPage, ChatPost
from .sessions import Forbidden

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
                        422: {"description": "empty, too long, too many lines, or control characters"},
                        429: {"description": "too many messages too fast (see Retry-After); nothing stored"}})
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
