"""Mystic Vale as an OpenSpiel game: ``python_mystic_vale``.

Importing this module registers the game, after which::

    import pyspiel
    import mysticvale.adapters.openspiel  # noqa: F401
    game = pyspiel.load_game("python_mystic_vale(players=3,sets=base,ruleset=english)")
    state = game.new_initial_state()      # a chance node: the deal
    state.apply_action(7)                 # deal 7 = mysticvale.new_game(seed=7, ...)

Parameters: ``players`` (2-4, default 2), ``sets`` (card sets separated by commas, or by
``+`` inside a game string such as ``python_mystic_vale(sets=base+twilight_garden)``;
default ``base``), ``ruleset`` (``yucata``, ``english`` or ``german``), ``leaders`` (Twilight Garden leaders,
default false), ``deals`` (number of deals the chance node chooses from, default 10000),
``max_game_length`` (player actions after which a game is cut, default 10000) and
``engine`` (``python``, the default, or ``native``: the same games played by the native
core, ``mysticvale.new_game(..., engine="native")``; it needs the core built, ``make
native``, and ``mysticvale.native_available()`` says whether it is).  Both engines give
the same states, observations, legal actions and returns for the same deal and actions.

How the game maps onto OpenSpiel
--------------------------------
* **Actions** are the numbers of :mod:`mysticvale.codec` (``num_distinct_actions`` is
  ``codec.ACTION_SPACE_SIZE`` whatever the parameters); ``action_to_string`` gives the
  engine's notation.
* **Chance** is ``EXPLICIT_STOCHASTIC`` with exactly one chance node, the first: it picks
  the deal, i.e. the engine seed, uniformly from ``range(deals)``.  All the engine's
  randomness (the shuffled decks, supply decks, every later reshuffle of a discard pile)
  is a function of that seed drawn through its own seeded streams, so one chance outcome
  fixes all of it; the players never see the seed (observations hide every order).  So
  chance is explicit, OpenSpiel's checks (clone, serialization, chance outcomes) apply
  unchanged, and a deal is reproducible: chance outcome ``s`` gives exactly
  ``mysticvale.new_game(seed=s, ...)``.  The price: deals are uniform over ``deals`` seeds
  rather than over all orders, and no later chance node exposes an individual shuffle.
* **Hidden information**: information-state and observation strings and the observation
  tensor come from ``observe(player)`` only.  ``resample_from_infostate(player, sampler)``
  returns a state from ``Game.determinize(player, seed)`` (hidden order reshuffled, new
  random future), which is what ISMCTS (``open_spiel.python.algorithms.ismcts``) needs.
  OpenSpiel's plain MCTS searches the real state and so, as in any card game, sees the
  true deck order.
* **Strings**: ``observation_string(p)`` is ``observe(p)`` as canonical JSON; the
  information-state string adds the number of actions played and a digest of the event
  log as player p may read it (``Game.log(p)``), which makes it perfect-recall.
  ``observation_tensor(p)`` is :class:`mysticvale.codec.ObservationEncoder`'s vector; there
  is no information-state tensor (a fixed-size perfect-recall tensor of a game of
  unbounded length would have to be truncated).  Factored observations: the public one
  is a spectator's ``observe(None)``, the private one the part of ``observe(p)`` a
  spectator does not see (see :class:`MysticValeObserver`).
* **Returns** (terminal rewards, constant-sum 1): the winners share 1 point (sole winner 1,
  two tied winners 0.5 each), the others get 0.  A game cut at ``max_game_length`` actions
  (a safety bound; random play needs under 1,000) is a draw: 1/players each.
* **Serialization** (``state.serialize()``, ``pyspiel.serialize_game_and_state``) stores
  the engine's JSON save (``Game.to_json``), so it round-trips exactly.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np
import pyspiel

from .. import codec
from ..engine.game import Game
from ._common import DEFAULT_MAX_GAME_LENGTH, check_engine, engine_of, load_save, make_game, parse_sets

SHORT_NAME = "python_mystic_vale"
DEFAULT_DEALS = 10_000
DEFAULT_PARAMS: dict[str, Any] = {
    "players": 2,
    "sets": "base",
    "ruleset": "yucata",
    "leaders": False,
    "deals": DEFAULT_DEALS,
    "max_game_length": DEFAULT_MAX_GAME_LENGTH,
    "engine": "python",
}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Mystic Vale (Python)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=codec.MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=True,
    parameter_specification=DEFAULT_PARAMS,
)


class MysticValeGame(pyspiel.Game):
    """The OpenSpiel game; ``pyspiel.load_game("python_mystic_vale(...)")`` builds one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = dict(DEFAULT_PARAMS)
        p.update(params or {})
        players = int(p["players"])
        if not 2 <= players <= codec.MAX_PLAYERS:
            raise ValueError(f"players must be 2 to {codec.MAX_PLAYERS}, not {players}")
        max_len = int(p["max_game_length"])
        if max_len < 1:
            raise ValueError(f"max_game_length must be at least 1, not {max_len}")
        deals = int(p["deals"])
        if deals < 1:
            raise ValueError(f"deals must be at least 1, not {deals}")
        self.mv_engine = check_engine(str(p["engine"]))
        self.mv_players = players
        self.mv_sets = parse_sets(str(p["sets"]))
        # Stored '+'-joined: a comma would end the parameter in OpenSpiel's game string.
        p["sets"] = "+".join(self.mv_sets)
        self.mv_ruleset = str(p["ruleset"])
        self.mv_leaders = bool(p["leaders"])
        self.mv_deals = deals
        self.mv_max_length = max_len
        # Build one engine game now so that bad parameters fail at load time, clearly.
        make_game(players, 0, self.mv_sets, self.mv_ruleset, self.mv_leaders, self.mv_engine)
        self.encoder = codec.ObservationEncoder(self.mv_sets)
        info = pyspiel.GameInfo(
            num_distinct_actions=codec.ACTION_SPACE_SIZE,
            max_chance_outcomes=deals,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=max_len + 1,   # the deal, then the players' actions
        )
        super().__init__(GAME_TYPE, info, p)

    def deal(self, seed: int) -> Game:
        """The engine game of chance outcome ``seed``."""
        return make_game(self.mv_players, seed, self.mv_sets, self.mv_ruleset, self.mv_leaders, self.mv_engine)

    def new_initial_state(self, saved: str | None = None) -> "MysticValeState":
        """The chance node of the deal; with ``saved`` (an engine JSON save, e.g. from
        ``Game.to_json()`` of either engine), a state holding that game, played by this
        game's engine, instead."""
        if saved is None:
            return MysticValeState(self)
        if not isinstance(saved, str):
            raise ValueError("new_initial_state takes an engine save (Game.to_json text)")
        g = load_save(saved, self.mv_engine)
        if g.players != self.mv_players:
            raise ValueError(f"the save is a {g.players}-player game; this game has {self.mv_players} players")
        return MysticValeState(self, _Box(g, len(g.history), self.mv_max_length))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "MysticValeObserver":
        """An observer (strings and tensors) for the requested kind of observation."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        return MysticValeObserver(self, iig_obs_type)


class _Box:
    """Holds a state's engine game (None before the deal), what it shows at this position
    (legal action numbers, each seat's observation and its string: OpenSpiel asks for the
    string, the tensor and the information state of the same position, and the native
    core's ``observe`` costs about 2 ms) and per-seat log digests.

    OpenSpiel clones a Python state by making a fresh initial state and deep-copying its
    attributes; the box makes that a cheap ``Game.clone``.  Pickling (OpenSpiel's state
    serialization) stores the game's JSON save and the engine that plays it.
    """

    __slots__ = ("game", "moves", "limit", "legal", "_views", "_texts", "_logs")

    def __init__(self, game: Game | None = None, moves: int = 0, limit: int = DEFAULT_MAX_GAME_LENGTH) -> None:
        self.game = game
        self.moves = moves          # actions applied through this adapter (for the cut)
        self.limit = limit          # max_game_length
        self.legal: list[int] | None = None   # legal action numbers, until the next action
        self._views: dict[int | None, dict] = {}     # observe(seat), until the next action
        self._texts: dict[int | None, str] = {}      # its canonical JSON, until the next action
        self._logs: dict[int, tuple[int, Any]] = {}

    def moved(self) -> None:
        """Forget what the last position showed (after an action or the deal)."""
        self.legal = None
        self._views = {}
        self._texts = {}

    def observation(self, seat: int | None) -> dict:
        """``game.observe(seat)`` (None: a spectator), read once per position (read-only)."""
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.game.observe(seat)
        return view

    def observation_string(self, seat: int | None) -> str:
        """:meth:`observation` as canonical JSON (``codec.observation_string``), once per position."""
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = json.dumps(self.observation(seat), sort_keys=True, separators=(",", ":"))
        return text

    def legal_ids(self) -> list[int]:
        """The legal action numbers (computed once per position)."""
        if self.legal is None:
            self.legal = codec.legal_ids(self.game)
        return self.legal

    def truncated(self) -> bool:
        """Has the game been cut at ``max_game_length`` actions before its end?"""
        g = self.game
        return g is not None and self.moves >= self.limit and not g.is_over()

    def log_digest(self, seat: int) -> str:
        """A digest of the event log as ``seat`` (-1: a spectator) may read it, updated
        incrementally."""
        assert self.game is not None
        since, h = self._logs.get(seat, (0, None))
        if h is None:
            h = hashlib.blake2b(digest_size=16)
        for e in self.game.log(seat if seat >= 0 else None, since):
            h.update(f"{e['index']}|{e['kind']}|{e['player']}|{e['text']}\n".encode())
            since = e["index"] + 1
        self._logs[seat] = (since, h)
        return h.hexdigest()

    def __deepcopy__(self, memo: dict) -> "_Box":
        out = _Box(self.game.clone() if self.game is not None else None, self.moves, self.limit)
        out.legal = self.legal
        out._views = dict(self._views)      # the same position: the same read-only views
        out._texts = dict(self._texts)
        out._logs = {s: (n, h.copy()) for s, (n, h) in self._logs.items()}
        return out

    def __getstate__(self) -> dict:
        return {"save": self.game.to_json() if self.game is not None else None, "moves": self.moves,
                "limit": self.limit, "engine": engine_of(self.game) if self.game is not None else None}

    def __setstate__(self, data: dict) -> None:
        # The engine is stored since the native engine came; older pickles are Python games.
        engine = data.get("engine") or "python"
        self.game = load_save(data["save"], engine) if data["save"] is not None else None
        self.moves = int(data["moves"])
        self.limit = int(data["limit"])
        self.moved()
        self._logs = {}


class MysticValeState(pyspiel.State):
    """One position of a game of Mystic Vale (wraps an engine :class:`Game`)."""

    def __init__(self, game: MysticValeGame, box: _Box | None = None) -> None:
        super().__init__(game)
        self._box = box if box is not None else _Box(limit=game.mv_max_length)

    # -- the engine game -------------------------------------------------------------------
    @property
    def mv_game(self) -> Game | None:
        """The engine game of this state (None before the deal).  It is the full state:
        for tools and tests, not for players."""
        return self._box.game

    def _truncated(self) -> bool:
        return self._box.truncated()

    # -- the OpenSpiel API -----------------------------------------------------------------
    def current_player(self) -> int:
        """The seat that must act, ``PlayerId.CHANCE`` before the deal, or ``TERMINAL``."""
        box = self._box
        g = box.game
        if g is None:
            return pyspiel.PlayerId.CHANCE
        p = g.current_player
        if p is None or (box.moves >= box.limit and box.truncated()):
            return pyspiel.PlayerId.TERMINAL
        return p

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deals: every engine seed of ``range(deals)``, equally likely."""
        n = self.get_game().mv_deals
        p = 1.0 / n
        return [(s, p) for s in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        """Legal action numbers of the acting seat, ascending (OpenSpiel asks only for
        the current player's; it answers [] for the others itself)."""
        return list(self._box.legal_ids())

    def _apply_action(self, action: int) -> None:
        """Deal (at the chance node) or apply the action with this number."""
        if self._box.game is None:
            n = self.get_game().mv_deals
            if not 0 <= action < n:
                raise ValueError(f"deal {action} is not one of the {n} deals")
            self._box.game = self.get_game().deal(int(action))
            self._box.moved()
            return
        box = self._box
        box.game.apply_action(codec.decode(action))
        box.moves += 1
        box.moved()

    def _action_to_string(self, player: int, action: int) -> str:
        """``deal N`` for the chance outcome, else the engine's notation of the action."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(codec.decode(action))

    def is_terminal(self) -> bool:
        """The game is over (or cut at ``max_game_length``)."""
        g = self._box.game
        return g is not None and (g.current_player is None or self._box.truncated())

    def returns(self) -> list[float]:
        """Winners share 1 point at the end; a cut game is a draw; 0 before the end."""
        n = self.get_game().mv_players
        g = self._box.game
        if g is not None and g.is_over():
            winners = g.winners()
            return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]
        if self._truncated():
            return [1.0 / n] * n
        return [0.0] * n

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "MysticValeState":
        """A state with the same information state for ``player_id``, hidden order
        resampled (for ISMCTS); the seed comes from ``probability_sampler()``."""
        g = self._box.game
        if g is None:
            return MysticValeState(self.get_game())
        seed = int(probability_sampler() * (2**53))
        return MysticValeState(self.get_game(),
                               _Box(g.determinize(player_id, seed), self._box.moves, self._box.limit))

    def information_state_string_for(self, player: int) -> str:
        """The perfect-recall information-state string (observation + history digest)."""
        g = self._box.game
        if g is None:
            return "before the deal"
        return (self._box.observation_string(player)
                + f"\nactions played: {self._box.moves}\nlog digest: {self._box.log_digest(player)}")

    def __str__(self) -> str:
        """A short public summary plus a digest of every action played: two states with
        the same deal and the same actions are the same state (the engine is
        deterministic given its seed), so equal strings mean equal states along a
        simulation.  (The full state, hidden order included, is ``mv_game.to_json()``.)"""
        g = self._box.game
        if g is None:
            return "Mystic Vale: before the deal"
        obs = self._box.observation(None)
        seats = "; ".join(f"p{pl['seat']}: deck {pl['deck_count']} discard {pl['discard_count']} "
                          f"field {len(pl['field'])} vp {pl['vp_tokens']}" for pl in obs["players"])
        history = g.history
        digest = hashlib.blake2b("\n".join(history).encode(), digest_size=16).hexdigest()
        lines = [f"Mystic Vale {g.players}p, round {obs['round']}, phase {obs['phase']}, "
                 f"acting {g.current_player}, scores {g.scores()}", seats,
                 f"{len(history)} actions, last: {', '.join(history[-3:])}; history digest {digest}"]
        return "\n".join(lines)


class MysticValeObserver:
    """Observation strings and tensors (OpenSpiel's PyObserver protocol).

    ==========================================  ============================================
    observation type                             what it gives
    ==========================================  ============================================
    default (public + the player's private)      ``observe(player)``: string and tensor
    public only (private info ``NONE``)          ``observe(None)``, a spectator's view
    private only (no public info)                the part of ``observe(player)`` a spectator
                                                 does not see (string only)
    perfect recall (information state)           the observation plus a digest of the event
                                                 log as the player (or, public only, a
                                                 spectator) may read it (string only)
    ==========================================  ============================================
    """

    def __init__(self, game: MysticValeGame, iig_obs_type: Any = None) -> None:
        public = True if iig_obs_type is None else bool(iig_obs_type.public_info)
        private = (pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None
                   else iig_obs_type.private_info)
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observation of every player's private information is not supported")
        if not public and private == pyspiel.PrivateInfoType.NONE:
            raise ValueError("an observation with neither public nor private information shows nothing")
        if not public and self.perfect_recall:
            raise ValueError("a perfect-recall observation of private information alone is not supported")
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        self.private_only = not public
        self.encoder = game.encoder
        if self.perfect_recall or self.private_only:
            self.tensor = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            self.tensor = np.zeros(self.encoder.size, np.float32)
            self.dict = self.encoder.sections(self.tensor)

    def set_from(self, state: MysticValeState, player: int) -> None:
        """Write ``state`` as ``player`` sees it into :attr:`tensor`."""
        if self.tensor is None:
            raise ValueError("this observer gives strings only (no tensor)")
        g = state._box.game
        if g is None:   # before the deal there is nothing to see
            self.tensor.fill(0.0)
            return
        self.encoder.encode(state._box.observation(None if self.spectator else player), out=self.tensor)

    def string_from(self, state: MysticValeState, player: int) -> str:
        """The observation (or, with perfect recall, information-state) string."""
        g = state._box.game
        if g is None:
            return "before the deal"
        if self.private_only:
            mine = _private_part(state._box.observation(player), state._box.observation(None))
            return json.dumps(mine, sort_keys=True, separators=(",", ":"))
        if self.perfect_recall:
            if self.spectator:
                return (state._box.observation_string(None) + f"\nactions played: {state._box.moves}"
                        + f"\nlog digest: {state._box.log_digest(-1)}")
            return state.information_state_string_for(player)
        return state._box.observation_string(None if self.spectator else player)


def _private_part(mine: Any, public: Any) -> Any:
    """What an observation holds beyond a spectator's: differing keys and list items."""
    if isinstance(mine, dict) and isinstance(public, dict):
        return {k: _private_part(v, public.get(k)) for k, v in mine.items()
                if k not in public or public[k] != v}
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        return {str(i): _private_part(a, b) for i, (a, b) in enumerate(zip(mine, public)) if a != b}
    return mine


def load(players: int = 2, sets: str | tuple[str, ...] = "base", ruleset: str = "yucata",
         leaders: bool = False, deals: int = DEFAULT_DEALS,
         max_game_length: int = DEFAULT_MAX_GAME_LENGTH, engine: str = "python") -> pyspiel.Game:
    """``pyspiel.load_game("python_mystic_vale", {...})`` with keyword arguments."""
    if not isinstance(sets, str):
        sets = "+".join(sets)
    return pyspiel.load_game(SHORT_NAME, {
        "players": players, "sets": sets, "ruleset": ruleset, "leaders": leaders,
        "deals": deals, "max_game_length": max_game_length, "engine": engine,
    })


pyspiel.register_game(GAME_TYPE, MysticValeGame)
