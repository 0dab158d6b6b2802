"""Scenario tests of the Vale of Magic vales (file 000, Vales Expansion 1 and the yucata notes)."""

from __future__ import annotations

import pytest

from exercised import exercises
from vom_helpers import events_since, play_until_turn_of, put_on_vale_deck, put_vale_in_row, scenario, vale_id
from mysticvale.engine.zones import net_decay, stats

# Four wild spirits and plenty of mana: any vale of the set can be bought.
RICH_FIELD = ["Generic Spirit Guardian", "Generic Spirit Guardian", "Generic Mana Spring", "Generic Mana Spring"]


def spoiled_since(sc, n):
    """The spoil event's text since event ``n``, or None."""
    return next((t for t in events_since(sc, n) if " spoils with " in t), None)


# -- Aether Tree ------------------------------------------------------------------------------
def _aether_setup(ruleset="yucata", on_deck=("Hulking Thornhide", "Stag")):
    sc = scenario(ruleset=ruleset)
    ids = sc.player(0, field=["Cursed Land", "Cursed Land", "Stag"], on_deck="Blank",
                    deck=[list(on_deck), "Blank", "Blank"], vales=["Aether Tree"])
    return sc, ids


@exercises("Aether Tree")
def test_aether_tree_cancels_the_decay_on_the_on_deck_card_on_yucata():
    sc, ids = _aether_setup()
    st = sc.state
    pl = st.players[0]
    sc.act("push")          # Blank into the field; Thornhide + Stag (2 decay) revealed: 5 decay
    assert net_decay(st, 0) == 5
    assert st.pending[-1].kind == "spoil_guard"
    new_on_deck = pl.on_deck
    legal = sc.legal()
    assert "spoil" in legal
    assert f"guard vale.1 #{new_on_deck}" in legal            # yucata: the on-deck card too
    assert f"guard vale.1 #{ids['field'][2]}" in legal        # Stag's decay in the field
    # Decay from Cursed Land alone is never cancelled: pure Cursed Land cards are no target.
    assert f"guard vale.1 #{ids['field'][0]}" not in legal
    aether = pl.vales[0]
    sc.act(f"guard vale.1 #{new_on_deck}")
    assert aether in pl.removed_vales and aether not in pl.vales
    assert net_decay(st, 0) == 3
    assert not st.turn.spoiled and st.turn.phase == "planting"


@exercises("Aether Tree")
def test_aether_tree_prevents_the_spoil_and_the_turn_goes_on():
    sc, ids = _aether_setup(on_deck=("Hulking Thornhide",))
    st = sc.state
    pl = st.players[0]
    sc.act("push")
    assert net_decay(st, 0) == 4
    sc.act(f"guard vale.1 #{pl.on_deck}")
    assert net_decay(st, 0) == 3
    assert not st.turn.spoiled and st.turn.phase == "planting"
    assert sc.legal() == ["push", "pass"]
    # The 1 VP of Aether Tree is lost with it.
    assert sc.game.score_breakdown(0)["vales"] == 0


@exercises("Aether Tree")
@pytest.mark.parametrize("ruleset", ["english", "german"])
def test_aether_tree_field_only_in_the_english_and_german_rules(ruleset):
    sc, ids = _aether_setup(ruleset=ruleset)
    st = sc.state
    sc.act("push")
    legal = sc.legal()
    assert f"guard vale.1 #{st.players[0].on_deck}" not in legal
    assert f"guard vale.1 #{ids['field'][2]}" in legal
    n = len(st.events)
    sc.act(f"guard vale.1 #{ids['field'][2]}")
    # Stag's decay in the field is cancelled; 4 decay remain, so the player spoils.
    assert spoiled_since(sc, n) == "Player 1 spoils with 4 decay."


@exercises("Aether Tree")
def test_aether_tree_with_seedling_cancels_the_last_decay_from_another_advancement():
    sc = scenario()
    sc.player(0, field=["Cursed Land", "Cursed Land", "Cursed Land"], on_deck="Blank",
                    deck=[["Cursed Land", "Seedling", "Hulking Thornhide"], "Blank"],
                    vales=["Aether Tree"])
    st = sc.state
    sc.act("push")
    card = st.players[0].on_deck
    # Seedling leaves 1 decay; yucata: it cancels the Cursed Land's first, so the last is
    # Thornhide's, which Aether Tree cancels.
    assert stats(st, card).get("decay") == 1 and stats(st, card).aether_decay == 0
    assert net_decay(st, 0) == 4
    sc.act(f"guard vale.1 #{card}")
    assert net_decay(st, 0) == 3 and not st.turn.spoiled


