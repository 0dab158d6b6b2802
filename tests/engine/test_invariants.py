"""Random-game invariants over many seeded games (DESIGN.md, 'Testing habits')."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as hs

import mysticvale as mv
from invariants import check_state, play_random_game


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("ruleset", ["yucata", "english", "german"])
def test_random_games_keep_every_invariant(players, ruleset):
    for seed in range(3):
        game = play_random_game(players, seed * 7 + players, deep_every=5, ruleset=ruleset)
        assert game.winners()


def test_one_game_checked_deeply_at_every_step():
    play_random_game(2, 11, deep_every=1)


def test_games_with_the_finish_turn_option_keep_every_invariant():
    for players in (2, 3):
        game = play_random_game(players, 40 + players, deep_every=3, finish_turn=True)
        assert game.winners()
        assert any(e.kind == "finish_turn" for e in game.state.events)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 2**31), players=hs.integers(2, 4),
       picks=hs.lists(hs.integers(0, 10_000), min_size=1, max_size=150))
def test_any_action_sequence_keeps_invariants(seed, players, picks):
    game = mv.new_game(players=players, seed=seed)
    for k in picks:
        if game.is_over():
            break
        legal = game.legal_actions()
        game.apply_action(legal[k % len(legal)])
    check_state(game)
