"""Fit the ISMCTS bot's value model (``mysticvale.bots.value_model``) to who wins.

    .venv/bin/python benchmarks/fit_value_model.py --games 2000 --seed 11

Plays greedy-vs-greedy two-player base games and records, at the first decision of every
turn, each seat's :meth:`ValueModel.seat_features` (from its own observation), the seat on
move, the VP pool, and who won.  Then it fits the weights, the on-move bonus and the scale
``a + b * pool`` by maximum likelihood on 80% of the games and reports the mean log-loss on
the other 20% for the fitted model and for the greedy bot's position value with the
calibrated scale (what ISMCTS used before).  The printed weights go into
``value_model.WEIGHTS``, ``MOVE`` and ``SCALE``.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy.optimize import minimize


def collect(games: int, seed: int):
    """Arrays: features (positions x 2 seats x k), mover, pool, winner share of seat 0,
    greedy value difference (seat 0 - seat 1), game index, rounds left (estimate)."""
    import mysticvale as mv
    from mysticvale.bots import SeatView, make_bot
    from mysticvale.bots.arena import game_seed
    from mysticvale.bots.greedy import Greedy, rounds_left
    from mysticvale.bots.value_model import ValueModel
    from mysticvale.runtime import settle

    settle()
    ev = Greedy(seed=0)
    model = ValueModel(ev)
    feats, mover, pool, y, gdiff, gid, rl = [], [], [], [], [], [], []
    for i in range(games):
        gs = game_seed(seed, i)
        g = mv.new_game(players=2, seed=gs)
        bots = [make_bot("greedy", seed=gs + 1), make_bot("greedy", seed=gs + 2)]
        seen_turn = -1
        rows = []
        while not g.is_over():
            p = g.current_player
            legal = g.legal_actions()
            if g.state.turn_number != seen_turn and len(legal) > 1:
                seen_turn = g.state.turn_number
                obs = [g.observe(q) for q in (0, 1)]
                for o in obs:
                    ev._remember(o)
                f = [model.seat_features(obs[q], q) for q in (0, 1)]
                v = [ev.position_value(obs[q], q, relative=False) for q in (0, 1)]
                rows.append((f, p, g.state.vp_pool, v[0] - v[1], rounds_left(obs[0])))
            g.apply_action(bots[p].act(SeatView(g, p)) if len(legal) > 1 else legal[0])
        w = g.winners()
        share0 = 1.0 / len(w) if 0 in w else 0.0
        for f, p, vp_pool, d, r in rows:
            rl.append(r)
            feats.append(f)
            mover.append(p)
            pool.append(vp_pool)
            y.append(share0)
            gdiff.append(d)
            gid.append(i)
    return (np.array(feats, dtype=float), np.array(mover), np.array(pool, dtype=float),
            np.array(y), np.array(gdiff), np.array(gid), np.array(rl))


def _loss(logit, y):
    p = 1.0 / (1.0 + np.exp(-np.clip(logit, -60, 60)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def model_logit(theta, feats, mover, pool):
    """Seat 0's logit under theta = (weights of features 1.., move bonus, a, b)."""
    k = feats.shape[2]
    w = np.concatenate(([1.0], theta[:k - 1]))
    move, a, b = theta[k - 1], theta[k], theta[k + 1]
    d = (feats[:, 0, :] - feats[:, 1, :]) @ w + move * np.where(mover == 0, 1.0, -1.0)
    return d / np.maximum(0.5, a + b * pool)


def held_out(gid, games: int):
    """(fit, held out): boolean masks of the positions of the first 80% of the games and the rest."""
    train = gid < int(games * 0.8)
    return train, ~train


def current_theta() -> np.ndarray:
    """The value model's current weights, on-move bonus and scale, as :func:`model_logit` takes them."""
    from mysticvale.bots.value_model import MOVE, SCALE, WEIGHTS

    return np.array(list(WEIGHTS) + [MOVE] + list(SCALE), dtype=float)


def fit(feats, mover, pool, y, start):
    res = minimize(lambda th: _loss(model_logit(th, feats, mover, pool), y), start, method="L-BFGS-B",
                   bounds=[(None, None)] * (len(start) - 2) + [(0.5, 40.0), (0.0, 3.0)])
    return res.x


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    from mysticvale.bots.ismcts import calibrated_scale
    from mysticvale.bots.value_model import FEATURES

    t0 = time.perf_counter()
    feats, mover, pool, y, gdiff, gid, _ = collect(args.games, args.seed)
    print(f"{len(y)} positions from {args.games} games in {time.perf_counter() - t0:.1f} s")
    train, test = held_out(gid, args.games)
    start = current_theta()
    theta = fit(feats[train], mover[train], pool[train], y[train], start)
    cal = np.array([calibrated_scale(int(p)) for p in pool])
    print(f"held-out mean log-loss ({int(test.sum())} positions; a coin: {math.log(2):.3f}):")
    print(f"  greedy position value, calibrated scale: {_loss(gdiff[test] / cal[test], y[test]):.4f}")
    print(f"  value model, current weights:            "
          f"{_loss(model_logit(start, feats[test], mover[test], pool[test]), y[test]):.4f}")
    print(f"  value model, fitted weights:             "
          f"{_loss(model_logit(theta, feats[test], mover[test], pool[test]), y[test]):.4f}")
    k = feats.shape[2]
    print("\nfitted:")
    for name, w in zip(FEATURES[1:], theta[:k - 1]):
        print(f"  {name:<10} {w:8.3f}")
    print(f"  move       {theta[k - 1]:8.3f}\n  scale      {theta[k]:.3f} + {theta[k + 1]:.3f} * pool")
    print("\nWEIGHTS = (" + ", ".join(f"{w:.3g}" for w in theta[:k - 1]) + ")")
    print(f"MOVE = {theta[k - 1]:.3g}\nSCALE = ({theta[k]:.3g}, {theta[k + 1]:.3g})")


if __name__ == "__main__":
    main()
