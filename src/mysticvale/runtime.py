"""Process-wide settings for long runs: keep the garbage collector off what lives forever.

A process that plays many games (the arena, the benchmarks, a search bot) keeps a card
catalogue with its memos and shared views for its whole life: tens of thousands of
objects.  CPython's cyclic garbage collector would walk all of them again and again while
games allocate their short-lived observations; in greedy-vs-greedy games that was about a
quarter of the time (``benchmarks/README.md``).  :func:`settle` collects once and then
*freezes* everything alive (``gc.freeze``): the collector ignores those objects from then
on, and keeps collecting everything made later as usual.
"""

from __future__ import annotations

import gc


def settle(sets: tuple[str, ...] = ("base",)) -> int:
    """Load the catalogue of ``sets``, collect once and freeze what is alive.

    Returns how many objects the collector now leaves alone.  Safe to call again (each
    call freezes what was made since); call it when a process has set up, not per decision.
    """
    from .cards.catalogue import load_catalogue

    load_catalogue(tuple(sets))      # cached per process: this is what lives forever
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
