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

**Search is shared between people, not between games** (issue 22).  Each move is queued with the
*principals* it is done for: the client address and the person who created the game and the
address of whoever played in it last.  The search lane charges the seconds every search took to
its principals (their use, halved every :data:`HALF_LIFE` seconds) and picks, of the queued games,
the one whose principals have used the least, first come first served between equals; a
principal that has used more than ``search_budget`` seconds waits until its use has decayed below
it.  So ten games from one client with three searching bots each get that client's share, not ten
shares: another person's bot moves next, at its normal turn time, however long the flood's queue.
And a move whose game nobody attends any more (its ``present`` check says so when the move's turn
comes) is not searched: it is *parked* (its ``park`` callback runs) until somebody is back.  (With
several server processes, the sessions' ``present`` check also counts people attending the game on
the other processes: :mod:`mysticvale.server.presence`.)

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
from dataclasses import dataclass
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from ..runtime import settle

log = logging.getLogger("mysticvale.server")

#: How often a search worker process checks that the server process is still there (seconds).
PARENT_CHECK = 0.25

#: Half-life of a principal's counted search seconds (seconds).
HALF_LIFE = 60.0
#: Search seconds a principal may have used (as counted, decaying) before its moves wait: a
#: little more than one search process busy for it all the time.
SEARCH_BUDGET = 90.0

#: A job plays one bot move; it gets the lane's ``think`` (None in the cheap lane): a function
#: (game JSON, seat, spec, seed, max think, bot engine) -> action that runs the search in a worker process.
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


@dataclass
class Move:
    """One queued bot move of game ``key``, done for ``principals``."""

    key: str
    job: Job
    principals: tuple[str, ...] = ()
    present: Callable[[], bool] | None = None     # False: nobody attends the game; park the move
    park: Callable[[], None] | None = None
    number: int = 0                               # order of submission (first come, first served)


