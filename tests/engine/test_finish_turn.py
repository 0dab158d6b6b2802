"""The interface option ``finish_turn``: yucata's turn order for tables with undo (file 000).

"Usually the Prep Phase is executed automatically. But if there are usable abilities (usually
'When Played' abilities), you explicitly have to click on the deck to reveal the next card. This
enables you to undo use of the ability. Therefore you always have to conclude the Prep Phase
explicitly with the 'Finish Turn' button."

So the turn runs Harvest, Discard, then the Prep; after a When Played ability the player used,
the next on-deck card waits for ``reveal``; after the Prep the turn ends with ``finish``.  The
game itself (what is revealed, spoiled, scored) is exactly the game without the option.  Not a
rule set: off by default."""

import json

import pytest

import mysticvale as mv
from mysticvale import codec
from mysticvale.bots import SeatView, make_bot
from mysticvale.engine.rng import Rng
from scenario import Scenario

CL = "Cursed Land"
OWL = "Mindful Owl"          # When Played: you may discard another card in your field (optional)


def _reveals(st, since: int) -> list:
    return [e for e in st.events[since:] if e.kind == "reveal"]


def _sleeve_turn(**kw) -> tuple[Scenario, dict]:
    sc = Scenario(**kw)
    bloom = "Generic Mana Bloom"
    ids = sc.player(0, field=[bloom, bloom, bloom], on_deck=CL, deck=[CL, CL, "Blank", CL, "Blank"])
    sc.act("pass", "buy soil.middle")
    events = len(sc.state.events)
    sc.act("finish")
    # The End Harvest waits for the sleeve: nothing drawn from a supply deck, nothing revealed.
    assert sc.state.pending[-1].kind == "sleeve"
    assert not [e for e in sc.state.events[events:] if e.kind in ("reveal", "refill", "shuffle")]
    return sc, ids


def test_harvest_discard_prep_then_finish_turn():
    sc, ids = _sleeve_turn(finish_turn=True)
    st = sc.state
    events = len(st.events)
    sc.act(f"sleeve #{ids['field'][1]}")
    # Discard, replenish and the whole Prep ran; the turn waits for Finish Turn.
    assert st.pending[-1].kind == "finish_turn" and sc.legal() == ["finish"]
    assert sc.game.current_player == 0 and sc.game.phase == "prep"
    assert _reveals(st, events)
    assert st.players[0].on_deck is not None and st.players[0].field != ids["field"]
    # Other seats see who is doing what.
    other = sc.game.observe(1)["pending"]
    assert other == {"kind": "finish_turn", "player": 0, "description": "finishing the turn (Finish Turn)"}
    sc.act("finish")
    assert "Player 1 finishes the turn." in [e["text"] for e in sc.game.log(1)]
    assert sc.game.current_player == 1 and sc.game.phase == "planting"


def _prep_with_owl(**kw) -> tuple[Scenario, dict]:
    """Player 1 passes and ends the Harvest; the Prep plays a blank card, then Mindful Owl."""
    sc = Scenario(**kw)
    ids = sc.player(0, field=[CL, CL], on_deck="Blank", deck=[OWL, CL, CL, CL, "Blank", "Blank"])
    sc.act("pass", "finish")
    return sc, ids


def test_prep_pauses_after_a_when_played_ability_the_player_used():
    sc, ids = _prep_with_owl(finish_turn=True)
    st = sc.state
    blank, owl = ids["on_deck"][0], ids["deck"][0]
    # The Prep played the blank card, revealed and played Mindful Owl: its ability asks.
    assert st.turn.phase == "prep" and st.pending[-1].kind == "discard_field"
    assert st.players[0].field == [blank, owl] and st.players[0].on_deck is None
    events = len(st.events)
    deck = list(st.players[0].deck)
    sc.act(f"discard #{blank}")
    # Used: the next card waits for the player's click on the deck.
    assert sc.legal() == ["reveal"] and st.pending[-1].kind == "reveal_next"
    assert sc.game.observe(1)["pending"] == {"kind": "reveal_next", "player": 0,
                                             "description": "revealing the next on-deck card"}
    assert not _reveals(st, events) and st.players[0].deck == deck and st.players[0].on_deck is None
    sc.act("reveal")
    # The Prep goes on by itself: Cursed Lands until 3 decay, then Finish Turn.
    assert _reveals(st, events)
    assert st.pending[-1].kind == "finish_turn"
    sc.act("finish")
    assert sc.game.current_player == 1


