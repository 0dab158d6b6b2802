"""Bots make only legal moves, answer every pending decision, and see no hidden state."""

from __future__ import annotations

import math
import random as _pyrandom

import pytest

import mysticvale as mv
from mysticvale.bots import SeatView, bot_names, make_bot
from mysticvale.bots.greedy import Greedy, can_pay, rounds_left
from mysticvale.bots.ismcts import ISMCTS, calibrated_scale
from mysticvale.engine.registry import DECISIONS

from .conftest import play, sets_available

#: Pending decisions of the base game, each with a rule of its own in the greedy bot.
BASE_KINDS = ("order", "spoil_guard", "look_top", "discard_field", "search_deck", "sleeve", "prep_stop")


def test_registry_lists_the_bots():
    assert {"random", "greedy", "ismcts"} <= set(bot_names())
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nobody")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_plays_whole_games_legally(players):
    kinds = set()
    for seed in range(3):
        g = mv.new_game(players=players, seed=seed)
        rec: list = []
        play(g, [make_bot("greedy", seed=seed * 10 + p) for p in range(players)], record=rec)
        assert g.is_over() and g.winners()
        kinds |= {k for k, _ in rec}
    # Real decisions came up: push/pass, buys and sleeving at least.
    assert {"planting", "harvest", "sleeve"} <= kinds


def test_greedy_plays_the_english_rules():
    g = mv.new_game(players=2, seed=5, ruleset="english")
    rec: list = []
    play(g, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)], record=rec)
    assert g.is_over()
    assert not any(a == "trade" for _, a in rec)     # no spirit trade in the English rules


def test_bots_play_the_german_rules_and_answer_the_prep_decision():
    """German rules: the early end of Prep is a decision every bot answers legally."""
    for names in (("greedy", "greedy"), ("random", "greedy"), ("ismcts", "greedy")):
        g = mv.new_game(players=2, seed=3, ruleset="german")
        opts = [{"iterations": 8, "think": 0} if n == "ismcts" else {} for n in names]
        bots = [make_bot(n, seed=i + 1, **o) for i, (n, o) in enumerate(zip(names, opts))]
        rec: list = []
        play(g, bots, record=rec, max_steps=4000 if "ismcts" in names else 20000)
        assert g.is_over()
        answers = {a for k, a in rec if k == "prep_stop"}
        assert answers and answers <= {"stop", "push"}, names


@pytest.mark.parametrize("deck,answer", [
    (["Blank"] * 6, "push"),                              # nothing can spoil: play on
    ([["Cursed Land", "Stag"]] * 6, "stop"),              # every next card spoils: stop
])
def test_greedy_stops_prep_by_the_spoil_odds(deck, answer):
    from scenario import Scenario
    sc = Scenario(ruleset="german")
    cl = "Cursed Land"
    # Prep after this turn: Wild Seed (growth) and two Cursed Lands are played, a third is
    # revealed: 3 decay symbols, 2 after growth -> the German rules' decision.
    sc.player(0, field=["Blank"], on_deck="Generic Wild Seed", deck=[cl, cl, cl] + deck, rest="discard")
    sc.act("pass", "finish")
    assert sc.state.pending[-1].kind == "prep_stop"
    assert str(Greedy(seed=0).act(SeatView(sc.game, 0))) == answer


def test_greedy_against_random_wins_and_is_deterministic():
    def run(seed):
        g = mv.new_game(players=2, seed=seed)
        play(g, [make_bot("greedy", seed=1), make_bot("random", seed=2)])
        return g.history, g.winners()

    h1, w1 = run(11)
    h2, w2 = run(11)
    assert h1 == h2 and w1 == w2
    wins = sum(run(s)[1] == [0] for s in range(4))
    assert wins >= 3   # far stronger than random (the arena measures it properly)


def test_greedy_has_a_rule_for_every_base_decision():
    for kind in BASE_KINDS:
        assert kind in DECISIONS, f"the engine no longer has the decision {kind!r}"
        assert hasattr(Greedy, f"_decide_{kind}"), kind


