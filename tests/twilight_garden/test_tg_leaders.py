"""Leaders (file 003): setup, upgrading, and a scenario per leader side."""

from __future__ import annotations

import pytest

import mysticvale as mv
from exercised import exercises
from mysticvale.engine.leaders import leader_on
from mysticvale.engine.harvest import mana_available
from mysticvale.engine.zones import owned_cards, stats
from tg_helpers import CL, SETS, make_leader, pending, ref, scenario


def _leader_cards(st, p):
    return [c for c in owned_cards(st, p) if leader_on(st, c)]


def _mana(sc, n):
    """Set the active player's Harvest mana to exactly ``n``."""
    st = sc.state
    st.turn.mana_bonus += n - mana_available(st)
    sc.invalidate()


# -- setup ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_player_keeps_one_of_two_dealt_leaders_before_the_first_turn(players):
    g = mv.new_game(players=players, seed=11, sets=SETS, leaders=True)
    st = g.state
    first = st.first_player
    dealt = []
    for i in range(players):
        seat = (first + i) % players
        assert g.current_player == seat and st.pending[-1].kind == "choose_leader"
        mine = g.observe(seat)["pending"]
        assert len(mine["leaders"]) == 2
        assert sorted(g.observe(seat)["players"][seat]["leaders_dealt"]) == sorted(mine["leaders"])
        assert "leaders_dealt" not in g.observe((seat + 1) % players)["players"][seat]
        other = (seat + 1) % players
        assert "leaders" not in g.observe(other)["pending"] and "leaders" not in g.observe(None)["pending"]
        legal = [str(a) for a in g.legal_actions()]
        assert len(legal) == 2 and all(a.startswith("choose ") for a in legal)
        dealt += mine["leaders"]
        g.apply_action(legal[i % 2])
    assert len(set(dealt)) == 2 * players                      # every dealt leader is different
    assert not st.pending and st.turn.phase == "planting" and g.current_player == first
    for p in range(players):
        leaders = _leader_cards(st, p)
        assert len(leaders) == 1 and leader_on(st, leaders[0])[1] == "start"
        assert len(owned_cards(st, p)) == 20
        assert st.cards[leaders[0]] and sum(1 for c in owned_cards(st, p) if st.cards[c] == ()) == 7
        assert st.players[p].field                             # the starting field was made afterwards
    # The choice is private in the log of other seats.
    chosen0 = st.cat.leaders[leader_on(st, _leader_cards(st, first)[0])[0]].name
    other_log = " ".join(e["text"] for e in g.log((first + 1) % players))
    assert f"keeps the leader {chosen0}" not in other_log
    assert f"keeps the leader {chosen0}" in " ".join(e["text"] for e in g.log(first))


def test_starting_field_counts_cursed_lands_not_net_decay_issue_13_le_que():
    # File 000, Setup Fields: "until you have two Cursed Lands in your field and a third one
    # on-deck".  Le Que's growth cancels a decay, so counting net decay put three Cursed Lands
    # into player 2's field (issue 13, item 2).
    g = mv.new_game(players=4, seed=1056, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True)
    for a in ("choose hectoro", "choose althena", "choose le_que", "choose boeglebee"):
        g.apply_action(a)
    st = g.state
    for p, pl in enumerate(st.players):
        assert sum(stats(st, c).has_cursed_land for c in pl.field) == 2, p
        assert stats(st, pl.on_deck).has_cursed_land, p
    le_que = st.players[1]
    assert any(leader_on(st, c) == ("Le Que", "start") for c in le_que.field)


@pytest.mark.parametrize("seed", range(12))
def test_every_starting_field_with_leaders_has_two_cursed_lands_and_a_third_on_deck(seed):
    g = mv.new_game(players=4, seed=seed, sets=SETS, leaders=True)
    for i in range(4):
        g.apply_action(g.legal_actions()[(seed + i) % 2])
    st = g.state
    for pl in st.players:
        flags = [stats(st, c).has_cursed_land for c in pl.field]
        assert sum(flags) == 2 and stats(st, pl.on_deck).has_cursed_land
        assert flags[0] or len(flags) > 1     # the field is never empty
        assert len(pl.field) + 1 + len(pl.deck) == 20


def test_leader_choice_survives_clone_and_json():
    g = mv.new_game(players=2, seed=2, sets=SETS, leaders=True)
    again = mv.Game.from_json(g.to_json())
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in g.legal_actions()]
    a = g.legal_actions()[1]
    g.apply_action(a)
    again.apply_action(a)
    assert again.to_json() == g.to_json() == g.clone().to_json()


