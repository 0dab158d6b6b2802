"""Authoritative game sessions: one in-memory game per id and process, its durable log, its listeners.

Every change to a game goes through :meth:`GameSession.act` or :meth:`GameSession.undo`, under the
session's lock: the engine validates the action, the record is committed to storage, and only
then is the change acknowledged and pushed to listeners.  If the commit fails, the in-memory game
is put back as it was, so memory never runs ahead of the database.

**The database decides.**  A session is this process's copy of a game; the record log in the
database is the authority.  A record is appended only if its number is the next one (a
conditional update of the game row, which the database serialises per game).  When another server
process appended records meanwhile, the append is refused, the session *catches up* by applying
the records it had not seen (:meth:`GameSession.catch_up`), and the request is answered as stale.
So several processes may serve one game, each applying what the others committed, and no action is
ever lost or applied twice (:mod:`mysticvale.server.cluster` says how they hear of each other's
records and which of them runs a game's bots).  Within one process there is exactly one session
per game: :class:`SessionManager` loads a game once however many requests ask for it at the same
time, and never drops a session that a request, a WebSocket or a bot is using.

**Every change is idempotent.**  A request to act or undo carries ``seq``, the number of the state
it was made in.  Sent again after its answer was lost, it finds its own record at ``seq + 1`` and
gets the same answer (:class:`Applied` with ``repeated``) instead of changing the game twice; a
request made in an older state is refused as stale and changes nothing.

What a client sees comes only from ``Game.observe(seat)`` and ``Game.log(seat)``: the seed, the
history and ``to_json()`` never leave this module except into the database.

Undo (file 000: "undo ... never past hidden information"): a seat may take back its own last
action while it is still its decision in the same turn, one action per request, unless that action
revealed anything: a card turned up, a shuffle, a private look, a card drawn from a supply deck, a
random draw.  Such an action is a *barrier*: it and everything before it stay.  Tables with people
play yucata's turn order (the engine's ``finish_turn``): after a When Played ability the player used,
the next card waits for ``reveal``, so that choice can be taken back until then, and every turn ends
with Finish Turn after the Prep (docs/rules-decisions.md).
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from ..bots import SeatView, bot_names, make_bot
from ..bots.levels import expand, level, levels
from .bot_engine import resolve as resolve_bot_engine, think as bot_engine_think
from ..engine.actions import Action
from ..engine.game import Game, new_game
from ..errors import IllegalActionError, InvalidActionError, SaveError
from . import house_cards as house_file, security
from .credentials import PENDING
from .notation import notation_problem
from .storage import SNAPSHOT_EVERY, Record, Storage, StorageError, StoredGame, Summary
from .updates import Feed, dumps

log = logging.getLogger("mysticvale.server")

#: Event kinds that turn up hidden information; an action that logs one cannot be undone.
REVEALING_EVENTS = frozenset({"reveal", "shuffle", "look", "draw", "refill", "private"})
#: Longest thinking time (seconds per decision) a bot may be given unless the server says otherwise
#: (``mysticvale serve --max-think``).  A bot's thinking holds one of the few search workers.
DEFAULT_MAX_THINK = 5.0
#: Bots that search think in worker processes: Python threads share one interpreter lock, so
#: a search running in a server thread would slow down every request while it thinks.
SEARCH_BOTS = ("ismcts",)


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


class TokenEnded(Forbidden):
    """A seat token that was this game's and has ended: an invitation whose seat was claimed (its
    claimant got a fresh token), or a token replaced when its player replaced their key."""

    status = 410

    def __init__(self, message: str, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


def ended_message(seat: int, reason: str) -> str:
    """Why a token of ``seat`` ended, for the person who comes with it (``reason``: claimed, replaced)."""
    if reason == "claimed":
        return (f"this invitation was already used: player {seat + 1}'s seat belongs to the person who took it; "
                f"open the game link without it to watch")
    return (f"this link to player {seat + 1}'s seat was replaced (its player replaced their personal key or signed "
            f"out everywhere); open the game from your games list")


class Conflict(GameError):
    """Not legal now, stale, or nothing to undo."""

    status = 409


class BadInput(GameError):
    status = 422


class TooMany(GameError):
    """A client asked for more than its share (games per minute, messages per second)."""

    status = 429


class Unavailable(GameError):
    """The database did not take the write, or the server is at capacity; nothing changed."""

    status = 503


# -- configuration -------------------------------------------------------------------
def parse_bot_spec(spec: str, max_think: float = DEFAULT_MAX_THINK) -> tuple[str, dict[str, Any]]:
    """``"greedy"`` -> ("greedy", {}); ``"ismcts:0.5"`` -> ("ismcts", {"think": 0.5}).

    Raises :class:`BadInput` for an unknown bot or a thinking time that is not a number of
    seconds above 0 and at most ``max_think``.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise BadInput("a bot must be given by name, e.g. \"random\" or \"ismcts:0.5\"")
    name, sep, think = spec.strip().partition(":")
    names = bot_names()
    if name not in names:
        raise BadInput(f"unknown bot {name!r}; bots: {', '.join(names)}")
    opts: dict[str, Any] = {}
    if sep and level(name) is not None:
        raise BadInput(f"bot {spec!r}: the level {name!r} has its own strength; a thinking time after ':' "
                       f"is only for {', '.join(SEARCH_BOTS)}")
    if sep:
        # Plain decimal numbers only: float() would also take "nan", "inf", "1e400" and "１".
        if not (think.isascii() and think.replace(".", "", 1).isdigit()):
            raise BadInput(f"bot {spec!r}: the thinking time after ':' must be a number of seconds, e.g. 0.5")
        t = float(think)
        if not 0 < t <= max_think:
            raise BadInput(f"bot {spec!r}: the thinking time must be more than 0 and at most {max_think:g} "
                           f"seconds on this server")
        opts["think"] = t
    return name, opts


