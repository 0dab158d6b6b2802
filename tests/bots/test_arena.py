"""The arena: statistics, seat rotation, seeding, parallel runs, and the CLI."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mysticvale.bots.arena import game_seed, labels_for, parse_bot, run_matches
from mysticvale.cli.main import app


def _strip(r):
    r = dict(r)
    r.pop("timing")
    return r


def test_result_fields_and_consistency():
    r = run_matches(["greedy", "random"], games=6, seed=3)
    for key in ("games", "wins", "win_rate", "win_rate_ci95", "ties", "scores", "rounds", "per_game"):
        assert key in r
    assert r["games"] == 6 and set(r["wins"]) == {"greedy", "random"}
    assert sum(r["wins"].values()) + r["ties"] == 6
    for lb in r["bots"]:
        lo, hi = r["win_rate_ci95"][lb]
        assert lo <= r["win_rate"][lb] <= hi
        assert r["win_rate"][lb] == pytest.approx(r["wins"][lb] / 6, abs=1e-4)
    # Seats rotate: the first seat alternates between the two bots.
    assert [g["seats"][0] for g in r["per_game"]] == ["greedy", "random"] * 3
    assert r["wins"]["greedy"] >= 5


def test_same_seed_same_result_and_other_seed_other_games():
    a = run_matches(["greedy", "random"], games=4, seed=9)
    b = run_matches(["greedy", "random"], games=4, seed=9)
    c = run_matches(["greedy", "random"], games=4, seed=10)
    assert _strip(a) == _strip(b)
    assert [g["seed"] for g in a["per_game"]] != [g["seed"] for g in c["per_game"]]
    assert game_seed(9, 0) != game_seed(9, 1)


def test_parallel_run_equals_serial_run():
    serial = run_matches(["greedy", "greedy"], games=6, seed=4, jobs=1)
    parallel = run_matches(["greedy", "greedy"], games=6, seed=4, jobs=2)
    assert _strip(serial) == _strip(parallel)
    assert serial["bots"] == ["greedy#1", "greedy#2"]


def test_a_game_at_the_round_limit_is_stopped_scored_as_it_stands_and_counted():
    """The arena's guard against stalemates the rules do not end (bots/arena.py)."""
    r = run_matches(["greedy", "random"], games=2, seed=3, max_rounds=3)
    assert r["unfinished"] == 2
    for g in r["per_game"]:
        assert g["unfinished"] and g["rounds"] == 4      # stopped as round 4 began
        best = max(g["scores"])          # the leaders on points (then the tie-break) win
        assert g["winners"] and all(g["scores"][g["seats"].index(w)] == best for w in g["winners"])
    full = run_matches(["greedy", "random"], games=2, seed=3)
    assert full["unfinished"] == 0 and not any(g["unfinished"] for g in full["per_game"])
    with pytest.raises(ValueError, match="max_rounds"):
        run_matches(["greedy", "random"], games=1, max_rounds=0)


def test_three_players_and_repeated_names():
    r = run_matches(["greedy", "random"], games=3, players=3, seed=2)
    assert r["bots"] == ["greedy", "random", "greedy#2"] or len(r["bots"]) == 3
    assert all(len(g["seats"]) == 3 for g in r["per_game"])


def test_games_with_leaders_begin_with_each_player_choosing_one():
    from mysticvale.bots.arena import play_game

    sets = ("base", "twilight_garden")
    r = run_matches(["greedy", "random"], games=2, players=3, seed=4, sets=sets, leaders=True)
    assert r["leaders"] is True and r["games"] == 2 and r["unfinished"] == 0
    assert run_matches(["greedy", "random"], games=2, players=3, seed=4, sets=sets)["leaders"] is False
    # the same game seed, with the leaders' choice first (and so another game)
    with_leaders = play_game(["greedy", "random", "random"], 4, 0, 3, sets, "yucata", leaders=True)
    without = play_game(["greedy", "random", "random"], 4, 0, 3, sets, "yucata")
    assert with_leaders["seed"] == without["seed"]
    assert (with_leaders["decisions"], with_leaders["scores"]) != (without["decisions"], without["scores"])
    with pytest.raises(ValueError, match="add 'twilight_garden' to sets"):
        run_matches(["greedy", "random"], games=1, leaders=True)


def test_bot_specs_and_errors():
    assert parse_bot("ismcts:think=0.25:iterations=50") == ("ismcts", {"think": 0.25, "iterations": 50})
    assert labels_for(["a", "b", "a"]) == ["a#1", "b", "a#2"]
    with pytest.raises(ValueError, match="unknown bot"):
        run_matches(["greedy", "nobody"], games=1)
    with pytest.raises(ValueError, match="key=value"):
        parse_bot("ismcts:fast")
    with pytest.raises(ValueError, match="seats"):
        run_matches(["greedy", "random", "greedy"], games=1, players=2)


def test_ismcts_in_the_arena_is_seeded_with_an_iteration_budget():
    spec = ["ismcts:think=0:iterations=2", "random"]
    a = run_matches(spec, games=1, seed=1)
    b = run_matches(spec, games=1, seed=1)
    assert _strip(a) == _strip(b)


runner = CliRunner()


def test_cli_json_is_one_object_and_reproducible():
    args = ["simulate", "--games", "4", "--bots", "greedy,random", "--seed", "5", "--json"]
    r1 = runner.invoke(app, args)
    r2 = runner.invoke(app, args + ["--jobs", "2"])
    assert r1.exit_code == 0, r1.output
    assert r2.exit_code == 0, r2.output
    d1, d2 = json.loads(r1.stdout), json.loads(r2.stdout)
    assert d1 == d2
    assert d1["games"] == 4 and "greedy" in d1["wins"] and "ties" in d1 and "timing" not in d1
    assert set(d1["win_rate"]) == {"greedy", "random"}


def test_cli_simulates_the_german_rules():
    r = runner.invoke(app, ["simulate", "--games", "2", "--bots", "greedy,random", "--seed", "3",
                            "--ruleset", "german", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["ruleset"] == "german" and d["games"] == 2


def test_cli_summary_and_plot(tmp_path):
    png = tmp_path / "results.png"
    r = runner.invoke(app, ["simulate", "--games", "2", "--bots", "greedy,random", "--plot", str(png)])
    assert r.exit_code == 0, r.output
    assert "win %" in r.output and "greedy" in r.output and "rounds" in r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_cli_plays_with_leaders_and_says_so():
    res = runner.invoke(app, ["simulate", "--games", "2", "--players", "3", "--bots", "greedy,random",
                              "--sets", "base,twilight_garden", "--leaders", "--seed", "3"],
                        env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    assert "base+twilight_garden with leaders, yucata rules" in res.output
    res = runner.invoke(app, ["simulate", "--games", "1", "--leaders"])
    assert res.exit_code == 2 and "add 'twilight_garden' to sets" in res.output


def test_cli_bad_input_is_a_clear_error():
    r = runner.invoke(app, ["simulate", "--games", "2", "--bots", "greedy,nobody"])
    assert r.exit_code == 2 and "unknown bot" in r.output
    r = runner.invoke(app, ["simulate", "--games", "2", "--sets", "base,nosuchset"])
    assert r.exit_code == 2 and "nosuchset" in r.output
