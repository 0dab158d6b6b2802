"""Fit the ISMCTS bot's value scale: how much a lead in position value is worth in wins.

    .venv/bin/python benchmarks/fit_value_scale.py --games 600 --seed 11

ISMCTS scores a position it stops at with a logistic of the difference between the seats'
position values (the greedy bot's estimate in VP): ``1 / (1 + exp(-d / scale))``.  This
plays greedy-vs-greedy two-player base games, records ``d`` (the seat to act minus the
other) and the VP pool at the start of every turn, and who won; then it fits
``scale = a + b * vp_pool`` by maximum likelihood (a grid search), and prints the fit, the
log-loss of a few fixed scales for comparison, and a table of fitted scales by pool.
The fitted ``a`` and ``b`` are ``SCALE_BASE`` and ``SCALE_PER_VP`` in
``mysticvale.bots.ismcts``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np


def collect(games: int, seed: int):
    """Arrays: value difference for the seat to act, VP pool, that seat's share of the win."""
    import mysticvale as mv
    from mysticvale.bots import SeatView, make_bot
    from mysticvale.bots.arena import game_seed
    from mysticvale.bots.greedy import Greedy

    evaluator = Greedy(seed=0)
    rows = []
    for i in range(games):
        gs = game_seed(seed, i)
        g = mv.new_game(players=2, seed=gs)
        bots = [make_bot("greedy", seed=gs + 1), make_bot("greedy", seed=gs + 2)]
        seen_turn = -1
        game_rows = []
        while not g.is_over():
            p = g.current_player
            if g.state.turn_number != seen_turn:
                seen_turn = g.state.turn_number
                evaluator._remember(g.observe(p))
                v = [evaluator.position_value(g.observe(q), q, relative=False) for q in (0, 1)]
                game_rows.append((p, v[p] - v[1 - p], g.state.vp_pool))
            g.apply_action(bots[p].act(SeatView(g, p)))
        winners = g.winners()
        for p, d, pool in game_rows:
            rows.append((d, pool, 1.0 / len(winners) if p in winners else 0.0))
    return tuple(np.array(col, dtype=float) for col in zip(*rows))


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
