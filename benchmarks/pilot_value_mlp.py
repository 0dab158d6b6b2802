"""Pilot for issue 20's learned evaluation: does a small MLP on the value model's own features
beat the fitted logistic value model on held-out games?

    .venv/bin/python -m pip install scikit-learn      # not a dependency of the project
    .venv/bin/python benchmarks/pilot_value_mlp.py --games 3000 --seed 11

Collects positions as ``fit_value_model.py`` does (greedy-vs-greedy two-player base games, the
first decision of every turn, each seat's :meth:`ValueModel.seat_features` from its own
observation), splits by game (80% to fit, 20% held out), and fits scikit-learn's
``MLPClassifier`` for a few sizes on each seat's view (its features, the other seat's, their
difference, the VP pool, the rounds left, whether it is on move; both seats' rows, so the
model sees every position from both sides).  Prints the held-out mean log-loss of the
logistic value model (``value_model.WEIGHTS``) and of each network, seat 0's chance taken as
``p0 / (p0 + p1)``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fit_value_model import _loss, collect, current_theta, held_out, model_logit  # noqa: E402


def seat_rows(feats, mover, pool, rl, seat: int) -> np.ndarray:
    """The network's input for ``seat``'s view of every position."""
    other = 1 - seat
    return np.column_stack([feats[:, seat, :], feats[:, other, :], feats[:, seat, :] - feats[:, other, :],
                            pool, rl, (mover == seat).astype(float)])


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    try:
        from sklearn.neural_network import MLPClassifier
    except ImportError:
        sys.exit("this pilot needs scikit-learn: .venv/bin/python -m pip install scikit-learn")
    t0 = time.perf_counter()
    feats, mover, pool, y, _, gid, rl = collect(args.games, args.seed)
    print(f"{len(y)} positions from {args.games} games in {time.perf_counter() - t0:.0f} s")
    train, test = held_out(gid, args.games)
    print(f"held-out mean log-loss, logistic value model: "
          f"{_loss(model_logit(current_theta(), feats[test], mover[test], pool[test]), y[test]):.4f}")
    x0, x1 = seat_rows(feats, mover, pool, rl, 0), seat_rows(feats, mover, pool, rl, 1)
    xtr = np.vstack([x0[train], x1[train]])
    ytr = np.concatenate([y[train], 1 - y[train]])
    decided = (ytr == 0) | (ytr == 1)          # a shared win is neither class
    mu, sd = xtr.mean(0), xtr.std(0) + 1e-9
    for hidden in ((32,), (64,), (64, 32)):
        for alpha in (1e-3, 1e-2):
            t0 = time.perf_counter()
            net = MLPClassifier(hidden_layer_sizes=hidden, alpha=alpha, max_iter=200, early_stopping=True,
                                random_state=1)
            net.fit((xtr[decided] - mu) / sd, ytr[decided].astype(int))
            p0 = net.predict_proba((x0[test] - mu) / sd)[:, 1]
            p1 = net.predict_proba((x1[test] - mu) / sd)[:, 1]
            print(f"  MLP {hidden!s:<9} alpha {alpha:<6}: {log_loss(p0 / (p0 + p1), y[test]):.4f} "
                  f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