def test_leaders_need_the_twilight_garden_set_and_a_boolean():
    with pytest.raises(ValueError, match="twilight_garden"):
        mv.new_game(players=2, seed=1, leaders=True)
    with pytest.raises(ValueError, match="leaders must be"):
        mv.new_game(players=2, seed=1, sets=SETS, leaders="yes")


def test_no_advancement_is_sleeved_on_a_leader():
    sc = scenario()
    ids = sc.player(0, field=["Blank", CL], on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Sorcel")
    st = sc.state
    assert not any(st.cat.fits(st.cards[ids["field"][0]], c) for c in range(len(st.cat.copies)))
    sc.act("pass")
    _mana(sc, 2)
    sc.act("buy soil.middle", "finish")
    assert st.cards[ids["field"][0]] == tuple(st.cards[ids["field"][0]])
    assert st.cat.copy_id("Fertile Soil", "middle") in st.cards[ids["field"][1]]


# -- upgrading -----------------------------------------------------------------------
def test_upgrading_costs_mana_and_one_of_the_two_buys_and_turns_in_the_discard_phase():
    sc = scenario()
    ids = sc.player(0, field=["Blank", "Blank"], on_deck=CL, deck=[CL, CL])
    card = ids["field"][0]
    make_leader(sc, card, "Sorcel")
    cost = sc.state.cat.leaders["Sorcel"].upgrade_cost
    sc.act("pass")
    _mana(sc, cost - 1)
    assert f"upgrade #{card}" not in sc.legal()               # cannot afford it
    _mana(sc, cost + 2)
    sc.act(f"upgrade #{card}")
    st = sc.state
    assert st.turn.adv_buys == 1 and mana_available(st) == 2
    assert f"upgrade #{card}" not in sc.legal()
    assert leader_on(st, card) == ("Sorcel", "start")          # still the starting side this Harvest
    sc.act("buy soil.top")                                       # the one buy left
    assert not any(a.startswith("buy ") for a in sc.legal())
    sc.act("finish")
    assert leader_on(st, card) == ("Sorcel", "upgraded")


def test_no_upgrade_once_both_buys_are_used():
    sc = scenario()
    ids = sc.player(0, field=["Blank", "Blank", "Blank"], on_deck=CL, deck=[CL, CL])
    make_leader(sc, ids["field"][0], "Sorcel")
    sc.act("pass")
    _mana(sc, 20)
    sc.act("buy soil.top", "buy soil.middle")
    assert not any(a.startswith("upgrade") for a in sc.legal())


def test_upgraded_ability_not_usable_in_the_harvest_it_is_bought_but_the_starting_one_is():
    sc = scenario()
    ids = sc.player(0, field=["Blank", "Blank"], on_deck=CL, deck=[CL, CL])
    card = ids["field"][0]
    make_leader(sc, card, "Kojen and Khan")
    sc.put_in_commons(1, 1, "Ent Speaker", "bottom")
    sc.act("pass")
    _mana(sc, 10)
    sc.act(f"upgrade #{card}")
    start_use = f"use {ref(sc, card, 'Kojen and Khan (starting, bottom)')}"
    assert start_use in sc.legal()                               # the starting side still works
    assert sum(1 for a in sc.legal() if a.startswith(f"use #{card}")) == 1   # no upgraded middle ability
    sc.act("finish")
    assert leader_on(sc.state, card) == ("Kojen and Khan", "upgraded")


# -- Althena -------------------------------------------------------------------------
@exercises("Althena")
def test_althena_starting_side_keeps_herself_and_a_chosen_cursed_land_card():
    sc = scenario()
    ids = sc.player(0, field=["Blank", CL, [CL, "Ent Speaker"], "Blank"], on_deck=CL, deck=[CL, CL, CL])
    al = ids["field"][0]
    make_leader(sc, al, "Althena")
    st = sc.state
    st.players[0].vp_tokens = 2
    st.players[0].curse_tokens = 2                              # 0 token points, no vales
    sc.act("pass", "finish")
    assert pending(sc).kind == "althena_keep"
    assert sorted(sc.legal()) == sorted([f"keep #{ids['field'][1]}", f"keep #{ids['field'][2]}"])
    sc.act(f"keep #{ids['field'][2]}")
    assert st.players[0].field[:2] == [al, ids["field"][2]]     # the next field starts with them
    assert ids["field"][1] in st.players[0].discard


@exercises("Althena")
def test_althena_starting_side_needs_both_conditions():
    sc = scenario()
    ids = sc.player(0, field=["Blank", CL], on_deck=CL, deck=[CL, CL, CL])
    make_leader(sc, ids["field"][0], "Althena")
    sc.state.players[0].vp_tokens = 1                           # token points 1 > 0
    sc.act("pass", "finish")
    assert ids["field"][0] in sc.state.players[0].discard


@exercises("Althena")
def test_althena_upgraded_side_needs_either_condition_and_keeps_alone_without_cursed_land():
    sc = scenario()
    ids = sc.player(0, field=["Blank", "Blank"], on_deck=CL, deck=[CL, CL, CL])
    al = ids["field"][0]
    make_leader(sc, al, "Althena", "upgraded")
    st = sc.state
    st.players[0].vp_tokens = 5                                 # tokens positive, but no vale VP
    sc.act("pass", "finish")
    assert st.players[0].field[0] == al and ids["field"][1] in st.players[0].discard


# -- Hectoro -------------------------------------------------------------------------
@exercises("Hectoro")
def test_hectoro_starting_side_curses_most_vales_and_most_net_vp_file_003_example():
    sc = scenario(players=3)
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Hectoro")
    st = sc.state
    a, b = st.players[1], st.players[2]
    a.vp_tokens, a.curse_tokens = 5, 5                          # net 0
    b.vp_tokens = 2                                             # net 2: the most net VP tokens
    sc.give_vales(1, ["Frostmarch Glacier", "Raincaller Rock"])
    sc.give_vales(2, ["Rotted Weald"])
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Hectoro (starting)')}")
    assert (a.curse_tokens, b.curse_tokens) == (5 + 2, 2)


@exercises("Hectoro")
def test_hectoro_ties_curse_every_tied_opponent_and_one_can_take_both():
    sc = scenario(players=3)
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Hectoro")
    st = sc.state
    st.players[1].vp_tokens = st.players[2].vp_tokens = 3
    sc.give_vales(1, ["Frostmarch Glacier"])
    sc.act("pass", "finish")                                   # not optional
    assert (st.players[1].curse_tokens, st.players[2].curse_tokens) == (4, 2)


@exercises("Hectoro")
def test_hectoro_curses_nobody_for_most_vales_or_net_vp_when_no_opponent_has_any():
    # File 003: "The opponent (or opponents in the case of a tie) with the most vale cards
    # gains 2 curse tokens."  With no vale (no net VP token) nobody has the most: nobody is
    # cursed for it (docs/rules-decisions.md, Twilight Garden 22).
    sc = scenario(players=3)
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Hectoro")
    st = sc.state
    st.players[1].vp_tokens, st.players[1].curse_tokens = 2, 2     # net 0
    st.players[2].curse_tokens = 1                                # net -1
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Hectoro (starting)')}")
    assert (st.players[1].curse_tokens, st.players[2].curse_tokens) == (2, 1)
    assert any("finds no opponent to curse" in e["text"] for e in sc.game.log(None))
    # One vale is "the most vale cards": its owner is cursed, for the vales only.
    sc2 = scenario(players=3)
    ids = sc2.player(0, field=["Blank"], on_deck=CL, deck=[CL])
    make_leader(sc2, ids["field"][0], "Hectoro")
    sc2.give_vales(2, ["Rotted Weald"])
    sc2.act("pass", "finish")
    assert (sc2.state.players[1].curse_tokens, sc2.state.players[2].curse_tokens) == (0, 2)


@exercises("Hectoro")
def test_hectoro_upgraded_in_planting_places_seven_cards_and_goes_to_the_harvest():
    sc = scenario()
    ids = sc.player(0, field=[CL, CL], on_deck="Blank", deck=[CL] * 9)
    hc = ids["on_deck"][0]
    make_leader(sc, hc, "Hectoro", "upgraded")
    sc.act("push")
    st = sc.state
    pl = st.players[0]
    assert len(pl.field) == 2 + 1 + 7 and pl.on_deck == ids["deck"][7]
    assert st.turn.phase == "harvest" and not st.turn.spoiled    # 9 decay, yet no spoil
    assert "push" not in sc.legal() and "finish" in sc.legal()
    assert pl.vp_tokens == 0 and mana_available(st) >= 9
    sc.act("finish")
    assert leader_on(st, hc) == ("Hectoro", "start")             # turned back in the Discard phase


@exercises("Hectoro")
def test_hectoro_upgraded_in_prep_ends_the_turn_and_the_next_begins_with_the_harvest():
    sc = scenario()
    ids = sc.player(0, field=["Blank"], on_deck="Blank", deck=[CL] * 9 + ["Blank"] * 4)
    hc = ids["on_deck"][0]
    make_leader(sc, hc, "Hectoro", "upgraded")
    sc.act("pass", "finish")                                     # Prep plays Hectoro first
    st = sc.state
    pl = st.players[0]
    assert len(pl.field) == 8 and st.current == 1 and not st.turn.spoiled
    sc.act("pass", "finish")                                     # player 2's turn
    assert st.current == 0 and st.turn.phase == "harvest" and sc.game.current_player == 0
    assert "push" not in sc.legal() and "pass" not in sc.legal()
    sc.act("finish")
    assert leader_on(st, hc) == ("Hectoro", "start")


# -- Kojen and Khan ------------------------------------------------------------------
@exercises("Kojen and Khan")
def test_kojen_and_khan_sleeve_a_free_bottom_advancement_over_the_ability():
    sc = scenario()
    ids = sc.player(0, field=["Blank", "Blank"], on_deck=CL, deck=[CL, CL])
    kk = ids["field"][0]
    make_leader(sc, kk, "Kojen and Khan")
    st = sc.state
    sc.put_in_commons(3, 1, "Forest Wyrm", "bottom")
    sc.put_in_commons(1, 1, "Ent Speaker", "top")
    sc.act("pass")
    _mana(sc, 0)
    sc.act(f"use {ref(sc, kk, 'Kojen and Khan (starting, bottom)')}")
    legal = sc.legal()
    assert "buy 3.1" in legal and "buy soil.bottom" in legal and "buy 1.1" not in legal and "skip" in legal
    sc.act("buy 3.1")
    wyrm = st.cat.copy_id("Forest Wyrm", "bottom")
    assert st.cards[kk][-1] == wyrm and st.turn.adv_buys == 0 and not st.turn.purchases
    assert not any(ab.effect == "sleeve_free_advancement_here" for _, ab in stats(st, kk).abilities)
    assert stats(st, kk).end_vp == 1 + 2                         # leader 1 + Forest Wyrm 2
    # Upgrading keeps it; the upgraded middle ability is then free to use.
    from mysticvale.engine.leaders import set_side
    set_side(st, kk, "upgraded")
    assert st.cards[kk][-1] == wyrm
    effects = [ab.param("slot") for _, ab in stats(st, kk).abilities if ab.effect == "sleeve_free_advancement_here"]
    assert effects == ["middle"]


@exercises("Kojen and Khan")
def test_kojen_and_khan_upgraded_may_use_both_slots():
    sc = scenario()
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL, CL])
    kk = ids["field"][0]
    make_leader(sc, kk, "Kojen and Khan", "upgraded")
    sc.act("pass")
    uses = [a for a in sc.legal() if a.startswith(f"use #{kk}")]
    assert len(uses) == 2
    sc.act(uses[0], "buy soil.middle", uses[1], "buy soil.bottom")
    st = sc.state
    assert stats(st, kk).active_layers == (0, 3, 4)
    assert st.soil_left["middle"] == 5 and st.soil_left["bottom"] == 5