def test_every_decision_kind_seen_gets_a_legal_answer():
    """Random games reach many decisions; the greedy bot answers each one from the same
    position (including kinds it has no rule for, through its lookahead)."""
    seen = set()
    bot = Greedy(seed=3)
    for seed in range(6):
        g = mv.new_game(players=2, seed=seed)
        r = [make_bot("random", seed=seed), make_bot("random", seed=seed + 100)]
        while not g.is_over():
            p = g.current_player
            obs = g.observe(p)
            if obs["pending"] is not None:
                seen.add(obs["pending"]["kind"])
                assert bot.act(SeatView(g, p)) in g.legal_actions()
            g.apply_action(r[p].act(SeatView(g, p)))
    assert "sleeve" in seen


def test_unknown_decisions_use_the_lookahead_not_a_random_pick(monkeypatch):
    """A decision kind without a rule is answered by trying each answer on determinized
    copies: the choice is the best-scoring one, and the same for the same seed."""
    g = mv.new_game(players=2, seed=4)
    bots = [Greedy(seed=1), Greedy(seed=2)]
    # Play until some seat has a pending decision with a real choice.
    while True:
        p = g.current_player
        obs = g.observe(p)
        if obs["pending"] is not None and len(g.legal_actions()) > 1:
            break
        g.apply_action(bots[p].act(SeatView(g, p)))
    kind = obs["pending"]["kind"]
    monkeypatch.delattr(Greedy, f"_decide_{kind}", raising=False)
    calls = []
    real = Greedy.lookahead

    def spy(self, view, obs, legal):
        a = real(self, view, obs, legal)
        calls.append(a)
        return a

    monkeypatch.setattr(Greedy, "lookahead", spy)
    a1 = Greedy(seed=9).act(SeatView(g, p))
    a2 = Greedy(seed=9).act(SeatView(g, p))
    assert calls and a1 == a2 and a1 in g.legal_actions()


@pytest.mark.skipif(not sets_available("base", "vale_of_magic"), reason="Vale of Magic not playable yet")
def test_bots_play_vale_of_magic_games():
    for seed in range(2):
        g = mv.new_game(players=2, seed=seed, sets=("base", "vale_of_magic"))
        play(g, [make_bot("greedy", seed=seed), make_bot("random", seed=seed + 1)])
        assert g.is_over()


@pytest.mark.skipif(not sets_available("base", "twilight_garden"), reason="Twilight Garden not playable yet")
def test_bots_play_twilight_garden_games():
    g = mv.new_game(players=2, seed=3, sets=("base", "twilight_garden"))
    play(g, [make_bot("greedy", seed=1), make_bot("greedy", seed=2)])
    assert g.is_over()


def test_ismcts_plays_a_whole_game_legally():
    # (Reproducibility for a seed is checked through the arena, test_arena.py.)
    g = mv.new_game(players=2, seed=8)
    play(g, [make_bot("ismcts", seed=5, think=0, iterations=2), make_bot("greedy", seed=6)])
    assert g.is_over()


def test_ismcts_search_statistics_and_budget():
    g = mv.new_game(players=2, seed=2)
    bot = ISMCTS(seed=1, think=0, iterations=40)
    greedy = Greedy(seed=0)
    while True:          # reach the first Harvest with a choice
        p = g.current_player
        if g.phase == "harvest" and len(g.legal_actions()) > 2 and p == 0:
            break
        g.apply_action(greedy.act(SeatView(g, p)))
    a = bot.act(SeatView(g, 0))
    assert a in g.legal_actions()
    assert bot.last["iterations"] == 40
    root = bot.last["root"]
    assert sum(v for v, _ in root.values()) == 40
    assert root[str(a)][0] == max(v for v, _ in root.values())   # the most visited move
    with pytest.raises(ValueError, match="budget"):
        ISMCTS(think=0, iterations=None)
    with pytest.raises(ValueError):
        ISMCTS(think=-1)


