"""Ports for the servers the tests start (issue 23): two copies of the suite at once never share one.

A port taken with ``bind(("127.0.0.1", 0))`` and closed again is free only until somebody else
binds it: the kernel hands the same ephemeral ports to every process, to a second copy of the suite
starting its own server or SMTP sink, and to every outgoing connection (the tests' HTTP clients,
PostgreSQL connections).  Two copies could then start their servers on one port, and the loser's
health check would be answered by the winner.  So a test's port is

- outside the kernel's ephemeral range (``/proc/sys/net/ipv4/ip_local_port_range``), where no
  outgoing connection takes a port;
- free when chosen (a bind on it succeeds);
- reserved for the life of the test process by an exclusive lock on a file named after it, in the
  machine's temporary folder: any other test process (this suite's other worker, another copy of
  the suite) skips a port whose file is locked.  The kernel drops the lock when the process ends,
  however it ends, so nothing needs cleaning up.
"""

from __future__ import annotations

import fcntl
import os
import random
import socket
import tempfile
from pathlib import Path

#: Where the reservations are: one lock file per port, shared by every copy of the suite on the machine.
RESERVATIONS = Path(tempfile.gettempdir()) / "mysticvale-test-ports"
#: Lowest port handed out (below are the well-known and registered services' usual ports).
LOWEST = 20000
#: Open lock files of the ports this process holds (closing one would end its reservation).
_held: dict[int, int] = {}


def _ephemeral() -> tuple[int, int]:
    try:
        low, high = (int(x) for x in Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
        return low, high
    except (OSError, ValueError):
        return 32768, 60999             # Linux's default


def _candidates() -> list[int]:
    low, high = _ephemeral()
    ports = [p for p in range(LOWEST, 65536) if not low <= p <= high]
    random.SystemRandom().shuffle(ports)
    return ports


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _reservations() -> Path:
    """The folder of the lock files, open to every user's suite (as /tmp is: sticky, so nobody
    removes another's file)."""
    try:
        RESERVATIONS.mkdir()
        os.chmod(RESERVATIONS, 0o1777)      # (mkdir's mode is cut by the umask)
    except FileExistsError:
        pass
    return RESERVATIONS


def _reserve(port: int) -> bool:
    path = _reservations() / f"{port}.lock"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)     # (a lock needs no more than reading)
    except OSError:                     # unreadable: somebody else's, perhaps in use
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return False
    _held[port] = fd
    return True


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on and that no other test process will be given
    while this one runs (see the module's docstring)."""
    for port in _candidates():
        if port in _held or not _reserve(port):
            continue
        if _bindable(port):
            return port
        # in use by something else: keep the reservation (so nobody else tries it either) and go on
    raise RuntimeError("no free port outside the ephemeral range")
