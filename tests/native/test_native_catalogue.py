"""The catalogue hand-off: Python resolves the cards, the native core builds the same tables."""

from __future__ import annotations

import json

import pytest

import mysticvale as mv
from mysticvale.cards.catalogue import builtin_path, load_catalogue
from mysticvale.engine import native, native_catalogue
from mysticvale.errors import CatalogueError

SET_LISTS = [("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
             ("base", "vale_of_magic", "twilight_garden"), ("vale_of_magic",), ("twilight_garden",),
             ("vale_of_magic", "twilight_garden")]


def _same_tables(twin, cat):
    assert twin.sets == list(cat.sets)
    assert twin.labels() == [c.label for c in cat.copies]
    assert twin.type_names() == list(cat.advancements)
    assert twin.vale_names() == [v.name for v in cat.vale_list]
    assert twin.leader_names() == list(cat.leaders)
    for level in (0, 1, 2, 3, 4):
        assert twin.supply_copies(level) == cat.supply_copies(level), level
    for level in (1, 2):
        assert twin.supply_vales(level) == cat.supply_vales(level), level
    assert twin.soil_copies() == cat.soil_copies
    assert twin.leader_copies() == sorted(cat.leader_copies)
    assert twin.abilities() == [[(a.trigger, a.effect) for a in t.abilities] for t in cat.advancements.values()]
    for c in cat.copies:
        assert twin.from_label(c.label) == c.index


@pytest.mark.parametrize("sets", SET_LISTS, ids="+".join)
def test_every_set_list_hands_over_the_same_catalogue(core, sets):
    cat = load_catalogue(sets)
    _same_tables(native.catalogue(cat), cat)


def test_the_twin_is_built_once_per_catalogue(core):
    cat = load_catalogue(("base",))
    assert native.catalogue(cat) is native.catalogue(cat)
    assert native_catalogue.table_json(cat) is native_catalogue.table_json(cat)


def test_a_users_catalogue_with_an_accent_hands_over_and_saves_as_python_writes(core, tmp_path):
    text = builtin_path("base").read_text(encoding="utf-8").replace('name = "Seedling"', 'name = "Sämling d\'Été"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    game = mv.new_game(players=2, seed=5, catalogue=path)
    cat = game.state.cat
    twin = native.catalogue(cat)
    _same_tables(twin, cat)
    assert "Sämling d'Été@top" in twin.labels()
    # The save's catalogue entry is the text Python's save holds, byte for byte (non-ASCII
    # escaped as json.dumps escapes it).
    saved = game.to_json()
    assert twin.save_json in saved and "\\u00e4" in twin.save_json
    assert json.loads(twin.save_json) == json.loads(saved)["catalogue"]
    with pytest.raises(ValueError, match=r"""^no advancement copy "it's" in this catalogue$"""):
        twin.from_label("it's")


def _table(sets=("base",)):
    return json.loads(native_catalogue.table_json(load_catalogue(sets)))


def _load(core, table):
    return core.Catalogue.from_table_json(json.dumps(table), "test table")


def test_an_unknown_effect_fails_at_load_naming_the_card(core):
    table = _table()
    card = next(t for t in table["types"] if t["abilities"])
    card["abilities"][0]["effect"] = "summon_dragon"
    with pytest.raises(CatalogueError) as err:
        _load(core, table)
    assert err.value.source == "test table" and len(err.value.problems) == 1
    assert card["name"] in err.value.problems[0] and "summon_dragon" in err.value.problems[0]


def test_a_trigger_the_effect_cannot_have_fails_at_load(core):
    table = _table()
    card = next(t for t in table["types"] if t["abilities"] and t["abilities"][0]["trigger"] != "end_game")
    card["abilities"][0]["trigger"] = "end_game"
    with pytest.raises(CatalogueError, match="cannot have trigger 'end_game'"):
        _load(core, table)


def test_a_parameter_of_the_wrong_type_or_name_fails_at_load(core):
    table = _table()
    card = next(t for t in table["types"] if any(a["params"] for a in t["abilities"]))
    ab = next(a for a in card["abilities"] if a["params"])
    key = next(iter(ab["params"]))
    ab["params"][key] = [1, 2]
    with pytest.raises(CatalogueError, match=card["name"]):
        _load(core, table)
    ab["params"] = {"nonsense": 1}
    with pytest.raises(CatalogueError, match="nonsense"):
        _load(core, table)


def test_broken_tables_are_refused_whole(core):
    table = _table()
    table["copies"][0]["type"] = 9999
    table["leaders"] = [{"name": "X", "title": "", "set": "twilight_garden", "upgrade_cost": 1, "start": [9999],
                         "upgraded": [], "slug": "x", "stand_in": False, "text": "", "note": ""}]
    with pytest.raises(CatalogueError) as err:
        _load(core, table)
    assert len(err.value.problems) == 2
    with pytest.raises(CatalogueError, match="not a native catalogue table"):
        core.Catalogue.from_table_json("{", "test table")
    table = _table()
    table["version"] = 99
    with pytest.raises(CatalogueError, match="version 99"):
        _load(core, table)
