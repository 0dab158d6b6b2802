"""The twin's Discard phase (native/src/discard.rs) is the Python engine's
(engine/discard.py): for seeded random games of every set list, rule set, player count,
with and without leaders and finish_turn, the "sleeve" decision (every legal placement)
and each Discard step give the same save in both engines (piecewise.compare)."""

from __future__ import annotations

from hypothesis import given, settings

from piecewise import ANY_GAME, compare_any_game, compare_games

DECISIONS = {"sleeve"}
STEPS = {"discard_start", "sleeve_next", "discard_abilities", "discard_field", "replenish"}


def test_every_discard_step_and_decision_is_pythons(core):
    # Seed 119: the game end on the last level-2 vale (German rules; found by a scan).
    counts = compare_games([*range(20), 119], DECISIONS, STEPS)
    missing = sorted(k for k in DECISIONS | STEPS | {"last_level2_vale"} if not counts[k])
    assert not missing, f"never compared: {missing} ({dict(counts)})"


@settings(max_examples=6, deadline=None)
@given(game=ANY_GAME)
def test_discard_is_pythons_in_any_seeded_game(core, game):
    counts = compare_any_game(game, DECISIONS, STEPS)
    assert counts["discard_start"] and counts["replenish"]
