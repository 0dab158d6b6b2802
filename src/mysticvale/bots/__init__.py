"""Bots: from random to search-based.  ``make_bot(name, seed)`` builds one by name."""

from __future__ import annotations

from typing import Callable

from .base import Bot, RandomBot, SeatView

#: Bot factories by name: each takes (seed, **options).
BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def register(name: str, factory: Callable[..., Bot]) -> None:
    BOTS[name] = factory


def make_bot(name: str, seed: int = 0, **options) -> Bot:
    """A bot by name; a clear error for an unknown name."""
    _load_all()
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed=seed, **options)


def bot_names() -> list[str]:
    _load_all()
    return sorted(BOTS)


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
