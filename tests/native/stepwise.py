"""Step-by-step comparison of the two engines, for porting one rules module at a time.

The Python engine plays seeded random games; at chosen moments the native core loads the
Python save and both engines do the same single piece of work: run the next scheduled
step (``STEPS[kind]``), or apply an action to the open decision or phase without running
what follows.  Their saves must then be the same text.  So a module's steps and decisions
are checked before the modules around them exist in the twin.
"""

from __future__ import annotations

from typing import Iterator

import mysticvale as mv
from mysticvale.engine import flow, native
from mysticvale.engine.registry import DECISIONS, HARVEST, STEPS
from mysticvale.engine.rng import Rng

SET_LISTS = [("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
             ("base", "vale_of_magic", "twilight_garden"), ("vale_of_magic", "twilight_garden")]


def twin(game: mv.Game):
    """The native state of a Python game, loaded from its save."""
    return native.module().State.from_json(native.catalogue(game.state.cat), game.to_json())


def python_step(game: mv.Game) -> str:
    """Run only the next scheduled step of a Python game; its kind."""
    st = game.state
    s = st.steps.pop()
    st.memo = flow._NO_MEMO
    try:
        STEPS[s.kind](st, s)
    finally:
        st.memo = {}
    game._legal = None
    return s.kind


def python_apply_only(game: mv.Game, action: str) -> None:
    """Apply an action to a Python game without running the steps that follow."""
    st = game.state
    act = mv.Action.parse(action)
    st.history.append(str(act))
    known = st.memo
    st.memo = flow._NO_MEMO
    try:
        if st.pending:
            pd = st.pending.pop()
            DECISIONS[pd.kind].apply(st, pd, act)
        elif st.turn.phase == "planting":
            flow.apply_planting(st, act)
        else:
            HARVEST["apply"](st, act, known)
    finally:
        st.memo = {}
    game._legal = None


def random_games(seed: int, *, players=2, sets=("base",), ruleset="yucata", leaders=False,
                 finish_turn=False, limit=2000, apply=None) -> Iterator[mv.Game]:
    """A seeded random game, yielded before every action (the same object, changing).
    ``apply(game, action)`` applies each chosen action (default: ``game.apply_action``;
    e.g. ``python_apply_only`` and then the steps one at a time)."""
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset,
                       leaders=leaders and "twilight_garden" in sets, finish_turn=finish_turn)
    rng = Rng(seed)
    for _ in range(limit):
        if game.is_over():
            return
        yield game
        legal = game.legal_actions()
        action = legal[rng.below("random", len(legal))]
        if apply is None:
            game.apply_action(action)
        else:
            apply(game, action)


def check_steps(game: mv.Game, kinds: set[str] | None = None, actions: str = "all") -> int:
    """From this decision point, compare both engines piece by piece through the steps the
    chosen action schedules: the decision (every legal action, or the chosen ``actions``),
    then each step, until the next decision.  Only the pieces whose kind is in ``kinds``
    (decision kinds and step kinds; None: all) are compared; the others are done by the
    Python engine and handed to the twin as a save.  Returns how many pieces were compared.
    """
    compared = 0
    legal = [str(a) for a in game.legal_actions()]
    pd = game.state.pending[-1] if game.state.pending else None
    kind = pd.kind if pd else ("planting" if game.state.turn.phase == "planting" else "harvest")
    if kinds is None or kind in kinds:
        t = twin(game)
        assert t.legal_actions() == legal, f"legal actions of {kind}"
        compared += 1
        for a in (legal if actions == "all" else [legal[0]]):
            g2 = mv.Game.from_json(game.to_json())
            t2 = t.clone()
            python_apply_only(g2, a)
            t2.apply_only(a)
            assert t2.to_json() == g2.to_json(), f"after {a!r} on {kind}"
            compared += 1
    g = mv.Game.from_json(game.to_json())
    python_apply_only(g, legal[0])
    while g.state.steps and not g.state.pending and not g.state.over:
        k = g.state.steps[-1].kind
        if kinds is None or k in kinds:
            t = twin(g)
            python_step(g)
            assert t.run_one_step() == k
            assert t.to_json() == g.to_json(), f"after step {k!r}"
            compared += 1
        else:
            python_step(g)
    return compared


def whole_game(game: mv.Game, seed: int, seen=None) -> int:
    """Play a whole random game (choices from ``Rng(seed)``) in both engines, the twin by its
    own ``apply_action`` from the Python game's first save: the same legal actions before, and
    the same save after, every action.  ``seen(game)`` is called at each position before its
    action is chosen.  Returns the number of actions."""
    t = twin(game)
    rng = Rng(seed)
    n = 0
    while not game.is_over():
        legal = [str(a) for a in game.legal_actions()]
        assert t.legal_actions() == legal, f"legal actions before action {n}"
        if seen is not None:
            seen(game)
        action = legal[rng.below("random", len(legal))]
        game.apply_action(action)
        t.apply_action(action)
        n += 1
        assert t.to_json() == game.to_json(), f"after action {n}: {action!r}"
    assert t.is_over() and t.legal_actions() == [] and t.current_player is None
    return n
