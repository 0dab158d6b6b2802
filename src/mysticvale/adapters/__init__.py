"""Wrappers that plug Mystic Vale into research frameworks.

* :mod:`mysticvale.adapters.openspiel` registers the OpenSpiel game ``python_mystic_vale``
  (``pip install mysticvale[openspiel]``);
* :mod:`mysticvale.adapters.pettingzoo` provides ``env(...)``, a PettingZoo AEC
  environment (``pip install mysticvale[pettingzoo]``).

Both number actions with :mod:`mysticvale.codec` and see the game only through the public
API (``observe(seat)``, ``legal_actions()``, ``apply_action()``).  Importing this package
imports neither framework.
"""

from ._common import outcome, parse_sets

__all__ = ["outcome", "parse_sets"]
