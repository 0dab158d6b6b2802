"""Declaring which catalogue cards a test exercises.

    @exercises("Hatchery")
    def test_hatchery_keeps_a_card(): ...

``tests/cards/test_tested_list.py`` reads these declarations from the test files and checks
that ``mysticvale/cards/data/tested.toml`` (the source of the ``tested`` flag of
``mysticvale cards --json``) lists exactly the cards with abilities that tests exercise.
"""

from __future__ import annotations

from typing import Callable


def exercises(*names: str) -> Callable:
    """Mark a test as exercising the abilities of the named cards (no effect at run time)."""
    if not names:
        raise ValueError("name at least one card")

    def deco(fn: Callable) -> Callable:
        fn.exercises = tuple(names)  # type: ignore[attr-defined]
        return fn

    return deco