@exercises("Aether Tree")
def test_aether_tree_is_no_help_on_a_card_seedling_leaves_with_cursed_land_decay():
    sc = scenario()
    sc.player(0, field=["Cursed Land", "Cursed Land", "Cursed Land"], on_deck="Blank",
              deck=[["Cursed Land", "Seedling"], "Blank"], vales=["Aether Tree"])
    st = sc.state
    sc.act("push")
    # Nothing to cancel anywhere: the player simply spoils.
    assert spoiled_since(sc, 0)
    assert st.players[0].vales  # Aether Tree was not used


@exercises("Aether Tree")
def test_aether_tree_cancellation_lasts_until_the_next_prep_phase():
    sc, ids = _aether_setup(on_deck=("Hulking Thornhide",))
    st = sc.state
    pl = st.players[0]
    sc.act("push")
    card = pl.on_deck
    sc.act(f"guard vale.1 #{card}")
    sc.act("push")      # the cancelled card goes into the field; still cancelled
    assert card in pl.field and card in pl.aether_cards
    if not st.pending and st.turn.phase == "planting":
        sc.act("pass")
    play_until_turn_of(sc, 1)
    assert pl.aether_cards == []


@exercises("Aether Tree")
def test_aether_tree_cannot_be_used_in_the_turn_it_is_bought():
    sc, ids = _aether_setup()
    st = sc.state
    st.turn.new_vales.append(st.players[0].vales[0])
    sc.act("push")
    assert spoiled_since(sc, 0) and st.players[0].vales


# -- Fauna Hollow ------------------------------------------------------------------------------
def _buy_vale(sc, name, level=1, pos=1, *, mana_token=None, field=RICH_FIELD, deck=None):
    ids = sc.player(0, field=list(field), on_deck="Blank", deck=deck or ["Cursed Land"] * 4,
                    mana_token=mana_token)
    put_vale_in_row(sc, level, pos, name)
    sc.act("pass")
    return ids


@exercises("Fauna Hollow")
def test_fauna_hollow_gives_2_mana_when_bought():
    sc = scenario()
    _buy_vale(sc, "Fauna Hollow")
    mana = sc.game.observe(0)["turn"]["mana"]
    sc.act("vale 1.1")
    assert sc.game.observe(0)["turn"]["mana"] == mana + 2
    assert sc.game.observe(0)["players"][0]["vales"][0]["bought_this_turn"] is True


# -- Sunwell Temple ----------------------------------------------------------------------------
@exercises("Sunwell Temple")
def test_sunwell_temple_adds_the_top_level_1_vale_without_its_when_bought():
    sc = scenario()
    _buy_vale(sc, "Sunwell Temple", level=2)
    st = sc.state
    extra = put_on_vale_deck(sc, 1, "Fauna Hollow")
    mana = sc.game.observe(0)["turn"]["mana"]
    sc.act("vale 2.1")
    pl = st.players[0]
    assert pl.vales == [vale_id(sc, "Sunwell Temple"), extra]
    assert extra in st.turn.new_vales
    # No When Bought benefit from the extra vale, and it is not one of the two buys.
    assert sc.game.observe(0)["turn"]["mana"] == mana
    assert st.turn.vale_buys == 1


@exercises("Sunwell Temple", "Vale of Magic")
def test_sunwell_temples_extra_vale_is_not_usable_that_turn():
    sc = scenario()
    _buy_vale(sc, "Sunwell Temple", level=2)
    put_on_vale_deck(sc, 1, "Manadew Meadow")
    sc.act("vale 2.1")
    assert not any(a.startswith("use vale") for a in sc.legal())
    obs = sc.game.observe(0)["players"][0]["vales"]
    assert [v["bought_this_turn"] for v in obs] == [True, True]


@exercises("Sunwell Temple")
def test_sunwell_temple_with_an_empty_level_1_vale_deck_gives_nothing():
    sc = scenario()
    _buy_vale(sc, "Sunwell Temple", level=2)
    st = sc.state
    st.vale_rows[1] = st.vale_rows[1]  # rows stay; only the deck is emptied
    moved = st.vale_decks[1][:]
    st.vale_decks[1].clear()
    st.vale_decks[2][:0] = moved       # keep every vale somewhere
    sc.invalidate()
    sc.act("vale 2.1")
    assert len(st.players[0].vales) == 1


