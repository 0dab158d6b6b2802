"""Authoritative game sessions: one in-memory game per id, its durable log, its bots, its listeners.

Every change to a game goes through :meth:`GameSession.act` or :meth:`GameSession.undo`, under the
session's lock: the engine validates the action, the record is committed to storage, and only
then is the change acknowledged and pushed to listeners.  If the commit fails, the in-memory game
is put back as it was, so memory never runs ahead of the database.

What a client sees comes only from ``Game.observe(seat)`` and ``Game.log(seat)``: the seed, the
history and ``to_json()`` never leave this module except into the database.

Undo (file 000: "undo ... never past hidden information"): a seat may take back its own last
action while it is still its decision in the same turn, one action per request, unless that action
revealed anything: a card turned up, a shuffle, a private look, a card drawn from a supply deck, a
random draw.  Such an action is a *barrier*: it and everything before it stay.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import multiprocessing
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from ..bots import SeatView, bot_names, make_bot
from ..engine.actions import Action
from ..engine.game import Game, new_game
from ..errors import IllegalActionError, InvalidActionError, SaveError
from ..runtime import settle
from . import security
from .storage import SNAPSHOT_EVERY, Record, Storage, StorageError, StoredGame, Summary
from .updates import Feed

log = logging.getLogger("mysticvale.server")

#: Event kinds that turn up hidden information; an action that logs one cannot be undone.
REVEALING_EVENTS = frozenset({"reveal", "shuffle", "look", "draw", "refill", "private"})
#: Longest thinking time (seconds per decision) a bot may be given.
MAX_THINK = 30.0


class GameError(Exception):
    """A request the game refuses; ``status`` is the HTTP status to answer with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(GameError):
    status = 404


class Forbidden(GameError):
    status = 403


class Conflict(GameError):
    """Not legal now, stale, or nothing to undo."""

    status = 409


class BadInput(GameError):
    status = 422


class Unavailable(GameError):
    """The database did not take the write; nothing changed."""

    status = 503


# -- configuration -------------------------------------------------------------------
def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"greedy"`` -> ("greedy", {}); ``"ismcts:0.5"`` -> ("ismcts", {"think": 0.5}).

    Raises :class:`BadInput` for an unknown bot or a bad thinking time.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise BadInput("a bot must be given by name, e.g. \"random\" or \"ismcts:0.5\"")
    name, sep, think = spec.strip().partition(":")
    names = bot_names()
    if name not in names:
        raise BadInput(f"unknown bot {name!r}; bots: {', '.join(names)}")
    opts: dict[str, Any] = {}
    if sep:
        try:
            t = float(think)
        except ValueError:
            raise BadInput(f"bot {spec!r}: the thinking time after ':' must be a number of seconds") from None
        if not 0 < t <= MAX_THINK:
            raise BadInput(f"bot {spec!r}: the thinking time must be more than 0 and at most {MAX_THINK:g} seconds")
        opts["think"] = t
    return name, opts


def build_bot(spec: str, seed: int):
    """A fresh bot for ``spec`` (see :func:`parse_bot_spec`) with the given seed."""
    name, opts = parse_bot_spec(spec)
    try:
        return make_bot(name, seed=seed, **opts)
    except TypeError as exc:
        raise BadInput(f"bot {name!r} does not take a thinking time ({exc})") from None
    except ValueError as exc:
        raise BadInput(f"bot {spec!r}: {exc}") from None


#: Bots that search think in worker processes: Python threads share one interpreter lock, so
#: a search running in a server thread would slow down every request while it thinks.
SEARCH_BOTS = ("ismcts",)


def think_in_process(game_json: str, seat: int, spec: str, seed: int) -> str:
    """(Runs in a worker process.) The action the bot ``spec`` chooses for ``seat``."""
    game = Game.from_json(game_json)
    return str(build_bot(spec, seed).act(SeatView(game, seat)))


def engine_has_finish_turn() -> bool:
    """Whether the rules engine can end a turn with an explicit Finish Turn decision (the
    ``finish_turn`` option: after the Discard phase, so a sleeve can still be undone)."""
    global _FINISH_TURN
    if _FINISH_TURN is None:
        try:
            new_game(players=2, seed=0, finish_turn=True)
            _FINISH_TURN = True
        except (TypeError, ValueError):
            _FINISH_TURN = False
    return _FINISH_TURN


