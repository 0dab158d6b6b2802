"""Helpers for the bot tests."""

from __future__ import annotations

import pytest

import mysticvale as mv
from mysticvale.bots import SeatView, make_bot


def play(game, bots, *, record=None, max_steps: int = 20000):
    """Play ``game`` to the end with one bot per seat; every action must be legal.

    ``record`` (a list) receives (pending kind or phase, action) for each decision.
    """
    steps = 0
    while not game.is_over():
        p = game.current_player
        legal = game.legal_actions()
        assert legal, "a live game must offer legal actions"
        action = bots[p].act(SeatView(game, p))
        assert action in legal, f"{action} is not among the legal actions {legal}"
        if record is not None:
            obs = game.observe(p)
            record.append(((obs["pending"] or {}).get("kind") or obs["phase"], str(action)))
        game.apply_action(action)
        steps += 1
        assert steps < max_steps, "the game did not end"
    return game


def sets_available(*sets: str) -> bool:
    """Can a game with these sets be set up right now (other sets are being added)?"""
    from mysticvale.cards.catalogue import KNOWN_SETS

    if any(s not in KNOWN_SETS for s in sets):
        return False
    try:
        mv.new_game(players=2, seed=1, sets=sets)
    except Exception:  # noqa: BLE001 - a set under construction may fail in any way
        return False
    return True


@pytest.fixture
def bot_factory():
    return make_bot
