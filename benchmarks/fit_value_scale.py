"""Fit the ISMCTS bot's value scale: how much a lead in position value is worth in wins.

    .venv/bin/python benchmarks/fit_value_scale.py --games 600 --seed 11

With ``value="greedy"``, ISMCTS scores a position it stops at with a logistic of the
difference between the seats' position values (the greedy bot's estimate in VP):
``1 / (1 + exp(-d / scale))``.  This plays greedy-vs-greedy two-player base games, records
``d`` (seat 0 minus seat 1) and the VP pool at the first decision of every turn, and who
won; then it fits ``scale = a + b * vp_pool`` by maximum likelihood (a grid search), and
prints the fit, the log-loss of a few fixed scales for comparison, and a table of fitted
scales by pool.
The fitted ``a`` and ``b`` are ``SCALE_BASE`` and ``SCALE_PER_VP`` in
``mysticvale.bots.ismcts``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


def collect(games: int, seed: int):
    """Arrays: greedy value difference (seat 0 - seat 1), VP pool, seat 0's share of the win,
    at the first decision of every turn (the positions of ``fit_value_model.collect``)."""
    from fit_value_model import collect as collect_positions

    _, _, pool, y, gdiff, _, _ = collect_positions(games, seed)
    return gdiff, pool, y


def log_loss(rows, a: float, b: float) -> float:
    """Mean log-loss of ``scale = a + b * pool`` on the rows (numpy arrays d, pool, y)."""
    d, pool, y = rows
    p = 1.0 / (1.0 + np.exp(-np.clip(d / np.maximum(1.0, a + b * pool), -60, 60)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def fit(rows) -> tuple[float, float, float]:
    """(log-loss, a, b) minimising the log-loss on a grid (a in 0..8, b in 0..1.2)."""
    best = None
    for ai in range(0, 33):
        for bi in range(0, 49):
            a, b = ai * 0.25, bi * 0.025
            loss = log_loss(rows, a, b)
            if best is None or loss < best[0]:
                best = (loss, a, b)
    assert best is not None
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows = collect(args.games, args.seed)
    print(f"{len(rows[0])} positions from {args.games} games in {time.perf_counter() - t0:.1f} s")
    loss, a, b = fit(rows)
    print(f"fit: scale = {a:g} + {b:g} * vp_pool   (mean log-loss {loss:.3f}; a coin: {math.log(2):.3f})")
    for fixed in (3.0, 6.0, 10.0, 14.0):
        print(f"fixed scale {fixed:>4g}: mean log-loss {log_loss(rows, fixed, 0.0):.3f}")
    print("\nfitted fixed scale by VP pool:")
    for lo, hi in ((0, 5), (5, 10), (10, 15), (15, 20), (20, 40)):
        mask = (rows[1] >= lo) & (rows[1] < hi)
        part = tuple(col[mask] for col in rows)
        if mask.sum() >= 50:
            best = min((log_loss(part, s / 2, 0.0), s / 2) for s in range(2, 80))
            print(f"  pool {lo:>2}-{hi - 1:<2}: {int(mask.sum()):>6} positions, scale {best[1]:>5.1f} VP")


if __name__ == "__main__":
    main()
