"""The tests' ports (tests/ports.py): a port another test process holds is never handed out, and
none is in the kernel's ephemeral range, where outgoing connections take theirs (issue 23)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ports
from waiting import PATIENCE

TESTS = Path(__file__).resolve().parents[1]


def test_a_port_held_by_another_test_process_is_skipped(monkeypatch):
    # another copy of the suite: a process that takes a port and keeps it until told to end
    other = subprocess.Popen([sys.executable, "-c", "import sys, ports; print(ports.free_port(), flush=True); "
                              "sys.stdin.read()"], cwd=TESTS, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, env={"PYTHONPATH": str(TESTS)})
    try:
        taken = int(other.stdout.readline())
        low, high = ports._ephemeral()
        assert not low <= taken <= high
        spare = next(p for p in ports._candidates() if p != taken and p not in ports._held and ports._bindable(p))
        monkeypatch.setattr(ports, "_candidates", lambda: [taken, spare])
        assert ports.free_port() == spare               # (nothing listens on `taken`: only its lock says no)
    finally:
        other.communicate("", timeout=PATIENCE)
    # once that process has ended, its port is free again
    monkeypatch.setattr(ports, "_candidates", lambda: [taken])
    assert ports.free_port() == taken


def test_this_process_never_gets_one_port_twice():
    got = [ports.free_port() for _ in range(20)]
    assert len(set(got)) == 20
