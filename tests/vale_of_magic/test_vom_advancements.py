"""Scenario tests of the Vale of Magic advancements (file 000, Advancements Expansion 1)."""

from __future__ import annotations

from exercised import exercises
from vom_helpers import events_since, play_until_turn_of, scenario
from mysticvale.engine.zones import stats


# -- Goldenwing Gryphon --------------------------------------------------------------------
@exercises("Goldenwing Gryphon")
def test_gryphon_turns_a_face_down_mana_token_face_up_when_played():
    sc = scenario()
    sc.player(0, field=["Fertile Soil"], on_deck="Goldenwing Gryphon", deck=["Blank", "Blank"], mana_token=False)
    pl = sc.state.players[0]
    # Revealed as the on-deck card it does nothing (When Played, not when revealed).
    assert pl.mana_token_active is False
    sc.act("push")
    assert pl.mana_token_active is True
    assert sc.state.turn.phase == "planting"


@exercises("Goldenwing Gryphon")
def test_gryphon_with_the_token_already_face_up_gives_nothing_more():
    sc = scenario()
    sc.player(0, field=["Fertile Soil"], on_deck="Goldenwing Gryphon", deck=["Blank"], mana_token=True)
    sc.act("push", "pass")
    assert sc.state.players[0].mana_token_active is True
    # One token: 1 extra mana at most (Fertile Soil 1 + Gryphon card 0 + token 1).
    sc.act("token")
    assert sc.game.observe(0)["turn"]["mana"] == 2
    assert "token" not in sc.legal()


@exercises("Goldenwing Gryphon")
def test_a_when_played_ability_resolves_once_per_turn():
    sc = scenario()
    ids = sc.player(0, field=["Fertile Soil"], on_deck="Goldenwing Gryphon", deck=["Blank", "Blank"],
                    mana_token=False)
    st = sc.state
    pl = st.players[0]
    sc.act("push")
    assert pl.mana_token_active
    # The same card comes back on deck in the same turn (as after a reshuffle) and is pushed
    # again: its ability was used this turn (file 000: once per turn).
    gryphon = ids["on_deck"][0]
    pl.field.remove(gryphon)
    pl.deck.append(pl.on_deck)
    pl.on_deck = gryphon
    pl.mana_token_active = False
    sc.invalidate()
    sc.act("push")
    assert pl.mana_token_active is False


# -- Canopy Explorer ------------------------------------------------------------------------
@exercises("Canopy Explorer")
def test_canopy_explorer_puts_one_card_per_guardian_into_the_field():
    sc = scenario()
    ids = sc.player(0, field=[["Canopy Explorer", "Generic Guardian Sapling"], "Fertile Soil"],
                    on_deck="Blank", deck=["Generic Mana Bloom", "Stag", "Fertile Soil"])
    st = sc.state
    card = ids["field"][0]
    assert stats(st, card).get("guardian") == 2
    sc.act("pass")
    mana = sc.game.observe(0)["turn"]["mana"]
    assert f"use #{card}.1" in sc.legal()
    sc.act(f"use #{card}.1")
    pl = st.players[0]
    # Exactly two cards, from under the on-deck card, in order, to the right of the field.
    assert pl.field[-2:] == ids["deck"][:2]
    assert pl.on_deck == ids["on_deck"][0]
    assert ids["deck"][2] in pl.deck and ids["deck"][0] not in pl.deck
    # Their mana and spirits count in this Harvest (Mana Bloom 2, Stag 2).
    assert sc.game.observe(0)["turn"]["mana"] == mana + 4
    assert sc.game.observe(0)["turn"]["spirits"]["animal"] == 1
    # Once per turn.
    assert f"use #{card}.1" not in sc.legal()


