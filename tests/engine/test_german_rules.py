"""The German rules (`ruleset="german"`): file 000's list of deviations names three German
rules (the early end of the Prep phase, the 3-for-1 spirit trade, the game end when the last
level-2 vale enters the commons); the trade and the vale end are tested with the other rule
sets in test_harvest.py and test_discard_and_end.py.

The early stop: file 000, "In the German rules a player has the option to prematurely stop the
Prepare Phase if he has cards with more than 2 [decay]"; file 004 ends Prep "sobald sich
insgesamt drei Verfall-Symbole in deinem Feld und auf deiner Deckkarte befinden" (decay
symbols, growth not counted), while the English rules let growth cancel decay.  So once the
field and the on-deck card show more than 2 decay symbols the player may stop (``stop``) or
go on (``push``), although growth keeps the decay showing below 3.
"""

import pytest

import mysticvale as mv
from mysticvale import codec
from mysticvale.engine.zones import decay_symbols, net_decay
from scenario import Scenario

CL = "Cursed Land"
SEED = "Generic Wild Seed"     # 1 growth


def _prep(ruleset: str) -> tuple[Scenario, dict]:
    """Player 1 passes and finishes; Prep plays the Wild Seed (growth) and two Cursed Lands,
    then a third Cursed Land is revealed: 3 decay symbols, 2 after growth."""
    sc = Scenario(ruleset=ruleset)
    ids = sc.player(0, field=["Blank"], on_deck=SEED, deck=[CL, CL, CL, "Blank", CL, "Blank", "Blank"])
    sc.act("pass", "finish")
    return sc, ids


def test_german_prep_may_stop_with_more_than_two_decay_symbols_though_growth_cancels_one():
    sc, ids = _prep("german")
    st = sc.state
    assert st.turn.phase == "prep" and st.pending[-1].kind == "prep_stop"
    assert (decay_symbols(st, 0), net_decay(st, 0)) == (3, 2)
    assert sc.legal() == ["stop", "push"]
    assert sc.game.current_player == 0
    # Other seats see what is being decided.
    other = sc.game.observe(1)["pending"]
    assert other["kind"] == "prep_stop" and "stopping the Prep phase" in other["description"]
    sc.act("stop")
    pl = st.players[0]
    seed, cl1, cl2, cl3 = ids["on_deck"] + ids["deck"][:3]
    assert pl.field == [seed, cl1, cl2] and pl.on_deck == cl3
    assert sc.game.current_player == 1 and st.turn.phase == "planting"
    assert "Player 1 stops the Prep phase with 3 decay symbols showing." in [e["text"] for e in sc.game.log(1)]


def test_german_prep_push_plays_on_and_asks_again_until_the_decay_showing_is_three():
    sc, ids = _prep("german")
    st = sc.state
    sc.act("push")                     # the Cursed Land; a Blank is revealed: still 3 symbols, 2 net
    assert st.pending[-1].kind == "prep_stop"
    sc.act("push")                     # the Blank; a Cursed Land: 4 symbols, 3 net: Prep ends
    assert not st.pending and sc.game.current_player == 1
    assert net_decay(st, 0) == 3 and decay_symbols(st, 0) == 4


@pytest.mark.parametrize("ruleset", ["yucata", "english"])
def test_without_the_german_rules_prep_goes_on_until_three_decay_after_growth(ruleset):
    sc, ids = _prep(ruleset)
    st = sc.state
    assert not st.pending and sc.game.current_player == 1
    assert net_decay(st, 0) == 3 and len(st.players[0].field) == 5
    assert not any(e.kind == "prep_stop" for e in st.events)


def test_german_prep_without_growth_ends_at_three_decay_without_asking():
    sc = Scenario(ruleset="german")
    sc.player(0, field=["Blank"], on_deck="Blank", deck=[CL, CL, CL, "Blank"])
    sc.act("pass", "finish")
    assert not sc.state.pending and sc.game.current_player == 1


def test_the_stop_action_round_trips_through_notation_and_the_codec():
    a = mv.Action.parse("stop")
    assert a == mv.Action("stop") and str(a) == "stop"
    assert codec.decode(codec.encode(a)) == a
    # Appended (older numbers unchanged), before the later "reveal" (interface option finish_turn).
    assert codec.encode("stop") == codec.encode("reveal") - 1 == codec.ACTION_SPACE_SIZE - 2


def test_a_game_saved_at_the_prep_decision_resumes():
    sc, _ = _prep("german")
    again = mv.Game.from_json(sc.game.to_json())
    assert again.state.ruleset.name == "german"
    assert [str(a) for a in again.legal_actions()] == ["stop", "push"]
    again.apply_action("stop")
    sc.act("stop")
    assert again.to_json() == sc.game.to_json()


def test_german_is_a_known_rule_set():
    assert "german" in mv.RULESETS
    with pytest.raises(ValueError, match="german"):
        mv.new_game(ruleset="swiss")