# -- Le Que ----------------------------------------------------------------------------
@exercises("Le Que")
def test_le_que_with_twenty_cards_in_the_field_wins_whatever_the_points():
    sc = scenario()
    ids = sc.player(0, field=["Blank"] * 20, on_deck=None, deck=[])
    make_leader(sc, ids["field"][0], "Le Que")
    sc.state.players[1].vp_tokens = 50
    sc.act("pass")
    assert sc.game.score_breakdown(0)["negative_vp"] == -100
    sc.act(f"use {ref(sc, ids['field'][0], 'Le Que (starting)')}")
    assert sc.game.is_over() and sc.game.winners() == [0] and sc.game.current_player is None


@exercises("Le Que")
def test_le_que_win_is_not_optional_and_needs_twenty_cards():
    sc = scenario()
    ids = sc.player(0, field=["Blank"] * 19, on_deck=CL, deck=[])
    make_leader(sc, ids["field"][0], "Le Que")
    sc.act("pass")
    assert f"use {ref(sc, ids['field'][0], 'Le Que (starting)')}" not in sc.legal()
    sc.act("finish")
    assert not sc.game.is_over()
    sc = scenario()
    ids = sc.player(0, field=["Blank"] * 20, on_deck=None, deck=[])
    make_leader(sc, ids["field"][0], "Le Que")
    sc.act("pass", "finish")
    assert sc.game.is_over() and sc.game.winners() == [0]


