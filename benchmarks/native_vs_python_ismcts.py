"""The same ISMCTS with the same thinking time, native against Python: how much stronger does
the native core's speed make it?  (Issue 19: the server's bot workers search natively.)

    .venv/bin/python benchmarks/native_vs_python_ismcts.py --games 200 --think 0.1

Two-player base games of the arena (``bots/arena.py`` ``play_game``, seats rotating), played on
the Python engine: one seat is the Python ``ismcts``, the other the native core's ``ismcts``
with the same options and thinking time, asked as the server's workers ask it
(``bots/native_bot.py``: the game handed over as its save each decision, which the native bot's
time includes).  Prints the native bot's win rate with its Wilson 95% interval, ties, mean
scores and each side's iterations per decision.  The thinking time is wall-clock time, so on a
busy machine both sides search less; say the load with the figures.
"""

from __future__ import annotations

import argparse
import os
import time

from mysticvale.bots import register
from mysticvale.bots.arena import play_game
from mysticvale.bots.ismcts import ISMCTS
from mysticvale.bots.native_bot import NativeBot
from mysticvale.bots.stats import wilson

#: Iterations per decision of each side (the bots say so after each search).
SEEN: dict[str, list[int]] = {"native": [], "python": []}


class CountedNative(NativeBot):
    def act(self, view):
        action = super().act(view)
        last = self._core.last()
        if last:
            SEEN["native"].append(last["iterations"])
        return action


class CountedPython(ISMCTS):
    name = "ismcts"

    def act(self, view):
        action = super().act(view)
        if self.last:
            SEEN["python"].append(self.last["iterations"])
        return action


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--think", type=float, default=0.1, help="seconds per decision, both sides")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    register("native_ismcts", lambda seed, **o: CountedNative("ismcts", seed, **o))
    register("python_ismcts", lambda seed, **o: CountedPython(seed=seed, **o))
    specs = [f"native_ismcts:think={args.think}", f"python_ismcts:think={args.think}"]
    wins = ties = 0
    scores = {"native": 0, "python": 0}
    t0 = time.time()
    load0 = os.getloadavg()[0]
    for i in range(args.games):
        r = play_game(specs, args.seed, i, 2, ("base",), "yucata")
        seat_of = {label: s for s, label in enumerate(r["seats"])}
        nat, py = seat_of[specs[0]], seat_of[specs[1]]
        scores["native"] += r["scores"][nat]
        scores["python"] += r["scores"][py]
        if len(r["winners"]) > 1:                  # (the winners' labels)
            ties += 1
            wins += 0.5
        elif r["winners"] == [specs[0]]:
            wins += 1
        if (i + 1) % 20 == 0:
            print(f"  {i + 1} games: native {wins / (i + 1):.1%}", flush=True)
    n = args.games
    lo, hi = wilson(wins, n)
    it = {k: sorted(v)[len(v) // 2] if v else 0 for k, v in SEEN.items()}
    print(f"| native ismcts vs Python ismcts, think {args.think:g} s | {n} | {100 * wins / n:.1f}% "
          f"({100 * lo:.1f}-{100 * hi:.1f}) | {ties} | {scores['native'] / n:.1f} / {scores['python'] / n:.1f} "
          f"| {it['native']} / {it['python']} | {time.time() - t0:.0f} s | load {load0:.1f}-{os.getloadavg()[0]:.1f} |")


if __name__ == "__main__":
    main()
