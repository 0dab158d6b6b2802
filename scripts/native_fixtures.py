"""Write the fixtures that the native core's cargo tests read (``native/tests/fixtures``).

    .venv/bin/python scripts/native_fixtures.py          # rewrite them
    .venv/bin/python scripts/native_fixtures.py --check  # exit 1 if one is out of date

The Python engine is the reference: each fixture is what it computes, and the Rust twin's
tests (``native/tests/*.rs``) must reproduce it.  ``tests/native/test_fixtures.py`` checks
that the files are current, so a change to the Python engine cannot leave them stale.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from mysticvale.engine import native_catalogue  # noqa: E402
from mysticvale.engine.rng import Rng, derive_seed  # noqa: E402

FIXTURES = ROOT / "native" / "tests" / "fixtures"

#: Seeds of every shape Python accepts: small, negative, beyond 64 bits.
SEEDS = (0, 7, 42, -1, -123456789, 2**62 - 1, 2**64 + 5, 10**30)
STREAMS = ("deck0", "deck3", "adv1", "vale2", "setup", "leaders", "determinize", "random", "expand", "ünï")
BOUNDS = (1, 2, 3, 5, 7, 10, 52, 1000, 2**32 + 1, 2**62, 2**63 + 1, 2**64 - 1)
SHUFFLE_SIZES = (0, 1, 2, 5, 20, 60)
#: Set lists whose resolved catalogue tables are written (``catalogue_<sets>.json``).
CATALOGUE_SETS = (("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
                  ("base", "vale_of_magic", "twilight_garden"))


def rng_vectors() -> dict:
    """Seeds x stream names -> derived seeds and draws; bounded draws; shuffles."""
    cases = []
    for seed in SEEDS:
        rng = Rng(seed)
        streams = []
        for name in STREAMS:
            streams.append({"name": name, "derived": derive_seed(seed, name),
                            "draws": [rng._next(name) for _ in range(8)]})
        below = [{"n": n, "value": rng.below("setup", n)} for n in BOUNDS]
        shuffles = []
        for k in SHUFFLE_SIZES:
            items = list(range(k))
            rng.shuffle("deck1", items)
            shuffles.append({"size": k, "order": items})
        cases.append({"seed": str(seed), "streams": streams, "below": below, "shuffles": shuffles,
                      "states": [[k, v] for k, v in rng.to_dict()["states"].items()]})
    return {"cases": cases}


def midgame_save(actions: int = 60) -> str:
    """A base-game save after random play (seeded), for the cargo save round trip."""
    import mysticvale as mv

    game = mv.new_game(players=3, seed=7)
    rng = Rng(7)
    for _ in range(actions):
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("random", len(legal))])
    return game.to_json()


#: The leader set-ups written (``leader_setups.json``): set lists with leaders x player counts,
#: each with a rule set, a seed of another shape and ``finish_turn`` on or off.
LEADER_SETUP_SETS = (("base", "twilight_garden"), ("base", "vale_of_magic", "twilight_garden"))


def leader_setups() -> dict:
    """``new_game(..., leaders=True)`` saves (set up, leaders dealt, the first choice open),
    and the message for leaders without Twilight Garden, for the native set-up's test."""
    import mysticvale as mv

    cases = []
    k = 0
    for sets in LEADER_SETUP_SETS:
        for players in (2, 3, 4):
            for ruleset in ("yucata", "english", "german"):
                seed, finish_turn = SEEDS[k % len(SEEDS)], k % 2 == 1
                k += 1
                game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=True,
                                   finish_turn=finish_turn)
                cases.append({"sets": "+".join(sets), "players": players, "ruleset": ruleset,
                              "seed": str(seed), "finish_turn": finish_turn, "save": game.to_json()})
    try:
        mv.new_game(players=2, seed=1, sets=("base",), leaders=True)
    except ValueError as e:
        refused = {"sets": "base", "players": 2, "seed": "1", "message": str(e)}
    return {"cases": cases, "refused": [refused]}


def fixtures() -> dict[str, str]:
    """File name -> text of every fixture."""
    out = {"rng_vectors.json": json.dumps(rng_vectors(), indent=1, ensure_ascii=False) + "\n"}
    out["save_base_midgame.json"] = midgame_save()
    out["leader_setups.json"] = json.dumps(leader_setups(), indent=1, ensure_ascii=False) + "\n"
    for sets in CATALOGUE_SETS:
        out[f"catalogue_{'+'.join(sets)}.json"] = native_catalogue.table_json_for(sets) + "\n"
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that the files are current")
    args = ap.parse_args(argv)
    stale = []
    for name, text in fixtures().items():
        path = FIXTURES / name
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            FIXTURES.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print("out of date (run scripts/native_fixtures.py): " + ", ".join(stale))
        return 1
    print(("rewrote: " + ", ".join(stale)) if stale else "native fixtures are current")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
