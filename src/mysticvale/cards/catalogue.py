"""Loading and validating card catalogues (the TOML files in ``cards/data``).

A catalogue file describes one set.  The built-in files are ``data/<set>.toml``; a user
who owns the printed cards can pass their own file in the same format to replace a set's
data (``new_game(..., catalogue=FILE)``, ``mysticvale cards --check FILE``).  A file is
checked whole: every problem is reported with the card's name (and the line, for TOML
syntax errors), and a file with any problem is refused; nothing is half-loaded.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field as _field, replace
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from ..engine import effects as _effects  # noqa: F401  (registers the vocabulary)
from ..engine.registry import EFFECTS
from ..engine.card_types import (
    PROVENANCES, SLOTS, SYMBOLS, TRIGGERS, Ability, AdvancementType, LeaderType, ValeType,
)
from ..engine.catalogue import Catalogue
from ..errors import CatalogueError
from .problems import Problem, Where, quoted

#: Sets shipped with the package, in the order they are listed.
KNOWN_SETS: tuple[str, ...] = ("base", "vale_of_magic", "twilight_garden")
_ADV_FIELDS = {
    "name", "kind", "level", "cost", "symbols", "end_vp", "neg_vp", "copies", "abilities",
    "eclipse", "longwise", "generic", "text", "note", "stand_in", "source", "provenance",
    "ability_value",
}
_VALE_FIELDS = {
    "name", "level", "cost", "end_vp", "neg_vp", "copies", "abilities", "generic", "text", "note",
    "stand_in", "source", "provenance",
}
_START_FIELDS = {"name", "per_deck", "slot", "symbols", "text", "note", "source", "provenance"}
_VALUE_FIELDS_ADV = ("level", "cost", "symbols", "end_vp", "neg_vp", "copies", "ability",
                     "eclipse", "longwise", "slot", "per_deck")
_VALUE_FIELDS_VALE = ("level", "cost", "end_vp", "neg_vp", "copies", "ability")
_LEADER_FIELDS = {"name", "title", "upgrade_cost", "start", "upgraded", "text", "note", "stand_in",
                  "source", "provenance", "provisional"}
_PART_FIELDS = {"slots", "symbols", "end_vp", "neg_vp", "abilities", "coverable", "text", "note",
                "provenance"}

#: Words that say where a value comes from.  A card's ``text`` is what a player reads on
#: the printed card, so such words belong in its ``note`` and the loader refuses them in
#: a ``text`` (docs/catalogue.md).
PROVENANCE_WORDS = re.compile(
    r"\b(provisional|file \d+|rules? documents?|rulebook|our (?:choice|reading|invention|own|text)"
    r"|(?:this|the) ability is ours|not a printed|stand-?ins?|gives no text|no text|named in"
    r"|text ignored|cost model|public source|catalogue)\b", re.IGNORECASE)
#: Words of a remark about a rule set ("yucata rules: or on your on-deck card"): a printed
#: card has one text whichever rules a table plays by, so how a rule set reads a card goes
#: into its ``note`` (and the rule set's flags and docs/rules-decisions.md), never its text.
RULE_SET_WORDS = re.compile(
    r"\b(yucata|board game arena|bga|(?:english|german|official|original|house) (?:rules?|version|edition)"
    r"|rule ?sets?|variants?|deviations?|amend(?:ed|ments?)|errata)\b", re.IGNORECASE)
#: The note of a generic card that does not give its own.
GENERIC_NOTE = "Not a printed card: a generic card that fills the set to its printed number of card types."
_VALUE_FIELDS_LEADER = ("upgrade_cost", "title")
_VALUE_FIELDS_PART = ("slots", "symbols", "end_vp", "neg_vp", "ability", "coverable")


@dataclass(frozen=True)
class StartingCard:
    """A kind of starting card: how many per deck and its printed advancement (if any)."""

    name: str
    per_deck: int
    slot: str | None
    symbols: tuple[int, ...]
    provenance: dict[str, str]
    text: str = ""
    note: str = ""


@dataclass
class SetData:
    """One set's validated data."""

    id: str
    title: str
    counts: dict[str, dict[str, int]]
    starting: list[StartingCard]
    advancements: list[AdvancementType]
    vales: list[ValeType]
    raw: dict
    source: str
    #: Leaders (file 003) and the advancement-like parts their sides are made of.
    leaders: list[LeaderType] = _field(default_factory=list)
    leader_parts: list[AdvancementType] = _field(default_factory=list)


