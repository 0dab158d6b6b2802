"""The Harvest phase (engine/harvest.py) in the native core: in seeded random games of every
set list, rule set, 2-4 players, with and without leaders and ``finish_turn``, the twin lists
the same Harvest actions in the same order, each of them changes the game exactly as in the
Python engine (the saves are the same text), and so do the "harvest_start" and
"harvest_end" steps.

Pieces of other modules (the "ability" step a ``use`` schedules, the Discard phase after
``finish``) are done by the Python engine and handed to the twin as a save (stepwise.py).
"""

from __future__ import annotations

import collections

from hypothesis import given, settings, strategies as st

from stepwise import SET_LISTS, python_apply_only, python_step, random_games, twin

STEP_KINDS = {"harvest_start", "harvest_end"}
VERBS = {"use", "token", "vale", "buy", "trade", "upgrade", "finish"}
RULESETS = ["yucata", "english", "german"]


def _same_legal(game, t) -> list[str]:
    legal = [str(a) for a in game.legal_actions()]
    assert t.legal_actions() == legal, "legal Harvest actions"
    return legal


def _follow(g, counts) -> None:
    """Run the steps that follow an action in both engines up to the next decision,
    comparing the Harvest's own steps."""
    while g.state.steps and not g.state.pending and not g.state.over:
        kind = g.state.steps[-1].kind
        if kind in STEP_KINDS:
            t = twin(g)
            python_step(g)
            assert t.run_one_step() == kind
            assert t.to_json() == g.to_json(), f"after step {kind!r}"
            counts[kind] += 1
        else:
            python_step(g)


def _check_harvest(game, counts, every_action: bool) -> None:
    """At a Harvest decision point: the same legal actions; then each action (or only
    ``finish``, the one that ends the phase) applied alone gives the same save."""
    t = twin(game)
    legal = _same_legal(game, t)
    counts["harvest"] += 1
    for a in legal if every_action else legal[-1:]:
        g2, t2 = game.clone(), t.clone()
        python_apply_only(g2, a)
        t2.apply_only(a)
        assert t2.to_json() == g2.to_json(), f"after {a!r}"
        counts[a.split()[0]] += 1
        if a == "finish":
            _follow(g2, counts)


def _check_pass(game, counts) -> None:
    """At a Planting decision point: ``pass`` and the "harvest_start" step that follows."""
    g2 = game.clone()
    python_apply_only(g2, "pass")
    _follow(g2, counts)


def _play(counts, seed, *, every=2, limit=400, **options) -> None:
    harvests = 0
    for game in random_games(seed, limit=limit, **options):
        st = game.state
        if st.pending:
            continue
        if st.turn.phase == "harvest":
            _check_harvest(game, counts, every_action=harvests % every == 0)
            harvests += 1
        elif st.turn.phase == "planting" and seed % 2 == 0:
            _check_pass(game, counts)


def test_every_harvest_action_and_step_is_the_same_in_every_option(core):
    counts: collections.Counter = collections.Counter()
    for i, sets in enumerate(SET_LISTS):
        for j, ruleset in enumerate(RULESETS):
            seed = 101 + 7 * i + j
            _play(counts, seed, players=2 + (i + j) % 3, sets=sets, ruleset=ruleset,
                  leaders=(i + j) % 2 == 0, finish_turn=j == 1, every=3, limit=250)
    # Every kind and every Harvest verb was compared (the counts say how often).
    missing = (STEP_KINDS | VERBS | {"harvest"}) - {k for k, n in counts.items() if n > 0}
    assert not missing, (missing, counts)


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), sets=st.sampled_from(SET_LISTS),
       ruleset=st.sampled_from(RULESETS), leaders=st.booleans(), finish_turn=st.booleans())
def test_random_games_harvest_the_same(core, players, seed, sets, ruleset, leaders, finish_turn):
    counts: collections.Counter = collections.Counter()
    _play(counts, seed, players=players, sets=sets, ruleset=ruleset, leaders=leaders,
          finish_turn=finish_turn, every=4, limit=200)
    assert counts["harvest"] > 0
