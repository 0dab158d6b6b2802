"""The native core's Twilight Garden effects (``native/src/effects/twilight_garden.rs``)
against ``engine/effects/twilight_garden.py``, piece by piece (``stepwise``).

At every point of seeded random games of every set list with Twilight Garden, every rule
set, 2-4 players, leaders on and off, an open decision of the module is compared on each
of its legal actions, the steps of the module that the chosen action leads to are compared
one by one (``deepwood_ask``, and each ``ability`` step whose effect is one of the
module's: its ``resolve``), and so are the Harvest's actions where a Harvest ability of the
module is in the field (its ``usable`` check decides whether it is offered).  Rare effects
are reached by giving the player the ability: an ``ability`` step for it is scheduled on a
mid-game state (with the vales, cards or tokens it needs), and the comparison goes on from
there.  Every effect, decision and step kind of the module is compared at least once.
Whole Twilight Garden games played by the twin's own ``apply_action`` (every module
together) give Python's legal actions and save after every action.
"""

from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings, strategies as st

import mysticvale as mv
from mysticvale.engine import flow, harvest, native
from mysticvale.engine.registry import DECISIONS, EFFECTS, STEPS
from mysticvale.engine.rng import Rng
from mysticvale.engine.state import Step

import stepwise

MY_STEPS = {"deepwood_ask"}
MY_DECISIONS = {"deepwood_veteran", "echoing_waterfalls", "flame_geysers", "griffin_claim", "griffin_give",
                "look_top_n", "lore_keeper", "order_top", "ranger_captain", "rockspine_zenith", "snapjaw"}
MY_EFFECTS = {"mana_below_field_count", "all_mana_tokens_active", "discard_curse_token",
              "opponents_give_vp_or_curse", "extra_vale_and_swap", "free_top_vale", "free_top_advancement",
              "free_commons_advancement", "bottom_card_into_field", "look_top_per_guardian", "look_top_n",
              "reveal_until_cursed_lands", "curse_per_curse_symbol", "vp_per_missing_card_and_extra_turn",
              "redraw_on_deck_on_opponent_spoil", "all_gain_per_vale_negative_vp"}
#: The effects with a ``usable`` check of the module.
MY_USABLE = {"all_mana_tokens_active", "discard_curse_token", "free_top_vale", "free_top_advancement",
             "free_commons_advancement", "bottom_card_into_field"}
TG_SET_LISTS = [s for s in stepwise.SET_LISTS if "twilight_garden" in s]
RULESETS = ["yucata", "english", "german"]


def test_the_kinds_compared_are_every_kind_of_the_python_module_and_of_its_twin(core):
    import re
    from pathlib import Path

    module = "mysticvale.engine.effects.twilight_garden"
    assert {k for k, fn in STEPS.items() if fn.__module__ == module} == MY_STEPS
    assert {k for k, d in DECISIONS.items() if d.apply.__module__ == module} == MY_DECISIONS
    assert {k for k, e in EFFECTS.items() if e.handler is not None and e.handler.__module__ == module} == MY_EFFECTS
    text = (Path(native.CRATE_DIR) / "src" / "effects" / "twilight_garden.rs").read_text(encoding="utf-8")

    def listed(name):
        block = text[text.index(f"pub const {name}"):]
        return set(re.findall(r'"([a-z_]+)"', block[:block.index("];")]))

    assert listed("STEPS") == MY_STEPS
    assert listed("DECISIONS") == MY_DECISIONS


def _same_decision(game: mv.Game, counts: collections.Counter) -> None:
    """The open decision of this module: the same legal actions, and the same game after
    each of them."""
    pd = game.state.pending[-1]
    t = stepwise.twin(game)
    legal = [str(a) for a in game.legal_actions()]
    assert t.legal_actions() == legal, f"legal actions of {pd.kind}"
    for a in legal:
        g2 = mv.Game.from_json(game.to_json())
        t2 = t.clone()
        stepwise.python_apply_only(g2, a)
        t2.apply_only(a)
        assert t2.to_json() == g2.to_json(), f"after {a!r} on {pd.kind}"
    counts[pd.kind] += 1


