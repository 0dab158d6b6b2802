"""Random-vs-random and greedy-vs-greedy 2-player base games per CPU second: the Python
engine with the Python bots against the native batch (``bots/native_batch.py``: the Rust bots
playing whole games in the native core), in one run, with pyminion's games per CPU second
beside them.

    .venv/bin/python benchmarks/bench_native_bots.py --games 100 --native-games 2000 --pyminion-games 300 \
        --greedy-games 20 --native-greedy-games 200

The greedy rows (``--greedy-games`` Python games, ``--native-greedy-games`` native ones; 0
leaves them out) are checked the same way: the first native records equal the Python ones.

Both sides play the arena's games (``bots/arena.py`` ``play_game``: game ``i`` of the arena
seed ``--seed``); the first ``--games`` native records are checked equal to the Python ones
(but for ``bot_seconds``) before any figure is printed.  CPU seconds are
``time.process_time()`` around each side's games.  pyminion is measured by
``bench_engine.py``'s own ``pyminion()`` (its ``Simulator``, BigMoney vs BigMoneySmithy),
timed here in CPU seconds too.  Needs the native core built (``make native``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def python_games(games: int, seed: int, bot: str = "random") -> tuple[float, list[dict]]:
    """CPU seconds of ``games`` arena games, Python engine and bots, and their records."""
    from mysticvale.bots.arena import play_game

    t0 = time.process_time()
    records = [play_game([bot, bot], seed, i, 2, ("base",), "yucata") for i in range(games)]
    return time.process_time() - t0, records


def native_games(games: int, seed: int, bot: str = "random") -> tuple[float, list[dict]]:
    """CPU seconds of ``games`` arena games played by the native batch, and their records."""
    from mysticvale.bots import native_batch

    native_batch.play_games(["random", "random"], seed, [0], 2, ("base",), "yucata", 100)  # catalogue twin built
    t0 = time.process_time()
    records = native_batch.play_games([bot, bot], seed, range(games), 2, ("base",), "yucata", 100)
    return time.process_time() - t0, records


def _same(native: list[dict], python: list[dict]) -> bool:
    strip = [{k: v for k, v in r.items() if k != "bot_seconds"} for r in native[:len(python)]]
    return strip == [{k: v for k, v in r.items() if k != "bot_seconds"} for r in python[:len(strip)]]


def pyminion_cpu(games: int) -> dict:
    """``bench_engine.pyminion(games)`` with its CPU seconds."""
    from bench_engine import pyminion

    t0 = time.process_time()
    out = pyminion(games)
    cpu = time.process_time() - t0
    return {**out, "cpu_seconds": cpu, "games_per_cpu_s": games / cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="Python engine games")
    ap.add_argument("--native-games", type=int, default=2000, help="native batch games")
    ap.add_argument("--pyminion-games", type=int, default=300, help="0: leave pyminion out")
    ap.add_argument("--greedy-games", type=int, default=20, help="Python greedy games (0: no greedy rows)")
    ap.add_argument("--native-greedy-games", type=int, default=200, help="native greedy games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    from mysticvale import native_available
    from mysticvale.engine import native

    if not native_available():
        sys.exit(f"the native core is not available: {native.unavailable_reason()}")
    py_cpu, py_records = python_games(args.games, args.seed)
    nat_cpu, nat_records = native_games(args.native_games, args.seed)
    strip = [{k: v for k, v in r.items() if k != "bot_seconds"} for r in nat_records[:args.games]]
    if strip != [{k: v for k, v in r.items() if k != "bot_seconds"} for r in py_records[:len(strip)]]:
        sys.exit("the native batch's records differ from the Python arena's: no figures")
    info: dict = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average": list(os.getloadavg()),
        "python_games": args.games,
        "python_cpu_seconds": py_cpu,
        "python_games_per_cpu_s": args.games / py_cpu,
        "native_games": args.native_games,
        "native_cpu_seconds": nat_cpu,
        "native_games_per_cpu_s": args.native_games / nat_cpu,
        "decisions_per_game": sum(sum(r["decisions"]) for r in nat_records) / len(nat_records),
    }
    info["native_over_python"] = info["native_games_per_cpu_s"] / info["python_games_per_cpu_s"]
    if args.greedy_games:
        gpy_cpu, gpy_records = python_games(args.greedy_games, args.seed, "greedy")
        gnat_cpu, gnat_records = native_games(max(args.native_greedy_games, args.greedy_games), args.seed, "greedy")
        if not _same(gnat_records, gpy_records):
            sys.exit("the native greedy games' records differ from the Python arena's: no figures")
        info["greedy_python_games"] = args.greedy_games
        info["greedy_python_games_per_cpu_s"] = args.greedy_games / gpy_cpu
        info["greedy_native_games"] = len(gnat_records)
        info["greedy_native_games_per_cpu_s"] = len(gnat_records) / gnat_cpu
        info["greedy_decisions_per_game"] = sum(sum(r["decisions"]) for r in gnat_records) / len(gnat_records)
        info["greedy_native_over_python"] = (info["greedy_native_games_per_cpu_s"]
                                             / info["greedy_python_games_per_cpu_s"])
    if args.pyminion_games:
        p = pyminion_cpu(args.pyminion_games)
        info["pyminion_games_per_cpu_s"] = p["games_per_cpu_s"]
        info["python_over_pyminion"] = info["python_games_per_cpu_s"] / p["games_per_cpu_s"]
        info["native_over_pyminion"] = info["native_games_per_cpu_s"] / p["games_per_cpu_s"]
        if args.greedy_games:
            info["greedy_python_over_pyminion"] = info["greedy_python_games_per_cpu_s"] / p["games_per_cpu_s"]
            info["greedy_native_over_pyminion"] = info["greedy_native_games_per_cpu_s"] / p["games_per_cpu_s"]
    if args.json:
        print(json.dumps(info, indent=2))
        return
    for k, v in info.items():
        print(f"{k:26} {v:.4g}" if isinstance(v, float) else f"{k:26} {v}")


if __name__ == "__main__":
    main()
