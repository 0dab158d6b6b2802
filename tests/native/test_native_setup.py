"""Setting up: the native core's new game saves to the Python engine's text, byte for byte."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mysticvale.cards.catalogue import load_catalogue
from mysticvale.engine import native, serialize
from mysticvale.engine.rulesets import get_ruleset
from mysticvale.engine.setup import new_state

SET_LISTS = [("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
             ("base", "vale_of_magic", "twilight_garden"), ("vale_of_magic",), ("twilight_garden",)]


def _python(sets, ruleset, players, seed, deal_fields):
    return serialize.dumps(new_state(load_catalogue(sets), get_ruleset(ruleset), players, seed,
                                     deal_fields=deal_fields))


@settings(max_examples=150, deadline=None)
@given(sets=st.sampled_from(SET_LISTS), ruleset=st.sampled_from(["yucata", "english", "german"]),
       players=st.integers(min_value=2, max_value=4), seed=st.integers() | st.integers(-(2**100), 2**100),
       deal_fields=st.booleans())
def test_a_new_game_saves_as_pythons(core, sets, ruleset, players, seed, deal_fields):
    twin = native.catalogue(load_catalogue(sets))
    assert core.new_state_json(twin, ruleset, players, seed, deal_fields) == \
        _python(sets, ruleset, players, seed, deal_fields)


def test_a_users_catalogue_with_an_accent_saves_as_pythons(core, tmp_path):
    from mysticvale.cards.catalogue import builtin_path

    text = builtin_path("base").read_text(encoding="utf-8").replace('"Cursed Land"', '"Verfluchtes Land ä"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    cat = load_catalogue(("base",), path)
    mine = core.new_state_json(native.catalogue(cat), "yucata", 3, 9)
    assert mine == serialize.dumps(new_state(cat, get_ruleset("yucata"), 3, 9))
    assert "\\u00e4" in mine


def test_bad_options_are_refused_with_pythons_messages(core):
    twin = native.catalogue(load_catalogue(("base",)))
    for players in (1, 5, 300):
        with pytest.raises(ValueError) as ref:
            new_state(load_catalogue(("base",)), get_ruleset("yucata"), players, 1)
        with pytest.raises(ValueError) as mine:
            core.new_state_json(twin, "yucata", players, 1)
        assert str(mine.value) == str(ref.value)
    with pytest.raises(ValueError) as ref:
        get_ruleset("house")
    with pytest.raises(ValueError) as mine:
        core.new_state_json(twin, "house", 2, 1)
    assert str(mine.value) == str(ref.value)
