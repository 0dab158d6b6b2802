"""The self-play generator (issue 20): ``learn.selfplay.generate`` and ``mysticvale selfplay``.

Its positions are the arena's games seen at the first decision of every turn: they do not
depend on how many processes played them or how the run was cut, a positions file reads back
equal, and a file that is not one is refused whole.  (The Ray backend's tests are beside the
arena's, in ``tests/bots/test_arena_ray.py``.)"""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from mysticvale.bots.arena import run_matches
from mysticvale.bots.value_model import FEATURES
from mysticvale.cli.main import app
from mysticvale.errors import SaveError
from mysticvale.learn.selfplay import ARRAYS, Positions, generate, play_positions


def same(a: Positions, b: Positions) -> bool:
    return all(np.array_equal(getattr(a, k), getattr(b, k)) for k in ARRAYS)


@pytest.fixture(scope="module")
def small() -> Positions:
    return generate(["greedy", "random"], games=6, seed=4)


def test_positions_are_the_arenas_games_seen_at_each_turns_first_decision(small):
    assert small.features.shape == (len(small), 2, len(FEATURES))
    assert sorted(set(small.game.tolist())) == list(range(6))
    # each position's results are the game's: shares of the win that add up to one
    assert np.allclose(small.result.sum(axis=1), 1.0)
    arena = run_matches(["greedy", "random"], games=6, seed=4)["per_game"]
    for g in range(6):
        rows = small.game == g
        turns = small.turn[rows]
        assert np.all(np.diff(turns) > 0), "one position per turn, in order"
        winners = arena[g]["winners"]
        seats = arena[g]["seats"]
        won = [1.0 / len(winners) if seats[q] in winners else 0.0 for q in range(2)]
        assert small.result[rows][0].tolist() == won, f"game {g}: the arena's winners"
    # the seat on move takes turns, and the VP pool only drains
    assert set(small.mover.tolist()) == {0, 1}
    first = small.game == 0
    assert np.all(np.diff(small.pool[first]) <= 0)
    assert small.meta["bots"] == ["greedy", "random"] and small.meta["features"] == list(FEATURES)


def test_processes_and_the_cut_of_the_run_change_no_position(small):
    assert same(generate(["greedy", "random"], games=6, seed=4, jobs=2), small)
    # game 3 alone is the run's game 3
    alone = play_positions(["greedy", "random"], 4, 3, 2, ("base",), "yucata")
    rows = small.game == 3
    assert np.array_equal(np.array(alone["features"]), small.features[rows])
    assert alone["turn"] == small.turn[rows].tolist()


def test_a_file_reads_back_equal_and_a_bad_one_is_refused(small, tmp_path):
    path = tmp_path / "p.npz"
    small.save(path)
    back = Positions.load(path)
    assert same(back, small) and back.meta == small.meta
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a numpy file at all")
    with pytest.raises(SaveError, match="not a positions file"):
        Positions.load(bad)
    with pytest.raises(SaveError, match="not a positions file"):
        Positions.load(tmp_path / "missing.npz")
    arrays = {k: getattr(small, k) for k in ARRAYS}
    np.savez(bad, meta=np.array(json.dumps(small.meta)), **{k: v for k, v in arrays.items() if k != "result"})
    with pytest.raises(SaveError, match="no result"):
        Positions.load(bad)
    np.savez(bad, meta=np.array(json.dumps({**small.meta, "format": 99})), **arrays)
    with pytest.raises(SaveError, match="format 99"):
        Positions.load(bad)
    np.savez(bad, meta=np.array(json.dumps(small.meta)), **{**arrays, "turn": arrays["turn"][:-1]})
    with pytest.raises(SaveError, match="turn has"):
        Positions.load(bad)
    broken = arrays["features"].copy()
    broken[0, 0, 0] = np.nan
    np.savez(bad, meta=np.array(json.dumps(small.meta)), **{**arrays, "features": broken})
    with pytest.raises(SaveError, match="not a finite number"):
        Positions.load(bad)


def test_bad_options_are_refused_before_any_game():
    with pytest.raises(ValueError, match="unknown bot 'nobody'"):
        generate(["nobody"], games=2)
    with pytest.raises(ValueError, match="players must be 2 to 4"):
        generate(["greedy"], games=2, players=5)
    with pytest.raises(ValueError, match="an address is for the ray backend"):
        generate(["greedy"], games=2, address="auto")
    with pytest.raises(ValueError, match="3 bots named for 2 seats"):
        generate(["greedy", "random", "greedy"], games=2)


def test_the_command_writes_the_positions_with_a_summary(tmp_path):
    out = tmp_path / "positions.npz"
    r = CliRunner().invoke(app, ["selfplay", "--games", "3", "--seed", "4", "--bots", "greedy,random",
                                 "--out", str(out)], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    got = Positions.load(out)
    assert f"{len(got)} positions from 3 games written to {out}" in r.output
    assert same(got, generate(["greedy", "random"], games=3, seed=4))
    r = CliRunner().invoke(app, ["selfplay", "--games", "2", "--bots", "nobody", "--out", str(tmp_path / "x.npz")])
    assert r.exit_code == 2 and "unknown bot 'nobody'" in r.output and not (tmp_path / "x.npz").exists()
    r = CliRunner().invoke(app, ["selfplay", "--games", "2", "--out", str(tmp_path / "no" / "x.npz")])
    assert r.exit_code == 2 and "does not exist" in r.output
    taken = tmp_path / "a folder"            # a place that cannot take the file: exit status 1
    taken.mkdir()
    r = CliRunner().invoke(app, ["selfplay", "--games", "1", "--out", str(taken)], env={"COLUMNS": "200"})
    assert r.exit_code == 1 and f"cannot write {taken}" in r.output and taken.is_dir(), r.output
