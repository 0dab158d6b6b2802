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
