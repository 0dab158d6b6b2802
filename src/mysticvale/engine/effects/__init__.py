"""The ability vocabulary, one module per set.  Importing this package registers every
effect in :data:`mysticvale.engine.registry.EFFECTS`."""

from . import base, twilight_garden, vale_of_magic  # noqa: F401  (registration)
from .base import usable

__all__ = ["usable"]
