"""The research adapters' speed in both engines: random playouts, steps per CPU second.

    .venv/bin/python benchmarks/bench_adapters.py --games 20

* ``openspiel``: ``pyspiel.load_game("python_mystic_vale", {"engine": ...})``, the deal and
  then uniformly random legal actions (``state.legal_actions()``, ``state.apply_action``)
  to the end: what MCTS rollouts do;
* ``openspiel+tensor``: the same, reading the acting seat's ``observation_tensor`` before
  every action (what a learning agent does);
* ``pettingzoo``: ``env(..., engine=...)``, the AEC loop (``last()``, which builds the
  acting agent's observation vector and mask, then ``step``) with random masked actions.

The same seeds in both engines give the same games (tests/adapters/test_adapters_native.py),
so the step counts are equal and the CPU seconds compare directly.  Prints one JSON object
with the load average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import time


def openspiel(engine: str, games: int, tensor: bool) -> tuple[int, float]:
    """Steps and CPU seconds of ``games`` random OpenSpiel playouts."""
    import numpy as np
    import pyspiel

    from mysticvale.adapters import openspiel as mvos   # importing it registers the game

    game = pyspiel.load_game(mvos.SHORT_NAME, {"players": 2, "engine": engine})
    steps, cpu = 0, 0.0
    for i in range(games):
        rng = np.random.RandomState(i)
        t0 = time.process_time()
        state = game.new_initial_state()
        state.apply_action(i)
        while not state.is_terminal():
            if tensor:
                state.observation_tensor(state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
            steps += 1
        cpu += time.process_time() - t0
    return steps, cpu


def pettingzoo(engine: str, games: int) -> tuple[int, float]:
    """Steps and CPU seconds of ``games`` random PettingZoo episodes."""
    import numpy as np

    from mysticvale.adapters.pettingzoo import env

    e = env(players=2, engine=engine)
    steps, cpu = 0, 0.0
    for i in range(games):
        rng = np.random.RandomState(i)
        t0 = time.process_time()
        e.reset(seed=i)
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        cpu += time.process_time() - t0
    return steps, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games per adapter and engine")
    args = ap.parse_args()

    import mysticvale as mv
    from mysticvale import _compiled

    if not mv.native_available():
        from mysticvale.engine.native import unavailable_reason
        ap.error(f"the native core is needed: {unavailable_reason()}")
    out: dict = {"load_before": os.getloadavg(), "games": args.games, "build": _compiled.status()["build"]}
    for engine in ("python", "native"):
        for name, run in (("openspiel", lambda: openspiel(engine, args.games, False)),
                          ("openspiel+tensor", lambda: openspiel(engine, args.games, True)),
                          ("pettingzoo", lambda: pettingzoo(engine, args.games))):
            steps, cpu = run()
            out[f"{name} {engine}"] = {"steps": steps, "cpu_s": round(cpu, 2),
                                       "steps_per_cpu_s": round(steps / cpu, 1)}
    out["load_after"] = os.getloadavg()
    out["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
