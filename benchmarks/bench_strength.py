"""Bot strength tables from the arena, as Markdown rows for benchmarks/README.md.

    .venv/bin/python benchmarks/bench_strength.py --jobs 2 \
        --match greedy,random:400 --match ismcts,greedy:200 --think 0.5

Each ``--match A,B:GAMES`` is played with seats rotating; the row gives A's win rate with
its Wilson 95% interval, ties, mean scores, game length, wall time and games/s.
"""

from __future__ import annotations

import argparse
import json
import time

from mysticvale.bots.arena import run_matches


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--match", action="append", required=True, help="A,B:GAMES")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--think", type=float, default=None)
    ap.add_argument("--sets", default="base")
    ap.add_argument("--save", default=None, help="also write the full results as JSON lines here")
    args = ap.parse_args()
    print("| match | games | A win rate (95% CI) | ties | mean scores A / B | rounds | time | games/s |")
    print("|---|---|---|---|---|---|---|---|")
    for m in args.match:
        bots, games = m.rsplit(":", 1) if m.rsplit(":", 1)[-1].isdigit() else (m, "100")
        specs = bots.split(",")
        t0 = time.time()
        r = run_matches(specs, games=int(games), seed=args.seed, jobs=args.jobs, think=args.think,
                        sets=tuple(args.sets.split(",")))
        a, b = r["bots"][0], r["bots"][1]
        lo, hi = r["win_rate_ci95"][a]
        print(f"| {a} vs {b} | {r['games']} | {100 * r['win_rate'][a]:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}) "
              f"| {r['ties']} | {r['scores'][a]['mean']:.1f} / {r['scores'][b]['mean']:.1f} "
              f"| {r['rounds']['mean']:.1f} | {time.time() - t0:.0f} s | {r['timing']['games_per_second']:.2f} |",
              flush=True)
        if args.save:
            with open(args.save, "a") as f:
                f.write(json.dumps({k: v for k, v in r.items() if k != "per_game"}) + "\n")


if __name__ == "__main__":
    main()
