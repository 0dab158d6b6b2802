"""The native value model (``native/src/bots/value_model.rs``) gives Python's
``ValueModel``: along seeded random and greedy games of every set list, rule set, 2-4
players, leaders and ``finish_turn``, every seat's ``seat_features`` (on its own
observation) and the ``win_chances`` of the whole game agree to 1e-9, with evaluators that
saw the same commons; so do the value network's (``value_net.rs`` against numpy's)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import mysticvale as mv
from mysticvale.bots.base import SeatView
from mysticvale.bots.greedy import Greedy
from mysticvale.bots.value_model import ValueModel
from mysticvale.bots.value_net import ValueNet
from mysticvale.cards.catalogue import load_catalogue
from mysticvale.engine import native
from mysticvale.engine.rng import Rng

from stepwise import SET_LISTS

RULESETS = sorted(mv.RULESETS)
SPECS = ["greedy", "greedy:mana_vp=0.6:spirit_vp=1.6:decay_vp=0.3:play_rate=0.25"]


def _opts(spec: str) -> dict:
    return {k: float(v) for k, v in (p.split("=") for p in spec.split(":")[1:])}


def compare(core, seed, players, sets, ruleset, leaders=False, finish_turn=False, greedy=False,
            spec="greedy", every=6, max_actions=400) -> int:
    """Play a game (seeded random, or Python greedy bots), comparing the two models every
    ``every`` actions; return the number of comparisons."""
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=leaders,
                       finish_turn=finish_turn)
    twin = native.catalogue(load_catalogue(tuple(sets)))
    py = ValueModel(Greedy(seed=1, **_opts(spec)))
    net = ValueNet(py)
    rs = core.ValueModel(1, spec)
    bots = [Greedy(seed=s) for s in range(players)]
    rng = Rng(seed)
    n = 0
    for step in range(max_actions):
        if game.is_over():
            break
        if step % every == 0:
            # Both evaluators see the commons at the same points (as a bot does at its
            # decisions).
            py.ev._remember(game.observe(0))
            state = core.State.from_json(twin, game.to_json())
            rs.remember(state)
            for p in range(players):
                a, b = py.seat_features(game.observe(p), p), rs.seat_features(state, p)
                assert a == pytest.approx(b, abs=1e-9, rel=0), (seed, step, p)
            assert py.win_chances(game) == pytest.approx(rs.win_chances(state), abs=1e-9, rel=0), (seed, step)
            assert net.win_chances(game) == pytest.approx(rs.net_chances(state), abs=1e-9, rel=0), (seed, step)
            n += 1
        p = game.current_player
        legal = game.legal_actions()
        action = bots[p].act(SeatView(game, p)) if greedy else legal[rng.below("play", len(legal))]
        game.apply_action(action)
    state = core.State.from_json(twin, game.to_json())
    assert py.win_chances(game) == pytest.approx(rs.win_chances(state), abs=1e-9, rel=0)
    assert net.win_chances(game) == pytest.approx(rs.net_chances(state), abs=1e-9, rel=0)
    return n


@pytest.mark.parametrize("sets", SET_LISTS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_of_every_option(core, sets, players):
    i = SET_LISTS.index(sets) * 3 + players
    leaders = "twilight_garden" in sets and i % 2 == 0
    assert compare(core, 40 + i, players, sets, RULESETS[i % 3], leaders, finish_turn=(i % 4 == 1),
                   spec=SPECS[i % 2]) > 10


@pytest.mark.parametrize("ruleset", RULESETS)
def test_greedy_games(core, ruleset):
    i = RULESETS.index(ruleset)
    assert compare(core, 70 + i, 2 + i, SET_LISTS[i], ruleset, greedy=True, spec=SPECS[i % 2], every=8) > 10


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), sets=st.sampled_from(SET_LISTS),
       ruleset=st.sampled_from(RULESETS), finish_turn=st.booleans(), leaders=st.booleans(),
       spec=st.sampled_from(SPECS))
def test_hypothesis_games(core, seed, players, sets, ruleset, finish_turn, leaders, spec):
    compare(core, seed, players, sets, ruleset, leaders and "twilight_garden" in sets, finish_turn,
            spec=spec, every=9, max_actions=200)


def test_a_bad_spec_is_pythons_error(core):
    with pytest.raises(ValueError, match="^could not convert string to float: 'x'$"):
        core.ValueModel(1, "greedy:spirit_vp=x")
