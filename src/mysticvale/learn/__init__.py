"""Learning from self-play (issue 20): the positions of seeded games between bots, who won,
and the value network fitted to them.

:mod:`.selfplay` plays the games (on this machine's processes or a Ray cluster, with the
same results either way, on the Python engine or the native core) and keeps, at the first
decision of every turn, each seat's features of the value model
(:mod:`mysticvale.bots.value_model`), the start player and the game's result, in a file that
a learner reads (:class:`.selfplay.Positions`); ``mysticvale selfplay`` is its command.
:mod:`.train` fits the value network (:mod:`mysticvale.bots.value_net`) to such files with
scikit-learn (the ``learn`` extra); ``mysticvale train`` is its command.
"""

from .selfplay import Positions, generate

__all__ = ["Positions", "generate"]
