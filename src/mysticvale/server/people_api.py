"""HTTP and WebSocket API of people: names, personal keys, my games, claims, seats, settings.

The personal key travels only in the ``X-Player-Key`` header (in the first message on a
WebSocket, where browsers cannot set headers), never in a URL, and is never logged.  The hooks
:func:`install`, :func:`start`, :func:`stop`, :func:`creator`, :func:`plan_create`,
:func:`after_create` and :func:`after_rematch` are what ``app.py`` calls.
"""

from __future__ import annotations

import asyncio
import html
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import APIKeyHeader

from . import outage
from .limits import StrictJSONRoute, receive_client_message

from . import people as people_module
from .notify import FIRST_ATTEMPT_WAIT, MailSettings
from .notify import texts as mail_texts
from .people import FINISHED_LISTED, NeedsKey, Person, RateLimited, clean_name
from .people_schemas import (
    ClaimOut, ClaimRequest, ConfirmEmail, MyGame, MyGames, NewPerson, PersonOut, PersonWithKey, Rename, SeatsOut, SettingsIn,
    SettingsOut,
)
from .sessions import BadInput, Conflict, Forbidden, GameError, NotFound, SessionManager, TokenEnded, Unavailable
from .social import KEY_ENDED, Social, seats_message
from .storage import Storage

log = logging.getLogger("mysticvale.server.people")

#: Added to the API description on /docs.
DESCRIPTION = """
**People.**  `POST /api/people` with a display name makes a person and returns their secret
*personal key* (and a personal link, `/#key=K`, that restores the identity on another device).
Send the key as the `X-Player-Key` header, never in a URL.  With it: `POST /api/games` claims
your seat at once and keeps the other seats' invitation links for you; `POST
/api/games/{id}/claim` takes a seat with its invitation token or an open seat; `GET
/api/people/me/games` lists your games (your turn first) with your seat token for each, so you
can play any of them on any device; `WS /api/people/me/ws` tells you live when one changes.
A key never reveals anybody else's seats, tokens or hidden information.  401: no key sent;
403: a key that is nobody's.  A claim gives the seat a fresh token (the invitation's ends: 410
"already used").  `POST /api/people/me/key` replaces your key, `POST
/api/people/me/sign-out-everywhere` ends every key of yours; both answer the new key, close the
old key's sockets (4410) and replace the seat tokens it could read.

**Chat.**  `GET /api/games/{id}/chat` (anyone with the link), `POST` by a seated player (seat
token or personal key); plain text, length- and rate-limited (429 with `Retry-After`).
"""

key_header = APIKeyHeader(name="X-Player-Key", auto_error=False, scheme_name="PersonalKey",
                          description="your personal key (from POST /api/people)")

router = APIRouter(tags=["people"], route_class=StrictJSONRoute)   # NaN, Infinity, 1e400: 422

#: New people per client address per :data:`PEOPLE_WINDOW` seconds (default of
#: :attr:`Limits.people_per_10min`, ``mysticvale serve --people-per-10min``).
PEOPLE_PER_ADDRESS, PEOPLE_WINDOW = 20, 600.0
#: Confirmation e-mails one client address may ask for in an hour (over all the people it made).
CONFIRMATIONS_PER_ADDRESS = 6
#: Seconds a person's WebSocket has to send its key.
HELLO_TIMEOUT = 10.0
#: Seconds the lobby socket gathers changes before it sends the rows of the games that changed.
LOBBY_SETTLE = 0.25


# -- hooks for app.py -------------------------------------------------------------------
def install(app: FastAPI, *, mail: MailSettings | None = None, public_url: str | None = None,
            people_per_window: int = PEOPLE_PER_ADDRESS) -> None:
    """Add the people and chat routes to ``app`` (called once by ``create_app``)."""
    from . import chat_api

    app.state.social_config = {"mail": mail, "public_url": public_url}
    app.state.people_limiter = _AddressLimiter(people_per_window, PEOPLE_WINDOW)
    app.state.confirmation_limiter = _AddressLimiter(CONFIRMATIONS_PER_ADDRESS, 3600.0,
                                                     "too many confirmation e-mails from this address this hour; "
                                                     "try again later")
    app.include_router(router)
    app.include_router(chat_api.router)
    app.description = (app.description or "") + DESCRIPTION

    @app.exception_handler(RateLimited)
    async def _too_many(_request: Request, exc: RateLimited):
        body = {"detail": exc.message}
        if getattr(exc, "reason", None):
            body["reason"] = exc.reason
            body["params"] = getattr(exc, "params", {})
        return JSONResponse(body, status_code=429, headers={"Retry-After": str(exc.retry_after)})


