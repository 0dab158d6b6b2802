"""Bounds on everything a stranger can ask of the server, and short answers to bad input.

- **Bodies** larger than :attr:`Limits.max_body` bytes are refused with 413 before they are read
  (FastAPI's ``max_body_size``: a declared length is refused at once, a streamed body as soon as
  it grows past the bound).
- **JSON** is read strictly (:func:`strict_loads`): ``NaN``, ``Infinity``, numbers that overflow
  to infinity (``1e400``) and integers longer than 30 digits are malformed input (422), not
  values that break the server later.
- **422 answers** say briefly what was wrong (:func:`describe_errors`) and never echo the input:
  FastAPI's default answer repeats every invalid value, so a large body gave a larger answer.
- **WebSocket messages** (:func:`receive_client_message`, the first message of every socket too):
  at most :attr:`Limits.max_message` characters of strict JSON (no nesting deeper than the decoder
  allows), at most :attr:`Limits.messages_per_10s` per socket and
  :attr:`Limits.messages_per_10s_per_address` across all sockets of one client address; a bad
  message gets an error message and the socket stays open.
- **Sockets per client** (:class:`SocketLimiter`): at most :attr:`Limits.sockets_per_address` open
  WebSockets (tables and lobbies together) per client address; one more is accepted and closed at
  once with code 4429 and the reason.  So one client cannot hold every game the server keeps in
  play (``max_live``) by opening sockets on many games.
- **Games per client** (:class:`CreationLimiter`): at most :attr:`Limits.games_per_minute` new
  games per client address and minute, of which at most :attr:`Limits.bot_only_per_minute`
  without a human seat; at most :attr:`Limits.max_bot_only_games` unfinished bot-only games on
  the server at once.  Counted per server process (the ``limits`` package, in memory): N
  processes behind a proxy let a client create up to N times as many.
- **Thinking time** per bot decision: at most :attr:`Limits.max_think` seconds (and bot moves
  are scheduled fairly: :mod:`mysticvale.server.scheduler`).
"""

from __future__ import annotations

import json
import math
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from typing import Any

from fastapi import Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.websockets import WebSocketDisconnect

from .sessions import DEFAULT_MAX_THINK, BadInput, GameError, TooMany, Unavailable

#: Longest integer literal (digits) accepted in JSON: a seed needs 19.
MAX_INT_DIGITS = 30
#: Longest 422 explanation (characters).
MAX_DETAIL = 400


@dataclass(frozen=True)
class Limits:
    """The server's bounds (``mysticvale serve`` options set some of them)."""

    #: Largest request body (bytes).  The largest legitimate body, a game with four bot seats, is
    #: well under 1 KiB.
    max_body: int = 16 * 1024
    #: Largest WebSocket message from a client (characters); uvicorn closes the socket for frames
    #: above 64 KiB before they reach the application.
    max_message: int = 4096
    #: WebSocket messages a socket may send per 10 seconds.
    messages_per_10s: int = 50
    #: ... and all sockets of one client address together.
    messages_per_10s_per_address: int = 100
    #: Open WebSockets (game tables and lobbies) per client address.
    sockets_per_address: int = 24
    #: Games a client address may create per minute.
    games_per_minute: int = 20
    #: ... of which without any human seat.
    bot_only_per_minute: int = 4
    #: Unfinished bot-only games on the server at once.
    max_bot_only_games: int = 32
    #: New people (display names with a personal key) a client address may make per 10 minutes.
    people_per_10min: int = 20
    #: Seats at public tables (open tables of the lobby) a client address may take per 10 minutes.
    joins_per_10min: int = 10
    #: Longest thinking time of a bot decision (seconds).
    max_think: float = DEFAULT_MAX_THINK


class TooLarge(GameError):
    status = 413


