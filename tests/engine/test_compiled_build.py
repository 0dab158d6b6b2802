"""The optional compiled build: a stale or unwanted build never runs, and the compiled
modules play exactly like their sources.  Also the process settling of ``runtime``."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

import pytest

import mysticvale as mv
from mysticvale import _compiled
from mysticvale.bots import SeatView, make_bot
from mysticvale.runtime import settle


def _module_pair(folder, stale: bool):
    source = folder / "hotmod.py"
    ext = folder / f"hotmod{_compiled.EXT_SUFFIX}"
    source.write_text("X = 1\n")
    ext.write_bytes(b"not really a compiled module")
    older, newer = 1_000_000_000, 1_000_000_100
    os.utime(source, (newer, newer) if stale else (older, older))
    os.utime(ext, (older, older) if stale else (newer, newer))
    return source, ext


def test_a_build_older_than_its_source_is_skipped_for_the_source(tmp_path, monkeypatch):
    monkeypatch.delenv("MYSTICVALE_PURE", raising=False)
    finder = _compiled._SourceWhenStale()
    source, _ = _module_pair(tmp_path, stale=True)
    spec = finder.find_spec("mysticvale.hotmod", [str(tmp_path)])
    assert spec is not None and spec.origin == str(source)


def test_a_fresh_build_is_left_to_the_normal_import(tmp_path, monkeypatch):
    monkeypatch.delenv("MYSTICVALE_PURE", raising=False)
    finder = _compiled._SourceWhenStale()
    _module_pair(tmp_path, stale=False)
    assert finder.find_spec("mysticvale.hotmod", [str(tmp_path)]) is None
    # Not ours, or no compiled module next to the source: not ours to decide either.
    assert finder.find_spec("elsewhere.hotmod", [str(tmp_path)]) is None
    (tmp_path / "plain.py").write_text("Y = 2\n")
    assert finder.find_spec("mysticvale.plain", [str(tmp_path)]) is None


def test_a_compiled_module_without_its_source_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv("MYSTICVALE_PURE", raising=False)
    source, _ = _module_pair(tmp_path, stale=False)
    source.unlink()
    with pytest.raises(ImportError, match="without its source hotmod.py"):
        _compiled._SourceWhenStale().find_spec("mysticvale.hotmod", [str(tmp_path)])


@pytest.mark.parametrize("value, pure", [("1", True), ("yes", True), ("0", False), ("", False)])
def test_mysticvale_pure_asks_for_the_sources(tmp_path, monkeypatch, value, pure):
    monkeypatch.setenv("MYSTICVALE_PURE", value)
    source, _ = _module_pair(tmp_path, stale=False)
    spec = _compiled._SourceWhenStale().find_spec("mysticvale.hotmod", [str(tmp_path)])
    assert (spec is not None and spec.origin == str(source)) is pure


def test_the_guard_is_installed_first_and_status_reports_the_build():
    assert isinstance(sys.meta_path[0], _compiled._SourceWhenStale)
    st = _compiled.status()
    assert st["build"] in ("compiled", "pure", "partly compiled")
    assert st["compiled"] + st["pure"] > 0
    assert st["build"] != "compiled" or not _compiled.pure_requested()


def _greedy_histories(seeds: list[int]) -> list[list[str]]:
    out = []
    for seed in seeds:
        g = mv.new_game(players=2, seed=seed, sets=("base", "vale_of_magic"))
        bots = [make_bot("greedy", seed=seed + 1), make_bot("greedy", seed=seed + 2)]
        while not g.is_over():
            p = g.current_player
            g.apply_action(bots[p].act(SeatView(g, p)))
        out.append(g.history + [json.dumps(g.scores())])
    return out


def test_the_compiled_build_plays_exactly_like_the_sources():
    if _compiled.status()["build"] != "compiled":
        pytest.skip("no compiled build here (make compile); the sources are what runs")
    seeds = [3, 17]
    code = ("import json, sys; sys.path.insert(0, %r); from test_compiled_build import "
            "_greedy_histories; from mysticvale import _compiled; "
            "print(json.dumps([_compiled.status()['build'], _greedy_histories(%r)]))"
            % (os.path.dirname(__file__), seeds))
    pure = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**os.environ, "MYSTICVALE_PURE": "1"})
    build, histories = json.loads(pure.stdout)
    assert build == "pure"
    assert histories == _greedy_histories(seeds)


def test_settle_freezes_what_lives_and_changes_no_game():
    before = _greedy_histories([5])
    try:
        frozen = settle(sets=("base",))
        assert frozen > 1000 and gc.get_freeze_count() == frozen
        assert _greedy_histories([5]) == before
    finally:
        gc.unfreeze()