@exercises("Canopy Explorer")
def test_canopy_explorer_decay_no_longer_spoils_and_vp_symbols_score():
    sc = scenario()
    ids = sc.player(0, field=["Canopy Explorer", "Cursed Land", "Cursed Land"], on_deck="Cursed Land",
                    deck=["Generic Crystal Spring"])
    st = sc.state
    sc.act("pass")
    vp = st.players[0].vp_tokens
    sc.act(f"use #{ids['field'][0]}.1")
    # 2 Cursed Lands + on-deck Cursed Land + Crystal Spring's decay = 4: no spoil in the Harvest.
    assert st.turn.phase == "harvest" and not st.turn.spoiled
    # The card's VP symbol scores like any field card in the Harvest.
    assert st.players[0].vp_tokens == vp + 1


@exercises("Canopy Explorer")
def test_canopy_explorer_shuffles_the_discard_pile_when_the_deck_runs_out():
    sc = scenario()
    ids = sc.player(0, field=[["Canopy Explorer", "Generic Guardian Sapling"]], on_deck="Blank",
                    deck=["Stag"], discard=["Generic Mana Bloom"])
    st = sc.state
    pl = st.players[0]
    sc.act("pass", f"use #{ids['field'][0]}.1")
    assert pl.field[1] == ids["deck"][0]
    # The second card came from the shuffled discard pile (which held the rest of the cards).
    assert len(pl.field) == 3 and pl.discard == []
    assert any("shuffles" in t for t in events_since(sc, 0))


@exercises("Canopy Explorer")
def test_canopy_explorer_is_optional_and_not_used_when_finishing():
    sc = scenario()
    ids = sc.player(0, field=["Canopy Explorer"], on_deck="Blank", deck=["Stag"])
    st = sc.state
    sc.act("pass")
    assert f"use #{ids['field'][0]}.1" in sc.legal()
    n = len(st.events)
    sc.act("finish")
    assert not any("from the deck into the field" in t for t in events_since(sc, n))
    assert f"c{ids['field'][0]}.0.0" not in st.turn.used


# -- Hatchery -----------------------------------------------------------------------------------
@exercises("Hatchery")
def test_hatchery_keeps_its_card_as_the_first_card_of_the_next_field():
    sc = scenario()
    ids = sc.player(0, field=["Fertile Soil", "Hatchery", "Cursed Land"], on_deck="Blank",
                    deck=["Cursed Land", "Cursed Land", "Cursed Land", "Blank"])
    st = sc.state
    hatch = ids["field"][1]
    sc.act("pass", "finish")
    assert st.pending and st.pending[-1].kind == "keep_in_field"
    assert set(sc.legal()) == {f"keep #{hatch}", f"discard #{hatch}"}
    sc.act(f"keep #{hatch}")
    pl = st.players[0]
    # The other field cards are discarded; Hatchery's card leads the new field.
    assert pl.field[0] == hatch
    assert ids["field"][0] in pl.discard and ids["field"][2] in pl.discard
    assert hatch not in pl.discard


@exercises("Hatchery")
def test_hatchery_may_be_declined():
    sc = scenario()
    ids = sc.player(0, field=["Fertile Soil", "Hatchery"], on_deck="Blank", deck=["Cursed Land"] * 4)
    st = sc.state
    sc.act("pass", "finish", f"discard #{ids['field'][1]}")
    assert ids["field"][1] in st.players[0].discard


@exercises("Hatchery")
def test_hatchery_as_the_first_card_is_discarded_as_normal():
    sc = scenario()
    ids = sc.player(0, field=["Hatchery", "Fertile Soil"], on_deck="Blank", deck=["Cursed Land"] * 4)
    st = sc.state
    sc.act("pass", "finish")
    assert not any(p.kind == "keep_in_field" for p in st.pending)
    assert ids["field"][0] in st.players[0].discard