def test_ismcts_value_scale_is_calibrated_to_the_vp_pool_unless_fixed():
    # The fitted scale (benchmarks/fit_value_scale.py): a lead counts for little while the
    # pool is full and for more as it drains.
    assert calibrated_scale(23) == pytest.approx(3.0 + 0.6 * 23)
    assert calibrated_scale(0) == pytest.approx(3.0)
    assert calibrated_scale(-2) == pytest.approx(3.0)     # the reserve: no smaller than at 0
    g = mv.new_game(players=2, seed=4)
    auto = ISMCTS(seed=1, think=0, iterations=1, value="greedy")
    fixed = ISMCTS(seed=1, think=0, iterations=1, scale=3, value="greedy")
    assert auto.scale is None and fixed.scale == 3.0
    for bot in (auto, fixed):     # seat 0 is 5 VP ahead in position value
        bot.evaluator.position_value = lambda obs, seat, relative=True: 5.0 if seat == 0 else 0.0
    scores = {}
    for pool in (23, 1):
        g.state.vp_pool = pool
        scores[pool] = auto._score(g)
        assert sum(scores[pool]) == pytest.approx(1.0)
        assert fixed._score(g)[0] == pytest.approx(1 / (1 + math.exp(-5 / 3)))
    assert scores[23][0] == pytest.approx(1 / (1 + math.exp(-5 / calibrated_scale(23))))
    assert 0.5 < scores[23][0] < scores[1][0]      # the same lead is worth more near the end
    for bad in ("big", 0, -1.5):
        with pytest.raises(ValueError, match="scale"):
            ISMCTS(think=0, iterations=1, scale=bad)


def _reorder_hidden(game: mv.Game, seat: int, rnd: _pyrandom.Random) -> mv.Game:
    """A copy of ``game`` whose hidden information is dealt differently: decks below known
    tops, supply decks, and which cards other players discarded unseen (Calm Weather,
    Cleansing Rain): what ``seat`` sees and knows must not change."""
    g = mv.Game.from_json(game.to_json())
    st = g.state
    for p, pl in enumerate(st.players):
        k = len(pl.known_top) if p == seat else 0
        hidden = pl.deck[: len(pl.deck) - k]
        if p != seat and not any(pd.player == p and pd.private for pd in st.pending):
            slots = [i for i, c in enumerate(pl.discard) if c in pl.taken_unseen]
            pool = hidden + [pl.discard[i] for i in slots]
            rnd.shuffle(pool)
            for i in slots:
                pl.discard[i] = pool.pop()
            pl.taken_unseen = [pl.discard[i] for i in slots]
            hidden = pool
        rnd.shuffle(hidden)
        pl.deck = hidden + pl.deck[len(pl.deck) - k:]
        if p != seat:
            pl.known_top = []
    for deck in list(st.adv_decks.values()) + list(st.vale_decks.values()):
        rnd.shuffle(deck)
    return g


def _decisions_with_hidden_order_changed(seed: int, rnd_seed: int, limit: int):
    """Play a greedy-vs-greedy game; at each of the first ``limit`` real decisions yield
    (seat, the game, a copy with every order that seat cannot know reshuffled).  The two
    games look the same from that seat at every step."""
    rnd = _pyrandom.Random(rnd_seed)
    g = mv.new_game(players=2, seed=seed)
    drivers = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    checked = 0
    while not g.is_over() and checked < limit:
        p = g.current_player
        other = _reorder_hidden(g, p, rnd)
        assert other.observe(p) == g.observe(p)
        if len(g.legal_actions()) > 1:
            yield p, g, other
            checked += 1
        g.apply_action(drivers[p].act(SeatView(g, p)))


