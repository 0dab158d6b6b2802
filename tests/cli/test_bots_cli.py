"""The bot levels in the terminal (issue 20): ``mysticvale bots`` lists the four levels by
strength with their ratings and descriptions in English and German, then the bots themselves;
``mysticvale play --bots druid`` seats a level under its name, and a level takes no ``--think``."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from mysticvale.bots.levels import levels
from mysticvale.cli.main import app

runner = CliRunner()


def run(args: list[str], script: str = ""):
    return runner.invoke(app, args, input=script, env={"COLUMNS": "200"})


def test_the_bots_command_lists_the_levels_by_strength_then_the_bots_themselves():
    res = run(["bots"])
    assert res.exit_code == 0, res.output
    out = res.output
    rows = [next(i for i, line in enumerate(out.splitlines()) if f" {lv.name} " in line) for lv in levels()]
    assert rows == sorted(rows)                   # gentlest first
    for lv in levels():
        assert lv.label("en") in out and str(lv.rating) in out and lv.spec in out
    assert out.index("The bots themselves") > max(out.index(lv.description("en")[:30]) for lv in levels())
    for raw in ("greedy", "ismcts", "random"):
        assert f" {raw} " in out.split("The bots themselves")[1]


def test_the_bots_command_speaks_german_and_refuses_an_unknown_language():
    res = run(["bots", "--language", "de"])
    assert res.exit_code == 0, res.output
    assert "Bots nach Stärke" in res.output and "Druide" in res.output and "Wertung" in res.output
    bad = run(["bots", "--language", "fr"])
    assert bad.exit_code == 2 and "unknown language 'fr'" in bad.output


def test_play_seats_a_level_by_its_name_and_gives_it_no_thinking_time(tmp_path):
    f = tmp_path / "g.json"
    res = run(["play", "--bots", "druid,seedling", "--think", "0.25", "--seed", "3", "--save", str(f)], "quit\n")
    assert res.exit_code == 0, res.output
    assert "Player 2 (Druid, bot)" in res.output and "Player 3 (Seedling, bot)" in res.output
    seats = json.loads(f.read_text())["seats"]
    assert [s.get("bot") for s in seats[1:]] == ["druid", "seedling"]
    assert all(s["options"] == {} for s in seats[1:])