# -- Vale of Magic ------------------------------------------------------------------------------
@exercises("Vale of Magic")
def test_vale_of_magic_gains_1_vp_from_the_pool_each_harvest():
    sc = scenario()
    sc.player(0, field=["Fertile Soil"], on_deck="Blank", deck=["Cursed Land"] * 4, vales=["Vale of Magic"])
    st = sc.state
    pool, vp = st.vp_pool, st.players[0].vp_tokens
    sc.act("pass")
    assert "use vale.1" in sc.legal()
    sc.act("use vale.1")
    assert st.vp_pool == pool - 1 and st.players[0].vp_tokens == vp + 1
    assert "use vale.1" not in sc.legal()     # once every Harvest phase


@exercises("Vale of Magic")
def test_vale_of_magic_is_mandatory():
    sc = scenario()
    sc.player(0, field=["Fertile Soil"], on_deck="Blank", deck=["Cursed Land"] * 4, vales=["Vale of Magic"])
    st = sc.state
    vp = st.players[0].vp_tokens
    sc.act("pass", "finish")
    assert st.players[0].vp_tokens == vp + 1


@exercises("Vale of Magic")
def test_vale_of_magic_gives_nothing_after_a_spoil_or_in_the_turn_it_is_bought():
    sc = scenario()
    sc.player(0, field=["Cursed Land", "Cursed Land", "Cursed Land"], on_deck="Cursed Land",
              deck=["Blank"] * 3, vales=["Vale of Magic"])
    st = sc.state
    sc.act("push")
    assert spoiled_since(sc, 0)
    assert st.players[0].vp_tokens == 0
    sc2 = scenario()
    _buy_vale(sc2, "Vale of Magic", level=2)
    sc2.act("vale 2.1")
    assert "use vale.1" not in sc2.legal()
    vp = sc2.state.players[0].vp_tokens
    sc2.act("finish")
    assert sc2.state.players[0].vp_tokens == vp


# -- Wood Sprite Hoard ----------------------------------------------------------------------------
@exercises("Wood Sprite Hoard")
def test_wood_sprite_hoard_looks_at_three_privately_and_puts_the_rest_back_in_order():
    sc = scenario()
    ids = _buy_vale(sc, "Wood Sprite Hoard", deck=["Cursed Land", "Stag", "Blank", "Fertile Soil"])
    st = sc.state
    pl = st.players[0]
    top3 = ids["deck"][:3]
    n = len(st.events)
    sc.act("vale 1.1")
    pd = st.pending[-1]
    assert pd.kind == "look_discard_any" and pd.private == top3
    assert [c["id"] for c in sc.game.observe(0)["pending"]["cards"]] == top3
    assert "cards" not in sc.game.observe(1)["pending"]
    # The opponent's log does not name the cards.
    assert not any("Stag" in t for t in events_since(sc, n, seat=1))
    assert any("Stag" in t for t in events_since(sc, n, seat=0))
    assert set(sc.legal()) == {f"discard #{c}" for c in top3} | {"keep"}
    sc.act(f"discard #{top3[0]}")
    assert set(sc.legal()) == {f"discard #{c}" for c in top3[1:]} | {"keep"}
    sc.act("keep")
    assert top3[0] in pl.discard
    # Same order as drawn: Stag on top, then the Blank; the player knows it.
    assert pl.deck[-2:] == [top3[2], top3[1]]
    assert pl.known_top == [top3[2], top3[1]]
    assert sc.game.observe(0)["players"][0]["known_top"] == [top3[2], top3[1]]
    assert "known_top" not in sc.game.observe(1)["players"][0]


@exercises("Wood Sprite Hoard")
def test_wood_sprite_hoard_with_fewer_than_three_cards_looks_at_all_without_reshuffling():
    sc = scenario()
    ids = _buy_vale(sc, "Wood Sprite Hoard", deck=["Cursed Land", "Stag"])
    st = sc.state
    pl = st.players[0]
    discard_before = list(pl.discard)
    sc.act("vale 1.1")
    assert st.pending[-1].private == ids["deck"]
    sc.act(f"discard #{ids['deck'][0]}", f"discard #{ids['deck'][1]}")
    assert not st.pending and pl.deck == [] and pl.known_top == []
    assert pl.discard == discard_before + ids["deck"]


