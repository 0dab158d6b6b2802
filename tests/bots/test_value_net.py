"""The value network (``bots/value_net.py``): its inputs, the shipped weights and their
record, a weights file refused whole when it is not one, and the ISMCTS bot scoring with it."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mysticvale as mv
from mysticvale.bots import SeatView, make_bot
from mysticvale.bots.greedy import Greedy
from mysticvale.bots.value_model import FEATURES, ValueModel
from mysticvale.bots.value_net import INPUTS, SHIPPED, Net, ValueNet, net_inputs, shipped, strengths
from mysticvale.errors import SaveError


def test_the_inputs_hold_the_seat_its_strongest_rival_and_the_value_models_logit():
    f = np.zeros((3, len(FEATURES)))
    f[1, 0], f[2, 0] = 4.0, 6.0          # points: seat 2 leads
    x = net_inputs(f, mover=1, pool=20, rounds=5.0, first=2)
    k = len(FEATURES)
    assert x.shape == (3, len(INPUTS))
    # seat 0's rival: seat 1 on move (4 + 3.7 = 7.7 strength) beats seat 2's 6
    assert x[0, k] == 4.0 and x[0, 2 * k + 1] == 1.0
    assert x[1, k] == 6.0 and x[1, 2 * k] == 1.0     # seat 1's rival is seat 2; seat 1 is on move
    assert list(x[0, 2 * k + 2:2 * k + 5]) == [20.0, 5.0, 3.0]
    # places in the turn order from the start player (seat 2): seat 0 is second, its rival third
    assert [x[p, 2 * k + 5] for p in range(3)] == [1.0, 2.0, 0.0] and x[0, 2 * k + 6] == 2.0
    # the last input is the value model's own logit: its win chance is the logistic of it
    u = strengths(f) + np.array([0, 3.7, 0])
    assert x[2, -1] == pytest.approx((u[2] - u[1]) / (3.68 + 0.325 * 20))


def test_the_shipped_weights_read_and_say_how_they_were_made():
    net = shipped()
    rec = net.record
    for key in ("command", "seed", "games", "positions", "held_out_loss", "value_model_loss", "library"):
        assert key in rec, key
    assert rec["command"].startswith("mysticvale train ")
    assert net.layers[0][0].shape[0] == len(INPUTS) and net.layers[-1][0].shape[1] == 1
    assert SHIPPED.stat().st_size < 200_000, "a small file"


def test_the_network_agrees_with_the_value_model_on_who_is_ahead():
    """Along a greedy game its chances stay chances, and late in the game the seat the value
    model makes a clear favourite is the network's favourite too."""
    g = mv.new_game(players=2, seed=8)
    model = ValueModel(Greedy(seed=1))
    net = ValueNet(model)
    bots = [make_bot("greedy", seed=s) for s in range(2)]
    agree = clear = 0
    while not g.is_over():
        p = g.current_player
        model.ev._remember(g.observe(p))
        a, b = net.win_chances(g), model.win_chances(g)
        assert all(0 < c < 1 for c in a)
        if abs(b[0] - 0.5) > 0.3:
            clear += 1
            agree += (a[0] > 0.5) == (b[0] > 0.5)
        g.apply_action(bots[p].act(SeatView(g, p)))
    assert clear > 5 and agree >= 0.9 * clear
    assert net.win_chances(g) == model.win_chances(g), "a finished game: who won"


def test_a_file_that_is_not_a_network_is_refused_whole(tmp_path):
    good = shipped().to_dict()
    path = tmp_path / "net.json"

    def refused(d, match):
        path.write_text(json.dumps(d) if not isinstance(d, str) else d)
        with pytest.raises(SaveError, match=match):
            Net.load(path)

    refused("{not json", "not a value network file")
    refused({**good, "format": 9}, "format 9")
    refused({**good, "inputs": good["inputs"][:-1]}, "other inputs")
    refused({**good, "mean": good["mean"][:-1]}, "means and scales")
    refused({**good, "scale": [0.0] * len(INPUTS)}, "more than 0")
    refused({**good, "layers": []}, "at least one layer")
    refused({**good, "layers": good["layers"][:1]}, "one logit")
    refused({**good, "layers": [{"weights": [[1.0]], "bias": [0.0]}]}, "layer 1 does not fit")
    refused({**good, "layers": [{"weights": "x"}]}, "malformed")
    nan = json.loads(json.dumps(good))
    nan["layers"][0]["bias"][0] = float("nan")
    refused(nan, "not a finite number")
    with pytest.raises(SaveError, match="not a value network file"):
        Net.load(tmp_path / "missing.json")
    path.write_text(json.dumps(good))
    assert Net.load(path).to_dict() == good, "a good file reads back equal"


def test_ismcts_scores_with_the_network():
    bot = make_bot("ismcts", seed=3, think=0, iterations=6, value="net")
    g = mv.new_game(players=2, seed=3)
    while len(g.legal_actions()) < 2:
        g.apply_action(g.legal_actions()[0])
    action = bot.act(SeatView(g, g.current_player))
    assert action in g.legal_actions() and bot.last["iterations"] == 6
    with pytest.raises(ValueError, match="value must be 'model', 'greedy' or 'net', not 'best'"):
        make_bot("ismcts", seed=3, value="best")
