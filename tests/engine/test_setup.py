"""Setup (file 000, Setup; file 003, Quick Reference)."""

import pytest

import mysticvale as mv
from mysticvale.engine.zones import net_decay, stats


@pytest.mark.parametrize("players,level1,pool", [(2, 12, 23), (3, 15, 28), (4, 18, 33)])
def test_commons_and_vp_pool_by_player_count(players, level1, pool):
    g = mv.new_game(players=players, seed=1)
    st = g.state
    # Level 1 is counted out by player count; three of them are face up.
    assert len(st.adv_decks[1]) + 3 == level1
    # All level 2 and 3 advancements are used.
    for level in (2, 3):
        assert len(st.adv_decks[level]) + 3 == len(st.cat.supply_copies(level))
    assert all(c is not None for lvl in (1, 2, 3) for c in st.commons[lvl])
    assert all(len(st.vale_rows[lvl]) == 4 and None not in st.vale_rows[lvl] for lvl in (1, 2))
    assert st.vp_pool == pool


def test_each_player_has_9_cursed_land_3_fertile_soil_8_blank():
    g = mv.new_game(players=4, seed=3)
    st = g.state
    for p in range(4):
        mine = [c for c in range(len(st.cards)) if st.owner[c] == p]
        assert len(mine) == 20
        names = sorted(st.cat.copies[st.cards[c][0]].type.name if st.cards[c] else "Blank" for c in mine)
        assert names.count("Cursed Land") == 9
        assert names.count("Fertile Soil") == 3
        assert names.count("Blank") == 8


@pytest.mark.parametrize("seed", range(10))
def test_starting_field_two_cursed_lands_and_a_third_on_deck(seed):
    g = mv.new_game(players=3, seed=seed)
    st = g.state
    for p, pl in enumerate(st.players):
        cursed = [c for c in pl.field if stats(st, c).has_cursed_land]
        assert len(cursed) == 2
        assert stats(st, pl.on_deck).has_cursed_land
        assert net_decay(st, p) == 3
        assert len(pl.field) + 1 + len(pl.deck) == 20


def test_mana_tokens_spent_and_star_player_starts():
    for seed in range(6):
        g = mv.new_game(players=3, seed=seed)
        st = g.state
        assert [p.mana_token_active for p in st.players] == [False] * 3
        stars = [i for i, p in enumerate(st.players) if p.star]
        assert stars == [st.first_player]
        assert g.current_player == st.first_player


def test_first_player_varies_with_the_seed():
    assert len({mv.new_game(players=4, seed=s).current_player for s in range(20)}) > 1


def test_bad_setup_arguments_are_clear_errors():
    with pytest.raises(ValueError, match="2 to 4 players"):
        mv.new_game(players=5)
    with pytest.raises(ValueError, match="unknown set 'nope'"):
        mv.new_game(players=2, sets=("nope",))
    with pytest.raises(ValueError, match="unknown rule set 'house'"):
        mv.new_game(players=2, ruleset="house")
    with pytest.raises(ValueError, match="unknown option"):
        mv.new_game(players=2, colour="red")
