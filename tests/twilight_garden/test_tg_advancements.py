"""A scenario for every Twilight Garden advancement ability (file 003, Card Clarifications)."""

from __future__ import annotations

from exercised import exercises
from mysticvale.engine.harvest import mana_available
from tg_helpers import CL, pending, ref, scenario, vale_id


# -- When Played ---------------------------------------------------------------------
@exercises("Astromancer")
def test_astromancer_looks_privately_then_discards_or_keeps_the_top_card():
    sc = scenario()
    ids = sc.player(0, field=[], on_deck="Astromancer", deck=["Blank", CL, CL])
    sc.act("push")
    pd = pending(sc)
    top = ids["deck"][0]
    assert pd.kind == "look_top" and pd.private == [top]
    assert "cards" in sc.game.observe(0)["pending"] and "cards" not in sc.game.observe(1)["pending"]
    sc.act(f"discard #{top}")
    pl = sc.state.players[0]
    assert top in pl.discard and pl.on_deck == ids["deck"][1]     # then a new on-deck card


@exercises("Astromancer")
def test_astromancer_keep_puts_the_card_back_as_the_next_on_deck():
    sc = scenario()
    ids = sc.player(0, field=[], on_deck="Astromancer", deck=["Blank", CL, CL])
    sc.act("push", "keep")
    assert sc.state.players[0].on_deck == ids["deck"][0]


@exercises("Lore Keeper")
def test_lore_keeper_reveals_until_two_cursed_lands_and_keeps_one_in_the_field():
    sc = scenario()
    ids = sc.player(0, field=[], on_deck="Lore Keeper",
                    deck=["Blank", CL, "Fertile Soil", CL, "Ent Speaker", CL])
    sc.act("push")
    pl = sc.state.players[0]
    revealed = ids["deck"][:4]                      # Blank, CL, Fertile Soil, CL: stop at the 2nd CL
    assert sorted(pl.aside) == sorted(revealed)
    # Revealed cards are public: both seats see them.
    assert len(sc.game.observe(1)["players"][0]["set_aside"]) == 4
    assert pending(sc).player == 0 and sc.game.current_player == 0
    legal = sc.legal()
    assert sorted(legal) == sorted(f"take #{c}" for c in (ids["deck"][0], ids["deck"][1], ids["deck"][2]))
    sc.act(f"take #{ids['deck'][2]}")
    assert ids["deck"][2] in pl.field and not pl.aside
    assert all(c in pl.discard for c in (ids["deck"][0], ids["deck"][1], ids["deck"][3]))
    assert pl.on_deck == ids["deck"][4]            # then the next on-deck card


@exercises("Lore Keeper")
def test_lore_keeper_shuffles_the_discard_pile_in_and_can_lead_to_a_spoil():
    sc = scenario()
    ids = sc.player(0, field=[CL, CL], on_deck="Lore Keeper", deck=[CL], discard=[CL, CL], rest="deck")
    pl = sc.state.players[0]
    pl.discard, pl.deck = pl.deck, [ids["deck"][0]]   # deck: one Cursed Land; the rest in the discard pile
    sc.invalidate()
    sc.act("push")
    assert len([c for c in pl.aside if sc.state.cards[c]]) >= 2      # continued into the shuffled pile
    cl = next(c for c in pl.aside if sc.state.cards[c])
    sc.act(f"take #{cl}")
    # Field: 2 Cursed Lands + Lore Keeper + a Cursed Land = 3 decay, plus the on-deck card.
    assert cl in pl.field


@exercises("Truesight Archer")
def test_truesight_archer_looks_at_one_card_per_guardian_discards_and_orders():
    sc = scenario()
    ids = sc.player(0, field=[], on_deck=["Truesight Archer", "Pixie Skyguard"],
                    deck=[CL, "Blank", "Fertile Soil", CL, CL])
    sc.act("push")
    pd = pending(sc)
    a, b, c = ids["deck"][:3]
    assert pd.kind == "look_top_n" and pd.private == [a, b, c]     # 2 + 1 guardian
    assert "cards" not in sc.game.observe(1)["pending"]
    sc.act(f"discard #{b}")
    sc.act("keep")
    assert pending(sc).kind == "order_top"
    sc.act(f"order #{c}")                                          # Fertile Soil on top, then the Cursed Land
    pl = sc.state.players[0]
    assert b in pl.discard
    assert pl.on_deck == c and pl.deck[-1] == a
    assert pl.known_top == [a]


