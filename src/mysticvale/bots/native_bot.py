"""One decision at a time by a bot of the native core (``native/src/bots/``).

:class:`NativeBot` is a bot like the Python ones (``act(view) -> Action``), for a seat view of a
game of either engine, with the choices of its Python twin for the same seed and options
(``tests/native/``); only a time budget (``think``) lets it search further in the same time.
:func:`act_on_save` is the server's bot workers' way in: they get the game as its save, and the
native core reads a save without a Python game in between.
"""

from __future__ import annotations

from typing import Any

from ..engine import native
from ..engine.actions import Action
from .base import SeatView
from .native_batch import plays


def native_spec(name: str, options: dict[str, Any]) -> str:
    """The native core's spec of bot ``name`` with ``options``: ``ismcts:think=0.5``."""
    return ":".join([name, *(f"{key}={value}" for key, value in options.items())])


def has_bot(name: str, options: dict[str, Any] | None = None) -> bool:
    """Whether the native core is built and has this bot with these options."""
    return native.available() and plays([native_spec(name, options or {})])


class NativeBot:
    """Bot ``name`` of the native core with its seed and options (Python's ``make_bot`` words).

    ValueError, with the Python bot's message, for options it refuses; RuntimeError saying why
    when the core is not built."""

    def __init__(self, name: str, seed: int = 0, **options: Any) -> None:
        self.name = name
        self._core = native.module().NativeBot(native_spec(name, options), seed)

    def act(self, view: SeatView) -> Action:
        """The action the bot plays for the view's seat (ValueError when it has nothing to do)."""
        legal = view.legal_actions()
        if not legal:
            raise ValueError("the bot was asked to act when its seat has nothing to do")
        game = view._game
        from ..engine.native_game import NativeGame

        twin = game if isinstance(game, NativeGame) else NativeGame.from_json(game.to_json())
        return legal[self._core.act(twin._st, view.seat)]

    def act_on_save(self, game_json: str, seat: int) -> str:
        """The action (its notation) the bot plays for ``seat`` in the saved game ``game_json``."""
        from ..engine.native_game import NativeGame

        game = NativeGame.from_json(game_json)
        return str(self.act(SeatView(game, seat)))   # type: ignore[arg-type]


__all__ = ["NativeBot", "has_bot", "native_spec"]