def test_skipping_an_optional_when_played_ability_also_pauses():
    """Declining is a use of the choice too: it may be taken back until the next reveal."""
    sc, ids = _prep_with_owl(finish_turn=True)
    sc.act("skip")
    assert sc.legal() == ["reveal"]


def test_the_choice_can_be_taken_back_by_replay_until_the_reveal():
    sc, ids = _prep_with_owl(finish_turn=True)
    blank = ids["on_deck"][0]
    at_choice = sc.game.to_json()
    sc.act(f"discard #{blank}")
    # The state before the answer still offers the other answers (the server's undo replays).
    again = mv.Game.from_json(at_choice)
    assert {"skip", f"discard #{blank}"} <= {str(a) for a in again.legal_actions()}
    again.apply_action("skip")
    assert [str(a) for a in again.legal_actions()] == ["reveal"]


def test_planting_pauses_too_after_a_when_played_choice():
    """yucata's Planting needs two clicks, "one click to play the on-deck card and another one to
    reveal the next one" (file 000): after a When Played choice the reveal waits as in the Prep."""
    sc = Scenario(finish_turn=True)
    ids = sc.player(0, field=[CL], on_deck=OWL, deck=["Blank", CL, CL, "Blank"])
    st = sc.state
    sc.act("push")
    assert st.pending[-1].kind == "discard_field"
    sc.act(f"discard #{ids['field'][0]}")
    assert sc.legal() == ["reveal"] and st.players[0].on_deck is None and st.turn.phase == "planting"
    sc.act("reveal")
    assert st.players[0].on_deck == ids["deck"][0] and sorted(sc.legal()) == ["pass", "push"]


def test_abilities_that_resolve_by_themselves_do_not_pause():
    """Goldenwing Gryphon turns the mana token face up without asking: no pause."""
    sc = Scenario(finish_turn=True, sets=("base", "vale_of_magic"))
    ids = sc.player(0, field=[CL], on_deck="Goldenwing Gryphon", deck=["Blank", CL, CL, "Blank"])
    sc.act("push")
    assert sc.state.players[0].on_deck == ids["deck"][0] and sorted(sc.legal()) == ["pass", "push"]


def test_without_the_option_the_turn_runs_through():
    sc, ids = _sleeve_turn()
    sc.act(f"sleeve #{ids['field'][1]}")
    assert not sc.state.pending and sc.game.current_player == 1
    sc, ids = _prep_with_owl()
    sc.act(f"discard #{ids['on_deck'][0]}")
    assert sc.game.current_player == 1 and not sc.state.pending


def test_after_a_spoil_the_player_still_finishes_the_turn_after_the_prep():
    sc = Scenario(finish_turn=True)
    sc.player(0, field=[CL, CL, CL], on_deck="Blank", deck=[CL, CL, CL, "Blank", "Blank"])
    events = len(sc.state.events)
    sc.act("push")                                 # a Cursed Land is revealed: 4 decay, spoil
    st = sc.state
    assert st.turn.spoiled and st.pending[-1].kind == "finish_turn" and st.turn.phase == "prep"
    assert any(e.kind == "spoil" for e in st.events[events:])
    sc.act("finish")
    assert sc.game.current_player == 1 and not st.pending


def test_the_german_prep_stop_comes_before_finish_turn():
    sc = Scenario(finish_turn=True, ruleset="german")
    sc.player(0, field=["Blank"], on_deck="Generic Wild Seed", deck=[CL, CL, CL, "Blank", CL, "Blank"])
    sc.act("pass", "finish")                       # the Harvest's finish; Prep asks its question
    assert sc.state.pending[-1].kind == "prep_stop" and sc.state.turn.phase == "prep"
    sc.act("stop")
    assert sc.state.pending[-1].kind == "finish_turn"   # the stop can still be taken back
    sc.act("finish")
    assert sc.game.current_player == 1