def builtin_path(set_id: str) -> Path:
    return Path(str(resources.files("mysticvale.cards") / "data" / f"{set_id}.toml"))


class _Checker:
    def __init__(self, source: str) -> None:
        self.source = source
        self.found: list[Problem] = []

    @property
    def problems(self) -> list[str]:
        return [p.text() for p in self.found]

    def err(self, where: Where, code: str, **args: Any) -> None:
        self.found.append(Problem(where, code, args))

    def error(self) -> CatalogueError:
        return CatalogueError(self.problems, self.source, self.found)

    def int_field(self, where: Where, card: dict, key: str, default: int | None = None,
                  lo: int = 0, hi: int = 1000) -> int:
        if key not in card:
            if default is None:
                self.err(where, "missing_field", key=key)
                return 0
            return default
        v = card[key]
        if isinstance(v, bool) or not isinstance(v, int):
            self.err(where, "not_whole_number", key=key, value=repr(v))
            return 0
        if not lo <= v <= hi:
            self.err(where, "out_of_range", key=key, value=str(v), lo=lo, hi=hi)
        return v

    def bool_field(self, where: Where, card: dict, key: str) -> bool:
        v = card.get(key, False)
        if not isinstance(v, bool):
            self.err(where, "not_bool", key=key, value=repr(v))
            return False
        return v

    def str_field(self, where: Where, card: dict, key: str, required: bool = False) -> str:
        v = card.get(key)
        if v is None:
            if required:
                self.err(where, "missing_field", key=key)
            return ""
        if not isinstance(v, str):
            self.err(where, "not_text", key=key, value=repr(v))
            return ""
        return v

    def text_field(self, where: Where, card: dict, key: str = "text") -> str:
        """A card text: what a player reads, so no word about where a value comes from."""
        v = self.str_field(where, card, key)
        m = PROVENANCE_WORDS.search(v)
        if m:
            self.err(where, "text_names_source", key=key, words=repr(m.group(0)))
        m = RULE_SET_WORDS.search(v)
        if m:
            self.err(where, "text_names_rule_set", key=key, words=repr(m.group(0)))
        return v

    def stand_in(self, where: Where, card: dict, generic: bool, abilities: tuple[Ability, ...],
                 prov: dict[str, str], old_key: str | None = None) -> bool:
        """``stand_in``: as the file says; otherwise true for a generic card and for one whose
        ability is provisional (its printed text is unknown, the ability is ours)."""
        keys = [k for k in ("stand_in", old_key) if k and k in card]
        values = [self.bool_field(where, card, k) for k in keys]
        if len(set(values)) > 1:
            self.err(where, "stand_in_disagrees", key=old_key)
        if values:
            if generic and not values[0]:
                self.err(where, "generic_stand_in")
            return values[0] or generic
        return generic or (bool(abilities) and prov.get("ability", "provisional") == "provisional")

    def symbols(self, where: Where, card: dict) -> tuple[int, ...]:
        raw = card.get("symbols", {})
        if not isinstance(raw, dict):
            self.err(where, "symbols_not_table", value=repr(raw))
            return (0,) * len(SYMBOLS)
        for k in raw:
            if k not in SYMBOLS:
                self.err(where, "unknown_symbol", value=repr(k), known=", ".join(SYMBOLS))
        return tuple(self.int_field(where, raw, s, default=0, hi=20) for s in SYMBOLS)

    def unknown_fields(self, where: Where, card: dict, allowed: set[str]) -> None:
        for k in card:
            if k not in allowed:
                self.err(where, "unknown_field", key=k)

    def provenance(self, where: Where, card: dict, fields: Iterable[str]) -> dict[str, str]:
        raw = card.get("provenance", {})
        if not isinstance(raw, dict):
            self.err(where, "provenance_not_table")
            return {}
        out = {}
        allowed = set(fields) | {"name"}
        if "symbols" in allowed:
            # One symbol's own provenance ("symbols.guardian" = "rules"), when it differs
            # from the rest of the card's symbols (a worked example forces that one only).
            allowed |= {f"symbols.{k}" for k in SYMBOLS}
        for k, v in raw.items():
            if k not in allowed:
                self.err(where, "provenance_unknown_field", key=k)
            elif v not in PROVENANCES:
                self.err(where, "provenance_bad", key=k, known=", ".join(PROVENANCES), value=repr(v))
            else:
                out[k] = v
        return out

    def abilities(self, where: Where, card: dict) -> tuple[Ability, ...]:
        raw = card.get("abilities", [])
        if not isinstance(raw, list):
            self.err(where, "abilities_not_list")
            return ()
        out = []
        for i, a in enumerate(raw):
            w = where.with_ability(i + 1)
            if not isinstance(a, dict):
                self.err(w, "ability_not_table")
                continue
            trig = a.get("trigger")
            eff = a.get("effect")
            if trig not in TRIGGERS:
                self.err(w, "unknown_trigger", value=repr(trig), known=", ".join(TRIGGERS))
                continue
            spec = EFFECTS.get(eff)
            if spec is None:
                self.err(w, "unknown_effect", value=repr(eff))
                continue
            if trig not in spec.triggers:
                self.err(w, "effect_trigger", effect=repr(eff), value=repr(trig), known=", ".join(spec.triggers))
            params = {k: v for k, v in a.items() if k not in ("trigger", "effect", "optional", "text")}
            for k, v in params.items():
                if k not in spec.params:
                    self.err(w, "effect_parameter", effect=repr(eff), value=repr(k), known=", ".join(spec.params) or "none")
                elif not isinstance(v, spec.params[k]) or isinstance(v, bool) and spec.params[k] is not bool:
                    self.err(w, "parameter_type", key=repr(k), value=repr(v))
                elif k == "symbol" and v not in SYMBOLS:
                    self.err(w, "parameter_symbol", known=", ".join(SYMBOLS), value=repr(v))
            optional = a.get("optional", False)
            if not isinstance(optional, bool):
                self.err(w, "optional_not_bool")
                optional = False
            out.append(Ability(trig, eff, params, optional, self.text_field(w, a)))
        return tuple(out)


