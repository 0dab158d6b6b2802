"""Discard phase, Prep phase, game end and scoring (file 000)."""

import pytest

from mysticvale.engine.zones import net_decay
from scenario import Scenario

CL = "Cursed Land"


def test_sleeving_offers_only_cards_where_it_fits_and_discards_the_field():
    sc = Scenario()
    bloom = "Generic Mana Bloom"
    ids = sc.player(0, field=[[CL, bloom], "Blank", [bloom, bloom], "Blank"],
                    on_deck=CL, deck=[CL, CL, CL, "Blank", "Blank"])
    sc.act("pass", "buy soil.middle", "finish")
    pd = sc.state.pending[-1]
    assert pd.kind == "sleeve"
    # Cards 0 and 2 have their middle slot taken.
    assert sc.legal() == [f"sleeve #{ids['field'][1]}", f"sleeve #{ids['field'][3]}"]


def test_a_single_legal_place_is_sleeved_without_asking():
    sc = Scenario()
    bloom = "Generic Mana Bloom"
    ids = sc.player(0, field=[[CL, bloom], [bloom, bloom], "Blank"], on_deck=CL, deck=[CL, CL, CL, "Blank"])
    sc.act("pass", "buy soil.middle", "finish")
    assert "Fertile Soil@middle" in [sc.state.cat.label(c) for c in sc.state.cards[ids["field"][2]]]
    assert sc.game.current_player == 1


def test_single_legal_place_is_sleeved_automatically_and_field_discarded():
    sc = Scenario()
    ids = sc.player(0, field=[[CL, "Generic Mana Bloom"], "Generic Mana Bloom", "Generic Mana Bloom"],
                    on_deck=CL, deck=[CL, CL, CL, "Blank", "Blank"])
    sc.act("pass", "buy soil.bottom", "finish")
    st = sc.state
    # Three cards have the bottom slot free: a choice.
    assert st.pending[-1].kind == "sleeve"
    sc.act(f"sleeve #{ids['field'][1]}")
    assert "Fertile Soil@bottom" in [st.cat.label(c) for c in st.cards[ids["field"][1]]]
    pl = st.players[0]
    assert set(ids["field"]) <= set(pl.discard)
    # The on-deck card is not discarded: it became part of the next field during Prep.
    assert ids["on_deck"][0] in pl.field


def test_cannot_cover_an_advancement_but_longwise_may_cover_longwise():
    sc = Scenario()
    st = sc.state
    cat = st.cat
    # Gaia's Chosen and Peacekeeper Druid are long-wise: in different slots both fit.
    gaia_top = cat.copy_id("Gaia's Chosen", "top")
    peace_mid = cat.copy_id("Peacekeeper Druid", "middle")
    assert cat.fits((gaia_top,), peace_mid)
    stats = cat.stats((gaia_top, peace_mid))
    # The newer long-wise ability covers the older one: Gaia's Chosen's text is ignored.
    effects = [ab.effect for _, ab in stats.abilities]
    assert "discard_on_deck_instead" in effects and "vp_per_printed_symbol" not in effects
    # An advancement never covers another (Cursed Land is printed at the top).
    cl = cat.copy_id("Cursed Land", "top")
    assert not cat.fits((cl,), cat.copy_id("Fertile Soil", "top"))


def test_replenish_falls_back_to_the_next_level():
    sc = Scenario()
    st = sc.state
    sc.player(0, field=["Generic Mana Bloom"] * 5, on_deck=CL, deck=[CL, CL, CL, CL])
    st.adv_decks[1] = []
    l2 = len(st.adv_decks[2])
    cheap = next(i for i, c in enumerate(st.commons[1]) if st.cat.copies[c].type.cost <= 10)
    sc.act("pass", f"buy 1.{cheap + 1}", "finish")
    while st.pending:
        sc.act(sc.legal()[0])
    assert st.commons[1][cheap] is not None
    assert st.cat.copies[st.commons[1][cheap]].type.level == 2
    assert len(st.adv_decks[2]) == l2 - 1


