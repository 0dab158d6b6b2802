"""The resolved catalogue as one canonical JSON table, the native core's only card input.

Python stays the only reader and validator of the TOML card data (and of a user's own
``catalogue=`` files): :mod:`mysticvale.cards.catalogue` resolves the sets into a
:class:`~mysticvale.engine.catalogue.Catalogue`, and this module writes that catalogue as
the table the Rust twin builds its typed, immutable card tables from (``native/src/
catalogue.rs``).  Everything is in the engine's own order, so an index means the same in
both engines: advancement types in ``Catalogue.advancements`` order, copies in
``Catalogue.copies`` order (shuffles see the same lists), vales in ``vale_list`` order,
leaders in ``leaders`` order.  The table is cached on the catalogue it was made from.
"""

from __future__ import annotations

import json
from typing import Any

from .card_types import SLOTS, SYMBOLS, Ability
from .catalogue import Catalogue

FORMAT = "mysticvale-native-catalogue"
VERSION = 1

_CACHE_ATTR = "_native_table_json"


def _dumps(value: Any) -> str:
    # The save's own JSON form (serialize.dumps), so that text can be copied into a save.
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _ability(ab: Ability) -> dict[str, Any]:
    return {"trigger": ab.trigger, "effect": ab.effect, "params": dict(ab.params),
            "optional": ab.optional, "text": ab.text}


def table(cat: Catalogue) -> dict[str, Any]:
    """The catalogue as plain data: what the native core needs to play and to show cards."""
    type_index = {name: i for i, name in enumerate(cat.advancements)}
    types = [{
        "name": t.name, "set": t.set, "kind": t.kind, "level": t.level, "cost": t.cost,
        "symbols": list(t.symbols), "end_vp": t.end_vp, "neg_vp": t.neg_vp,
        "eclipse": t.eclipse, "longwise": t.longwise, "generic": t.generic,
        "abilities": [_ability(ab) for ab in t.abilities],
        "text": t.text, "note": t.note, "stand_in": t.stand_in,
        "provisional": list(t.provisional_fields()),
        # The copy of each printed copy, in printed order (two printed copies in the same
        # slots are one copy to the rules, but two cards in the supply deck).
        "printed": [cat.copy_index[f"{t.name}@{'+'.join(s for s in SLOTS if s in slots)}"]
                    for slots in t.copies],
    } for t in cat.advancements.values()]
    copies = [{"label": c.label, "type": type_index[c.type.name],
               "slots": [s for s in SLOTS if s in c.slots]} for c in cat.copies]
    vales = [{
        "name": v.name, "set": v.set, "level": v.level, "cost": list(v.cost),
        "end_vp": v.end_vp, "neg_vp": v.neg_vp, "copies": v.copies, "generic": v.generic,
        "abilities": [_ability(ab) for ab in v.abilities],
        "text": v.text, "note": v.note, "stand_in": v.stand_in,
        "provisional": list(v.provisional_fields()),
    } for v in cat.vale_list]
    leaders = [{
        "name": ld.name, "title": ld.title, "set": ld.set, "upgrade_cost": ld.upgrade_cost,
        "start": [type_index[n] for n in ld.start], "upgraded": [type_index[n] for n in ld.upgraded],
        "slug": ld.slug, "stand_in": ld.stand_in, "text": ld.text, "note": ld.note,
    } for ld in cat.leaders.values()]
    return {
        "format": FORMAT, "version": VERSION,
        "sets": list(cat.sets),
        "symbols": list(SYMBOLS), "slots": list(SLOTS),
        # The save's "catalogue" entry as serialize.dumps writes it, copied verbatim into
        # the native engine's saves (a custom catalogue's data is the user's, any shape).
        "save": _dumps({"sets": list(cat.sets), "custom": cat.raw}),
        "types": types, "copies": copies, "vales": vales, "leaders": leaders,
        "starting": [[name, n] for name, n in cat.starting],
    }


def table_json(cat: Catalogue) -> str:
    """The canonical JSON text of :func:`table`, computed once per catalogue."""
    text = cat.__dict__.get(_CACHE_ATTR)
    if text is None:
        text = _dumps(table(cat))
        cat.__dict__[_CACHE_ATTR] = text
    return text


def table_json_for(sets: tuple[str, ...]) -> str:
    """The table of the built-in catalogue of ``sets``."""
    from ..cards.catalogue import load_catalogue

    return table_json(load_catalogue(sets))