@exercises("Hatchery")
def test_two_hatcheries_in_the_chosen_order_and_the_second_stays_two_turns():
    sc = scenario()
    ids = sc.player(0, field=["Fertile Soil", "Hatchery", "Blank", "Hatchery"], on_deck="Blank",
                    deck=["Cursed Land"] * 3 + ["Blank"] * 3)
    st = sc.state
    a, b = ids["field"][1], ids["field"][3]
    sc.act("pass", "finish")
    # The active player orders simultaneous Discard abilities.
    assert st.pending[-1].kind == "order"
    assert set(sc.legal()) == {f"resolve #{b}.1", f"resolve #{a}.1"}
    sc.act(f"resolve #{b}.1", f"keep #{b}", f"keep #{a}")
    pl = st.players[0]
    assert pl.field[:2] == [b, a]
    # Next turn: b is first and is discarded as normal; a (second) may stay again.
    play_until_turn_of(sc, 0)
    assert pl.field[:2] == [b, a]
    sc.act("pass", "finish")
    if st.pending[-1].kind == "order":
        sc.act(f"resolve #{b}.1")    # b is first now: nothing to decide for it
    assert st.pending[-1].kind == "keep_in_field" and st.pending[-1].data["card"] == a
    sc.act(f"keep #{a}")
    assert pl.field[0] == a and st.turn.kept == []


@exercises("Hatchery")
def test_hatchery_cannot_be_used_in_the_turn_it_is_bought():
    sc = scenario()
    ids = sc.player(0, field=["Generic Mana Spring", "Generic Mana Spring", "Generic Mana Bloom", "Blank"],
                    on_deck="Blank", deck=["Cursed Land"] * 4)
    st = sc.state
    sc.put_in_commons(2, 1, "Hatchery", "top")
    sc.act("pass", "buy 2.1", "finish")
    blank = ids["field"][3]
    assert st.cat.copies[st.cards[blank][-1]].type.name == "Hatchery"
    # Sleeved this turn on a card that is not first: its Discard ability is not active yet.
    assert not any(p.kind == "keep_in_field" for p in st.pending)
    assert blank in st.players[0].discard


@exercises("Hatchery")
def test_hatchery_works_after_a_spoil():
    sc = scenario()
    ids = sc.player(0, field=["Cursed Land", "Hatchery", "Cursed Land"], on_deck="Cursed Land",
                    deck=["Cursed Land", "Blank", "Blank", "Blank"])
    st = sc.state
    sc.act("push")
    assert st.turn.spoiled
    assert st.pending[-1].kind == "keep_in_field"
    sc.act(f"keep #{ids['field'][1]}")
    assert st.players[0].field[0] == ids["field"][1]


# -- Lifetap Oracle ------------------------------------------------------------------------------
@exercises("Lifetap Oracle")
def test_lifetap_oracle_searches_once_per_guardian_privately_then_shuffles():
    sc = scenario()
    ids = sc.player(0, field=["Fertile Soil"], on_deck=["Lifetap Oracle", "Generic Guardian Sapling"],
                    deck=["Cursed Land", "Stag", "Blank"], rest="discard")
    st = sc.state
    pl = st.players[0]
    sc.act("push")
    pd = st.pending[-1]
    assert pd.kind == "search_deck_n" and pd.data["left"] == 2
    # The deck is shown to its owner only; no on-deck card was revealed yet.
    assert pl.on_deck is None
    assert {c["id"] for c in sc.game.observe(0)["pending"]["cards"]} == set(ids["deck"])
    assert "cards" not in sc.game.observe(1)["pending"]
    cursed, stag, blank = ids["deck"]
    assert f"discard #{cursed}" in sc.legal() and "skip" in sc.legal()
    sc.act(f"discard #{cursed}")
    assert st.pending[-1].kind == "search_deck_n" and st.pending[-1].data["left"] == 1
    sc.act(f"discard #{stag}")
    assert cursed in pl.discard and stag in pl.discard
    # Then the deck is shuffled and the next on-deck card revealed.
    assert pl.on_deck == blank and pl.deck == []
    assert pl.known_top == []


