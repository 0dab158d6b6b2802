"""The fixtures the cargo tests read are what the Python engine computes now."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("native_fixtures", ROOT / "scripts" / "native_fixtures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_fixture_is_current():
    script = _script()
    for name, text in script.fixtures().items():
        path = script.FIXTURES / name
        assert path.exists(), f"{name} is missing: run scripts/native_fixtures.py"
        assert path.read_text(encoding="utf-8") == text, f"{name} is out of date: run scripts/native_fixtures.py"


def test_the_rng_vectors_cover_every_kind_of_seed_and_bound():
    data = json.loads((_script().FIXTURES / "rng_vectors.json").read_text(encoding="utf-8"))
    seeds = [int(c["seed"]) for c in data["cases"]]
    assert any(s < 0 for s in seeds) and any(s >= 2**64 for s in seeds) and 0 in seeds
    bounds = {b["n"] for c in data["cases"] for b in c["below"]}
    assert 1 in bounds and 2**64 - 1 in bounds
