"""Fair scheduling of bot moves: no game can starve another, and nobody waits behind bot-only games.

Bot moves run in two *lanes*, so that a slow kind of bot never holds up a fast one:

``cheap``   bots that decide in milliseconds (random, greedy), on ``cheap_threads`` threads;
``search``  searching bots (ISMCTS), in ``search_processes`` worker processes (a search in a
            server thread would hold Python's interpreter lock and slow every request).  Each
            process is fed by one dispatcher thread, so a move waits in the lane's queues, where
            the order is decided, and never in the process pool's own queue.

Each lane keeps two first-in first-out queues of games that have a bot to move: *ordinary* games
(a person sits at the table and waits for the bot) and *bot-only* games (nobody waits).  A worker
takes one game from the ordinary queue, except that every ``bot_only_every``-th pick goes to the
bot-only queue if it has a game, so bot-only games still progress at a quarter of the lane's pace
(by default) while people wait.  A game plays **one move** per pick and then queues again at the
back: round-robin across games, however long a game or its bots' thinking time.

So a bot in an ordinary game waits at most for the moves already running in its lane (each
bounded by the server's maximum thinking time), the ordinary games queued before it and one
bot-only move, however many bot-only games anybody started; and a greedy bot never waits for a
search at all.

The search worker processes exit by themselves when the server process is gone (even after a
``kill -9``, which runs no clean-up code): each watches its parent and ends within a quarter of a
second of losing it.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections import deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from ..runtime import settle

log = logging.getLogger("mysticvale.server")

#: How often a search worker process checks that the server process is still there (seconds).
PARENT_CHECK = 0.25

#: A job plays one bot move; it gets the lane's ``think`` (None in the cheap lane): a function
#: (game JSON, seat, spec, seed, max think) -> action that runs the search in a worker process.
Job = Callable[[Any], None]


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_CHECK)
        if os.getppid() != parent:
            os._exit(0)         # the server is gone: a search nobody will read is wasted work


def search_worker_start(parent: int) -> None:
    """(Runs first in each search worker process.)  Exit when ``parent`` dies; settle the catalogue."""
    if os.getppid() != parent:
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), name="mysticvale-parent-watch", daemon=True).start()
    settle()


class _Lane:
    """The queues of one lane (see the module docstring)."""

    def __init__(self, name: str, bot_only_every: int) -> None:
        self.name = name
        self.bot_only_every = bot_only_every
        self.ordinary: deque[tuple[str, Job]] = deque()
        self.bot_only: deque[tuple[str, Job]] = deque()
        self.picks = 0
        self.cond = threading.Condition()

    def pick(self) -> tuple[str, Job] | None:
        # (cond held)
        if not self.ordinary and not self.bot_only:
            return None
        self.picks += 1
        if self.bot_only and (not self.ordinary or self.picks % self.bot_only_every == 0):
            return self.bot_only.popleft()
        return self.ordinary.popleft()

    def waiting(self) -> int:
        with self.cond:
            return len(self.ordinary) + len(self.bot_only)


class BotScheduler:
    """Runs bot moves (jobs) in the two lanes, fairly; see the module docstring."""

    def __init__(self, cheap_threads: int = 2, search_processes: int = 2, bot_only_every: int = 4) -> None:
        if cheap_threads < 1 or search_processes < 1 or bot_only_every < 2:
            raise ValueError("a scheduler needs at least one thread and one process per lane, and "
                             "bot_only_every >= 2")
        self.search_processes = search_processes
        self._lanes = {"cheap": _Lane("cheap", bot_only_every), "search": _Lane("search", bot_only_every)}
        self._closed = False
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()
        #: The last picks as (lane, key), oldest first: what ran in which order.
        self.picks: deque[tuple[str, str]] = deque(maxlen=10_000)
        self._threads = [threading.Thread(target=self._work, args=(self._lanes["cheap"], None),
                                          name=f"mysticvale-bot-{i}", daemon=True) for i in range(cheap_threads)]
        self._threads += [threading.Thread(target=self._work, args=(self._lanes["search"], self._think),
                                           name=f"mysticvale-search-{i}", daemon=True)
                          for i in range(search_processes)]
        for t in self._threads:
            t.start()

    def submit(self, key: str, job: Job, *, search: bool, ordinary: bool) -> None:
        """Queue one move of game ``key`` at the back of its lane's ordinary or bot-only queue."""
        lane = self._lanes["search" if search else "cheap"]
        with lane.cond:
            if self._closed:
                raise RuntimeError("the bot scheduler is closed")
            (lane.ordinary if ordinary else lane.bot_only).append((key, job))
            lane.cond.notify()

    def waiting(self) -> dict[str, int]:
        """Moves waiting per lane."""
        return {name: lane.waiting() for name, lane in self._lanes.items()}

    def _work(self, lane: _Lane, think) -> None:
        while True:
            with lane.cond:
                while True:
                    if self._closed:
                        return
                    picked = lane.pick()
                    if picked is not None:
                        break
                    lane.cond.wait()
            key, job = picked
            self.picks.append((lane.name, key))
            try:
                job(think)
            except Exception:
                log.exception("bot move of game %s failed", key)

    def _think(self, game_json: str, seat: int, spec: str, seed: int, max_think: float | None = None) -> str:
        """A searching bot's move, computed in a worker process (the pool starts on first use)."""
        from .sessions import think_in_process

        with self._pool_lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.search_processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=search_worker_start, initargs=(os.getpid(),))
            pool = self._pool
        try:
            return pool.submit(think_in_process, game_json, seat, spec, seed, max_think).result()
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool for the next moves.
            with self._pool_lock:
                if self._pool is pool:
                    self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)
            raise

    def worker_pids(self) -> list[int]:
        """Process ids of the search workers running now."""
        with self._pool_lock:
            pool = self._pool
        procs = getattr(pool, "_processes", None) or {}
        return [p.pid for p in list(procs.values()) if p.pid is not None]

    def close(self) -> None:
        """Stop taking moves; wait for the moves in flight (each bounded by the thinking time)."""
        self._closed = True
        for lane in self._lanes.values():
            with lane.cond:
                lane.ordinary.clear()
                lane.bot_only.clear()
                lane.cond.notify_all()
        for t in self._threads:
            t.join(timeout=60)
        with self._pool_lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
