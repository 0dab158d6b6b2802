"""The native core's tests: they need the extension built (``make native``).

Where cargo exists (or under CI=true) a missing or stale build fails these tests, so
``make test`` can never pass while skipping them; elsewhere they are skipped, saying why.
"""

from __future__ import annotations

import os
import shutil

import pytest

from mysticvale.engine import native


def _must_run() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes") or shutil.which("cargo") is not None


@pytest.fixture(scope="session")
def core():
    """The native extension module (``mysticvale._native``)."""
    if not native.available():
        reason = native.unavailable_reason()
        if _must_run() and not os.environ.get("MYSTICVALE_PURE"):
            pytest.fail(f"cargo is here, so the native core must be built and current: {reason}")
        pytest.skip(reason or "the native core is not available")
    return native.module()
