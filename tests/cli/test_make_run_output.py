"""What ``make run`` prints: no setuptools deprecation blocks before the address, and how to stop.

``make run`` installs the package (an editable pip install: setuptools reads ``pyproject.toml``
three times, and each read warned "`project.license` as a TOML table is deprecated" in a block of
stars), then starts ``mysticvale serve``, whose address line must be followed by how to stop it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

from ports import free_port
from waiting import PATIENCE

ROOT = Path(__file__).resolve().parents[2]


def test_setuptools_reads_the_project_without_a_deprecation_warning(monkeypatch):
    from setuptools.dist import Distribution

    monkeypatch.chdir(ROOT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist = Distribution()
        dist.parse_config_files()
    messages = [f"{w.category.__name__}: {w.message}" for w in caught if "Deprecat" in w.category.__name__]
    assert messages == []
    assert dist.metadata.name == "mysticvale"


def test_serve_prints_the_address_and_how_to_stop(tmp_path):
    port = free_port()
    cmd = [sys.executable, "-c", "from mysticvale.cli.main import app; app()", "serve",
           "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(tmp_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
                            env={**os.environ, "COLUMNS": "200"})
    lines: list[str] = []
    try:
        deadline = time.monotonic() + PATIENCE      # a loaded machine starts slowly; the lines come at once
        while time.monotonic() < deadline and not any("Ctrl+C" in x for x in lines):
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip("\n"))
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
    address = next(i for i, x in enumerate(lines) if f"http://127.0.0.1:{port}/" in x)
    stop = next(i for i, x in enumerate(lines) if "Ctrl+C" in x)
    assert stop == address + 1, lines
    assert not any("deprecat" in x.lower() for x in lines), lines