@exercises("Truesight Archer")
def test_truesight_archer_with_a_short_deck_shuffles_the_discard_pile_beneath():
    sc = scenario()
    ids = sc.player(0, field=[], on_deck="Truesight Archer", deck=[CL], discard=["Blank", "Blank"])
    sc.act("push")
    pd = pending(sc)
    assert pd.private[0] == ids["deck"][0] and len(pd.private) == 2


# -- Harvest -------------------------------------------------------------------------
@exercises("Daybreak Herald")
def test_daybreak_herald_turns_every_used_mana_token_active_yourself_included():
    sc = scenario(players=3)
    ids = sc.player(0, field=["Daybreak Herald", "Blank"], on_deck=CL, deck=[CL, CL], mana_token=True)
    st = sc.state
    st.players[1].mana_token_active = False
    st.players[2].mana_token_active = True
    sc.act("pass", "token")
    before = mana_available(st)
    sc.act(f"use {ref(sc, ids['field'][0], 'Daybreak Herald')}")
    assert all(pl.mana_token_active for pl in st.players)
    sc.act("token")                                  # spent again: a second mana
    assert mana_available(st) == before + 1


@exercises("Daybreak Herald")
def test_daybreak_herald_is_optional_and_not_offered_when_every_token_is_active():
    sc = scenario()
    ids = sc.player(0, field=["Daybreak Herald"], on_deck=CL, deck=[CL], mana_token=True)
    sc.state.players[1].mana_token_active = True
    sc.act("pass")
    assert f"use {ref(sc, ids['field'][0], 'Daybreak Herald')}" not in sc.legal()
    sc.act("finish")                                 # optional: nothing resolves by itself
    assert not any("turns mana tokens active" in e.text for e in sc.state.events)


@exercises("Deepwood Veteran")
def test_deepwood_veteran_each_opponent_chooses_vp_token_or_two_curses():
    sc = scenario(players=3)
    ids = sc.player(0, field=["Deepwood Veteran"], on_deck=CL, deck=[CL])
    st = sc.state
    st.players[1].vp_tokens = 3
    st.players[2].vp_tokens = 2
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Deepwood Veteran')}")
    assert sc.game.current_player == 1 and pending(sc).kind == "deepwood_veteran"
    assert sorted(sc.legal()) == ["choose curses", "give vp"]
    sc.act("give vp")
    assert sc.game.current_player == 2
    sc.act("choose curses")
    assert (st.players[0].vp_tokens, st.players[1].vp_tokens) == (1, 2)
    assert (st.players[2].vp_tokens, st.players[2].curse_tokens) == (2, 2)
    assert sc.game.current_player == 0


@exercises("Deepwood Veteran")
def test_deepwood_veteran_an_opponent_without_vp_tokens_takes_the_curses():
    sc = scenario()
    sc.player(0, field=["Deepwood Veteran"], on_deck=CL, deck=[CL])
    sc.state.players[1].vp_tokens = 0
    sc.act("pass", "finish")                         # not optional: resolves as the Harvest ends
    assert sc.state.players[1].curse_tokens == 2 and not sc.state.pending


@exercises("Griffin Rider")
def test_griffin_rider_one_more_vale_and_the_vale_swap():
    sc = scenario()
    ids = sc.player(0, field=["Griffin Rider"], on_deck=CL, deck=[CL], vales=["Flame Geysers"])
    sc.give_vales(1, ["Frostmarch Glacier", "Raincaller Rock", "Rotted Weald"])
    st = sc.state
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Griffin Rider')}")
    assert st.turn.vale_limit == 3
    assert sorted(sc.legal()) == ["give vale.1 p2", "skip"]
    sc.act("give vale.1 p2")
    fg = vale_id(sc, "Flame Geysers")
    assert fg in st.players[1].vales and not any(p.kind == "flame_geysers" for p in st.pending)  # no When Bought
    assert sorted(sc.legal()) == ["skip", "take vale.1", "take vale.2", "take vale.3"]
    sc.act("take vale.1", "take vale.1")             # up to two
    assert not st.pending
    mine = {st.cat.vale_list[st.vale_types[v]].name for v in st.players[0].vales}
    assert mine == {"Frostmarch Glacier", "Raincaller Rock"}
    assert st.turn.vale_buys == 0                   # claimed vales are not buys


