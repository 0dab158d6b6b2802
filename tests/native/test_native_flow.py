"""The twin's turn flow (native/src/flow.rs) is the Python engine's (engine/flow.py): for
seeded random games of every set list, rule set, player count, with and without leaders
and finish_turn, each Planting action, each of flow's decisions (every legal action) and
each of its steps gives the same save in both engines (piecewise.compare). And whole
base-set games, the twin's flow, harvest, discard and base effects together, played by
the twin's own ``apply_action``, are Python's after every action."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import mysticvale as mv
from piecewise import ANY_GAME, compare_any_game, compare_games
from stepwise import whole_game

DECISIONS = {"planting", "order", "reveal_next", "spoil_guard", "prep_stop", "finish_turn"}
STEPS = {"ability", "queue", "when_played", "reveal_pause", "reveal", "spoil_check", "spoil", "prep_start",
         "prep_restart", "prep_step", "finish_turn", "end_turn"}


def test_every_flow_step_and_decision_is_pythons(core):
    counts = compare_games(range(30), DECISIONS, STEPS)
    # The game's end, and an extra turn (Twilight Garden, seed 18), come from "end_turn".
    missing = sorted(k for k in DECISIONS | STEPS | {"game_over", "extra_turn"} if not counts[k])
    assert not missing, f"never compared: {missing} ({dict(counts)})"


@settings(max_examples=6, deadline=None)
@given(game=ANY_GAME)
def test_flow_is_pythons_in_any_seeded_game(core, game):
    counts = compare_any_game(game, DECISIONS, STEPS)
    assert counts["end_turn"] and counts["game_over"] == 1


def _lockstep(seed: int, players: int, ruleset: str, finish_turn: bool) -> int:
    """Play a whole base-set random game in both engines, the twin by its own
    ``apply_action`` from the Python game's first save (set up, first turn begun): the same
    legal actions before, and the same save after, every action. Returns the actions."""
    game = mv.new_game(players=players, seed=seed, ruleset=ruleset, finish_turn=finish_turn)
    return whole_game(game, seed)


@pytest.mark.parametrize("seed, players, ruleset, finish_turn", [
    (0, 2, "yucata", True), (1, 3, "english", False), (2, 4, "german", True), (3, 2, "german", False),
    (4, 3, "yucata", False), (5, 4, "english", True)])
def test_whole_base_games_played_natively_give_pythons_save_after_every_action(core, seed, players, ruleset,
                                                                               finish_turn):
    assert _lockstep(seed, players, ruleset, finish_turn) > 100
