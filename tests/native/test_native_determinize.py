"""Determinization: for the same seed the native core samples the same world as
determinize.py, for every seat and the spectator, in every option (leaders included)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import mysticvale as mv
from mysticvale.engine import native
from mysticvale.engine.rng import Rng

SET_LISTS = [("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
             ("base", "vale_of_magic", "twilight_garden")]


def _twin(game):
    text = game.to_json()
    return native.module().State.from_json(native.catalogue(native.save_catalogue(text)), text)


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), sets=st.sampled_from(SET_LISTS),
       leaders=st.booleans(), sample_seed=st.integers() | st.integers(-(2**80), 2**80))
def test_the_same_seed_samples_the_same_world_for_every_seat(core, players, seed, sets, leaders, sample_seed):
    game = mv.new_game(players=players, seed=seed, sets=sets, leaders=leaders and "twilight_garden" in sets)
    rng = Rng(seed)
    n = 0
    while not game.is_over() and n < 250:
        if n % 25 == 0:
            twin = _twin(game)
            for viewer in [None, *range(players)]:
                assert twin.determinize(viewer, sample_seed).to_json() == \
                    game.determinize(viewer, sample_seed).to_json(), (n, viewer)
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("random", len(legal))])
        n += 1


def test_a_clone_is_a_copy_and_determinizing_leaves_the_game_alone(core):
    game = mv.new_game(players=3, seed=4, sets=("base", "twilight_garden"), leaders=True)
    twin = _twin(game)
    before = twin.to_json()
    other = twin.clone()
    assert other.to_json() == before and other is not twin
    twin.determinize(1, 99)
    assert twin.to_json() == before


def test_a_seat_outside_the_game_is_refused_as_python_refuses_it(core):
    game = mv.new_game(players=2, seed=1)
    for seat in (2, -1):
        with pytest.raises(ValueError) as ref:
            game.determinize(seat, 1)
        with pytest.raises(ValueError) as mine:
            _twin(game).determinize(seat, 1)
        assert str(mine.value) == str(ref.value)


def test_hidden_leaders_and_pending_leader_choices_are_resampled_alike(core):
    from mysticvale.engine.leaders import unseen_leaders

    game = mv.new_game(players=4, seed=8, sets=("base", "twilight_garden"), leaders=True)
    rng = Rng(8)
    compared_with_hidden = 0
    compared_at_choice = 0
    for n in range(300):
        if game.is_over():
            break
        st_ = game.state
        hidden = any(unseen_leaders(st_, q) for q in range(4))
        choosing = any(pd.kind == "choose_leader" for pd in st_.pending)
        if hidden or choosing or n % 30 == 0:
            twin = _twin(game)
            for viewer in [None, 0, 1, 2, 3]:
                assert twin.determinize(viewer, n).to_json() == game.determinize(viewer, n).to_json()
            compared_with_hidden += hidden
            compared_at_choice += choosing
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("random", len(legal))])
    assert compared_with_hidden > 0 and compared_at_choice > 0
