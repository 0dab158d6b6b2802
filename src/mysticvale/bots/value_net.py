"""A learned position evaluation: a small neural network over the value model's features.

The fitted value model (:mod:`.value_model`) weighs each seat's features linearly and
compares the seat with the strongest other by one logistic.  The *value network* reads the
same ingredients and learns how they combine: for seat ``p`` its input is

- ``p``'s :data:`~.value_model.FEATURES` and those of its strongest rival (the other seat of
  highest value-model strength, the bonus of the seat on move included),
- whether ``p``, or that rival, is on move, the VP pool, the rounds the greedy bot expects
  to be left, the number of players, and ``p``'s and the rival's places in the turn order
  counted from the start player (0: the start player; a round ends with the last seat, so
  whether a seat still has its turn once the end is triggered shows here),
- and the value model's own logit for ``p`` (so the network learns a correction of the
  logistic model, never less than it to start from),

standardized, through one or more hidden layers of rectified units, to one logit:
``P(p wins) = 1 / (1 + exp(-logit))``.

The weights ship in the package (``bots/data/value_net.json``) with a record of how they
were made (``mysticvale train``: the command, seed, games and held-out loss).  Inference runs
in numpy here and in Rust in the native core (``native/src/bots/value_net.rs``), the same to
1e-9; training (:mod:`mysticvale.learn.train`) needs scikit-learn, the ``learn`` extra.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import SaveError
from .greedy import rounds_left
from .value_model import FEATURES, MOVE, SCALE, WEIGHTS, ValueModel, finished_shares, seat_observations

#: The version of a weights file; a file of another version is refused.
FORMAT = 1
#: The network's inputs, in order (see the module's docstring).
INPUTS = (*(f"own {f}" for f in FEATURES), *(f"rival {f}" for f in FEATURES),
          "own on move", "rival on move", "pool", "rounds left", "players", "own order", "rival order",
          "model logit")
#: The weights that ship in the package.
SHIPPED = Path(__file__).resolve().parent / "data" / "value_net.json"


def strengths(features: np.ndarray) -> np.ndarray:
    """Each seat's value-model strength ``u`` (VP) from its features (seats x FEATURES)."""
    return features[:, 0] + features[:, 1:] @ np.asarray(WEIGHTS)


def net_inputs(features: np.ndarray, mover: int | None, pool: float, rounds: float, first: int) -> np.ndarray:
    """The network's inputs for every seat (seats x INPUTS) of one position: ``features``
    (seats x FEATURES, each seat's own), the seat on move (None: nobody), the VP pool left,
    the rounds the greedy bot expects to be left and the start player."""
    n = features.shape[0]
    u = strengths(features)
    on_move = np.array([1.0 if q == mover else 0.0 for q in range(n)])
    u_move = u + MOVE * on_move
    scale = max(0.5, SCALE[0] + SCALE[1] * max(0.0, float(pool)))
    rows = np.empty((n, len(INPUTS)))
    k = len(FEATURES)
    for p in range(n):
        # The strongest other seat; the first of equals (as the value model's max).
        rival = max((q for q in range(n) if q != p), key=lambda q: (u_move[q], -q))
        logit = min(60.0, max(-60.0, (u_move[p] - u_move[rival]) / scale))
        rows[p, :k] = features[p]
        rows[p, k:2 * k] = features[rival]
        rows[p, 2 * k:] = (on_move[p], on_move[rival], float(pool), float(rounds), float(n), float((p - first) % n),
                           float((rival - first) % n), logit)
    return rows