def start(app: FastAPI, storage: Storage, manager: SessionManager) -> Social:
    """Start the service once the storage and sessions exist (called from the app's lifespan)."""
    cfg = getattr(app.state, "social_config", {})
    social = Social(storage, manager, mail=cfg.get("mail"), public_url=cfg.get("public_url"))
    social.start()
    app.state.social = social
    return social


def stop(app: FastAPI) -> None:
    social = getattr(app.state, "social", None)
    if social is not None:
        social.close()


def social_of(request: Request | WebSocket) -> Social:
    return request.app.state.social


def base_url(request: Request | WebSocket) -> str:
    """Where links point: the configured public URL; without one, links are relative ("/games/...").

    Never the request's ``Host`` header, which the client chooses.
    """
    public = social_of(request).public_url
    if not public:
        return "/"
    return public if public.endswith("/") else public + "/"


def game_url(base: str, game_id: str) -> str:
    return f"{base}games/{game_id}"


def seat_url(base: str, game_id: str, token: str) -> str:
    """An invitation link: the token in the fragment, which browsers never send to a server."""
    return f"{base}games/{game_id}#token={token}"


def person_link(base: str, key: str) -> str:
    return f"{base}#key={key}"


def creator(request: Request, key: str | None = Depends(key_header)) -> Person | None:
    """(A dependency of ``POST /api/games``.)  The person creating the game, if a key was sent."""
    if key is None:
        return None
    return _person_from_key(request, key)


@dataclass(frozen=True)
class CreatePlan:
    creator: Person | None
    creator_seat: int | None
    open_seats: tuple[int, ...]


def plan_create(body: Any, person: Person | None) -> CreatePlan:
    """Check the people options of a new game before anything is stored; :class:`BadInput` if unfit."""
    bots = {int(k) for k in body.bots}
    humans = [s for s in range(body.players) if s not in bots]
    for s in body.open_seats:
        if s >= body.players:
            raise BadInput(f"open seat {s} does not exist in a {body.players}-player game")
        if s in bots:
            raise BadInput(f"seat {s} is a bot: it cannot be an open seat")
    seat = body.creator_seat
    if seat is not None:
        if person is None:
            raise BadInput("creator_seat needs your personal key (the X-Player-Key header)")
        if seat not in humans:
            raise BadInput(f"creator_seat {seat} is not a human seat of this game")
        if seat in body.open_seats:
            raise BadInput(f"creator_seat {seat} cannot also be an open seat")
    elif person is not None:
        seat = next((s for s in humans if s not in body.open_seats), None)
    return CreatePlan(person, seat if person is not None else None, tuple(body.open_seats))


def after_create(request: Request, plan: CreatePlan, game_id: str, tokens: dict[int, str],
                 response: dict[str, Any]) -> None:
    """Store the creator, their claim, the invitations and open seats; name and open the seats in ``response``."""
    social = social_of(request)
    social.people.record_game(game_id, plan.creator, plan.creator_seat, tokens, plan.open_seats)
    seats = []
    for link in response["seats"]:
        link = link.model_dump() if hasattr(link, "model_dump") else dict(link)
        if link["seat"] in plan.open_seats:           # its token goes to whoever claims it, not to the creator
            link.update(token=None, url=response["spectator_url"], open=True)
        if plan.creator is not None and link["seat"] == plan.creator_seat:
            link["name"] = plan.creator.name
        seats.append(link)
    response["seats"] = seats
    social.activity(game_id)


def after_rematch(request: Request, old_id: str, new_id: str, seat: int, response: dict[str, Any]) -> None:
    """After ``POST /api/games/{id}/rematch`` (every time it is asked): keep the seats' holders, the
    creator, the invitations and the open seats in the rematch, tell the people's lobbies, and name
    and open the seats in ``response`` (an open seat's link is the game link, as at creation)."""
    social = social_of(request)
    social.rematch_started(old_id, new_id)
    holders = {h.seat: h for h in social.people.holders(new_id)}
    seats = []
    for link in response["seats"]:
        link = link.model_dump() if hasattr(link, "model_dump") else dict(link)
        h = holders.get(link["seat"])
        if h is not None:
            link["name"] = h.name
            link["open"] = h.open
            if h.open and link["seat"] != seat:
                link.update(token=None, url=response["spectator_url"])
        seats.append(link)
    response["seats"] = seats