@exercises("Le Que")
def test_le_que_takes_one_of_four_chosen_cards_the_opponent_picks():
    sc = scenario()
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Le Que")
    opp = sc.player(1, field=[CL, "Fertile Soil", "Ent Speaker", "Hippogriff", "Menhir Circle"], on_deck=CL,
                    deck=[CL])
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Le Que (starting)', 1)}")
    st = sc.state
    assert sorted(sc.legal()) == sorted(f"take #{c}" for c in opp["field"])
    for c in opp["field"][:4]:
        sc.act(f"take #{c}")
    assert sc.game.current_player == 1 and pending(sc).kind == "le_que_give"
    assert sorted(sc.legal()) == sorted(f"give #{c}" for c in opp["field"][:4])
    sc.act(f"give #{opp['field'][2]}")
    assert st.players[0].discard[-1] == opp["field"][2] and opp["field"][2] not in st.players[1].field
    assert st.owner[opp["field"][2]] == 1 and sc.game.current_player == 0


@exercises("Le Que")
def test_le_que_against_a_field_of_four_or_fewer_chooses_them_all():
    sc = scenario()
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Le Que")
    opp = sc.player(1, field=[CL, "Fertile Soil"], on_deck=CL, deck=[CL])
    sc.act("pass", f"use {ref(sc, ids['field'][0], 'Le Que (starting)', 1)}", f"take #{opp['field'][0]}")
    assert sc.game.current_player == 1
    assert sorted(sc.legal()) == sorted(f"give #{c}" for c in opp["field"])