def search_bot_names() -> tuple[str, ...]:
    """The bot names that search: :data:`SEARCH_BOTS` and the levels that are one of them."""
    return SEARCH_BOTS + tuple(lv.name for lv in levels() if lv.bot in SEARCH_BOTS)


def is_search_bot(spec: str) -> bool:
    """Whether the bot ``spec`` searches (and so thinks in a worker process)."""
    return spec.partition(":")[0].strip() in search_bot_names()


def build_bot(spec: str, seed: int, max_think: float | None = None):
    """A fresh bot for ``spec`` (see :func:`parse_bot_spec`) with the given seed.

    With ``max_think``, a stored game's longer thinking time is cut to it (a server restarted
    with a lower limit still plays its old games).
    """
    name, opts = bot_options(spec, max_think)
    try:
        return make_bot(name, seed=seed, **opts)
    except TypeError as exc:
        raise BadInput(f"bot {name!r} does not take a thinking time ({exc})") from None
    except ValueError as exc:
        raise BadInput(f"bot {spec!r}: {exc}") from None


def bot_options(spec: str, max_think: float | None = None) -> tuple[str, dict[str, Any]]:
    """(name, options) of the bot a stored ``spec`` plays as (a level's bot and its options),
    a longer thinking time cut to ``max_think``."""
    name, opts = parse_bot_spec(spec, float("inf"))
    name, opts = expand(name, opts)
    if max_think is not None and "think" in opts:
        opts["think"] = min(opts["think"], max_think)
    return name, opts


def think_in_process(game_json: str, seat: int, spec: str, seed: int, max_think: float | None = None,
                     bot_engine: str = "python") -> str:
    """(Runs in a worker process.) The action the bot ``spec`` chooses for ``seat``, thought
    with ``bot_engine`` (:mod:`.bot_engine`: ``"native"`` or ``"python"``)."""
    name, opts = bot_options(spec, max_think)
    try:
        action = bot_engine_think(bot_engine, game_json, seat, name, opts, seed)
    except ValueError as exc:
        raise BadInput(f"bot {spec!r}: {exc}") from None
    if action is not None:
        return action
    game = Game.from_json(game_json)
    return str(build_bot(spec, seed, max_think).act(SeatView(game, seat)))


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
    house = None
    if config.get("house_cards"):
        # issue 21: the host's card values (checked by server/house_cards.py when the game was made)
        house = opts["catalogue"] = house_file.game_file(config["house_cards"])
    try:
        return new_game(players=config["players"], seed=config["seed"], sets=tuple(config["sets"]),
                        ruleset=config["ruleset"], **opts)
    except ValueError as exc:
        msg = str(exc)
        if "leaders" in msg and "unknown option" in msg:
            msg = "leaders are not available yet: this version of the rules engine cannot deal leaders"
        raise BadInput(msg) from None
    finally:
        if house:
            os.unlink(house)


# -- sessions ------------------------------------------------------------------------
@dataclass
class SeatInfo:
    seat: int
    digest: str | None      # SHA-256 of the token; None for a bot seat
    bot: str | None         # bot spec, e.g. "greedy" or "ismcts:0.5"


@dataclass(frozen=True)
class Applied:
    """The answer to a change: the number of the request's own record, and whether the request had
    already been applied before (a retry whose first answer was lost; nothing changed now)."""

    seq: int
    repeated: bool = False


