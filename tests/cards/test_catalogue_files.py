"""Users' own catalogue files: `mysticvale cards --check FILE`, new_game(..., catalogue=FILE),
and the catalogue listing (`mysticvale cards`, `--json`, `--report`)."""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

import mysticvale as mv
from mysticvale.cards.catalogue import builtin_path, builtin_set, parse_set
from mysticvale.cards.report import catalogue_rows, check_file, component_report
from mysticvale.cli import cards as cards_cli
from invariants import play_random_game

VOM = builtin_path("vale_of_magic").read_text(encoding="utf-8")
NAMED = ["Canopy Explorer", "Goldenwing Gryphon", "Hatchery", "Lifetap Oracle", "Ley Line Overflow",
         "Sporeling Reclaimer", "Aether Tree", "Fauna Hollow", "Sunwell Temple", "Vale of Magic",
         "Wood Sprite Hoard", "Manadew Meadow", "Conclave of Ents", "Amberwood", "Direwolf Burrow",
         "Shimmercliff Rookery"]


def _cli():
    app = typer.Typer()
    app.command()(cards_cli.command)
    return app


def _run(*args):
    return CliRunner().invoke(_cli(), list(args), env={"COLUMNS": "260"})


def _edit(text: str, card: str, old: str, new: str) -> str:
    """Replace ``old`` by ``new`` in the block of ``card`` only."""
    start = text.index(f'name = "{card}"')
    end = text.find("[[", start)
    end = len(text) if end < 0 else end
    block = text[start:end]
    assert old in block, (card, old)
    return text[:start] + block.replace(old, new, 1) + text[end:]


@pytest.fixture
def own_file(tmp_path):
    """A user's file with printed values they own: Hatchery costs 2 (declared 'public')."""
    text = _edit(VOM, "Hatchery", "cost = 5", "cost = 2")
    text = _edit(text, "Hatchery", 'provenance = { ability = "rules" }',
                 'provenance = { ability = "rules", cost = "public" }')
    path = tmp_path / "my_vale_of_magic.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_users_file_is_checked_ok_and_played_with(own_file):
    sd, problems = check_file(own_file)
    assert problems == [] and sd.id == "vale_of_magic"
    g = mv.new_game(players=3, seed=4, sets=("base", "vale_of_magic"), catalogue=own_file)
    assert g.state.cat.advancements["Hatchery"].cost == 2
    assert g.state.cat.source == "custom"
    # The game saves and loads with the user's values inside the save.
    again = mv.Game.from_json(g.to_json())
    assert again.state.cat.advancements["Hatchery"].cost == 2
    result = _run("--check", str(own_file))
    assert result.exit_code == 0 and "OK" in result.output


def test_a_game_with_a_users_file_plays_to_the_end(own_file):
    game = play_random_game(2, 21, deep_every=25, sets=("base", "vale_of_magic"), catalogue=own_file)
    assert game.winners()


BROKEN_CARDS = """
[[advancement]]
name = "Broken Owl"
level = 2
colour = "blue"
symbols = { mana = 1, fire = 2 }
abilities = [{ trigger = "harvest", effect = "summon_dragons" }]
provenance = { cost = "guessed" }

[[vale]]
name = "Broken Vale"
level = 3
cost = { animal = 0, forest = 0, sky = 0, any = 0 }

[[advancement]]
name = "Broken Canopy"
level = 1
cost = 3
abilities = [{ trigger = "harvest", effect = "field_from_deck_per_symbol", symbol = "moon" }]
"""