@exercises("Wood Sprite Hoard")
def test_wood_sprite_hoard_known_order_survives_a_draw_from_the_top():
    sc = scenario()
    ids = _buy_vale(sc, "Wood Sprite Hoard", deck=["Cursed Land", "Stag", "Blank", "Cursed Land", "Cursed Land"])
    st = sc.state
    pl = st.players[0]
    sc.act("vale 1.1", "keep")
    assert pl.known_top == list(reversed(ids["deck"][:3]))
    # Finishing: prep reveals from the top, consuming the known cards one by one.
    sc.act("finish")
    assert all(c in pl.deck for c in pl.known_top)
    assert pl.deck[len(pl.deck) - len(pl.known_top):] == pl.known_top


# -- Manadew Meadow -----------------------------------------------------------------------------
@exercises("Manadew Meadow")
def test_manadew_meadow_targets_the_card_with_most_guardians_on_yucata():
    sc = scenario()
    sc.player(0, field=["Generic Guardian Sapling", "Generic Ancient Warden", "Fertile Soil"],
                    on_deck="Blank", deck=["Cursed Land"] * 4, vales=["Manadew Meadow"])
    sc.act("pass")
    mana = sc.game.observe(0)["turn"]["mana"]
    sc.act("use vale.1")
    assert not sc.state.pending
    assert sc.game.observe(0)["turn"]["mana"] == mana + 2
    assert "use vale.1" not in sc.legal()


@exercises("Manadew Meadow")
@pytest.mark.parametrize("ruleset", ["english", "german"])
def test_manadew_meadow_target_is_the_players_choice_in_the_english_and_german_rules(ruleset):
    sc = scenario(ruleset=ruleset)
    ids = sc.player(0, field=["Generic Guardian Sapling", "Generic Ancient Warden", "Generic Skylark"],
                    on_deck="Blank", deck=["Cursed Land"] * 4, vales=["Manadew Meadow"])
    sc.act("pass")
    mana = sc.game.observe(0)["turn"]["mana"]
    sc.act("use vale.1")
    # One option per guardian count (the Sapling and the Skylark both have 1).
    assert set(sc.legal()) == {f"choose #{ids['field'][0]}", f"choose #{ids['field'][1]}"}
    sc.act(f"choose #{ids['field'][0]}")
    assert sc.game.observe(0)["turn"]["mana"] == mana + 1


@exercises("Manadew Meadow")
def test_manadew_meadow_without_guardians_is_not_offered_but_resolves_for_nothing():
    sc = scenario()
    sc.player(0, field=["Fertile Soil"], on_deck="Blank", deck=["Cursed Land"] * 4, vales=["Manadew Meadow"])
    st = sc.state
    sc.act("pass")
    assert "use vale.1" not in sc.legal()
    n = len(st.events)
    sc.act("finish")
    assert any("no guardian" in t for t in events_since(sc, n))


# -- Amberwood, Direwolf Burrow, Shimmercliff Rookery --------------------------------------------
@exercises("Amberwood", "Direwolf Burrow", "Shimmercliff Rookery")
@pytest.mark.parametrize("name", ["Amberwood", "Direwolf Burrow", "Shimmercliff Rookery"])
def test_token_vales_turn_a_face_down_token_face_up(name):
    sc = scenario()
    _buy_vale(sc, name, mana_token=False)
    mana = sc.game.observe(0)["turn"]["mana"]
    sc.act("vale 1.1")
    assert sc.state.players[0].mana_token_active is True
    assert sc.game.observe(0)["turn"]["mana"] == mana
    assert "token" in sc.legal()     # usable at once: it is this Harvest


@exercises("Amberwood", "Direwolf Burrow", "Shimmercliff Rookery")
@pytest.mark.parametrize("name", ["Amberwood", "Direwolf Burrow", "Shimmercliff Rookery"])
def test_token_vales_with_the_token_face_up_give_its_mana_and_leave_it_face_up(name):
    sc = scenario()
    _buy_vale(sc, name, mana_token=True)
    mana = sc.game.observe(0)["turn"]["mana"]
    sc.act("vale 1.1")
    assert sc.state.players[0].mana_token_active is True
    assert sc.game.observe(0)["turn"]["mana"] == mana + 1


