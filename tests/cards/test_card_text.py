"""Card text is for players (issue 13, item 6).

A card's ``text`` reads like the printed card, in the game's own terms; where a value
comes from goes into its ``note`` and a card standing in for an unpublished one says so
with ``stand_in``.  The loader refuses provenance words in a text, for the shipped data
and for a user's file alike; the text names every ability the engine implements for the
card, with the ability's numbers.
"""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

import mysticvale as mv
from mysticvale.cards.catalogue import (
    GENERIC_NOTE, PROVENANCE_WORDS, RULE_SET_WORDS, builtin_path, builtin_set, parse_set,
)
from mysticvale.cards.report import available_sets, catalogue_rows, check_file
from mysticvale.cli import cards as cards_cli
from mysticvale.engine.observation import card_view, copy_view, vale_view
from mysticvale.errors import CatalogueError

#: The words that start an ability of each trigger on a printed card.
TRIGGER_WORDS = {
    "when_played": "When Played:", "harvest": "Harvest:", "ongoing": "Ongoing:",
    "discard": "Discard:", "when_bought": "When Bought:", "end_game": "End of game:",
    "spoil_guard": "when you would spoil", "buy_discount": "you buy to sleeve on this card",
    "on_spoil": "spoil", "opponent_spoil": "an opponent spoils",
}


def _cards():
    """(set, kind, card type) of every built-in card, leader parts included."""
    for s in available_sets():
        sd = builtin_set(s)
        for t in sd.advancements:
            yield pytest.param(s, "advancement", t, id=f"{s}:{t.name}")
        for v in sd.vales:
            yield pytest.param(s, "vale", v, id=f"{s}:{v.name}")
        for t in sd.leader_parts:
            yield pytest.param(s, "leader part", t, id=f"{s}:{t.name}")


def _texts(t) -> list[str]:
    return [t.text] + [a.text for a in t.abilities if a.text]


@pytest.mark.parametrize("set_id,kind,t", list(_cards()))
def test_every_card_text_reads_like_a_printed_card(set_id, kind, t):
    for text in _texts(t):
        assert not PROVENANCE_WORDS.search(text), f"{t.name}: {text!r}"
        assert not RULE_SET_WORDS.search(text), f"{t.name} remarks on a rule set: {text!r}"
        assert "(optional)" not in text and "PROVISIONAL" not in text.upper()
    # An ability is named by its trigger's word, with the numbers and symbols it uses.
    for ab in t.abilities:
        text = ab.text or t.text
        assert TRIGGER_WORDS[ab.trigger].lower() in text.lower(), f"{t.name}: {ab.trigger} not in {text!r}"
        for key, value in ab.params.items():
            if isinstance(value, bool):
                continue
            assert re.search(rf"\b{re.escape(str(value))}\b", text), f"{t.name}: {key} = {value!r} not in {text!r}"
    # ...and a text names no ability the card does not have.
    triggers = {ab.trigger for ab in t.abilities}
    for trig, word in TRIGGER_WORDS.items():
        if trig in ("on_spoil", "buy_discount", "spoil_guard", "opponent_spoil"):
            continue
        if t.text.startswith(word) or f". {word}" in t.text:
            assert trig in triggers, f"{t.name}: the text says {word!r}, the card has no {trig} ability"
    if not t.abilities:
        assert t.text == "", f"{t.name} has no ability, so no text: {t.text!r}"


@pytest.mark.parametrize("set_id,kind,t", list(_cards()))
def test_stand_ins_and_notes(set_id, kind, t):
    """Generic cards and cards whose ability is ours are stand-ins, and say why."""
    ability_ours = bool(t.abilities) and t.provenance.get("ability", "provisional") == "provisional"
    assert t.stand_in == (t.generic or ability_ours), t.name
    if t.stand_in:
        assert t.note, f"{t.name} is a stand-in without a note"
    if t.generic and set_id != "twilight_garden":
        assert t.note == GENERIC_NOTE


def test_the_named_stand_ins_of_the_issue():
    rows = {r["name"]: r for r in catalogue_rows()}
    for name in ("Boeglebee", "Truffta", "Wayalieh", "Manadew Meadow", "Amberwood", "Direwolf Burrow",
                 "Shimmercliff Rookery", "Conclave of Ents", "Dawnsinger", "Generic Mana Bloom",
                 "Generic Twilight Vale I-1"):
        assert rows[name]["stand_in"] is True and rows[name]["note"], name
    for name in ("Sorcel", "Grovetender", "Calm Weather", "Hatchery", "Stag", "Early Sunrise"):
        assert rows[name]["stand_in"] is False, name
    # A card the rules only name has no text and says so in its note.
    assert rows["Early Sunrise"]["text"] == "" and "gives no text" in rows["Early Sunrise"]["note"]
    # Legendary is a property of the card, not text.
    assert rows["Blessed Stronghold"]["legendary"] is True and rows["Blessed Stronghold"]["text"] == ""
    assert rows["Calm Weather"]["legendary"] is False
    # Starting cards have no text (a blank card, Cursed Land and Fertile Soil print none).
    assert all(r["text"] == "" for r in rows.values() if r["kind"] == "starting")


