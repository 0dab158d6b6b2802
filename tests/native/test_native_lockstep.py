"""The lockstep harness (issue 19, "The proof"): seeded games played in both engines.

Every game is played by the Python engine and the native core side by side
(``tests/native/lockstep.py``).  Before every action both offer the same legal actions in
the same order, the same seat to act and the same phase; the saves (``to_json()``) and
every seat's and the spectator's ``observe()`` are the same after every step (the
Hypothesis games and the golden playthroughs); in the batches (500 games) the saves at the
first decision of every turn and the observations at the first decision of every round;
the whole save, the observations and the scores at the end.  Actions are chosen on the
Python game, at random or by the Python greedy bot of the seat to act.

The batches cycle through every option: the five set lists, the three rule sets, 2-4
players, with and without leaders (where Twilight Garden is in the sets) and
``finish_turn``, random and greedy play.  A divergence fails the test with the first step
at which it shows, replayed with every comparison after every step.
"""

from __future__ import annotations

import itertools

import pytest
from golden_playthrough import CASES, path, playthrough
from hypothesis import HealthCheck, given, settings, strategies as st
from lockstep import POLICIES, RULESETS, SET_LISTS, Options, locate, play

from mysticvale.engine.rng import Rng, derive_seed

#: Every combination of options (leaders only where Twilight Garden is in the sets).
GRID = [dict(sets=sets, ruleset=ruleset, players=players, leaders=leaders, finish_turn=finish_turn,
             policy=policy)
        for sets, ruleset, players, leaders, finish_turn, policy in itertools.product(
            SET_LISTS, RULESETS, (2, 3, 4), (False, True), (False, True), POLICIES)
        if not leaders or "twilight_garden" in sets]
GAMES = 500
BATCHES = 25


def batch(i: int) -> list[Options]:
    """Games ``i * GAMES / BATCHES ...`` of the run: the grid in a seeded order, cycled,
    each game with a seed of its own."""
    order = list(range(len(GRID)))
    Rng(19).shuffle("lockstep.grid", order)
    per = GAMES // BATCHES
    return [Options(seed=derive_seed(19, f"lockstep.game{g}") & 0xFFFFFFFF, **GRID[order[g % len(GRID)]])
            for g in range(i * per, (i + 1) * per)]


def _check(opts: Options, **how) -> None:
    res = play(opts, **how)
    if res.divergence is not None:
        pytest.fail(str(locate(res.divergence)))
    assert res.over, f"the game did not end in {res.steps} actions ({opts})"


def test_the_batches_cover_every_option():
    games = [o for i in range(BATCHES) for o in batch(i)]
    assert len(games) == GAMES == 500
    seen = {(o.sets, o.ruleset, o.players, o.leaders, o.finish_turn, o.policy) for o in games}
    assert len(seen) == len(GRID)
    assert len({o.seed for o in games}) == GAMES


@pytest.mark.parametrize("i", range(BATCHES))
def test_a_batch_of_games_is_the_same_in_both_engines(core, i):
    for opts in batch(i):
        _check(opts, every_step=False)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**63), players=st.integers(2, 4), sets=st.sampled_from(SET_LISTS),
       ruleset=st.sampled_from(RULESETS), leaders=st.booleans(), finish_turn=st.booleans(),
       policy=st.sampled_from(POLICIES))
def test_any_game_is_the_same_in_both_engines_after_every_step(core, seed, players, sets, ruleset, leaders,
                                                              finish_turn, policy):
    _check(Options(seed=seed, players=players, sets=sets, ruleset=ruleset,
                   leaders=leaders and "twilight_garden" in sets, finish_turn=finish_turn, policy=policy))


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_golden_playthrough_is_played_alike(core, name):
    case = CASES[name]
    assert playthrough(**case, engine="native") == path(name).read_text()
    # And step by step, everything compared after every step, along the golden actions.
    actions = [line.split("  play ", 1)[1] for line in path(name).read_text().splitlines()
               if line.startswith("  play ")]
    opts = Options(seed=case["seed"], players=case["players"], ruleset=case["ruleset"])
    res = play(opts, actions=actions)
    assert res.divergence is None, str(res.divergence)
    assert res.steps == len(actions)
