"""The card catalogue as rows a reader can inspect, a component-count report, and file checks.

Used by ``mysticvale cards`` (table, ``--json``, ``--report``, ``--check FILE``).

Each catalogue row says, per printed value, where it comes from (``rules``, ``public`` or
``provisional``; shared/cards/README.md), whether the engine implements the card
(``implemented``) and whether a test exercises it (``tested``):

* ``implemented``: every ability names an effect of the engine's vocabulary (the loader
  refuses unknown effects, so this fails only for a card whose text describes an ability
  that its data does not give).
* ``tested``: a card without abilities is exercised by ``tests/cards/test_every_card.py``
  (every card loads, is bought, sleeved and counted); a card with abilities must also be
  listed in ``data/tested.toml``, and ``tests/cards/test_tested_list.py`` checks that list
  against the scenario tests that declare ``@exercises("Card Name")`` (tests/exercised.py).
"""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from ..engine.card_types import PROVENANCES, SYMBOLS, TRIGGERS
from ..engine.registry import EFFECTS
from ..errors import CatalogueError
from .catalogue import KNOWN_SETS, SetData, builtin_path, builtin_set, load_catalogue, parse_set

#: Words that start an ability's text on a card (a card with such a text needs abilities).
_TRIGGER_WORDS = ("when played", "harvest", "ongoing", "discard", "when bought", "end of game",
                  "after you spoil", "once per turn", "when you would spoil")


def available_sets() -> tuple[str, ...]:
    """The shipped sets whose data file exists."""
    return tuple(s for s in KNOWN_SETS if builtin_path(s).exists())


def tested_names() -> set[str]:
    """Cards with abilities that a scenario test exercises (``data/tested.toml``)."""
    path = Path(str(resources.files("mysticvale.cards") / "data" / "tested.toml"))
    if not path.exists():
        return set()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return set(data.get("tested", {}).get("cards", []))


def _prov(explicit: dict[str, str], fields: Iterable[str]) -> dict[str, str]:
    """Provenance of each value field: as the data says, else provisional (the file rule).
    A symbol with its own provenance (``symbols.guardian``) is listed after the fields."""
    out = {f: explicit.get(f, "provisional") for f in fields}
    if "symbols" in out:
        out.update({k: v for k, v in explicit.items() if k.startswith("symbols.")})
    return out


def _abilities(abs_: Iterable) -> list[dict[str, Any]]:
    return [{"trigger": a.trigger, "effect": a.effect, "params": dict(a.params), "optional": a.optional}
            for a in abs_]


def _implemented(text: str, abilities: tuple) -> bool:
    for a in abilities:
        spec = EFFECTS.get(a.effect)
        if spec is None or a.trigger not in spec.triggers or a.trigger not in TRIGGERS:
            return False
    described = any(text.lower().startswith(w) for w in _TRIGGER_WORDS)
    return bool(abilities) or not described


def set_rows(sd: SetData, tested: set[str] | None = None) -> list[dict[str, Any]]:
    """One row per card type of a set (starting cards, advancements incl. Fertile Soil, vales)."""
    tested = tested_names() if tested is None else tested
    rows: list[dict[str, Any]] = []
    for s in sd.starting:
        fields = ["per_deck", "symbols"] + (["slot"] if s.slot else [])
        rows.append({
            "name": s.name, "set": sd.id, "kind": "starting", "level": 0, "copies": s.per_deck,
            "copies_note": "per player deck", "slots": [s.slot] if s.slot else [],
            "cost": None, "symbols": {k: v for k, v in zip(SYMBOLS, s.symbols) if v},
            "end_vp": 0, "neg_vp": 0, "abilities": [], "text": s.text, "note": s.note,
            "generic": False, "stand_in": False,
            "source": "", "provenance": _prov(s.provenance, fields),
            "implemented": True, "tested": True,
        })
    for t in sd.advancements:
        explicit = {k: v for k, v in t.provenance.items() if not k.startswith("_")}
        rows.append({
            "name": t.name, "set": sd.id, "kind": "advancement", "level": t.level,
            "fertile_soil": t.kind == "fertile_soil", "copies": len(t.copies),
            "slots": ["+".join(c) for c in t.copies], "legendary": t.legendary,
            "eclipse": t.eclipse, "longwise": t.longwise, "cost": t.cost,
            "symbols": {k: v for k, v in zip(SYMBOLS, t.symbols) if v},
            "end_vp": t.end_vp, "neg_vp": t.neg_vp, "abilities": _abilities(t.abilities),
            "text": t.text, "note": t.note, "generic": t.generic, "stand_in": t.stand_in,
            "source": t.provenance.get("_source", ""),
            "provenance": _prov(explicit, t.value_fields()),
            "implemented": _implemented(t.text, t.abilities),
            "tested": not t.abilities or t.name in tested,
        })
    for v in sd.vales:
        explicit = {k: x for k, x in v.provenance.items() if not k.startswith("_")}
        rows.append({
            "name": v.name, "set": sd.id, "kind": "vale", "level": v.level, "copies": v.copies,
            "slots": [], "cost": dict(zip(("animal", "forest", "sky", "any"), v.cost)),
            "symbols": {}, "end_vp": v.end_vp, "neg_vp": v.neg_vp, "abilities": _abilities(v.abilities),
            "text": v.text, "note": v.note, "generic": v.generic, "stand_in": v.stand_in,
            "source": v.provenance.get("_source", ""),
            "provenance": _prov(explicit, v.value_fields()),
            "implemented": _implemented(v.text, v.abilities),
            "tested": not v.abilities or v.name in tested,
        })
    for ld in sd.leaders:
        rows.append(_leader_row(sd, ld, tested))
    for row in rows:
        assert all(p in PROVENANCES for p in row["provenance"].values())
    return rows