@exercises("Le Que")
def test_le_que_upgraded_looks_at_the_top_two_and_pays_five_to_turn_back_and_win():
    sc = scenario()
    ids = sc.player(0, field=["Blank"] * 17, on_deck="Blank", deck=[CL, "Fertile Soil"])
    lq = ids["on_deck"][0]
    make_leader(sc, lq, "Le Que", "upgraded")
    sc.act("push")
    pd = pending(sc)
    assert pd.kind == "look_top_n" and pd.private == ids["deck"][:2]   # the on-deck card is not one of them
    sc.act("keep", f"order #{ids['deck'][1]}")
    st = sc.state
    assert st.players[0].on_deck == ids["deck"][1]
    sc.act("push", "push")                                       # 20 cards in the field
    assert len(st.players[0].field) == 20
    sc.act("pass")
    _mana(sc, 5)
    sc.act(f"use {ref(sc, lq, 'Le Que (upgraded)', 1)}")
    assert sc.game.is_over() and sc.game.winners() == [0]


@exercises("Le Que")
def test_le_que_upgraded_turning_back_without_twenty_cards_does_not_win():
    sc = scenario()
    ids = sc.player(0, field=["Blank", "Blank"], on_deck=CL, deck=[CL])
    lq = ids["field"][0]
    make_leader(sc, lq, "Le Que", "upgraded")
    assert sc.game.score_breakdown(0)["negative_vp"] == 0
    sc.act("pass")
    _mana(sc, 4)
    assert f"use {ref(sc, lq, 'Le Que (upgraded)', 1)}" not in sc.legal()
    _mana(sc, 5)
    sc.act(f"use {ref(sc, lq, 'Le Que (upgraded)', 1)}")
    st = sc.state
    assert leader_on(st, lq) == ("Le Que", "start") and not sc.game.is_over() and mana_available(st) == 0
    assert not any(a.startswith(f"use #{lq}") for a in sc.legal())   # the starting side waits a turn


# -- Sorcel ----------------------------------------------------------------------------
@exercises("Sorcel")
@pytest.mark.parametrize("side,n", [("start", 2), ("upgraded", 5)])
def test_sorcel_looks_at_two_or_five_discards_any_and_orders_the_rest(side, n):
    sc = scenario()
    ids = sc.player(0, field=[], on_deck="Blank", deck=[CL, "Fertile Soil", "Ent Speaker", "Hippogriff", CL, CL])
    make_leader(sc, ids["on_deck"][0], "Sorcel", side)
    sc.act("push")
    pd = pending(sc)
    assert pd.kind == "look_top_n" and pd.private == ids["deck"][:n]
    assert "cards" not in sc.game.observe(1)["pending"]
    sc.act(f"discard #{ids['deck'][1]}", "keep")
    while pending(sc) and pending(sc).kind == "order_top":
        sc.act(sc.legal()[-1])
    pl = sc.state.players[0]
    assert ids["deck"][1] in pl.discard
    kept = [c for c in ids["deck"][:n] if c != ids["deck"][1]]
    assert sorted([pl.on_deck] + pl.known_top) == sorted(kept)


