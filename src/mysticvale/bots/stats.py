"""Small statistics for the arena: Wilson score intervals and summaries."""

from __future__ import annotations

import math
from statistics import fmean, pstdev

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (``successes`` of ``n``); (0, 1) for n = 0.

    Better than the normal approximation near 0 and 1 (a bot that wins 398 of 400 games
    gets an interval that stays below 1).
    """
    if n < 0 or successes < 0 or successes > n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def describe(values: list[float]) -> dict[str, float]:
    """mean, sd, min, max of a list (zeros for an empty list)."""
    if not values:
        return {"mean": 0.0, "sd": 0.0, "min": 0.0, "max": 0.0}
    return {"mean": round(fmean(values), 4), "sd": round(pstdev(values), 4),
            "min": min(values), "max": max(values)}


__all__ = ["wilson", "describe", "Z95"]
