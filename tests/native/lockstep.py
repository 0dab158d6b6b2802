"""Lockstep play: the same seeded game in both engines, compared after every step.

A game is played by the Python engine and the native core side by side: before each action
both must offer the same legal actions (the same list, in the same order) and write the
same save (``to_json()``), and every seat and the spectator must observe the same
(``observe()``); then one action, chosen on the Python game (by a seeded random pick or by
the Python greedy bot of the seat to act), is applied to both.  The first difference stops
the game and is returned as a :class:`Divergence` that says where and what differs.

Used by ``tests/native/test_native_lockstep.py`` and ``benchmarks/diff_native.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import mysticvale as mv
from mysticvale.bots import SeatView, make_bot
from mysticvale.engine.rng import Rng, derive_seed
from mysticvale.engine.serialize import dumps

SET_LISTS = [("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
             ("base", "vale_of_magic", "twilight_garden"), ("vale_of_magic", "twilight_garden")]
RULESETS = ("yucata", "english", "german")
POLICIES = ("random", "greedy")
#: Actions after which a game is stopped (random play of every option ends far earlier).
LIMIT = 3000


@dataclass
class Options:
    """One game's options, as ``new_game`` takes them, and who chooses the actions."""

    seed: int
    players: int = 2
    sets: tuple[str, ...] = ("base",)
    ruleset: str = "yucata"
    leaders: bool = False
    finish_turn: bool = False
    policy: str = "random"

    def game_options(self) -> dict[str, Any]:
        return dict(players=self.players, seed=self.seed, sets=self.sets, ruleset=self.ruleset,
                    leaders=self.leaders and "twilight_garden" in self.sets, finish_turn=self.finish_turn)

    def __str__(self) -> str:
        o = self.game_options()
        return (f"seed={o['seed']} players={o['players']} sets={'+'.join(o['sets'])} ruleset={o['ruleset']} "
                f"leaders={o['leaders']} finish_turn={o['finish_turn']} policy={self.policy}")


@dataclass
class Divergence:
    """Where the two engines first differ."""

    options: Options
    step: int                       # actions applied before the difference
    history: list[str]
    what: str                       # "legal actions", "save", "observe(seat)", "error", ...
    python: str
    native: str

    def first_difference(self) -> str:
        """The first place the two texts differ, as a JSON path when both are JSON."""
        try:
            a, b = json.loads(self.python), json.loads(self.native)
        except (ValueError, TypeError):
            a, b = self.python, self.native
        return _first_difference(a, b, "")

    def __str__(self) -> str:
        return (f"divergence in {self.what} after {self.step} actions ({self.options})\n"
                f"  first difference: {self.first_difference()}\n"
                f"  actions: {' | '.join(self.history)}\n"
                f"  python: {self.python}\n"
                f"  native: {self.native}")