@exercises("Herbalist")
def test_herbalist_returns_one_curse_token():
    sc = scenario()
    ids = sc.player(0, field=["Herbalist"], on_deck=CL, deck=[CL])
    st = sc.state
    st.players[0].curse_tokens = 2
    st.curse_supply_taken = 2
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Herbalist')}")
    assert st.players[0].curse_tokens == 1 and st.curse_supply_taken == 1
    assert st.players[1].curse_tokens == 0


@exercises("Herbalist")
def test_herbalist_is_not_offered_without_curse_tokens():
    sc = scenario()
    ids = sc.player(0, field=["Herbalist"], on_deck=CL, deck=[CL])
    sc.state.players[1].curse_tokens = 3           # an opponent's tokens are not yours to discard
    sc.act("pass")
    assert f"use {ref(sc, ids['field'][0], 'Herbalist')}" not in sc.legal()
    sc.act("finish")
    assert sc.state.players[1].curse_tokens == 3


@exercises("Ranger Captain")
def test_ranger_captain_takes_the_top_level1_vale_for_free():
    from tg_helpers import vale_on_top
    sc = scenario()
    ids = sc.player(0, field=["Ranger Captain"], on_deck=CL, deck=[CL])
    v = vale_on_top(sc, 1, "Frostmarch Glacier")
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Ranger Captain')}")
    obs0, obs1 = sc.game.observe(0)["pending"], sc.game.observe(1)["pending"]
    assert obs0["vale"]["name"] == "Frostmarch Glacier" and "vale" not in obs1
    sc.act("take vale")
    st = sc.state
    assert v in st.players[0].vales and v not in st.vale_decks[1] and st.turn.vale_buys == 0


@exercises("Ranger Captain")
def test_ranger_captain_may_put_the_vale_back():
    from tg_helpers import vale_on_top
    sc = scenario()
    ids = sc.player(0, field=["Ranger Captain"], on_deck=CL, deck=[CL])
    v = vale_on_top(sc, 1, "Rotted Weald")
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Ranger Captain')}", "skip")
    assert sc.state.vale_decks[1][-1] == v
    assert all("Rotted Weald" not in e["text"] for e in sc.game.log(1))   # private look


@exercises("Snapjaw")
def test_snapjaw_takes_the_top_level3_advancement_for_free():
    sc = scenario()
    ids = sc.player(0, field=["Snapjaw", "Blank"], on_deck=CL, deck=[CL])
    st = sc.state
    top = st.adv_decks[3][-1]
    sc.act("pass")
    st.turn.mana_bonus = 10
    sc.invalidate()
    sc.act(f"use {ref(sc, ids['field'][0], 'Snapjaw')}")
    assert sc.game.observe(0)["pending"]["advancement"]["label"] == st.cat.label(top)
    assert "advancement" not in sc.game.observe(1)["pending"]
    sc.act("take adv.3")
    assert st.turn.adv_buys == 0 and [p.copy for p in st.turn.purchases] == [top]
    assert top not in st.adv_decks[3]
    assert any(a.startswith("buy ") for a in sc.legal())     # both normal buys are left


@exercises("Snapjaw")
def test_snapjaw_cannot_take_what_cannot_be_sleeved():
    sc = scenario()
    ids = sc.player(0, field=[["Snapjaw", "Ent Speaker", "Ent Beetender"]], on_deck=CL, deck=[CL])
    st = sc.state
    st.adv_decks[3].append(st.cat.copy_id("Highland Avenger", "middle"))
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Snapjaw')}")
    assert sc.legal() == ["skip"]


@exercises("Council of Owls")
def test_council_of_owls_makes_an_advancement_for_its_card_3_cheaper():
    sc = scenario()
    ids = sc.player(0, field=["Council of Owls", CL], on_deck=CL, deck=[CL])
    c = ids["field"][0]
    sc.put_in_commons(2, 1, "Hippogriff", "middle")
    sc.act("pass")
    st = sc.state
    cost = st.cat.advancements["Hippogriff"].cost
    mana = cost - 1                                       # exactly one mana short of its cost
    st.turn.mana_bonus = mana - mana_available(st)
    sc.invalidate()
    assert cost - 3 <= mana < cost
    assert f"buy 2.1 on #{c}" in sc.legal() and "buy 2.1" not in sc.legal()
    sc.act(f"buy 2.1 on #{c}", "finish")
    assert st.cat.copy_id("Hippogriff", "middle") in st.cards[c]