def _my_piece(g: mv.Game) -> str | None:
    """The name under which the next step is counted if it is the module's: its kind, or
    ``effect:<name>`` for an ability step of one of the module's effects."""
    s = g.state.steps[-1]
    if s.kind in MY_STEPS:
        return s.kind
    if s.kind == "ability":
        effect = flow.ability_of(g.state, s.data).effect
        if effect in MY_EFFECTS:
            return f"effect:{effect}"
    return None


def _same_steps(g: mv.Game, counts: collections.Counter, cap: int | None = None) -> None:
    """Run the scheduled steps of a Python game until the next decision, comparing the
    module's steps with the twin's (each at most ``cap`` times in ``counts``)."""
    while g.state.steps and not g.state.pending and not g.state.over:
        piece = _my_piece(g)
        if piece is not None and (cap is None or counts[piece] < cap):
            kind = g.state.steps[-1].kind
            t = stepwise.twin(g)
            stepwise.python_step(g)
            assert t.run_one_step() == kind
            assert t.to_json() == g.to_json(), f"after step {piece!r}"
            counts[piece] += 1
        else:
            stepwise.python_step(g)


def _same_harvest_actions(game: mv.Game, counts: collections.Counter, cap: int) -> None:
    """In a Harvest with one of the module's Harvest abilities in the field (or among the
    vales), the twin offers the same actions: its ``usable`` checks agree."""
    st_ = game.state
    p = st_.turn.player
    checks = {flow.ability_of(st_, data).effect for _, data, _ in harvest.harvest_abilities(st_, p)} & MY_USABLE
    todo = [e for e in checks if counts[f"usable:{e}"] < cap]
    if not todo:
        return
    assert stepwise.twin(game).legal_actions() == [str(a) for a in game.legal_actions()], "Harvest actions"
    for e in todo:
        counts[f"usable:{e}"] += 1


def _play(seed: int, counts: collections.Counter, *, players=2, sets=("base",), ruleset="yucata", leaders=False,
          finish_turn=False, limit=2000, cap: int = 3) -> None:
    """Play a seeded random game (``stepwise.random_games``' game), comparing the module's
    pieces as it goes (each at most ``cap`` times in this game); add what was compared to
    ``counts``.  The game itself applies each action and runs its steps one by one, as
    ``flow.apply`` does, so that the steps of the module are compared where they happen."""
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=leaders,
                       finish_turn=finish_turn)
    rng = Rng(seed)
    mine: collections.Counter = collections.Counter()
    for _ in range(limit):
        if game.is_over():
            break
        legal = game.legal_actions()
        action = str(legal[rng.below("random", len(legal))])
        st_ = game.state
        if st_.pending and st_.pending[-1].kind in MY_DECISIONS:
            if mine[st_.pending[-1].kind] < cap:
                _same_decision(game, mine)
        elif not st_.pending and st_.turn.phase == "harvest":
            _same_harvest_actions(game, mine, cap)
        stepwise.python_apply_only(game, action)
        _same_steps(game, mine, cap)
    counts.update(mine)


# -- whole games played by the twin ------------------------------------------------------
def _lockstep(seed: int, players: int, sets, ruleset: str, leaders: bool, finish_turn: bool) -> int:
    """Play a whole random game in both engines, the twin by its own ``apply_action`` from
    the Python game's first save: the same legal actions before, and the same save after,
    every action (every module together: flow, harvest, discard, the three effects modules,
    the leaders). Returns the number of actions."""
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=leaders,
                       finish_turn=finish_turn)
    return stepwise.whole_game(game, seed)


@pytest.mark.parametrize("seed, players, sets, ruleset, leaders, finish_turn", [
    (0, 2, ("base", "twilight_garden"), "yucata", True, False),
    (2, 4, ("vale_of_magic", "twilight_garden"), "english", True, True),
])
def test_whole_twilight_garden_games_played_natively_give_pythons_save_after_every_action(
        core, seed, players, sets, ruleset, leaders, finish_turn):
    assert _lockstep(seed, players, sets, ruleset, leaders, finish_turn) > 100


