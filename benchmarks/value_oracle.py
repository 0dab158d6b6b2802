"""How much better than the value model can a position evaluation be?  An oracle by rollouts.

    .venv/bin/python benchmarks/value_oracle.py --games 300 --rollouts 40 --seed 7

Plays greedy-vs-greedy two-player base games (the positions ``fit_value_model.py`` fits to:
the first decision of every turn) and, at a sample of those positions (``--share``), asks an
*oracle*: ``--rollouts`` determinizations from the seat on move's view (``Game.determinize``:
what that seat knows stays, everything hidden is dealt again), each played to the end by
greedy bots with fresh seeds.  Its win share estimates the chance that a perfect evaluation of
what the seat knows would give, for the very policy that made the data.  The script prints,
on the same positions and the games' real results, the mean log-loss of:

- the value model (``value_model.WEIGHTS``, as ``fit_value_model.py`` scores it);
- the oracle (its estimate smoothed as ``(wins + 0.5) / (rollouts + 1)``), and the oracle less
  ``1 / (2 * rollouts)``, the loss that the estimate's own sampling noise adds (a second-order
  expansion of the log-loss around the true chance), an estimate of the best any evaluation of
  these positions can reach.

Issue 20 asks a learned evaluation for a held-out log-loss of 0.34 against the value model's
0.380: this says whether the information for that is in the positions at all.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fit_value_model import current_theta, model_logit  # noqa: E402
from pilot_value_mlp import log_loss  # noqa: E402


def play_out(g, rng: random.Random) -> float:
    """Seat 0's share of the win when greedy bots with fresh seeds finish ``g``."""
    from mysticvale.bots import SeatView, make_bot

    bots = [make_bot("greedy", seed=rng.randrange(1 << 30)) for _ in range(g.players)]
    while not g.is_over():
        q = g.current_player
        legal = g.legal_actions()
        g.apply_action(bots[q].act(SeatView(g, q)) if len(legal) > 1 else legal[0])
    w = g.winners()
    return 1.0 / len(w) if 0 in w else 0.0


def collect(games: int, rollouts: int, seed: int, share: float):
    """Rows (oracle estimate, value model's chance, seat 0's result) for the sampled positions."""
    import mysticvale as mv
    from mysticvale.bots import SeatView, make_bot
    from mysticvale.bots.arena import game_seed
    from mysticvale.bots.greedy import Greedy
    from mysticvale.bots.value_model import ValueModel
    from mysticvale.runtime import settle

    settle()
    ev = Greedy(seed=0)
    model = ValueModel(ev)
    theta = current_theta()
    rng = random.Random(seed)
    rows = []
    t0 = time.perf_counter()
    for i in range(games):
        gs = game_seed(seed, i)
        g = mv.new_game(players=2, seed=gs)
        bots = [make_bot("greedy", seed=gs + 1), make_bot("greedy", seed=gs + 2)]
        seen, asked = -1, []
        while not g.is_over():
            p = g.current_player
            legal = g.legal_actions()
            if g.state.turn_number != seen and len(legal) > 1:
                seen = g.state.turn_number
                if rng.random() < share:
                    obs = [g.observe(q) for q in (0, 1)]
                    for o in obs:
                        ev._remember(o)
                    f = np.array([[model.seat_features(obs[q], q) for q in (0, 1)]])
                    logit = float(model_logit(theta, f, np.array([p]), np.array([float(g.state.vp_pool)]))[0])
                    wins = sum(play_out(g.determinize(p, rng.randrange(1 << 30)), rng) for _ in range(rollouts))
                    asked.append(((wins + 0.5) / (rollouts + 1), 1.0 / (1.0 + np.exp(-logit))))
            g.apply_action(bots[p].act(SeatView(g, p)) if len(legal) > 1 else legal[0])
        w = g.winners()
        y0 = 1.0 / len(w) if 0 in w else 0.0
        rows += [(o, v, y0) for o, v in asked]
        if (i + 1) % 25 == 0:
            print(f"  {i + 1} games, {len(rows)} positions, {time.perf_counter() - t0:.0f} s", flush=True)
    return np.array(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rollouts", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--share", type=float, default=0.08, help="the share of turn starts asked (default 0.08)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows = collect(args.games, args.rollouts, args.seed, args.share)
    if not len(rows):
        sys.exit("no position was sampled: raise --games or --share")
    oracle, value, y = rows[:, 0], rows[:, 1], rows[:, 2]
    noise = 1.0 / (2 * args.rollouts)
    # A bootstrap over positions for the spread of the difference (positions of one game are
    # not independent, so this is a lower bound on the uncertainty).
    boot = np.random.default_rng(args.seed)
    diffs = []
    for _ in range(1000):
        k = boot.integers(0, len(y), len(y))
        diffs.append(log_loss(value[k], y[k]) - log_loss(oracle[k], y[k]))
    lo, hi = np.percentile(diffs, [2.5, 97.5])
    print(f"{len(y)} positions from {args.games} games, {args.rollouts} rollouts each, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"mean log-loss on them (a coin: {np.log(2):.3f}):")
    print(f"  value model:                      {log_loss(value, y):.4f}")
    print(f"  oracle (rollouts):                {log_loss(oracle, y):.4f}")
    print(f"  oracle less its sampling noise:   {log_loss(oracle, y) - noise:.4f}")
    print(f"  value model - oracle:             {log_loss(value, y) - log_loss(oracle, y):.4f} "
          f"(95% bootstrap over positions {lo:.4f} to {hi:.4f})")


if __name__ == "__main__":
    main()