# -- helpers ----------------------------------------------------------------------------
class _AddressLimiter:
    """At most ``limit`` events per client address in ``window`` seconds (this process)."""

    def __init__(self, limit: int, window: float,
                 message: str = "too many new names from this address; try again later") -> None:
        self.limit, self.window, self.message = limit, window, message
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, address: str) -> None:
        """Count one event of ``address``; :class:`RateLimited` (nothing counted) past the limit."""
        self.check(address)
        self.count(address)

    def check(self, address: str) -> None:
        """:class:`RateLimited` if ``address`` has had its most events in the window."""
        now = time.monotonic()
        with self._lock:
            q = self._events.setdefault(address, deque())
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.limit:
                raise RateLimited(self.message, q[0] + self.window - now)

    def count(self, address: str) -> None:
        """Count one event of ``address`` (after :meth:`check`, once it happened)."""
        with self._lock:
            self._events.setdefault(address, deque()).append(time.monotonic())
            if len(self._events) > 10_000:      # forget idle addresses
                for a in [a for a, d in self._events.items() if not d]:
                    del self._events[a]


def _person_from_key(request: Request | WebSocket, key: str | None) -> Person:
    if not key:
        raise NeedsKey("send your personal key in the X-Player-Key header")
    person = social_of(request).people.authenticate(key)
    if person is None:
        raise Forbidden("this personal key belongs to nobody")
    return person


def me(request: Request, key: str | None = Depends(key_header)) -> Person:
    """(A dependency.)  The person of the X-Player-Key header: 401 without one, 403 for a wrong one."""
    return _person_from_key(request, key)


def _rows(request: Request | WebSocket, person: Person, **kw: Any) -> list[dict[str, Any]]:
    from . import meeting_api       # issue 21: table names, seats' public ids and ratings
    base = base_url(request)
    rows = social_of(request).people.game_rows(person, **kw)
    for r in rows:
        r["url"] = game_url(base, r["id"])
        for inv in r["invitations"]:
            inv["url"] = seat_url(base, r["id"], inv["token"])
    return meeting_api.decorate_rows(request, rows)


def _settings_out(social: Social, person_id: str, delivered: str | None = None) -> dict[str, Any]:
    s = social.people.settings(person_id)
    mailer = social.mailer
    state = None
    if mailer is not None and s.email and not s.email_confirmed:
        state = mailer.confirmation_state(person_id)
    return {"email": s.email, "email_confirmed": s.email_confirmed, "email_turns": s.email_turns, "sound": s.sound,
            "language": s.language, "email_available": mailer is not None,
            "confirmation_sent": delivered == "sent",
            "confirmation": state if state in ("queued", "sent", "retrying", "failed") else None}


def _send_confirmation(request: Request, person_id: str, email: str, language: str | None, code: str) -> str | None:
    """Queue the confirmation e-mail and wait (a little) for its first attempt: the answer says
    whether it went out, never that it did when the SMTP server refused it.  Returns its state."""
    mailer = social_of(request).mailer
    return mailer.wait_first_attempt(mailer.queue_confirmation(person_id, email, language, code), FIRST_ATTEMPT_WAIT)


def _confirmations_from(request: Request) -> Any:
    """:class:`RateLimited` past the confirmation e-mails one client address may ask for; returns
    the function that counts one (call it once the e-mail is made)."""
    limiter, address = request.app.state.confirmation_limiter, request.client.host if request.client else "?"
    limiter.check(address)
    return lambda: limiter.count(address)


_AUTH = {401: {"description": "no personal key sent"}, 403: {"description": "a personal key that is nobody's"}}


# -- people -----------------------------------------------------------------------------
@router.post("/api/people", status_code=201, response_model=PersonWithKey, summary="Pick a name",
             responses={409: {"description": "the name is somebody's, or looks like one in use (reason: name_taken)"},
                        422: {"description": "an unfit name (reason: invisible, bidi, marks, no_letter, too_long, "
                                             "reserved)"},
                        429: {"description": "too many new names"}})
