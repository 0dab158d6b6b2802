"""What the OpenSpiel and PettingZoo adapters share: game creation, the engine, the payout."""

from __future__ import annotations

import re
from typing import Iterable

from ..engine import native
from ..engine.game import ENGINES, Game, new_game

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


def check_engine(engine: object) -> str:
    """``engine`` if it names an engine that can play here (``python``, or ``native`` when
    the native core is built and current); else a ValueError saying what is wrong and, for
    the native core, how to build it."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines are: {', '.join(ENGINES)}")
    if engine == "native" and not native.available():
        raise ValueError(f"engine 'native' needs the native core, which cannot be used here: "
                         f"{native.unavailable_reason()} (build it with `make native`, which needs "
                         f"cargo; engine 'python' always works)")
    return engine  # type: ignore[return-value]


def make_game(players: int, seed: int, sets: tuple[str, ...], ruleset: str, leaders: bool,
              engine: str = "python") -> Game:
    """A new game (``mysticvale.new_game``) with these settings, played by ``engine``
    (``python``, or ``native``: a :class:`~mysticvale.engine.native_game.NativeGame`, the
    same game with the same face)."""
    return new_game(players=players, seed=seed, sets=sets, ruleset=ruleset, leaders=bool(leaders),
                    engine=check_engine(engine))


def load_save(text: str, engine: str = "python") -> Game:
    """A saved game (``Game.to_json`` text of either engine) loaded into ``engine``."""
    return Game.from_json(text, engine=check_engine(engine))


def engine_of(game: Game) -> str:
    """The engine that plays ``game``: ``native`` for a native game, else ``python``."""
    from ..engine.native_game import NativeGame
    return "native" if isinstance(game, NativeGame) else "python"


def outcome(game: Game) -> list[float]:
    """The payout of a finished game: the winners share 1 point (a sole winner gets 1,
    two tied winners 0.5 each, ...), everyone else gets 0.  The payouts sum to 1."""
    if not game.is_over():
        raise ValueError("the game is not over: there is no outcome yet")
    winners = game.winners()
    share = 1.0 / len(winners)
    return [share if p in winners else 0.0 for p in range(game.players)]