# -- seeded random games ----------------------------------------------------------------
#: (seed, players, set list index, rule set, leaders, finish_turn): each set list with
#: Twilight Garden with each rule set and each player count 2-4, leaders on and off,
#: ``finish_turn`` on and off.
GAMES = [(seed, 2 + (seed + seed // 3) % 3, seed % 3, RULESETS[seed // 3], seed % 2 == 0, seed % 4 == 1)
         for seed in range(9)]


def test_seeded_random_games_agree_on_every_twilight_garden_decision(core):
    counts: collections.Counter = collections.Counter()
    for seed, players, sets, ruleset, leaders, finish_turn in GAMES:
        _play(seed, counts, players=players, sets=TG_SET_LISTS[sets], ruleset=ruleset, leaders=leaders,
              finish_turn=finish_turn)
    # What random play reaches often; the rare ones are reached below by giving the ability.
    for kind in ("look_top_n", "order_top", "lore_keeper", "deepwood_veteran", "deepwood_ask",
                 "echoing_waterfalls", "ranger_captain", "griffin_give", "griffin_claim", "flame_geysers"):
        assert counts[kind] > 0, (kind, counts)
    for effect in ("mana_below_field_count", "all_mana_tokens_active", "discard_curse_token",
                   "opponents_give_vp_or_curse", "extra_vale_and_swap", "free_top_vale", "bottom_card_into_field",
                   "look_top_per_guardian", "look_top_n", "reveal_until_cursed_lands", "curse_per_curse_symbol",
                   "redraw_on_deck_on_opponent_spoil", "all_gain_per_vale_negative_vp"):
        assert counts[f"effect:{effect}"] > 0, (effect, counts)
    for effect in ("all_mana_tokens_active", "discard_curse_token", "free_top_vale", "bottom_card_into_field"):
        assert counts[f"usable:{effect}"] > 0, (effect, counts)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 4), sets=st.sampled_from(TG_SET_LISTS),
       ruleset=st.sampled_from(RULESETS), leaders=st.booleans(), finish_turn=st.booleans())
def test_random_games_agree_on_twilight_garden_pieces(core, seed, players, sets, ruleset, leaders, finish_turn):
    counts: collections.Counter = collections.Counter()
    _play(seed, counts, players=players, sets=sets, ruleset=ruleset, leaders=leaders, finish_turn=finish_turn,
          limit=600)


# -- giving a player an ability ---------------------------------------------------------
def _ability_data(game: mv.Game, effect: str) -> dict:
    """Step data pointing at the first ability of the catalogue with this effect: a vale
    of the game with it (``vale``), or an advancement copy (``copy``, as a bought one)."""
    st_ = game.state
    cat = st_.cat
    for v, t in enumerate(st_.vale_types):
        for k, ab in enumerate(cat.vale_list[t].abilities):
            if ab.effect == effect:
                return {"vale": v, "k": k}
    for c, copy in enumerate(cat.copies):
        for k, ab in enumerate(copy.type.abilities):
            if ab.effect == effect:
                return {"copy": c, "k": k}
    raise LookupError(effect)


def _harvest_state(seed: int, players: int, sets, turns: int = 6) -> mv.Game:
    """A Twilight Garden game in a Harvest with no decision open, after ``turns`` turns."""
    rng = Rng(seed)
    for game in stepwise.random_games(seed, players=players, sets=sets):
        st_ = game.state
        if st_.turn_number >= turns and st_.turn.phase == "harvest" and not st_.pending and not st_.steps:
            return game
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("random", len(legal))])
    raise AssertionError("no Harvest reached")