def create_person(body: NewPerson, request: Request) -> dict:
    """Make a person with this display name.  The answer holds the secret personal key, shown only
    this once: the browser keeps it and sends it as `X-Player-Key`.  The personal `link` restores the
    identity on another device (the key in its fragment)."""
    social = social_of(request)
    name = clean_name(body.name)                   # refuse an unfit name before it counts against the limit
    request.app.state.people_limiter.take(request.client.host if request.client else "?")
    person, key = social.people.create(name)
    return {"id": person.id, "name": person.name, "key": key, "link": person_link(base_url(request), key)}


@router.get("/api/people/me", response_model=PersonOut, summary="Who am I", responses=_AUTH)
def get_me(person: Person = Depends(me)) -> dict:
    """The person of the key."""
    return {"id": person.id, "name": person.name}


@router.patch("/api/people/me", response_model=PersonOut, summary="Change my name",
              responses={**_AUTH, 409: {"description": "the name is somebody's, or looks like one in use"},
                         422: {"description": "an unfit name"}})
def rename(body: Rename, request: Request, person: Person = Depends(me)) -> dict:
    """A new display name, shown at every seat you hold."""
    social = social_of(request)
    person = social.people.rename(person, body.name)
    for game_id in [r["id"] for r in social.people.game_rows(person, finished=0)]:
        social.publish_seats(game_id)
        social.activity(game_id)
    return {"id": person.id, "name": person.name}


@router.post("/api/people/me/key", response_model=PersonWithKey, summary="Replace my personal key",
             responses=_AUTH)
def replace_key(request: Request, person: Person = Depends(me)) -> dict:
    """A new personal key (and link) for you; the key sent with this request stops working at once, on
    every device: its open lobby sockets close (code 4410).  Every seat token that key could read (your
    seats, the invitations you keep) is replaced too, so copies of them stop working (410) and game
    sockets opened with them close (4410); read the new ones with the new key.  Use it if your personal
    link was seen by somebody else."""
    return _new_key(request, person, everywhere=False)


@router.post("/api/people/me/sign-out-everywhere", response_model=PersonWithKey, summary="Sign out everywhere",
             responses=_AUTH)
def sign_out_everywhere(request: Request, person: Person = Depends(me)) -> dict:
    """Every personal key of yours stops working at once, on every device, and this device gets a new
    one (in the answer): as replacing the key, for all of them (their sockets close with 4410, the seat
    tokens they could read are replaced)."""
    return _new_key(request, person, everywhere=True)


def _new_key(request: Request, person: Person, *, everywhere: bool) -> dict:
    social = social_of(request)
    key, changed = social.people.replace_key(person, everywhere=everywhere)
    social.key_ended(person.id, changed)
    return {"id": person.id, "name": person.name, "key": key, "link": person_link(base_url(request), key)}


@router.get("/api/people/me/settings", response_model=SettingsOut, summary="My settings", responses=_AUTH)
def get_settings(request: Request, person: Person = Depends(me)) -> dict:
    """Your e-mail address and notification settings, and whether this server sends e-mail at all."""
    return _settings_out(social_of(request), person.id)


@router.patch("/api/people/me/settings", response_model=SettingsOut, summary="Change my settings",
              responses={**_AUTH, 422: {"description": "an invalid address or language; turn e-mails without an "
                                                        "address"},
                         429: {"description": "too many confirmation e-mails this hour"}})
def patch_settings(body: SettingsIn, request: Request, person: Person = Depends(me)) -> dict:
    """Change the fields given.  A new address gets a confirmation link by e-mail (when this server sends
    e-mail); "your turn" e-mails go only to a confirmed address, at most one per turn, and only when it
    has been your turn for a while without you acting."""
    social = social_of(request)
    given = body.model_fields_set
    changes = {k: getattr(body, k) for k in ("email", "email_turns", "sound", "language") if k in given}
    if changes.get("email_turns") is None and "email_turns" in changes:
        raise BadInput("email_turns is true or false")
    old = social.people.settings(person.id)
    mails = social.mailer is not None and "email" in changes and changes["email"] and \
        people_module.clean_email(changes["email"]) != old.email
    counted = _confirmations_from(request) if mails else None
    settings, code = social.people.save_settings(person.id, confirm=social.mailer is not None, **changes)
    delivery = None
    if code is not None:
        if counted is not None:
            counted()
        delivery = _send_confirmation(request, person.id, settings.email, settings.language, code)
    elif social.mailer is not None and settings.email != old.email:
        social.mailer.forget_confirmation(person.id)       # no address now: nothing to retry
    return _settings_out(social, person.id, delivery)


