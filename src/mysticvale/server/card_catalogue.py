"""Per-advancement card data for clients: one cacheable document per combination of card sets.

Card views in observations name their layers by label only (``Stag@middle``); what each
layer shows (slots, symbols, cost, level, trigger and text, eclipse, long-wise, stand-in and
provisional values) is the same in every game with these sets, so a client fetches it once
per set combination (``GET /api/catalogue/{sets}``, cached by the browser, its URL versioned
by a hash of its content) instead of receiving it again in every state and delta.

Fields the engine's ``copy_view`` / ``vale_view`` give are used as they are; what they do not
give yet is derived here from the catalogue: ``stand_in`` (not a printed card), ``provisional``
(the value fields no source gives, which a player is told are estimates), the abilities'
triggers, and end-game VP rules.

The card data's ``note``, ``source`` and ``provenance`` are for us (``mysticvale cards
--report``), never for players: they name rules files and say what we chose, so the document
leaves them out (:data:`PRIVATE_FIELDS`); a client words what a player needs from ``stand_in``
and ``provisional`` alone.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from types import SimpleNamespace
from typing import Any

from ..cards.catalogue import check_sets, load_catalogue
from ..engine.card_types import SLOTS, SYMBOLS
from ..engine.observation import copy_view

#: Value fields whose provenance the card data records (besides name and text).
_ADV_VALUES = ("level", "cost", "symbols", "end_vp", "neg_vp", "ability", "eclipse", "longwise", "slot", "copies")
_VALE_VALUES = ("level", "cost", "end_vp", "neg_vp", "ability")
_PART_VALUES = ("slots", "symbols", "end_vp", "neg_vp", "ability", "coverable")

#: Fields of the card data that are notes for us, not for players: never in the document.
PRIVATE_FIELDS = ("note", "source", "provenance")

_cache: dict[tuple[str, ...], tuple[str, str]] = {}
_lock = threading.Lock()


def _provisional(provenance: dict[str, str], fields: tuple[str, ...], used: set[str]) -> list[str]:
    """The value fields of a card that are ours (provisional), among those it actually has.

    The data files say: a field a card does not list in its provenance is provisional."""
    out = []
    for f in fields:
        if f not in used:
            continue
        if provenance.get(f, "provisional") == "provisional":
            out.append(f)
    return out


def _abilities(abilities) -> list[dict[str, Any]]:
    out = []
    for ab in abilities:
        entry: dict[str, Any] = {"trigger": ab.trigger, "optional": bool(ab.optional)}
        if ab.trigger == "end_game":
            entry["effect"] = ab.effect
            entry["params"] = {k: v for k, v in ab.params.items() if isinstance(v, (int, str, float))}
        out.append(entry)
    return out


def _type_entry(cat, t, first_copy: int) -> dict[str, Any]:
    view = dict(copy_view(SimpleNamespace(cat=cat), first_copy))
    for k in ("label", "slots"):
        view.pop(k, None)                       # per copy: the label says both
    used = {"level", "cost"} if t.kind in ("advancement", "fertile_soil") else set()
    used |= {"symbols"} if any(t.symbols) else set()
    used |= {k for k in ("end_vp", "neg_vp", "eclipse", "longwise") if getattr(t, k)}
    used |= {"ability"} if t.abilities else set()
    prov_fields = _PART_VALUES if t.kind == "leader" else _ADV_VALUES
    if t.kind == "leader":
        used = ({"symbols"} if any(t.symbols) else set()) | ({"ability"} if t.abilities else set()) \
            | {k for k in ("end_vp", "neg_vp") if getattr(t, k)}
    view["kind"] = t.kind
    view["abilities"] = _abilities(t.abilities)
    view.setdefault("stand_in", bool(t.generic))
    # A player is told which of the values the card shows are estimates: not the per-deck counts,
    # copies or slots the engine needs, and nothing of a starting card (its face is printed in
    # the rules; which slot its symbols sit in is a layout detail).
    given = view.get("provisional")
    view["provisional"] = [] if t.kind == "starting" else [
        f for f in (given if given is not None else _provisional(t.provenance, prov_fields, used)) if f in used]
    for k in PRIVATE_FIELDS:
        view.pop(k, None)
    return view


def _vale_entry(v) -> dict[str, Any]:
    used = {"level", "cost"} | {k for k in ("end_vp", "neg_vp") if getattr(v, k)} \
        | ({"ability"} if v.abilities else set())
    return {
        "name": v.name, "level": v.level, "set": v.set,
        "cost": dict(zip(("animal", "forest", "sky", "any"), v.cost)),
        "end_vp": v.end_vp, "neg_vp": v.neg_vp, "text": v.text,
        "abilities": _abilities(v.abilities),
        # The card data's own words when it has them (stand_in, provisional_fields).
        "stand_in": bool(getattr(v, "stand_in", v.generic)),
        "provisional": [f for f in (v.provisional_fields() if hasattr(v, "provisional_fields")
                                    else _provisional(v.provenance, _VALE_VALUES, used)) if f in used],
    }


def build(sets: tuple[str, ...]) -> dict[str, Any]:
    """The catalogue document for these sets (see the module docstring)."""
    return build_from(load_catalogue(sets))


def build_from(cat) -> dict[str, Any]:
    """The catalogue document of an engine catalogue (a game's own: house cards, issue 21)."""
    types: dict[str, dict[str, Any]] = {}
    copies: dict[str, str] = {}
    for c in cat.copies:
        t = c.type
        if t.name not in types:
            types[t.name] = _type_entry(cat, t, c.index)
        copies[c.label] = t.name
    leaders = {}
    for name, ld in cat.leaders.items():
        def labels(parts):
            return [f"{p}@{'+'.join(s for s in SLOTS if s in cat.advancements[p].copies[0])}" for p in parts]
        leaders[name] = {
            "name": ld.name, "title": ld.title, "slug": ld.slug, "upgrade_cost": ld.upgrade_cost,
            "text": ld.text,
            "stand_in": bool(getattr(ld, "stand_in", False) or ld.provisional),
            "provisional": ["upgrade_cost"] if ld.provenance.get("upgrade_cost", "provisional") == "provisional"
            else [],
            "start": labels(ld.start), "upgraded": labels(ld.upgraded),
        }
    return {
        "sets": list(cat.sets),
        "symbols": list(SYMBOLS),
        "slots": list(SLOTS),
        "types": types,
        "copies": copies,
        "vales": {v.name: _vale_entry(v) for v in cat.vale_list},
        "leaders": leaders,
    }


def catalogue_text(sets: tuple[str, ...]) -> tuple[str, str]:
    """(JSON text, version hash) of the catalogue for ``sets``, built once per process.

    Raises ValueError for unknown sets."""
    key = check_sets(sets)
    with _lock:
        hit = _cache.get(key)
        if hit is None:
            text = json.dumps(build(key), separators=(",", ":"), ensure_ascii=False, sort_keys=True)
            hit = _cache[key] = (text, hashlib.sha256(text.encode()).hexdigest()[:16])
        return hit


def catalogue_version(sets: tuple[str, ...]) -> str:
    return catalogue_text(sets)[1]


_house_cache: "OrderedDict[str, tuple[str, str]]" = OrderedDict()
_HOUSE_KEEP = 32


def house_catalogue_text(cat) -> tuple[str, str]:
    """(JSON text, version hash) of a game's own catalogue (house cards): the document of
    :func:`build_from` with ``house``: the set the host's file replaced and the values that
    differ from the shipped ones (``server/house_cards.differences``).  The newest few are kept."""
    from .house_cards import differences

    key = json.dumps(cat.raw, sort_keys=True, default=str) + "|" + "+".join(cat.sets)
    with _lock:
        hit = _house_cache.get(key)
        if hit is not None:
            _house_cache.move_to_end(key)
            return hit
    doc = build_from(cat)
    doc["house"] = {"sets": sorted(cat.raw or {}), "differences": differences(doc, tuple(cat.sets))}
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    hit = (text, hashlib.sha256(text.encode()).hexdigest()[:16])
    with _lock:
        _house_cache[key] = hit
        while len(_house_cache) > _HOUSE_KEEP:
            _house_cache.popitem(last=False)
    return hit
