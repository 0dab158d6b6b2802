"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search" (2012): one tree
for the searching seat, whose nodes are reached by actions (keyed by their notation).  Each
iteration

1. samples a *determinization*: a full game consistent with what the seat knows
   (``SeatView.determinize``: hidden deck and supply order reshuffled),
2. descends the tree through the actions legal in that sample, choosing by UCB1 with
   availability counts (a child's exploration term uses how often it was *available*,
   not how often its parent was visited, since actions exist only in some samples),
3. adds one new node,
4. plays on with a cheap rollout policy (the greedy bot's rules, without its lookahead)
   until ``horizon`` turns have ended or the game is over, and
5. scores the position for every seat with its chance of winning under the fitted value
   model (``value_model.ValueModel``: weights fitted to who won 2 000 greedy games; a
   finished game scores 1 / 0 / shared), or with ``value="greedy"`` a logistic of the
   greedy bot's hand-set position value on a scale calibrated to the VP pool left,
   and backs the score up the path, each node taking the score of the seat that chose it.

Forced moves (a single legal action) are played without a tree node.  The greedy rules'
choice at each node (at the root the full greedy bot's, deeper the rollout rules') gets a
progressive-bias bonus, and the move played is the most visited child of the root unless
that is not clearly (``margin`` times) more visited than the greedy choice.

Budget: ``iterations`` and/or ``think`` (seconds per decision).  With an iteration budget
alone the bot is deterministic for a seed; a time budget makes the number of iterations,
and so the move, depend on the machine.
"""

from __future__ import annotations

import math
import time
from typing import Any

from ..engine.actions import Action
from ..engine.rng import Rng
from .base import SeatView
from .greedy import Greedy
from .value_model import ValueModel, finished_shares, seat_observations


class _Node:
    __slots__ = ("children", "visits", "avail", "reward", "player", "pref")

    def __init__(self, player: int | None) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.player = player       # the seat whose action led here
        self.pref: str | None = None   # the rollout policy's choice here (progressive bias)


class ISMCTS:
    """SO-ISMCTS with a greedy rollout and a fitted value cut-off.

    Options: ``think`` seconds per decision (default 0.5; 0 = no time limit),
    ``iterations`` (default None = until the time is up; at least one of the two must
    bound the search), ``horizon`` (turns ended before scoring; default 3: in a
    two-player game, the end of the searching seat's *next* turn, so the on-deck card and
    deck it leaves itself count; 1 = the end of the current turn), ``c`` (UCB exploration
    constant), ``value`` (``"model"``, the default: the fitted value model; ``"net"``: the
    learned value network, ``value_net``; ``"greedy"``: the greedy bot's position value), ``scale`` (with ``value="greedy"`` only: the VP
    difference that moves the score from 1/2 to about 3/4: a number, or ``"auto"``, the
    default, for :func:`calibrated_scale`), ``prior``
    (progressive-bias bonus of the greedy rules' choice), ``margin`` (the most visited move
    replaces the greedy choice only with ``margin`` times its visits).
    """

    name = "ismcts"

    def __init__(self, seed: int = 0, think: float = 0.5, iterations: int | None = None,
                 horizon: int = 3, c: float = 0.5, scale: float | str = "auto", prior: float = 0.3,
                 margin: float = 1.5, value: str = "model") -> None:
        if think is None:
            think = 0.0
        if think < 0:
            raise ValueError(f"think must be >= 0 seconds, not {think!r}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations!r}")
        if not think and not iterations:
            raise ValueError("give ismcts a budget: think > 0 seconds and/or iterations >= 1")
        if horizon < 1:
            raise ValueError(f"horizon must be at least 1 turn, not {horizon!r}")
        self.rng = Rng(seed)
        self.think = float(think)
        if not math.isfinite(self.think):
            # (nan passes ``think < 0``; either would search for ever)
            raise ValueError(f"think must be a finite number of seconds, not {think!r}")
        self.iterations = int(iterations) if iterations else None
        self.horizon = int(horizon)
        self.c = float(c)
        if scale == "auto":
            self.scale: float | None = None
        else:
            try:
                self.scale = float(scale)
            except (TypeError, ValueError):
                raise ValueError(f"scale must be a number of VP or 'auto', not {scale!r}") from None
            if not self.scale > 0:
                raise ValueError(f"scale must be more than 0 VP, not {scale!r}")
        self.prior = float(prior)
        self.margin = float(margin)
        if value not in ("model", "greedy", "net"):
            raise ValueError(f"value must be 'model', 'greedy' or 'net', not {value!r}")
        self.value = value
        # The rollout policy: greedy rules only (no determinized lookahead), one reveal deep.
        self.rollout = Greedy(seed=seed, depth=1, samples=1)
        self.rollout._in_lookahead = True
        # The evaluator shares what the rollout policy learns of advancements (their copies
        # as seen in the commons), which the value function uses for sleeved abilities.
        self.evaluator = Greedy(seed=seed)
        self.evaluator._copies = self.rollout._copies
        self.model = ValueModel(self.evaluator)
        if value == "net":
            from .value_net import ValueNet

            self.net = ValueNet(self.model)
        #: Statistics of the last decision (iterations, seconds, root visits by action).
        self.last: dict[str, Any] = {}

    # -- entry point ----------------------------------------------------------------
    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("the bot was asked to act when its seat has nothing to do")
        if len(legal) == 1:
            self.last = {}
            return legal[0]
        obs = view.observe()
        self.rollout._remember(obs)
        stop_turn = obs["turn_number"] + self.horizon
        root = _Node(None)
        start = time.perf_counter()     # the think budget covers the whole decision
        # The root's preferred move comes from the full greedy rules (two reveals deep, with
        # their determinized lookahead for ability choices), the opponent's own strength;
        # deeper nodes use the cheap rollout rules.
        root.pref = str(self.evaluator.choose(view, obs, legal))
        deadline = start + self.think if self.think else None
        n = 0
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if deadline is not None and n > 0 and time.perf_counter() >= deadline:
                break
            self._iterate(view, root, stop_turn)
            n += 1
        by_key = {str(a): a for a in legal}
        stats = {k: (ch.visits, ch.reward / ch.visits if ch.visits else 0.0)
                 for k, ch in root.children.items() if k in by_key}
        self.last = {"iterations": n, "seconds": time.perf_counter() - start, "root": stats}
        if not stats:
            return self.rollout.choose(view, obs, legal)
        # Most visits; ties broken by mean reward, then by the order of the legal list.
        order = {str(a): i for i, a in enumerate(legal)}
        best = max(stats, key=lambda k: (stats[k][0], stats[k][1], -order[k]))
        pref = root.pref
        if pref in stats and best != pref and stats[best][0] < self.margin * stats[pref][0]:
            # The search did not clearly beat the greedy rules' choice: keep it (a near
            # tie in visits is noise, e.g. between sleeve targets worth about the same).
            best = pref
        return by_key[best]

    # -- one iteration ------------------------------------------------------------
    def _iterate(self, view: SeatView, root: _Node, stop_turn: int) -> None:
        g = view.determinize(self.rng)
        node = root
        path: list[_Node] = []
        expanded = False
        while not g.is_over():
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply_action(legal[0])
                continue
            p = g.current_player
            # ``g`` is this iteration's own sampled world, so reading its turn counter (public
            # anyway) directly is no peek at hidden information; it saves an observe().
            if path and g.state.turn_number >= stop_turn:
                break
            if node.pref is None:
                # Progressive bias: the greedy rules' choice here is tried first and keeps a
                # bonus that fades with visits, so the search departs from it only on evidence.
                sv = SeatView(g, p)
                node.pref = str(self.rollout.choose(sv, sv.observe(), legal))
            children = node.children
            untried = []
            for a in legal:
                ch = children.get(str(a))
                if ch is None:
                    untried.append(a)
                else:
                    ch.avail += 1
            if untried:
                pick = next((a for a in untried if str(a) == node.pref), None)
                if pick is None:
                    pick = untried[self.rng.below("expand", len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(p)
                child.avail = 1
                children[str(pick)] = child
                g.apply_action(pick)
                path.append(child)
                expanded = True
                break
            # UCB1 over the children available in this determinization.
            best, best_a, best_ch = -1.0, None, None
            for a in legal:
                ch = children[str(a)]
                u = ch.reward / ch.visits + self.c * math.sqrt(math.log(ch.avail) / ch.visits)
                if node.pref == str(a):
                    u += self.prior / (ch.visits + 1)
                if u > best:
                    best, best_a, best_ch = u, a, ch
            assert best_a is not None and best_ch is not None
            g.apply_action(best_a)
            node = best_ch
            path.append(node)
        if expanded:
            self._rollout(g, stop_turn)
        rewards = self._score(g)
        for nd in path:
            nd.visits += 1
            if nd.player is not None:
                nd.reward += rewards[nd.player]

    def _rollout(self, g, stop_turn: int) -> None:
        steps = 0
        while not g.is_over() and steps < 400:
            legal = g.legal_actions()
            if len(legal) == 1:
                g.apply_action(legal[0])
                continue
            if g.state.turn_number >= stop_turn:
                return
            sv = SeatView(g, g.current_player)
            g.apply_action(self.rollout.choose(sv, sv.observe(), legal))
            steps += 1

    def _score(self, g) -> list[float]:
        """Each seat's score in [0, 1]."""
        if self.value == "model":
            return self.model.win_chances(g)
        if self.value == "net":
            return self.net.win_chances(g)
        n = g.players
        if g.is_over():
            return finished_shares(g)
        obs = seat_observations(g)
        vals = [self.evaluator.position_value(obs[p], p, relative=False) for p in range(n)]
        scale = self.scale or calibrated_scale(g.state.vp_pool)
        out = []
        for p in range(n):
            other = max(vals[q] for q in range(n) if q != p)
            out.append(1.0 / (1.0 + math.exp(-(vals[p] - other) / scale)))
        return out


#: ``calibrated_scale(pool) = SCALE_BASE + SCALE_PER_VP * pool``: fitted by maximum
#: likelihood to who won 600 greedy-vs-greedy two-player base games (18 188 positions, one
#: at the start of every turn; ``benchmarks/fit_value_scale.py``).  Early on, a lead in
#: position value says little (the fitted scale is about 17 VP with a full pool of 23); as the
#: pool drains it says more (about 4 VP with 2 left).  A fixed scale of 3 fitted far worse
#: (mean log-loss 0.86, worse than a coin's 0.69; the calibrated scale: 0.50).
SCALE_BASE = 3.0
SCALE_PER_VP = 0.6


def calibrated_scale(vp_pool: int) -> float:
    """The VP difference in position value worth about a quarter of a win at this pool."""
    return SCALE_BASE + SCALE_PER_VP * max(0, vp_pool)


def _register() -> None:
    from . import register
    register("ismcts", ISMCTS)


_register()

__all__ = ["ISMCTS"]
