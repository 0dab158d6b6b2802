"""The game server: authoritative sessions, durable storage, bots, HTTP and WebSocket API.

>>> from mysticvale.server import create_app
>>> app = create_app("sqlite:///data/mysticvale.db")     # doctest: +SKIP
"""

from .app import create_app
from .sessions import GameSession, SessionManager, bot_seed
from .storage import Storage, normalize_url, sqlite_url

__all__ = ["create_app", "GameSession", "SessionManager", "Storage", "bot_seed", "normalize_url", "sqlite_url"]
