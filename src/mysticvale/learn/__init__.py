"""Learning from self-play (issue 20): the positions of seeded games between bots, and who won.

:mod:`.selfplay` plays the games (on this machine's processes or a Ray cluster, with the
same results either way) and keeps, at the first decision of every turn, each seat's
features of the value model (:mod:`mysticvale.bots.value_model`) and the game's result, in a
file that a learner reads (:class:`.selfplay.Positions`).  ``mysticvale selfplay`` is its
command.
"""

from .selfplay import Positions, generate

__all__ = ["Positions", "generate"]
