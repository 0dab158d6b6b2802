"""The arena's games on a Ray cluster (``run_matches(backend="ray")``, ``simulate --backend ray``).

Ray (``pip install 'mysticvale[cluster]'``) runs the arena's chunks of games across the
processes of one machine or the nodes of a cluster; every node needs mysticvale installed.
The games are the arena's own (``arena._play_chunk``): game ``i`` has its seed from the arena
seed and ``i``, so a chunk gives the same records wherever and however often it runs.  That
is what makes the cluster safe:

- a worker that dies mid-chunk (killed, out of memory, its node lost) has its chunk run again
  by Ray (``max_retries``), and the records are the ones it would have given;
- the records are gathered and sorted by game, then summarised exactly as a local run's, so
  for bots with iteration budgets the result is the local result (only ``timing`` differs).

A chunk holds about a second of work: the driver plays game 0 itself first, times it, and
gives each task as many games as fit in :data:`CHUNK_SECONDS` (at least one, at most
:data:`CHUNK_MAX`; ``arena._play_on_ray``).  The first game's record is kept, so no game is
played twice.
"""

from __future__ import annotations

import contextlib
import os
import socket
from typing import Any, Callable, Iterator

#: About how long one task should play for: long enough that Ray's cost per task is small,
#: short enough that a lost worker loses little and the progress bar moves.
CHUNK_SECONDS = 1.0
#: The most games in one task (fast random games would otherwise make huge chunks).
CHUNK_MAX = 64
#: How long to wait for a cluster's address to answer.
CONNECT_SECONDS = 10.0
#: How often a task whose worker died is run again.
RETRIES = 5


class ClusterUnavailable(RuntimeError):
    """Ray is not installed, or the cluster named cannot be reached."""


def _ray():
    try:
        import ray
    except ImportError:
        raise ClusterUnavailable("the ray backend needs Ray: pip install 'mysticvale[cluster]'") from None
    return ray


def chunk_size(seconds_per_game: float) -> int:
    """Games per task for games that take ``seconds_per_game`` each (about a second of work)."""
    if seconds_per_game <= 0:
        return CHUNK_MAX
    return max(1, min(CHUNK_MAX, round(CHUNK_SECONDS / seconds_per_game)))


@contextlib.contextmanager
def session(address: str | None) -> Iterator[None]:
    """Connected to the Ray cluster at ``address`` (``"auto"``, ``"ray://host:10001"``,
    ``host:6379``), or to a local one started on this machine when ``address`` is None, for
    the ``with`` block; a connection this made is closed after it.  A process already
    connected keeps its connection.  ``ClusterUnavailable`` when Ray cannot be used."""
    ray = _ray()
    if ray.is_initialized():
        yield
        return
    if address not in (None, "auto"):
        _check_reachable(address)
    options: dict[str, Any] = dict(logging_level="ERROR", log_to_driver=False)
    if address is None:
        # a local instance: no dashboard, and a small object store (a game's record is a few kB)
        options.update(num_cpus=os.cpu_count() or 1, object_store_memory=100 * 1024 * 1024,
                       include_dashboard=False)
    try:
        ray.init(address=address, **options)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise ClusterUnavailable(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
    try:
        yield
    finally:
        ray.shutdown()


def _check_reachable(address: str) -> None:
    """``ClusterUnavailable`` at once for a ``host:port`` nobody answers on (Ray itself would
    keep trying for minutes)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise ClusterUnavailable(f"a Ray address is auto, host:port or ray://host:port, not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_SECONDS).close()
    except (OSError, ValueError) as exc:
        raise ClusterUnavailable(f"cannot reach the Ray cluster at {address!r}: {exc}") from None


def run(tasks: list[tuple], first: dict[str, Any] | None = None,
        progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """The records of every game of ``tasks`` (``arena._play_chunk``'s arguments: the arena's
    games, or the self-play generator's positions), played as Ray tasks in the
    :func:`session`, sorted by game.  ``first``: a record the driver already has (game 0),
    counted in the progress.  A task whose worker dies is run again."""
    from .arena import _play_chunk as work

    ray = _ray()
    remote = ray.remote(max_retries=RETRIES, retry_exceptions=False)(work)
    pending = [remote.remote(t) for t in tasks]
    records = [first] if first else []
    if progress and records:
        progress(len(records))
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            records.extend(ray.get(ref))
        if progress:
            progress(len(records))
    records.sort(key=lambda r: r["game"])
    return records


__all__ = ["CHUNK_MAX", "CHUNK_SECONDS", "ClusterUnavailable", "chunk_size", "run", "session"]
