"""Determinism, save/load, and the information-leak checks (DESIGN.md principles 2-4)."""

import random
import re
from pathlib import Path

import pytest

import mysticvale as mv
from mysticvale.engine.rng import Rng


def _play(seed, steps, disturb=False):
    game = mv.new_game(players=3, seed=seed)
    pick = Rng(99)
    for _ in range(steps):
        if game.is_over():
            break
        if disturb:
            random.seed(12345)
            random.random()
        legal = game.legal_actions()
        game.apply_action(legal[pick.below("p", len(legal))])
    return game


def test_same_seed_and_actions_give_the_same_game_even_with_global_random_disturbed():
    a = _play(5, 300)
    b = _play(5, 300, disturb=True)
    assert a.to_json() == b.to_json()
    assert _play(6, 300).to_json() != a.to_json()


def test_nothing_in_the_package_imports_random():
    src = Path(mv.__file__).parent
    for f in src.rglob("*.py"):
        text = f.read_text()
        assert not re.search(r"^\s*(import random|from random import)", text, re.M), f


def test_replaying_the_history_reproduces_the_game():
    a = _play(8, 400)
    b = mv.new_game(players=3, seed=8)
    for text in a.history:
        b.apply_action(text)
    assert b.to_json() == a.to_json()


def test_saved_game_continues_identically():
    a = _play(3, 150)
    b = mv.Game.from_json(a.to_json())
    pick = Rng(1)
    for _ in range(200):
        if a.is_over():
            break
        legal = a.legal_actions()
        k = pick.below("p", len(legal))
        assert [str(x) for x in b.legal_actions()] == [str(x) for x in legal]
        a.apply_action(legal[k])
        b.apply_action(str(legal[k]))
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("text,why", [
    ("", "not valid JSON"),
    ("{}", "format"),
    ('{"format": "mysticvale-save", "version": 999}', "version"),
])
def test_corrupt_saves_are_refused(text, why):
    with pytest.raises(mv.SaveError, match=why):
        mv.Game.from_json(text)


def test_a_save_with_a_card_in_two_places_is_refused():
    import json
    g = _play(2, 50)
    data = json.loads(g.to_json())
    data["players"][0]["discard"].append(data["players"][0]["field"][0])
    with pytest.raises(mv.SaveError, match="exactly one place"):
        mv.Game.from_json(json.dumps(data))
    data = json.loads(g.to_json())
    data["cards"][0] = ["No Such Card@top"]
    with pytest.raises(mv.SaveError, match="corrupt"):
        mv.Game.from_json(json.dumps(data))


def _reorder_hidden(game, viewer, seed):
    """The same game with every order the viewer cannot know shuffled differently."""
    other = game.clone()
    st = other.state
    r = Rng(seed)
    for p, pl in enumerate(st.players):
        k = len(pl.known_top) if p == viewer else 0
        hidden = pl.deck[: len(pl.deck) - k]
        r.shuffle("x", hidden)
        pl.deck = hidden + pl.deck[len(pl.deck) - k:]
    for lvl in st.adv_decks:
        r.shuffle("x", st.adv_decks[lvl])
    for lvl in st.vale_decks:
        r.shuffle("x", st.vale_decks[lvl])
    other._legal = None
    return other


@pytest.mark.parametrize("seed", range(4))
def test_states_differing_only_in_hidden_order_look_the_same(seed):
    game = mv.new_game(players=3, seed=seed)
    pick = Rng(seed)
    for step in range(400):
        if game.is_over():
            break
        if step % 20 == 0:
            for viewer in [None, 0, 1, 2]:
                other = _reorder_hidden(game, viewer if viewer is not None else -1, step)
                assert other.observe(viewer) == game.observe(viewer)
                if viewer is not None and game.current_player == viewer:
                    assert [str(a) for a in other.legal_actions()] == [str(a) for a in game.legal_actions()]
        legal = game.legal_actions()
        game.apply_action(legal[pick.below("p", len(legal))])


def test_observation_has_the_documented_fields_and_no_deck_order():
    game = _play(4, 60)
    obs = game.observe(0)
    for key in ("vp_pool", "commons", "vale_rows", "players", "phase", "current_player"):
        assert key in obs
    for p in obs["players"]:
        for key in ("deck_count", "discard_count", "field", "on_deck", "vp_tokens", "mana_token_active"):
            assert key in p
    me = obs["players"][0]
    assert [c["id"] for c in me["deck"]] == sorted(c["id"] for c in me["deck"])
    assert "deck" not in obs["players"][1] and "discard" not in obs["players"][1]
    assert "deck" not in game.observe(None)["players"][0]
    with pytest.raises(ValueError, match="no seat 7"):
        game.observe(7)


def test_determinize_keeps_what_the_viewer_knows_and_hides_the_rest():
    game = _play(7, 80)
    st = game.state
    d = game.determinize(0, 123)
    for p in range(3):
        assert sorted(d.state.players[p].deck) == sorted(st.players[p].deck)
        assert d.state.players[p].field == st.players[p].field
        assert d.state.players[p].on_deck == st.players[p].on_deck
    assert d.observe(0) == game.observe(0)
    assert d.state.rng.seed != st.rng.seed


def test_determinize_does_not_depend_on_the_real_hidden_order():
    game = _play(9, 120)
    for viewer in range(3):
        other = _reorder_hidden(game, viewer, 5)
        assert game.determinize(viewer, 77).to_json() == other.determinize(viewer, 77).to_json()
