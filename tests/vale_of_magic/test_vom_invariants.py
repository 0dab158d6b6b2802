"""Random games with the Vale of Magic expansion keep every invariant and end (2-4 players)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

import mysticvale as mv
from vom_helpers import SETS
from invariants import check_state, play_random_game


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ruleset", ["yucata", "english", "german"])
def test_random_games_with_vale_of_magic_keep_every_invariant(players, ruleset):
    for seed in range(2):
        game = play_random_game(players, 100 + seed * 7 + players, deep_every=10, ruleset=ruleset, sets=SETS)
        assert game.winners()
        assert game.state.round >= 2


def test_random_games_with_vale_of_magic_exercise_its_abilities():
    """Across a few seeded random games, the expansion's decisions actually come up."""
    kinds: set[str] = set()
    texts: list[str] = []
    for seed in range(4):
        game = play_random_game(2 + seed % 3, 300 + seed, deep_every=100, sets=SETS)
        texts += [e.text for e in game.state.events]
    for e in texts:
        for word in ("turns the mana token face up", "from the deck into the field", "doubles the mana",
                     "keeps", "looks at the top"):
            if word in e:
                kinds.add(word)
    assert len(kinds) >= 3, kinds


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**31), players=hs.integers(2, 4),
       picks=hs.lists(hs.integers(0, 10_000), min_size=1, max_size=150))
def test_any_action_sequence_with_vale_of_magic_keeps_invariants(seed, players, picks):
    game = mv.new_game(players=players, seed=seed, sets=SETS)
    for k in picks:
        if game.is_over():
            break
        legal = game.legal_actions()
        game.apply_action(legal[k % len(legal)])
    check_state(game)
