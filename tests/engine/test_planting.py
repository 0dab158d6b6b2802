"""Planting phase and spoiling (file 000, 1) Planting Phase, Spoiling, Decay)."""

from scenario import Scenario

from mysticvale.engine.zones import net_decay

CL = "Cursed Land"


def spoiled(sc, p=0):
    return any(e.kind == "spoil" and e.player == p for e in sc.state.events)


def test_push_moves_on_deck_into_field_and_reveals_next():
    sc = Scenario()
    ids = sc.player(0, field=[CL], on_deck="Blank", deck=["Fertile Soil", CL])
    sc.act("push")
    pl = sc.state.players[0]
    assert pl.field == ids["field"] + ids["on_deck"]
    assert pl.on_deck == ids["deck"][0]
    assert sc.game.current_player == 0 and sc.game.phase == "planting"


def test_spoil_at_four_decay_counting_the_on_deck_card():
    sc = Scenario()
    sc.player(0, field=[CL, CL], on_deck=CL, deck=[CL, "Blank"])
    sc.act("push")  # field 3 CL + on-deck CL = 4 decay
    st = sc.state
    assert spoiled(sc)
    # Spoiling skips the Harvest: the turn passed to the next player.
    assert sc.game.current_player == 1
    assert st.players[0].mana_token_active


def test_three_decay_does_not_spoil():
    sc = Scenario()
    sc.player(0, field=[CL], on_deck=CL, deck=[CL, "Blank"])
    sc.act("push")
    assert not spoiled(sc)
    assert sc.game.current_player == 0


def test_each_growth_cancels_one_decay():
    sc = Scenario()
    # Generic Grove shows a growth: 4 decay - 1 growth = 3, no spoil.
    sc.player(0, field=[CL, CL, "Generic Grove"], on_deck=CL, deck=[CL, CL])
    sc.act("push")
    assert not spoiled(sc)
    sc.act("push")  # now 5 decay - 1 growth = 4
    assert spoiled(sc)


def test_spoil_with_active_token_keeps_it_active_and_gives_nothing_else():
    sc = Scenario()
    sc.player(0, field=[CL, CL], on_deck=CL, deck=[CL], mana_token=True)
    vp = sc.state.players[0].vp_tokens
    sc.act("push")
    assert sc.state.players[0].mana_token_active
    assert sc.state.players[0].vp_tokens == vp


def test_all_cards_in_field_must_pass():
    sc = Scenario()
    sc.player(0, field=["Blank"] * 19, on_deck="Blank", deck=[], discard=[])
    sc.act("push")
    assert sc.state.players[0].on_deck is None
    assert sc.legal() == ["pass"]


def test_after_a_turn_with_every_card_in_the_field_prep_reveals_from_the_shuffled_discard():
    """All cards in the field leave no on-deck card; in Prep the discard pile is shuffled
    into a deck to reveal one (file 000), and the next turn can push again.  (Before this
    was handled, such a player passed with an empty field forever.)"""
    sc = Scenario()
    sc.player(0, field=[CL] * 3 + ["Blank"] * 16, on_deck="Blank", deck=[], discard=[])
    sc.act("push")
    pl = sc.state.players[0]
    assert pl.on_deck is None and sc.legal() == ["pass"]
    sc.act("pass")
    sc.act("finish")   # Discard phase: the field goes to the discard pile, then Prep
    assert sc.state.current == 1
    assert pl.on_deck is not None, "Prep revealed a new on-deck card"
    assert pl.field, "and played cards into the field"
    assert net_decay(sc.state, 0) >= 3 or not pl.deck
    assert len(pl.deck) + len(pl.discard) + len(pl.field) + 1 == 20
    assert any(e.kind == "shuffle" and e.player == 0 for e in sc.state.events)


def test_empty_deck_is_refilled_by_shuffling_the_discard_pile():
    sc = Scenario()
    ids = sc.player(0, field=[], on_deck="Blank", deck=[], discard=["Blank", "Fertile Soil"])
    sc.act("push")
    pl = sc.state.players[0]
    assert pl.on_deck is not None and pl.on_deck != ids["on_deck"][0]
    assert len(pl.deck) + 1 == len(ids["discard"]) + len(ids["rest"])
    assert pl.discard == []


def test_pass_goes_to_harvest_and_finish_ends_the_turn():
    sc = Scenario()
    sc.player(0, field=[CL], on_deck=CL, deck=[CL, CL, CL, "Blank"])
    sc.act("pass")
    assert sc.game.phase == "harvest"
    assert "finish" in sc.legal()
    sc.act("finish")
    assert sc.game.current_player == 1


def test_when_played_resolves_before_the_next_reveal():
    sc = Scenario()
    # Mindful Owl: discard another field card; the next on-deck card is not revealed yet.
    ids = sc.player(0, field=[CL], on_deck="Mindful Owl", deck=["Blank", "Blank"])
    sc.act("push")
    st = sc.state
    assert st.pending and st.pending[-1].kind == "discard_field"
    assert st.players[0].on_deck is None  # not yet revealed
    sc.act(f"discard #{ids['field'][0]}")
    assert st.players[0].on_deck == ids["deck"][0]
    assert ids["field"][0] in st.players[0].discard


def test_illegal_action_leaves_the_game_unchanged():
    import pytest
    import mysticvale as mv
    sc = Scenario()
    sc.player(0, field=[CL], on_deck=CL, deck=[CL])
    before = sc.game.to_json()
    with pytest.raises(mv.IllegalActionError, match="not legal now"):
        sc.act("finish")
    with pytest.raises(mv.InvalidActionError, match="unknown verb"):
        sc.act("jump")
    assert sc.game.to_json() == before