@router.post("/api/people/me/settings/confirm-email", response_model=SettingsOut, summary="Send the link again",
             responses={**_AUTH, 409: {"description": "no address to confirm, or already confirmed"},
                        429: {"description": "too many confirmation e-mails this hour"},
                        503: {"description": "this server sends no e-mail"}})
def resend_confirmation(request: Request, person: Person = Depends(me)) -> dict:
    """Mail the confirmation link for your address again."""
    social = social_of(request)
    if social.mailer is None:
        raise Unavailable("this server sends no e-mail (it runs without --smtp)")
    s = social.people.settings(person.id)
    if not s.email or s.email_confirmed:
        raise Conflict("there is no unconfirmed e-mail address to confirm")
    counted = _confirmations_from(request)
    code = social.people.new_confirmation(person.id, s.email)
    counted()
    delivery = _send_confirmation(request, person.id, s.email, s.language, code)
    return _settings_out(social, person.id, delivery)


_CONFIRM_PAGE = """<!doctype html><html lang="{lang}"><meta charset="utf-8"><meta name="viewport"
content="width=device-width"><title>Mystic Vale: {title}</title>
<body style="font-family:sans-serif;max-width:32em;margin:3em auto;padding:0 1em">
<h1>Mystic Vale</h1><main id="confirm-email" data-done="{done}" data-unknown="{unknown}" data-no-code="{no_code}"
data-failed="{failed}"><p id="confirm-text">{ask}</p><button type="button" id="confirm-btn">{button}</button></main>
<script type="module" src="/static/js/confirmemail.js"></script></body></html>"""


def page_language(request: Request) -> str:
    """The first language of the request's ``Accept-Language`` that the mail texts have (else English)."""
    for part in (request.headers.get("accept-language") or "").split(","):
        lang = part.split(";")[0].strip().lower()[:2]
        if lang in ("en", "de"):
            return lang
    return "en"


@router.get("/confirm-email", response_class=HTMLResponse, summary="Confirmation page", tags=["people"])
def confirm_page(request: Request) -> HTMLResponse:
    """The page an e-mailed confirmation link opens (`/confirm-email#code=...`: the code is in the
    fragment, which browsers never send, so it is in no access log).  Its script reads the code and
    removes it from the address bar; one button posts it (a link preview confirms nothing)."""
    lang = page_language(request)
    t = mail_texts(lang)["page"]
    return HTMLResponse(_CONFIRM_PAGE.format(lang=lang, **{k: html.escape(v, quote=True) for k, v in t.items()}))


@router.post("/api/people/email/confirm", summary="Confirm an address", tags=["people"],
             responses={404: {"description": "unknown or expired code, or the address changed since"}})
def confirm_email(body: ConfirmEmail, request: Request) -> dict:
    """Use the one-time code of a confirmation e-mail (sent in the body, never in a URL)."""
    social = social_of(request)
    ok = social.people.confirm_email(body.code)
    if not ok:
        raise NotFound("this code is unknown, used or expired, or the address was changed since; ask for a new "
                       "link in the settings")
    return {"confirmed": True}


# -- my games ---------------------------------------------------------------------------
@router.get("/api/people/me/games", response_model=MyGames, summary="My games", responses=_AUTH)
def my_games(request: Request, person: Person = Depends(me),
             finished: int = Query(FINISHED_LISTED, ge=0, le=500,
                                   description="how many finished games to list (the most recent)")) -> dict:
    """Every game where you hold a seat or that you created: your turn first, then running, then
    finished.  Each with everybody's names, round, whose turn, last activity, your seat's token and,
    if you created it, the invitations nobody has claimed yet.  Games you only watched are not listed."""
    return {"games": _rows(request, person, finished=finished)}


@router.get("/api/people/me/games/{game_id}", response_model=MyGame, summary="One of my games",
            responses={**_AUTH, 404: {"description": "not a game of yours"}})
def my_game(game_id: str, request: Request, person: Person = Depends(me)) -> dict:
    """One row of `GET /api/people/me/games`."""
    rows = _rows(request, person, only=game_id, finished=1)
    if not rows:
        raise NotFound("you hold no seat in this game and did not create it")
    return rows[0]