# -- a user's file ----------------------------------------------------------------------
USER = """
[set]
id = "vale_of_magic"

[[advancement]]
name = "Printed Card"
level = 1
cost = 3
symbols = { mana = 1 }
abilities = [{ trigger = "harvest", effect = "gain_mana", amount = 1 }]
text = "Harvest: gain 1 mana."

[[advancement]]
name = "Level Two"
level = 2
cost = 5
symbols = { mana = 2 }

[[advancement]]
name = "Level Three"
level = 3
cost = 8
symbols = { mana = 3 }

[[vale]]
name = "Some Vale"
level = 1
cost = { animal = 1 }
end_vp = 2

[[vale]]
name = "Other Vale"
level = 2
cost = { sky = 3 }
end_vp = 5
"""


def test_a_users_file_without_note_or_stand_in_keeps_working(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(USER, encoding="utf-8")
    sd, problems = check_file(path)
    assert problems == []
    t = {x.name: x for x in sd.advancements}["Printed Card"]
    assert t.note == "" and t.stand_in is True           # its ability's provenance is not given: ours
    g = mv.new_game(players=2, seed=1, sets=("base", "vale_of_magic"), catalogue=path)
    assert g.legal_actions()


def test_the_shipped_files_without_their_notes_still_load():
    """A file written before notes existed (no note / stand_in lines) is still a good file."""
    for s in available_sets():
        text = builtin_path(s).read_text(encoding="utf-8")
        text = text.replace("upgrade_cost = 5\nstand_in = true", "upgrade_cost = 5\nprovisional = true")
        old = re.sub(r"(?m)^(note|stand_in) = .*\n", "", text)
        assert not re.search(r"(?m)^(note|stand_in) = ", old)
        sd = parse_set(old, f"old {s}")
        assert all(not t.note or t.generic for t in sd.advancements)
        # Stand-ins still follow from the data: generic cards, abilities of ours, old leader flags.
        assert {t.name for t in sd.advancements + sd.vales if t.stand_in} == \
            {t.name for t in builtin_set(s).advancements + builtin_set(s).vales if t.stand_in}
        assert {ld.name for ld in sd.leaders if ld.stand_in} == {ld.name for ld in builtin_set(s).leaders if ld.stand_in}


@pytest.mark.parametrize("bad", [
    'text = "Harvest (provisional text): gain 1 mana."',
    'text = "Named in the file 003 card list; file 003 gives no text."',
    'text = "Legendary (top and middle slots; our choice)."',
    'text = "PROVISIONAL: Harvest: gain 1 mana."',
    'text = "Harvest: gain 1 mana (yucata rules: or 2 mana)."',
    'text = "Harvest: gain 1 mana; under the German rules, 2."',
    'text = "Harvest: gain 1 mana (a rule set may amend this)."',
])
def test_a_text_with_provenance_words_is_refused_naming_the_card(tmp_path, bad):
    path = tmp_path / "mine.toml"
    path.write_text(USER.replace('text = "Harvest: gain 1 mana."', bad), encoding="utf-8")
    with pytest.raises(CatalogueError) as exc:
        mv.new_game(players=2, seed=1, sets=("base", "vale_of_magic"), catalogue=path)
    assert any("'Printed Card'" in p and "'note'" in p for p in exc.value.problems), exc.value.problems
    sd, problems = check_file(path)
    assert sd is None and len(problems) == 1
    assert problems[0].startswith("line 6: advancement 'Printed Card': 'text' is what players read")
    result = CliRunner().invoke(_cli(), ["--check", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 1 and "Printed Card" in result.output and "note" in result.output


def test_aether_tree_reads_as_printed_and_its_yucata_reading_is_a_note():
    """The printed Aether Tree says 'a card in your field'; yucata's amendment (the on-deck
    card too) is how one rule set reads it, so it is a note, not part of the card's text."""
    t = {v.name: v for v in builtin_set("vale_of_magic").vales}["Aether Tree"]
    assert "on-deck" not in t.text and "yucata" not in t.text.lower()
    assert t.text.endswith("on one card in your field until your next Prep phase.")
    assert "yucata" in t.note and "on-deck card" in t.note and not t.stand_in
    row = {r["name"]: r for r in catalogue_rows()}["Aether Tree"]
    assert row["text"] == t.text and row["note"] == t.note


def test_a_rule_set_remark_is_refused_with_its_own_reason(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(USER.replace('text = "Harvest: gain 1 mana."',
                                 'text = "Harvest: gain 1 mana (yucata rules: or on your on-deck card)."'),
                    encoding="utf-8")
    sd, problems = check_file(path)
    assert sd is None and len(problems) == 1
    assert "remarks on a rule set ('yucata')" in problems[0] and "'note'" in problems[0], problems


def test_an_ability_text_is_checked_too_and_a_note_may_say_anything(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(USER.replace(
        'amount = 1 }]', 'amount = 1, text = "Harvest: gain 1 mana (our reading)." }]').replace(
        'text = "Harvest: gain 1 mana."', 'text = "Harvest: gain 1 mana."\nnote = "Provisional: file 000 says so."'),
        encoding="utf-8")
    sd, problems = check_file(path)
    assert len(problems) == 1 and "ability 1" in problems[0] and "'our reading'" in problems[0]


def test_a_generic_card_cannot_say_it_is_printed():
    text = USER.replace('name = "Level Two"', 'name = "Level Two"\ngeneric = true\nstand_in = false')
    with pytest.raises(CatalogueError) as exc:
        parse_set(text, "mine.toml")
    assert any("'Level Two'" in p and "stand_in" in p for p in exc.value.problems)


def test_a_leaders_old_provisional_flag_is_its_stand_in():
    sd = builtin_set("twilight_garden")
    by = {ld.name: ld for ld in sd.leaders}
    assert by["Boeglebee"].stand_in and by["Boeglebee"].provisional and not by["Sorcel"].stand_in
    parts = {t.name: t for t in sd.leader_parts}
    assert parts["Boeglebee (starting)"].stand_in and "Boeglebee" in parts["Boeglebee (starting)"].note
    assert not parts["Sorcel (starting)"].stand_in and parts["Sorcel (starting)"].note == ""


# -- the CLI ------------------------------------------------------------------------------
def _cli():
    app = typer.Typer()
    app.command()(cards_cli.command)
    return app


def test_cards_json_reports_text_note_and_stand_in():
    result = CliRunner().invoke(_cli(), ["--json"], env={"COLUMNS": "260"})
    rows = {r["name"]: r for r in json.loads(result.output)}
    assert all({"text", "note", "stand_in"} <= set(r) for r in rows.values())
    d = rows["Dawnsinger"]
    assert d["text"].startswith("Ongoing: ") and "ours" in d["note"] and d["stand_in"] is True
    assert rows["Calm Weather"]["note"] == "" and rows["Calm Weather"]["stand_in"] is False
    assert rows["Stag"]["provenance"]["symbols.guardian"] == "rules"


def test_cards_table_marks_the_cards_that_are_partly_ours():
    result = CliRunner().invoke(_cli(), ["--sets", "base"], env={"COLUMNS": "300"})
    assert result.exit_code == 0
    assert "Dawnsinger †" in result.output and "Calm Weather †" not in result.output
    assert "† Dawnsinger: File 000 shows that Dawnsinger has a text ability" in result.output


# -- the observation --------------------------------------------------------------------
def test_card_views_carry_the_stand_in_and_provisional_values_but_no_note():
    """What a player's view says of a card's sources: whether it is a stand-in and which of its
    values are estimated.  The card data's notes (file numbers, "ours") are for the catalogue's
    readers and are in no view (issue 21 item 1)."""
    g = mv.new_game(players=2, seed=1, sets=("base", "vale_of_magic", "twilight_garden"), leaders=True)
    st = g.state
    cat = st.cat
    view = copy_view(st, cat.copy_id("Dawnsinger", "top"))
    assert view["text"].startswith("Ongoing: ") and view["stand_in"] is True and "note" not in view
    assert "ours" in cat.advancements["Dawnsinger"].note      # the data has a note: the view leaves it out
    assert "symbols" in view["provisional"] and "ability" in view["provisional"]
    soil = copy_view(st, cat.soil_copies["top"])
    assert "note" not in soil and soil["stand_in"] is False and "cost" not in soil["provisional"]
    stronghold = copy_view(st, cat.copy_id("Blessed Stronghold", "middle+bottom"))
    assert stronghold["legendary"] is True and stronghold["text"] == ""
    v = cat.vale_index["Manadew Meadow"]
    st.vale_types.append(v)
    vv = vale_view(st, len(st.vale_types) - 1)
    assert vv["stand_in"] is True and "note" not in vv and "ability" in vv["provisional"]
    # A card: its stand-in advancements, by name.
    card = next(c for c, layers in enumerate(st.cards) if not layers)
    st.cards[card] = (cat.copy_id("Dawnsinger", "top"), cat.copy_id("Calm Weather", "middle"))
    cv = card_view(st, card)
    assert "notes" not in cv and cv["stand_ins"] == ["Dawnsinger"]
    assert set(cv["provisional"]) == {"Dawnsinger", "Calm Weather"}   # Calm Weather's cost is ours
    # Every view of a fresh observation has the fields (JSON-ready).
    obs = g.observe(0)
    json.dumps(obs)
    for c in (c for row in obs["commons"].values() for c in row if c):
        assert {"stand_in", "provisional", "legendary"} <= set(c) and "note" not in c
    for c in obs["players"][0]["deck"]:
        assert {"stand_ins", "provisional"} <= set(c) and "notes" not in c
