"""Harvest phase (file 000, 2) Harvest Phase; Mana Token; Wild Spirit Symbol; yucata trade)."""

import pytest

from mysticvale.engine.harvest import can_pay, mana_available, spirits_available
from scenario import Scenario

CL = "Cursed Land"


def harvest(sc):
    sc.act("pass")
    assert sc.game.phase == "harvest"
    return sc.game.observe(0)["turn"]


def test_mana_and_spirits_come_from_the_field_not_the_on_deck_card():
    sc = Scenario()
    sc.player(0, field=[CL, "Generic Mana Bloom", "Generic Animal Spirit"],
              on_deck="Generic Wild Seed", deck=[CL, CL, CL])
    t = harvest(sc)
    assert t["mana"] == 3
    assert t["spirits"] == {"animal": 1, "forest": 0, "sky": 0, "wild": 0}


def test_vp_symbols_in_field_give_vp_tokens_from_the_pool():
    sc = Scenario()
    sc.player(0, field=["Generic Blue Crystal", "Generic Ancient Grove"], on_deck="Generic Monument",
              deck=[CL, CL, CL])
    pool = sc.state.vp_pool
    harvest(sc)
    # 1 + 6 from the field; Generic Monument's VP symbols are on the on-deck card: not counted.
    assert sc.state.players[0].vp_tokens == 7
    assert sc.state.vp_pool == pool - 7


def test_mana_token_gives_one_mana_once_and_stays_active_if_unused():
    sc = Scenario()
    sc.player(0, field=["Blank"], on_deck=CL, deck=[CL, CL, CL], mana_token=True)
    harvest(sc)
    assert "token" in sc.legal()
    sc.act("token")
    assert mana_available(sc.state) == 1
    assert "token" not in sc.legal()
    assert not sc.state.players[0].mana_token_active
    # An unused active token remains active for the next turn.
    sc2 = Scenario()
    sc2.player(0, field=["Blank"], on_deck=CL, deck=[CL, CL, CL], mana_token=True)
    sc2.act("pass", "finish")
    assert sc2.state.players[0].mana_token_active


def test_up_to_two_advancements_including_fertile_soil():
    sc = Scenario()
    sc.player(0, field=["Generic Mana Bloom", "Generic Mana Bloom", "Generic Mana Bloom", "Blank"],
              on_deck=CL, deck=[CL, CL, CL])
    harvest(sc)  # 6 mana
    sc.act("buy soil.top")
    sc.act("buy soil.middle")
    assert not any(a.startswith("buy") for a in sc.legal())
    assert mana_available(sc.state) == 2  # unspent mana is lost at the end


def test_cannot_buy_without_a_legal_place_to_sleeve():
    sc = Scenario()
    # Every field card is full: Cursed Land (top) + two advancements in middle and bottom.
    full = [CL, "Generic Mana Bloom", "Generic Mana Bloom"]
    sc.player(0, field=[full, full], on_deck=CL, deck=[CL, CL, CL])
    harvest(sc)
    assert mana_available(sc.state) == 10
    assert not any(a.startswith("buy") for a in sc.legal())


def test_the_second_buy_needs_a_place_left_after_the_first():
    sc = Scenario()
    # One card with only the bottom slot free.
    sc.player(0, field=[[CL, "Generic Mana Bloom", "Generic Mana Bloom"], [CL, "Generic Mana Bloom"]],
              on_deck=CL, deck=[CL, CL, CL])
    harvest(sc)
    assert "buy soil.top" not in sc.legal()   # both top slots hold Cursed Land
    sc.act("buy soil.bottom")
    assert "buy soil.bottom" not in sc.legal()  # the only bottom slot is taken by the first buy
    assert "buy soil.middle" not in sc.legal()


