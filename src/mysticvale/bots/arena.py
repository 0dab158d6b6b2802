"""Seeded tournaments between bots.

:func:`run_matches` plays ``games`` games and returns a JSON-ready result dict.  Game ``i``
gets its own seed derived from the arena seed and ``i`` (and each bot its own seed derived
from the game seed and its seat), so a game's result does not depend on which process
played it or in which order: ``jobs=4`` gives exactly the result of ``jobs=1``.

Seats rotate: in game ``i`` seat ``s`` is played by entry ``(s + i) % players`` of the bot
list, so no bot keeps the first seat.

A game that reaches ``max_rounds`` (default 100; real games between bots last 10 to 35) is
stopped and scored as it stands, and counted as ``unfinished``.  The rules have no such
limit; it guards simulations against a stalemate the rules do not end, e.g. two bots whose
every card slot is full and whose fields show no VP symbol, so the VP pool never empties.

A bot is named as in :func:`mysticvale.bots.make_bot`, optionally with options after a
colon: ``ismcts:iterations=200:think=0``, or by its level (``druid``: a fixed configuration,
:mod:`.levels`), which the records keep as its name.  The arena's ``think`` goes to an
``ismcts`` that names no think time of its own (``native_batch.played_spec``, in either engine).  When the same bot plays two seats, its entries
are labelled ``greedy#1``, ``greedy#2`` so their results stay apart.

With ``engine="native"`` the native core plays the games; when it has every bot named
(``native_batch.plays``: ``random``, and ``greedy`` and ``ismcts`` with their options), the bots are its own too and each game is played
in Rust from start to end (``native_batch.play_games``), giving the same record.

Each process that plays games first settles its memory (:func:`mysticvale.runtime.settle`:
the catalogue is frozen out of the garbage collector's way), which made greedy games 10-15%
faster in our measurements (``benchmarks/README.md``) and changes no result.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Callable, Iterable

from ..engine.game import new_game
from ..engine.rng import derive_seed
from ..engine.scoring import winners as winners_now
from ..runtime import settle
from . import make_bot, native_batch
from .levels import expand
from .base import SeatView
from .stats import describe, wilson

_SEED_MASK = (1 << 62) - 1
MAX_ROUNDS = 100
#: Where the games run: this machine's processes, or a Ray cluster (:mod:`.cluster`).
BACKENDS = ("local", "ray")


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:think=0.5:iterations=100"`` -> ``("ismcts", {"think": 0.5, "iterations": 100})``."""
    parts = [p.strip() for p in spec.strip().split(":")]
    name = parts[0]
    if not name:
        raise ValueError(f"empty bot name in {spec!r}")
    opts: dict[str, Any] = {}
    for p in parts[1:]:
        if "=" not in p:
            raise ValueError(f"bot option {p!r} in {spec!r} must look like key=value")
        k, v = p.split("=", 1)
        opts[k.strip()] = _number(v.strip())
    return name, opts


def _number(v: str) -> Any:
    for cast in (int, float):
        try:
            return cast(v)
        except ValueError:
            pass
    return v


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i`` of an arena run with ``seed``."""
    return derive_seed(seed, f"arena.game{i}") & _SEED_MASK


def labels_for(specs: list[str]) -> list[str]:
    """Result labels: the bot spec, with #1, #2 ... when a spec appears more than once."""
    out = []
    for i, s in enumerate(specs):
        if specs.count(s) > 1:
            out.append(f"{s}#{specs[:i].count(s) + 1}")
        else:
            out.append(s)
    return out