@exercises("Council of Owls")
def test_council_of_owls_covered_as_an_eclipse_gives_no_discount():
    sc = scenario()
    sc.player(0, field=[["Council of Owls", "Ent Beetender"]], on_deck=CL, deck=[CL])
    sc.put_in_commons(2, 1, "Hippogriff", "middle")
    sc.act("pass")
    assert not any(" on #" in a for a in sc.legal())


# -- spoiling ------------------------------------------------------------------------
@exercises("Spirits of Decay")
def test_spirits_of_decay_gives_its_curse_symbols_when_you_spoil_text_ignored():
    sc = scenario()
    # Like file 003's example with a Wind Chaser: another advancement's text on the card (here
    # Herbalist, whose text is about curse tokens) is ignored; only the 3 curse symbols count.
    sc.player(0, field=[["Spirits of Decay", "Herbalist"], CL, CL, CL], on_deck=CL, deck=[CL, CL, CL])
    sc.act("push")
    assert sc.state.players[0].curse_tokens == 3


@exercises("Witches of Deephollow")
def test_witches_of_deephollow_vp_per_card_below_nine_and_another_turn():
    for field_size, vp in ((4, 5), (5, 4), (9, 0), (10, 0)):
        sc = scenario()
        blanks = ["Blank"] * (field_size - 4)
        sc.player(0, field=["Witches of Deephollow", CL, CL] + blanks, on_deck=CL, deck=[CL, CL, CL, CL, CL])
        st = sc.state
        st.vp_pool = 23
        sc.act("push")                                # 4 decay: spoil with field_size cards
        assert st.players[0].vp_tokens == vp, field_size
        # After the Discard and Prep phases the same player takes another turn.
        assert st.current == 0 and st.turn.phase == "planting" and sc.game.current_player == 0
        assert st.extra_turns == []


@exercises("Witches of Deephollow")
def test_witches_of_deephollow_earned_by_a_spoil_in_prep_gives_its_extra_turn_once():
    # Prep after a quiet turn: Witches of Deephollow (1 decay) is played, then a Cursed Land;
    # the revealed Cursed Land + Stag makes 4 decay: a spoil with Witches in the field.
    sc = scenario()
    sc.player(0, field=["Blank"], on_deck="Witches of Deephollow",
              deck=[CL, [CL, "Stag"], "Blank", CL, "Blank", "Blank"])
    sc.player(1, field=["Blank"], on_deck=CL, deck=[CL, CL, CL, "Blank"])
    st = sc.state
    st.vp_pool = 23
    turns = len([e for e in st.events if e.kind == "turn"])
    sc.act("pass", "finish")
    assert [e.kind for e in st.events].count("spoil") == 1
    assert st.players[0].vp_tokens == 7                # 2 cards in the field: 9 - 2
    # Prep is made again; then player 1 takes the extra turn (announced once, started once).
    new = [e.text for e in st.events if e.kind in ("turn", "extra_turn")][turns:]
    assert new == ["Player 1 takes another turn.", "Round 1: Player 1's turn."]
    assert st.current == 0 and sc.game.phase == "planting" and st.extra_turns == []
    sc.act("pass", "finish")
    assert st.current == 1 and [e.text for e in st.events if e.kind == "turn"][-1] == "Round 1: Player 2's turn."


@exercises("Witches of Deephollow")
def test_witches_of_deephollow_gives_its_extra_turn_in_the_last_round_too():
    # The last seat of the final round spoils with Witches of Deephollow: the extra turn is
    # taken "after completing your current turn" (file 003), before the game ends after the
    # round (docs/rules-decisions.md, Twilight Garden 14).
    sc = scenario(players=2, current=1)          # player 2 starts, so player 1 plays last
    sc.reset_turn(0)
    st = sc.state
    assert st.first_player == 1
    sc.player(0, field=["Witches of Deephollow", CL, CL], on_deck=CL, deck=[CL, CL, CL, "Blank", "Blank"])
    st.vp_pool = 0
    st.end_triggered = "vp_pool"                 # the pool ran out earlier in this round
    sc.act("push")                               # 4 decay: spoil
    assert st.players[0].vp_tokens == 5 and not sc.game.is_over()
    assert st.current == 0 and sc.game.phase == "planting"
    assert [e.kind for e in st.events][-1] == "turn" and st.events[-2].kind == "extra_turn"
    sc.act("pass", "finish")                     # the extra turn; then the round is over
    assert sc.game.is_over()
