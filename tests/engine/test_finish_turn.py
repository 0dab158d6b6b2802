"""The interface option ``finish_turn`` (file 000, yucata: "you always have to conclude the
Prep Phase explicitly with the 'Finish Turn' button"): after the Discard phase's decisions
the active player ends the turn with ``finish`` before anything hidden is revealed, so an
undo can still take back the last sleeve.  Not a rule set: off by default."""

import pytest

import mysticvale as mv
from mysticvale.bots import SeatView, make_bot
from scenario import Scenario

CL = "Cursed Land"


def _sleeve_turn(**kw) -> tuple[Scenario, dict]:
    sc = Scenario(**kw)
    bloom = "Generic Mana Bloom"
    ids = sc.player(0, field=[bloom, bloom, bloom], on_deck=CL, deck=[CL, CL, "Blank", CL, "Blank"])
    sc.act("pass", "buy soil.middle", "finish")
    assert sc.state.pending[-1].kind == "sleeve"
    return sc, ids


def test_after_the_last_sleeve_the_player_finishes_the_turn_before_anything_is_revealed():
    sc, ids = _sleeve_turn(finish_turn=True)
    st = sc.state
    commons = {k: list(v) for k, v in st.commons.items()}
    adv_decks = {k: list(v) for k, v in st.adv_decks.items()}
    deck = list(st.players[0].deck)
    events = len(st.events)
    sc.act(f"sleeve #{ids['field'][1]}")
    # Sleeved, and waiting: nothing drawn from a supply deck, nothing revealed, field still there.
    assert st.pending[-1].kind == "finish_turn" and sc.legal() == ["finish"]
    assert sc.game.current_player == 0 and sc.game.phase == "discard"
    assert st.players[0].field == ids["field"] and st.players[0].deck == deck
    assert st.adv_decks == adv_decks and st.commons == commons
    assert not any(e.kind == "reveal" for e in st.events[events:])
    # Other seats see who is doing what.
    other = sc.game.observe(1)["pending"]
    assert other == {"kind": "finish_turn", "player": 0, "description": "finishing the turn (Finish Turn)"}
    sc.act("finish")
    assert "Player 1 finishes the turn." in [e["text"] for e in sc.game.log(1)]
    assert any(e.kind == "reveal" for e in st.events[events:])       # Prep ran after the finish
    assert sc.game.current_player == 1 and sc.game.phase == "planting"


def test_undo_by_replay_can_take_back_the_last_sleeve():
    sc, ids = _sleeve_turn(finish_turn=True)
    before = sc.game.to_json()
    sc.act(f"sleeve #{ids['field'][1]}")
    # The history up to the sleeve replays to the state before it; the other target is open.
    again = mv.Game.from_json(before)
    assert f"sleeve #{ids['field'][2]}" in [str(a) for a in again.legal_actions()]
    again.apply_action(f"sleeve #{ids['field'][2]}")
    assert again.state.pending[-1].kind == "finish_turn"


def test_without_the_option_the_discard_phase_runs_straight_into_prep():
    sc, ids = _sleeve_turn()
    sc.act(f"sleeve #{ids['field'][1]}")
    assert not sc.state.pending and sc.game.current_player == 1


def test_after_a_spoil_the_player_still_finishes_the_turn():
    sc = Scenario(finish_turn=True)
    sc.player(0, field=[CL, CL, CL], on_deck="Blank", deck=[CL, CL, CL, "Blank", "Blank"])
    sc.act("push")                                 # a Cursed Land is revealed: 4 decay, spoil
    st = sc.state
    assert st.turn.spoiled and st.pending[-1].kind == "finish_turn"
    sc.act("finish")
    assert sc.game.current_player == 1 and not st.pending


def test_prep_decisions_come_after_the_finish():
    sc = Scenario(finish_turn=True, ruleset="german")
    sc.player(0, field=["Blank"], on_deck="Generic Wild Seed", deck=[CL, CL, CL, "Blank", CL, "Blank"])
    sc.act("pass", "finish")                       # the Harvest's finish
    assert sc.state.pending[-1].kind == "finish_turn"
    sc.act("finish")                               # Finish Turn; Prep then asks its question
    assert sc.state.pending[-1].kind == "prep_stop" and sc.state.turn.phase == "prep"


def test_the_option_is_saved_cloned_and_checked():
    g = mv.new_game(players=2, seed=3, finish_turn=True)
    assert mv.Game.from_json(g.to_json()).state.finish_turn is True
    assert g.clone().state.finish_turn is True
    assert mv.new_game(players=2, seed=3).state.finish_turn is False
    with pytest.raises(ValueError, match="finish_turn must be True or False"):
        mv.new_game(finish_turn="yes")
    # A save from before the option loads with it off; a bad value is refused.
    import json
    data = json.loads(mv.new_game(players=2, seed=3).to_json())
    del data["finish_turn"]
    assert mv.Game.from_json(json.dumps(data)).state.finish_turn is False
    data["finish_turn"] = "yes"
    with pytest.raises(mv.SaveError, match="finish_turn"):
        mv.Game.from_json(json.dumps(data))


@pytest.mark.parametrize("names", [("greedy", "random"), ("random", "random")])
def test_bots_play_whole_games_with_finish_turn(names):
    g = mv.new_game(players=2, seed=8, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True,
                    finish_turn=True)
    bots = [make_bot(n, seed=i) for i, n in enumerate(names)]
    finishes = turns = 0
    steps = 0
    while not g.is_over():
        p = g.current_player
        if g.state.pending and g.state.pending[-1].kind == "finish_turn":
            finishes += 1
        g.apply_action(bots[p].act(SeatView(g, p)))
        steps += 1
        assert steps < 20000
    turns = sum(1 for e in g.state.events if e.kind == "turn")
    # Every turn but a game-winning one ends with a Finish Turn.
    assert turns - 1 <= finishes <= turns