def _leader_row(sd: SetData, ld, tested: set[str]) -> dict[str, Any]:
    """A leader (file 003): its upgrade cost as ``cost``, both sides under ``sides``,
    provenance per side and value (``start.ability``, ``upgraded.end_vp``, ...)."""
    parts = {t.name: t for t in sd.leader_parts}
    sides: dict[str, Any] = {}
    prov = _prov({k: v for k, v in ld.provenance.items() if not k.startswith("_")}, ["upgrade_cost"])
    abilities = []
    for side, names in (("start", ld.start), ("upgraded", ld.upgraded)):
        ts = [parts[n] for n in names]
        sym = [sum(t.symbols[i] for t in ts) for i in range(len(SYMBOLS))]
        abs_ = [a for t in ts for a in t.abilities]
        sides[side] = {
            "symbols": {k: v for k, v in zip(SYMBOLS, sym) if v},
            "end_vp": sum(t.end_vp for t in ts), "neg_vp": sum(t.neg_vp for t in ts),
            "abilities": _abilities(abs_), "text": " ".join(t.text for t in ts if t.text),
            "note": " ".join(dict.fromkeys(t.note for t in ts if t.note)),
            "parts": [{"name": t.name, "slots": list(t.copies[0]), "coverable": t.eclipse} for t in ts],
        }
        abilities += [dict(a, side=side) for a in _abilities(abs_)]
        for t in ts:
            explicit = {k: v for k, v in t.provenance.items() if not k.startswith("_")}
            for f in ("symbols", "end_vp", "neg_vp") + (("ability",) if t.abilities else ()):
                key = f"{side}.{f}"
                # A side made of several parts is `rules` only if every part says so.
                p = explicit.get(f, "provisional")
                prov[key] = p if prov.get(key, p) == p else "provisional"
    return {
        "name": ld.name, "title": ld.title, "set": sd.id, "kind": "leader", "level": 0, "copies": 1,
        "slots": [], "cost": ld.upgrade_cost, "cost_note": "upgrade cost",
        "symbols": sides["start"]["symbols"], "end_vp": sides["start"]["end_vp"],
        "neg_vp": sides["start"]["neg_vp"], "abilities": abilities, "sides": sides,
        "text": ld.text or sides["start"]["text"],
        "note": ld.note or " ".join(dict.fromkeys(sd_["note"] for sd_ in sides.values() if sd_["note"])),
        "generic": False, "stand_in": ld.stand_in, "provisional_leader": ld.stand_in,
        "source": ld.provenance.get("_source", ""), "provenance": prov,
        "implemented": bool(abilities) and all(
            a["effect"] in EFFECTS and a["trigger"] in EFFECTS[a["effect"]].triggers for a in abilities),
        "tested": ld.name in tested,
    }


