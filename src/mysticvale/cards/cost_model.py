"""The written model behind every ``provisional`` cost and VP value in the catalogue.

No public source lists every printed cost, so the values we had to choose follow one
rule that anyone can check (``tests/cards/test_cost_model.py`` checks that every
provisional value in the shipped data is exactly what this model gives):

Advancements
    value = sum of symbol weights + END_VP_WEIGHT x end VP + NEG_VP_WEIGHT x negative VP
            + the card's ``ability_value`` (a judgement of what its text is worth in mana
            per play, written beside the card in the data)
    cost  = max(1, round-half-up(2 x value))

    Fertile Soil (public: 1 mana, costs 2) fixes the scale: one mana per play is worth 1
    and costs 2.  A growth weighs 0.5: it only counts when a decay shows in the field
    (it cancels one), which is about half of the plays; a decay weighs -1.5 because it
    ends turns (four net decay spoil the turn).

    Points are weighed against the vales, the other way to score: a spirit symbol
    (weight 1) becomes VALE_VP_PER_SPIRIT = 1.5 end-game VP through a vale (the vale
    formula below), so a VP symbol, which pays one VP token per play, weighs
    1 / 1.5 = 2/3.  An end-of-game VP is paid once, where a VP symbol pays about twice
    before the end, so it weighs half a VP symbol (1/3); a negative VP the same, negated.

Symbol budgets per level (the cost curve by level)
    The generic advancements (names starting "Generic", all provisional) are given
    symbols so that their value, and so their cost, steps up with the level, as
    advancement costs do in the printed game:

        level 1   value 1    to 2     cost 2 to 4
        level 2   value 2.25 to 3.5   cost 5 to 7
        level 3   value 3.75 to 5.5   cost 8 to 11

    (``LEVEL_BUDGETS``; ``tests/cards/test_cost_model.py`` checks every generic card
    against it).  Named cards keep the symbols and abilities their sources give (or
    that we chose for them before); their provisional costs follow the same price, so
    a named card whose value lies outside its level's budget costs what its value says.

    Several level-1 and level-2 generic cards carry a growth symbol.  Growth cancels
    decay, so a deck with growth can push more cards into its field before it spoils,
    harvest more mana and afford the dearer levels: that is the engine of the game.
    Without growth at level 1 (the first version of this catalogue) greedy bots'
    harvests stayed at 3 to 5 mana all game and the level-3 cards were rarely
    affordable.

    Why these numbers (measured with the arena; docs/catalogue.md has the commands and
    figures): with VP symbols at 1.5, growth at 1 and no growth at level 1, 2-player
    base games between greedy bots lasted about 28 rounds (target: 10 to 16,
    shared/cards/README.md) and the VP pool ended only 58% of them.  With these weights,
    budgets and growth on the cheap generic cards they last about 16 rounds (3 and 4
    players: about 14) and the VP pool ends 99 to 100% of them.

Vales
    end VP = round-half-up(1.5 x (specific symbols + 0.75 x "any" symbols)) + (level - 1)

    so a level-1 vale of two symbols is worth 3 VP, and each further symbol 1.5 more,
    with a level-2 vale one VP better than its symbol count alone.
"""

from __future__ import annotations

import math

#: End-game VP a spirit symbol is worth through a vale (the vale formula).
VALE_VP_PER_SPIRIT = 1.5
#: Weight of a spirit symbol (animal, forest, sky), in mana per play.
SPIRIT_WEIGHT = 1.0
#: A VP symbol against a spirit: a spirit is worth VALE_VP_PER_SPIRIT VP through a vale.
VP_WEIGHT = SPIRIT_WEIGHT / VALE_VP_PER_SPIRIT

SYMBOL_WEIGHTS: dict[str, float] = {
    "mana": 1.0,
    "growth": 0.5,
    "decay": -1.5,
    "vp": VP_WEIGHT,
    "animal": SPIRIT_WEIGHT,
    "forest": SPIRIT_WEIGHT,
    "sky": SPIRIT_WEIGHT,
    "wild": 1.5,
    "guardian": 0.25,
    "curse": -1.0,
}
END_VP_WEIGHT = VP_WEIGHT / 2
NEG_VP_WEIGHT = -END_VP_WEIGHT

#: Mana per value point (Fertile Soil's price: 1 mana per play for 2).
BASE_PRICE = 2.0

#: Value range (inclusive) of a generic advancement at each level: the symbol budget.
LEVEL_BUDGETS: dict[int, tuple[float, float]] = {1: (1.0, 2.0), 2: (2.25, 3.5), 3: (3.75, 5.5)}


def round_half_up(x: float) -> int:
    return int(math.floor(x + 0.5 + 1e-9))


def advancement_value(symbols: dict[str, int], end_vp: int, neg_vp: int, ability_value: float) -> float:
    """The model's value of an advancement, in mana per play."""
    v = sum(SYMBOL_WEIGHTS[k] * n for k, n in symbols.items())
    return v + END_VP_WEIGHT * end_vp + NEG_VP_WEIGHT * neg_vp + ability_value


def price(value: float) -> float:
    """The unrounded mana price of a value: linear, 2 mana per value point."""
    return BASE_PRICE * value


def advancement_cost(symbols: dict[str, int], end_vp: int, neg_vp: int, ability_value: float) -> int:
    """The provisional mana cost of an advancement."""
    return max(1, round_half_up(price(advancement_value(symbols, end_vp, neg_vp, ability_value))))


def vale_vp(level: int, cost: tuple[int, int, int, int]) -> int:
    """The provisional end-game VP of a vale from its spirit cost (animal, forest, sky, any)."""
    specific = cost[0] + cost[1] + cost[2]
    return round_half_up(VALE_VP_PER_SPIRIT * (specific + 0.75 * cost[3])) + (level - 1)
