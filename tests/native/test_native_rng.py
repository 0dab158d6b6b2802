"""The native RNG draws exactly as engine/rng.py: same seed, same streams, same games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from mysticvale.engine.rng import Rng

seeds = st.integers() | st.integers(min_value=-(2**200), max_value=2**200)
names = st.sampled_from(["deck0", "deck3", "adv2", "vale1", "setup", "leaders", "determinize"]) | st.text(max_size=12)
ops = st.lists(st.tuples(names, st.sampled_from(["below", "shuffle"]),
                         st.integers(min_value=1, max_value=2**64 - 1) | st.integers(min_value=1, max_value=60)),
               max_size=25)


@settings(max_examples=300, deadline=None)
@given(seed=seeds, script=ops)
def test_any_sequence_of_draws_matches_python(core, seed, script):
    py, rs = Rng(seed), core.Rng(seed)
    for name, op, n in script:
        if op == "below":
            assert rs.below(name, n) == py.below(name, n)
        else:
            a, b = list(range(n % 61)), list(range(n % 61))
            py.shuffle(name, a)
            rs.shuffle(name, b)
            assert b == a
    assert rs.to_dict() == py.to_dict()


def test_shuffle_moves_the_objects_themselves(core):
    items = [object() for _ in range(9)]
    mine = list(items)
    core.Rng(3).shuffle("deck0", mine)
    ref = list(items)
    Rng(3).shuffle("deck0", ref)
    assert all(a is b for a, b in zip(mine, ref)) and mine != items


def test_bad_bounds_and_seeds_are_refused_with_a_message(core):
    r = core.Rng(1)
    with pytest.raises(ValueError, match=r"^below\(\) needs a positive bound$"):
        r.below("setup", 0)
    with pytest.raises(ValueError, match="2\\*\\*64 - 1"):
        r.below("setup", 2**64)
    with pytest.raises(TypeError, match="a seed is an int"):
        core.Rng("7")
    # Nothing was drawn by the refused calls.
    assert r.to_dict() == {"seed": 1, "states": {}}