_FINISH_TURN: bool | None = None


def bot_seed(game_seed: int, seat: int, seq: int) -> int:
    """The seed of the bot that decides at record ``seq`` for ``seat``.

    A function of the game's seed, so a bot makes the same move after a server restart as it
    would have made without one (for bots whose play depends only on their seed).
    """
    digest = hashlib.sha256(f"mysticvale-bot:{game_seed}:{seat}:{seq}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def start_game(config: dict[str, Any]) -> Game:
    """A new engine game from a stored configuration.  :class:`BadInput` for options it refuses."""
    opts: dict[str, Any] = {}
    if config.get("leaders"):
        opts["leaders"] = True
    if config.get("finish_turn"):
        opts["finish_turn"] = True
    try:
        return new_game(players=config["players"], seed=config["seed"], sets=tuple(config["sets"]),
                        ruleset=config["ruleset"], **opts)
    except ValueError as exc:
        msg = str(exc)
        if "leaders" in msg and "unknown option" in msg:
            msg = "leaders are not available yet: this version of the rules engine cannot deal leaders"
        raise BadInput(msg) from None


# -- sessions ------------------------------------------------------------------------
@dataclass
class SeatInfo:
    seat: int
    digest: str | None      # SHA-256 of the token; None for a bot seat
    bot: str | None         # bot spec, e.g. "greedy" or "ismcts:0.5"


@dataclass
class _Entry:
    """An action that is part of the current game, with (while it may still be undone) the game before it."""

    record: Record
    before: Game | None = None


@dataclass
class _Listener:
    loop: Any
    queue: Any


class GameSession:
    """One game held in memory, backed by storage.  All public methods are thread-safe."""

    def __init__(self, game_id: str, config: dict[str, Any], seats: list[SeatInfo], game: Game,
                 storage: Storage, seq: int, stack: list[_Entry], on_change: Callable[["GameSession"], None]) -> None:
        self.id = game_id
        self.config = config
        self.seats = seats
        self.game = game
        self.storage = storage
        self.seq = seq
        self._stack = stack
        self._on_change = on_change
        self._lock = threading.RLock()
        self._listeners: dict[int, _Listener] = {}
        self._next_listener = 0
        self.bot_busy = False
        self.bot_error: str | None = None
        #: Set when storage holds records this session has not seen; the manager then reloads it.
        self.stale = False
        self._events = _event_count(game)
        self._bodies: dict[int | None, tuple[int, dict[str, Any]]] = {}
        #: Every version as messages for clients (server/updates.py); fed under the lock.
        self.feed = Feed()
        #: The id of the rematch of this game, once one is started (server/rematch.py).
        self.rematch_id: str | None = None

    # -- building --------------------------------------------------------------------
    @classmethod
    def restore(cls, stored: StoredGame, storage: Storage,
                on_change: Callable[["GameSession"], None]) -> "GameSession":
        """Rebuild a game from its latest snapshot plus the records after it (or a full replay)."""
        seats = [SeatInfo(s, d, b) for s, d, b in stored.seats]
        stack: list[_Entry] = []
        at_snapshot: int | None = None
        for r in stored.records:
            if r.kind == "action":
                stack.append(_Entry(r))
            elif r.kind == "undo":
                del stack[r.target:]
            if stored.snapshot is not None and r.seq == stored.snapshot[0]:
                at_snapshot = len(stack)
        actions = [e.record.action for e in stack]
        game = None
        if stored.snapshot is not None:
            snap_seq, snap_actions, snap_json = stored.snapshot
            if snap_seq == 0:
                at_snapshot = 0
            try:
                game = Game.from_json(snap_json)
                if len(game.history) != snap_actions or snap_actions != at_snapshot:
                    raise SaveError("snapshot does not match the record log")
                for r in stored.records:
                    if r.seq <= snap_seq:
                        continue
                    if r.kind == "action":
                        game.apply_action(r.action)
                    else:
                        game = _replay(stored.config, [a for a in game.history][: r.target])
                if game.history != actions:
                    raise SaveError("replayed history differs from the record log")
            except Exception as exc:     # a snapshot is only a shortcut: the record log decides
                log.warning("game %s: snapshot unusable (%s); replaying from the start", stored.id, exc)
                game = None
        if game is None:
            game = _replay(stored.config, actions)
        return cls(stored.id, stored.config, seats, game, storage, stored.seq, stack, on_change)

    # -- reading ---------------------------------------------------------------------
    def seat_for_token(self, token: str | None) -> int | None:
        """The seat whose token this is; None for no token (spectator); :class:`Forbidden` if wrong."""
        if token is None or token == "":
            return None
        for s in self.seats:
            if s.digest is not None and security.token_matches(token, s.digest):
                return s.seat
        raise Forbidden("this token does not belong to any seat of this game")

    def state_for(self, seat: int | None) -> dict[str, Any]:
        """The body of ``GET /state`` for ``seat`` (None: spectator): only what that seat may know."""
        with self._lock:
            cached = self._bodies.get(seat)
            if cached is not None and cached[0] == self.seq:
                return cached[1]
            g = self.game
            mine = seat is not None and g.current_player == seat
            body = {
                "game_id": self.id,
                "seat": seat,
                "seq": self.seq,
                "observation": g.observe(seat),
                "legal_actions": [str(a) for a in g.legal_actions()] if mine else [],
                "log": g.log(seat),
                "players": [{"seat": s.seat, "bot": s.bot} for s in self.seats],
                "can_undo": seat is not None and self._undo_refusal(seat) is None,
            }
            # Built once per seat and seq (sockets and requests of that seat share it); never mutated.
            self._bodies[seat] = (self.seq, body)
            return body

    def summary(self) -> dict[str, Any]:
        """The public summary of the game (for the lobby)."""
        with self._lock:
            s = _summary(self.game)
            return {"id": self.id, "players": len(self.seats),
                    "seats": [{"seat": x.seat, "bot": x.bot} for x in self.seats],
                    "current_player": s.current_player, "phase": s.phase, "round": s.round,
                    "over": s.over, "winners": s.winners}

    # -- changing --------------------------------------------------------------------
    def act(self, seat: int, text: str, expected_seq: int | None = None) -> int:
        """Apply ``text`` for ``seat``; returns the new seq once the record is committed."""
        with self._lock:
            if expected_seq is not None and expected_seq != self.seq:
                raise Conflict(f"stale request: the game is at seq {self.seq}, the request was made at seq "
                               f"{expected_seq}; reload the state")
            g = self.game
            if g.is_over():
                raise Conflict("the game is over")
            if g.current_player != seat:
                raise Conflict(f"it is not your decision: player {g.current_player + 1} is to act")
            try:
                action = Action.parse(text)
            except InvalidActionError as exc:
                raise BadInput(str(exc)) from None
            before = g.clone()
            before_fp = _hidden_fingerprint(g)
            turn = g.observe(None)["turn_number"]
            try:
                g.apply_action(action)
            except IllegalActionError as exc:
                raise Conflict(str(exc)) from None
            barrier = self._revealed(before_fp)
            record = Record(self.seq + 1, "action", seat, str(action), None, barrier, turn)
            snapshot = None
            if record.seq % SNAPSHOT_EVERY == 0 or g.is_over():
                snapshot = (len(g.history), g.to_json())
            try:
                self.storage.append(self.id, record, _summary(g), snapshot)
            except Exception as exc:  # the database did not take it: forget the change
                self.game = before
                if isinstance(exc, StorageError):
                    self.stale = True   # another writer moved the game on: reload it from storage
                log.exception("game %s: could not store record %d", self.id, record.seq)
                raise Unavailable(f"the move could not be saved ({type(exc).__name__}); nothing changed, "
                                  f"try again") from None
            if barrier:
                for e in self._stack:       # nothing before a barrier can be undone any more
                    e.before = None
            self._stack.append(_Entry(record, None if barrier else before))
            self.seq = record.seq
            self._events = _event_count(g)
            seq = self.seq
            self.feed.record(self, seat, undo=False)
        self._changed()
        return seq

    def _revealed(self, before_fp: tuple) -> bool:
        g = self.game
        if _hidden_fingerprint(g) != before_fp:
            return True
        viewers: list[int | None] = [None, *range(len(self.seats))]
        logs = [g.log(v, self._events) for v in viewers]
        for entries in logs:
            if any(e["kind"] in REVEALING_EVENTS for e in entries):
                return True
        # A text that differs between viewers is private to someone: a private look.
        public = [(e["index"], e["text"]) for e in logs[0]]
        return any([(e["index"], e["text"]) for e in entries] != public for entries in logs[1:])

    def _undo_refusal(self, seat: int) -> str | None:
        """Why ``seat`` cannot undo now, or None if it can."""
        g = self.game
        info = self.seats[seat]
        if info.bot is not None:
            return "bots do not undo"
        if g.is_over():
            return "the game is over"
        if not self._stack:
            return "nothing to undo: no action has been taken yet"
        top = self._stack[-1].record
        if top.seat != seat or g.current_player != seat:
            return "nothing to undo: you can only take back your own last action while it is still your decision"
        if top.barrier:
            return f"cannot undo {top.action!r}: it revealed hidden information (a card, a shuffle or a private look)"
        if top.turn != g.observe(None)["turn_number"]:
            return "cannot undo an action from an earlier turn"
        return None

    def undo(self, seat: int) -> int:
        """Take back ``seat``'s last action (see the module docstring); returns the new seq."""
        with self._lock:
            why = self._undo_refusal(seat)
            if why is not None:
                raise Conflict(why)
            entry = self._stack[-1]
            keep = len(self._stack) - 1
            target = entry.before if entry.before is not None else \
                _replay(self.config, [e.record.action for e in self._stack[:keep]])
            record = Record(self.seq + 1, "undo", seat, None, keep, False, entry.record.turn)
            try:
                self.storage.append(self.id, record, _summary(target), (keep, target.to_json()))
            except Exception as exc:
                log.exception("game %s: could not store undo record %d", self.id, record.seq)
                raise Unavailable(f"the undo could not be saved ({type(exc).__name__}); nothing changed") from None
            self.game = target
            self._stack.pop()
            self.seq = record.seq
            self._events = _event_count(target)
            seq = self.seq
            self.feed.record(self, seat, undo=True)
        self._changed()
        return seq

    # -- bots --------------------------------------------------------------------------
    def bot_to_move(self) -> tuple[int, str, int, Game] | None:
        """(seat, spec, seq, copy of the game) if a bot must act now, else None."""
        with self._lock:
            g = self.game
            cp = g.current_player
            if cp is None or self.seats[cp].bot is None:
                return None
            return cp, self.seats[cp].bot, self.seq, g.clone()

    def play_bot(self, remote: Callable[[str, int, str, int], str] | None = None) -> bool:
        """Let the bot whose decision it is choose and play one action; False if no bot is to act.

        ``remote`` (game JSON, seat, spec, seed) -> action runs a searching bot elsewhere.
        """
        job = self.bot_to_move()
        if job is None:
            return False
        seat, spec, seq, copy = job
        seed = bot_seed(self.config["seed"], seat, seq)
        # The bot thinks on a copy, outside the lock: readers and listeners are not held up.
        if remote is not None and parse_bot_spec(spec)[0] in SEARCH_BOTS:
            action = remote(copy.to_json(), seat, spec, seed)
        else:
            action = str(build_bot(spec, seed).act(SeatView(copy, seat)))
        try:
            self.act(seat, action, expected_seq=seq)
        except Conflict:
            if self.seq == seq:
                raise
        return True

    # -- listeners ---------------------------------------------------------------------
    def subscribe(self, loop, queue) -> int:
        """Register an asyncio queue that gets ``None`` put into it after every change."""
        with self._lock:
            self._next_listener += 1
            self._listeners[self._next_listener] = _Listener(loop, queue)
            return self._next_listener

    def has_listeners(self) -> bool:
        with self._lock:
            return bool(self._listeners)

    def unsubscribe(self, key: int) -> None:
        with self._lock:
            self._listeners.pop(key, None)

    def _changed(self) -> None:
        with self._lock:
            listeners = list(self._listeners.values())
        for li in listeners:
            try:
                li.loop.call_soon_threadsafe(li.queue.put_nowait, None)
            except RuntimeError:        # that event loop is closed: the client is gone
                pass
        self._on_change(self)


class SessionManager:
    """All sessions of a server: creating, loading on demand, and running bots in worker threads.

    At most ``max_cached`` sessions stay in memory; the least recently used ones without listeners
    or a running bot are dropped (they are reloaded from storage when asked for again).
    """

    def __init__(self, storage: Storage, *, allow_seed: bool = False, bot_workers: int = 2,
                 max_cached: int = 256) -> None:
        self.storage = storage
        self.allow_seed = allow_seed
        self.max_cached = max_cached
        self._sessions: dict[str, GameSession] = {}
        self._lock = threading.Lock()
        self._rematch_lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="mysticvale-bot")
        self._bot_workers = bot_workers
        self._processes: ProcessPoolExecutor | None = None
        self._closed = False

    def create(self, players: int, sets: list[str], leaders: bool, ruleset: str, bots: dict[int, str],
               seed: int | None = None) -> tuple[GameSession, dict[int, str]]:
        """Create and store a game; returns the session and the token of each human seat."""
        if seed is not None and not self.allow_seed:
            raise BadInput("choosing the seed is disabled on this server (start it with --allow-seed)")
        for s, spec in bots.items():
            if not 0 <= s < players:
                raise BadInput(f"bot seat {s} does not exist in a {players}-player game (seats 0 to {players - 1})")
            build_bot(spec, 0)          # validates the name and options now, not at its first move
        config = {"players": players, "sets": list(sets), "leaders": bool(leaders), "ruleset": ruleset,
                  "seed": security.new_seed() if seed is None else seed}
        if len(bots) < players and engine_has_finish_turn():
            config["finish_turn"] = True    # people end their turn with Finish Turn (file 000)
        game = start_game(config)
        tokens = {s: security.new_token() for s in range(players) if s not in bots}
        seats = [SeatInfo(s, security.token_digest(tokens[s]) if s in tokens else None, bots.get(s))
                 for s in range(players)]
        game_id = security.new_game_id()
        self.storage.create_game(game_id, config, [(x.seat, x.digest, x.bot) for x in seats], game.to_json(),
                                 _summary(game))
        session = GameSession(game_id, config, seats, game, self.storage, 0, [], self._after_change)
        with self._lock:
            self._remember(game_id, session)
        self.kick(session)
        return session, tokens

    def rematch(self, old: GameSession) -> GameSession:
        """The rematch of a finished game: the same seats, bots, sets and rules with a new seed.

        Each human seat keeps its token (the digest is copied), so whoever held a seat opens
        the same seat of the rematch with the same secret.  The rematch's id is derived from
        the game's, so every player who asks gets the same new game, also after a restart.
        """
        with old._lock:
            if not old.game.is_over():
                raise Conflict("a rematch can start once the game is over")
        game_id = security.rematch_game_id(old.id)
        with self._rematch_lock:
            try:
                session = self.get(game_id)
            except NotFound:
                config = dict(old.config, seed=security.new_seed())
                game = start_game(config)
                seats = [SeatInfo(s.seat, s.digest, s.bot) for s in old.seats]
                self.storage.create_game(game_id, config, [(x.seat, x.digest, x.bot) for x in seats],
                                         game.to_json(), _summary(game))
                session = GameSession(game_id, config, seats, game, self.storage, 0, [], self._after_change)
                with self._lock:
                    self._remember(game_id, session)
                self.kick(session)
        if old.rematch_id != game_id:
            old.rematch_id = game_id
            old.feed.forget_views()
            old._changed()          # open tables of the old game learn of it
        return session

    def get(self, game_id: str) -> GameSession:
        """The session of ``game_id`` (loaded from storage if needed); :class:`NotFound` if none."""
        with self._lock:
            s = self._sessions.get(game_id)
            if s is not None and not s.stale:
                self._sessions[game_id] = self._sessions.pop(game_id)     # most recently used last
                return s
            stored = self.storage.load(game_id) if len(game_id) <= 64 else None
            if stored is None:
                raise NotFound(f"no game with id {game_id!r}")
            s = GameSession.restore(stored, self.storage, self._after_change)
            self._sessions.pop(game_id, None)
            self._remember(game_id, s)
        self.kick(s)
        return s

    def _remember(self, game_id: str, session: GameSession) -> None:
        # (called with self._lock held)
        self._sessions[game_id] = session
        if len(self._sessions) <= self.max_cached:
            return
        for gid, old in list(self._sessions.items()):
            if len(self._sessions) <= self.max_cached:
                break
            if old is not session and not old.bot_busy and not old.has_listeners():
                del self._sessions[gid]

    def resume_bots(self) -> int:
        """After a start: load every unfinished game waiting for a bot and let the bots play on."""
        ids = self.storage.games_waiting_for_bots()
        for gid in ids:
            try:
                self.get(gid)
            except Exception:
                log.exception("game %s: could not be restored", gid)
        return len(ids)

    def _after_change(self, session: GameSession) -> None:
        self.kick(session)

    def kick(self, session: GameSession) -> None:
        """Start the session's bot worker if a bot is to act and none is running."""
        with self._lock:
            if self._closed or session.bot_busy or session.bot_to_move() is None:
                return
            session.bot_busy = True
        try:
            self._pool.submit(self._run_bots, session)
        except RuntimeError:            # the pool is shut down
            session.bot_busy = False

    def _run_bots(self, session: GameSession) -> None:
        # One bot move per task, then the session queues again behind other games' bots: a long
        # bot-only game cannot hold a worker for its whole length.
        try:
            for attempt in range(1, 4):
                if self._closed:
                    return
                try:
                    session.play_bot(self._think_remote)
                    session.bot_error = None
                    return
                except Exception as exc:   # keep the server alive; say what went wrong
                    session.bot_error = f"{type(exc).__name__}: {exc}"
                    log.exception("game %s: bot move failed (attempt %d)", session.id, attempt)
                    if isinstance(exc, GameError) and not isinstance(exc, Unavailable):
                        return
                    time.sleep(0.5 * attempt)
        finally:
            with self._lock:
                session.bot_busy = False
            if not self._closed and session.bot_error is None:
                self.kick(session)       # the next bot move, if a bot is still to act

    def _think_remote(self, game_json: str, seat: int, spec: str, seed: int) -> str:
        """A searching bot's move, computed in a worker process (started on first use)."""
        with self._lock:
            if self._processes is None:
                # Each worker settles first: the catalogue frozen out of the collector's way.
                self._processes = ProcessPoolExecutor(
                    max_workers=self._bot_workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=settle)
            procs = self._processes
        return procs.submit(think_in_process, game_json, seat, spec, seed).result()

    def close(self) -> None:
        """Stop bot workers (moves in flight are either committed or dropped, never half-stored)."""
        self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=True, cancel_futures=True)