@dataclass(frozen=True)
class TurnInfo:
    """A game's position as far as notifications care: its record count and who is to decide."""

    game_id: str
    seq: int
    current_player: int | None
    turn: int
    over: bool
    #: Who brought this position about, as far as this process knows (issue 22: turn e-mails per
    #: client address): the principal of the client address that played in the game last, else of
    #: the address that created it, else the game's own (``game:<id>``).
    cause: str | None = None


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
                 storage: Storage, seq: int, stack: list[_Entry],
                 on_change: Callable[["GameSession", bool], None]) -> None:
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
        #: A bot move of this game is queued or running (set and cleared by the manager).
        self.bot_busy = False
        self.bot_error: str | None = None
        #: Requests, sockets and bot moves using this session now (kept by the manager).
        self.users = 0
        self._events = _event_count(game)
        self._bodies: dict[int | None, tuple[int, dict[str, Any]]] = {}
        #: The protocol-1 push of each seat as (seq, text): one serialisation per version and seat.
        self._state_texts: dict[int | None, tuple[int, str]] = {}
        self._text_lock = threading.Lock()
        #: Every version as messages for clients (server/updates.py); fed under the lock.
        self.feed = Feed()
        #: The id of the rematch of this game, once one is started (server/rematch.py).
        self.rematch_id: str | None = None
        #: When the game was created (its first turn's time in the log; restore() sets the stored one).
        self.created_at = time.time()
        #: Whom its searching bots search for (the scheduler's shares, issue 22): the creator's
        #: client address and person, and the address that played in it last.  A game known only
        #: from the database (a restart) counts as its own until somebody plays in it.
        self.creator_principals: tuple[str, ...] = (f"game:{game_id}",)
        self.actor_principal: str | None = None
        #: When a request or socket last used the game (the manager's clock), and whether its
        #: searching bot waits for somebody to come back (kept by the manager).
        self.seen_at = 0.0
        self.bot_parked = False

    @property
    def principals(self) -> tuple[str, ...]:
        return self.creator_principals + ((self.actor_principal,) if self.actor_principal else ())

    def note_actor(self, address: str | None) -> None:
        """A person played in the game from client ``address``: its searches count for them too."""
        if address:
            self.actor_principal = f"addr:{address}"

    @property
    def searching(self) -> bool:
        """Whether a seat of this game holds a searching bot (whose search waits for people)."""
        return any(s.bot is not None and is_search_bot(s.bot) for s in self.seats)

    @property
    def bot_only(self) -> bool:
        """No human seat: nobody waits for this game's bots."""
        return all(s.bot is not None for s in self.seats)

    # -- building --------------------------------------------------------------------
    @classmethod
    def restore(cls, stored: StoredGame, storage: Storage,
                on_change: Callable[["GameSession", bool], None]) -> "GameSession":
        """Rebuild a game from its latest snapshot plus the records after it (or a full replay)."""
        seats = [SeatInfo(s, d, b) for s, d, b in stored.seats]
        game, stack = _rebuild(stored)
        session = cls(stored.id, stored.config, seats, game, storage, stored.seq, stack, on_change)
        session.created_at = stored.created_at or session.created_at
        return session

    def turn_started_at(self, actions: Any) -> float | None:
        """When the turn began that started after ``actions`` actions of the game (a turn's log entry
        says how many): the time of the action that ended the turn before (its record), or of the
        game's creation for the first turn.  None if not known.  (Lock held by the caller.)"""
        if not isinstance(actions, int) or actions < 0 or actions > len(self._stack):
            return None
        if actions == 0:
            return self.created_at
        return self._stack[actions - 1].record.created_at or None

    # -- reading ---------------------------------------------------------------------
    def seat_for_token(self, token: str | None) -> int | None:
        """The seat whose token this is; None for no token (spectator); :class:`TokenEnded` (410) for
        a token of this game that has ended (an invitation already used, a replaced token),
        :class:`Forbidden` for any other.

        A token that matches no seat in memory is looked up in the database first: another server
        process may have issued it (a claim, a rematch seat's first token) since this copy was made.
        """
        if token is None or token == "":
            return None
        seat = self._match(token)
        if seat is not None:
            return seat
        stored = self.storage.seat_digests(self.id)
        if any(stored.get(s.seat) != s.digest for s in self.seats):
            self.set_seat_digests(stored)
            seat = self._match(token)
            if seat is not None:
                return seat
        ended = self.storage.ended_token(self.id, security.token_digest(token))
        if ended is not None:
            raise TokenEnded(ended_message(*ended), ended[0])
        raise Forbidden("this token does not belong to any seat of this game")

    def ended_reason(self, digest: str | None) -> str:
        """What to tell a socket opened with the token of ``digest``, which has ended."""
        ended = self.storage.ended_token(self.id, digest) if digest else None
        return ended_message(*ended) if ended is not None else "this seat's token was replaced"


    def _match(self, token: str) -> int | None:
        for s in self.seats:
            if s.digest is not None and security.token_matches(token, s.digest):
                return s.seat
        return None

    def seat_digest(self, seat: int) -> str | None:
        """The digest of ``seat``'s current token (what a socket opened with it compares)."""
        return self.seats[seat].digest

    def set_seat_digests(self, digests: dict[int, str | None]) -> bool:
        """Take the seats' current token digests (after a claim or a key replacement, here or in
        another process); every listener is woken, so sockets opened with a token that ended close.
        Returns whether any changed."""
        changed = False
        for s in self.seats:
            if s.seat in digests and digests[s.seat] != s.digest and s.bot is None:
                s.digest = digests[s.seat]
                changed = True
        if changed:
            with self._lock:
                listeners = list(self._listeners.values())
            for li in listeners:
                try:
                    li.loop.call_soon_threadsafe(li.queue.put_nowait, None)
                except RuntimeError:
                    pass
        return changed

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

    def state_text(self, seat: int | None) -> str:
        """The protocol-1 push ``{"type": "state", ...}`` of ``seat`` now, as JSON text: serialised
        once per version and seat and sent as is by every socket of that seat (all spectators share
        one), not encoded again per socket.  Its own lock: the session's stays free for actions."""
        with self._text_lock:
            body = self.state_for(seat)
            cached = self._state_texts.get(seat)
            if cached is not None and cached[0] == body["seq"]:
                return cached[1]
            text = dumps({"type": "state", **body})
            self._state_texts[seat] = (body["seq"], text)
            return text

    def cached_state_text(self, seat: int | None) -> str | None:
        """:meth:`state_text` if it is made for the current version already, else None; waits for
        no lock (the event loop may call it; a version being applied now reads as not made)."""
        cached = self._state_texts.get(seat)
        return cached[1] if cached is not None and cached[0] == self.seq else None

    def turn_info(self) -> TurnInfo:
        """Who is to decide now, read in one go (issue 15: lobby updates and "your turn" e-mails)."""
        with self._lock:
            g = self.game
            return TurnInfo(self.id, self.seq, g.current_player, g.state.turn_number, g.is_over(), self.cause)

    @property
    def cause(self) -> str:
        """The principal whose request brought the game where it is (see :attr:`TurnInfo.cause`)."""
        if self.actor_principal:
            return self.actor_principal
        return next((p for p in self.creator_principals if p.startswith("addr:")), f"game:{self.id}")

    def summary(self) -> dict[str, Any]:
        """The public summary of the game (for the lobby)."""
        with self._lock:
            s = _summary(self.game)
            return {"id": self.id, "players": len(self.seats),
                    "seats": [{"seat": x.seat, "bot": x.bot} for x in self.seats],
                    "current_player": s.current_player, "phase": s.phase, "round": s.round,
                    "over": s.over, "winners": s.winners}

    # -- changing --------------------------------------------------------------------
    def act(self, seat: int, text: str, expected_seq: int) -> Applied:
        """Apply ``text`` for ``seat`` in the state numbered ``expected_seq``, once the record is committed.

        :class:`BadInput` for malformed notation (before anything else is looked at),
        :class:`Conflict` when the game is not at ``expected_seq`` (unless this very request was
        applied before: then its :class:`Applied` comes back with ``repeated``), when it is not
        the seat's decision or the action is not legal now; :class:`Unavailable` when the
        database did not take the record.  Nothing changes on any error.
        """
        try:
            action = Action.parse(text)
        except InvalidActionError as exc:
            raise BadInput(str(exc)) from None
        problem = notation_problem(action)        # "discard #", "buy .": malformed (422), not illegal
        if problem is not None:
            raise BadInput(problem)
        notation = str(action)
        changed: bool | None = None      # True: changed here; False: caught up with other processes
        try:
            with self._lock:
                if expected_seq > self.seq and self._catch_up_locked():
                    changed = False
                if expected_seq != self.seq:
                    return self._answer_stale(expected_seq, "action", seat, notation)
                g = self.game
                if g.is_over():
                    raise Conflict("the game is over")
                if g.current_player != seat:
                    raise Conflict(f"it is not your decision: player {g.current_player + 1} is to act")
                before = g.clone()
                before_fp = _hidden_fingerprint(g)
                turn = g.state.turn_number
                try:
                    g.apply_action(action)
                except IllegalActionError as exc:
                    raise Conflict(str(exc)) from None
                barrier = self._revealed(before_fp)
                record = Record(self.seq + 1, "action", seat, notation, None, barrier, turn, time.time())
                snapshot = None
                if record.seq % SNAPSHOT_EVERY == 0 or g.is_over():
                    snapshot = (len(g.history), g.to_json())
                try:
                    self.storage.append(self.id, record, _summary(g), snapshot)
                except StorageError:
                    # Another process stored record seq + 1 first: take its records, answer stale.
                    self.game = before
                    if self._catch_up_locked():
                        changed = False
                    return self._answer_stale(expected_seq, "action", seat, notation)
                except Exception as exc:  # the database did not take it: forget the change
                    self.game = before
                    log.exception("game %s: could not store record %d", self.id, record.seq)
                    raise Unavailable(f"the move could not be saved ({type(exc).__name__}); nothing changed, "
                                      f"try again") from None
                if barrier:
                    for e in self._stack:       # nothing before a barrier can be undone any more
                        e.before = None
                self._stack.append(_Entry(record, None if barrier else before))
                self.seq = record.seq
                self._events = _event_count(g)
                self.feed.record(self, seat, undo=False)
                changed = True
                return Applied(record.seq)
        finally:
            if changed is not None:
                self._changed(local=changed)

    def _answer_stale(self, expected_seq: int, kind: str, seat: int, notation: str | None) -> Applied:
        """(Lock held; the session is caught up.)  The answer to a request made at another seq:
        its own record if it was applied before, else :class:`Conflict`."""
        if expected_seq > self.seq:
            raise Conflict(f"stale request: it was made at seq {expected_seq}, but the game is only at seq "
                           f"{self.seq}; reload the state")
        mine = self.storage.record(self.id, expected_seq + 1)
        if mine is not None and mine.kind == kind and mine.seat == seat and \
                (kind == "undo" or mine.action == notation):
            return Applied(mine.seq, repeated=True)
        raise Conflict(f"stale request: the game is at seq {self.seq}, the request was made at seq "
                       f"{expected_seq}; reload the state")

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
        if top.turn != g.state.turn_number:
            return "cannot undo an action from an earlier turn"
        return None

    def undo(self, seat: int, expected_seq: int) -> Applied:
        """Take back ``seat``'s last action (see the module docstring), asked in the state ``expected_seq``.

        Errors and retries as for :meth:`act`.
        """
        changed: bool | None = None
        try:
            with self._lock:
                if expected_seq > self.seq and self._catch_up_locked():
                    changed = False
                if expected_seq != self.seq:
                    return self._answer_stale(expected_seq, "undo", seat, None)
                why = self._undo_refusal(seat)
                if why is not None:
                    raise Conflict(why)
                entry = self._stack[-1]
                keep = len(self._stack) - 1
                target = entry.before if entry.before is not None else \
                    _replay(self.config, [e.record.action for e in self._stack[:keep]])
                record = Record(self.seq + 1, "undo", seat, None, keep, False, entry.record.turn, time.time())
                try:
                    self.storage.append(self.id, record, _summary(target), (keep, target.to_json()))
                except StorageError:
                    if self._catch_up_locked():
                        changed = False
                    return self._answer_stale(expected_seq, "undo", seat, None)
                except Exception as exc:
                    log.exception("game %s: could not store undo record %d", self.id, record.seq)
                    raise Unavailable(f"the undo could not be saved ({type(exc).__name__}); nothing changed") \
                        from None
                self.game = target
                self._stack.pop()
                self.seq = record.seq
                self._events = _event_count(target)
                self.feed.record(self, seat, undo=True)
                changed = True
                return Applied(record.seq)
        finally:
            if changed is not None:
                self._changed(local=changed)

    # -- records of other processes --------------------------------------------------
    def catch_up(self) -> bool:
        """Apply the records that other processes stored since this session's seq; True if any.

        Listeners hear of the change as of any other.
        """
        with self._lock:
            changed = self._catch_up_locked()
        if changed:
            self._changed(local=False)
        return changed

    def refresh(self) -> None:
        """Catch up if the database holds records this session has not seen (one cheap query)."""
        stored = self.storage.seq_of(self.id)
        if stored is not None and stored > self.seq:
            self.catch_up()

    def _catch_up_locked(self) -> bool:
        records = self.storage.records_after(self.id, self.seq)
        if not records:
            return False
        try:
            for r in records:
                if r.seq != self.seq + 1 or r.kind != "action":
                    # An undo (or a gap): rebuild from the latest snapshot, which every undo writes.
                    raise SaveError(f"record {r.seq} ({r.kind})")
                self.game.apply_action(r.action)
                if r.barrier:
                    for e in self._stack:
                        e.before = None
                # No copy of the game before it: an undo here replays the game instead.
                self._stack.append(_Entry(r, None))
                self.seq = r.seq
                self.feed.record(self, r.seat, undo=False)
            self._events = _event_count(self.game)
        except Exception:
            self._reload_locked()
        return True

    def _reload_locked(self) -> None:
        stored = self.storage.load(self.id)
        if stored is None:
            raise NotFound(f"no game with id {self.id!r}")
        self.game, self._stack = _rebuild(stored)
        self.seq = stored.seq
        self._events = _event_count(self.game)
        self._bodies.clear()
        self._state_texts.clear()
        self.feed.forget_views()        # its clients get a full state of the reloaded game next

    # -- bots --------------------------------------------------------------------------
    def bot_spec_to_move(self) -> str | None:
        """The spec of the bot whose decision it is, or None (a human's decision, or the end)."""
        with self._lock:
            cp = self.game.current_player
            return None if cp is None else self.seats[cp].bot

    def bot_to_move(self) -> tuple[int, str, int, Game] | None:
        """(seat, spec, seq, copy of the game) if a bot must act now, else None."""
        with self._lock:
            g = self.game
            cp = g.current_player
            if cp is None or self.seats[cp].bot is None:
                return None
            return cp, self.seats[cp].bot, self.seq, g.clone()

    def play_bot(self, remote: Callable[[str, int, str, int], str] | None = None,
                 max_think: float | None = None) -> bool:
        """Let the bot whose decision it is choose and play one action; False if no bot is to act.

        ``remote`` (game JSON, seat, spec, seed) -> action runs a searching bot elsewhere;
        ``max_think`` cuts a stored longer thinking time.
        """
        job = self.bot_to_move()
        if job is None:
            return False
        seat, spec, seq, copy = job
        seed = bot_seed(self.config["seed"], seat, seq)
        # The bot thinks on a copy, outside the lock: readers and listeners are not held up.
        if remote is not None and is_search_bot(spec):
            action = remote(copy.to_json(), seat, spec, seed)
        else:
            action = str(build_bot(spec, seed, max_think).act(SeatView(copy, seat)))
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

    def _changed(self, local: bool = True) -> None:
        """Tell every listener of this process that the game changed (here, or in another process
        whose records this session caught up with: ``local`` False)."""
        with self._lock:
            listeners = list(self._listeners.values())
        for li in listeners:
            try:
                li.loop.call_soon_threadsafe(li.queue.put_nowait, None)
            except RuntimeError:        # that event loop is closed: the client is gone
                pass
        self._on_change(self, local)