#: The WebSocket subprotocol of the game (as the game's socket); the key is offered as ``mysticvale.key.<K>``.
WS_PROTOCOL = "mysticvale"
WS_KEY_PREFIX = "mysticvale.key."


@router.websocket("/api/people/me/ws")
async def my_games_socket(websocket: WebSocket) -> None:
    """Live updates of your games.

    The key is offered as a subprotocol, ``new WebSocket(url, ["mysticvale", "mysticvale.key." + K])``
    (browsers cannot set headers on a WebSocket; the game's socket takes seat tokens the same way),
    or sent as the first message ``{"type": "hello", "key": K}``.  The server then sends
    ``{"type": "games", "games": [MyGame...]}`` and, whenever one of your games changes or a new one
    is yours, ``{"type": "game", "game": MyGame}``.  ``{"type": "ping"}`` is answered with
    ``{"type": "pong"}``.  No key, or a wrong one: ``{"type": "error", ...}`` and the socket closes
    with 4401 or 4403.
    """
    from .app import socket_bound       # the bound on sockets per client address (issue 22)

    offered = websocket.scope.get("subprotocols") or []
    protocol = WS_PROTOCOL if WS_PROTOCOL in offered else None
    async with socket_bound(websocket, protocol) as admitted:
        if admitted:
            await _lobby_socket(websocket, offered, protocol)


async def _lobby_socket(websocket: WebSocket, offered: list[str], protocol: str | None) -> None:
    key = next((p[len(WS_KEY_PREFIX):] for p in offered if p.startswith(WS_KEY_PREFIX)), None)
    await websocket.accept(subprotocol=protocol)
    limits, limiter = websocket.app.state.limits, websocket.app.state.messages
    if key is None:
        # The first message is read as every socket's message is (limits.receive_client_message):
        # bounded, strict JSON, nesting refused; anything else than a hello is refused.
        try:
            hello = await asyncio.wait_for(receive_client_message(websocket, limits, limiter), HELLO_TIMEOUT)
        except (asyncio.TimeoutError, GameError, WebSocketDisconnect):
            await _refuse(websocket, 'offer your key as a subprotocol or send {"type": "hello", "key": ...} first',
                          401)
            return
        key = hello.get("key") if isinstance(hello, dict) and hello.get("type") == "hello" else None
        if not isinstance(key, str) or not key:
            await _refuse(websocket, 'offer your key as a subprotocol or send {"type": "hello", "key": ...} first',
                          401)
            return
    social = social_of(websocket)
    try:
        person = await run_in_threadpool(social.people.authenticate, key)
    except outage.DATABASE_ERRORS as exc:
        await outage.refuse_socket(websocket, "lobby socket", exc)
        return
    if person is None:
        await _refuse(websocket, "this personal key belongs to nobody", 403)
        return
    queue: asyncio.Queue = asyncio.Queue()
    sub = social.hub.subscribe(("person", person.id), asyncio.get_running_loop(), queue)

    async def push() -> None:
        try:
            rows = await run_in_threadpool(_rows, websocket, person)
            await websocket.send_json({"type": "games", "games": _jsonable(rows)})
            while True:
                changed = {await queue.get()}
                if KEY_ENDED not in changed:
                    await asyncio.sleep(LOBBY_SETTLE)  # a game in quick play changes many times a second:
                while not queue.empty():               # its row is sent once for all of them
                    changed.add(queue.get_nowait())
                # The key this socket was opened with may have ended (replaced, signed out everywhere,
                # perhaps in another server process): then nothing more is sent, and the socket closes.
                if not await run_in_threadpool(social.people.key_works, key):
                    # The open tables' feed stops first: nothing may come between the 410 and the close.
                    if directory is not None:
                        directory.cancel()
                        await asyncio.wait({directory})
                    await _refuse(websocket, "this personal key was replaced or signed out everywhere", 410)
                    return
                changed.discard(KEY_ENDED)
                for game_id in sorted(changed):
                    rows = await run_in_threadpool(_rows, websocket, person, only=game_id, finished=1)
                    if rows:
                        await websocket.send_json({"type": "game", "game": _jsonable(rows)[0]})
        except (WebSocketDisconnect, RuntimeError):   # the client went away mid-send
            pass
        except outage.DATABASE_ERRORS as exc:          # the database is away: the client reconnects
            await outage.refuse_socket(websocket, f"person {person.id}: lobby socket", exc)
        except Exception:
            log.exception("person %s: the lobby socket could not be served", person.id)
            await _refuse(websocket, "the server could not read your games; reconnect in a moment", 503)

    directory: asyncio.Task | None = None
    pusher = asyncio.create_task(push())
    try:
        while True:
            try:
                msg = await receive_client_message(websocket, limits, limiter)
            except GameError as exc:            # too large, too many, not a JSON object
                await websocket.send_json({"type": "error", "message": exc.message, "status": exc.status})
                continue
            if msg.get("type") == "ping":
                await websocket.send_json({"type": "pong"})
            elif msg.get("type") == "tables":
                if directory is None:       # issue 21: the open tables, live, for a lobby that asks
                    from . import meeting_api
                    directory = asyncio.create_task(meeting_api.directory_feed(websocket))
            else:
                await websocket.send_json({"type": "error", "message": 'only {"type": "ping"} and {"type": '
                                                                      '"tables"} may be sent', "status": 422})
    except (WebSocketDisconnect, ValueError, KeyError, RuntimeError):
        pass
    finally:
        social.hub.unsubscribe(sub)
        pusher.cancel()
        if directory is not None:
            directory.cancel()


