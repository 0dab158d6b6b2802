"""Random games with all three sets and leaders keep every invariant and end (2-4 players)."""

from __future__ import annotations

import pytest

import mysticvale as mv
from invariants import check_state, play_random_game
from mysticvale.engine.rng import Rng

ALL = ("base", "vale_of_magic", "twilight_garden")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sets", [ALL, ("twilight_garden",)], ids=["all-sets", "tg-only"])
def test_random_games_with_leaders_keep_every_invariant_and_end(players, sets):
    for seed in range(2):
        game = play_random_game(players, 500 + 13 * seed + players, deep_every=12, sets=sets, leaders=True)
        assert game.winners()
        st = game.state
        # Every player chose a leader; total cards are conserved even when Le Que moved some.
        assert len(st.cards) == 20 * players


def test_random_games_with_leaders_exercise_the_new_decisions():
    kinds: set[str] = set()
    for seed in range(6):
        game = mv.new_game(players=2 + seed % 3, seed=900 + seed, sets=ALL, leaders=True)
        rng = Rng(seed)
        while not game.is_over():
            if game.state.pending:
                kinds.add(game.state.pending[-1].kind)
            legal = game.legal_actions()
            game.apply_action(legal[rng.below("pick", len(legal))])
    assert {"choose_leader", "look_top_n", "lore_keeper", "deepwood_veteran"} <= kinds, kinds
    assert len(kinds & {"le_que_pick", "althena_keep", "kojen_and_khan", "echoing_waterfalls", "ranger_captain",
                        "snapjaw", "griffin_give", "flame_geysers", "rockspine_zenith", "order_top"}) >= 4, kinds


def test_observations_do_not_depend_on_hidden_deck_order_during_a_private_look():
    """Play until someone looks at cards privately; other seats' observations are the same
    whatever order the looker's deck has below the looked-at cards."""
    for seed in range(40):
        game = mv.new_game(players=2, seed=seed, sets=("twilight_garden",), leaders=True)
        rng = Rng(seed)
        while not game.is_over():
            st = game.state
            if st.pending and st.pending[-1].kind in ("look_top_n", "look_top"):
                pd = st.pending[-1]
                other = 1 - pd.player
                before = game.observe(other)
                shuffled = game.determinize(other, seed)
                assert shuffled.observe(other) == before
                # The cards looked at are in the deck: no other seat sees any of them
                # anywhere but in the looker's owned cards (a sorted list, no place).
                assert not set(pd.private) & _card_ids(before)
                assert "cards" not in (before["pending"] or {}) and "leaders" not in (before["pending"] or {})
                return
            legal = game.legal_actions()
            game.apply_action(legal[rng.below("pick", len(legal))])
    pytest.fail("no private look came up")


def _card_ids(obs) -> set[int]:
    """Ids of every card shown in an observation somewhere that tells where it is (card
    views carry 'advancements'); the ``owned`` lists say nothing of place and are left out."""
    out: set[int] = set()
    if isinstance(obs, dict):
        if "advancements" in obs and "id" in obs:
            out.add(obs["id"])
        for k, v in obs.items():
            if k != "owned":
                out |= _card_ids(v)
    elif isinstance(obs, list):
        for v in obs:
            out |= _card_ids(v)
    return out


def test_a_game_with_leaders_round_trips_through_json_at_every_step():
    game = mv.new_game(players=3, seed=77, sets=ALL, leaders=True)
    rng = Rng(3)
    for _ in range(400):
        if game.is_over():
            break
        check_state(game, deep=True)
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("pick", len(legal))])
