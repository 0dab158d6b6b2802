"""The written model behind every ``provisional`` cost and VP value in the catalogue.

No public source lists every printed cost, so the values we had to choose follow one
rule that anyone can check (``tests/cards/test_cost_model.py`` checks that every
provisional value in the shipped data is exactly what this model gives):

Advancements
    value = sum of symbol weights + the card's ``ability_value`` (a judgement of what its
    text is worth in mana per play, written beside the card in the data)
    cost  = max(1, round-half-up(2 x value))

    Fertile Soil (public: 1 mana, costs 2) fixes the scale: one mana per play is worth 1
    and costs 2.  A VP symbol pays a token every harvest, so it is worth more than a mana;
    decay costs more than a growth gives because it ends turns.

Vales
    end VP = round-half-up(1.5 x (specific symbols + 0.75 x "any" symbols)) + (level - 1)

    so a level-1 vale of two symbols is worth 3 VP, and each further symbol 1.5 more,
    with a level-2 vale one VP better than its symbol count alone.
"""

from __future__ import annotations

import math

SYMBOL_WEIGHTS: dict[str, float] = {
    "mana": 1.0,
    "growth": 1.0,
    "decay": -1.5,
    "vp": 1.5,
    "animal": 1.0,
    "forest": 1.0,
    "sky": 1.0,
    "wild": 1.5,
    "guardian": 0.25,
    "curse": -1.0,
}
END_VP_WEIGHT = 0.75
NEG_VP_WEIGHT = -0.75


def round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5 + 1e-9))


def advancement_value(symbols: dict[str, int], end_vp: int, neg_vp: int, ability_value: float) -> float:
    """The model's value of an advancement, in mana per play."""
    v = sum(SYMBOL_WEIGHTS[k] * n for k, n in symbols.items())
    return v + END_VP_WEIGHT * end_vp + NEG_VP_WEIGHT * neg_vp + ability_value


def advancement_cost(symbols: dict[str, int], end_vp: int, neg_vp: int, ability_value: float) -> int:
    """The provisional mana cost of an advancement."""
    return max(1, round_half_up(2 * advancement_value(symbols, end_vp, neg_vp, ability_value)))


def vale_vp(level: int, cost: tuple[int, int, int, int]) -> int:
    """The provisional end-game VP of a vale from its spirit cost (animal, forest, sky, any)."""
    specific = cost[0] + cost[1] + cost[2]
    return round_half_up(1.5 * (specific + 0.75 * cost[3])) + (level - 1)
