"""Card types as the engine sees them: printed numbers, slots, abilities.

These are plain frozen records built by :mod:`mysticvale.cards.catalogue` from the data
files.  The engine never reads the files itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Symbols on the left side of a card (counted while the card is in the field or on deck).
SYMBOLS: tuple[str, ...] = (
    "mana", "growth", "decay", "vp", "animal", "forest", "sky", "wild", "guardian", "curse",
)
SPIRITS: tuple[str, ...] = ("animal", "forest", "sky", "wild")
SLOTS: tuple[str, ...] = ("top", "middle", "bottom")

#: When an ability acts (the word printed before its text, or the rules' name for it).
TRIGGERS: tuple[str, ...] = (
    "when_played",   # resolves as the card goes from on-deck into the field
    "harvest",       # usable once in the Harvest phase while in the field
    "ongoing",       # always on, wherever the card is
    "discard",       # resolves in the Discard phase
    "when_bought",   # resolves the moment the card is bought
    "end_game",      # only matters for final scoring
    "spoil_guard",   # may be used instead of spoiling (Peacekeeper Druid, Aether Tree)
    "buy_discount",  # a discount on an advancement sleeved on this card (Earthchant Chorus)
    "on_spoil",      # resolves when you spoil while the card is in the field
    "opponent_spoil",  # resolves when an opponent spoils (Echoing Waterfalls)
)

#: Kinds of provenance a catalogue value can have (shared/cards/README.md).
PROVENANCES: tuple[str, ...] = ("rules", "public", "provisional")


def provisional_of(provenance: dict[str, str], fields: tuple[str, ...]) -> tuple[str, ...]:
    """The fields whose value is ours: those the data marks ``provisional`` or does not
    mark at all (the catalogue files' rule: a value without provenance is provisional)."""
    return tuple(f for f in fields if provenance.get(f, "provisional") == "provisional")


@dataclass(frozen=True)
class Ability:
    """One ability: when it acts, which handler does it, with which parameters."""

    trigger: str
    effect: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)
    optional: bool = False
    text: str = ""

    def param(self, name: str, default: Any = None) -> Any:
        return self.params.get(name, default)


@dataclass(frozen=True)
class AdvancementType:
    """An advancement type (or a printed starting advancement such as Cursed Land)."""

    name: str
    set: str
    kind: str                      # "advancement", "fertile_soil", "starting"
    level: int                     # 0 for starting and Fertile Soil
    cost: int
    symbols: tuple[int, ...]       # in SYMBOLS order
    end_vp: int                    # gray VP on the right side
    neg_vp: int                    # red negative VP on the right side (a positive number)
    copies: tuple[tuple[str, ...], ...]   # the slots each printed copy occupies
    abilities: tuple[Ability, ...] = ()
    eclipse: bool = False
    longwise: bool = False
    generic: bool = False
    #: What a player reads on the printed card, in the game's own terms (empty: no text).
    text: str = ""
    provenance: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    #: Where what a player reads comes from, when something of it is ours (shown beside a
    #: small marker, never in ``text``); empty when the card is as its sources give it.
    note: str = ""
    #: The card stands in for a printed card we cannot reproduce: a generic card, or one
    #: whose ability is our invention.
    stand_in: bool = False

    def symbol(self, name: str) -> int:
        return self.symbols[SYMBOLS.index(name)]

    @property
    def legendary(self) -> bool:
        """A legendary advancement fills several slots (file 003)."""
        return any(len(slots) > 1 for slots in self.copies)

    def value_fields(self) -> tuple[str, ...]:
        """The card's values that have a provenance (shared/cards/README.md)."""
        if self.kind == "starting":
            return ("per_deck", "symbols", "slot")
        if self.kind == "leader":
            return ("slots", "symbols", "end_vp", "neg_vp") + (("ability",) if self.abilities else ()) \
                + (("coverable",) if self.eclipse else ())
        return ("level", "cost", "symbols", "copies", "end_vp", "neg_vp") \
            + (("ability",) if self.abilities else ()) + (("eclipse",) if self.eclipse else ()) \
            + (("longwise",) if self.longwise else ())

    def provisional_fields(self) -> tuple[str, ...]:
        """The values of this card that are ours (``provisional``), in ``value_fields`` order."""
        return provisional_of(self.provenance, self.value_fields())


@dataclass(frozen=True)
class ValeType:
    """A vale card type: its spirit cost, VP and ability."""

    name: str
    set: str
    level: int
    cost: tuple[int, int, int, int]  # animal, forest, sky, any
    end_vp: int
    neg_vp: int
    copies: int = 1
    abilities: tuple[Ability, ...] = ()
    generic: bool = False
    text: str = ""
    provenance: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    note: str = ""              # as AdvancementType.note
    stand_in: bool = False      # as AdvancementType.stand_in

    def value_fields(self) -> tuple[str, ...]:
        """The vale's values that have a provenance (shared/cards/README.md)."""
        return ("level", "cost", "end_vp", "neg_vp", "copies") + (("ability",) if self.abilities else ())

    def provisional_fields(self) -> tuple[str, ...]:
        """The values of this vale that are ours (``provisional``)."""
        return provisional_of(self.provenance, self.value_fields())


@dataclass(frozen=True)
class AdvCopy:
    """One printed copy of an advancement type: the type and the slots it fills."""

    index: int
    type: AdvancementType
    slots: frozenset[str]

    @property
    def label(self) -> str:
        return f"{self.type.name}@{'+'.join(s for s in SLOTS if s in self.slots)}"


@dataclass(frozen=True)
class LeaderType:
    """A leader card (file 003, Leaders): two sides, each made of one or more parts.

    Each part is an :class:`AdvancementType` of kind ``"leader"`` (in the catalogue's
    ``advancements``) so that symbols, abilities and VP of a leader work like those of
    any advancement; a leader is sleeved into a blank card by putting its parts on it.
    A part marked ``eclipse`` can be covered (Kojen and Khan's ability slots).
    """

    name: str
    title: str
    set: str
    upgrade_cost: int
    start: tuple[str, ...]       # part type names of the starting side
    upgraded: tuple[str, ...]    # part type names of the upgraded side
    slug: str = ""               # the word used in actions (``choose kojen_and_khan``)
    #: No rules text for this leader: its abilities are our invention (file 003 names it only).
    stand_in: bool = False
    text: str = ""
    provenance: dict[str, str] = field(default_factory=dict, hash=False, compare=False)
    note: str = ""               # as AdvancementType.note (also given to the leader's parts)

    @property
    def provisional(self) -> bool:
        """The older name of ``stand_in`` (catalogue files may still say ``provisional = true``)."""
        return self.stand_in
