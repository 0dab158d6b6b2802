"""Engine speed: complete 2-player base games between two greedy bots on one core, and, in
the same run, pyminion's own simulator with two of its bots (BigMoney vs BigMoneySmithy).

    .venv/bin/python benchmarks/bench_engine.py --games 100 --pyminion-games 300
    .venv/bin/python benchmarks/bench_engine.py --games 30 --profile     # engine hotspots
    MYSTICVALE_PURE=1 .venv/bin/python benchmarks/bench_engine.py ...     # without the compiled build
    .venv/bin/python benchmarks/bench_engine.py --games 40 --jobs-compare # --jobs 1 vs 2

Figures printed:
* greedy vs greedy, whole games (bots included): games/s and decisions/s;
* the same games replayed from their action lists (engine only: new_game, legal_actions,
  apply_action): games/s and decisions/s;
* pyminion: games/s, turns per game, decisions/s (calls to its bots' decider methods);
* the ratios;
* which build ran: ``compiled`` (the Cython build ``make`` makes) or ``pure`` (the sources).

``--profile`` always profiles the Python sources: cProfile cannot see inside compiled functions.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import sys
import time


def mystic(games: int, seed: int) -> dict:
    import mysticvale as mv
    from mysticvale.bots import SeatView, make_bot
    from mysticvale.bots.arena import game_seed
    from mysticvale.runtime import settle

    settle()     # as the arena does before it plays
    histories = []
    decisions = rounds = 0
    t0 = time.perf_counter()
    for i in range(games):
        gs = game_seed(seed, i)
        g = mv.new_game(players=2, seed=gs)
        bots = [make_bot("greedy", seed=gs + 1), make_bot("greedy", seed=gs + 2)]
        while not g.is_over():
            p = g.current_player
            g.apply_action(bots[p].act(SeatView(g, p)))
            decisions += 1
        rounds += g.state.round
        histories.append((gs, g.history))
    full = time.perf_counter() - t0
    # Engine only: replay the same games from their action lists.
    from mysticvale.engine.actions import Action
    parsed = [(gs, [Action.parse(a) for a in h]) for gs, h in histories]
    t0 = time.perf_counter()
    for gs, actions in parsed:
        g = mv.new_game(players=2, seed=gs)
        for a in actions:
            g.legal_actions()
            g.apply_action(a)
        assert g.is_over()
    engine = time.perf_counter() - t0
    return {"games": games, "decisions_per_game": decisions / games, "rounds_per_game": rounds / games,
            "seconds": full, "games_per_s": games / full, "decisions_per_s": decisions / full,
            "engine_seconds": engine, "engine_games_per_s": games / engine,
            "engine_decisions_per_s": decisions / engine}


def pyminion(games: int) -> dict:
    import logging

    from pyminion.bots.bot import BotDecider
    from pyminion.bots.examples import BigMoney, BigMoneySmithy
    from pyminion.expansions.base import base_set, smithy
    from pyminion.game import Game
    from pyminion.simulator import Simulator

    logging.disable(logging.CRITICAL)
    # Count decisions: every call of a decider method of a bot.
    counter = [0]
    names = [n for n in dir(BotDecider) if n.endswith(("_decision", "_priority"))]
    originals = {}
    for n in names:
        fn = getattr(BotDecider, n)
        originals[n] = fn

        def wrap(f):
            def w(*a, **k):
                counter[0] += 1
                return f(*a, **k)
            return w
        setattr(BotDecider, n, wrap(fn))
    try:
        game = Game(players=[BigMoney("big_money"), BigMoneySmithy("big_money_smithy")],
                    expansions=[base_set], kingdom_cards=[smithy], log_stdout=False)
        t0 = time.perf_counter()
        result = Simulator(game, iterations=games).run()
        el = time.perf_counter() - t0
    finally:
        for n, f in originals.items():
            setattr(BotDecider, n, f)
    turns = sum(r.turns for r in result.game_results) / games
    return {"games": games, "seconds": el, "games_per_s": games / el, "turns_per_game": turns,
            "decisions_per_game": counter[0] / games, "decisions_per_s": counter[0] / el}


def jobs_compare(games: int, seed: int) -> dict:
    from mysticvale.bots.arena import run_matches
    out = {}
    for jobs in (1, 2):
        r = run_matches(["greedy", "greedy"], games=games, seed=seed, jobs=jobs)
        out[jobs] = r["timing"]["games_per_second"]
    return {"games": games, "jobs1_games_per_s": out[1], "jobs2_games_per_s": out[2],
            "speedup": out[2] / out[1]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--pyminion-games", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true", help="cProfile the greedy games instead")
    ap.add_argument("--jobs-compare", action="store_true", help="arena throughput with --jobs 1 and 2")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if args.profile:
        os.environ["MYSTICVALE_PURE"] = "1"  # before mysticvale is imported
        pr = cProfile.Profile()
        pr.enable()
        mystic(args.games, args.seed)
        pr.disable()
        s = io.StringIO()
        pstats.Stats(pr, stream=s).sort_stats("tottime").print_stats(30)
        print(s.getvalue())
        return
    info = {"python": sys.version.split()[0], "machine": platform.machine(), "processor": platform.processor(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    if args.jobs_compare:
        info["jobs"] = jobs_compare(args.games, args.seed)
    else:
        info["mysticvale"] = mystic(args.games, args.seed)
        info["pyminion"] = pyminion(args.pyminion_games)
        m, p = info["mysticvale"], info["pyminion"]
        info["ratio_games_per_s"] = m["games_per_s"] / p["games_per_s"]
        info["ratio_engine_games_per_s"] = m["engine_games_per_s"] / p["games_per_s"]
        info["ratio_decisions_per_s"] = m["decisions_per_s"] / p["decisions_per_s"]
    from mysticvale import _compiled
    info["build"] = _compiled.status()["build"]
    if args.json:
        print(json.dumps(info, indent=2))
        return
    for k, v in info.items():
        if isinstance(v, dict):
            print(f"{k}:")
            for kk, vv in v.items():
                print(f"  {kk:24} {vv:.4g}" if isinstance(vv, float) else f"  {kk:24} {vv}")
        else:
            print(f"{k:26} {v:.4g}" if isinstance(v, float) else f"{k:26} {v}")


if __name__ == "__main__":
    main()
