"""Training the value network (issue 20): ``learn.train.train`` and ``mysticvale train``.

A tiny data set is enough to check what matters: the held-out games are never trained on,
the held-out log-loss is measured after every pass and the best pass is kept, the same seed
gives the same weights, the record says how they were made, and bad input is refused with
what is wrong."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from mysticvale.bots.value_net import INPUTS, Net, log_loss, net_inputs
from mysticvale.cli.main import app
from mysticvale.learn.selfplay import generate
from mysticvale.learn.train import gather, rows, split, train

pytest.importorskip("sklearn")


@pytest.fixture(scope="module")
def data():
    return generate(["greedy", "random"], games=16, seed=9)


def test_each_seat_of_each_position_is_a_row_of_the_networks_inputs(data):
    x, y, games = rows(data)
    assert x.shape == (2 * len(data), len(INPUTS))
    assert np.array_equal(y, data.result.reshape(-1)) and np.array_equal(games, np.repeat(data.game, 2))
    i = 5
    want = net_inputs(data.features[i], int(data.mover[i]), float(data.pool[i]), float(data.rounds_left[i]),
                      int(data.first[i]))
    assert np.array_equal(x[2 * i:2 * i + 2], want)
    # in two-player games each seat's rival is the other seat
    assert np.array_equal(x[2 * i, 11:22], data.features[i, 1]) and np.array_equal(x[2 * i + 1, 11:22],
                                                                                    data.features[i, 0])
    # two files: their games are numbered apart
    _, _, both = gather([data, data])
    assert len(np.unique(both)) == 32


def test_the_held_out_games_are_whole_games(data):
    _, _, games = rows(data)
    test = split(games, 0.25, seed=3)
    held = set(games[test].tolist())
    assert len(held) == 4 and not held & set(games[~test].tolist())
    assert np.array_equal(test, split(games, 0.25, seed=3)), "the split is the seed's"
    with pytest.raises(ValueError, match="between 0 and 1"):
        split(games, 1.5, seed=3)


def test_training_keeps_the_best_pass_and_the_same_seed_gives_the_same_weights(data):
    seen = []
    net, report = train([data], hidden=(6,), epochs=5, patience=5, seed=2,
                        on_epoch=lambda e, loss, best: seen.append((e, loss, best)))
    assert [e for e, _, _ in seen] == [1, 2, 3, 4, 5] and len(report.losses) == 5
    assert report.held_out_loss == min(report.losses) == seen[-1][2]
    assert report.losses[report.best_epoch - 1] == report.held_out_loss
    # the network's own chances on the held-out rows give the reported loss
    x, y, games = rows(data)
    test = split(games, 0.2, seed=2)
    assert log_loss(net.chances(x[test]), y[test]) == pytest.approx(report.held_out_loss, abs=1e-9)
    again, _ = train([data], hidden=(6,), epochs=5, patience=5, seed=2)
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(net.layers, again.layers))
    rec = net.record
    assert rec["seed"] == 2 and rec["games"] == 16 and rec["positions"] == len(data)
    assert rec["data"][0]["bots"] == ["greedy", "random"] and rec["held_out_loss"] == round(report.held_out_loss, 6)
    assert "scikit-learn" in rec["library"]


def test_bad_options_are_refused(data):
    with pytest.raises(ValueError, match="at least one unit"):
        train([data], hidden=(0,))
    with pytest.raises(ValueError, match="at least 1"):
        train([data], epochs=0)
    one = generate(["greedy"], games=1, seed=1)
    with pytest.raises(ValueError, match="at least two games"):
        train([one], epochs=1)


def test_the_command_logs_each_pass_and_writes_weights_that_read_back(data, tmp_path):
    src = tmp_path / "p.npz"
    data.save(src)
    out = tmp_path / "net.json"
    r = CliRunner().invoke(app, ["train", str(src), "--out", str(out), "--hidden", "5", "--epochs", "3",
                                 "--seed", "4"], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "epoch   1: held-out log-loss" in r.output and "epoch   3: held-out log-loss" in r.output
    net = Net.load(out)
    assert net.layers[0][0].shape == (len(INPUTS), 5)
    assert net.record["epochs"] == 3 and net.record["hidden"] == [5]
    assert f"weights written to {out}" in r.output
    # refused: a file that is no positions file, a bad width, a folder that does not exist
    bad = tmp_path / "bad.npz"
    bad.write_text("nonsense")
    r = CliRunner().invoke(app, ["train", str(bad), "--out", str(tmp_path / "x.json")])
    assert r.exit_code == 2 and "not a positions file" in r.output and not (tmp_path / "x.json").exists()
    r = CliRunner().invoke(app, ["train", str(src), "--out", str(tmp_path / "x.json"), "--hidden", "wide"])
    assert r.exit_code == 2 and "--hidden takes widths" in r.output
    r = CliRunner().invoke(app, ["train", str(src), "--out", str(tmp_path / "no" / "x.json")])
    assert r.exit_code == 2 and "does not exist" in r.output
    # a place that cannot take the file (here a folder): one line, exit status 1, after the work
    taken = tmp_path / "a folder"
    taken.mkdir()
    r = CliRunner().invoke(app, ["train", str(src), "--out", str(taken), "--hidden", "5", "--epochs", "1"],
                           env={"COLUMNS": "200"})
    assert r.exit_code == 1 and f"cannot write {taken}" in r.output and taken.is_dir(), r.output
    json.loads(out.read_text())   # the weights file is plain JSON
