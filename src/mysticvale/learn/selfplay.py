"""The self-play generator: seeded games between bots, and the positions a learner fits to.

Game ``i`` is the arena's game ``i`` (:mod:`mysticvale.bots.arena`: its seed comes from the
run's seed and ``i``, the seats rotate, each bot is seeded from the game seed and its seat),
so its positions do not depend on which process, machine or chunk played it: ``jobs=2``, or
a Ray cluster (``backend="ray"``), gives the same :class:`Positions` as ``jobs=1``, for bots
with iteration budgets (a think time plays as far as the machine lets it).

A *position* is taken at the first decision of every turn that offers a choice (as the
value model's fit, ``benchmarks/fit_value_model.py``): for every seat, the value model's
:data:`~mysticvale.bots.value_model.FEATURES` from that seat's own observation, the seat on
move, the start player, the VP pool, the rounds the greedy bot expects to be left and the turn number; and,
once the game ends, each seat's share of the win (1, 0, or 1/k of a k-way tie).  Each game
has its own evaluator, so no game's features depend on another's.
"""

from __future__ import annotations

import json
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from ..bots import SeatView
from ..bots.arena import MAX_ROUNDS, checked_run, game_seed, play_all, seat_bots
from ..bots.greedy import Greedy, rounds_left
from ..bots.value_model import FEATURES, ValueModel
from ..engine.game import new_game
from ..engine.scoring import winners as winners_now
from ..errors import SaveError

#: The version of the positions file; a file of another version is refused.
FORMAT = 2
#: The arrays of a positions file, each with one row per position.
ARRAYS = ("game", "turn", "mover", "first", "pool", "rounds_left", "features", "result")


