"""Training the value network (:mod:`mysticvale.bots.value_net`) on self-play positions.

Every position of a positions file (:mod:`.selfplay`) gives one row per seat: the network's
inputs for that seat (:func:`~mysticvale.bots.value_net.net_inputs`) and the seat's share of
the win.  The games, not the rows, are split: a seeded share of them (``held_out``) is never
trained on, and the held-out mean log-loss after every pass over the training rows is the
measure of the network; the pass with the lowest is kept, and training stops once
``patience`` passes in a row found none lower.

The optimizer is scikit-learn's (``MLPClassifier``, Adam, an L2 penalty ``alpha``): the
``learn`` extra (``pip install 'mysticvale[learn]'``).  The same data, options and seed give
the same weights on the same machine and library versions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from ..bots.value_net import INPUTS, Net, log_loss, net_inputs
from .selfplay import Positions


def rows(positions: Positions) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(inputs, results, games) of every seat of every position: ``inputs`` rows x INPUTS,
    ``results`` each row's seat's share of the win, ``games`` the row's game."""
    n = positions.features.shape[1]
    x = np.empty((len(positions) * n, len(INPUTS)))
    for i in range(len(positions)):
        x[i * n:(i + 1) * n] = net_inputs(positions.features[i], int(positions.mover[i]), float(positions.pool[i]),
                                          float(positions.rounds_left[i]), int(positions.first[i]))
    return x, positions.result.reshape(-1), np.repeat(positions.game, n)


def gather(sets: Sequence[Positions]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rows` of several positions files, one after another, their games numbered apart."""
    xs, ys, gs = [], [], []
    offset = 0
    for p in sets:
        x, y, g = rows(p)
        xs.append(x)
        ys.append(y)
        gs.append(g + offset)
        offset += int(p.game.max()) + 1 if len(p) else 0
    if not xs or not sum(len(x) for x in xs):
        raise ValueError("no positions to train on")
    return np.concatenate(xs), np.concatenate(ys), np.concatenate(gs)


def split(games: np.ndarray, held_out: float, seed: int) -> np.ndarray:
    """A mask of the rows of the held-out games: a seeded ``held_out`` share of the games."""
    if not 0 < held_out < 1:
        raise ValueError(f"held_out must be a share between 0 and 1, not {held_out!r}")
    ids = np.unique(games)
    if len(ids) < 2:
        raise ValueError("training needs positions of at least two games (one to hold out)")
    rng = np.random.default_rng(seed)
    k = max(1, min(len(ids) - 1, round(len(ids) * held_out)))
    return np.isin(games, rng.permutation(ids)[:k])


@dataclass
class Report:
    """How a training went: the held-out loss after each pass, the best pass, the value
    model's loss on the same rows, sizes and seconds."""

    losses: list[float]
    best_epoch: int
    held_out_loss: float
    model_loss: float
    train_rows: int
    held_out_rows: int
    seconds: float


def train(sets: Sequence[Positions], hidden: Sequence[int] = (32,), alpha: float = 1e-3, epochs: int = 60,
          patience: int = 8, batch: int = 256, rate: float = 1e-3, held_out: float = 0.2, seed: int = 1,
          on_epoch: Callable[[int, float, float], None] | None = None,
          record: dict[str, Any] | None = None) -> tuple[Net, Report]:
    """Train a network on the positions ``sets``; (the best network, its :class:`Report`).

    ``hidden``: the hidden layers' widths; ``alpha``: the L2 penalty; ``epochs``: at most so
    many passes; ``batch``, ``rate``: Adam's batch size and step; ``on_epoch(epoch, loss,
    best)`` after each pass.  ``record``: written into the network's record beside the
    training's own figures.  ValueError for bad options or too little data; ImportError
    (naming the extra) without scikit-learn."""
    try:
        from sklearn.neural_network import MLPClassifier
        import sklearn
    except ImportError:
        raise ImportError("training needs scikit-learn: pip install 'mysticvale[learn]'") from None
    hidden = tuple(int(h) for h in hidden)
    if not hidden or min(hidden) < 1:
        raise ValueError(f"hidden layers need at least one unit each, not {hidden!r}")
    if epochs < 1 or patience < 1 or batch < 1:
        raise ValueError("epochs, patience and batch must each be at least 1")
    if not alpha >= 0 or not rate > 0:
        raise ValueError("alpha must be >= 0 and rate > 0")
    t0 = time.perf_counter()
    x, y, games = gather(sets)
    test = split(games, held_out, seed)
    xt, yt = x[~test], y[~test]
    mean = xt.mean(axis=0)
    scale = xt.std(axis=0)
    scale[scale < 1e-9] = 1.0
    # A shared win (y = 1/2) is a win and a loss, each once: the same log-loss gradient.
    tie = (yt > 0) & (yt < 1)
    xs = (np.concatenate([xt, xt[tie]]) - mean) / scale
    labels = np.concatenate([(yt >= 0.5).astype(int), np.zeros(int(tie.sum()), dtype=int)])
    xh, yh = (x[test] - mean) / scale, y[test]
    clf = MLPClassifier(hidden_layer_sizes=hidden, activation="relu", solver="adam", alpha=alpha, batch_size=batch,
                        learning_rate_init=rate, random_state=seed, shuffle=True)
    losses: list[float] = []
    best: tuple[float, int, Any] = (float("inf"), 0, None)
    for epoch in range(1, epochs + 1):
        clf.partial_fit(xs, labels, classes=[0, 1])
        loss = log_loss(clf.predict_proba(xh)[:, 1], yh)
        losses.append(loss)
        if loss < best[0]:
            best = (loss, epoch, ([w.copy() for w in clf.coefs_], [b.copy() for b in clf.intercepts_]))
        if on_epoch:
            on_epoch(epoch, loss, best[0])
        if epoch - best[1] >= patience:
            break
    coefs, intercepts = best[2]
    model_loss = log_loss(1.0 / (1.0 + np.exp(-x[test][:, -1])), yh)
    report = Report(losses=losses, best_epoch=best[1], held_out_loss=best[0], model_loss=model_loss,
                    train_rows=int((~test).sum()), held_out_rows=int(test.sum()),
                    seconds=round(time.perf_counter() - t0, 3))
    rec = {**(record or {}), "hidden": list(hidden), "alpha": alpha, "epochs": epochs, "patience": patience,
           "batch": batch, "rate": rate, "held_out": held_out, "seed": seed,
           "data": [p.meta for p in sets], "positions": int(sum(len(p) for p in sets)),
           "games": int(len(np.unique(games))), "train_rows": report.train_rows,
           "held_out_rows": report.held_out_rows, "best_epoch": report.best_epoch,
           "held_out_loss": round(report.held_out_loss, 6), "value_model_loss": round(model_loss, 6),
           "losses": [round(v, 6) for v in losses], "seconds": report.seconds,
           "library": f"scikit-learn {sklearn.__version__}, numpy {np.__version__}"}
    net = Net(mean=mean, scale=scale, layers=tuple(zip(coefs, intercepts)), record=rec)
    return net, report


__all__ = ["Report", "gather", "rows", "split", "train"]
