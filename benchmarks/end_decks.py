"""What each bot's deck looks like when the game ends: net decay and advancements owned.

    .venv/bin/python benchmarks/end_decks.py --games 20 --iterations 250 --jobs 2

Plays ISMCTS (an iteration budget, so the result does not depend on the machine's load)
against greedy in two-player base games, seats alternating, and prints for each bot the mean
net decay (decay - growth symbols over every card it owns) and the mean number of
advancements on its cards at the end.  It shows what the fitted value model changed in how
ISMCTS builds its deck (``benchmarks/README.md``).
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor


def end_deck(i: int, iterations: int) -> dict[str, tuple[int, int]]:
    """{bot name: (net decay, advancements)} at the end of game ``i``."""
    from mysticvale.runtime import settle

    settle()
    import mysticvale as mv
    from mysticvale.bots import SeatView, make_bot
    from mysticvale.bots.greedy import card_info, owned_cards

    g = mv.new_game(players=2, seed=1000 + i)
    names = ["ismcts", "greedy"] if i % 2 == 0 else ["greedy", "ismcts"]
    bots = [make_bot(n, seed=i * 10 + k, **({"think": 0, "iterations": iterations} if n == "ismcts" else {}))
            for k, n in enumerate(names)]
    while not g.is_over():
        p = g.current_player
        g.apply_action(bots[p].act(SeatView(g, p)))
    out = {}
    for p, name in enumerate(names):
        me = g.observe(p)["players"][p]
        cards = owned_cards(me)
        out[name] = (sum(card_info(c).nd for c in cards), sum(len(c.get("advancements", ())) for c in cards))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=250)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with ProcessPoolExecutor(max(1, args.jobs)) as ex:
        results = list(ex.map(end_deck, range(args.games), [args.iterations] * args.games))
    for name in ("ismcts", "greedy"):
        decay = [r[name][0] for r in results]
        adv = [r[name][1] for r in results]
        print(f"{name:<7} net decay mean {sum(decay) / len(decay):.2f} (min {min(decay)}, max {max(decay)}), "
              f"advancements mean {sum(adv) / len(adv):.1f}")


if __name__ == "__main__":
    main()