def parse_set(text: str, source: str) -> SetData:
    """Parse and validate one catalogue file's text; raise CatalogueError listing every problem."""
    chk = _Checker(source)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CatalogueError([f"not valid TOML: {exc}"], source) from None
    set_where = Where("set", "[set]")
    meta = raw.get("set")
    set_id = ""
    title = ""
    counts: dict[str, dict[str, int]] = {}
    if not isinstance(meta, dict):
        chk.err(set_where, "no_set_table")
    else:
        set_id = chk.str_field(set_where, meta, "id", required=True)
        title = chk.str_field(set_where, meta, "title")
        if set_id and set_id not in KNOWN_SETS:
            chk.err(set_where, "unknown_set", value=repr(set_id), known=", ".join(KNOWN_SETS))
        for key in ("advancements", "vales"):
            c = meta.get(key, {})
            if isinstance(c, dict):
                counts[key] = {k: v for k, v in c.items() if isinstance(v, int)}
    for key in raw:
        if key not in ("set", "starting", "advancement", "vale", "leader"):
            chk.err(Where("section", str(key)), "unknown_section")

    starting: list[StartingCard] = []
    for i, card in enumerate(raw.get("starting", [])):
        name = card.get("name") if isinstance(card, dict) else None
        where = Where("starting", quoted(name, i + 1, hash_sign=False))
        if not isinstance(card, dict):
            chk.err(where, "not_table")
            continue
        chk.unknown_fields(where, card, _START_FIELDS)
        chk.str_field(where, card, "name", required=True)
        slot = card.get("slot")
        if slot is not None and slot not in SLOTS:
            chk.err(where, "slot_bad", known=", ".join(SLOTS), value=repr(slot))
        starting.append(StartingCard(
            name=str(name), per_deck=chk.int_field(where, card, "per_deck", hi=20), slot=slot,
            symbols=chk.symbols(where, card), text=chk.text_field(where, card),
            provenance=chk.provenance(where, card, _VALUE_FIELDS_ADV), note=chk.str_field(where, card, "note"),
        ))
    if starting and sum(s.per_deck for s in starting) != 20:
        chk.err(Where("starting_cards"), "deck_size", n=sum(s.per_deck for s in starting))

    advs: list[AdvancementType] = []
    names: set[str] = set()
    for i, card in enumerate(raw.get("advancement", [])):
        name = card.get("name") if isinstance(card, dict) else None
        where = Where("advancement", quoted(name, i + 1))
        if not isinstance(card, dict):
            chk.err(where, "not_table")
            continue
        chk.unknown_fields(where, card, _ADV_FIELDS)
        chk.str_field(where, card, "name", required=True)
        if name in names:
            chk.err(where, "name_twice")
        names.add(str(name))
        kind = card.get("kind", "advancement")
        if kind not in ("advancement", "fertile_soil"):
            chk.err(where, "kind_bad", value=repr(kind))
        level = chk.int_field(where, card, "level", lo=0 if kind == "fertile_soil" else 1, hi=3)
        copies_raw = card.get("copies", [[s] for s in SLOTS])
        copies: list[tuple[str, ...]] = []
        if not isinstance(copies_raw, list) or not copies_raw:
            chk.err(where, "copies_bad")
        else:
            for c in copies_raw:
                if not isinstance(c, list) or not c or any(s not in SLOTS for s in c) or len(set(c)) != len(c):
                    chk.err(where, "copy_slots_bad", known=", ".join(SLOTS), value=repr(c))
                else:
                    copies.append(tuple(s for s in SLOTS if s in c))
        ability_value = card.get("ability_value", 0.0)
        if not isinstance(ability_value, (int, float)) or isinstance(ability_value, bool):
            chk.err(where, "ability_value_bad", value=repr(ability_value))
        prov = chk.provenance(where, card, _VALUE_FIELDS_ADV)
        abilities = chk.abilities(where, card)
        generic = chk.bool_field(where, card, "generic")
        advs.append(AdvancementType(
            name=str(name), set=set_id, kind=kind, level=level,
            cost=chk.int_field(where, card, "cost", hi=99),
            symbols=chk.symbols(where, card),
            end_vp=chk.int_field(where, card, "end_vp", default=0, hi=99),
            neg_vp=chk.int_field(where, card, "neg_vp", default=0, hi=999),
            copies=tuple(copies), abilities=abilities,
            eclipse=chk.bool_field(where, card, "eclipse"),
            longwise=chk.bool_field(where, card, "longwise"),
            generic=generic,
            text=chk.text_field(where, card),
            provenance={**prov, "_source": str(card.get("source", "")),
                        "_ability_value": str(ability_value)},
            note=chk.str_field(where, card, "note") or (GENERIC_NOTE if generic else ""),
            stand_in=chk.stand_in(where, card, generic, abilities, prov),
        ))

    vales: list[ValeType] = []
    for i, card in enumerate(raw.get("vale", [])):
        name = card.get("name") if isinstance(card, dict) else None
        where = Where("vale", quoted(name, i + 1))
        if not isinstance(card, dict):
            chk.err(where, "not_table")
            continue
        chk.unknown_fields(where, card, _VALE_FIELDS)
        chk.str_field(where, card, "name", required=True)
        if name in names:
            chk.err(where, "name_twice")
        names.add(str(name))
        cost_raw = card.get("cost")
        cost = (0, 0, 0, 0)
        if not isinstance(cost_raw, dict):
            chk.err(where, "vale_cost_not_table")
        else:
            for k in cost_raw:
                if k not in ("animal", "forest", "sky", "any"):
                    chk.err(where, "vale_cost_spirit", value=repr(k))
            cost = tuple(chk.int_field(where, cost_raw, k, default=0, hi=9)
                         for k in ("animal", "forest", "sky", "any"))  # type: ignore[assignment]
            if sum(cost) == 0:
                chk.err(where, "vale_cost_zero")
        prov = chk.provenance(where, card, _VALUE_FIELDS_VALE)
        abilities = chk.abilities(where, card)
        generic = chk.bool_field(where, card, "generic")
        vales.append(ValeType(
            name=str(name), set=set_id, level=chk.int_field(where, card, "level", lo=1, hi=2),
            cost=cost, end_vp=chk.int_field(where, card, "end_vp", default=0, hi=99),
            neg_vp=chk.int_field(where, card, "neg_vp", default=0, hi=99),
            copies=chk.int_field(where, card, "copies", default=1, lo=1, hi=9),
            abilities=abilities, generic=generic,
            text=chk.text_field(where, card),
            provenance={**prov, "_source": str(card.get("source", ""))},
            note=chk.str_field(where, card, "note") or (GENERIC_NOTE if generic else ""),
            stand_in=chk.stand_in(where, card, generic, abilities, prov),
        ))
    leaders, parts = _parse_leaders(chk, raw.get("leader", []), set_id, names)
    if chk.found:
        raise chk.error()
    return SetData(set_id, title, counts, starting, advs, vales, raw, source, leaders, parts)


