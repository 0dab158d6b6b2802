"""Mystic Vale: a rules engine, card catalogue, bots and play.

>>> import mysticvale as mv
>>> game = mv.new_game(players=2, seed=7)
>>> game.current_player in (0, 1)
True
>>> str(game.legal_actions()[0])
'push'
"""

from . import _compiled

# Before any compiled module loads: prefer the source when asked to or when a build is stale.
_compiled.install()

from .engine.actions import Action  # noqa: E402
from .engine.game import Game, new_game  # noqa: E402
from .engine.native import available as native_available  # noqa: E402
from .engine.rulesets import RULESETS  # noqa: E402
from .errors import (  # noqa: E402
    CatalogueError, IllegalActionError, InvalidActionError, MysticValeError, SaveError,
)

__all__ = [
    "Action", "Game", "new_game", "RULESETS", "CatalogueError", "IllegalActionError",
    "InvalidActionError", "MysticValeError", "SaveError", "native_available",
]
__version__ = "0.1.0"