async def _refuse(websocket: WebSocket, message: str, status: int) -> None:
    try:
        await websocket.send_json({"type": "error", "message": message, "status": status})
        await websocket.close(code=4000 + status, reason=message[:120])
    except (WebSocketDisconnect, RuntimeError):
        pass


def _jsonable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [MyGame.model_validate(r).model_dump() for r in rows]


# -- seats of a game --------------------------------------------------------------------
@router.get("/api/games/{game_id}/seats", response_model=SeatsOut, summary="Who sits where", tags=["games"],
            responses={404: {"description": "unknown game"}})
def game_seats(game_id: str, request: Request) -> dict:
    """Each seat with its bot, the name of the person holding it, and whether it is an open seat anyone
    with the link may claim.  No secret; the same for everybody."""
    social = social_of(request)
    social.manager.get(game_id)                         # 404 for an unknown game
    return {"seats": seats_message(social.people.holders(game_id))["seats"]}


@router.post("/api/games/{game_id}/claim", response_model=ClaimOut, summary="Take a seat", tags=["games"],
             responses={**_AUTH, 404: {"description": "unknown game"},
                        409: {"description": "the seat is somebody else's, you hold another seat of this game, or "
                                             "the seat is not open"},
                        410: {"description": "an invitation somebody else already used"},
                        422: {"description": "neither or both of token and seat"}})
def claim(game_id: str, body: ClaimRequest, request: Request, person: Person = Depends(me)) -> dict:
    """Take a seat under your name: with `token` (the seat's invitation), or with `seat` for an open seat.
    First come, first served; one seat per person per game; claiming a seat you hold again (also with
    the invitation you used) changes nothing.  The answer holds the seat's token, a fresh one: the token
    it was claimed with ends (410 "this invitation was already used" from then on).  You can read it
    again from any device with your key."""
    social = social_of(request)
    session = social.manager.get(game_id)
    if body.token is not None:
        try:
            seat = session.seat_for_token(body.token)   # 403 for a token of no seat of this game
        except TokenEnded as ended:
            # An invitation used already, by this very person (a second tab, a reload): their seat.
            if social.people.holder_of(game_id, ended.seat) != person.id:
                raise
            seat = ended.seat
            rows = _rows(request, person, only=game_id, finished=1)
            return {"seat": seat, "token": rows[0]["token"], "new": False, "game": rows[0]}
        token = body.token
    else:
        seat, token = body.seat, None
        if seat >= len(session.seats):
            raise NotFound(f"this game has no seat {seat}")
    from . import meeting_api       # issue 21: the bounds on taking seats at public tables
    public = token is None and meeting_api.check_open_claim(request, person, game_id)
    claimed = social.people.claim(person, game_id, seat, token)
    if claimed.new and public:
        meeting_api.open_claimed(request, person)
    if claimed.new:
        social.claimed(game_id)         # the fresh token replaces the one claimed with, here and elsewhere
    return {"seat": claimed.seat, "token": claimed.token, "new": claimed.new,
            "game": _rows(request, person, only=game_id, finished=1)[0]}
