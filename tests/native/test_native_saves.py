"""Saves: the native core reads every save of the Python engine, mid-game, in every option,
and writes it back byte for byte; it refuses corrupt saves whole, as the Python engine does."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

import mysticvale as mv
from mysticvale.engine import native
from mysticvale.engine.registry import DECISIONS, STEPS
from mysticvale.engine.rng import Rng
from mysticvale.errors import SaveError

SET_LISTS = [("base",), ("base", "vale_of_magic"), ("base", "twilight_garden"),
             ("base", "vale_of_magic", "twilight_garden"), ("vale_of_magic", "twilight_garden")]


def _saves_of_a_game(players, seed, sets, ruleset, leaders, finish_turn, every=1, limit=400):
    game = mv.new_game(players=players, seed=seed, sets=sets, ruleset=ruleset,
                       leaders=leaders and "twilight_garden" in sets, finish_turn=finish_turn)
    rng = Rng(seed)
    n = 0
    while True:
        if n % every == 0:
            yield game.to_json()
        if game.is_over() or n >= limit:
            return
        legal = game.legal_actions()
        game.apply_action(legal[rng.below("random", len(legal))])
        n += 1


def test_the_twin_knows_every_step_and_decision_of_the_python_engine(core):
    from mysticvale.engine import leaders, harvest, discard  # noqa: F401  (they register theirs)
    import re
    from pathlib import Path

    text = (Path(native.CRATE_DIR) / "src" / "state.rs").read_text(encoding="utf-8")

    def listed(name):
        block = text[text.index(f"pub const {name}"):]
        return re.findall(r'"([a-z_]+)"', block[:block.index("];")])

    assert listed("STEP_KINDS") == sorted(STEPS)
    assert listed("DECISION_KINDS") == sorted(DECISIONS)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**40), sets=st.sampled_from(SET_LISTS),
       ruleset=st.sampled_from(["yucata", "english", "german"]), leaders=st.booleans(),
       finish_turn=st.booleans())
def test_every_save_of_random_games_reads_and_writes_back_byte_for_byte(core, players, seed, sets, ruleset,
                                                                       leaders, finish_turn):
    for text in _saves_of_a_game(players, seed, sets, ruleset, leaders, finish_turn, every=10, limit=300):
        assert native.save_round_trip(text) == text


def test_a_whole_game_round_trips_after_every_action(core):
    count = 0
    for text in _saves_of_a_game(3, 5, ("base", "vale_of_magic", "twilight_garden"), "yucata", True, True,
                                 limit=200):
        assert native.save_round_trip(text) == text
        count += 1
    assert count > 100


def _edit(text, change):
    data = json.loads(text)
    change(data)
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _del(*path):
    def change(d):
        for k in path[:-1]:
            d = d[k]
        del d[path[-1]]
    return change


def _set(value, *path):
    def change(d):
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return change


CORRUPTIONS = {
    "not JSON": lambda t: t[:-1],
    "no format": lambda t: _edit(t, _del("format")),
    "other version": lambda t: _edit(t, _set(2, "version")),
    "version as text": lambda t: _edit(t, _set("1", "version")),
    "no turn": lambda t: _edit(t, _del("turn")),
    "a card twice": lambda t: _edit(t, lambda d: d["players"][0]["field"].append(d["players"][0]["field"][0])),
    "a card lost": lambda t: _edit(t, lambda d: d["players"][1]["deck"].pop()),
    "a vale twice": lambda t: _edit(t, lambda d: d["vale_decks"]["1"].append(d["vale_decks"]["2"][0])),
    "an unknown copy": lambda t: _edit(t, lambda d: d["cards"][0].append("Nothing@top")),
    "an unknown step": lambda t: _edit(t, _set([["teleport", 0, {}]], "steps")),
    "an unknown decision": lambda t: _edit(t, _set([["bribe", 0, {}, []]], "pending")),
    "an unknown phase": lambda t: _edit(t, _set("lunch", "turn", "phase")),
    "a negative floor": lambda t: _edit(t, _set(-1, "turn", "phase_floor")),
    "finish_turn not a flag": lambda t: _edit(t, _set(1, "finish_turn")),
    "one player": lambda t: _edit(t, lambda d: d["players"].pop()),
    "an unknown rule set": lambda t: _edit(t, _set("house", "ruleset")),
    "an unknown set": lambda t: _edit(t, _set(["base", "dragons"], "catalogue", "sets")),
}

#: Corruptions whose message both engines word the same (the Python engine's own checks).
SAME_MESSAGE = {"not JSON", "no format", "other version", "version as text", "a card twice", "a card lost",
                "a vale twice", "an unknown step", "an unknown decision", "an unknown phase", "a negative floor",
                "finish_turn not a flag", "one player", "an unknown copy", "no turn", "an unknown set"}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_corrupt_save_is_refused_as_python_refuses_it(core, name):
    good = next(_saves_of_a_game(2, 3, ("base",), "yucata", False, False, every=1))
    bad = CORRUPTIONS[name](good)
    with pytest.raises(SaveError) as ref:
        mv.Game.from_json(bad)
    with pytest.raises(SaveError) as mine:
        native.save_round_trip(bad)
    if name in SAME_MESSAGE:
        assert str(mine.value) == str(ref.value)
