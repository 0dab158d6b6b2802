"""The public face of the engine: one game, driven by ``legal_actions`` / ``apply_action``."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..errors import IllegalActionError
from . import effects as _effects  # noqa: F401  (registers the effect vocabulary)
from . import discard as _discard  # noqa: F401  (registers Discard-phase steps)
from . import harvest as _harvest  # noqa: F401  (registers Harvest steps)
from .actions import Action
from .determinize import determinize as _determinize
from .flow import acting_player, apply as _apply, legal_for_phase, run, start_turn
from .observation import observe as _observe, visible_log
from .rng import Rng
from .rulesets import get_ruleset
from .scoring import breakdown, scores as _scores, winners as _winners
from .serialize import dumps, loads
from .setup import new_state
from .state import State


#: The engines that play a game: the Python reference and its native twin (``native/``).
ENGINES = ("python", "native")


def why_illegal(action: Action, legal: list[Action], *, over: bool, who: int | None, phase: str) -> str:
    """The message of the :class:`IllegalActionError` for ``action`` (not in ``legal``)."""
    if over:
        return f"{action} is not legal: the game is over"
    same = [str(a) for a in legal if a.verb == action.verb]
    hint = f"; legal {action.verb!r} actions now: {', '.join(same[:12])}" if same else \
        f"; legal now: {', '.join(str(a) for a in legal[:12])}{' ...' if len(legal) > 12 else ''}"
    return f"{action} is not legal now (player {who + 1 if who is not None else '-'} to act, " \
           f"phase {phase}){hint}"


def check_engine(engine: object) -> str:
    """``engine`` if it names an engine, else ValueError saying which exist."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; engines are: {', '.join(ENGINES)}")
    return engine  # type: ignore[return-value]


class Game:
    """A game of Mystic Vale.  Create one with :func:`new_game`."""

    __slots__ = ("_st", "_legal")

    def __init__(self, state: State) -> None:
        self._st = state
        self._legal: list[Action] | None = None

    # -- driving the game ------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat that must act now (None once the game is over)."""
        return acting_player(self._st)

    def legal_actions(self) -> list[Action]:
        """Every action legal now; non-empty until the game is over; ``str()`` of each is unique."""
        if self._legal is None:
            self._legal = legal_for_phase(self._st)
        return list(self._legal)

    def apply_action(self, action: Action | str) -> None:
        """Apply a legal action (an :class:`Action` or its notation).

        Raises :class:`IllegalActionError` (a ValueError) if it is not legal now, and
        :class:`InvalidActionError` if the text is not notation; either way the game is
        unchanged.
        """
        if isinstance(action, str):
            action = Action.parse(action)
        if not isinstance(action, Action):
            raise IllegalActionError(f"expected an Action or its notation, not {type(action).__name__}")
        legal = self._legal if self._legal is not None else self.legal_actions()
        if action not in legal:
            raise IllegalActionError(self._why_illegal(action, legal))
        self._st.history.append(str(action))
        _apply(self._st, action)
        self._legal = None

    def _why_illegal(self, action: Action, legal: list[Action]) -> str:
        return why_illegal(action, legal, over=self._st.over, who=acting_player(self._st), phase=self.phase)

    # -- reading the game ------------------------------------------------------------
    @property
    def phase(self) -> str:
        return "over" if self._st.over else self._st.turn.phase

    @property
    def players(self) -> int:
        return len(self._st.players)

    @property
    def round(self) -> int:
        """The round being played (1 for the first)."""
        return self._st.round

    @property
    def state(self) -> State:
        """The full state, hidden information included (not for bots or clients)."""
        return self._st

    def is_over(self) -> bool:
        return self._st.over

    def scores(self) -> list[int]:
        """Each seat's total points (final once the game is over)."""
        return _scores(self._st)

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """A seat's points by source; ValueError for a seat not in the game."""
        if not 0 <= seat < len(self._st.players):
            raise ValueError(f"no seat {seat} in a {len(self._st.players)}-player game")
        return breakdown(self._st, seat)

    def winners(self) -> list[int]:
        """The winning seats (more than one when the win is shared); [] before the end."""
        return _winners(self._st) if self._st.over else []

    def observe(self, seat: int | None) -> dict:
        """What ``seat`` may know, as a JSON-ready dict (``None``: a spectator).

        The result is read-only data: card, advancement and vale views inside it are shared
        between calls (and games) for speed; copy before changing anything in it.
        """
        if seat is not None and not 0 <= seat < len(self._st.players):
            raise ValueError(f"no seat {seat} in a {len(self._st.players)}-player game")
        return _observe(self._st, seat)

    def log(self, seat: int | None, since: int = 0) -> list[dict]:
        """The readable event log as ``seat`` may see it."""
        return visible_log(self._st, seat, since)

    @property
    def history(self) -> list[str]:
        return list(self._st.history)

    # -- copies ----------------------------------------------------------------------
    def clone(self) -> "Game":
        g = Game(self._st.clone())
        g._legal = list(self._legal) if self._legal is not None else None
        return g

    def determinize(self, viewer: int | None, rng: Rng | int) -> "Game":
        """A full game consistent with what ``viewer`` knows (None: a spectator), everything
        hidden from it resampled: deck orders, other players' deck / discard split of cards
        discarded unseen, leaders never shown (see ``engine/determinize.py``)."""
        if viewer is not None and not 0 <= viewer < len(self._st.players):
            raise ValueError(f"no seat {viewer} in a {len(self._st.players)}-player game")
        r = rng if isinstance(rng, Rng) else Rng(int(rng))
        return Game(_determinize(self._st, viewer, r))

    def to_json(self) -> str:
        return dumps(self._st)

    @classmethod
    def from_json(cls, text: str | bytes, engine: str = "python"):
        """Load a saved game (of either engine: their saves are the same text);
        :class:`SaveError` if the text is not a valid save.  ``engine="native"`` loads it
        into the native core (a :class:`~mysticvale.engine.native_game.NativeGame`)."""
        if check_engine(engine) == "native":
            from .native_game import NativeGame
            return NativeGame.from_json(text)
        return cls(loads(text))

    def __eq__(self, other: object) -> bool:
        """Equal games have the same save text, whichever engine plays them."""
        from .native_game import NativeGame
        return isinstance(other, (Game, NativeGame)) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"<Game {len(self._st.players)}p round {self._st.round} phase {self.phase}>"