def leader_slug(name: str) -> str:
    """The word naming a leader in actions: ``Kojen and Khan`` -> ``kojen_and_khan``."""
    return "_".join("".join(ch for ch in w if ch.isalnum()) for w in name.lower().split())


def _parse_leaders(chk: _Checker, raw: Any, set_id: str, names: set[str]
                   ) -> tuple[list[LeaderType], list[AdvancementType]]:
    """``[[leader]]`` tables: name, upgrade_cost, and the parts of each side
    (``[[leader.start]]``, ``[[leader.upgraded]]``), each part with its slots, symbols,
    VP, abilities and ``coverable`` (an ability slot another advancement may cover)."""
    leaders: list[LeaderType] = []
    parts: list[AdvancementType] = []
    if not isinstance(raw, list):
        chk.err(Where("leaders", "[[leader]]"), "leaders_not_list")
        return leaders, parts
    for i, card in enumerate(raw):
        name = card.get("name") if isinstance(card, dict) else None
        where = Where("leader", quoted(name, i + 1))
        if not isinstance(card, dict):
            chk.err(where, "not_table")
            continue
        chk.unknown_fields(where, card, _LEADER_FIELDS)
        chk.str_field(where, card, "name", required=True)
        if name in names:
            chk.err(where, "name_twice")
        names.add(str(name))
        sides: dict[str, list[str]] = {}
        leader_note = chk.str_field(where, card, "note")
        first_part = len(parts)
        for side in ("start", "upgraded"):
            rows = card.get(side)
            if not isinstance(rows, list) or not rows:
                chk.err(where, "leader_side_bad", side=side)
                sides[side] = []
                continue
            used: set[str] = set()
            sides[side] = []
            for j, part in enumerate(rows):
                w = where.with_part(side, j + 1)
                if not isinstance(part, dict):
                    chk.err(w, "not_table")
                    continue
                chk.unknown_fields(w, part, _PART_FIELDS)
                slots = part.get("slots", list(SLOTS))
                if not isinstance(slots, list) or not slots or any(x not in SLOTS for x in slots) \
                        or len(set(slots)) != len(slots):
                    chk.err(w, "part_slots_bad", known=", ".join(SLOTS), value=repr(slots))
                    slots = list(SLOTS)
                if used & set(slots):
                    chk.err(w, "part_slot_twice")
                used |= set(slots)
                label = "starting" if side == "start" else "upgraded"
                pname = f"{name} ({label})" if j == 0 else f"{name} ({label}, {'+'.join(slots)})"
                sides[side].append(pname)
                parts.append(AdvancementType(
                    name=pname, set=set_id, kind="leader", level=0, cost=0,
                    symbols=chk.symbols(w, part),
                    end_vp=chk.int_field(w, part, "end_vp", default=0, hi=99),
                    neg_vp=chk.int_field(w, part, "neg_vp", default=0, hi=999),
                    copies=(tuple(x for x in SLOTS if x in slots),),
                    abilities=chk.abilities(w, part),
                    eclipse=chk.bool_field(w, part, "coverable"),
                    text=chk.text_field(w, part),
                    provenance={**chk.provenance(w, part, _VALUE_FIELDS_PART),
                                "_source": str(card.get("source", ""))},
                    note=chk.str_field(w, part, "note") or leader_note,
                ))
        # A leader whose abilities are ours (no rules text) is a stand-in; ``provisional``
        # is the older name of ``stand_in`` in catalogue files.
        own = parts[first_part:]
        derived = any(t.abilities and t.provenance.get("ability", "provisional") == "provisional" for t in own)
        stand_in = chk.stand_in(where, card, False, (), {}, old_key="provisional") \
            if "stand_in" in card or "provisional" in card else derived
        parts[first_part:] = [replace(t, stand_in=stand_in) for t in own]
        leaders.append(LeaderType(
            name=str(name), title=chk.str_field(where, card, "title"), set=set_id,
            upgrade_cost=chk.int_field(where, card, "upgrade_cost", hi=99),
            start=tuple(sides.get("start", [])), upgraded=tuple(sides.get("upgraded", [])),
            slug=leader_slug(str(name)), stand_in=stand_in,
            text=chk.text_field(where, card),
            provenance={**chk.provenance(where, card, _VALUE_FIELDS_LEADER),
                        "_source": str(card.get("source", ""))},
            note=leader_note,
        ))
    return leaders, parts


