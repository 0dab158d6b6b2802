"""Leaders in the native core (engine/leaders.py's twin, native/src/leaders.rs): its steps
and decisions, piece by piece equal to the Python engine's in seeded random games with
leaders (every rule set, 2-4 players, with and without ``finish_turn``).

Each game is played by the Python engine one piece of work at a time (``stepwise``); at
every piece of the leaders' kinds the native core loads the Python save, does the same
piece, and must write the same save (and list the same legal actions, in order, at a
decision).  Pieces of other kinds are Python's alone, so this proves the leaders' module
before the modules around it are ported.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings, strategies as hs

import mysticvale as mv
from mysticvale.engine.flow import ability_of
from mysticvale.engine.harvest import harvest_abilities
from mysticvale.engine.rng import Rng

from stepwise import python_apply_only, python_step, twin

STEPS = {"leader_choose", "leaders_ready", "leader_upgrades"}
#: The leaders' effects; each resolves in an ``ability`` step (flow's), compared here when
#: its ability is one of these.
EFFECTS = {"keep_in_field_when_pointless", "curse_leading_opponents", "place_top_cards_end_planting",
           "flip_to_starting_side", "sleeve_free_advancement_here", "win_with_field_cards",
           "take_card_from_opponent_field", "pay_to_flip_back_and_win"}
DECISIONS = {"choose_leader", "althena_keep", "kojen_and_khan", "le_que_pick", "le_que_give"}
#: The leaders' Harvest effects with a check of whether using them now would do anything
#: (Python's ``effects.base.usable``): the Harvest's legal actions offer them only then.
USABLE = {"sleeve_free_advancement_here", "win_with_field_cards", "take_card_from_opponent_field",
          "pay_to_flip_back_and_win"}
LEADER_SETS = [("base", "twilight_garden"), ("base", "vale_of_magic", "twilight_garden"),
               ("vale_of_magic", "twilight_garden")]
RULESETS = ["yucata", "english", "german"]


def _choose(legal: list[str], rng: Rng) -> str:
    """A seeded random action, leaning towards upgrades and abilities (so that leaders
    turn over and their abilities are used often)."""
    for verb in ("upgrade", "use"):
        some = [a for a in legal if a.split()[0] == verb]
        if some and rng.below("lean", 2):
            return some[rng.below("random", len(some))]
    return legal[rng.below("random", len(legal))]


def _compare_decision(game: mv.Game, legal: list[str], counts: Counter) -> None:
    """The open decision: the same legal actions, and the same save after each."""
    kind = game.state.pending[-1].kind
    t = twin(game)
    assert t.legal_actions() == legal, f"legal actions of {kind}"
    for a in legal:
        g2 = mv.Game.from_json(game.to_json())
        t2 = t.clone()
        python_apply_only(g2, a)
        t2.apply_only(a)
        assert t2.to_json() == g2.to_json(), f"after {a!r} on {kind}"
    counts[kind] += 1


def _compare_harvest(game: mv.Game, legal: list[str], counts: Counter) -> None:
    """A Harvest decision point where a leader's ability is ready: the twin offers the
    same ``use`` of it (or not), so each leader effect's usable check gives Python's answer.
    (Other abilities' checks belong to the other effects modules.)"""
    st = game.state
    mine = {f"use {ref}": ability_of(st, data).effect
            for ref, data, _ in harvest_abilities(st, st.turn.player)
            if ability_of(st, data).effect in USABLE}
    if mine:
        native = twin(game).legal_actions()
        assert [a for a in native if a in mine] == [a for a in legal if a in mine], "use of a leader's ability"
        for effect in mine.values():
            counts[f"usable: {effect}"] += 1


def play(seed: int, players: int, sets: tuple[str, ...], ruleset: str, finish_turn: bool,
         counts: Counter, limit: int = 1500, before_step=None) -> None:
    """One seeded game with leaders, compared at every piece of the leaders' kinds
    (``before_step(game, piece)`` is called before each such step is compared)."""
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=True,
                       finish_turn=finish_turn)
    rng = Rng(seed)
    for _ in range(limit):
        if game.is_over():
            return
        legal = [str(a) for a in game.legal_actions()]
        st = game.state
        if st.pending and st.pending[-1].kind in DECISIONS:
            _compare_decision(game, legal, counts)
        elif not st.pending and st.turn.phase == "harvest":
            _compare_harvest(game, legal, counts)
        python_apply_only(game, _choose(legal, rng))
        while st.steps and not st.pending and not st.over:
            s = st.steps[-1]
            piece = s.kind
            if s.kind == "ability":
                piece = ability_of(st, s.data).effect
            elif s.kind == "leader_upgrades" and st.turn.upgrades:
                piece = "leader_upgrades (turning over)"
            if s.kind in STEPS or piece in EFFECTS:
                if before_step is not None:
                    before_step(game, piece)
                t = twin(game)
                python_step(game)
                assert t.run_one_step() == s.kind
                assert t.to_json() == game.to_json(), f"after step {piece!r}"
                counts[piece] += 1
            else:
                python_step(game)


