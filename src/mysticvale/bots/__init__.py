"""Bots: from random to search-based.  ``make_bot(name, seed)`` builds one by name.

The names are the four levels a player chooses by strength (:mod:`.levels`: ``seedling``,
``wanderer``, ``druid``, ``archdruid``, each a fixed configuration of a bot below) and the
bots themselves (``random``, ``greedy``, ``ismcts``), kept for comparison and research."""

from __future__ import annotations

from typing import Callable

from .base import Bot, RandomBot, SeatView
from .levels import expand, levels

#: Bot factories by name: each takes (seed, **options).
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def register(name: str, factory: Callable[..., Bot]) -> None:
    BOTS[name] = factory


def make_bot(name: str, seed: int = 0, **options) -> Bot:
    """A bot by name (a level's name builds its bot with the level's options); a clear error
    for an unknown name, or for options given to a level."""
    _load_all()
    name, options = expand(name, options)
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bot_names())}") from None
    return factory(seed=seed, **options)


def bot_names() -> list[str]:
    """Every bot name ``make_bot`` takes: the levels from the gentlest to the strongest, then
    the bots themselves in alphabetical order."""
    _load_all()
    return [lv.name for lv in levels()] + sorted(BOTS)


def _load_all() -> None:
    # Bot modules register themselves on import.
    from importlib import import_module
    for mod in ("greedy", "ismcts"):
        try:
            import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{mod}":
                raise


__all__ = ["BOTS", "Bot", "RandomBot", "SeatView", "make_bot", "bot_names", "register"]
