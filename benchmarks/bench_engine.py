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
* where the native core is built (``mysticvale.native_available()``), the same replay by the
  native core: through ``NativeGame`` (``new_game(..., engine="native")``, the same Action
  values) and through the bare ``_native.State`` (notation in, notation out), each checked
  to end in the Python engine's save; and ``clone()`` / ``determinize()`` in µs of both
  engines on positions of the same games (``--no-native``: leave the native rows out);
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
    ends: list[str] = []
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
        ends.append(g.to_json())
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
            "engine_decisions_per_s": decisions / engine, "histories": histories, "ends": ends}


def _per_call_us(fn, number: int) -> float:
    import timeit
    return 1e6 * min(timeit.repeat(fn, number=number, repeat=3)) / number


def native_rows(histories: list[tuple[int, list[str]]], ends: list[str]) -> dict:
    """The native core replaying the recorded games, and clone() / determinize() of both
    engines on positions of them (every 40th action from the 17th)."""
    import mysticvale as mv
    from mysticvale.engine import native
    from mysticvale.engine.actions import Action
    from mysticvale.engine.rng import Rng

    parsed = [(gs, [Action.parse(a) for a in h]) for gs, h in histories]
    decisions = sum(len(h) for _, h in histories)
    t0 = time.perf_counter()
    for gs, actions in parsed:
        g = mv.new_game(players=2, seed=gs, engine="native")
        for a in actions:
            g.legal_actions()
            g.apply_action(a)
    facade = time.perf_counter() - t0
    cat = native.catalogue(mv.new_game(players=2, seed=0).state.cat)
    state = native.module().State
    t0 = time.perf_counter()
    for gs, actions in histories:
        st = state.new_game(cat, "yucata", 2, gs)
        for a in actions:
            st.legal_actions()
            st.apply_action(a)
    bare = time.perf_counter() - t0
    # Each replay ends in the Python engine's save (the same games).
    for (gs, actions), end in zip(parsed, ends):
        g = mv.new_game(players=2, seed=gs, engine="native")
        for a in actions:
            g.apply_action(a)
        assert g.to_json() == end, f"the native replay of game {gs} ended elsewhere"
    out = {"engine_seconds": facade, "engine_games_per_s": len(histories) / facade,
           "engine_decisions_per_s": decisions / facade,
           "bare_seconds": bare, "bare_games_per_s": len(histories) / bare,
           "bare_decisions_per_s": decisions / bare}
    costs: dict[str, list[float]] = {"python_clone_us": [], "python_determinize_us": [],
                                     "native_clone_us": [], "native_determinize_us": [],
                                     "bare_clone_us": []}
    for gs, actions in parsed[:4]:
        py = mv.new_game(players=2, seed=gs)
        for k, a in enumerate(actions):
            if k % 40 == 17:
                nat = mv.Game.from_json(py.to_json(), engine="native")
                p = py.current_player
                for name, g in (("python", py), ("native", nat)):
                    rng = Rng(3)
                    costs[f"{name}_clone_us"].append(_per_call_us(g.clone, 300))
                    costs[f"{name}_determinize_us"].append(_per_call_us(lambda: g.determinize(p, rng), 300))
                # The bare `_native.State`'s own copy, without the game face around it.
                bare_state = state.from_json(cat, py.to_json())
                costs["bare_clone_us"].append(_per_call_us(bare_state.clone, 300))
            py.apply_action(a)
    out.update({k: sum(v) / len(v) for k, v in costs.items()})
    out["positions"] = len(costs["native_clone_us"])
    return out


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
    ap.add_argument("--no-native", action="store_true", help="leave out the native core's rows")
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
        histories, ends = info["mysticvale"].pop("histories"), info["mysticvale"].pop("ends")
        from mysticvale import native_available
        if not args.no_native and native_available():
            info["native"] = native_rows(histories, ends)
        info["pyminion"] = pyminion(args.pyminion_games)
        m, p = info["mysticvale"], info["pyminion"]
        info["ratio_games_per_s"] = m["games_per_s"] / p["games_per_s"]
        info["ratio_engine_games_per_s"] = m["engine_games_per_s"] / p["games_per_s"]
        info["ratio_decisions_per_s"] = m["decisions_per_s"] / p["decisions_per_s"]
        if "native" in info:
            n = info["native"]
            info["ratio_native_engine_games_per_s"] = n["engine_games_per_s"] / p["games_per_s"]
            info["ratio_native_bare_games_per_s"] = n["bare_games_per_s"] / p["games_per_s"]
            info["native_over_python_engine"] = n["engine_games_per_s"] / m["engine_games_per_s"]
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
