"""The self-play generator on the native core (``learn.selfplay.generate(engine="native")``):
the native engine and its twins of the bots make the same moves as the Python ones, so the
positions are the same, bit for bit."""

from __future__ import annotations

import numpy as np

from mysticvale.learn.selfplay import ARRAYS, generate


def test_the_native_core_plays_the_same_positions(core):
    for bots, players, sets, leaders in ((["greedy", "random"], 2, ("base",), False),
                                         (["ismcts:iterations=8", "greedy"], 3, ("base", "twilight_garden"), True)):
        py = generate(bots, games=3, players=players, seed=4, sets=sets, leaders=leaders)
        rs = generate(bots, games=3, players=players, seed=4, sets=sets, leaders=leaders, engine="native")
        for k in ARRAYS:
            assert np.array_equal(getattr(py, k), getattr(rs, k)), (bots, k)
        assert rs.meta["engine"] == "native" and py.meta["engine"] == "python"


def test_the_command_takes_the_engine(core, tmp_path):
    from typer.testing import CliRunner

    from mysticvale.cli.main import app
    from mysticvale.learn.selfplay import Positions

    out = tmp_path / "p.npz"
    r = CliRunner().invoke(app, ["selfplay", "--games", "2", "--seed", "5", "--bots", "greedy,random", "--engine",
                                 "native", "--out", str(out)], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    got = Positions.load(out)
    want = generate(["greedy", "random"], games=2, seed=5)
    assert got.meta["engine"] == "native" and all(np.array_equal(getattr(got, k), getattr(want, k)) for k in ARRAYS)
    r = CliRunner().invoke(app, ["selfplay", "--games", "2", "--engine", "steam", "--out", str(tmp_path / "x.npz")])
    assert r.exit_code == 2 and "steam" in r.output and not (tmp_path / "x.npz").exists()