def catalogue_rows(sets: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """Rows of every card of the chosen shipped sets (all available sets by default)."""
    chosen = available_sets() if sets is None else tuple(sets)
    unknown = [s for s in chosen if s not in KNOWN_SETS]
    if unknown:
        raise ValueError(f"unknown set(s) {', '.join(unknown)}; known sets: {', '.join(KNOWN_SETS)}")
    missing = [s for s in chosen if not builtin_path(s).exists()]
    if missing:
        raise ValueError(f"no card data shipped yet for {', '.join(missing)}")
    tested = tested_names()
    out: list[dict[str, Any]] = []
    for s in chosen:
        out.extend(set_rows(builtin_set(s), tested))
    return out


def component_report(sd: SetData) -> list[dict[str, Any]]:
    """The set's catalogue against the component counts printed in the rules.

    Printed advancements come 3 copies per type (one per slot) unless a card says otherwise,
    so the printed number of types per level is the printed copies divided by 3; vales are
    one card per type.  ``named`` counts types that are printed cards (not generic).
    """
    out = []
    for kind, key, per_type in (("advancement", "advancements", 3), ("vale", "vales", 1)):
        printed = sd.counts.get(key, {})
        levels = sorted({int(k.removeprefix("level")) for k in printed if k.startswith("level")}
                        | ({t.level for t in sd.advancements if t.kind == "advancement"} if kind == "advancement"
                           else {v.level for v in sd.vales}))
        for lvl in levels:
            if kind == "advancement":
                types = [t for t in sd.advancements if t.kind == "advancement" and t.level == lvl]
                copies = sum(len(t.copies) for t in types)
            else:
                types = [v for v in sd.vales if v.level == lvl]
                copies = sum(v.copies for v in types)
            pc = printed.get(f"level{lvl}")
            ptypes = None if pc is None else pc // per_type
            named = sum(1 for t in types if not t.generic)
            if pc is None:
                status = "the rules give no count"
            elif len(types) < ptypes:
                status = f"fewer types than printed: {ptypes - len(types)} missing"
            elif copies != pc:
                status = f"copies differ from the printed {pc}"
            elif len(types) > ptypes:
                # Some types have other than 3 copies (e.g. a legendary card filling two slots).
                status = "matches the printed copies (some types have other than 3 copies)"
            elif named < len(types):
                status = f"matches ({len(types) - named} generic stand-ins)"
            else:
                status = "matches"
            out.append({
                "set": sd.id, "kind": kind, "level": lvl, "printed_copies": pc, "printed_types": ptypes,
                "types": len(types), "copies": copies, "named_types": named,
                "generic_types": len(types) - named, "status": status,
            })
    return out


# -- checking a user's file ------------------------------------------------------------------
_WHERE = re.compile(r"^(advancement|vale|starting card) '([^']*)'")


def _locate(problem: str, text: str) -> str:
    """Prefix a problem with the line of the card it names (``line 12: ...``)."""
    m = _WHERE.match(problem)
    if not m:
        return problem
    kind, name = m.groups()
    lines = text.splitlines()
    if name.startswith("#") and name[1:].isdigit():
        header = {"advancement": "[[advancement]]", "vale": "[[vale]]", "starting card": "[[starting]]"}[kind]
        idx = [i for i, ln in enumerate(lines) if ln.strip() == header]
        n = int(name[1:]) - 1
        return f"line {idx[n] + 1}: {problem}" if n < len(idx) else problem
    pat = re.compile(r'^\s*name\s*=\s*"' + re.escape(name) + r'"\s*(#.*)?$')
    for i, ln in enumerate(lines):
        if pat.match(ln):
            return f"line {i + 1}: {problem}"
    return problem


def check_file(path: str | Path) -> tuple[SetData | None, list[str]]:
    """Validate a user catalogue file; (its data, []) if good, else (None, every problem).

    The file is checked alone (format, fields, symbols, effects, provenance) and then as
    part of a game with the base set (e.g. a level with no advancement, a name in two sets).
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        return None, [f"cannot read {p}: {exc.strerror or exc}"]
    except UnicodeDecodeError:
        return None, [f"{p} is not UTF-8 text"]
    try:
        sd = parse_set(text, str(p))
    except CatalogueError as exc:
        return None, [_locate(x, text) for x in exc.problems]
    sets = ("base",) if sd.id == "base" else ("base", sd.id)
    try:
        load_catalogue(sets, p)
    except CatalogueError as exc:
        return None, [_locate(x, text) for x in exc.problems]
    return sd, []


def slots_text(row: dict[str, Any]) -> str:
    """A short text of a row's copies (``3: top, middle, bottom``)."""
    if row["kind"] == "starting":
        return f"{row['copies']} per deck"
    if row["kind"] == "vale":
        return str(row["copies"])
    kinds = sorted(set(row["slots"]), key=row["slots"].index)
    if not kinds:
        return str(row["copies"])
    if len(kinds) == 1:
        return f"{row['copies']} x {kinds[0]}"
    return f"{row['copies']}: " + ", ".join(kinds)


def cost_text(row: dict[str, Any]) -> str:
    """A short text of a row's cost (mana, or the spirits a vale costs)."""
    if row["cost"] is None:
        return "-"
    if isinstance(row["cost"], dict):
        return " ".join(f"{n} {k}" for k, n in row["cost"].items() if n) or "-"
    return str(row["cost"])


__all__ = ["available_sets", "catalogue_rows", "check_file", "component_report", "set_rows",
           "tested_names", "cost_text", "slots_text"]
