"""``mysticvale.native_available()`` says whether the native core may be used, and why not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import mysticvale as mv

SRC = Path(__file__).resolve().parents[2] / "src"


def _ask(env_extra: dict[str, str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(SRC), **env_extra}
    code = ("import mysticvale as mv; from mysticvale.engine import native; "
            "print(mv.native_available(), native.unavailable_reason())")
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_built_core_is_available(core):
    assert mv.native_available() is True
    assert core.CATALOGUE_VERSION == 1


def test_mysticvale_pure_switches_it_off(core):
    out = _ask({"MYSTICVALE_PURE": "1"})
    assert out == "False MYSTICVALE_PURE asks for the plain Python engine"
    assert _ask({"MYSTICVALE_PURE": "0"}).startswith("True")


def test_the_value_networks_weights_count_as_a_source_of_the_core(tmp_path):
    """The core builds the weights file in (value_net.rs), so newer weights make it stale."""
    from mysticvale.engine.native import VALUE_NET_WEIGHTS, _newest_source

    assert VALUE_NET_WEIGHTS.is_file()
    assert _newest_source(tmp_path) == VALUE_NET_WEIGHTS.stat().st_mtime, "an empty crate: the weights alone"
