"""Mystic Vale as a PettingZoo AEC environment.

::

    from mysticvale.adapters.pettingzoo import env

    e = env(players=2, sets=("base",), ruleset="yucata")
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* **Agents** are ``player_0`` ... ``player_{n-1}`` (seat numbers).  ``agent_selection`` is
  the seat that must act; in Mystic Vale a player takes many actions in a row (push, push,
  pass, buys, finish, ...), and answers to abilities can fall to another player.
* **Actions** are ``Discrete(codec.ACTION_SPACE_SIZE)`` numbers of :mod:`mysticvale.codec`;
  ``info["legal_actions"]`` of the acting agent lists the notation of each legal number.
  An illegal number raises :class:`mysticvale.IllegalActionError` (nothing is changed).
* **Observations** are dicts: ``"observation"``, the ``float32`` vector of
  :class:`mysticvale.codec.ObservationEncoder` for that agent's seat (built from
  ``observe(seat)`` only, so it never shows hidden information), and ``"action_mask"``, an
  ``int8`` 0/1 vector over the action space (all zeros for agents not to act).
* **Rewards** come only at the end of the game: the winners share 1 point (a sole winner
  gets 1, two tied winners 0.5 each), every other player gets 0.  A game cut at
  ``max_steps`` actions (a safety bound; random play needs under 1,000) ends with every
  agent *truncated* and no reward.
* ``reset(seed=s)`` deals engine game ``mysticvale.new_game(seed=s, ...)``; ``reset()``
  without a seed deals the next seed (the env's ``seed`` argument, then +1 per reset).
* ``engine="native"`` plays the games in the native core
  (``mysticvale.new_game(..., engine="native")``; it needs the core built, ``make native``):
  the same observations, masks, rewards and games for the same seeds and actions as the
  default ``engine="python"``.
* ``render()`` with ``render_mode="ansi"`` returns a short text of the position; ``"human"``
  prints it.
"""

from __future__ import annotations

from typing import Iterable

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import codec
from ..engine.game import Game
from ..errors import IllegalActionError
from ._common import DEFAULT_MAX_GAME_LENGTH, check_engine, make_game, outcome, parse_sets


def env(players: int = 2, sets: str | Iterable[str] = ("base",), ruleset: str = "yucata",
        leaders: bool = False, seed: int = 0, max_steps: int = DEFAULT_MAX_GAME_LENGTH,
        render_mode: str | None = None, engine: str = "python") -> AECEnv:
    """A Mystic Vale AEC environment (wrapped so that the AEC call order is enforced);
    ``engine``: ``python`` (default) or ``native`` (the native core plays the games)."""
    return wrappers.OrderEnforcingWrapper(raw_env(players=players, sets=sets, ruleset=ruleset,
                                                  leaders=leaders, seed=seed, max_steps=max_steps,
                                                  render_mode=render_mode, engine=engine))


class raw_env(AECEnv):  # noqa: N801  (PettingZoo's naming convention)
    """The unwrapped environment; use :func:`env`."""

    metadata = {"render_modes": ["ansi", "human"], "name": "mystic_vale_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, sets: str | Iterable[str] = ("base",), ruleset: str = "yucata",
                 leaders: bool = False, seed: int = 0, max_steps: int = DEFAULT_MAX_GAME_LENGTH,
                 render_mode: str | None = None, engine: str = "python") -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= codec.MAX_PLAYERS:
            raise ValueError(f"players must be a whole number from 2 to {codec.MAX_PLAYERS}, not {players!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        if max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        self.engine = check_engine(engine)
        self.n_players = players
        self.sets = parse_sets(sets)
        self.ruleset = ruleset
        self.leaders = bool(leaders)
        self.max_steps = int(max_steps)
        self.render_mode = render_mode
        self._next_seed = int(seed)
        # Fail now, clearly, on bad parameters.
        make_game(players, self._next_seed, self.sets, ruleset, self.leaders, self.engine)
        self.encoder = codec.ObservationEncoder(self.sets)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents = []
        obs_space = spaces.Dict({
            "observation": spaces.Box(low=self.encoder.LOW, high=self.encoder.HIGH,
                                      shape=(self.encoder.size,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(codec.ACTION_SPACE_SIZE,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(codec.ACTION_SPACE_SIZE) for a in self.possible_agents}
        self.game: Game | None = None
        self.seed_used: int | None = None
        self._steps = 0

    # -- spaces ----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's observation space (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(codec.ACTION_SPACE_SIZE)`` (the same object on every call)."""
        return self.action_spaces[agent]

    # -- the AEC API -----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game (engine seed ``seed``, or the next seed of this env)."""
        if seed is None:
            seed = self._next_seed
        self._next_seed = int(seed) + 1
        self.seed_used = int(seed)
        self.game = make_game(self.n_players, int(seed), self.sets, self.ruleset, self.leaders, self.engine)
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat that must act and refresh the infos."""
        assert self.game is not None
        p = self.game.current_player
        self.agent_selection = self.possible_agents[p if p is not None else 0]
        for a in self.agents:
            self.infos[a] = {}
        if p is not None:
            self.infos[self.agent_selection] = {
                "legal_actions": [str(a) for a in self.game.legal_actions()]}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation vector and its action mask."""
        if self.game is None:
            raise RuntimeError("call reset() before observe()")
        seat = self.possible_agents.index(agent)
        return {"observation": self.encoder.encode(self.game.observe(seat)),
                "action_mask": codec.legal_mask(self.game, seat)}

    def step(self, action: int | np.integer | None) -> None:
        """Apply the acting agent's action number (``None`` for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is only for finished agents")
        act = codec.decode(int(action))
        try:
            self.game.apply_action(act)
        except IllegalActionError as exc:
            raise IllegalActionError(f"action {int(action)} ({act}) by {agent}: {exc}") from None
        self._steps += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.game.is_over():
            for a, r in zip(self.possible_agents, outcome(self.game)):
                self.rewards[a] = r
                self.terminations[a] = True
        elif self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- presentation ----------------------------------------------------------------------
    def render(self) -> str | None:
        """A short text of the position (``ansi``), or print it (``human``)."""
        if self.render_mode is None:
            return None
        if self.game is None:
            text = "(no game: call reset())"
        else:
            obs = self.game.observe(None)
            who = self.game.current_player
            text = (f"round {obs['round']}, phase {obs['phase']}, "
                    f"{'game over' if who is None else f'player_{who} to act'}, "
                    f"scores {self.game.scores()}")
            if who is not None:
                text += "\nlegal: " + ", ".join(str(a) for a in self.game.legal_actions())
        if self.render_mode == "human":
            print(text)  # noqa: T201  (the human render mode prints by definition)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (no window, no process)."""
