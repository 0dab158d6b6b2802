"""A rating for every bot level (issue 20): a round robin of seeded arena games, seats rotating,
in 2-, 3- and 4-player games, rated with openskill as people are rated on the server.

    .venv/bin/python benchmarks/rate_levels.py --games 20,15,12 --jobs 2 --json benchmarks/levels_rating.json

The pool is ``random`` and the four levels (``bots/levels.py``).  For each player count, every
combination of that many bots of the pool plays ``--games`` base games of the arena (one
number, or one per player count, best a multiple of it)
(``bots/arena.py``: game ``i`` of a run has its own seed and rotates the seats, so a bot has
every seat equally often), on the native core when it is built (the levels search with
iteration budgets, so their games are the Python engine's too, only faster).  The games are
then rated in one pass, the combinations' games interleaved (game 0 of every table, then game 1,
...), with ``server/ratings.py``: openskill's Plackett-Luce model, places by final score (the
winners share the first place), the shown number ``1000 + 40 * (mu - 3 sigma)``.

Prints the ratings, each level's 2-player win rate against every other bot (Wilson 95%), and in
3- and 4-player games each level's share of wins against the rest; ``--json`` writes it all.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time

from mysticvale.bots.arena import run_matches
from mysticvale.bots.levels import levels
from mysticvale.bots.stats import wilson
from mysticvale.engine import native
from mysticvale.server.ratings import Skill, places_of, rate


def pool() -> list[str]:
    """The bots rated: random and the levels, gentlest first."""
    return ["random"] + [lv.name for lv in levels()]


def round_robin(bots: list[str], players: int, games: int, seed: int, jobs: int, engine: str) -> list[dict]:
    """The arena results of every combination of ``players`` bots of ``bots``."""
    out = []
    for combo in itertools.combinations(bots, players):
        t0 = time.perf_counter()
        r = run_matches(list(combo), games=games, players=players, seed=seed, jobs=jobs, engine=engine)
        print(f"  {players}p {' / '.join(combo)}: {games} games, {time.perf_counter() - t0:.1f} s; "
              f"wins {r['wins']}", flush=True)
        out.append(r)
    return out


def ratings(results: list[dict], bots: list[str]) -> dict[str, Skill]:
    """openskill ratings from the games of ``results``, their games interleaved."""
    skills = {b: Skill() for b in bots}
    longest = max(len(r["per_game"]) for r in results)
    for k in range(longest):
        for r in results:
            if k >= len(r["per_game"]):
                continue
            g = r["per_game"][k]
            seats = g["seats"]
            winners = [s for s, lb in enumerate(seats) if lb in g["winners"]]
            places = places_of([(score, 0) for score in g["scores"]], winners)
            new = rate([skills[lb] for lb in seats], places)
            for lb, sk in zip(seats, new):
                skills[lb] = sk
    return skills


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default="20,15,12",
                    help="games per table, one number or one per player count (a multiple of the players is fairest)")
    ap.add_argument("--seed", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    ap.add_argument("--engine", choices=("auto", "native", "python"), default="auto")
    ap.add_argument("--json", help="write the results to this file")
    args = ap.parse_args()
    engine = ("native" if native.available() else "python") if args.engine == "auto" else args.engine
    bots = pool()
    counts = [int(x) for x in args.players.split(",")]
    per = [int(x) for x in args.games.split(",")]
    if len(per) == 1:
        per = per * len(counts)
    if len(per) != len(counts):
        ap.error(f"--games: give one number or one per player count ({len(counts)})")
    games = dict(zip(counts, per))
    load = os.getloadavg()
    started = time.strftime('%F %T UTC', time.gmtime())
    print(f"rate_levels: {bots}, games per table {games}, seed {args.seed}, engine {engine}, "
          f"jobs {args.jobs}, load {load[0]:.1f}; started {started}")
    t0 = time.perf_counter()
    results = {n: round_robin(bots, n, games[n], args.seed, args.jobs, engine) for n in counts}
    every = [r for n in counts for r in results[n]]
    skills = ratings(every, bots)
    print(f"\n{sum(r['games'] for r in every)} games in {time.perf_counter() - t0:.0f} s "
          f"(load now {os.getloadavg()[0]:.1f})\n")
    print("| bot | rating | mu | sigma | games |")
    print("|---|---|---|---|---|")
    for b in sorted(bots, key=lambda b: -skills[b].shown):
        sk = skills[b]
        print(f"| {b} | {sk.shown} | {sk.mu:.2f} | {sk.sigma:.2f} | {sk.games} |")
    heads: dict[str, dict[str, list[float]]] = {}
    if 2 in results:
        print("\n2 players, win rate of the row against the column (Wilson 95%):")
        for r in results[2]:
            a, b = r["bots"]
            heads.setdefault(a, {})[b] = [r["win_rate"][a], *r["win_rate_ci95"][a]]
            heads.setdefault(b, {})[a] = [r["win_rate"][b], *r["win_rate_ci95"][b]]
        print("| | " + " | ".join(bots) + " |")
        print("|---" * (len(bots) + 1) + "|")
        for a in bots:
            cells = [("" if a == b else "{:.0%} ({:.0%}-{:.0%})".format(*heads[a][b])) for b in bots]
            print(f"| {a} | " + " | ".join(cells) + " |")
    shares: dict[int, dict[str, list[float]]] = {}
    for n in counts:
        if n == 2:
            continue
        won = {b: 0 for b in bots}
        played = {b: 0 for b in bots}
        for r in results[n]:
            for b in r["bots"]:
                won[b] += r["wins"][b]
                played[b] += r["games"]
        shares[n] = {b: [won[b] / played[b], *wilson(won[b], played[b])] for b in bots if played[b]}
        print(f"\n{n} players: share of games won outright (a fair share is {1 / n:.0%}):")
        for b, (x, lo, hi) in shares[n].items():
            print(f"  {b}: {x:.1%} ({lo:.1%}-{hi:.1%}) of {played[b]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"seed": args.seed, "games_per_table": games, "engine": engine,
                       "started": started, "load": [round(x, 1) for x in load],
                       "ratings": {b: {"shown": skills[b].shown, "mu": skills[b].mu, "sigma": skills[b].sigma,
                                       "games": skills[b].games} for b in bots},
                       "two_player": heads, "shares": shares,
                       "tables": [{k: r[k] for k in ("bots", "players", "games", "wins", "win_rate", "scores")}
                                  for r in every]}, f, indent=1)


if __name__ == "__main__":
    main()