# -- JSON ------------------------------------------------------------------------------
class _Malformed(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _Malformed(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Malformed(f"the number {text[:20]} is too large")
    return value


def _short_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Malformed(f"an integer of {len(text)} digits is too long")
    return int(text)


def strict_loads(data: str | bytes) -> Any:
    """``json.loads`` for input from strangers: :class:`json.JSONDecodeError` also for NaN,
    Infinity, -Infinity, numbers beyond the float range, overlong integers and nesting deeper
    than the decoder's recursion limit."""
    doc = data.decode("utf-8", "replace") if isinstance(data, (bytes, bytearray)) else data
    try:
        return json.loads(data, parse_constant=_no_constant, parse_float=_finite, parse_int=_short_int)
    except json.JSONDecodeError:
        raise
    except (_Malformed, UnicodeDecodeError) as exc:
        raise json.JSONDecodeError(str(exc), doc, 0) from None
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply", doc, 0) from None


class _StrictJSONRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = strict_loads(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """A route whose JSON body is read by :func:`strict_loads` (FastAPI's custom route class)."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def strict_handler(request: Request):
            return await handler(_StrictJSONRequest(request.scope, request.receive))

        return strict_handler


# -- 422 -------------------------------------------------------------------------------
def describe_errors(errors: list[dict[str, Any]]) -> str:
    """A short explanation of validation errors: where and what, never the offending value."""
    parts = []
    for e in errors[:4]:
        loc = ".".join(str(x)[:32] for x in e.get("loc", ()) if x not in ("body", "query", "path"))
        msg = str(e.get("msg", "invalid"))
        if e.get("type") == "json_invalid":
            reason = str((e.get("ctx") or {}).get("error", ""))[:80]
            parts.append(f"the body is not valid JSON ({reason})" if reason else "the body is not valid JSON")
            continue
        parts.append(f"{loc}: {msg}" if loc else msg)
    if len(errors) > 4:
        parts.append(f"and {len(errors) - 4} more")
    text = "; ".join(parts) or "the request is malformed"
    return text if len(text) <= MAX_DETAIL else text[: MAX_DETAIL - 1] + "…"


async def validation_error_handler(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """422 with :func:`describe_errors` (FastAPI's default echoes the input)."""
    return JSONResponse({"detail": describe_errors(list(exc.errors()))}, status_code=422)


# -- WebSocket messages ----------------------------------------------------------------
class MessageLimiter:
    """At most ``Limits.messages_per_10s`` messages per socket, and
    ``Limits.messages_per_10s_per_address`` per client address over all its sockets, in any 10
    seconds (moving windows).

    Each socket keeps the times of its last messages, dropped with the socket; each address the
    times of its last messages, dropped when they are older than the window.  (The ``limits``
    library's memory storage, used for the other bounds, expires entries with a timer thread that
    restarts every 10 ms and walks every key: with hundreds of sockets that was about 5% of the
    server's CPU at 200 active games.)"""

    WINDOW = 10.0

    def __init__(self, limits: Limits) -> None:
        self.most = limits.messages_per_10s
        self.most_per_address = limits.messages_per_10s_per_address
        self._times: weakref.WeakKeyDictionary[Any, deque[float]] = weakref.WeakKeyDictionary()
        self._addresses: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _room(self, times: deque[float], now: float, most: int) -> bool:
        while times and now - times[0] >= self.WINDOW:
            times.popleft()
        return len(times) < most

    def hit(self, socket: Any, address: str | None = None) -> bool:
        """Count a message of ``socket`` (of client ``address``); False (not counted) if it is over
        either bound."""
        now = time.monotonic()
        with self._lock:
            times = self._times.get(socket)
            if times is None:
                times = self._times[socket] = deque()
            mine = None
            if address is not None:
                mine = self._addresses.get(address)
                if mine is None:
                    if len(self._addresses) > 10_000:       # forget idle addresses
                        for a in [a for a, d in self._addresses.items() if not d or now - d[-1] >= self.WINDOW]:
                            del self._addresses[a]
                    mine = self._addresses[address] = deque()
            if not self._room(times, now, self.most) or (mine is not None and not self._room(
                    mine, now, self.most_per_address)):
                return False
            times.append(now)
            if mine is not None:
                mine.append(now)
            return True


class TooManySockets(TooMany):
    """A client address that holds :attr:`Limits.sockets_per_address` open sockets asked for another."""


class SocketLimiter:
    """How many WebSockets each client address holds open (this process).

    :meth:`opened` counts a new socket or raises :class:`TooManySockets`; :meth:`closed` forgets it.
    Counted before the socket loads its game, so refused sockets hold nothing."""

    CLOSE_CODE = 4429

    def __init__(self, limits: Limits) -> None:
        self.most = limits.sockets_per_address
        self._open: dict[str, int] = {}
        self._lock = threading.Lock()

    def opened(self, address: str) -> None:
        with self._lock:
            n = self._open.get(address, 0)
            if n >= self.most:
                raise TooManySockets(f"your address has {self.most} connections open, the most this server "
                                     f"allows; close another tab of this game first")
            self._open[address] = n + 1

    def closed(self, address: str) -> None:
        with self._lock:
            n = self._open.get(address, 0) - 1
            if n > 0:
                self._open[address] = n
            else:
                self._open.pop(address, None)

    def count(self, address: str) -> int:
        with self._lock:
            return self._open.get(address, 0)


def client_address(connection: Request | WebSocket) -> str:
    """The client's address (behind a trusted proxy, the one it forwarded), as the bounds count it."""
    return connection.client.host if connection.client else "unknown"


async def receive_client_message(websocket: WebSocket, limits: Limits,
                                 limiter: MessageLimiter | None = None) -> dict[str, Any]:
    """The next message of a client as a JSON object.

    :class:`TooLarge`, :class:`TooMany` or :class:`BadInput` for a message that breaks the bounds
    (the socket stays usable); :class:`WebSocketDisconnect` when the client has gone.
    """
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    if limiter is not None and not limiter.hit(websocket, client_address(websocket)):
        raise TooMany(f"more than {limits.messages_per_10s} messages in 10 seconds on one connection, or "
                      f"{limits.messages_per_10s_per_address} from one address; this one was dropped")
    data = message.get("text")
    if data is None:
        data = message.get("bytes") or b""
    if len(data) > limits.max_message:
        raise TooLarge(f"a message may have at most {limits.max_message} characters")
    try:
        value = strict_loads(data)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise BadInput('messages must be JSON objects such as {"type": "action", "action": "push", "seq": 3}')
    return value


def whole_number(value: Any, name: str) -> int:
    """``value`` if it is a JSON integer (not true/false, not 1.0), else :class:`BadInput`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"'{name}' must be a whole number (the seq of the state the request was made in)")
    return value


# -- games per client --------------------------------------------------------------------
class CreationLimiter:
    """How many games each client address may create (see the module docstring)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._games = RateLimitItemPerMinute(limits.games_per_minute)
        self._bot_only = RateLimitItemPerMinute(limits.bot_only_per_minute)
        self._limiter = MovingWindowRateLimiter(MemoryStorage())

    def check(self, client: str, bot_only: bool, bot_only_games_now: int | None = None) -> None:
        """Whether ``client`` may create a game now: :class:`TooMany` / :class:`Unavailable` if over a bound."""
        if bot_only:
            if bot_only_games_now is not None and bot_only_games_now >= self.limits.max_bot_only_games:
                raise Unavailable(f"this server already runs {self.limits.max_bot_only_games} games without a "
                                  f"human seat; try again when one has ended")
            if not self._limiter.test(self._bot_only, "bot-only", client):
                raise TooMany(f"at most {self.limits.bot_only_per_minute} games without a human seat per "
                              f"minute; try again in a minute")
        if not self._limiter.test(self._games, "games", client):
            raise TooMany(f"at most {self.limits.games_per_minute} new games per minute; try again in a minute")

    def count(self, client: str, bot_only: bool) -> None:
        """Count a game ``client`` created."""
        self._limiter.hit(self._games, "games", client)
        if bot_only:
            self._limiter.hit(self._bot_only, "bot-only", client)


__all__ = ["Limits", "TooLarge", "strict_loads", "StrictJSONRoute", "describe_errors", "validation_error_handler",
           "MessageLimiter", "SocketLimiter", "TooManySockets", "client_address", "receive_client_message", "whole_number", "CreationLimiter"]