# -- Conclave of Ents -----------------------------------------------------------------------------
@exercises("Conclave of Ents")
def test_conclave_of_ents_is_offered_only_after_a_spoil_and_keeps_a_card():
    sc = scenario()
    ids = sc.player(0, field=["Generic Ancient Warden", "Cursed Land", "Cursed Land"], on_deck="Cursed Land",
                    deck=["Cursed Land", "Blank", "Blank", "Blank"], vales=["Conclave of Ents"])
    st = sc.state
    sc.act("push")
    assert st.turn.spoiled
    assert st.pending[-1].kind == "keep_field_card"
    warden = ids["field"][0]
    assert f"keep #{warden}" in sc.legal() and "skip" in sc.legal()
    sc.act(f"keep #{warden}")
    pl = st.players[0]
    assert pl.field[0] == warden and warden not in pl.discard


@exercises("Conclave of Ents")
def test_conclave_of_ents_is_not_offered_without_a_spoil():
    sc = scenario()
    sc.player(0, field=["Fertile Soil"], on_deck="Blank", deck=["Cursed Land"] * 4, vales=["Conclave of Ents"])
    st = sc.state
    sc.act("pass")
    assert not any(a.startswith("use vale") for a in sc.legal())
    sc.act("finish")
    assert not any(p.kind == "keep_field_card" for p in st.pending)


@exercises("Conclave of Ents")
def test_conclave_of_ents_not_in_the_turn_it_is_bought():
    sc = scenario()
    sc.player(0, field=["Cursed Land", "Cursed Land", "Cursed Land"], on_deck="Cursed Land",
              deck=["Blank"] * 3, vales=["Conclave of Ents"])
    st = sc.state
    st.turn.new_vales.append(st.players[0].vales[0])
    sc.act("push")
    assert spoiled_since(sc, 0) and not any(p.kind == "keep_field_card" for p in st.pending)
    assert st.current == 1


@exercises("Conclave of Ents", "Manadew Meadow")
def test_a_card_kept_by_conclave_counts_for_manadew_meadow_next_turn():
    sc = scenario()
    ids = sc.player(0, field=["Generic Ancient Warden", "Cursed Land", "Cursed Land"], on_deck="Cursed Land",
                    deck=["Cursed Land", "Fertile Soil", "Blank", "Blank", "Blank"],
                    vales=["Conclave of Ents", "Manadew Meadow"])
    st = sc.state
    sc.act("push", f"keep #{ids['field'][0]}")
    play_until_turn_of(sc, 0)
    assert st.players[0].field[0] == ids["field"][0]


@exercises("Aether Tree")
def test_aether_tree_in_a_prep_phase_spoil_cancels_until_the_next_prep():
    sc = scenario()
    ids = sc.player(0, field=["Fertile Soil"], on_deck="Blank",
                    deck=["Cursed Land", "Cursed Land", ["Hulking Thornhide", "Stag"], "Blank", "Blank"],
                    vales=["Aether Tree"])
    st = sc.state
    pl = st.players[0]
    sc.act("pass", "finish")
    # Prep: Blank, Cursed Land, Cursed Land go into the field; Thornhide + Stag revealed: 4.
    assert st.turn.phase == "prep" and st.pending[-1].kind == "spoil_guard"
    card = ids["deck"][2]
    assert pl.on_deck == card
    sc.act(f"guard vale.1 #{card}")
    # Not spoiled: Prep goes on (2 decay showing, so the Thornhide card is played too).
    assert not any(" spoils with " in t for t in events_since(sc, 0))
    assert st.current == 1
    # The cancellation lasts into the next turn, until the next Prep phase.
    assert card in pl.aether_cards
    assert card in pl.field


@exercises("Wood Sprite Hoard", "Lifetap Oracle")
def test_open_expansion_decisions_survive_a_save_and_load():
    import mysticvale as mv

    sc = scenario()
    ids = _buy_vale(sc, "Wood Sprite Hoard", deck=["Cursed Land", "Stag", "Blank", "Fertile Soil"])
    sc.act("vale 1.1", f"discard #{ids['deck'][0]}")
    again = mv.Game.from_json(sc.game.to_json())
    assert [str(a) for a in again.legal_actions()] == sc.legal()
    assert again.observe(0) == sc.game.observe(0) and again.observe(1) == sc.game.observe(1)
    again.apply_action("keep")
    sc.act("keep")
    assert again.to_json() == sc.game.to_json()
    sc2 = scenario()
    sc2.player(0, field=["Fertile Soil"], on_deck=["Lifetap Oracle", "Generic Guardian Sapling"],
               deck=["Cursed Land", "Stag", "Blank"])
    sc2.act("push")
    again = mv.Game.from_json(sc2.game.to_json())
    assert again.state.pending[-1].data["left"] == 2
    assert [str(a) for a in again.legal_actions()] == sc2.legal()
