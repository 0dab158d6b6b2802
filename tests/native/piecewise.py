"""Comparing the twin's flow and discard modules with the Python engine, piece by piece.

Like ``stepwise.check_steps``, but decision kinds and step kinds are chosen apart (the
effects' ``discard_field`` decision shares its name with discard's ``discard_field``
step), each comparison is counted by kind, and a decision point is compared only when the
work it starts holds a kind still seldom compared (a lookahead on a copy of the game
says which), so that many games fit in a short test. The games are
``stepwise.random_games``' (the same seeded random choices), and the work compared after
a decision point is that of the action the game then takes.
"""

from __future__ import annotations

import collections
from contextlib import contextmanager

from hypothesis import strategies as st

import mysticvale as mv
from mysticvale.engine import registry
from mysticvale.engine.rng import Rng
from stepwise import SET_LISTS, python_apply_only, python_step, twin

RULESETS = ("yucata", "english", "german")
#: The work of an action that logs one of these is always compared.
RARE_EVENTS = {"extra_turn", "end_triggered", "game_over", "guard"}


@contextmanager
def recording_steps():
    """Record the kind of every step the Python engine runs (into the list yielded)."""
    ran: list[str] = []
    saved = dict(registry.STEPS)

    def recorder(kind, fn):
        def run(st, s):
            ran.append(kind)
            return fn(st, s)
        return run

    for kind, fn in saved.items():
        registry.STEPS[kind] = recorder(kind, fn)
    try:
        yield ran
    finally:
        registry.STEPS.update(saved)


def compare(game: mv.Game, action: str, decisions: set[str], steps: set[str], counts: collections.Counter) -> None:
    """From this decision point, compare both engines: the decision (every legal action)
    if its kind is in ``decisions``, then, after ``action``, each step of a kind in
    ``steps`` until the next decision. Other work is done by the Python engine and handed
    to the twin as a save (an "ability" step resolves its effect through registry.resolve:
    the effects modules, merged). Counts each comparison by kind, and "game_over" when
    an "end_turn" step ended the game, "extra_turn" when it began another turn,
    "last_level2_vale" when a "replenish" step triggered the game end on the last
    level-2 vale (German and yucata rules)."""
    legal = [str(a) for a in game.legal_actions()]
    st = game.state
    kind = st.pending[-1].kind if st.pending else ("planting" if st.turn.phase == "planting" else "harvest")
    if kind in decisions:
        t = twin(game)
        assert t.legal_actions() == legal, f"legal actions of {kind}"
        counts[kind] += 1
        for a in legal:
            g2 = game.clone()
            t2 = t.clone()
            python_apply_only(g2, a)
            t2.apply_only(a)
            assert t2.to_json() == g2.to_json(), f"after {a!r} on {kind}"
    g = game.clone()
    python_apply_only(g, action)
    while g.state.steps and not g.state.pending and not g.state.over:
        k = g.state.steps[-1].kind
        if k in steps:
            t = twin(g)
            extra = len([e for e in g.state.events if e.kind == "extra_turn"])
            python_step(g)
            assert t.run_one_step() == k
            assert t.to_json() == g.to_json(), f"after step {k!r}"
            counts[k] += 1
            if k == "end_turn" and g.state.over:
                counts["game_over"] += 1
            if k == "end_turn" and len([e for e in g.state.events if e.kind == "extra_turn"]) > extra:
                counts["extra_turn"] += 1
            if k == "replenish" and g.state.end_triggered == "last_level2_vale" and g.state.events[-1].kind \
                    == "end_triggered":
                counts["last_level2_vale"] += 1
        else:
            python_step(g)


def game_options(seed: int) -> dict:
    """Options for the seed-th game: every set list, rule set, player count, with and
    without leaders and finish_turn, cycling at different rates."""
    return dict(players=2 + seed % 3, sets=SET_LISTS[seed % 5], ruleset=RULESETS[seed % 3],
                leaders=seed % 2 == 0, finish_turn=seed % 4 < 2)


#: Hypothesis's choice of a seeded game: any seed and every option, as ``game_options`` gives
#: them (the tests of the flow and discard modules draw theirs from here).
ANY_GAME = st.fixed_dictionaries({
    "seed": st.integers(0, 2**40), "players": st.integers(2, 4), "sets": st.sampled_from(SET_LISTS),
    "ruleset": st.sampled_from(RULESETS), "leaders": st.booleans(), "finish_turn": st.booleans()})


def compare_any_game(game: dict, decisions: set[str], steps: set[str]) -> collections.Counter:
    """``compare_games`` on one game drawn from :data:`ANY_GAME`, every kind compared at
    least once."""
    options = {k: v for k, v in game.items() if k != "seed"}
    return compare_games([game["seed"]], decisions, steps, enough=1, options=lambda _: options)


def compare_games(seeds, decisions: set[str], steps: set[str], *, enough: int = 3,
                  first: int = 3, options=game_options) -> collections.Counter:
    """Play seeded random games (``stepwise.random_games``' choices, ``options(seed)``) and
    compare the decision points whose work holds a kind compared fewer than ``enough``
    times in that game (and the game's first ``first`` ones, and those whose work logs one
    of ``RARE_EVENTS``); returns the counts by kind."""
    counts: collections.Counter = collections.Counter()
    mine = decisions | steps
    with recording_steps() as ran:
        for seed in seeds:
            local: collections.Counter = collections.Counter()
            o = options(seed)
            game = mv.new_game(players=o["players"], seed=seed, sets=o["sets"], ruleset=o["ruleset"],
                               leaders=o["leaders"] and "twilight_garden" in o["sets"],
                               finish_turn=o["finish_turn"])
            rng = Rng(seed)
            n = 0
            while not game.is_over():
                legal = game.legal_actions()
                action = str(legal[rng.below("random", len(legal))])
                st = game.state
                kind = st.pending[-1].kind if st.pending else (
                    "planting" if st.turn.phase == "planting" else "harvest")
                ran.clear()
                game_before = game.clone()
                game.apply_action(action)
                ahead = ({kind} | set(ran)) & mine
                events = {e.kind for e in game.state.events[len(game_before.state.events):]}
                if n < first or events & RARE_EVENTS or any(local[k] < enough for k in ahead):
                    before = counts.copy()
                    ran.clear()
                    compare(game_before, action, decisions, steps, counts)
                    local.update(counts - before)
                n += 1
    return counts