def test_the_reveal_action_round_trips_through_notation_and_the_codec():
    a = mv.Action.parse("reveal")
    assert str(a) == "reveal" and codec.decode(codec.encode(a)) == a
    assert codec.encode("reveal") == codec.ACTION_SPACE_SIZE - 1     # appended: older numbers unchanged


def test_a_game_saved_at_the_pause_resumes():
    sc, _ = _prep_with_owl(finish_turn=True)
    sc.act("skip")
    again = mv.Game.from_json(sc.game.to_json())
    assert [str(a) for a in again.legal_actions()] == ["reveal"]
    again.apply_action("reveal")
    sc.act("reveal")
    assert again.to_json() == sc.game.to_json()


def test_the_option_is_saved_cloned_and_checked():
    g = mv.new_game(players=2, seed=3, finish_turn=True)
    assert mv.Game.from_json(g.to_json()).state.finish_turn is True
    assert g.clone().state.finish_turn is True
    assert mv.new_game(players=2, seed=3).state.finish_turn is False
    with pytest.raises(ValueError, match="finish_turn must be True or False"):
        mv.new_game(finish_turn="yes")
    # A save from before the option loads with it off; a bad value is refused.
    data = json.loads(mv.new_game(players=2, seed=3).to_json())
    del data["finish_turn"]
    assert mv.Game.from_json(json.dumps(data)).state.finish_turn is False
    data["finish_turn"] = "yes"
    with pytest.raises(mv.SaveError, match="finish_turn"):
        mv.Game.from_json(json.dumps(data))


def _the_game(d: dict) -> dict:
    """A save without what the option adds: the option, its actions and their log lines."""
    d = dict(d)
    for k in ("finish_turn", "history", "events"):
        d.pop(k, None)
    return d


@pytest.mark.parametrize("seed,players,kw", [
    (5, 2, {"sets": ("base",)}),
    (6, 3, {"sets": ("base", "vale_of_magic")}),
    (7, 2, {"sets": ("base", "vale_of_magic", "twilight_garden"), "leaders": True}),
    (8, 2, {"sets": ("base", "twilight_garden"), "ruleset": "german"}),
])
def test_the_option_changes_no_rule(seed, players, kw):
    """A whole random game with the option, replayed without its ``reveal`` and Finish Turn
    actions, is the same game step for step: same cards revealed, same spoils, same Prep."""
    g = mv.new_game(players=players, seed=seed, finish_turn=True, **kw)
    plain = mv.new_game(players=players, seed=seed, **kw)
    rng = Rng(seed)
    added = {"reveal_next": 0, "finish_turn": 0}
    while not g.is_over():
        kind = g.state.pending[-1].kind if g.state.pending else None
        legal = g.legal_actions()
        a = legal[rng.below("pick", len(legal))]
        g.apply_action(a)
        if kind in added:
            added[kind] += 1
            continue
        plain.apply_action(a)
        if not (g.state.pending and g.state.pending[-1].kind in added):
            # Where the option does not hold the game, both have done the same so far.
            kinds = [e.kind for e in g.state.events if e.kind != "finish_turn"]
            assert kinds == [e.kind for e in plain.state.events]
            assert g.observe(None)["players"] == plain.observe(None)["players"]
    assert plain.is_over() and g.scores() == plain.scores()
    assert _the_game(json.loads(g.to_json())) == _the_game(json.loads(plain.to_json()))
    assert added["finish_turn"] > 0


@pytest.mark.parametrize("names", [("greedy", "random"), ("random", "random")])
def test_bots_play_whole_games_with_finish_turn(names):
    g = mv.new_game(players=2, seed=8, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True,
                    finish_turn=True)
    bots = [make_bot(n, seed=i) for i, n in enumerate(names)]
    finishes = 0
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
