"""Every provisional cost and vale VP in the shipped data is exactly the cost model's value
(mysticvale/cards/cost_model.py), for every set."""

from __future__ import annotations

import pytest

from mysticvale.cards.catalogue import builtin_set
from mysticvale.cards.cost_model import advancement_cost, vale_vp
from mysticvale.cards.report import available_sets
from mysticvale.engine.card_types import SYMBOLS


def _advs():
    for s in available_sets():
        for t in builtin_set(s).advancements:
            yield pytest.param(t, id=f"{s}:{t.name}")


def _vales():
    for s in available_sets():
        for v in builtin_set(s).vales:
            yield pytest.param(v, id=f"{s}:{v.name}")


@pytest.mark.parametrize("t", list(_advs()))
def test_provisional_advancement_cost_follows_the_model(t):
    if t.provenance.get("cost", "provisional") != "provisional":
        pytest.skip(f"{t.name}'s cost is {t.provenance['cost']}")
    symbols = {k: n for k, n in zip(SYMBOLS, t.symbols) if n}
    value = float(t.provenance["_ability_value"])
    assert t.cost == advancement_cost(symbols, t.end_vp, t.neg_vp, value), \
        f"{t.name}: cost {t.cost}, model {advancement_cost(symbols, t.end_vp, t.neg_vp, value)}"


@pytest.mark.parametrize("v", list(_vales()))
def test_provisional_vale_vp_follows_the_model(v):
    if v.provenance.get("end_vp", "provisional") != "provisional":
        pytest.skip(f"{v.name}'s VP is {v.provenance['end_vp']}")
    assert v.end_vp == vale_vp(v.level, v.cost), f"{v.name}: {v.end_vp} VP, model {vale_vp(v.level, v.cost)}"


def test_the_model_is_checked_for_vale_of_magic():
    names = {t.name for t in builtin_set("vale_of_magic").advancements}
    assert {"Canopy Explorer", "Hatchery", "Ley Line Overflow"} <= names


@pytest.mark.parametrize("t", [p for p in _advs() if p.values[0].name.startswith("Generic")])
def test_generic_advancements_keep_their_level_budget(t):
    """The cost curve by level: a generic card's value lies in its level's symbol budget
    (cost_model.LEVEL_BUDGETS), so level 1 costs 2-4, level 2 costs 5-7, level 3 costs 8-11."""
    from mysticvale.cards.cost_model import LEVEL_BUDGETS, advancement_value
    symbols = {k: n for k, n in zip(SYMBOLS, t.symbols) if n}
    value = advancement_value(symbols, t.end_vp, t.neg_vp, float(t.provenance["_ability_value"]))
    lo, hi = LEVEL_BUDGETS[t.level]
    assert lo <= value <= hi, f"{t.name}: level {t.level}, value {value:.2f}, budget {lo}-{hi}"
    low, high = {1: (2, 4), 2: (5, 7), 3: (8, 11)}[t.level]
    assert low <= t.cost <= high, f"{t.name}: level {t.level} costs {t.cost}, not {low}-{high}"


def test_some_low_level_generic_cards_carry_growth():
    """Growth is what lets a deck grow (module text): level 1 and 2 each offer it."""
    for level in (1, 2):
        assert sum(1 for t in builtin_set("base").advancements
                   if t.generic and t.level == level and t.symbols[SYMBOLS.index("growth")]) >= 2
