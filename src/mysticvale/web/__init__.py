"""The browser client: static files (``static/``) that render observations and send actions.

The client holds no rules.  It reads ``GET /api/games/{id}/state`` and the WebSocket pushes,
draws the table from ``observation`` and makes exactly the strings in ``legal_actions``
clickable.  ``STATIC_DIR`` is the folder the server mounts at ``/static/``.
"""

from __future__ import annotations

from pathlib import Path

#: Folder of index.html, app.js and style.css (served at ``/`` and ``/static/``).
STATIC_DIR: Path = Path(__file__).resolve().parent / "static"

__all__ = ["STATIC_DIR"]
