"""A card's stats and where an advancement fits: the native core derives them as sleeve.py."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mysticvale.cards.catalogue import load_catalogue
from mysticvale.engine import native
from mysticvale.engine.sleeve import compute_stats, can_sleeve

ALL = ("base", "vale_of_magic", "twilight_garden")


def _python_stats(cat, layers):
    s = compute_stats(tuple(layers), cat.copies)
    return {
        "symbols": list(s.symbols), "printed": list(s.printed), "aether_decay": s.aether_decay,
        "abilities": [(layer, ab.trigger, ab.effect) for layer, ab in s.abilities],
        "active_layers": list(s.active_layers), "has_cursed_land": s.has_cursed_land, "level3": s.level3,
        "end_vp": s.end_vp, "neg_vp": s.neg_vp, "net": s.net, "aether_net": s.aether_net,
        "by_trigger": {t: [(layer, k, ab.effect) for layer, k, ab in rows] for t, rows in s.by_trigger.items()},
    }


def _interesting_copies(cat):
    """Copies whose types have abilities, symbols that Ongoing effects read, eclipse or long-wise."""
    return [c.index for c in cat.copies if c.type.abilities or c.type.eclipse or c.type.longwise
            or c.type.kind in ("starting", "leader")]


@pytest.fixture(scope="module")
def cat():
    return load_catalogue(ALL)


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_any_layers_give_the_same_stats_and_fits(core, cat, data):
    twin = native.catalogue(cat)
    pool = st.integers(min_value=0, max_value=len(cat.copies) - 1) | st.sampled_from(_interesting_copies(cat))
    layers = data.draw(st.lists(pool, max_size=6))
    assert twin.stats(layers) == _python_stats(cat, layers)
    new = data.draw(pool)
    assert twin.fits(layers, new) == can_sleeve(tuple(layers), cat.copies[new], cat.copies)


def test_every_card_of_played_games_has_the_same_stats(core):
    import mysticvale as mv
    from mysticvale.engine.rng import Rng

    checked = 0
    for sets, leaders in ((("base",), False), (ALL, True), (("base", "vale_of_magic"), False)):
        game = mv.new_game(players=3, seed=11, sets=sets, leaders=leaders)
        rng = Rng(3)
        while not game.is_over():
            legal = game.legal_actions()
            game.apply_action(legal[rng.below("random", len(legal))])
        cat = game.state.cat
        twin = native.catalogue(cat)
        for layers in set(game.state.cards):
            assert twin.stats(list(layers)) == _python_stats(cat, layers), [cat.label(c) for c in layers]
            checked += 1
    assert checked > 60


def test_a_copy_outside_the_catalogue_is_refused(core, cat):
    twin = native.catalogue(cat)
    with pytest.raises(ValueError, match="no advancement copy 9999 in this catalogue"):
        twin.stats([0, 9999])
    with pytest.raises(ValueError, match="no advancement copy 9999"):
        twin.fits([0], 9999)