def _give_vale(game: mv.Game, p: int, level: int, *, negative: bool = False) -> None:
    """Move a vale of ``level`` from its deck to player ``p``'s vales (one with negative VP
    if asked and there is one)."""
    st_ = game.state
    deck = st_.vale_decks[level]
    pick = [v for v in deck if st_.cat.vale_list[st_.vale_types[v]].neg_vp > 0] if negative else []
    v = pick[-1] if pick else deck[-1]
    deck.remove(v)
    st_.players[p].vales.append(v)


def _give_card(game: mv.Game, p: int, effect: str) -> int:
    """A new card in player ``p``'s field: a blank sleeve with the first advancement copy
    whose type has this effect."""
    st_ = game.state
    copy = _ability_data(game, effect)["copy"]
    st_.cards.append((copy,))
    st_.owner.append(p)
    card = len(st_.cards) - 1
    st_.players[p].field.append(card)
    return card


def _resolve_then_compare(game: mv.Game, effect: str, counts: collections.Counter, *, player=None,
                          data=None, actions: int = 12) -> None:
    """Resolve ``effect`` for a player (an ``ability`` step for it, as if their card's or
    vale's ability resolved now), comparing that step, then the module's decisions and
    steps that follow, answered at random, until the next decision of another module."""
    st_ = game.state
    p = st_.turn.player if player is None else player
    st_.steps.append(Step("ability", p, {**_ability_data(game, effect), **(data or {})}))
    game._legal = None
    _same_steps(game, counts)
    rng = Rng(len(game.state.history) + len(game.state.events))
    for _ in range(actions):
        if game.state.over or not game.state.pending or game.state.pending[-1].kind not in MY_DECISIONS:
            return
        _same_decision(game, counts)
        legal = [str(a) for a in game.legal_actions()]
        stepwise.python_apply_only(game, legal[rng.below("random", len(legal))])
        _same_steps(game, counts)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("sets", TG_SET_LISTS)
def test_given_abilities_resolve_and_open_the_same_decisions(core, players, sets):
    counts: collections.Counter = collections.Counter()
    seed = players * 10 + TG_SET_LISTS.index(sets)
    base = _harvest_state(seed, players, sets).to_json()

    def again() -> mv.Game:
        return mv.Game.from_json(base)

    g = again()
    p = g.state.turn.player
    _give_vale(g, p, 2)
    _give_vale(g, p, 2)
    for q in range(players):
        if q != p:
            _give_vale(g, q, 1)
            _give_vale(g, q, 1)
    _resolve_then_compare(g, "extra_vale_and_swap", counts)

    for effect in ("free_top_vale", "free_top_advancement", "free_commons_advancement", "reveal_until_cursed_lands",
                   "look_top_n", "mana_below_field_count", "bottom_card_into_field",
                   "vp_per_missing_card_and_extra_turn"):
        _resolve_then_compare(again(), effect, counts)

    g = again()
    for q in range(players):
        g.state.players[q].mana_token_active = q % 2 == 0
    _resolve_then_compare(g, "all_mana_tokens_active", counts)

    g = again()
    p = g.state.turn.player
    g.state.players[p].curse_tokens += 2
    g.state.curse_supply_taken += 2
    _resolve_then_compare(g, "discard_curse_token", counts)

    g = again()
    card = _give_card(g, g.state.turn.player, "look_top_per_guardian")
    _resolve_then_compare(g, "look_top_per_guardian", counts, data={"card": card})

    g = again()
    card = _give_card(g, g.state.turn.player, "curse_per_curse_symbol")
    _resolve_then_compare(g, "curse_per_curse_symbol", counts, data={"card": card})

    g = again()
    for q in range(players):
        _give_vale(g, q, 1 + q % 2, negative=True)
    _resolve_then_compare(g, "all_gain_per_vale_negative_vp", counts)

    g = again()
    p = g.state.turn.player
    for i, q in enumerate(x for x in range(players) if x != p):
        # One VP token from the pool each; with 3-4 players, one opponent has none and
        # must take the curse tokens.
        g.state.players[q].vp_tokens = 1 - i % 2
        g.state.vp_pool -= 1 - i % 2
    _resolve_then_compare(g, "opponents_give_vp_or_curse", counts)

    g = again()
    q = next(x for x in range(players) if x != g.state.turn.player and g.state.players[x].on_deck is not None)
    _resolve_then_compare(g, "redraw_on_deck_on_opponent_spoil", counts, player=q,
                          data={"spoiler": g.state.turn.player})

    # Ordering the kept cards back (order_top) is compared in the random games above.
    for kind in (MY_DECISIONS | MY_STEPS) - {"order_top"}:
        assert counts[kind] > 0, (kind, counts)
    for effect in MY_EFFECTS:
        assert counts[f"effect:{effect}"] > 0, (effect, counts)


