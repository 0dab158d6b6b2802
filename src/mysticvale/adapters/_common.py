"""What the OpenSpiel and PettingZoo adapters share: game creation and the payout."""

from __future__ import annotations

import re
from typing import Iterable

from ..engine.game import Game, new_game

#: Actions after which a game is cut short (a safety bound: rules-complete games of random
#: play take under 1,000 actions; nothing in the rules forbids endless passing).
DEFAULT_MAX_GAME_LENGTH = 10_000


def parse_sets(sets: str | Iterable[str]) -> tuple[str, ...]:
    """Card sets from a string (``"base,twilight_garden"``; ``+`` and ``;`` also separate,
    since OpenSpiel game strings use commas between parameters) or a sequence."""
    if isinstance(sets, str):
        items = [s.strip() for s in re.split(r"[,+;]", sets)]
    else:
        items = [str(s).strip() for s in sets]
    items = [s for s in items if s]
    if not items:
        raise ValueError("choose at least one card set, e.g. 'base'")
    return tuple(items)


def make_game(players: int, seed: int, sets: tuple[str, ...], ruleset: str, leaders: bool) -> Game:
    """A new engine game (``mysticvale.new_game``) with these settings."""
    return new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=bool(leaders))


def outcome(game: Game) -> list[float]:
    """The payout of a finished game: the winners share 1 point (a sole winner gets 1,
    two tied winners 0.5 each, ...), everyone else gets 0.  The payouts sum to 1."""
    if not game.is_over():
        raise ValueError("the game is not over: there is no outcome yet")
    winners = game.winners()
    share = 1.0 / len(winners)
    return [share if p in winners else 0.0 for p in range(game.players)]
