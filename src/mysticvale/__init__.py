"""Mystic Vale: a rules engine, card catalogue, bots and play.

>>> import mysticvale as mv
>>> game = mv.new_game(players=2, seed=7)
>>> game.current_player in (0, 1)
True
>>> str(game.legal_actions()[0])
'push'
"""

from .engine.actions import Action
from .engine.game import Game, new_game
from .engine.rulesets import RULESETS
from .errors import (
    CatalogueError, IllegalActionError, InvalidActionError, MysticValeError, SaveError,
)

__all__ = [
    "Action", "Game", "new_game", "RULESETS", "CatalogueError", "IllegalActionError",
    "InvalidActionError", "MysticValeError", "SaveError",
]
__version__ = "0.1.0"
