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