def _first_difference(a: Any, b: Any, path: str) -> str:
    if type(a) is not type(b):
        return f"{path or '.'}: python {a!r:.300} / native {b!r:.300}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}.{k}: only in {'native' if k not in a else 'python'}"
            if a[k] != b[k]:
                return _first_difference(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
        if len(a) != len(b):
            return f"{path}: python has {len(a)} items, native {len(b)}"
    if a != b:
        return f"{path or '.'}: python {a!r:.300} / native {b!r:.300}"
    return "(none)"


@dataclass
class Result:
    """One lockstep game: how far it went, and its first divergence if any."""

    options: Options
    steps: int = 0
    over: bool = False
    observed: int = 0               # observations compared
    divergence: Divergence | None = None
    decisions: dict[str, int] = field(default_factory=dict)   # decision kinds met, counted


def chooser(opts: Options) -> Callable[[mv.Game], mv.Action]:
    """The action picker of a game: seeded random, or the Python greedy bot of each seat."""
    if opts.policy == "random":
        rng = Rng(opts.seed)

        def pick(game: mv.Game) -> mv.Action:
            legal = game.legal_actions()
            return legal[rng.below("random", len(legal))]
        return pick
    if opts.policy == "greedy":
        bots = [make_bot("greedy", seed=derive_seed(opts.seed, f"lockstep.bot{s}") & ((1 << 62) - 1))
                for s in range(opts.players)]

        def pick(game: mv.Game) -> mv.Action:
            p = game.current_player
            return bots[p].act(SeatView(game, p))
        return pick
    raise ValueError(f"unknown policy {opts.policy!r}; policies are: {', '.join(POLICIES)}")


def _decision(game: mv.Game) -> str:
    st = game.state
    if st.pending:
        return st.pending[-1].kind
    return st.turn.phase


def python_save_since(game: mv.Game, since: int) -> str:
    """The Python game's save with only the events from number ``since`` on (the twin of
    the native ``to_json_since``): events are only ever appended, so comparing each
    comparison's new events and the rest of the save compares the whole save."""
    st = game.state
    events = st.events
    st.events = events[since:]
    try:
        return dumps(st)
    finally:
        st.events = events


def play(opts: Options, *, every_step: bool = True, observe: bool = True, limit: int = LIMIT,
         actions: list[str] | None = None) -> Result:
    """Play one game in both engines.  Before every action the legal actions (in order),
    the seat to act and the phase are compared.  The save (``to_json()``) and every seat's
    and the spectator's observation (``observe``) are compared after every step
    (``every_step``), or else the save at the first decision of every turn and the
    observations at the first decision of every round; the whole save, the observations and
    the scores at the end either way.  ``actions``: replay these instead of choosing."""
    res = Result(opts)
    py = mv.new_game(**opts.game_options())
    history: list[str] = []

    def diverged(what: str, a: Any, b: Any) -> Result:
        res.divergence = Divergence(opts, res.steps, list(history), what, str(a), str(b))
        return res

    try:
        nat = mv.new_game(engine="native", **opts.game_options())
    except Exception as exc:  # noqa: BLE001  (a native failure is what we look for)
        return diverged("set-up", "a game", f"{type(exc).__name__}: {exc}")
    a, b = py.to_json(), nat.to_json()
    if a != b:
        return diverged("save", a, b)
    pick = chooser(opts) if actions is None else None
    script: Iterator[str] = iter(actions or ())
    events = 0                    # events compared so far
    turn = rnd = -1
    while True:
        st = py.state
        end = st.over or res.steps >= limit
        if every_step or st.turn_number != turn or end:
            turn = st.turn_number
            a, b = python_save_since(py, events), nat._st.to_json_since(events)
            if a != b:
                return diverged("save" if events == 0 else f"save (events from {events} on)", a, b)
            events = len(st.events)
            if observe and (every_step or st.round != rnd or end):
                rnd = st.round
                for seat in (None, *range(opts.players)):
                    o_py, o_nat = py.observe(seat), nat.observe(seat)
                    res.observed += 1
                    if o_py != o_nat:
                        return diverged(f"observe({seat})", json.dumps(o_py, sort_keys=True),
                                        json.dumps(o_nat, sort_keys=True))
        legal_py = [str(x) for x in py.legal_actions()]
        try:
            legal_nat = [str(x) for x in nat.legal_actions()]
        except Exception as exc:  # noqa: BLE001
            return diverged("legal actions", legal_py, f"{type(exc).__name__}: {exc}")
        if legal_py != legal_nat:
            return diverged("legal actions", legal_py, legal_nat)
        if (py.current_player, py.phase, py.is_over()) != (nat.current_player, nat.phase, nat.is_over()):
            return diverged("current player, phase, over", (py.current_player, py.phase, py.is_over()),
                            (nat.current_player, nat.phase, nat.is_over()))
        if py.is_over() or res.steps >= limit:
            res.over = py.is_over()
            a, b = py.to_json(), nat.to_json()
            if a != b:
                return diverged("save at the end", a, b)
            if (py.scores(), py.winners()) != (nat.scores(), nat.winners()):
                return diverged("scores, winners", (py.scores(), py.winners()), (nat.scores(), nat.winners()))
            return res
        kind = _decision(py)
        res.decisions[kind] = res.decisions.get(kind, 0) + 1
        if pick is not None:
            action = str(pick(py))
        else:
            action = next(script, None)
            if action is None:
                res.over = py.is_over()
                return res
        py.apply_action(action)
        history.append(action)
        try:
            nat.apply_action(action)
        except Exception as exc:  # noqa: BLE001
            return diverged(f"applying {action!r}", "applied", f"{type(exc).__name__}: {exc}")
        res.steps += 1


def locate(div: Divergence) -> Divergence:
    """The first step at which a divergence found by a lighter comparison shows: the same
    game replayed with every comparison after every step."""
    again = play(div.options, every_step=True, observe=True, actions=div.history)
    return again.divergence or div