@pytest.mark.parametrize("name", ["greedy", "random"])
def test_bots_do_not_see_hidden_order(name):
    checked = 0
    for p, g, other in _decisions_with_hidden_order_changed(seed=21, rnd_seed=5, limit=120):
        a = make_bot(name, seed=7).act(SeatView(g, p))
        b = make_bot(name, seed=7).act(SeatView(other, p))
        assert a == b
        checked += 1
    assert checked >= 50


def test_greedy_push_pass_follows_spoil_odds():
    """With 3 decay showing every card with a decay spoils; the bot compares the odds."""
    bot = Greedy(seed=0)
    g = mv.new_game(players=2, seed=1)
    # Find a planting decision of seat 0 and check the bot's choice is push or pass.
    p = g.current_player
    a = bot.act(SeatView(g, p))
    assert a.verb in ("push", "pass")
    # A seat with nothing that can spoil it always pushes.
    me = g.observe(p)["players"][p]
    if all(c["decay"] - c["growth"] <= 0 for c in me["deck"]) and me["decay"] < 4:
        assert a.verb == "push"


def test_helpers():
    assert can_pay((1, 1, 0, 0), (1, 1, 0, 0))
    assert not can_pay((1, 0, 0, 0), (0, 1, 0, 0))
    assert can_pay((1, 0, 0, 1), (0, 1, 0, 1))
    assert not can_pay((1, 0, 0, 1), (0, 1, 0, 2))
    g = mv.new_game(players=2, seed=1)
    assert 0.5 <= rounds_left(g.observe(0)) <= 25
    assert rounds_left(dict(g.observe(0), end_triggered="vp_pool")) == 0.5


def test_ismcts_does_not_see_hidden_order():
    # With an iteration budget the search is reproducible, and since determinize() samples
    # only from what the seat knows, reordering hidden cards cannot change its choice.
    checked = 0
    for p, g, other in _decisions_with_hidden_order_changed(seed=22, rnd_seed=6, limit=12):
        a = make_bot("ismcts", seed=7, think=0, iterations=12).act(SeatView(g, p))
        b = make_bot("ismcts", seed=7, think=0, iterations=12).act(SeatView(other, p))
        assert a == b
        checked += 1
    assert checked == 12


def test_bots_do_not_see_which_card_an_opponent_discarded_unseen():
    # Seed 17: the opponent discards a card unseen (Calm Weather / Cleansing Rain) early.
    rnd = _pyrandom.Random(3)
    g = mv.new_game(players=2, seed=17)
    drivers = [make_bot("greedy", seed=1), make_bot("greedy", seed=2)]
    checked = moved = 0
    while not g.is_over() and checked < 8:
        p = g.current_player
        pl = g.state.players[1 - p]
        if len(g.legal_actions()) > 1 and any(c in pl.discard for c in pl.taken_unseen):
            other = _reorder_hidden(g, p, rnd)
            moved += other.state.players[1 - p].discard != pl.discard
            assert other.observe(p) == g.observe(p)
            for name, opts in (("greedy", {}), ("ismcts", {"think": 0, "iterations": 12})):
                a = make_bot(name, seed=7, **opts).act(SeatView(g, p))
                b = make_bot(name, seed=7, **opts).act(SeatView(other, p))
                assert a == b
            checked += 1
        g.apply_action(drivers[p].act(SeatView(g, p)))
    assert checked == 8 and moved


def test_greedy_weighs_an_opponents_cards_in_its_position():
    # The opponent's cards are public (its owned list): a better deck is a stronger rival.
    g = mv.new_game(players=2, seed=4)
    bot = Greedy(seed=0)
    before = bot.position_value(g.observe(0), 0)
    st = g.state
    card = next(c for c in st.players[1].deck if st.cards[c] == ())
    st.cards[card] = (st.cat.copy_id("Fertile Soil", "top"),)     # one more mana for player 2
    g._legal = None
    after = bot.position_value(g.observe(0), 0)
    assert after < before
    assert bot.position_value(g.observe(0), 0, relative=False) == pytest.approx(
        bot.position_value(mv.new_game(players=2, seed=4).observe(0), 0, relative=False))
