"""Long comparisons of the two engines: seeded games played in lockstep (issue 19).

    .venv/bin/python benchmarks/diff_native.py --games 1000 --seed 1
    .venv/bin/python benchmarks/diff_native.py --games 200 --every-step        # every comparison after every step
    .venv/bin/python benchmarks/diff_native.py --games 100 --policy greedy --sets base --players 2
    .venv/bin/python benchmarks/diff_native.py --games 100000 --jobs 2 --no-observe
    .venv/bin/python benchmarks/diff_native.py --games 20000 --start 20000 --jobs 2   # games 20000-39999

A long run prints a progress line on stderr every 5% (games compared, divergences so far);
``--start`` splits one run into parts: the parts ``--start 0``, ``20000``, ... of ``--games 20000``
with the same ``--seed`` play exactly the games of one ``--games 100000`` run.

Each game is played by the Python engine and the native core side by side
(``tests/native/lockstep.py``): before every action the legal actions (in order), the seat
to act and the phase; the saves and every seat's and the spectator's observation at the
first decision of every turn (``--every-step``: after every step); the whole save and the
scores at the end.  Game ``i`` cycles through every option (set lists, rule sets, 2-4
players, leaders, ``finish_turn``, random and greedy play) unless options are fixed, with a
seed derived from ``--seed`` and ``i``.

Prints the games, steps and divergences, the decision kinds met, and the first divergence
found in full (replayed with every comparison after every step, to show the first step at
which it differs).  Exit status 1 if any game diverged.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "native"))

from lockstep import POLICIES, RULESETS, SET_LISTS, Options, locate, play  # noqa: E402

from mysticvale.engine.rng import derive_seed  # noqa: E402


def options(i: int, seed: int, args: argparse.Namespace) -> Options:
    """Game ``i``'s options: the chosen ones, the others cycling through every value."""
    sets = [tuple(args.sets.split(","))] if args.sets else SET_LISTS
    rulesets = [args.ruleset] if args.ruleset else list(RULESETS)
    players = [args.players] if args.players else [2, 3, 4]
    policies = [args.policy] if args.policy else list(POLICIES)
    leaders = [args.leaders == "yes"] if args.leaders else [False, True]
    finish = [args.finish_turn == "yes"] if args.finish_turn else [False, True]
    grid = [c for c in itertools.product(sets, rulesets, players, leaders, finish, policies)
            if not c[3] or "twilight_garden" in c[0]]
    if not grid:
        raise SystemExit("no game has these options (leaders need twilight_garden in --sets)")
    s, r, p, ld, ft, pol = grid[i % len(grid)]
    return Options(seed=derive_seed(seed, f"diff_native.game{i}") & ((1 << 62) - 1), players=p, sets=s,
                   ruleset=r, leaders=ld, finish_turn=ft, policy=pol)


def _run(job: tuple) -> dict:
    indices, seed, args = job
    out = {"games": 0, "steps": 0, "over": 0, "observed": 0, "divergences": [], "decisions": {}}
    for i in indices:
        opts = options(i, seed, args)
        res = play(opts, every_step=args.every_step, observe=not args.no_observe)
        out["games"] += 1
        out["steps"] += res.steps
        out["over"] += res.over
        out["observed"] += res.observed
        for k, n in res.decisions.items():
            out["decisions"][k] = out["decisions"].get(k, 0) + n
        if res.divergence is not None:
            first = locate(res.divergence) if not args.every_step else res.divergence
            out["divergences"].append({"game": i, "options": str(opts), "step": first.step,
                                       "what": first.what, "where": first.first_difference(),
                                       "full": str(first) if not out["divergences"] else None})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="processes (the same games either way)")
    ap.add_argument("--start", type=int, default=0, help="the first game's number (a part of a longer run)")
    ap.add_argument("--every-step", action="store_true", help="saves and observations after every step")
    ap.add_argument("--no-observe", action="store_true", help="do not compare observations")
    ap.add_argument("--sets", help="one set list, comma-separated (default: every set list in turn)")
    ap.add_argument("--ruleset", choices=RULESETS)
    ap.add_argument("--players", type=int, choices=(2, 3, 4))
    ap.add_argument("--policy", choices=POLICIES)
    ap.add_argument("--leaders", choices=("yes", "no"))
    ap.add_argument("--finish-turn", choices=("yes", "no"))
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    if args.games < 1 or args.jobs < 1 or args.start < 0:
        ap.error("--games and --jobs must be at least 1, --start at least 0")
    from mysticvale.engine import native
    if not native.available():
        print(f"the native core is not available: {native.unavailable_reason()}", file=sys.stderr)
        return 2
    t0, c0 = time.perf_counter(), time.process_time()
    chunk = max(1, min(50, args.games // (args.jobs * 4) or 1))
    end = args.start + args.games
    jobs = [(range(a, min(end, a + chunk)), args.seed, args) for a in range(args.start, end, chunk)]
    total = {"games": 0, "steps": 0, "over": 0, "observed": 0, "divergences": [], "decisions": {}}
    if args.jobs == 1:
        parts = map(_run, jobs)
    else:
        pool = ProcessPoolExecutor(max_workers=args.jobs)
        parts = pool.map(_run, jobs)
    every = max(1, args.games // 20)
    for part in parts:
        before = total["games"]
        for k in ("games", "steps", "over", "observed"):
            total[k] += part[k]
        total["divergences"].extend(part["divergences"])
        for k, n in part["decisions"].items():
            total["decisions"][k] = total["decisions"].get(k, 0) + n
        if total["games"] // every > before // every and total["games"] < args.games:
            print(f"{total['games']} of {args.games} games compared, {len(total['divergences'])} divergences, "
                  f"{time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    if args.jobs > 1:
        pool.shutdown()
    total["seconds"] = time.perf_counter() - t0
    total["cpu_seconds_this_process"] = time.process_time() - c0
    total["decisions"] = dict(sorted(total["decisions"].items()))
    if args.json:
        print(json.dumps(total, indent=2))
    else:
        first = f" (games {args.start}-{end - 1})" if args.start else ""
        print(f"games {total['games']}{first} (ended {total['over']}), steps {total['steps']}, "
              f"observations compared {total['observed']}, divergences {len(total['divergences'])}, "
              f"{total['seconds']:.1f} s")
        print("decisions met: " + ", ".join(f"{k} {n}" for k, n in total["decisions"].items()))
        for d in total["divergences"][:20]:
            print(f"  game {d['game']}: {d['what']} after {d['step']} actions; {d['where']} ({d['options']})")
        if total["divergences"]:
            print("\nfirst divergence in full:\n" + str(total["divergences"][0]["full"]))
    return 1 if total["divergences"] else 0


if __name__ == "__main__":
    sys.exit(main())