class _Loading:
    """A game being loaded from storage: other requests for it wait for this one load."""

    def __init__(self) -> None:
        self.done = threading.Event()


class SessionManager:
    """All sessions of a server process: creating, loading on demand (once per game however many ask
    at once), keeping each in memory while anyone uses it, and handing bot turns to the scheduler.

    A session is *in use* while a request or a WebSocket holds it (:meth:`use`) or one of its bot
    moves is queued or running; such a session is never dropped.  Beyond ``max_cached`` sessions,
    the least recently used idle ones are dropped (and loaded again when asked for).  If
    ``max_live`` sessions are all in use, loading another game answers 503 instead of exceeding
    that memory bound: there is never a second copy of a game.
    """

    #: A game with a human seat whose last request or socket is older than this (seconds) and
    #: that nobody uses now is *unattended*: its searching bots wait until somebody is back.  Long
    #: enough for the bots to reach the next person's turn after somebody played and left.
    ABSENT_AFTER = 120.0

    def __init__(self, storage: Storage, *, allow_seed: bool = False, bot_workers: int = 2,
                 max_cached: int = 256, max_live: int = 4096, max_think: float = DEFAULT_MAX_THINK,
                 bot_threads: int = 2, coordinator=None, scheduler=None, absent_after: float | None = None,
                 bot_engine: str = "auto") -> None:
        from .cluster import LocalCoordinator
        from .scheduler import BotScheduler

        self.storage = storage
        self.allow_seed = allow_seed
        self.max_cached = max_cached
        self.max_live = max(max_live, max_cached)
        self.max_think = max_think
        #: The engine searching bots think with ("native" or "python"; :mod:`.bot_engine`).
        self.bot_engine = resolve_bot_engine(bot_engine)
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()
        self._loading: dict[str, _Loading] = {}
        self._lock = threading.Lock()
        self._rematch_lock = threading.Lock()
        self.coordinator = coordinator if coordinator is not None else LocalCoordinator()
        self.scheduler = scheduler if scheduler is not None else BotScheduler(
            cheap_threads=bot_threads, search_processes=bot_workers)
        # Catching up with other processes' records reads the database: off the listener's thread.
        self._sync = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mysticvale-sync")
        self._closed = False
        #: The clock of attendance (seconds; tests may move it) and how long a game stays attended.
        self.clock: Callable[[], float] = time.monotonic
        self.absent_after = self.ABSENT_AFTER if absent_after is None else absent_after
        self.coordinator.start(self)
        #: Called with the session and ``local`` (False: a change another server process made) after every change of a game, after its bots are kicked (issue 15:
        #: people's live game lists and "your turn" e-mails).  A listener must return quickly and
        #: never raise into the game: what it raises is logged and dropped.
        self.change_listeners: list[Callable[[GameSession, bool], None]] = []

    # -- sessions ----------------------------------------------------------------------
    def create(self, players: int, sets: list[str], leaders: bool, ruleset: str, bots: dict[int, str],
               seed: int | None = None, principals: tuple[str, ...] = (),
               house_cards: str | None = None) -> tuple[GameSession, dict[int, str]]:
        """Create and store a game; returns the session and the token of each human seat.

        ``principals``: whom its searching bots search for (see :mod:`.scheduler`): the creating
        client's address and person, as ``"addr:..."`` and ``"person:..."``.  ``house_cards``: the
        text of the host's card-values file, checked by :func:`house_cards.check` (which raises
        :class:`house_cards.HouseCardsError` with every problem)."""
        if seed is not None and not self.allow_seed:
            raise BadInput("choosing the seed is disabled on this server (start it with --allow-seed)")
        for s, spec in bots.items():
            if not 0 <= s < players:
                raise BadInput(f"bot seat {s} does not exist in a {players}-player game (seats 0 to {players - 1})")
            parse_bot_spec(spec, self.max_think)
            build_bot(spec, 0)          # validates the name and options now, not at its first move
        config = {"players": players, "sets": list(sets), "leaders": bool(leaders), "ruleset": ruleset,
                  "seed": security.new_seed() if seed is None else seed}
        if len(bots) < players:
            config["finish_turn"] = True    # people end their turn with Finish Turn (file 000)
        if house_cards is not None:
            config["house_cards"] = house_file.check(house_cards.encode("utf-8"), sets)["text"]
        game = start_game(config)
        tokens = {s: security.new_token() for s in range(players) if s not in bots}
        seats = [SeatInfo(s, security.token_digest(tokens[s]) if s in tokens else None, bots.get(s))
                 for s in range(players)]
        game_id = security.new_game_id()
        with self._lock:
            self._make_room()
        self.storage.create_game(game_id, config, [(x.seat, x.digest, x.bot) for x in seats], game.to_json(),
                                 _summary(game))
        session = GameSession(game_id, config, seats, game, self.storage, 0, [], self._after_change)
        if principals:
            session.creator_principals = tuple(principals)
        session.seen_at = self.clock()
        session.users = 1               # held until its first bot move (if any) is queued
        with self._lock:
            self._sessions[game_id] = session
        self.kick(session)
        self.release(session)
        return session, tokens

    @contextmanager
    def use(self, game_id: str, fresh: bool = False, attend: bool = True) -> Iterator[GameSession]:
        """The session of ``game_id``, held (never dropped from memory) until the block ends.

        ``fresh``: when other processes share the database, first catch up with their records
        (so a client never reads an older state than one it was already answered with).
        """
        session = self.acquire(game_id, attend)
        try:
            if fresh and self.coordinator.shared:
                session.refresh()
            yield session
        finally:
            self.release(session)

    def acquire(self, game_id: str, attend: bool = True) -> GameSession:
        """The session of ``game_id``, loaded if needed, counted as in use until :meth:`release`.

        ``attend``: a request or socket of somebody (False: this process's own work, such as taking
        over a game's bots, which attends nothing).  :class:`NotFound` if there is no such game;
        :class:`Unavailable` if the server holds ``max_live`` games in use and cannot load another.
        """
        if not isinstance(game_id, str) or not 0 < len(game_id) <= 64:
            raise NotFound(f"no game with id {str(game_id)[:64]!r}")
        while True:
            wake = False
            with self._lock:
                s = self._sessions.get(game_id)
                if s is not None:
                    s.users += 1
                    if attend:
                        s.seen_at = self.clock()
                    self._sessions.move_to_end(game_id)
                    wake = s.bot_parked and attend
                else:
                    pending = self._loading.get(game_id)
                    loader = pending is None
                    if loader:
                        self._make_room()
                        pending = self._loading[game_id] = _Loading()
            if s is not None:
                if attend and s.searching:
                    self.coordinator.seen(game_id)
                if wake:
                    self.kick(s)        # somebody is back: the parked bot plays on
                return s
            if not loader:
                pending.done.wait()     # another request is loading it: take the same session
                continue
            try:
                stored = self.storage.load(game_id)
                if stored is None:
                    raise NotFound(f"no game with id {game_id!r}")
                s = GameSession.restore(stored, self.storage, self._after_change)
            except BaseException:
                with self._lock:
                    del self._loading[game_id]
                pending.done.set()
                raise
            with self._lock:
                del self._loading[game_id]
                s.users = 1
                if attend:
                    s.seen_at = self.clock()
                self._sessions[game_id] = s
                self._evict_idle()
            pending.done.set()
            if attend and s.searching:
                self.coordinator.seen(game_id)
            self.kick(s)                # a bot may be to move (after a restart, or a takeover)
            return s

    def release(self, session: GameSession) -> None:
        """A user of ``session`` is done with it."""
        with self._lock:
            session.users -= 1
            self._evict_idle()

    def rematch(self, old: GameSession) -> GameSession:
        """The rematch of a finished game: the same seats, bots, sets and rules with a new seed.

        Each human seat gets a new token, derived from its token in this game
        (:mod:`.credentials`): its digest is ``pending`` until the seat's player first asks for it.
        The rematch's id is derived from the game's, so every player who asks gets the same new
        game, also after a restart.
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
                seats = [SeatInfo(s.seat, None if s.bot is not None else PENDING, s.bot) for s in old.seats]
                try:
                    self.storage.create_game(game_id, config, [(x.seat, x.digest, x.bot) for x in seats],
                                             game.to_json(), _summary(game))
                except Exception:
                    # Another server process started this rematch first: it is that game.
                    if self.storage.summary(game_id) is None:
                        raise
                    return self._rematch_started(old, self.get(game_id))
                session = GameSession(game_id, config, seats, game, self.storage, 0, [], self._after_change)
                if not old.creator_principals[0].startswith("game:"):
                    session.creator_principals = old.creator_principals    # searched for the same people
                session.actor_principal = old.actor_principal
                session.seen_at = self.clock()
                session.users = 1       # held until its first bot move (if any) is queued, as in create
                with self._lock:
                    self._sessions[game_id] = session
                self.kick(session)
                self.release(session)
        return self._rematch_started(old, session)

    @staticmethod
    def _rematch_started(old: GameSession, session: GameSession) -> GameSession:
        if old.rematch_id != session.id:
            old.rematch_id = session.id
            old.feed.forget_views()
            old._changed()          # open tables of the old game learn of it
        return session

    def rematch_token(self, old_id: str, rematch: GameSession, seat: int, old_token: str) -> str | None:
        """The token of ``seat`` in ``rematch`` for the holder of ``old_token`` (that seat's token in
        ``old_id``), derived and issued on first asking (:mod:`.credentials`); None if the rematch
        seat's token was replaced since (its player opened it with their key and replaced the key)."""
        from .credentials import derive_for_rematch

        with self.storage.engine.begin() as conn:
            token = derive_for_rematch(conn, old_id, rematch.id, seat, old_token)
        if token is not None:
            rematch.set_seat_digests({seat: security.token_digest(token)})
        return token

    def seat_digests_changed(self, game_id: str, digests: dict[int, str | None] | None = None) -> None:
        """Seat tokens of ``game_id`` changed (``digests``; None: read them from the database): a
        copy in memory takes them, and its sockets opened with a token that ended close."""
        with self._lock:
            s = self._sessions.get(game_id)
        if s is None:
            return
        s.set_seat_digests(digests if digests is not None else self.storage.seat_digests(game_id))

    def get(self, game_id: str) -> GameSession:
        """The session of ``game_id`` (loaded if needed), not held: for scripts and tests that run
        nothing else at the same time.  The server itself uses :meth:`use`."""
        session = self.acquire(game_id)
        self.release(session)
        return session

    def loaded(self) -> int:
        """How many sessions are in memory."""
        with self._lock:
            return len(self._sessions)

    def _make_room(self) -> None:
        # (lock held) Before a session is added: refuse rather than hold more than max_live.
        if len(self._sessions) + len(self._loading) >= self.max_live:
            self._evict_idle(self.max_live - 1 - len(self._loading))
            if len(self._sessions) + len(self._loading) >= self.max_live:
                raise Unavailable(f"this server has {self.max_live} games in play and cannot open another "
                                  f"right now; try again in a minute")

    def _evict_idle(self, bound: int | None = None) -> None:
        # (lock held) Drop least recently used sessions that nobody uses, down to the bound.
        bound = self.max_cached if bound is None else bound
        if len(self._sessions) <= bound:
            return
        for gid, s in list(self._sessions.items()):
            if len(self._sessions) <= bound:
                break
            if s.users == 0 and not s.bot_busy:
                del self._sessions[gid]
                self.coordinator.release(gid)

    # -- other processes ---------------------------------------------------------------
    def on_remote_change(self, game_id: str, seq: int) -> None:
        """(From the coordinator.)  Another process stored record ``seq`` of ``game_id``."""
        if not self._closed:
            try:
                self._sync.submit(self._follow, game_id, seq)
            except RuntimeError:        # shutting down
                pass

    def _follow(self, game_id: str, seq: int) -> None:
        with self._lock:
            s = self._sessions.get(game_id)
            if s is not None:
                s.users += 1
        if s is None:
            return
        try:
            if s.seq < seq:
                s.catch_up()
        except Exception:
            log.exception("game %s: could not catch up with record %d", game_id, seq)
        finally:
            self.release(s)

    def resync(self) -> None:
        """Catch every session in memory up with the database (after notifications may have been missed)."""
        with self._lock:
            ids = list(self._sessions)
        for gid in ids:
            self.on_remote_change(gid, 1 << 62)

    def adopt(self, game_id: str) -> None:
        """Load ``game_id`` (if needed) and let its bots play: this process now runs them."""
        try:
            with self.use(game_id, attend=False) as s:     # (taking over attends nothing)
                s.refresh()
                self.kick(s)
        except GameError as exc:
            log.warning("game %s: could not take over its bots (%s)", game_id, exc.message)

    # -- bots ----------------------------------------------------------------------------
    def resume_bots(self) -> int:
        """After a start: let the bots of every unfinished game waiting for one play on
        (those this process may run; see :mod:`mysticvale.server.cluster`)."""
        ids = self.storage.games_waiting_for_bots()
        for gid in ids:
            if self.coordinator.claim(gid):
                try:
                    self.get(gid)
                except Exception:
                    log.exception("game %s: could not be restored", gid)
        return len(ids)

    def _after_change(self, session: GameSession, local: bool) -> None:
        self.kick(session, claim=local)
        for listener in list(self.change_listeners):
            try:
                listener(session, local)
            except Exception:
                log.exception("game %s: a change listener failed", session.id)

    def attended(self, session: GameSession) -> bool:
        """Whether somebody attends the game: a bot-only game always counts as attended (its bots
        are bounded apart); else a request or socket uses it now (besides its own bot move) or used
        it within :attr:`absent_after` seconds, in this process or (several processes on
        PostgreSQL) in another one (:mod:`.presence`)."""
        if session.bot_only:
            return True
        return self._attended_here(session) or self.coordinator.attended_elsewhere(session.id)

    def _attended_here(self, session: GameSession) -> bool:
        in_use = session.users - (1 if session.bot_busy else 0)
        return in_use > 0 or self.clock() - session.seen_at < self.absent_after

    def attended_here(self) -> set[str]:
        """The games with a searching bot that somebody attends in this process (for the others)."""
        with self._lock:
            return {gid for gid, s in self._sessions.items()
                    if s.searching and not s.bot_only and self._attended_here(s)}

    def wake(self, game_id: str) -> None:
        """Somebody attends ``game_id`` in another process now: its parked bot (if any) plays on."""
        def work() -> None:
            with self._lock:
                s = self._sessions.get(game_id)
                if s is None or not s.bot_parked:
                    return
                s.users += 1
            try:
                self.kick(s)
            finally:
                self.release(s)

        if not self._closed:
            try:
                self._sync.submit(work)
            except RuntimeError:        # shutting down
                pass

    def kick(self, session: GameSession, claim: bool = True) -> None:
        """Queue the session's next bot move if a bot is to act, none is queued, and this process
        runs the game's bots (``claim``: take them on if no process does).  A searching bot of a
        game nobody attends is parked instead, until a request or socket uses the game again."""
        if self._closed or session.bot_busy:
            return
        spec = session.bot_spec_to_move()
        if spec is None:
            return
        if not (self.coordinator.claim(session.id) if claim else self.coordinator.owns(session.id)):
            return                      # another process runs this game's bots
        search = is_search_bot(spec)
        with self._lock:
            if self._closed or session.bot_busy:
                return
            if search and not self.attended(session):
                if not session.bot_parked:
                    session.bot_parked = True
                    self.scheduler.note_parked(session.id, session.principals)
                return
            session.bot_parked = False
            # (The caller holds the session, so it is in memory.)  The queued move holds it too.
            session.bot_busy = True
            session.users += 1
        try:
            self.scheduler.submit(session.id, lambda think: self._bot_move(session, think),
                                  search=search, ordinary=not session.bot_only, principals=session.principals,
                                  present=lambda: self.attended(session), park=lambda: self._park(session))
        except RuntimeError:            # the scheduler is shut down
            with self._lock:
                session.bot_busy = False
            self.release(session)

    def _park(self, session: GameSession) -> None:
        """(On a scheduler worker.)  The queued move of a game nobody attends was dropped: its bot
        waits until somebody uses the game (:meth:`acquire` kicks it again)."""
        with self._lock:
            session.bot_busy = False
            session.bot_parked = True
            # (the dropped move still holds the session: it is not one of the people)
            back = (session.users > 1 or self.clock() - session.seen_at < self.absent_after
                    or self.coordinator.attended_elsewhere(session.id))
        try:
            if back:                    # somebody came back just now: no need to wait for the next
                self.kick(session)
        finally:
            self.release(session)       # the dropped move's hold

    def _bot_move(self, session: GameSession, think) -> None:
        """(On a scheduler worker.)  One bot move, then the session queues again behind other games."""
        try:
            for attempt in range(1, 4):
                if self._closed:
                    return
                try:
                    if think is not None:
                        session.play_bot(lambda *job: think(*job, self.max_think, self.bot_engine), self.max_think)
                    else:
                        session.play_bot(None, self.max_think)
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
            try:
                if not self._closed and session.bot_error is None:
                    self.kick(session)   # the next bot move, if a bot is still to act
            finally:
                self.release(session)    # the move's hold (the next move, if queued, holds its own)

    def close(self) -> None:
        """Stop bot workers (moves in flight are either committed or dropped, never half-stored)."""
        self._closed = True
        self.coordinator.close()
        self.scheduler.close()
        self._sync.shutdown(wait=True, cancel_futures=True)