def test_prep_reveals_until_three_decay():
    sc = Scenario()
    sc.player(0, field=["Blank"], on_deck="Blank", deck=["Blank", CL, "Blank", CL, CL, "Blank", CL])
    sc.act("pass", "finish")
    st = sc.state
    assert net_decay(st, 0) == 3
    assert len(st.players[0].field) == 5   # Blank, CL, Blank, CL + on-deck CL
    assert st.players[0].deck and len(st.players[0].deck) == 2


def test_game_ends_after_the_round_in_which_the_pool_runs_out():
    sc = Scenario(players=3, current=0)
    st = sc.state
    st.vp_pool = 1
    sc.player(0, field=["Generic Blue Crystal", "Generic Blue Crystal"], on_deck=CL,
              deck=[CL, CL, CL], rest="deck")
    sc.act("pass")
    assert st.vp_pool == 0 and st.players[0].vp_tokens == 2
    assert st.vp_reserve_taken == 1      # the second VP came from the reserve
    assert st.end_triggered == "vp_pool"
    sc.act("finish")
    # Players 2 and 3 still play their turns of this round.
    for p in (1, 2):
        assert sc.game.current_player == p and not sc.game.is_over()
        sc.act("pass", "finish")
    assert sc.game.is_over()
    assert sc.game.current_player is None
    assert sc.game.legal_actions() == []


def test_round_finishes_relative_to_the_starting_player():
    sc = Scenario(players=3, current=1)   # seat 1 starts, so seat 0 plays last
    st = sc.state
    st.vp_pool = 1
    sc.player(1, field=["Generic Blue Crystal"], on_deck=CL, deck=[CL, CL, CL], rest="deck")
    sc.act("pass", "finish")
    assert sc.game.current_player == 2
    sc.act("pass", "finish")
    assert sc.game.current_player == 0 and not sc.game.is_over()
    sc.act("pass", "finish")
    assert sc.game.is_over()


@pytest.mark.parametrize("ruleset,ends", [("yucata", True), ("english", False), ("german", True)])
def test_last_level2_vale_into_the_commons_ends_the_game_on_yucata(ruleset, ends):
    sc = Scenario(ruleset=ruleset)
    st = sc.state
    sc.player(0, field=["Blank"], on_deck=CL, deck=[CL, CL, CL], rest="deck")
    st.vale_decks[2] = st.vale_decks[2][:1]
    st.vale_rows[2][0] = None    # as if bought this turn
    sc.act("pass", "finish")
    assert st.vale_decks[2] == []
    assert (st.end_triggered == "last_level2_vale") is ends


def test_scoring_tokens_end_vp_and_tiebreak():
    sc = Scenario()
    st = sc.state
    sc.player(0, field=["Generic Monument"], deck=["Gaia's Chosen"], on_deck=CL, rest="deck")
    sc.player(1, field=["Blank"], on_deck=CL, deck=[CL], rest="deck")
    st.players[0].vp_tokens = 5
    b = sc.game.score_breakdown(0)
    # Monument 6 end VP; Gaia's Chosen 2 + 0 symbols on a blank card.
    assert b["advancements"] == 8 and b["vp_tokens"] == 5 and b["total"] == 13
    assert b["tiebreak"] == 2  # two level-3 advancements


def test_tie_broken_by_level3_and_level2_vales_then_shared():
    sc = Scenario()
    st = sc.state
    sc.player(0, field=["Generic Mana Spring"], on_deck=CL, deck=[CL], rest="deck")   # level 3
    sc.player(1, field=["Blank"], on_deck=CL, deck=[CL], rest="deck")
    st.players[0].vp_tokens = 3
    st.players[1].vp_tokens = 3
    st.over = True
    assert sc.game.winners() == [0]
    st.cards[st.players[0].field[0]] = ()
    assert sc.game.winners() == [0, 1]
