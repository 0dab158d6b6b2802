"""Search speed: ISMCTS iterations per second, and the cost of clone(), determinize(),
observe() and legal_actions() on positions from greedy-vs-greedy games.

    .venv/bin/python benchmarks/bench_search.py --positions 12 --think 0.5
    .venv/bin/python benchmarks/bench_search.py --positions 12 --engine native

With the native core built, the same positions are searched by the native ISMCTS bot too
(``_native.NativeBot("ismcts:think=T")`` on the position's twin state, the whole search in
Rust): ``native_ismcts_iterations_per_cpu_s`` beside the Python bot's
``ismcts_iterations_per_cpu_s`` (iterations over the process CPU time of the decision, so a
loaded machine changes them less than the wall-clock ``ismcts_iterations_per_s``), and their
ratio.

``--engine native`` measures the same positions (found by the Python engine's greedy games)
loaded into the native core (``Game.from_json(..., engine="native")``).  It leaves the
Python ISMCTS rows out: that bot reads ``game.state`` in its loop, which a native game
builds from its save, so its figure would measure that, not a search.  Its
``legal_actions_us`` is the Rust side's list of the position (computed there once per
position) turned into ``Action`` values: the generation itself is not measured again.
"""

from __future__ import annotations

import argparse
import json
import time
import timeit


def positions(n: int, seed: int):
    """``n`` positions with a real choice for the seat to act, spread over a few games."""
    import mysticvale as mv
    from mysticvale.bots import SeatView, make_bot

    out = []
    gi = 0
    while len(out) < n:
        g = mv.new_game(players=2, seed=seed + gi)
        bots = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
        step = 0
        while not g.is_over() and len(out) < n:
            p = g.current_player
            if len(g.legal_actions()) > 1 and step % 40 == 17:
                out.append(g.clone())
            g.apply_action(bots[p].act(SeatView(g, p)))
            step += 1
        gi += 1
    return out


def per_call_us(fn, number: int) -> float:
    return 1e6 * min(timeit.repeat(fn, number=number, repeat=3)) / number


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--think", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--engine", choices=("python", "native"), default="python",
                    help="the engine the positions are measured in (default python)")
    args = ap.parse_args()

    from mysticvale.bots import SeatView
    from mysticvale.bots.ismcts import ISMCTS
    from mysticvale.engine.rng import Rng
    from mysticvale.runtime import settle

    settle()     # as the arena does before it plays
    pos = positions(args.positions, args.seed)
    if args.engine == "native":
        import mysticvale as mv
        if not mv.native_available():
            from mysticvale.engine.native import unavailable_reason
            ap.error(f"--engine native: {unavailable_reason()}")
        pos = [mv.Game.from_json(g.to_json(), engine="native") for g in pos]
    rng = Rng(3)
    costs = {"clone_us": [], "determinize_us": [], "observe_us": [], "legal_actions_us": [], "to_json_us": []}
    for g in pos:
        p = g.current_player
        costs["clone_us"].append(per_call_us(g.clone, 300))
        costs["determinize_us"].append(per_call_us(lambda: g.determinize(p, rng), 300))
        costs["observe_us"].append(per_call_us(lambda: g.observe(p), 300))

        def legal():
            g._legal = None          # measure the generation, not the cached list
            return g.legal_actions()
        costs["legal_actions_us"].append(per_call_us(legal, 300))
        costs["to_json_us"].append(per_call_us(g.to_json, 50))
    iters, py_cpu, rs_cpu = [], [], []
    for i, g in enumerate(pos if args.engine == "python" else []):
        bot = ISMCTS(seed=i, think=args.think)
        t0, c0 = time.perf_counter(), time.process_time()
        bot.act(SeatView(g, g.current_player))
        el, cpu = time.perf_counter() - t0, time.process_time() - c0
        iters.append(bot.last["iterations"] / el)
        py_cpu.append(bot.last["iterations"] / cpu)
    import mysticvale as mv
    if args.engine == "python" and mv.native_available():
        from mysticvale.engine import native
        core = native.module()
        for i, g in enumerate(pos):
            state = core.State.from_json(native.catalogue(g.state.cat), g.to_json())
            bot = core.NativeBot(f"ismcts:think={args.think}", i)
            c0 = time.process_time()
            bot.act(state, g.current_player)
            rs_cpu.append(bot.last()["iterations"] / (time.process_time() - c0))
    out = {k: round(sum(v) / len(v), 1) for k, v in costs.items()}
    if iters:
        out["ismcts_iterations_per_s"] = round(sum(iters) / len(iters), 1)
        out["ismcts_iterations_per_s_min"] = round(min(iters), 1)
        out["ismcts_iterations_per_s_max"] = round(max(iters), 1)
        out["ismcts_iterations_per_cpu_s"] = round(sum(py_cpu) / len(py_cpu), 1)
    if rs_cpu:
        out["native_ismcts_iterations_per_cpu_s"] = round(sum(rs_cpu) / len(rs_cpu), 1)
        out["native_ismcts_iterations_per_cpu_s_min"] = round(min(rs_cpu), 1)
        out["native_ismcts_iterations_per_cpu_s_max"] = round(max(rs_cpu), 1)
        # Position by position, then the mean of the ratios.
        ratios = [r / p for r, p in zip(rs_cpu, py_cpu)]
        out["native_vs_python_ismcts"] = round(sum(ratios) / len(ratios), 2)
    out["engine"] = args.engine
    out["positions"] = len(pos)
    out["think"] = args.think
    from mysticvale import _compiled
    out["build"] = _compiled.status()["build"]
    out["date"] = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    import os
    out["load_average"] = [round(x, 2) for x in os.getloadavg()]
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for k, v in out.items():
            print(f"{k:30} {v}")


if __name__ == "__main__":
    main()