def test_every_kind_of_the_leaders_is_compared_and_equal(core):
    """Seeded games over every leader set list, rule set, player count and finish_turn."""
    counts: Counter = Counter()
    k = 0
    for players in (2, 3, 4):
        for finish_turn in (False, True):
            for ruleset in RULESETS:
                play(1000 + k, players, LEADER_SETS[k % len(LEADER_SETS)], ruleset, finish_turn, counts)
                k += 1
    kinds = STEPS | DECISIONS | EFFECTS | {"leader_upgrades (turning over)"} | {f"usable: {e}" for e in USABLE}
    missing = kinds - set(counts)
    assert not missing, f"never compared: {sorted(missing)} ({dict(counts)})"


@settings(max_examples=8, deadline=None)
@given(seed=hs.integers() | hs.integers(-(2**100), 2**100), players=hs.integers(min_value=2, max_value=4),
       sets=hs.sampled_from(LEADER_SETS), ruleset=hs.sampled_from(RULESETS), finish_turn=hs.booleans())
def test_any_seeded_game_with_leaders_is_equal_piece_by_piece(core, seed, players, sets, ruleset, finish_turn):
    counts: Counter = Counter()
    play(seed, players, sets, ruleset, finish_turn, counts)
    assert counts["choose_leader"] == players and counts["leaders_ready"] == 1


def test_le_que_with_twenty_cards_in_the_field_wins_at_once_in_both_engines(core):
    """Random games rarely reach 20 field cards: before each of Le Que's abilities that can
    win, a copy of the game has every card its player owns in the field (the state both
    engines then load), and both engines end the game the same way, Le Que's player the
    winner whatever the points (file 003)."""
    won: Counter = Counter()

    def twenty_in_the_field(game: mv.Game, piece: str) -> None:
        if piece not in ("win_with_field_cards", "pay_to_flip_back_and_win"):
            return
        g = mv.Game.from_json(game.to_json())
        p = g.state.steps[-1].player
        pl = g.state.players[p]
        pl.field += pl.deck + pl.discard + ([pl.on_deck] if pl.on_deck is not None else [])
        pl.deck, pl.discard, pl.on_deck, pl.known_top = [], [], None, []
        assert len(pl.field) >= 20
        t = twin(g)
        python_step(g)
        t.run_one_step()
        assert g.state.over and g.state.winner_override == [p]
        assert t.to_json() == g.to_json(), f"after {piece!r} with 20 field cards"
        won[piece] += 1

    for k, sets in enumerate(LEADER_SETS * 2):
        play(2000 + k, 2 + k % 3, sets, RULESETS[k % 3], k % 2 == 1, Counter(), before_step=twenty_in_the_field)
        if len(won) == 2:
            break
    assert set(won) == {"win_with_field_cards", "pay_to_flip_back_and_win"}, dict(won)


def test_hectoros_upgraded_side_in_the_planting_phase_goes_on_to_the_harvest_in_both_engines(core):
    """Random play meets Hectoro's upgraded side in the Prep phase; the same ability step
    on a copy of the game in its Planting phase places the cards and goes on to the
    Harvest (file 003), in both engines."""
    seen: Counter = Counter()

    def in_planting(game: mv.Game, piece: str) -> None:
        if piece != "place_top_cards_end_planting":
            return
        g = mv.Game.from_json(game.to_json())
        g.state.turn.phase = "planting"
        t = twin(g)
        python_step(g)
        t.run_one_step()
        assert g.state.turn.phase == "harvest" and g.state.steps[-1].kind == "harvest_start"
        assert t.to_json() == g.to_json(), "after Hectoro's upgraded side in the Planting phase"
        seen[piece] += 1

    for k in range(6):
        play(3000 + k, 2 + k % 3, LEADER_SETS[k % 3], RULESETS[k % 3], k % 2 == 1, Counter(),
             before_step=in_planting)
        if seen:
            break
    assert seen, "Hectoro's upgraded side was never played"