@dataclass
class Positions:
    """Positions of self-play games, one row each (see the module's docstring):

    ``game`` (the game's index in the run), ``turn``, ``mover`` (the seat on move),
    ``first`` (the start player), ``pool`` (VP tokens left), ``rounds_left`` (the greedy bot's estimate), ``features``
    (positions x seats x FEATURES), ``result`` (positions x seats: each seat's share of the
    win); ``meta``: how they were made (bots, seed, games, players, sets, rule set, ...).
    """

    game: np.ndarray
    turn: np.ndarray
    mover: np.ndarray
    first: np.ndarray
    pool: np.ndarray
    rounds_left: np.ndarray
    features: np.ndarray
    result: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.game)

    def save(self, path: str | Path) -> None:
        """Write the positions to ``path`` (a numpy ``.npz`` file; the meta as JSON in it)."""
        arrays = {k: getattr(self, k) for k in ARRAYS}
        with open(path, "wb") as f:
            np.savez_compressed(f, meta=np.array(json.dumps(self.meta, sort_keys=True)), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> "Positions":
        """The positions in the file at ``path``.  ``SaveError`` for a file that is not a
        positions file of this version, or whose arrays do not fit together."""
        try:
            with np.load(path, allow_pickle=False) as z:
                missing = [k for k in ("meta", *ARRAYS) if k not in z.files]
                if missing:
                    raise SaveError(f"{path}: not a positions file (no {', '.join(missing)})")
                meta = json.loads(str(z["meta"]))
                arrays = {k: z[k] for k in ARRAYS}
        except (OSError, ValueError, zipfile.BadZipFile, EOFError) as exc:
            if isinstance(exc, SaveError):
                raise
            raise SaveError(f"{path}: not a positions file ({exc})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise SaveError(f"{path}: a positions file of format {meta.get('format') if isinstance(meta, dict) else '?'}"
                            f", not {FORMAT}")
        out = cls(meta=meta, **arrays)
        out.check()
        return out

    def check(self) -> None:
        """``SaveError`` unless every array has a row per position and the shapes agree."""
        n = len(self.game)
        for k in ARRAYS:
            a = getattr(self, k)
            if len(a) != n:
                raise SaveError(f"positions: {k} has {len(a)} rows, not {n}")
        seats = self.meta.get("players")
        if self.features.ndim != 3 or self.features.shape[1:] != (seats, len(FEATURES)):
            raise SaveError(f"positions: features of shape {self.features.shape[1:]}, "
                            f"not ({seats}, {len(FEATURES)})")
        if self.result.ndim != 2 or self.result.shape[1] != seats:
            raise SaveError(f"positions: results of shape {self.result.shape[1:]}, not ({seats},)")
        if not np.all(np.isfinite(self.features)) or not np.all(np.isfinite(self.result)):
            raise SaveError("positions: a feature or a result is not a finite number")


def play_positions(specs: list[str], seed: int, i: int, players: int, sets: tuple[str, ...], ruleset: str,
                   think: float | None = None, max_rounds: int = MAX_ROUNDS, engine: str = "python",
                   leaders: bool = False) -> dict[str, Any]:
    """Play game ``i`` of the run (the arena's game ``i``) and return its positions as a
    record: ``game``, and per position ``turn``, ``mover``, ``pool``, ``rounds_left``,
    ``features`` (seats x FEATURES) and the game's ``result`` (each seat's share).
    ``engine="native"``: the native core plays the game, and its twins of the bots play
    their seats (the same positions for bots with iteration budgets, many times faster)."""
    game = new_game(players=players, seed=game_seed(seed, i), sets=sets, ruleset=ruleset, leaders=leaders,
                    engine=engine)
    _, bots = seat_bots(specs, seed, i, players, think, native=engine == "native")
    model = ValueModel(Greedy(seed=0))
    rows: dict[str, list] = {k: [] for k in ("turn", "mover", "first", "pool", "rounds_left", "features")}
    seen_turn = -1
    unfinished = False
    while not game.is_over():
        if game.round > max_rounds:
            unfinished = True
            break
        p = game.current_player
        st = game.state
        if st.turn_number != seen_turn and len(game.legal_actions()) > 1:
            seen_turn = st.turn_number
            views = [game.observe(q) for q in range(players)]
            for o in views:
                model.ev._remember(o)
            rows["turn"].append(st.turn_number)
            rows["mover"].append(p)
            rows["first"].append(st.first_player)
            rows["pool"].append(max(0, st.vp_pool))
            rows["rounds_left"].append(rounds_left(views[p]))
            rows["features"].append([model.seat_features(views[q], q) for q in range(players)])
        game.apply_action(bots[p].act(SeatView(game, p)))
    won = winners_now(game.state) if unfinished else game.winners()
    return {"game": i, "result": [1.0 / len(won) if q in won else 0.0 for q in range(players)], **rows}


def generate(bots: Iterable[str], games: int, players: int = 2, seed: int = 1, sets: Iterable[str] = ("base",),
             ruleset: str = "yucata", jobs: int = 1, think: float | None = None, max_rounds: int = MAX_ROUNDS,
             leaders: bool = False, backend: str = "local", address: str | None = None,
             progress: Callable[[int], None] | None = None, engine: str = "python") -> Positions:
    """The positions of ``games`` seeded self-play games between ``bots`` (one spec per seat,
    or fewer, repeated to fill the seats, as :func:`mysticvale.bots.arena.run_matches`).
    ``backend``: ``local`` (``jobs`` processes of this machine) or ``ray`` (the Ray cluster at
    ``address``, or one started here when it is None); the positions are the same.
    ``engine``: ``python`` or ``native`` (:func:`play_positions`).  ``progress(n)``: called
    as games finish.  ValueError for a bad option or bot."""
    sets = tuple(sets)
    specs = checked_run(bots, games, players, seed, sets, ruleset, jobs, think, max_rounds, engine, leaders,
                        backend, address)
    t0 = time.perf_counter()
    records = play_all(play_positions, specs, seed, games, players, sets, ruleset, think, max_rounds, engine,
                       leaders, jobs, backend, address, progress)
    meta = {"format": FORMAT, "features": list(FEATURES), "bots": specs, "seed": seed, "games": games,
            "players": players, "sets": list(sets), "ruleset": ruleset, "leaders": leaders, "think": think,
            "engine": engine, "max_rounds": max_rounds, "seconds": round(time.perf_counter() - t0, 3)}
    return _stack(records, players, meta)


def _stack(records: list[dict[str, Any]], players: int, meta: dict[str, Any]) -> Positions:
    """One :class:`Positions` of the games' records, in the order of the games."""
    records = sorted(records, key=lambda r: r["game"])
    k = len(FEATURES)
    col: dict[str, list] = {key: [] for key in ("game", "turn", "mover", "first", "pool", "rounds_left", "result")}
    feats: list = []
    for r in records:
        n = len(r["turn"])
        col["game"] += [r["game"]] * n
        col["result"] += [r["result"]] * n
        for key in ("turn", "mover", "first", "pool", "rounds_left"):
            col[key] += r[key]
        feats += r["features"]
    out = Positions(
        game=np.array(col["game"], dtype=np.int64), turn=np.array(col["turn"], dtype=np.int64),
        mover=np.array(col["mover"], dtype=np.int64), first=np.array(col["first"], dtype=np.int64), pool=np.array(col["pool"], dtype=np.int64),
        rounds_left=np.array(col["rounds_left"], dtype=np.float64),
        features=np.array(feats, dtype=np.float64).reshape(-1, players, k),
        result=np.array(col["result"], dtype=np.float64).reshape(-1, players), meta=meta)
    out.check()
    return out


__all__ = ["ARRAYS", "FORMAT", "Positions", "generate", "play_positions"]