# -- the three leaders without text in file 003 (provisional abilities) ----------------
@exercises("Boeglebee")
@pytest.mark.parametrize("side,gain", [("start", 2), ("upgraded", 4)])
def test_boeglebee_provisional_mana_per_field_cards(side, gain):
    sc = scenario()
    ids = sc.player(0, field=["Blank"] * 8, on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Boeglebee", side)
    assert sc.state.cat.leaders["Boeglebee"].provisional
    sc.act("pass")
    before = mana_available(sc.state)
    part = "Boeglebee (starting)" if side == "start" else "Boeglebee (upgraded)"
    sc.act(f"use {ref(sc, ids['field'][0], part)}")
    assert mana_available(sc.state) == before + gain              # 8 cards: per 4 / per 2


@exercises("Truffta")
@pytest.mark.parametrize("side,left", [("start", 2), ("upgraded", 1)])
def test_truffta_provisional_returns_curse_tokens(side, left):
    sc = scenario()
    ids = sc.player(0, field=["Blank"], on_deck=CL, deck=[CL])
    make_leader(sc, ids["field"][0], "Truffta", side)
    sc.state.players[0].curse_tokens = 3
    part = "Truffta (starting)" if side == "start" else "Truffta (upgraded)"
    sc.act("pass", f"use {ref(sc, ids['field'][0], part)}")
    assert sc.state.players[0].curse_tokens == left


@exercises("Wayalieh")
@pytest.mark.parametrize("side,kind,n", [("start", "look_top", 1), ("upgraded", "look_top_n", 3)])
def test_wayalieh_provisional_looks_at_the_top_cards(side, kind, n):
    sc = scenario()
    ids = sc.player(0, field=[], on_deck="Blank", deck=[CL, "Fertile Soil", "Ent Speaker", CL])
    make_leader(sc, ids["on_deck"][0], "Wayalieh", side)
    sc.act("push")
    assert pending(sc).kind == kind and pending(sc).private == ids["deck"][:n]


# -- hidden information: which leader an opponent keeps ----------------------------------
def test_determinize_resamples_the_leaders_a_viewer_cannot_know():
    g = mv.new_game(players=4, seed=21, sets=SETS, leaders=True)
    st = g.state
    seen_kinds = set()
    for _ in range(4):
        g.apply_action(g.legal_actions()[0])
    viewer = st.first_player
    mine = _leader_cards(st, viewer)[0]
    hidden = {q: _leader_cards(st, q)[0] for q in range(4) if q != viewer}
    hidden = {q: c for q, c in hidden.items() if c not in st.seen_leaders}
    assert hidden, "every leader was seen in the starting fields; choose another seed"
    for k in range(30):
        d = g.determinize(viewer, k).state
        assert d.cards[mine] == st.cards[mine]                     # your own leader stays
        for q, c in hidden.items():
            name, side = leader_on(d, c)
            assert side == "start" and name not in st.players[viewer].dealt_leaders
            seen_kinds.add((q, name))
        names = [leader_on(d, c)[0] for c in list(hidden.values()) + [mine]]
        assert len(set(names)) == len(names)
        assert d.players[(viewer + 1) % 4].dealt_leaders == []
    assert len(seen_kinds) > len(hidden)                           # really resampled
    # What the viewer sees is unchanged.
    assert g.determinize(viewer, 5).observe(viewer) == g.observe(viewer)


def test_determinize_during_setup_resamples_the_pairs_of_other_players():
    g = mv.new_game(players=3, seed=8, sets=SETS, leaders=True)
    st = g.state
    viewer = (st.first_player + 1) % 3                              # chooses next
    mine = list(st.players[viewer].dealt_leaders)
    pairs = set()
    for k in range(20):
        d = g.determinize(viewer, k).state
        pd = d.pending[-1]
        assert pd.kind == "choose_leader" and pd.player == st.first_player
        assert not set(pd.data["leaders"]) & set(mine)
        pairs.add(tuple(pd.data["leaders"]))
        own_step = next(s for s in d.steps if s.kind == "leader_choose" and s.player == viewer)
        assert own_step.data["leaders"] == mine
    assert len(pairs) > 1
