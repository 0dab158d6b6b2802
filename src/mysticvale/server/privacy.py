"""Seat tokens stay out of URLs that reach logs and referrers.

A seat token is a password for one seat.  Where it travels:

- **Invitation links** carry it in the URL *fragment*: ``{public URL}/games/{id}#token=T``.  A
  browser never sends the fragment to any server (so no access log, proxy or referrer sees it);
  the page reads it and sends it as below.  The links are built from the server's configured
  public URL (``mysticvale serve --public-url``), never from the request's ``Host`` header, which
  a client chooses.
- **HTTP requests** send it in the ``X-Seat-Token`` header (:data:`SEAT_HEADER`); the action and
  undo bodies may carry it as ``token`` instead.
- **WebSockets** offer it as a subprotocol next to ``mysticvale``:
  ``new WebSocket(url, ["mysticvale", "mysticvale.token." + T])``; the server accepts the
  ``mysticvale`` protocol.  (Browsers cannot set headers on a WebSocket; tokens are URL-safe
  base64, which is a valid protocol name.)
- The old ``?token=T`` query parameter is still accepted on ``GET /state`` and the WebSocket, for
  clients not yet updated, but :class:`RedactTokens` removes every ``token=`` value from
  uvicorn's access and error logs.

Every HTTP answer carries ``Referrer-Policy: no-referrer`` (:class:`SecurityHeaders`), so no link
followed from a game page tells another site the page's address.  Every answer of the API that
does not say otherwise (the card catalogue may be cached) says ``Cache-Control: no-store``: states,
updates, a person's games, claims, new games and rematches carry seat tokens or a seat's private
view, which no browser cache or proxy may keep.
"""

from __future__ import annotations

import logging
import re
from typing import Any

#: The HTTP header that carries a seat token.
SEAT_HEADER = "X-Seat-Token"
#: The WebSocket subprotocol of the game; a token is offered as ``mysticvale.token.<T>``.
WS_PROTOCOL = "mysticvale"
WS_TOKEN_PREFIX = "mysticvale.token."

_TOKEN_IN_URL = re.compile(r"((?:^|[?&#;])token=)[^&\s\"#;]*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every ``token=...`` value of a URL replaced by ``***``."""
    return _TOKEN_IN_URL.sub(r"\1***", text) if "token=" in text.lower() else text


class RedactTokens(logging.Filter):
    """A logging filter that removes seat tokens from URLs in log lines (uvicorn's access log
    prints the path with its query string; its WebSocket lines do too)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()}
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        return True


def install_log_redaction() -> None:
    """Add :class:`RedactTokens` to uvicorn's loggers and their handlers (once)."""
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logger = logging.getLogger(name)
        targets: list[Any] = [logger, *logger.handlers]
        for t in targets:
            if not any(isinstance(f, RedactTokens) for f in t.filters):
                t.addFilter(RedactTokens())


def invitation_url(public_url: str, game_id: str, token: str | None) -> str:
    """The link that opens ``game_id`` (at ``token``'s seat, or as a spectator)."""
    base = f"{public_url.rstrip('/')}/games/{game_id}"
    return f"{base}#token={token}" if token else base


def websocket_token(scope: dict[str, Any]) -> tuple[str | None, str | None]:
    """(token offered as a subprotocol, the subprotocol to accept) of a WebSocket handshake."""
    token = None
    offered = scope.get("subprotocols") or []
    for p in offered:
        if p.startswith(WS_TOKEN_PREFIX):
            token = p[len(WS_TOKEN_PREFIX):]
    return token, (WS_PROTOCOL if WS_PROTOCOL in offered else None)


class SecurityHeaders:
    """ASGI middleware: ``Referrer-Policy: no-referrer`` and ``X-Content-Type-Options: nosniff`` on
    every HTTP answer, and ``Cache-Control: no-store`` on every answer under ``/api/`` that sets no
    caching of its own."""

    HEADERS = [(b"referrer-policy", b"no-referrer"), (b"x-content-type-options", b"nosniff")]
    NO_STORE = (b"cache-control", b"no-store")

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        api = scope.get("path", "").startswith("/api/")

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + self.HEADERS
                if api and not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append(self.NO_STORE)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
