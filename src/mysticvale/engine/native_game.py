"""A game played by the native core: the same face as :class:`~mysticvale.engine.game.Game`.

``new_game(..., engine="native")`` and ``Game.from_json(text, engine="native")`` return a
:class:`NativeGame`.  The rules run in Rust (``native/``, ``mysticvale._native.State``);
this class keeps the Python face exactly: the same :class:`Action` values in the same
order, the same exceptions with the same messages, the same save text, and the game
unchanged after any error.  Python still reads the card data and checks the options
(``new_game``), and reads action notation (``Action.parse``), so those errors are the
Python engine's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import IllegalActionError
from . import native
from .actions import Action
from .rng import Rng

if TYPE_CHECKING:  # pragma: no cover
    from .catalogue import Catalogue
    from .state import State


class NativeGame:
    """A game of Mystic Vale played by the native core.  Create one with
    ``new_game(..., engine="native")``."""

    __slots__ = ("_st", "_cat", "_legal")

    def __init__(self, state: Any, cat: "Catalogue") -> None:
        self._st = state            # mysticvale._native.State
        self._cat = cat             # the Python catalogue it was made from (for .state)
        self._legal: list[Action] | None = None

    # -- making one ------------------------------------------------------------------
    @classmethod
    def new(cls, cat: "Catalogue", ruleset: str, players: int, seed: int, *, leaders: bool = False,
            finish_turn: bool = False) -> "NativeGame":
        """Set up a game whose options ``new_game`` has checked, from a resolved catalogue."""
        twin = native.catalogue(cat)
        return cls(native.module().State.new_game(twin, ruleset, players, seed, leaders, finish_turn), cat)

    @classmethod
    def from_json(cls, text: str | bytes) -> "NativeGame":
        """Load a saved game (either engine's save); :class:`SaveError` if it is not one."""
        cat = native.save_catalogue(text)
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:   # save_catalogue read it, so this cannot be
                from ..errors import SaveError
                raise SaveError(f"not a saved game: {exc}") from None
        return cls(native.module().State.from_json(native.catalogue(cat), text), cat)

    # -- driving the game ------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat that must act now (None once the game is over)."""
        return self._st.current_player

    def legal_actions(self) -> list[Action]:
        """Every action legal now, in the Python engine's order; non-empty until the game is over."""
        if self._legal is None:
            self._legal = [Action(verb, tuple(args)) for verb, args in self._st.legal_parts()]
        return list(self._legal)

    def apply_action(self, action: Action | str | int) -> None:
        """Apply a legal action: an :class:`Action`, its notation, or its number in the
        fixed action space of :mod:`mysticvale.codec` (what the adapters use).

        Raises :class:`IllegalActionError` (a ValueError) if it is not legal now,
        :class:`InvalidActionError` if the text is not notation and
        :class:`~mysticvale.codec.CodecError` for a number outside the action space; the
        game is unchanged after any of them.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        elif isinstance(action, int) and not isinstance(action, bool):
            from ..codec import decode
            action = decode(action)
        if not isinstance(action, Action):
            raise IllegalActionError(f"expected an Action or its notation, not {type(action).__name__}")
        legal = self._legal if self._legal is not None else self.legal_actions()
        try:
            i = legal.index(action)
        except ValueError:
            raise IllegalActionError(self._why_illegal(action, legal)) from None
        self._st.apply_index(i)
        self._legal = None

    def _why_illegal(self, action: Action, legal: list[Action]) -> str:
        from .game import why_illegal
        return why_illegal(action, legal, over=self._st.is_over(), who=self._st.current_player,
                           phase=self._st.phase)

    # -- reading the game ------------------------------------------------------------
    @property
    def phase(self) -> str:
        """The phase of the turn (``over`` once the game is over)."""
        return self._st.phase

    @property
    def players(self) -> int:
        """The number of players."""
        return self._st.players

    @property
    def round(self) -> int:
        """The round being played (1 for the first)."""
        return self._st.round

    @property
    def state(self) -> "State":
        """The full state as the Python engine's :class:`State`, hidden information
        included (not for bots or clients).  A copy read from the save: changing it does
        not change this game."""
        from .serialize import loads
        return loads(self.to_json())

    def is_over(self) -> bool:
        """Is the game over?"""
        return self._st.is_over()

    def scores(self) -> list[int]:
        """Each seat's total points (final once the game is over)."""
        return self._st.scores()

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """A seat's points by source; ValueError for a seat not in the game."""
        self._check_seat(seat)
        return self._st.score_breakdown(seat)

    def winners(self) -> list[int]:
        """The winning seats (more than one when the win is shared); [] before the end."""
        return self._st.winners()

    def observe(self, seat: int | None) -> dict:
        """What ``seat`` may know, as a JSON-ready dict (``None``: a spectator); the
        Python engine's observation (the schema is in ``engine/observation.py``)."""
        self._check_seat(seat)
        return self._st.observe(seat)

    def observe_json(self, seat: int | None) -> str:
        """:meth:`observe` as the text of ``json.dumps(observe(seat), sort_keys=True)``
        (cheaper when it is sent on as text or compared)."""
        self._check_seat(seat)
        return native.module().observe_json(self._st, seat)

    def log(self, seat: int | None, since: int = 0) -> list[dict]:
        """The readable event log as ``seat`` may see it, from event ``since`` on."""
        return self._st.log(seat, since)

    @property
    def history(self) -> list[str]:
        """Every action applied so far, as notation."""
        return self._st.history

    # -- copies ----------------------------------------------------------------------
    def clone(self) -> "NativeGame":
        """An independent copy."""
        g = NativeGame(self._st.clone(), self._cat)
        g._legal = list(self._legal) if self._legal is not None else None
        return g

    def determinize(self, viewer: int | None, rng: Rng | int) -> "NativeGame":
        """A full game consistent with what ``viewer`` knows (None: a spectator), everything
        hidden from it resampled from ``rng``'s ``determinize`` stream, as
        ``Game.determinize`` does (the same sample for the same generator; a :class:`Rng`
        goes on from where the draws left it, as it would in the Python engine)."""
        self._check_seat(viewer)
        if isinstance(rng, Rng):
            st, states = self._st.determinize_from(viewer, rng.seed, rng.states)
            rng.states.update(states)
        else:
            st = self._st.determinize(viewer, int(rng))
        return NativeGame(st, self._cat)

    def to_json(self) -> str:
        """The save text: the same as the Python engine's for the same game."""
        return self._st.to_json()

    def _check_seat(self, seat: int | None) -> None:
        n = self._st.players
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"no seat {seat} in a {n}-player game")

    def __eq__(self, other: object) -> bool:
        """Equal games have the same save text, whichever engine plays them."""
        from .game import Game
        return isinstance(other, (Game, NativeGame)) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  (mutable, compared by value, as Game)

    def __repr__(self) -> str:
        return f"<NativeGame {self._st.players}p round {self._st.round} phase {self._st.phase}>"

