"""``mysticvale simulate --engine native``: the same JSON per game as ``--engine python``
for the same seed and bots (the native core plays the same games)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mysticvale.bots.arena import run_matches
from mysticvale.cli.main import app

runner = CliRunner()


def _simulate(*args: str) -> dict:
    r = runner.invoke(app, ["simulate", "--json", *args])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("args", [
    ["--games", "4", "--bots", "greedy,random", "--seed", "5"],
    ["--games", "2", "--players", "3", "--bots", "greedy", "--sets", "base,vale_of_magic", "--ruleset", "german",
     "--seed", "8"],
    ["--games", "2", "--players", "4", "--bots", "random,greedy", "--sets", "base,twilight_garden",
     "--ruleset", "english", "--seed", "2"],
    ["--games", "2", "--bots", "greedy,random", "--seed", "3", "--max-rounds", "3"],
])
def test_native_games_give_the_same_json_as_python_games(core, args):
    python = _simulate(*args)
    native = _simulate(*args, "--engine", "native")
    assert native == python
    assert native["per_game"] and all(g["scores"] for g in native["per_game"])


def test_the_same_with_two_processes_and_the_engine_is_in_the_timing(core):
    args = ["--games", "3", "--bots", "greedy,random", "--seed", "11"]
    one = _simulate(*args, "--engine", "native")
    two = _simulate(*args, "--engine", "native", "--jobs", "2")
    assert one == two
    timed = _simulate(*args, "--engine", "native", "--timing")
    assert timed["timing"]["engine"] == "native"
    assert {k: v for k, v in timed.items() if k != "timing"} == one


def test_a_search_bot_with_an_iteration_budget_plays_the_same_games(core):
    spec = ["ismcts:think=0:iterations=2", "random"]
    a = run_matches(spec, games=1, seed=1)
    b = run_matches(spec, games=1, seed=1, engine="native")
    assert a["per_game"] == b["per_game"]


def test_an_unknown_engine_is_a_clear_error(core):
    r = runner.invoke(app, ["simulate", "--games", "1", "--engine", "rust"])
    assert r.exit_code == 2 and "unknown engine 'rust'" in r.output