def read_set_file(path: str | Path) -> SetData:
    """Read and validate a catalogue file; CatalogueError (listing every problem) if bad."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise CatalogueError([f"cannot read the file: {exc.strerror}"], str(p)) from None
    except UnicodeDecodeError:
        raise CatalogueError(["the file is not UTF-8 text"], str(p)) from None
    return parse_set(text, str(p))


_BUILTIN_CACHE: dict[str, SetData] = {}


def builtin_set(set_id: str) -> SetData:
    if set_id not in _BUILTIN_CACHE:
        _BUILTIN_CACHE[set_id] = read_set_file(builtin_path(set_id))
    return _BUILTIN_CACHE[set_id]


def check_sets(sets: Iterable[str]) -> tuple[str, ...]:
    sets = tuple(sets)
    if not sets:
        raise ValueError("choose at least one set (known sets: " + ", ".join(KNOWN_SETS) + ")")
    for s in sets:
        if s not in KNOWN_SETS:
            raise ValueError(f"unknown set {s!r}; known sets: {', '.join(KNOWN_SETS)}")
    if len(set(sets)) != len(sets):
        raise ValueError(f"a set is named twice in {sets!r}")
    return tuple(s for s in KNOWN_SETS if s in sets)


_CATALOGUE_CACHE: dict[tuple, Catalogue] = {}


def load_catalogue(sets: Iterable[str] = ("base",),
                   files: str | Path | Iterable[str | Path] | None = None) -> Catalogue:
    """The catalogue for ``sets``: built-in data, with any set replaced by a user file.

    The starting cards and Fertile Soil always come from the base data (Twilight Garden
    can replace the base game's advancements and vales, "but use the Fertile Soil
    advancements as normal", file 003).
    """
    sets = check_sets(sets)
    if files is None:
        paths: tuple[Path, ...] = ()
    elif isinstance(files, (str, Path)):
        paths = (Path(files),)
    else:
        paths = tuple(Path(f) for f in files)
    key = (sets, tuple(str(p.resolve()) for p in paths))
    if not paths and key in _CATALOGUE_CACHE:
        return _CATALOGUE_CACHE[key]
    data = {s: builtin_set(s) for s in KNOWN_SETS if s in sets or s == "base"}
    custom: dict[str, dict] = {}
    for p in paths:
        sd = read_set_file(p)
        if sd.id not in data:
            raise CatalogueError([f"the file is for set {sd.id!r}, which is not in this game's sets {sets}"], str(p))
        data[sd.id] = sd
        custom[sd.id] = sd.raw
    cat = build_catalogue(sets, data, custom)
    if not paths:
        _CATALOGUE_CACHE[key] = cat
    return cat


def build_catalogue(sets: tuple[str, ...], data: dict[str, SetData], custom: dict[str, dict]) -> Catalogue:
    base = data["base"]
    found: list[Problem] = []
    if not base.starting:
        found.append(Problem(None, "no_starting"))
    advs: dict[str, AdvancementType] = {}
    vales: dict[str, ValeType] = {}
    leaders: dict[str, LeaderType] = {}
    for sd in data.values():
        if sd.id in sets:
            for t in sd.leader_parts:
                if t.name in advs:
                    found.append(Problem(Where("leader_part", repr(t.name)), "in_two_sets"))
                advs[t.name] = t
            for ld in sd.leaders:
                if ld.name in leaders:
                    found.append(Problem(Where("leader", repr(ld.name)), "in_two_sets"))
                leaders[ld.name] = ld
        for t in sd.advancements:
            if t.kind == "fertile_soil" and sd.id != "base":
                found.append(Problem(Where("advancement", repr(t.name)), "soil_not_base"))
            if t.kind == "fertile_soil" or sd.id in sets:
                if t.name in advs:
                    found.append(Problem(Where("advancement", repr(t.name)), "in_two_sets"))
                advs[t.name] = t
        if sd.id in sets:
            for v in sd.vales:
                if v.name in vales:
                    found.append(Problem(Where("vale", repr(v.name)), "in_two_sets"))
                vales[v.name] = v
    for st in base.starting:
        if st.slot is None:
            continue
        if st.name in advs:
            t = advs[st.name]
            if t.symbols != st.symbols:
                found.append(Problem(Where("starting", repr(st.name)), "starting_symbols"))
        else:
            advs[st.name] = AdvancementType(
                name=st.name, set="base", kind="starting", level=0, cost=0, symbols=st.symbols,
                end_vp=0, neg_vp=0, copies=((st.slot,),), text=st.text, provenance=st.provenance,
                note=st.note,
            )
    if not any(t.kind == "fertile_soil" for t in advs.values()):
        found.append(Problem(None, "no_soil"))
    for lvl in (1, 2, 3):
        if not any(t.kind == "advancement" and t.level == lvl for t in advs.values()):
            found.append(Problem(None, "no_level_advancement", {"level": lvl}))
    for lvl in (1, 2):
        if not any(v.level == lvl for v in vales.values()):
            found.append(Problem(None, "no_level_vale", {"level": lvl}))
    if found:
        raise CatalogueError([p.text() for p in found], "catalogue", found)
    return Catalogue(sets=sets, advancements=advs, vales=vales, leaders=leaders,
                     starting=[(st.name, st.per_deck) for st in base.starting],
                     source="custom" if custom else "builtin", raw=custom or None)


def catalogue_from_json(data: dict) -> Catalogue:
    """Rebuild the catalogue a saved game was played with."""
    sets = check_sets(data["sets"])
    custom = data.get("custom") or {}
    sds = {s: builtin_set(s) for s in KNOWN_SETS if s in sets or s == "base"}
    for set_id, raw in custom.items():
        # Re-validate a saved custom catalogue as if it were a file.
        sds[set_id] = parse_set(_to_toml(raw), f"saved catalogue for {set_id}")
    if not custom:
        return load_catalogue(sets)
    return build_catalogue(sets, sds, custom)


def _to_toml(value: Any) -> str:
    """A minimal TOML writer for catalogue data (tables, arrays of tables, scalars)."""
    import json

    def scalar(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(scalar(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{ " + ", ".join(f"{json.dumps(k)} = {scalar(x)}" for k, x in v.items()) + " }"
        raise TypeError(v)

    lines: list[str] = []
    for key, v in value.items():
        if isinstance(v, dict):
            lines.append(f"[{key}]")
            lines.extend(f"{json.dumps(k)} = {scalar(x)}" for k, x in v.items())
        elif isinstance(v, list) and all(isinstance(x, dict) for x in v):
            for item in v:
                lines.append(f"[[{key}]]")
                lines.extend(f"{json.dumps(k)} = {scalar(x)}" for k, x in item.items())
        else:
            lines.append(f"{json.dumps(key)} = {scalar(v)}")
    return "\n".join(lines) + "\n"