def seat_bots(specs: list[str], seed: int, i: int, players: int,
              think: float | None = None, native: bool = False) -> tuple[list[int], list[Any]]:
    """Game ``i``'s seat rotation and bots: ``entry[seat]`` is the index in ``specs`` of the
    bot on that seat (``(seat + i) % players``), and ``bots[seat]`` that bot, seeded from the
    game seed and its seat.  ``native``: the native core's twin of a bot where it has one
    (the same moves under an iteration budget, far faster)."""
    gseed = game_seed(seed, i)
    entry = [(s + i) % players for s in range(players)]
    bots = []
    for s in range(players):
        name, opts = parse_bot(native_batch.played_spec(specs[entry[s]], think))
        bot_seed = derive_seed(gseed, f"bot{s}") & _SEED_MASK
        if native:
            from .native_bot import NativeBot, has_bot

            name, opts = expand(name, opts)
            if has_bot(name, opts):
                bots.append(NativeBot(name, seed=bot_seed, **opts))
                continue
        bots.append(make_bot(name, seed=bot_seed, **opts))
    return entry, bots


def run_tasks(work: Callable[[tuple], list[dict[str, Any]]], tasks: list[tuple], jobs: int,
              sets: tuple[str, ...], progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """Every record of ``work(task)`` for each of ``tasks``, played by ``jobs`` processes of
    this machine (each settled first), sorted by ``"game"``; ``progress(n)`` as they come."""
    records: list[dict[str, Any]] = []
    with ProcessPoolExecutor(max_workers=jobs, initializer=settle, initargs=(sets,)) as pool:
        futures = [pool.submit(work, t) for t in tasks]
        for f in as_completed(futures):
            records.extend(f.result())
            if progress:
                progress(len(records))
    records.sort(key=lambda r: r["game"])
    return records


def play_game(specs: list[str], seed: int, i: int, players: int, sets: tuple[str, ...], ruleset: str,
              think: float | None = None, max_rounds: int = MAX_ROUNDS, engine: str = "python",
              leaders: bool = False) -> dict[str, Any]:
    """Play game ``i`` to the end (or to ``max_rounds``); return its record (labels by
    seat, scores, winners, ...).  ``leaders``: with the Twilight Garden leaders (the bots
    choose theirs first).  ``engine``: the engine that plays it (``new_game``'s
    ``engine``); the record is the same with either.  With ``native``, when the native
    core has every bot (``native_batch.plays``), the whole game is played in Rust, bots
    included; otherwise the Python bots play the native game."""
    if engine == "native" and native_batch.plays(specs, think):
        return native_batch.play_games(specs, seed, [i], players, sets, ruleset, max_rounds, think=think,
                                       leaders=leaders)[0]
    labels = labels_for(specs)
    gseed = game_seed(seed, i)
    game = new_game(players=players, seed=gseed, sets=sets, ruleset=ruleset, engine=engine, leaders=leaders)
    entry, bots = seat_bots(specs, seed, i, players, think)
    decisions = [0] * players
    spent = [0.0] * players
    unfinished = False
    while not game.is_over():
        if game.round > max_rounds:
            unfinished = True      # a stalemate the rules do not end: score it as it stands
            break
        p = game.current_player
        t0 = time.perf_counter()
        action = bots[p].act(SeatView(game, p))
        spent[p] += time.perf_counter() - t0
        game.apply_action(action)
        decisions[p] += 1
    obs = game.observe(None)
    winners = winners_now(game.state) if unfinished else game.winners()
    return {
        "game": i,
        "seed": gseed,
        "seats": [labels[entry[s]] for s in range(players)],
        "scores": game.scores(),
        "winners": [labels[entry[w]] for w in winners],
        "rounds": obs["round"],
        "unfinished": unfinished,
        "decisions": decisions,
        "bot_seconds": spent,
    }


def _play_chunk(args: tuple) -> list[dict[str, Any]]:
    """The records of one task's games: ``args`` is ``(play_one, specs, seed, indices, *rest)``
    and each record ``play_one(specs, seed, i, *rest)`` (a module-level function, so that a
    process pool and Ray can send it)."""
    play_one, specs, seed, indices, *rest = args
    return [play_one(specs, seed, i, *rest) for i in indices]


def play_all(play_one: Callable[..., dict[str, Any]], specs: list[str], seed: int, games: int, players: int,
             sets: tuple[str, ...], ruleset: str, think: float | None, max_rounds: int, engine: str,
             leaders: bool, jobs: int, backend: str, address: str | None,
             progress: Callable[[int], None] | None = None) -> list[dict[str, Any]]:
    """The record of each of the run's games ``0 .. games - 1``, sorted by game:
    ``play_one(specs, seed, i, players, sets, ruleset, think, max_rounds, engine, leaders)``
    (:func:`play_game`, or the self-play generator's positions), played here (``jobs == 1``),
    by ``jobs`` processes of this machine, or on Ray (``backend="ray"``: the cluster at
    ``address``, game 0 here first to time a game, then tasks of about a second each,
    :mod:`.cluster`).  Game ``i``'s record does not depend on where it was played."""
    rest = (players, sets, ruleset, think, max_rounds, engine, leaders)

    def tasks(indices: range, chunk: int) -> list[tuple]:
        return [(play_one, specs, seed, list(indices[k:k + chunk]), *rest) for k in range(0, len(indices), chunk)]

    if backend == "ray":
        from . import cluster

        with cluster.session(address):
            settle(sets=sets)
            t0 = time.perf_counter()
            first = play_one(specs, seed, 0, *rest)
            return cluster.run(tasks(range(1, games), cluster.chunk_size(time.perf_counter() - t0)), first, progress)
    if jobs == 1:
        settle(sets=sets)        # the catalogue lives as long as the process: out of gc's way
        records = []
        for i in range(games):
            records.append(play_one(specs, seed, i, *rest))
            if progress:
                progress(len(records))
        return records
    # Small chunks keep the processes busy to the end and the progress bar moving.
    chunk = max(1, min(8, games // (jobs * 8) or 1))
    return run_tasks(_play_chunk, tasks(range(games), chunk), jobs, sets, progress)


def checked_run(bots: Iterable[str], games: int, players: int, seed: int, sets: Iterable[str], ruleset: str,
                jobs: int, think: float | None, max_rounds: int, engine: str, leaders: bool, backend: str,
                address: str | None) -> list[str]:
    """The bot spec of every entry of a run (``bots`` repeated in order to fill the seats),
    after checking every option of :func:`run_matches` here, before any game is played:
    ValueError (or the engine's own error) saying what is wrong."""
    sets = tuple(sets)
    specs = [b.strip() for b in bots if b.strip()]
    if not specs:
        raise ValueError("name at least one bot")
    if not 2 <= players <= 4:
        raise ValueError(f"players must be 2 to 4, not {players}")
    if len(specs) > players:
        raise ValueError(f"{len(specs)} bots named for {players} seats")
    named = list(specs)
    while len(specs) < players:          # fewer names than seats: repeat them in order
        specs.append(named[len(specs) % len(named)])
    if games < 1:
        raise ValueError("games must be at least 1")
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    if max_rounds < 1:
        raise ValueError("max_rounds must be at least 1")
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ValueError("an address is for the ray backend (--backend ray)")
    for s in specs:        # fail early, in this process, on an unknown bot or option
        name, opts = parse_bot(native_batch.played_spec(s, think))
        make_bot(name, seed=0, **opts)
    new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, engine=engine, leaders=leaders)  # validates
    return specs


def run_matches(bots: Iterable[str], games: int = 100, players: int = 2, seed: int = 1,
                sets: Iterable[str] = ("base",), ruleset: str = "yucata", jobs: int = 1,
                think: float | None = None, max_rounds: int = MAX_ROUNDS,
                progress: Callable[[int], None] | None = None, engine: str = "python",
                leaders: bool = False, backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Play ``games`` seeded games between ``bots`` and return the statistics.

    ``bots``: one spec per seat (``players`` of them), or fewer specs that are repeated to
    fill the seats.  ``progress(n)`` is called as games finish (n = games done so far).
    ``engine``: ``python`` or ``native`` (the same games, so the same result but for the
    timing).  ``leaders``: every game with the Twilight Garden leaders (``sets`` must hold it).
    ``backend``: ``local`` (this machine's processes, ``jobs`` of them) or ``ray`` (the Ray
    cluster at ``address``, or a local one when it is None: :mod:`.cluster`); the games and so
    the result are the same.
    The result has ``games``, ``wins``, ``win_rate``, ``win_rate_ci95`` (Wilson), ``ties``,
    ``shared_wins``, ``scores``, ``rounds``, ``unfinished`` (games stopped at ``max_rounds``),
    ``first_seat_wins``, ``per_game`` and ``timing``
    (wall-clock figures, the only part that differs between identical runs).
    """
    sets = tuple(sets)
    specs = checked_run(bots, games, players, seed, sets, ruleset, jobs, think, max_rounds, engine, leaders,
                        backend, address)

    t0 = time.perf_counter()
    records = play_all(play_game, specs, seed, games, players, sets, ruleset, think, max_rounds, engine, leaders,
                       jobs, backend, address, progress)
    elapsed = time.perf_counter() - t0
    return summarize(records, specs, players=players, seed=seed, sets=sets, ruleset=ruleset,
                     elapsed=elapsed, jobs=jobs, think=think, engine=engine, leaders=leaders, backend=backend)


def summarize(records: list[dict[str, Any]], specs: list[str], *, players: int, seed: int,
              sets: tuple[str, ...], ruleset: str, elapsed: float, jobs: int,
              think: float | None, engine: str = "python", leaders: bool = False,
              backend: str = "local") -> dict[str, Any]:
    """The arena's result dict from per-game records."""
    labels = labels_for(specs)
    n = len(records)
    wins = {lb: 0 for lb in labels}
    shared = {lb: 0.0 for lb in labels}
    scores: dict[str, list[int]] = {lb: [] for lb in labels}
    margins: dict[str, list[int]] = {lb: [] for lb in labels}
    seat_wins = [0.0] * players
    ties = 0
    decisions = {lb: 0 for lb in labels}
    bot_seconds = {lb: 0.0 for lb in labels}
    for r in records:
        if len(r["winners"]) > 1:
            ties += 1
        for w in r["winners"]:
            shared[w] += 1 / len(r["winners"])
            if len(r["winners"]) == 1:
                wins[w] += 1
        for s, lb in enumerate(r["seats"]):
            scores[lb].append(r["scores"][s])
            others = [r["scores"][o] for o in range(players) if o != s]
            margins[lb].append(r["scores"][s] - max(others))
            decisions[lb] += r["decisions"][s]
            bot_seconds[lb] += r["bot_seconds"][s]
            if lb in r["winners"]:
                seat_wins[s] += 1 / len(r["winners"])
    rounds = [r["rounds"] for r in records]
    total_decisions = sum(decisions.values())
    return {
        "games": n,
        "players": players,
        "bots": labels,
        "seed": seed,
        "sets": list(sets),
        "ruleset": ruleset,
        "leaders": leaders,
        "think": think,
        "wins": wins,
        "win_rate": {lb: round(wins[lb] / n, 4) for lb in labels},
        "win_rate_ci95": {lb: [round(x, 4) for x in wilson(wins[lb], n)] for lb in labels},
        "shared_wins": {lb: round(shared[lb], 4) for lb in labels},
        "ties": ties,
        "scores": {lb: describe(scores[lb]) for lb in labels},
        "margin": {lb: describe(margins[lb]) for lb in labels},
        "rounds": describe(rounds),
        "unfinished": sum(1 for r in records if r.get("unfinished")),
        "first_seat_wins": round(seat_wins[0], 4),
        "decisions": decisions,
        "per_game": [{k: r[k] for k in ("game", "seed", "seats", "scores", "winners", "rounds", "unfinished")
                      if k in r} for r in records],
        "timing": {
            "seconds": round(elapsed, 3),
            "jobs": jobs,
            "backend": backend,
            "engine": engine,
            "games_per_second": round(n / elapsed, 3) if elapsed > 0 else None,
            "decisions_per_second": round(total_decisions / elapsed, 1) if elapsed > 0 else None,
            "bot_ms_per_decision": {lb: round(1000 * bot_seconds[lb] / decisions[lb], 3) if decisions[lb]
                                    else None for lb in labels},
        },
    }


__all__ = ["run_matches", "play_game", "summarize", "parse_bot", "game_seed", "labels_for"]
