"""The arena on a Ray cluster (issue 20, item 4): ``run_matches(backend="ray")`` and
``mysticvale simulate --backend ray [--address ...]`` give the local run's result for bots
with iteration budgets, on a local Ray instance and on a cluster of several nodes
(``ray.cluster_utils.Cluster``), and a worker killed mid-run changes no result.  The
self-play generator (``learn.selfplay.generate``, ``mysticvale selfplay``) too.

Ray is the optional extra ``cluster``, which ``make test`` installs: under CI these tests must
run, elsewhere they are skipped when Ray is missing."""

from __future__ import annotations

import glob
import json
import os
import signal

import numpy as np
import pytest
from typer.testing import CliRunner

from mysticvale.bots import cluster
from mysticvale.bots.arena import run_matches
from mysticvale.cli.main import app
from mysticvale.learn.selfplay import ARRAYS, Positions, generate
from ports import free_port
from waiting import wait_for

try:
    import ray
    from ray.cluster_utils import Cluster
except ImportError:          # pragma: no cover - CI installs it
    ray = None

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::FutureWarning")

#: Bots with iteration budgets (so the games do not depend on the machine): search and rules.
BOTS = ["ismcts:iterations=8:think=0", "greedy", "random"]


@pytest.fixture(autouse=True)
def need_ray():
    if ray is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("Ray must be installed here ('make test' installs the cluster extra)")
        pytest.skip("Ray is not installed (pip install 'mysticvale[cluster]')")
    yield
    if ray.is_initialized():
        ray.shutdown()


def _result(r: dict) -> dict:
    """A result without its wall-clock timing, the one part that differs between runs."""
    return {k: v for k, v in r.items() if k != "timing"}


@pytest.fixture(scope="module")
def two_nodes():
    """A Ray cluster on this machine: a head node and one more node, one CPU each."""
    if ray is None:
        pytest.skip("Ray is not installed")
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "gcs_server_port": free_port(),
                                                      "include_dashboard": False})
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    yield c
    if ray.is_initialized():
        ray.shutdown()
    c.shutdown()


def test_a_local_ray_run_gives_the_local_result_and_the_cli_the_same_json():
    options = dict(games=9, players=3, seed=5, sets=("base", "vale_of_magic"))
    local = run_matches(BOTS, jobs=2, **options)
    on_ray = run_matches(BOTS, backend="ray", **options)
    assert _result(on_ray) == _result(local)
    assert on_ray["timing"]["backend"] == "ray" and local["timing"]["backend"] == "local"
    assert not ray.is_initialized()           # the instance it started is gone again

    def simulate(*extra):
        r = CliRunner().invoke(app, ["simulate", "--json", "--games", "4", "--bots", "greedy,random",
                                     "--seed", "2", *extra])
        assert r.exit_code == 0, r.output
        return json.loads(r.stdout)

    assert simulate("--backend", "ray") == simulate()


def test_a_cluster_of_two_nodes_gives_the_local_result(two_nodes):
    options = dict(games=8, players=2, seed=9, sets=("base", "twilight_garden"), leaders=True)
    local = run_matches(BOTS[:2], **options)
    on_cluster = run_matches(BOTS[:2], backend="ray", address=two_nodes.address, **options)
    assert _result(on_cluster) == _result(local)
    assert not ray.is_initialized()           # it let go of the cluster, which runs on
    r = CliRunner().invoke(app, ["simulate", "--games", "3", "--bots", "greedy,random", "--backend", "ray",
                                 "--address", two_nodes.address], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "3 games, 2 players" in r.output and " on Ray: " in r.output


def test_self_play_on_a_cluster_gives_the_local_positions(two_nodes, tmp_path):
    options = dict(games=4, players=2, seed=8)
    local = generate(BOTS[:2], **options)
    on_cluster = generate(BOTS[:2], backend="ray", address=two_nodes.address, **options)
    assert all(np.array_equal(getattr(on_cluster, k), getattr(local, k)) for k in ARRAYS)
    assert not ray.is_initialized()
    out = tmp_path / "positions.npz"
    r = CliRunner().invoke(app, ["selfplay", "--games", "3", "--seed", "8", "--backend", "ray", "--address",
                                 two_nodes.address, "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert " on Ray: " in r.output
    assert all(np.array_equal(getattr(Positions.load(out), k), getattr(generate(["greedy"], games=3, seed=8), k))
               for k in ARRAYS)


def _chunk_workers() -> list[int]:
    """The processes now playing an arena chunk (Ray names a task's worker after its function)."""
    pids = []
    for path in glob.glob("/proc/[0-9]*/cmdline"):
        try:
            with open(path, "rb") as f:
                if f.read().startswith(b"ray::_play_chunk"):
                    pids.append(int(path.split("/")[2]))
        except OSError:
            continue
    return pids


def test_a_worker_killed_mid_run_changes_no_result(two_nodes, monkeypatch):
    # Chunks of about one game each, so the run lasts long enough to kill a worker in it.
    monkeypatch.setattr(cluster, "CHUNK_MAX", 1)
    options = dict(games=10, players=2, seed=13)
    bots = ["greedy", "greedy:depth=1"]
    killed: list[int] = []

    def progress(done: int) -> None:
        if not killed:
            # the driver's own first game is in; the tasks are out: kill one at work
            pid = wait_for(lambda: (_chunk_workers() or [None])[0])
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    on_cluster = run_matches(bots, backend="ray", address=two_nodes.address, progress=progress, **options)
    assert killed
    assert _result(on_cluster) == _result(run_matches(bots, **options))
    assert [g["game"] for g in on_cluster["per_game"]] == list(range(10))


def test_bad_addresses_and_backends_are_clear_errors_and_quick():
    with pytest.raises(cluster.ClusterUnavailable, match="cannot reach the Ray cluster at '127.0.0.1:"):
        run_matches(["greedy", "random"], games=2, backend="ray", address=f"127.0.0.1:{free_port()}")
    with pytest.raises(cluster.ClusterUnavailable, match="auto, host:port or ray://host:port"):
        run_matches(["greedy", "random"], games=2, backend="ray", address="nowhere")
    with pytest.raises(ValueError, match="unknown backend 'spark'"):
        run_matches(["greedy", "random"], games=2, backend="spark")
    with pytest.raises(ValueError, match="an address is for the ray backend"):
        run_matches(["greedy", "random"], games=2, address="auto")
    r = CliRunner().invoke(app, ["simulate", "--games", "2", "--backend", "ray", "--address", "nowhere"])
    assert r.exit_code == 2 and "auto, host:port or ray://host:port" in r.output


def test_without_ray_the_backend_says_how_to_get_it(monkeypatch):
    import builtins

    real = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("no ray here")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(cluster.ClusterUnavailable, match=r"pip install 'mysticvale\[cluster\]'"):
        run_matches(["greedy", "random"], games=2, backend="ray")


def test_a_chunk_holds_about_a_second_of_work():
    assert cluster.chunk_size(0.1) == 10
    assert cluster.chunk_size(3.0) == 1
    assert cluster.chunk_size(0.0001) == cluster.CHUNK_MAX
