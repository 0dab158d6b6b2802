"""The fitted value model that scores ISMCTS leaves: its features, its win chances."""

from __future__ import annotations

import pytest

import mysticvale as mv
from mysticvale.bots import SeatView
from mysticvale.bots.greedy import Greedy
from mysticvale.bots.ismcts import ISMCTS
from mysticvale.bots.value_model import FEATURES, WEIGHTS, ValueModel

from .conftest import play, sets_available


def _midgame(seed: int = 3, turns: int = 8) -> mv.Game:
    g = mv.new_game(players=2, seed=seed)
    bots = [Greedy(seed=1), Greedy(seed=2)]
    while g.state.turn_number < turns:
        p = g.current_player
        g.apply_action(bots[p].act(SeatView(g, p)))
    return g


def test_features_are_named_and_points_are_the_unit():
    g = _midgame()
    model = ValueModel(Greedy(seed=0))
    f = model.seat_features(g.observe(0), 0)
    assert len(f) == len(FEATURES) == len(WEIGHTS) + 1
    me = g.state.players[0]
    vales = g.observe(0)["players"][0]["vales"]
    assert f[0] == me.vp_tokens - me.curse_tokens + sum(v["end_vp"] - v.get("neg_vp", 0) for v in vales)
    # A strength is points plus the weighted rest: one more VP token is one more VP.
    before = model.strength(g.observe(0), 0)
    g.state.players[0].vp_tokens += 1
    assert model.strength(g.observe(0), 0) == pytest.approx(before + 1.0)


def test_win_chances_favour_the_seat_ahead_and_sharpen_as_the_pool_drains():
    g = _midgame()
    model = ValueModel(Greedy(seed=0))
    even = model.win_chances(g)
    assert sum(even) == pytest.approx(1.0)
    g.state.players[0].vp_tokens += 6
    ahead = model.win_chances(g)
    assert ahead[0] > even[0] and ahead[1] < even[1]
    g.state.vp_pool = 1
    late = model.win_chances(g)
    assert late[0] > ahead[0]          # the same lead is worth more near the end
    with pytest.raises(ValueError, match="weights"):
        ValueModel(Greedy(), weights=(1.0,))


def test_decay_lowers_a_seats_strength_while_rounds_remain():
    # The fit's clearest lesson: decay symbols cost far more than the greedy bot's weight
    # says, since every one of them shortens every future turn.
    assert WEIGHTS[FEATURES.index("R*decay") - 1] < 0
    assert WEIGHTS[FEATURES.index("R*spirit") - 1] > 0


def test_a_finished_game_scores_its_result():
    g = mv.new_game(players=2, seed=9)
    play(g, [Greedy(seed=1), Greedy(seed=2)])
    chances = ValueModel(Greedy()).win_chances(g)
    winners = g.winners()
    assert chances == [1.0 / len(winners) if p in winners else 0.0 for p in range(2)]


def test_ismcts_scores_leaves_with_the_model_unless_asked_for_greedy():
    g = _midgame()
    model_bot = ISMCTS(seed=1, think=0, iterations=1)
    greedy_bot = ISMCTS(seed=1, think=0, iterations=1, value="greedy")
    assert model_bot._score(g) == pytest.approx(model_bot.model.win_chances(g))
    greedy_bot.model.win_chances = None      # must not be used
    assert sum(greedy_bot._score(g)) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="value"):
        ISMCTS(think=0, iterations=1, value="oracle")


def test_strength_is_the_weighted_sum_of_the_features():
    g = _midgame(seed=5, turns=12)
    model = ValueModel(Greedy(seed=0))
    for seat in (0, 1):
        obs = g.observe(seat)
        f = model.seat_features(obs, seat)
        assert model.strength(obs, seat) == pytest.approx(f[0] + sum(w * x for w, x in zip(WEIGHTS, f[1:])))


def test_ismcts_root_prefers_the_full_greedy_choice():
    # With one iteration the search only tries the root's preferred move, which is the full
    # greedy bot's (two reveals deep, with its lookahead), not the cheap rollout rules'.
    g = mv.new_game(players=2, seed=6)
    bots = [Greedy(seed=1), Greedy(seed=2)]
    checked = 0
    while not g.is_over() and checked < 25:
        p = g.current_player
        if len(g.legal_actions()) > 1:
            view = SeatView(g, p)
            assert ISMCTS(seed=11, think=0, iterations=1).act(view) == Greedy(seed=11).act(view)
            checked += 1
        g.apply_action(bots[p].act(SeatView(g, p)))
    assert checked == 25


@pytest.mark.skipif(not sets_available("base", "vale_of_magic", "twilight_garden"), reason="sets not ready")
def test_ismcts_with_the_model_plays_expansions_and_more_seats_legally():
    # The expansions bring what base games never show the fit (vales with abilities, curses,
    # leaders); the model still scores every leaf, and with three seats each seat is scored
    # against the strongest other.
    g = mv.new_game(players=3, seed=3, sets=("base", "vale_of_magic", "twilight_garden"))
    bots = [ISMCTS(seed=1, think=0, iterations=8), Greedy(seed=2), Greedy(seed=3)]
    while g.state.turn_number < 12:
        p = g.current_player
        g.apply_action(bots[p].act(SeatView(g, p)))
    mid = ValueModel(Greedy()).win_chances(g)
    assert all(0.0 < c < 1.0 for c in mid)
    play(g, bots)
    assert g.is_over()
    chances = ValueModel(Greedy()).win_chances(g)
    assert chances == [1.0 / len(g.winners()) if p in g.winners() else 0.0 for p in range(3)]


def test_one_public_observation_scores_every_seat_as_its_own_would():
    # Every player's cards are public (owned lists), so a spectator's observation gives
    # each seat the strength its own observation gives.
    from mysticvale.bots.value_model import seat_observations

    g = _midgame(seed=5, turns=12)
    model = ValueModel(Greedy(seed=0))
    obs = seat_observations(g)
    assert obs[0] is obs[1] and obs[0]["viewer"] is None
    for p in range(2):
        assert model.strength(obs[p], p) == pytest.approx(model.strength(g.observe(p), p), abs=1e-9)
        assert model.seat_features(obs[p], p) == pytest.approx(model.seat_features(g.observe(p), p))


def test_a_seat_with_a_leader_nobody_has_seen_is_scored_from_its_own_observation():
    if not sets_available("base", "vale_of_magic", "twilight_garden"):
        pytest.skip("the expansion data does not load")
    from mysticvale.bots.value_model import seat_observations
    from mysticvale.engine.leaders import unseen_leaders

    g = mv.new_game(players=4, seed=21, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True)
    for _ in range(4):
        g.apply_action(g.legal_actions()[0])
    obs = seat_observations(g)
    for p in range(4):
        if unseen_leaders(g.state, p):
            assert obs[p]["viewer"] == p          # its leader counts for it
        else:
            assert obs[p]["viewer"] is None
