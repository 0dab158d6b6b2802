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


#: The collector's thresholds for a server (see :func:`tune_for_serving`).
SERVING_THRESHOLDS = (25_000, 20, 100)


def tune_for_serving() -> None:
    """Collect the youngest generation every 25 000 allocations instead of every 700 (and the
    older ones accordingly): a server holding hundreds of games collected every few dozen
    milliseconds, and now and then walked every game's state in one long pause.  Measured in the
    server at 200 active games (``benchmarks/bench_server.py``, 38 s, 2026-12-02): the default
    thresholds made 854 young, 77 middle and 7 full collections, 2.9 s in all, the longest 188 ms
    (the slowest 1% of actions waited behind such pauses); these made 17 young and 1 full
    collection, 0.37 s in all, the longest 90 ms, with the same memory (201 MB).  Call after
    :func:`settle`."""
    gc.set_threshold(*SERVING_THRESHOLDS)
