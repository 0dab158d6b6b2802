"""What a bot is, and the only window it has on a game.

A bot sees a :class:`SeatView`: its seat's observation, the legal actions, and
``determinize()`` (a full game sampled from what the seat knows, for search).  It never
gets the real hidden state.  Each bot owns its random stream, seeded at creation.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.rng import Rng


class SeatView:
    """A read-only view of a game from one seat."""

    __slots__ = ("_game", "seat")

    def __init__(self, game: Game, seat: int) -> None:
        self._game = game
        self.seat = seat

    def observe(self) -> dict[str, Any]:
        return self._game.observe(self.seat)

    def legal_actions(self) -> list[Action]:
        if self._game.current_player != self.seat:
            return []
        return self._game.legal_actions()

    def determinize(self, rng: Rng) -> Game:
        """A full game consistent with this seat's knowledge (hidden order resampled)."""
        return self._game.determinize(self.seat, rng)

    @property
    def players(self) -> int:
        return self._game.players


class Bot(Protocol):
    """A player: picks one of the legal actions from what its seat may see."""

    name: str

    def act(self, view: SeatView) -> Action: ...


class RandomBot:
    """Uniform over the legal actions, from its own seeded stream."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if not legal:
            raise ValueError("the bot was asked to act when its seat has nothing to do")
        return legal[self.rng.below("random", len(legal))]