class Usage:
    """Search seconds used per principal, halved every :data:`HALF_LIFE` seconds.  Thread-safe."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, half_life: float = HALF_LIFE) -> None:
        self.clock = clock
        self.half_life = half_life
        self._used: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    def of(self, principal: str) -> float:
        with self._lock:
            return self._value(principal, self.clock())

    def _value(self, principal: str, now: float) -> float:
        used, at = self._used.get(principal, (0.0, now))
        return used * 0.5 ** (max(0.0, now - at) / self.half_life)

    def charge(self, principals: tuple[str, ...], seconds: float) -> None:
        with self._lock:
            now = self.clock()
            for p in principals:
                self._used[p] = (self._value(p, now) + seconds, now)
            if len(self._used) > 10_000:      # forget those whose use has decayed to nothing
                self._used = {p: v for p, v in self._used.items() if self._value(p, now) > 0.01}

    def of_move(self, move: Move) -> float:
        """A move counts as much as the most used of its principals."""
        with self._lock:
            now = self.clock()
            return max((self._value(p, now) for p in move.principals), default=0.0)


class _Lane:
    """The queues of one lane (see the module docstring).  ``usage``: the search lane's counts (the
    cheap lane is first come, first served)."""

    def __init__(self, name: str, bot_only_every: int, usage: Usage | None = None,
                 budget: float = SEARCH_BUDGET) -> None:
        self.name = name
        self.bot_only_every = bot_only_every
        self.ordinary: deque[Move] = deque()
        self.bot_only: deque[Move] = deque()
        self.picks = 0
        self.usage = usage
        self.budget = budget
        self.cond = threading.Condition()

    def pick(self) -> Move | None:
        # (cond held)  None when nothing may run now (nothing queued, or every principal over budget)
        if not self.ordinary and not self.bot_only:
            return None
        queue = self.ordinary
        if self.bot_only and (not self.ordinary or (self.picks + 1) % self.bot_only_every == 0):
            queue = self.bot_only
        move = self._fairest(queue)
        if move is None and queue is self.ordinary and self.bot_only:
            queue = self.bot_only
            move = self._fairest(queue)
        if move is None:
            return None
        queue.remove(move)
        self.picks += 1
        return move

    def _fairest(self, queue: deque[Move]) -> Move | None:
        if self.usage is None:
            return queue[0] if queue else None
        best, best_used = None, None
        for move in queue:              # the least used principals first; between equals, the oldest
            used = self.usage.of_move(move)
            if used >= self.budget:
                continue
            if best_used is None or used < best_used - 1e-9:
                best, best_used = move, used
        return best

    def waiting(self) -> int:
        with self.cond:
            return self.waiting_locked()

    def waiting_locked(self) -> int:
        return len(self.ordinary) + len(self.bot_only)

    def drop(self, keep: Callable[[Move], bool]) -> list[Move]:
        """(cond held) Take out of the queues the moves that ``keep`` refuses; returns them."""
        gone = []
        for queue in (self.ordinary, self.bot_only):
            for move in [m for m in queue if not keep(m)]:
                queue.remove(move)
                gone.append(move)
        return gone


def _attended(move: Move) -> bool:
    try:
        return bool(move.present())
    except Exception:
        log.exception("game %s: could not tell whether anybody attends it", move.key)
        return True


class BotScheduler:
    """Runs bot moves (jobs) in the two lanes, fairly; see the module docstring."""

    def __init__(self, cheap_threads: int = 2, search_processes: int = 2, bot_only_every: int = 4,
                 search_budget: float = SEARCH_BUDGET, usage: Usage | None = None) -> None:
        if cheap_threads < 1 or search_processes < 1 or bot_only_every < 2:
            raise ValueError("a scheduler needs at least one thread and one process per lane, and "
                             "bot_only_every >= 2")
        self.search_processes = search_processes
        #: Search seconds used per principal (client address, person).
        self.usage = usage if usage is not None else Usage()
        self._lanes = {"cheap": _Lane("cheap", bot_only_every),
                       "search": _Lane("search", bot_only_every, self.usage, search_budget)}
        self._number = 0
        #: What the search lane did, oldest first, as (event, key, principals, monotonic time):
        #: "queued", "picked", "parked" (nobody attends the game), "done".  For the operator and tests.
        self.record: deque[tuple[str, str, tuple[str, ...], float]] = deque(maxlen=20_000)
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

    def submit(self, key: str, job: Job, *, search: bool, ordinary: bool, principals: tuple[str, ...] = (),
               present: Callable[[], bool] | None = None, park: Callable[[], None] | None = None) -> None:
        """Queue one move of game ``key`` at the back of its lane's ordinary or bot-only queue.

        ``principals``: whom the move is for (the search lane's shares); ``present``: asked when
        the search lane would run the move, False if nobody attends the game any more: the move is
        then not run but handed to ``park``.
        """
        lane = self._lanes["search" if search else "cheap"]
        with lane.cond:
            if self._closed:
                raise RuntimeError("the bot scheduler is closed")
            self._number += 1
            move = Move(key, job, tuple(principals), present, park, self._number)
            (lane.ordinary if ordinary else lane.bot_only).append(move)
            if search:
                self.record.append(("queued", key, move.principals, time.monotonic()))
            lane.cond.notify()

    def note_parked(self, key: str, principals: tuple[str, ...] = ()) -> None:
        """Record that game ``key``'s searching bot waits for somebody to come back (not queued)."""
        self.record.append(("parked", key, tuple(principals), time.monotonic()))

    def events(self, key: str | None = None) -> list[tuple[str, str, tuple[str, ...], float]]:
        """The search lane's record (of game ``key`` only, if given)."""
        return [e for e in list(self.record) if key is None or e[1] == key]

    def waiting(self) -> dict[str, int]:
        """Moves waiting per lane."""
        return {name: lane.waiting() for name, lane in self._lanes.items()}

    def _work(self, lane: _Lane, think) -> None:
        while True:
            parked: list[Move] = []
            with lane.cond:
                while True:
                    if self._closed:
                        return
                    if lane.usage is not None:    # moves of games nobody attends are not searched
                        parked = lane.drop(lambda m: m.present is None or _attended(m))
                        if parked:
                            break
                    picked = lane.pick()
                    if picked is not None:
                        break
                    # nothing to run now: wait for a new move (or, when principals are over their
                    # budget, for their use to decay)
                    lane.cond.wait(timeout=1.0 if lane.waiting_locked() else None)
            if parked:
                for move in parked:
                    self.record.append(("parked", move.key, move.principals, time.monotonic()))
                    if move.park is not None:
                        try:
                            move.park()
                        except Exception:
                            log.exception("parking the bot of game %s failed", move.key)
                continue
            self.picks.append((lane.name, picked.key))
            if lane.usage is not None:
                self.record.append(("picked", picked.key, picked.principals, time.monotonic()))
            started = time.monotonic()
            try:
                picked.job(think)
            except Exception:
                log.exception("bot move of game %s failed", picked.key)
            finally:
                if lane.usage is not None:
                    lane.usage.charge(picked.principals, time.monotonic() - started)
                    self.record.append(("done", picked.key, picked.principals, time.monotonic()))

    def _think(self, game_json: str, seat: int, spec: str, seed: int, max_think: float | None = None,
               bot_engine: str = "python") -> str:
        """A searching bot's move, computed in a worker process (the pool starts on first use)
        with ``bot_engine`` ("native" or "python")."""
        from .sessions import think_in_process

        with self._pool_lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=self.search_processes, mp_context=multiprocessing.get_context("spawn"),
                    initializer=search_worker_start, initargs=(os.getpid(),))
            pool = self._pool
        try:
            return pool.submit(think_in_process, game_json, seat, spec, seed, max_think, bot_engine).result()
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
