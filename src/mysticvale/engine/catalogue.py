"""The cards of one game, indexed for the engine (built by ``mysticvale.cards``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .card_types import SLOTS, AdvancementType, AdvCopy, LeaderType, ValeType
from .sleeve import SleeveStats, can_sleeve, compute_stats


#: Most entries one memo of a catalogue keeps.  Games between bots meet few distinct cards,
#: but a search (ISMCTS rollouts) keeps sleeving advancements onto sampled cards and would
#: grow the memos without end; a full memo is emptied and refills with what is in use.
CACHE_LIMIT = 50_000
FITS_LIMIT = 10_000         # rows of the fits memo, each up to one entry per advancement copy


def remember(cache: dict, key, value, limit: int = CACHE_LIMIT):
    """Store ``value`` in a bounded memo and return it."""
    if len(cache) >= limit:
        cache.clear()
    cache[key] = value
    return value


@dataclass
class Catalogue:
    """Advancement copies and vales of the chosen sets, plus memoised card stats.

    ``copies`` lists every printed advancement copy that can exist in a game: the starting
    advancements, every Fertile Soil slot, and each copy of each advancement type of the
    chosen sets.  Cards refer to copies by index.
    """

    sets: tuple[str, ...]
    advancements: dict[str, AdvancementType]
    vales: dict[str, ValeType]
    #: (name, cards per deck) of each kind of starting card; a name that is an
    #: advancement type is printed on the card, any other name (Blank) is a bare card.
    starting: list[tuple[str, int]] = field(default_factory=list)
    source: str = "builtin"
    raw: dict | None = None          # the catalogue file's data when it is not built in
    copies: list[AdvCopy] = field(default_factory=list)
    copy_index: dict[str, int] = field(default_factory=dict)
    vale_list: list[ValeType] = field(default_factory=list)
    vale_index: dict[str, int] = field(default_factory=dict)
    _stats: dict[tuple[int, ...], SleeveStats] = field(default_factory=dict, repr=False)
    _fits: dict[tuple[int, ...], dict[int, bool]] = field(default_factory=dict, repr=False)
    #: layers -> the card's readable name (its active advancements, or "Blank")
    names: dict[tuple[int, ...], str] = field(default_factory=dict, repr=False)
    #: Read-only observation views of immutable things (cards by layers, copies, vales).
    views: dict[tuple, dict] = field(default_factory=dict, repr=False)
    #: Sorted ids of one player's cards -> their views (engine/observation.py checks the
    #: make-ups before reusing an entry).
    owned_views: dict[tuple[int, ...], Any] = field(default_factory=dict, repr=False)
    #: Leaders (file 003), by name; their parts are in ``advancements`` (kind "leader").
    leaders: dict[str, LeaderType] = field(default_factory=dict)
    #: part type name -> (leader name, "start" or "upgraded")
    leader_of: dict[str, tuple[str, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for t in self.advancements.values():
            for slots in t.copies:
                copy = AdvCopy(len(self.copies), t, frozenset(slots))
                if copy.label in self.copy_index:
                    continue  # two copies in the same slot are the same thing to the rules
                self.copy_index[copy.label] = copy.index
                self.copies.append(copy)
        for ld in self.leaders.values():
            for side, parts in (("start", ld.start), ("upgraded", ld.upgraded)):
                for part in parts:
                    self.leader_of[part] = (ld.name, side)
        for v in self.vales.values():
            self.vale_index[v.name] = len(self.vale_list)
            self.vale_list.append(v)

    # -- lookups -------------------------------------------------------------------
    def copy_id(self, name: str, slot: str) -> int:
        return self.copy_index[f"{name}@{slot}"]

    def label(self, copy: int) -> str:
        return self.copies[copy].label

    def from_label(self, label: str) -> int:
        try:
            return self.copy_index[label]
        except KeyError:
            raise ValueError(f"no advancement copy {label!r} in this catalogue") from None

    def stats(self, layers: tuple[int, ...]) -> SleeveStats:
        """A card's stats, memoised (cards are immutable tuples)."""
        s = self._stats.get(layers)
        if s is None:
            s = remember(self._stats, layers, compute_stats(layers, self.copies))
        return s

    def fits(self, layers: tuple[int, ...], copy: int) -> bool:
        """May advancement ``copy`` be sleeved on a card with these layers?  Memoised."""
        row = self._fits.get(layers)
        if row is None:
            row = remember(self._fits, layers, {}, FITS_LIMIT)
        r = row.get(copy)
        if r is None:
            r = row[copy] = can_sleeve(layers, self.copies[copy], self.copies)
        return r

    @cached_property
    def fertile_soil(self) -> AdvancementType:
        """The Fertile Soil advancement type (always in the commons, file 000)."""
        return next(t for t in self.advancements.values() if t.kind == "fertile_soil")

    @cached_property
    def leader_copies(self) -> frozenset[int]:
        """The copies that are parts of a leader card (file 003): a card with one of them
        in its layers is a leader card."""
        return frozenset(c.index for c in self.copies if c.type.kind == "leader")

    @cached_property
    def soil_copies(self) -> dict[str, int]:
        """slot -> the Fertile Soil copy for that slot."""
        return {slot: self.copy_id(self.fertile_soil.name, slot) for slot in SLOTS}

    def supply_copies(self, level: int) -> list[int]:
        """Every copy of every level-``level`` advancement type (the supply deck)."""
        out = []
        for t in self.advancements.values():
            if t.kind == "advancement" and t.level == level:
                for slots in t.copies:
                    out.append(self.copy_index[f"{t.name}@{'+'.join(s for s in SLOTS if s in slots)}"])
        return out

    def supply_vales(self, level: int) -> list[int]:
        out = []
        for v in self.vale_list:
            if v.level == level:
                out.extend([self.vale_index[v.name]] * v.copies)
        return out
