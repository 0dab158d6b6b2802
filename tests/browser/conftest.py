"""Browser tests: the real server (``mysticvale serve``) on a free 127.0.0.1 port with a temporary
SQLite database, driven through Debian's Chromium by Playwright.

Without /usr/bin/chromium the tests are skipped with the reason, except in CI (``CI=true``), where
a missing browser is a failure: the CI set-up must install the ``chromium`` Debian package.

Screenshots of the key screens (the table at desktop and phone size, playback, the spoil banner,
zoom, card faces, the end screen, ...) are artifacts of every run: the ``shot_dir`` fixture writes
them to ``build/screenshots/`` in the checkout (gitignored; each run overwrites the files of the
same name), or to the folder ``MYSTICVALE_SCREENSHOTS`` names.  A CI job can keep that folder.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_helpers import PatientBrowser, ServerProcess

#: Debian's Chromium (the package ``chromium``); MYSTICVALE_CHROMIUM names another binary.
CHROMIUM = Path(os.environ.get("MYSTICVALE_CHROMIUM") or "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Screenshots go to the folder this names when set, else to DEFAULT_SHOT_DIR.
SHOT_DIR_ENV = "MYSTICVALE_SCREENSHOTS"
#: The checkout's build/screenshots/ (build/ is gitignored).
DEFAULT_SHOT_DIR = Path(__file__).resolve().parents[2] / "build" / "screenshots"


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives Chromium against the real server")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _require_chromium() -> None:
    if CHROMIUM.exists():
        return
    msg = (f"{CHROMIUM} is missing: install Debian's chromium package "
           "(apt-get install -y chromium) to run the browser tests")
    if _in_ci():
        pytest.fail(msg + " (CI=true: the browser tests must run in CI)", pytrace=False)
    pytest.skip(msg)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """Base URL of a running ``mysticvale serve`` (real server, temp SQLite file, seeds allowed)."""
    _require_chromium()
    srv = ServerProcess(tmp_path_factory.mktemp("server-data"))
    try:
        srv.start()
    except RuntimeError as exc:
        pytest.fail(str(exc), pytrace=False)
    yield srv.base
    srv.stop()


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the whole session; every page waits up to tests/waiting.py's PATIENCE_MS for a
    condition unless a test says otherwise."""
    _require_chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        msg = "the playwright package is missing: pip install the 'dev' extra"
        if _in_ci():
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield PatientBrowser(b)
        b.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (empty localStorage) at desktop size; page errors fail the test."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def shot_dir() -> Path:
    """The folder for screenshots (see the module docstring), created if need be."""
    d = Path(os.environ.get(SHOT_DIR_ENV) or DEFAULT_SHOT_DIR)
    d.mkdir(parents=True, exist_ok=True)
    return d
