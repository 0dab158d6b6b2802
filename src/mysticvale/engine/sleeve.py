"""A card is a sleeve: a starting card plus the advancements sleeved on it.

A card is stored as a tuple of advancement-copy indices in the order they were sleeved
(the printed starting advancement, such as Cursed Land, first).  Everything the rules
ask about a card (its symbols after Ongoing abilities, its active abilities, where an
advancement may still be sleeved) is derived here and memoised per tuple.
"""

from __future__ import annotations

from dataclasses import dataclass

from .card_types import SYMBOLS, Ability, AdvCopy

_I = {name: i for i, name in enumerate(SYMBOLS)}
#: Symbols that Gaia's Chosen counts: every symbol on the left side except guardian / curse.
GAIA_SYMBOLS = ("mana", "growth", "decay", "vp", "animal", "forest", "sky", "wild")


@dataclass(frozen=True, slots=True)
class SleeveStats:
    """What the rules see of one card."""

    symbols: tuple[int, ...]        # effective symbols (Ongoing abilities applied), SYMBOLS order
    printed: tuple[int, ...]        # symbols of active layers, ignoring text effects
    aether_decay: int               # decay left if Aether Tree cancels all non-Cursed-Land decay
    abilities: tuple[tuple[int, Ability], ...]   # (layer position, ability), active ones only
    active_layers: tuple[int, ...]  # positions of layers not covered by a later one
    has_cursed_land: bool
    level3: int                     # active level-3 advancements on the card
    end_vp: int                     # gray VP of active layers
    neg_vp: int                     # red negative VP of active layers
    #: trigger -> ((layer, k, ability), ...): k numbers the abilities of one layer
    by_trigger: dict[str, tuple[tuple[int, int, Ability], ...]]
    net: int = 0                    # decay minus growth: what the card adds to the decay count
    aether_net: int = 0             # the same with Aether Tree cancelling (aether_decay - growth)

    def get(self, symbol: str) -> int:
        return self.symbols[_I[symbol]]


def _covers(later: AdvCopy, earlier: AdvCopy) -> bool:
    return bool(later.slots & earlier.slots)


def compute_stats(layers: tuple[int, ...], copies: list[AdvCopy]) -> SleeveStats:
    """Derive a card's stats from its layers (copy indices in sleeving order)."""
    objs = [copies[i] for i in layers]
    len(objs)
    active: list[int] = []
    abilities: list[tuple[int, Ability]] = []
    printed = [0] * len(SYMBOLS)
    cursed_decay = 0
    has_cursed = False
    level3 = end_vp = neg_vp = 0
    for pos, copy in enumerate(objs):
        later = objs[pos + 1:]
        if any(_covers(other, copy) for other in later):
            continue  # covered (only an eclipse advancement can be): no symbols, no ability
        active.append(pos)
        t = copy.type
        for k, v in enumerate(t.symbols):
            printed[k] += v
        if t.kind == "starting" and t.name == "Cursed Land":
            has_cursed = True
            cursed_decay += t.symbols[_I["decay"]]
        if t.level == 3:
            level3 += 1
        end_vp += t.end_vp
        neg_vp += t.neg_vp
        # A long-wise ability covered by a later long-wise advancement is ignored.
        longwise_covered = t.longwise and any(o.type.longwise for o in later)
        if not longwise_covered:
            abilities.extend((pos, a) for a in t.abilities)
    symbols = list(printed)
    other_decay = printed[_I["decay"]] - cursed_decay
    no_decay = False
    max_decay: int | None = None
    for _, ab in abilities:
        if ab.trigger != "ongoing":
            continue
        if ab.effect == "mana_per_guardian":
            symbols[_I["mana"]] += ab.param("per", 1) * printed[_I["guardian"]]
        elif ab.effect == "mana_per_symbol":
            symbols[_I["mana"]] += ab.param("per", 1) * printed[_I[ab.param("symbol", "mana")]]
        elif ab.effect == "no_decay":
            no_decay = True
        elif ab.effect == "max_decay":
            cap = ab.param("max", 1)
            max_decay = cap if max_decay is None else min(max_decay, cap)
    decay = printed[_I["decay"]]
    if no_decay:
        decay = 0
        aether = 0
    elif max_decay is not None:
        decay = min(decay, max_decay)
        # yucata: Seedling first cancels Cursed Land decay, so the decay it leaves is one
        # from another advancement if there is one, which Aether Tree can then cancel.
        aether = 0 if other_decay > 0 else min(max_decay, cursed_decay)
    else:
        aether = cursed_decay
    symbols[_I["decay"]] = decay
    by_trigger: dict[str, list[tuple[int, int, Ability]]] = {}
    per_layer: dict[int, int] = {}
    for layer, ab in abilities:
        k = per_layer.get(layer, 0)
        per_layer[layer] = k + 1
        by_trigger.setdefault(ab.trigger, []).append((layer, k, ab))
    return SleeveStats(
        by_trigger={t: tuple(v) for t, v in by_trigger.items()},
        symbols=tuple(symbols),
        printed=tuple(printed),
        aether_decay=min(aether, decay),
        net=decay - symbols[_I["growth"]],
        aether_net=min(aether, decay) - symbols[_I["growth"]],
        abilities=tuple(abilities),
        active_layers=tuple(active),
        has_cursed_land=has_cursed,
        level3=level3,
        end_vp=end_vp,
        neg_vp=neg_vp,
    )


def can_sleeve(layers: tuple[int, ...], new: AdvCopy, copies: list[AdvCopy]) -> bool:
    """May ``new`` be sleeved on this card without covering an advancement?

    An advancement may cover only an eclipse advancement, and an eclipse advancement
    may cover nothing (file 003).  Overlapping long-wise abilities are allowed (file
    000); that is not a slot conflict, so it needs no check here.
    """
    objs = [copies[i] for i in layers]
    if any(o.type.kind == "leader" for o in objs):
        # No advancement may be sleeved on a leader unless it says so (file 003); Kojen
        # and Khan's own ability sleeves through engine/leaders.py, not through this check.
        return False
    for pos, copy in enumerate(objs):
        if not (copy.slots & new.slots):
            continue
        covered_already = any(_covers(o, copy) for o in objs[pos + 1:])
        if covered_already:
            continue
        if new.type.eclipse:
            # An eclipse advancement may be sleeved *under* another advancement (file 003):
            # harvest.sleeve_layers slides it beneath, so it is covered and covers nothing.
            continue
        if not copy.type.eclipse:
            return False
    return True
