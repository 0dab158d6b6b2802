"""The native core's bots playing whole games (``native/src/bots/``): the arena's fast path.

``play_games`` is the twin of :func:`mysticvale.bots.arena.play_game` for bots the native
core has (``random``, and ``greedy`` and ``ismcts`` with any of their options, e.g.
``greedy:depth=1:spirit_vp=1.6``, ``ismcts:think=0:iterations=40``, and the levels, each
one of those):
the same seeds, seat rotation, ``max_rounds`` rule and records,
with every decision made in Rust, without returning to Python.  ``bot_seconds`` is measured
there, so it is the only part of a record that differs from the Python arena's (an ``ismcts``
with a think time searches as long as the machine lets it in that time, so its games are the
Python arena's only under an iteration budget alone).
"""

from __future__ import annotations

from typing import Any, Iterable

from ..engine import native
from .levels import expand_spec

#: The bots the native core has (``native/src/bots/mod.rs`` ``NATIVE_BOTS``).
NATIVE_BOTS = ("greedy", "ismcts", "random")
#: The native bots that take options (the others are named plainly).
_WITH_OPTIONS = ("greedy", "ismcts")


def _names_think(opts: str) -> bool:
    return "think" in [p.split("=", 1)[0].strip() for p in opts.split(":")]


def played_spec(spec: str, think: float | None) -> str:
    """The bot ``spec`` as the arena plays it, in either engine: a level's name replaced by its
    bot's spec (:func:`.levels.expand_spec`), and the arena's think time written into an
    ``ismcts`` that names none (``ismcts`` -> ``ismcts:think=0.5``).  ValueError for options
    given to a level."""
    spec = expand_spec(spec)
    name, _, opts = spec.partition(":")
    if think is not None and name.strip() == "ismcts" and not _names_think(opts):
        spec = f"{spec}:think={think!r}"
    return spec


def with_think(specs: Iterable[str], think: float | None) -> list[str]:
    """:func:`played_spec` of each of ``specs``."""
    return [played_spec(s, think) for s in specs]


def plays(specs: Iterable[str], think: float | None = None) -> bool:
    """True when the native core has every bot named: ``random`` (no options), ``greedy``
    and ``ismcts`` with any options (the core checks them with the Python bot's messages),
    and the levels (each one of those).
    ``think``: the arena's think time for an ``ismcts`` that names none."""
    for s in with_think(specs, think):
        name, _, opts = s.partition(":")
        if name not in NATIVE_BOTS or (opts and name not in _WITH_OPTIONS):
            return False
    return True


def play_games(specs: list[str], seed: int, indices: Iterable[int], players: int, sets: tuple[str, ...],
               ruleset: str, max_rounds: int, *, history: bool = False,
               think: float | None = None, leaders: bool = False) -> list[dict[str, Any]]:
    """The records of games ``indices`` of an arena run with ``seed`` (``play_game``'s, in
    the order asked), played by the native core with the GIL released; ``history=True``
    adds each game's actions; ``think``: the arena's think time for an ``ismcts`` that names
    none (the records still name the bots as given); ``leaders``: with the Twilight Garden
    leaders.  RuntimeError saying why when the core is not built."""
    from ..cards.catalogue import load_catalogue
    from .arena import labels_for

    twin = native.catalogue(load_catalogue(tuple(sets)))
    played = with_think(specs, think)
    records = native.module().play_games(twin, ruleset, players, seed, played,
                                         list(indices), max_rounds, history, leaders)
    if played != list(specs):
        # labels are positional: the k-th spec's label as played is the k-th as given
        named = dict(zip(labels_for(played), labels_for(list(specs))))
        for r in records:
            r["seats"] = [named[x] for x in r["seats"]]
            r["winners"] = [named[x] for x in r["winners"]]
    return records


__all__ = ["NATIVE_BOTS", "played_spec", "plays", "play_games", "with_think"]