def test_vale_purchase_each_symbol_pays_once_and_limit_two():
    sc = Scenario()
    st = sc.state
    sc.player(0, field=["Generic Twin Spirits", "Generic Twin Spirits", "Generic Wild Seed"] + ["Blank"],
              on_deck=CL, deck=[CL, CL, CL])
    # Put known vales in the level-1 row.
    row = st.vale_rows[1]
    names = ["Azure Lake", "World Tree", "Cascading Falls", "Talonthorn Den"]  # all level 1
    sc.give_vales(1, names)  # take them out of wherever they are
    for i, n in enumerate(names):
        v = sc.state.players[1].vales.pop()
        row[3 - i] = v
    sc.invalidate()
    harvest(sc)
    # 2 animal, 2 forest, 1 wild. Azure Lake (forest+animal), World Tree (forest+animal).
    legal = sc.legal()
    assert any(a.startswith("vale 1.") for a in legal)
    az = [a for a in legal if a.startswith("vale")]
    sc.act(az[0])
    sc.act([a for a in sc.legal() if a.startswith("vale")][0])
    assert not any(a.startswith("vale") for a in sc.legal())  # at most two per turn


def test_can_pay_rules_for_wild_and_any():
    # have: animal, forest, sky, wild; need: animal, forest, sky, any
    assert can_pay([1, 1, 0, 0], [1, 1, 0, 0])
    assert not can_pay([1, 0, 0, 0], [1, 1, 0, 0])
    assert can_pay([1, 0, 0, 1], [1, 1, 0, 0])       # wild pays for the forest
    assert can_pay([0, 0, 2, 0], [0, 0, 1, 1])       # any takes a sky
    assert not can_pay([0, 0, 1, 1], [0, 0, 2, 1])   # symbols pay once
    assert can_pay([0, 0, 0, 3], [1, 1, 0, 1])


def test_vale_ability_not_usable_the_turn_it_is_bought():
    from mysticvale.engine.state import Turn
    sc = Scenario()
    st = sc.state
    sc.player(0, field=["Blank"], on_deck=CL, deck=[CL, CL, CL])
    v = sc.give_vales(0, ["Azure Lake"])[0]
    st.turn.new_vales.append(v)
    obs = sc.game.observe(0)
    assert obs["players"][0]["vales"][0]["bought_this_turn"] is True
    st.turn = Turn(0)
    assert sc.game.observe(0)["players"][0]["vales"][0]["bought_this_turn"] is False


@pytest.mark.parametrize("ruleset,offered", [("yucata", True), ("english", False), ("german", True)])
def test_spirit_trade_three_for_one_vp_from_the_reserve(ruleset, offered):
    sc = Scenario(ruleset=ruleset)
    sc.player(0, field=["Generic Wild Seed", "Generic Wild Seed", "Generic Animal Spirit", "Blank"],
              on_deck=CL, deck=[CL, CL, CL])
    harvest(sc)
    assert ("trade" in sc.legal()) is offered
    if offered:
        pool = sc.state.vp_pool
        sc.act("trade")
        assert sc.state.players[0].vp_tokens == 1
        assert sc.state.vp_pool == pool           # from the reserve, not the pool
        assert sc.state.vp_reserve_taken == 1
        assert "trade" not in sc.legal()          # only 0 spare symbols left
        assert spirits_available(sc.state) == [1, 0, 0, 2]


def test_buying_a_vale_leaves_spare_symbols_for_a_trade_only_if_enough():
    sc = Scenario()
    sc.player(0, field=["Generic Twin Spirits", "Generic Wild Seed", "Generic Wild Seed"], on_deck=CL,
              deck=[CL, CL, CL])
    st = sc.state
    v = sc.give_vales(1, ["Azure Lake"])[0]
    st.players[1].vales.remove(v)
    st.vale_rows[1][0] = v
    sc.invalidate()
    harvest(sc)
    assert "trade" in sc.legal()   # 4 symbols
    sc.act("vale 1.1")              # uses 2
    assert "trade" not in sc.legal()