# -- helpers -------------------------------------------------------------------------
def _rebuild(stored: StoredGame) -> tuple[Game, list[_Entry]]:
    """The game and its undo stack from the latest snapshot plus the records after it (or a full replay)."""
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
                    game = _replay(stored.config, game.history[: r.target])
            if game.history != actions:
                raise SaveError("replayed history differs from the record log")
        except Exception as exc:     # a snapshot is only a shortcut: the record log decides
            log.warning("game %s: snapshot unusable (%s); replaying from the start", stored.id, exc)
            game = None
    if game is None:
        game = _replay(stored.config, actions)
    return game, stack


def _replay(config: dict[str, Any], actions: list[str]) -> Game:
    g = start_game(config)
    for a in actions:
        g.apply_action(a)
    return g


def _summary(g: Game) -> Summary:
    # Read from the state (as observe() does), not through a whole observation per action.
    return Summary(g.current_player, g.phase, g.state.round, g.is_over(), list(g.winners()))


def _event_count(g: Game) -> int:
    """Number of events so far (as far as any viewer can see one)."""
    last = -1
    for v in [None, *range(g.players)]:
        entries = g.log(v, max(last, 0))
        if entries:
            last = max(last, entries[-1]["index"])
    return last + 1


def _hidden_fingerprint(g: Game) -> tuple:
    """Everything whose change means hidden information came out (or randomness was used): the
    size of every face-down pile (a card drawn, dealt or searched), what each player has seen of
    their deck's top, the cards a decision shows only its player, and the random streams.  Read
    from the state directly (the server may read all of it): an action pays for no observation."""
    st = g.state
    pending = st.pending[-1] if st.pending else None
    rng = getattr(st, "rng", None)
    return (
        tuple(len(pl.deck) for pl in st.players),
        tuple(sorted((k, len(d)) for k, d in st.adv_decks.items())),
        tuple(sorted((k, len(d)) for k, d in st.vale_decks.items())),
        tuple(tuple(pl.known_top) for pl in st.players),
        (pending.player, tuple(pending.private)) if pending is not None and pending.private else None,
        tuple(sorted(rng.states.items())) if rng is not None else None,
    )