@dataclass(frozen=True)
class Net:
    """The network's weights: inputs standardized by ``mean`` and ``scale``, then ``layers``
    of (weights: inputs x outputs, bias), rectified between them, the last giving one logit;
    ``record``: how they were made."""

    mean: np.ndarray
    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    record: dict[str, Any] = field(default_factory=dict)

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The logit of every row of inputs ``x`` (rows x INPUTS)."""
        h = (np.atleast_2d(x) - self.mean) / self.scale
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h[:, 0]

    def chances(self, x: np.ndarray) -> np.ndarray:
        """The win chance of every row of inputs ``x``."""
        z = np.clip(self.logits(x), -60.0, 60.0)
        return 1.0 / (1.0 + np.exp(-z))

    # -- files ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The weights as a weights file holds them (floats written exactly)."""
        return {"format": FORMAT, "inputs": list(INPUTS), "mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "layers": [{"weights": w.tolist(), "bias": b.tolist()} for w, b in self.layers],
                "record": self.record}

    def save(self, path: str | Path) -> None:
        """Write the weights file (JSON) to ``path``."""
        Path(path).write_text(json.dumps(self.to_dict(), indent=1) + "\n", "utf-8")

    @classmethod
    def from_dict(cls, d: Any, where: str = "weights") -> "Net":
        """The network of a weights file's contents; SaveError saying what is wrong."""
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            got = d.get("format") if isinstance(d, dict) else type(d).__name__
            raise SaveError(f"{where}: not a value network file of format {FORMAT} (format {got!r})")
        if d.get("inputs") != list(INPUTS):
            raise SaveError(f"{where}: the network reads other inputs than this version's {len(INPUTS)}")
        try:
            mean = np.array(d["mean"], dtype=np.float64)
            scale = np.array(d["scale"], dtype=np.float64)
            layers = tuple((np.array(lay["weights"], dtype=np.float64), np.array(lay["bias"], dtype=np.float64))
                           for lay in d["layers"])
        except (KeyError, TypeError, ValueError) as exc:
            raise SaveError(f"{where}: malformed weights ({exc})") from None
        _check_shapes(where, mean, scale, layers)
        record = d.get("record", {})
        return cls(mean, scale, layers, record if isinstance(record, dict) else {})

    @classmethod
    def load(cls, path: str | Path) -> "Net":
        """The network in the weights file at ``path``; SaveError for a file that is not one."""
        try:
            d = json.loads(Path(path).read_text("utf-8"))
        except (OSError, ValueError) as exc:
            raise SaveError(f"{path}: not a value network file ({exc})") from None
        return cls.from_dict(d, str(path))


def _check_shapes(where: str, mean: np.ndarray, scale: np.ndarray, layers: Sequence) -> None:
    k = len(INPUTS)
    if mean.shape != (k,) or scale.shape != (k,):
        raise SaveError(f"{where}: the standardization must have {k} means and scales")
    if not np.all(scale > 0):
        raise SaveError(f"{where}: every input's scale must be more than 0")
    if not layers:
        raise SaveError(f"{where}: a network needs at least one layer")
    width = k
    for i, (w, b) in enumerate(layers):
        if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
            raise SaveError(f"{where}: layer {i + 1} does not fit the one before it")
        width = w.shape[1]
    if width != 1:
        raise SaveError(f"{where}: the last layer must give one logit, not {width}")
    arrays = [mean, scale, *(a for lay in layers for a in lay)]
    if not all(np.all(np.isfinite(a)) for a in arrays):
        raise SaveError(f"{where}: a weight is not a finite number")


@cache
def shipped() -> Net:
    """The network that ships in the package."""
    return Net.load(SHIPPED)


class ValueNet:
    """Win chances of every seat by the value network, over a value model that supplies the
    features (its evaluator's caches are reused); the same face as :class:`ValueModel`."""

    def __init__(self, model: ValueModel, net: Net | None = None) -> None:
        self.model = model
        self.net = net if net is not None else shipped()

    def win_chances(self, g) -> list[float]:
        """Each seat's chance of winning (a finished game: 1 / 0 / shared) in a game ``g``
        that the caller may see whole (a determinization)."""
        n = g.players
        if g.is_over():
            return finished_shares(g)
        obs = seat_observations(g)
        feats = np.array([self.model.seat_features(obs[p], p) for p in range(n)])
        mover = g.current_player
        st = g.state
        x = net_inputs(feats, mover, max(0, st.vp_pool), rounds_left(obs[0 if mover is None else mover]),
                       st.first_player)
        return [float(c) for c in self.net.chances(x)]


def log_loss(p: np.ndarray, y: np.ndarray) -> float:
    """Mean log-loss of chances ``p`` against results ``y`` (shares of a win in [0, 1])."""
    p = np.clip(np.asarray(p, dtype=np.float64), 1e-12, 1 - 1e-12)
    y = np.asarray(y, dtype=np.float64)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


__all__ = ["FORMAT", "INPUTS", "Net", "SHIPPED", "ValueNet", "log_loss", "net_inputs", "shipped", "strengths"]
