"""The adapters' tests: ``core``, the fixture of ``tests/native/conftest.py`` itself, for the
tests that play the adapters on the native core (a missing or stale build fails them where
cargo exists or under CI=true, and skips them elsewhere, exactly as in tests/native)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_NAME = "mysticvale_tests_native_conftest"


def _native_conftest():
    """tests/native/conftest.py as a module of its own name (every conftest is called
    ``conftest``, so it is loaded from its path, once)."""
    if _NAME not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "native" / "conftest.py"
        spec = importlib.util.spec_from_file_location(_NAME, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[_NAME] = module
    return sys.modules[_NAME]


core = _native_conftest().core