@exercises("Lifetap Oracle")
def test_lifetap_oracle_may_discard_nothing():
    sc = scenario()
    ids = sc.player(0, field=[], on_deck="Lifetap Oracle", deck=["Cursed Land", "Blank"])
    st = sc.state
    sc.act("push", "skip")
    pl = st.players[0]
    assert not st.pending
    assert sorted([pl.on_deck] + pl.deck) == sorted(ids["deck"])


@exercises("Lifetap Oracle")
def test_lifetap_oracle_as_the_last_card_first_shuffles_the_discard_pile():
    sc = scenario()
    ids = sc.player(0, field=["Fertile Soil"], on_deck="Lifetap Oracle", deck=[], discard=["Cursed Land"])
    st = sc.state
    pl = st.players[0]
    sc.act("push")
    assert st.pending[-1].kind == "search_deck_n"
    assert ids["discard"][0] in pl.deck and pl.discard == []
    sc.act(f"discard #{ids['discard'][0]}")
    assert ids["discard"][0] in pl.discard


# -- Ley Line Overflow ----------------------------------------------------------------------------
@exercises("Ley Line Overflow")
def test_ley_line_overflow_doubles_the_mana_left():
    sc = scenario()
    ids = sc.player(0, field=["Ley Line Overflow", "Fertile Soil", "Generic Mana Bloom"], on_deck="Blank",
                    deck=["Blank"], mana_token=True)
    sc.act("pass", "token")
    assert sc.game.observe(0)["turn"]["mana"] == 5    # 1 + 1 + 2 + token
    sc.act(f"use #{ids['field'][0]}.1")
    assert sc.game.observe(0)["turn"]["mana"] == 10


@exercises("Ley Line Overflow")
def test_two_ley_line_overflows_quadruple():
    sc = scenario()
    ids = sc.player(0, field=["Ley Line Overflow", "Ley Line Overflow"], on_deck="Blank", deck=["Blank"])
    sc.act("pass", f"use #{ids['field'][0]}.1", f"use #{ids['field'][1]}.1")
    assert sc.game.observe(0)["turn"]["mana"] == 8


@exercises("Ley Line Overflow")
def test_ley_line_overflow_must_resolve_by_the_end_of_the_harvest():
    sc = scenario()
    ids = sc.player(0, field=["Ley Line Overflow", "Fertile Soil"], on_deck="Blank", deck=["Cursed Land"] * 4)
    st = sc.state
    sc.act("pass")
    n = len(st.events)
    sc.act("finish")
    assert any("doubles the mana" in t for t in events_since(sc, n))
    assert ids["field"][0] in st.players[0].discard


# -- Sporeling Reclaimer ------------------------------------------------------------------------
@exercises("Sporeling Reclaimer")
def test_sporeling_reclaimer_counts_guardians_on_every_card_owned():
    sc = scenario()
    sc.player(0, field=["Blank"], on_deck="Blank", deck=["Sporeling Reclaimer"], discard=["Generic Ancient Warden"])
    before = sc.game.score_breakdown(0)["advancements"]
    assert before == 1 + 2     # its own guardian and the Warden's two, wherever they are
    sc.player(0, field=[["Canopy Explorer", "Generic Guardian Sapling"]], on_deck="Lifetap Oracle",
              deck=["Sporeling Reclaimer"], discard=["Generic Ancient Warden"])
    assert sc.game.score_breakdown(0)["advancements"] == 1 + 2 + 2 + 1
    sc.player(0, field=["Blank"], on_deck="Blank", deck=["Generic Ancient Warden"])
    assert sc.game.score_breakdown(0)["advancements"] == 0


@exercises("Sporeling Reclaimer")
def test_two_sporeling_reclaimers_each_count():
    sc = scenario()
    sc.player(0, field=["Sporeling Reclaimer"], on_deck="Blank", deck=["Sporeling Reclaimer"])
    assert sc.game.score_breakdown(0)["advancements"] == 2 * 2
