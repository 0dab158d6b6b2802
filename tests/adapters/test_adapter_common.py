"""What both adapters share: set lists, leader games, the payout."""

from __future__ import annotations

import pytest

import mysticvale as mv
from mysticvale.adapters import outcome, parse_sets
from mysticvale.adapters._common import make_game
from mysticvale.bots import SeatView, make_bot


@pytest.mark.parametrize("text,expected", [
    ("base", ("base",)),
    ("base,twilight_garden", ("base", "twilight_garden")),
    ("base+vale_of_magic", ("base", "vale_of_magic")),
    (" base ; twilight_garden ", ("base", "twilight_garden")),
    (["base", "vale_of_magic"], ("base", "vale_of_magic")),
])
def test_parse_sets(text, expected):
    assert parse_sets(text) == expected


def test_parse_sets_refuses_nothing():
    with pytest.raises(ValueError, match="at least one card set"):
        parse_sets(" , ")


def test_outcome_is_the_shared_win_and_only_at_the_end():
    game = mv.new_game(players=3, seed=2)
    with pytest.raises(ValueError, match="not over"):
        outcome(game)
    bots = [make_bot("random", seed=p) for p in range(3)]
    while not game.is_over():
        p = game.current_player
        game.apply_action(bots[p].act(SeatView(game, p)))
    pay = outcome(game)
    winners = game.winners()
    assert pay == [1 / len(winners) if p in winners else 0.0 for p in range(3)]
    assert abs(sum(pay) - 1) < 1e-9


def test_make_game_is_new_game():
    plain = make_game(2, 5, ("base",), "yucata", False)
    assert plain.to_json() == mv.new_game(players=2, seed=5).to_json()
    with pytest.raises(ValueError, match="leaders"):
        make_game(2, 5, ("base",), "yucata", True)   # leaders come with Twilight Garden
