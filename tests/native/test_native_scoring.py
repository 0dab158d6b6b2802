"""Scoring: the native core scores every state as scoring.py, and names the same winners."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import mysticvale as mv
from mysticvale.engine import native
from mysticvale.engine.rng import Rng
from mysticvale.errors import SaveError

SET_LISTS = [("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
             ("base", "vale_of_magic", "twilight_garden")]


def _twin(game):
    text = game.to_json()
    return native.module().State.from_json(native.catalogue(native.save_catalogue(text)), text)


def _same_scores(game):
    twin = _twin(game)
    for seat in range(game.players):
        assert twin.score_breakdown(seat) == game.score_breakdown(seat)
    assert twin.scores() == game.scores()
    assert twin.winners() == game.winners()
    assert twin.is_over() == game.is_over()


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), sets=st.sampled_from(SET_LISTS),
       leaders=st.booleans())
def test_played_games_score_the_same_all_along_and_at_the_end(core, players, seed, sets, leaders):
    game = mv.new_game(players=players, seed=seed, sets=sets, leaders=leaders and "twilight_garden" in sets)
    rng = Rng(seed)
    n = 0
    while not game.is_over():
        if n % 40 == 0:
            _same_scores(game)
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("random", len(legal))])
        n += 1
    _same_scores(game)
    assert game.winners()


def test_a_seat_outside_the_game_is_refused(core):
    twin = _twin(mv.new_game(players=2, seed=1))
    with pytest.raises(ValueError, match="^no seat 2 in a 2-player game$"):
        twin.score_breakdown(2)
    with pytest.raises(ValueError, match="^no seat -1 in a 2-player game$"):
        twin.score_breakdown(-1)


def test_a_corrupt_save_gives_no_state(core):
    game = mv.new_game(players=2, seed=1)
    text = game.to_json().replace('"over":false', '"over":0')
    with pytest.raises(SaveError, match="'over' must be true or false, not 0"):
        native.module().State.from_json(native.catalogue(game.state.cat), text)
