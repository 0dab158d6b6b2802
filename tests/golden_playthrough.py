"""Golden playthroughs: seeded games written out step by step, diffed by a test.

Regenerate on purpose with ``python scripts/regen_golden.py`` after a deliberate rules change
and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import mysticvale as mv
from mysticvale.engine.rng import Rng

GOLDEN_DIR = Path(__file__).parent / "golden"
CASES = {
    "base_2p_yucata_seed1": dict(players=2, seed=1, ruleset="yucata", steps=250),
    "base_3p_english_seed2": dict(players=3, seed=2, ruleset="english", steps=250),
}


def _card(c: dict | None) -> str:
    if c is None:
        return "-"
    return f"{c['id']}:{c['name']}"


def playthrough(players: int, seed: int, ruleset: str, steps: int, engine: str = "python") -> str:
    game = mv.new_game(players=players, seed=seed, ruleset=ruleset, engine=engine)
    rng = Rng(seed)
    lines = [f"# {players} players, seed {seed}, rule set {ruleset}; random legal actions (Rng({seed}))"]
    for i in range(steps):
        if game.is_over():
            break
        seat = game.current_player
        obs = game.observe(seat)
        lines.append(f"step {i} round {obs['round']} phase {obs['phase']} player {seat} pool {obs['vp_pool']}")
        for p in obs["players"]:
            lines.append(
                f"  p{p['seat']} deck {p['deck_count']} discard {p['discard_count']} vp {p['vp_tokens']} "
                f"token {'A' if p['mana_token_active'] else 's'} decay {p['decay']} "
                f"field [{', '.join(_card(c) for c in p['field'])}] on-deck {_card(p['on_deck'])} "
                f"vales [{', '.join(v['name'] for v in p['vales'])}]")
        if obs["pending"]:
            lines.append(f"  pending {obs['pending']['kind']}")
        legal = game.legal_actions()
        lines.append("  legal " + " | ".join(str(a) for a in legal))
        choice = legal[rng.below("pick", len(legal))]
        lines.append(f"  play {choice}")
        game.apply_action(choice)
    lines.append(f"# scores after {len(game.history)} actions: {game.scores()}")
    return "\n".join(lines) + "\n"


def path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.txt"
