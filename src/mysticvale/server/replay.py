"""Replaying a finished game step by step, from one seat's view, with its log.

A **step** is one action of the game as it was finally played (actions that were undone are not
steps: the replay shows the game that happened).  Step 0 is the setup; step ``n`` is the game
after its first ``n`` actions.

**What is shown.**  Only a finished game can be replayed, by anybody who has its link (as on
other game sites, a finished game's record is public).  Each step is shown from one seat's view
(or a spectator's): exactly what ``Game.observe(seat)`` and ``Game.log(seat)`` gave that seat
at that moment, no more.  So a replay from Anna's seat shows Anna's private looks and the cards
she knew, and nothing of Ben's; switching to Ben's seat shows his.  There is no view of
everything at once (the order of every deck, the next reveals): the game's rules never showed
that to anybody, and seeing a deck's order at a step says nothing about how the game was played
that the seats' views do not.

**Bounded work.**  The first request for a game replays it once (every action from the seed:
about 12 ms for a 300-action game, measured) and keeps a copy of the game every
:data:`STRIDE` steps; at most :data:`CACHED` games are kept (the least recently used go), and
at most :data:`BUILDS` games are replayed at once.  A request for a step then applies at most
``STRIDE - 1`` actions to a copy of the nearest kept game.  Games longer than
:data:`MAX_STEPS` actions are not replayed.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..engine.game import Game
from .sessions import Conflict, SessionManager, TooMany, start_game
from .updates import catalogue_url, house_catalogue_url, log_entries

#: A copy of the game is kept every this many steps.
STRIDE = 16
#: Games whose replays are kept in memory.
CACHED = 32
#: Games replayed at the same time (the first request for each); further requests wait.
BUILDS = 2
#: Longest game (in actions) that is replayed.
MAX_STEPS = 20_000


@dataclass
class Replay:
    """One finished game, replayed once: the kept copies and the outline of its steps."""

    game_id: str
    config: dict[str, Any]
    bots: list[str | None]
    actions: list[str]
    kept: list[Game]                         # the game at steps 0, STRIDE, 2*STRIDE, ...
    events: list[int]                        # events[k]: how many events the game had at step k
    actors: list[int | None]                 # actors[k]: the seat whose action made step k (None at 0)
    turns: list[dict[str, int]]              # where each turn starts: {step, turn, round, player}
    times: list[float | None] = field(default_factory=list)   # times[k]: when action k-1 was made (0: created)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def steps(self) -> int:
        return len(self.actions)

    def started(self, actions: Any) -> float | None:
        """When the turn began that started after ``actions`` actions (the log's turn times)."""
        if isinstance(actions, int) and 0 <= actions < len(self.times):
            return self.times[actions]
        return None

    def at(self, step: int) -> Game:
        """The game after ``step`` actions (a copy: the caller may read it freely)."""
        game = self.kept[step // STRIDE].clone()
        for action in self.actions[step - step % STRIDE: step]:
            game.apply_action(action)
        return game


def build(game_id: str, config: dict[str, Any], bots: list[str | None], actions: list[str],
          times: list[float | None] | None = None) -> Replay:
    """Replay ``actions`` from the start of a game with this configuration (see the module docstring)."""
    if len(actions) > MAX_STEPS:
        raise Conflict(f"this game has {len(actions)} actions; games of more than {MAX_STEPS} are not replayed")
    game = start_game(config)
    kept = [game.clone()]
    st = game.state
    events = [len(st.events)]
    actors: list[int | None] = [None]
    turns = [{"step": 0, "turn": st.turn_number, "round": st.round, "player": st.turn.player}]
    for k, action in enumerate(actions, start=1):
        actors.append(game.current_player)
        game.apply_action(action)
        st = game.state
        events.append(len(st.events))
        if st.turn_number != turns[-1]["turn"] and not game.is_over():
            turns.append({"step": k, "turn": st.turn_number, "round": st.round, "player": st.turn.player})
        if k % STRIDE == 0:
            kept.append(game.clone())
    return Replay(game_id, config, bots, list(actions), kept, events, actors, turns, list(times or []))


class Replays:
    """The replays of one server (see the module docstring)."""

    def __init__(self, manager: SessionManager, cached: int = CACHED, builds: int = BUILDS) -> None:
        self.manager = manager
        self.cached = cached
        self._replays: OrderedDict[str, Replay] = OrderedDict()
        self._building: dict[str, threading.Event] = {}
        self._lock = threading.Lock()
        self._builds = threading.BoundedSemaphore(builds)

    def get(self, game_id: str) -> Replay:
        """The replay of the finished game ``game_id``: :class:`NotFound` for no game,
        :class:`Conflict` for a game that is not over."""
        while True:
            with self._lock:
                found = self._replays.get(game_id)
                if found is not None:
                    self._replays.move_to_end(game_id)
                    return found
                waiting = self._building.get(game_id)
                if waiting is None:
                    waiting = self._building[game_id] = threading.Event()
                    mine = True
                else:
                    mine = False
            if not mine:
                waiting.wait(60)
                continue
            try:
                replay = self._build(game_id)
                with self._lock:
                    self._replays[game_id] = replay
                    while len(self._replays) > self.cached:
                        self._replays.popitem(last=False)
                return replay
            finally:
                with self._lock:
                    del self._building[game_id]
                waiting.set()

    def _build(self, game_id: str) -> Replay:
        with self.manager.use(game_id, fresh=True) as session:
            with session._lock:
                if not session.game.is_over():
                    raise Conflict("a game can be replayed once it is over; until then, open its table")
                actions = list(session.game.history)
                config = dict(session.config)
                bots = [s.bot for s in session.seats]
                times = [session.turn_started_at(k) for k in range(len(actions) + 1)]
        if not self._builds.acquire(timeout=30):
            raise TooMany("the server is replaying many games right now; try again in a moment")
        try:
            return build(game_id, config, bots, actions, times)
        finally:
            self._builds.release()

    def step(self, game_id: str, seat: int | None, step: int, outline: bool = False) -> dict[str, Any]:
        """Step ``step`` of the finished game from ``seat``'s view (None: a spectator's): the view
        as the table draws it, the log as that seat read it, who acted, and with ``outline`` the
        steps' turns and log positions (for a step list and turn-by-turn jumps).
        :class:`Conflict` for a step or seat the game does not have."""
        replay = self.get(game_id)
        players = len(replay.bots)
        if seat is not None and not 0 <= seat < players:
            raise Conflict(f"this game has seats 0 to {players - 1}")
        if not 0 <= step <= replay.steps:
            raise Conflict(f"this game has steps 0 to {replay.steps}")
        game = replay.at(step)
        config = replay.config
        view = {
            "game_id": game_id, "seat": seat, "observation": game.observe(seat), "legal_actions": [],
            "can_undo": False, "players": [{"seat": s, "bot": b} for s, b in enumerate(replay.bots)],
            "catalogue": house_catalogue_url(game_id, game.state.cat) if game.state.cat.raw
            else catalogue_url(game.state.cat.sets),
            "options": {"players": config["players"], "sets": list(config["sets"]),
                        "leaders": bool(config.get("leaders")), "ruleset": config["ruleset"],
                        "finish_turn": bool(config.get("finish_turn")),
                        # issue 21: played with the host's card values
                        **({"house_cards": sorted(game.state.cat.raw)} if game.state.cat.raw else {})},
            "rematch": None,
        }
        turn = bisect.bisect_right([t["step"] for t in replay.turns], step) - 1
        answer: dict[str, Any] = {
            "game_id": game_id, "seat": seat, "step": step, "steps": replay.steps, "actor": replay.actors[step],
            "turn": turn, "view": view, "log": log_entries(game, seat, 0, replay.started),
        }
        if outline:
            answer["outline"] = {"turns": replay.turns, "events": replay.events, "actors": replay.actors}
        return answer