def test_a_broken_file_gets_every_error_with_card_name_and_line(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text(VOM + BROKEN_CARDS, encoding="utf-8")
    sd, problems = check_file(path)
    assert sd is None
    text = "\n".join(problems)
    for expected in ("unknown field 'colour'", "unknown symbol 'fire'", "unknown effect 'summon_dragons'",
                     "missing required field 'cost'", "provenance of 'cost' must be one of",
                     "'level' = 3 is out of range", "a vale must cost at least one spirit symbol",
                     "parameter 'symbol' must be one of"):
        assert expected in text, expected
    owl_line = VOM.count("\n") + BROKEN_CARDS.splitlines().index('name = "Broken Owl"') + 1
    assert all(p.startswith(f"line {owl_line}: advancement 'Broken Owl'") for p in problems if "Broken Owl" in p)
    assert any(p.startswith("line ") and "vale 'Broken Vale'" in p for p in problems)
    # Refused whole: a game cannot be made with it, and nothing of it is half-loaded.
    with pytest.raises(mv.CatalogueError) as exc:
        mv.new_game(sets=("base", "vale_of_magic"), catalogue=path)
    assert len(exc.value.problems) == len(problems)
    result = _run("--check", str(path))
    assert result.exit_code == 1
    assert "refused whole" in result.output and "Broken Owl" in result.output
    out = json.loads(_run("--check", str(path), "--json").output)
    assert out["ok"] is False and len(out["problems"]) == len(problems)


def test_a_toml_syntax_error_names_its_line(tmp_path):
    path = tmp_path / "syntax.toml"
    path.write_text(VOM + '\n[[advancement]]\nname = "Half\n', encoding="utf-8")
    sd, problems = check_file(path)
    assert sd is None and len(problems) == 1
    assert re.search(r"line \d+", problems[0]) and "not valid TOML" in problems[0]
    assert _run("--check", str(path)).exit_code == 1


def test_a_file_that_breaks_the_game_as_a_whole_is_refused(tmp_path):
    # Valid alone, but it reuses a base card's name.
    text = _edit(VOM, "Hatchery", 'name = "Hatchery"', 'name = "Aurora"')
    path = tmp_path / "dup.toml"
    path.write_text(text, encoding="utf-8")
    sd, problems = check_file(path)
    assert sd is None and any("Aurora" in p and "two sets" in p for p in problems)


def test_missing_file_is_a_clear_error(tmp_path):
    sd, problems = check_file(tmp_path / "nope.toml")
    assert sd is None and "cannot read" in problems[0]
    assert _run("--check", str(tmp_path / "nope.toml")).exit_code == 1


def test_cards_json_lists_every_vale_of_magic_card_implemented_and_tested():
    result = _run("--json", "--sets", "base,vale_of_magic")
    assert result.exit_code == 0
    rows = json.loads(result.output)
    by_name = {r["name"]: r for r in rows}
    for name in NAMED:
        r = by_name[name]
        assert r["set"] == "vale_of_magic"
        assert r["kind"] in ("advancement", "vale")
        assert r["implemented"] is True and r["tested"] is True, name
        assert set(r["provenance"].values()) <= {"rules", "public", "provisional"}
        assert {"name", "set", "kind", "level", "copies", "provenance", "implemented", "tested"} <= set(r)
    assert by_name["Aether Tree"]["provenance"]["end_vp"] == "rules"
    assert by_name["Conclave of Ents"]["provenance"] == {
        "level": "public", "cost": "public", "end_vp": "provisional", "neg_vp": "provisional",
        "copies": "provisional", "ability": "provisional"}
    assert by_name["Manadew Meadow"]["provenance"]["ability"] == "provisional"
    assert by_name["Hatchery"]["copies"] == 3 and by_name["Hatchery"]["provenance"]["cost"] == "provisional"
    assert {r["kind"] for r in rows} >= {"starting", "advancement", "vale"}
    # Generic cards are flagged.
    assert all(r["generic"] == r["name"].startswith("Generic") for r in rows)


def test_cards_table_and_report_print():
    table = _run("--sets", "vale_of_magic")
    assert table.exit_code == 0 and "Hatchery" in table.output
    report = _run("--report")
    assert report.exit_code == 0 and "vale_of_magic" in report.output
    bad = _run("--sets", "atlantis")
    assert bad.exit_code == 2 and "unknown set" in bad.output


def test_component_report_matches_the_printed_counts_of_vale_of_magic():
    rows = component_report(builtin_set("vale_of_magic"))
    adv = {r["level"]: r for r in rows if r["kind"] == "advancement"}
    assert [adv[l]["copies"] for l in (1, 2, 3)] == [18, 21, 15]
    assert [adv[l]["types"] for l in (1, 2, 3)] == [6, 7, 5]
    vales = {r["level"]: r for r in rows if r["kind"] == "vale"}
    assert vales[1]["copies"] == 9 and vales[2]["copies"] == 9
    assert all(r["status"].startswith("matches") for r in rows)


def test_component_report_says_where_a_catalogue_has_fewer_types(tmp_path):
    # A user file with only the named cards of the set (no generic stand-ins).
    blocks = re.split(r"(?=\n\[\[)", VOM)
    kept = [b for b in blocks if "generic = true" not in b]
    sd = parse_set("".join(kept), "named-only")
    rows = component_report(sd)
    l1 = next(r for r in rows if r["kind"] == "advancement" and r["level"] == 1)
    assert l1["types"] == 2 and l1["status"] == "fewer types than printed: 4 missing"
    v2 = next(r for r in rows if r["kind"] == "vale" and r["level"] == 2)
    assert v2["status"] == "fewer types than printed: 6 missing"


def test_catalogue_rows_reject_an_unknown_set():
    with pytest.raises(ValueError, match="unknown set"):
        catalogue_rows(["atlantis"])