def _give_vale_with(game: mv.Game, p: int, effect: str) -> None:
    """Move a vale whose ability has this effect from its deck or row to player ``p``'s
    vales (bought on an earlier turn: its ability is usable now)."""
    st_ = game.state
    for level in (1, 2):
        for place in (st_.vale_decks[level], st_.vale_rows[level]):
            for i, v in enumerate(place):
                if v is not None and any(ab.effect == effect for ab in st_.cat.vale_list[st_.vale_types[v]].abilities):
                    if place is st_.vale_rows[level]:
                        place[i] = None
                    else:
                        del place[i]
                    st_.players[p].vales.append(v)
                    return
    raise LookupError(effect)


#: For each usable check: how to give the player the ability, and how to make the check
#: say no (nothing to turn, no curse token, an empty supply deck, nothing to take, no card).
def _no_tokens_used(st_, p):
    for pl in st_.players:
        pl.mana_token_active = True


def _no_curse(st_, p):
    st_.curse_supply_taken -= st_.players[p].curse_tokens
    st_.players[p].curse_tokens = 0


def _empty_vale_decks(st_, p):
    for level in (1, 2):       # every card must stay somewhere: out of the game
        st_.players[p].removed_vales.extend(st_.vale_decks[level])
        st_.vale_decks[level].clear()


def _empty_adv_decks(st_, p):
    for level in (1, 2, 3):
        st_.adv_decks[level].clear()


def _empty_commons(st_, p):
    for level in (1, 2, 3):
        st_.commons[level] = [None, None, None]
    for slot in st_.soil_left:
        st_.soil_left[slot] = 0


def _no_cards_left(st_, p):
    pl = st_.players[p]        # every card must stay somewhere: all in the field
    pl.field.extend(pl.deck + pl.discard)
    pl.deck.clear()
    pl.discard.clear()
    pl.known_top.clear()


USABLE_CASES = {
    "all_mana_tokens_active": _no_tokens_used,
    "discard_curse_token": _no_curse,
    "free_top_vale": _empty_vale_decks,
    "free_top_advancement": _empty_adv_decks,
    "free_commons_advancement": _empty_commons,
    "bottom_card_into_field": _no_cards_left,
}


@pytest.mark.parametrize("effect", sorted(USABLE_CASES))
def test_usable_checks_offer_an_ability_exactly_when_python_does(core, effect):
    base_game = _harvest_state(7, 3, ("base", "twilight_garden"))
    offered = []
    for say_no in (False, True):
        g = mv.Game.from_json(base_game.to_json())
        st_ = g.state
        p = st_.turn.player
        try:
            _give_card(g, p, effect)
        except (LookupError, KeyError):
            _give_vale_with(g, p, effect)
        if effect == "discard_curse_token":
            st_.players[p].curse_tokens += 1
            st_.curse_supply_taken += 1
        if effect == "all_mana_tokens_active":
            st_.players[p].mana_token_active = False
        if say_no:
            USABLE_CASES[effect](st_, p)
        g._legal = None
        legal = [str(a) for a in g.legal_actions()]
        assert stepwise.twin(g).legal_actions() == legal
        refs = {ref for ref, data, _ in harvest.harvest_abilities(st_, p)
                if flow.ability_of(st_, data).effect == effect}
        offered.append(any(f"use {r}" in legal for r in refs))
    assert offered == [True, False]