def new_game(players: int = 2, seed: int = 0, sets: Iterable[str] = ("base",), ruleset: str = "yucata",
             catalogue: str | Path | Iterable[str | Path] | None = None, leaders: bool = False,
             finish_turn: bool = False, engine: str = "python", **options):
    """Set up a new game.

    ``sets``: card sets (``base``, ``vale_of_magic``, ``twilight_garden``); ``ruleset``:
    ``yucata`` (default), ``english`` or ``german``; ``catalogue``: your own catalogue
    file(s) replacing built-in set data; ``leaders``: play with the Twilight Garden leaders
    (each player first chooses one of two dealt leaders, a pending decision before the first
    turn); ``finish_turn``: an interface option, not a rule (saved with the game), yucata's
    turn order for tables with undo: after a When Played ability the player used (a choice,
    or an optional ability), the next on-deck card is revealed only on the player's
    ``reveal`` (so the use can be undone), and the turn ends after the Prep phase with the
    player's ``finish`` (Finish Turn).  What is revealed, spoiled and scored is the same.
    ``engine``: ``python`` (the default: this engine, the readable reference) or ``native``
    (the same game played by the native core, a
    :class:`~mysticvale.engine.native_game.NativeGame`; RuntimeError saying why when it is
    not built, see ``mysticvale.native_available()``).
    """
    from ..cards.catalogue import load_catalogue

    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number from 2 to 4, not {players!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, not {seed!r}")
    if options:
        raise ValueError(f"unknown option(s): {', '.join(sorted(options))}")
    if isinstance(sets, str):
        sets = (sets,)
    rs = get_ruleset(ruleset)
    if not isinstance(leaders, bool):
        raise ValueError(f"leaders must be True or False, not {leaders!r}")
    if not isinstance(finish_turn, bool):
        raise ValueError(f"finish_turn must be True or False, not {finish_turn!r}")
    check_engine(engine)
    cat = load_catalogue(tuple(sets), catalogue)
    if engine == "native":
        from .native_game import NativeGame
        return NativeGame.new(cat, rs.name, players, seed, leaders=leaders, finish_turn=finish_turn)
    if leaders:
        from .leaders import begin_leader_setup
        st = new_state(cat, rs, players, seed, deal_fields=False)
        st.finish_turn = finish_turn
        begin_leader_setup(st)
    else:
        st = new_state(cat, rs, players, seed)
        st.finish_turn = finish_turn
        start_turn(st, st.first_player)
    run(st)
    return Game(st)
