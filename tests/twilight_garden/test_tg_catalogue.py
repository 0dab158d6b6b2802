"""The Twilight Garden catalogue data: leaders in the file format, the report, custom files."""

from __future__ import annotations

import pytest

import mysticvale as mv
from mysticvale.cards.catalogue import builtin_path, parse_set
from mysticvale.cards.report import catalogue_rows
from mysticvale.errors import CatalogueError

LEADER = """
[set]
id = "twilight_garden"
[[advancement]]
name = "Lone Card"
level = 1
cost = 2
symbols = { mana = 1 }
[[leader]]
name = "Test Leader"
upgrade_cost = 3
[[leader.start]]
symbols = { mana = 1 }
[[leader.upgraded]]
slots = ["top", "sideways"]
"""


def test_leader_tables_are_validated_with_clear_messages():
    with pytest.raises(CatalogueError) as exc:
        parse_set(LEADER, "test.toml")
    assert any("Test Leader" in p and "'slots'" in p for p in exc.value.problems)
    bad = LEADER.replace('slots = ["top", "sideways"]', "").replace("[[leader.start]]\nsymbols = { mana = 1 }\n", "")
    with pytest.raises(CatalogueError) as exc:
        parse_set(bad, "test.toml")
    assert any("'start' must be a non-empty list" in p for p in exc.value.problems)


def test_the_report_lists_every_leader_with_provenance_implemented_and_tested():
    rows = [r for r in catalogue_rows(["twilight_garden"]) if r["kind"] == "leader"]
    assert sorted(r["name"] for r in rows) == ["Althena", "Boeglebee", "Hectoro", "Kojen and Khan", "Le Que",
                                                 "Sorcel", "Truffta", "Wayalieh"]
    by = {r["name"]: r for r in rows}
    assert all(r["implemented"] and r["tested"] for r in rows)
    assert by["Le Que"]["sides"]["start"]["neg_vp"] == 100 and by["Le Que"]["provenance"]["start.neg_vp"] == "rules"
    assert by["Sorcel"]["provenance"]["start.ability"] == "rules"
    assert by["Sorcel"]["provenance"]["upgrade_cost"] == "provisional"
    for name in ("Boeglebee", "Truffta", "Wayalieh"):
        assert by[name]["stand_in"] and by[name]["provenance"]["start.ability"] == "provisional"
        # The card reads like a printed card; where it comes from is the note.
        assert by[name]["sides"]["start"]["text"].startswith(("Harvest: ", "When Played: "))
        assert "no text" in by[name]["note"] and not by[name]["sides"]["start"]["text"].startswith("PROVISIONAL")
    assert not by["Sorcel"]["stand_in"] and by["Sorcel"]["note"] == ""


def test_every_provisional_cost_follows_the_cost_model():
    from mysticvale.cards.catalogue import builtin_set
    from mysticvale.cards.cost_model import advancement_cost, vale_vp
    from mysticvale.engine.card_types import SYMBOLS
    sd = builtin_set("twilight_garden")
    for t in sd.advancements:
        sym = {k: v for k, v in zip(SYMBOLS, t.symbols) if v}
        assert t.cost == advancement_cost(sym, t.end_vp, t.neg_vp, float(t.provenance["_ability_value"])), t.name
    for v in sd.vales:
        assert v.end_vp == vale_vp(v.level, v.cost), v.name


def test_a_custom_twilight_garden_file_with_leaders_round_trips_in_a_save(tmp_path):
    path = tmp_path / "tg.toml"
    path.write_text(builtin_path("twilight_garden").read_text(encoding="utf-8").replace(
        "upgrade_cost = 5", "upgrade_cost = 2"), encoding="utf-8")
    g = mv.new_game(players=2, seed=1, sets=("base", "twilight_garden"), catalogue=path, leaders=True)
    assert g.state.cat.leaders["Sorcel"].upgrade_cost == 2
    g.apply_action(g.legal_actions()[0])
    text = g.to_json()
    again = mv.Game.from_json(text)
    assert again.to_json() == text and again.state.cat.leaders["Sorcel"].upgrade_cost == 2