# -- helpers -------------------------------------------------------------------------
def _replay(config: dict[str, Any], actions: list[str]) -> Game:
    g = start_game(config)
    for a in actions:
        g.apply_action(a)
    return g


def _summary(g: Game) -> Summary:
    obs = g.observe(None)
    return Summary(g.current_player, obs["phase"], obs["round"], g.is_over(), list(g.winners()))


def _event_count(g: Game) -> int:
    """Number of events so far (as far as any viewer can see one)."""
    last = -1
    for v in [None, *range(g.players)]:
        entries = g.log(v, max(last, 0))
        if entries:
            last = max(last, entries[-1]["index"])
    return last + 1


def _hidden_fingerprint(g: Game) -> tuple:
    """Everything whose change means hidden information came out (or randomness was used)."""
    pub = g.observe(None)
    parts: list[Any] = [
        tuple(p["deck_count"] for p in pub["players"]),
        tuple(sorted(pub["advancement_decks"].items())),
        tuple(sorted(pub["vale_decks"].items())),
    ]
    for seat in range(g.players):
        o = g.observe(seat)
        me = o["players"][seat]
        pend = o.get("pending") or {}
        parts.append((tuple(me.get("known_top", ())), tuple(c["id"] for c in pend.get("cards", ()) or ())))
    # Any draw from the game's random streams (the server, unlike clients, may read the full state).
    rng = getattr(g.state, "rng", None)
    parts.append(tuple(sorted(rng.states.items())) if rng is not None else None)
    return tuple(parts)
