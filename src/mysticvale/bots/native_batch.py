"""The native core's bots playing whole games (``native/src/bots/``): the arena's fast path.

``play_games`` is the twin of :func:`mysticvale.bots.arena.play_game` for bots the native
core has (``random``, and ``greedy`` with any of its options, e.g. ``greedy:depth=1:spirit_vp=1.6``):
the same seeds, seat rotation, ``max_rounds`` rule and records,
with every decision made in Rust, without returning to Python.  ``bot_seconds`` is measured
there, so it is the only part of a record that differs from the Python arena's.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..engine import native

#: The bots the native core has (``native/src/bots/mod.rs`` ``NATIVE_BOTS``).
NATIVE_BOTS = ("greedy", "random")
#: The native bots that take options (the others are named plainly).
_WITH_OPTIONS = ("greedy",)


def plays(specs: Iterable[str]) -> bool:
    """True when the native core has every bot named: ``random`` (no options) and
    ``greedy`` with any options (the core checks them with the Python bot's messages)."""
    for s in specs:
        name, _, opts = s.partition(":")
        if name not in NATIVE_BOTS or (opts and name not in _WITH_OPTIONS):
            return False
    return True


def play_games(specs: list[str], seed: int, indices: Iterable[int], players: int, sets: tuple[str, ...],
               ruleset: str, max_rounds: int, *, history: bool = False) -> list[dict[str, Any]]:
    """The records of games ``indices`` of an arena run with ``seed`` (``play_game``'s, in
    the order asked), played by the native core with the GIL released; ``history=True``
    adds each game's actions.  RuntimeError saying why when the core is not built."""
    from ..cards.catalogue import load_catalogue

    twin = native.catalogue(load_catalogue(tuple(sets)))
    return native.module().play_games(twin, ruleset, players, seed, list(specs),
                                      list(indices), max_rounds, history)


__all__ = ["NATIVE_BOTS", "plays", "play_games"]
