"""A scenario for every Twilight Garden vale ability (file 003, Card Clarifications: Vales)."""

from __future__ import annotations

import pytest

from exercised import exercises
from mysticvale.engine.harvest import mana_available
from tg_helpers import CL, pending, put_vale_in_row, scenario, vale_id


def _harvest_with(sc, field_size, vale):
    sc.player(0, field=["Blank"] * field_size, on_deck=CL, deck=[CL, CL], vales=[vale], mana_token=False)
    sc.act("pass")
    before = mana_available(sc.state)
    sc.act("use vale.1")
    return mana_available(sc.state) - before


@exercises("Frostmarch Glacier")
@pytest.mark.parametrize("field_size,gain", [(2, 4), (4, 2), (6, 0), (8, 0)])
def test_frostmarch_glacier_six_minus_the_field(field_size, gain):
    assert _harvest_with(scenario(), field_size, "Frostmarch Glacier") == gain


@exercises("Raincaller Rock")
@pytest.mark.parametrize("field_size,gain", [(2, 3), (3, 2), (5, 0), (7, 0)])
def test_raincaller_rock_five_minus_the_field(field_size, gain):
    assert _harvest_with(scenario(), field_size, "Raincaller Rock") == gain


@exercises("Frostmarch Glacier")
def test_frostmarch_glacier_does_nothing_when_you_spoil():
    sc = scenario()
    sc.player(0, field=[CL, CL, CL], on_deck=CL, deck=[CL, CL], vales=["Frostmarch Glacier"])
    sc.act("push")
    assert not any("minus the cards" in e.text for e in sc.state.events)


@exercises("Rockspine Zenith")
def test_rockspine_zenith_a_free_advancement_of_cost_1_to_14_not_a_buy():
    sc = scenario()
    sc.player(0, field=["Blank", "Blank"], on_deck=CL, deck=[CL, CL], vales=["Rockspine Zenith"])
    sc.put_in_commons(3, 1, "Blessed Stronghold", "middle+bottom")
    sc.act("pass", "use vale.1")
    legal = sc.legal()
    assert "buy 3.1" in legal and "buy soil.top" in legal and "skip" in legal
    sc.act("buy 3.1")
    st = sc.state
    assert st.turn.adv_buys == 0 and st.turn.mana_spent == 0
    assert [st.cat.label(p.copy) for p in st.turn.purchases] == ["Blessed Stronghold@middle+bottom"]
    assert st.commons[3][0] is None


@exercises("Rockspine Zenith")
def test_rockspine_zenith_offers_nothing_above_14_mana():
    sc = scenario()
    sc.player(0, field=["Blank"], on_deck=CL, deck=[CL], vales=["Rockspine Zenith"])
    st = sc.state
    expensive = [m for m in ("1.1", "1.2", "1.3", "2.1", "2.2", "2.3", "3.1", "3.2", "3.3")
                 if st.cat.copies[st.commons[int(m[0])][int(m[2]) - 1]].type.cost > 14]
    sc.act("pass", "use vale.1")
    assert not any(f"buy {m}" in sc.legal() for m in expensive)


@exercises("Rotted Weald")
def test_rotted_weald_places_the_bottom_card_without_when_played():
    sc = scenario()
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL, CL, ["Astromancer", "Havenglade Chancellor"]],
                    vales=["Rotted Weald"])
    bottom = ids["deck"][-1]
    sc.act("pass", "use vale.1")
    pl = sc.state.players[0]
    assert pl.field[-1] == bottom and not sc.state.pending          # no Astromancer look
    assert pl.vp_tokens == 1                                        # its VP symbol counts in this Harvest
    assert pl.on_deck == ids["on_deck"][0]


@exercises("Rotted Weald")
def test_rotted_weald_with_an_empty_deck_shuffles_the_discard_pile_first():
    sc = scenario()
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[], discard=["Fertile Soil"], vales=["Rotted Weald"])
    sc.act("pass", "use vale.1")
    pl = sc.state.players[0]
    assert len(pl.field) == 2 and pl.on_deck == ids["on_deck"][0]


@exercises("Echoing Waterfalls")
def test_echoing_waterfalls_an_opponent_spoils_and_you_redraw_your_on_deck_card():
    sc = scenario()
    sc.player(0, field=[CL, CL, CL], on_deck=CL, deck=[CL, CL])
    ids1 = sc.player(1, field=[CL, CL], on_deck="Blank", deck=["Fertile Soil", CL], vales=["Echoing Waterfalls"])
    sc.act("push")                                                  # player 1 spoils
    assert sc.game.current_player == 1 and pending(sc).kind == "echoing_waterfalls"
    assert sorted(sc.legal()) == sorted([f"discard #{ids1['on_deck'][0]}", "keep"])
    sc.act(f"discard #{ids1['on_deck'][0]}")
    pl1 = sc.state.players[1]
    assert pl1.on_deck == ids1["deck"][0] and ids1["on_deck"][0] in pl1.discard


@exercises("Echoing Waterfalls")
def test_echoing_waterfalls_does_not_trigger_on_your_own_spoil():
    sc = scenario()
    sc.player(0, field=[CL, CL, CL], on_deck=CL, deck=[CL, CL], vales=["Echoing Waterfalls"])
    sc.act("push")
    assert not any(p.kind == "echoing_waterfalls" for p in sc.state.pending)


@exercises("Echoing Waterfalls")
def test_echoing_waterfalls_a_new_on_deck_card_that_spoils_spoils_at_your_next_planting():
    sc = scenario()
    sc.player(0, field=[CL, CL, CL], on_deck=CL, deck=[CL, CL, CL, CL, CL, CL])
    sc.player(1, field=[CL, CL], on_deck="Blank", deck=[[CL, "Blackwood Ent"], CL], vales=["Echoing Waterfalls"])
    sc.act("push", f"discard #{sc.state.players[1].on_deck}")     # the new on-deck card has 2 decay
    st = sc.state
    turn1 = next(i for i, e in enumerate(st.events) if e.kind == "turn" and e.player == 1)
    spoil1 = next(i for i, e in enumerate(st.events) if e.kind == "spoil" and e.player == 1)
    # Player 1's Planting begins with 4 decay showing: spoiled at once, before any choice.
    assert turn1 < spoil1 and len(st.history) == 2
    assert not any(e.kind == "pass" and e.player == 1 for e in st.events)
    assert st.current == 0


@exercises("Flame Geysers")
@pytest.mark.parametrize("choice", ["curses", "vp"])
def test_flame_geysers_everyone_gains_per_negative_vp_on_their_vales(choice):
    sc = scenario(players=3)
    sc.player(0, field=["Generic Spirit Guardian"] * 4, on_deck=CL, deck=[CL], vales=["Frostmarch Glacier"])
    sc.give_vales(1, ["Rockspine Zenith", "Raincaller Rock"])      # -2 and -1
    put_vale_in_row(sc, 2, 1, "Flame Geysers")
    st = sc.state
    pool = st.vp_pool
    sc.act("pass", "vale 2.1")
    assert pending(sc).kind == "flame_geysers" and sc.game.current_player == 0
    sc.act(f"choose {choice}")
    got = [pl.curse_tokens if choice == "curses" else pl.vp_tokens for pl in st.players]
    assert got == [1 + 1, 3, 0]                                     # Frostmarch -1 and the Geysers -1
    assert st.vp_pool == pool                                       # VP come from the box, not the pool
    assert vale_id(sc, "Flame Geysers") in st.players[0].vales
