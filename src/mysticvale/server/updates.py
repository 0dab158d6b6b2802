"""What the server sends to clients: every version of a seat's view, as a full state or a compact delta.

Protocol 2 (``docs/protocol.md``; the browser client speaks it).  A *version* is a game's ``seq``:
one per record (an action or an undo).  For each version a seat's *view* is

``{"game_id", "seat", "observation", "legal_actions", "can_undo", "players", "catalogue",
"options", "rematch"}``

and its log is a list of entries ``{"i": event index, "k": kind, "p": player or null,
"t": text for people, "a": {args}}`` (``a`` only when the event has arguments).  A client
receives, as JSON text:

``{"type": "full", "v": 2, "seq": n, "view": {...}, "log": [entry, ...]}``
    the whole view and log at version ``n``: the first message, and whenever the client is
    further behind than the versions kept (:data:`KEEP`);
``{"type": "delta", "v": 2, "seq": n, "from": n - 1, "by": seat or null, "undo": bool,
"ops": [op, ...], "log": [first, [entry, ...]]}``
    what changed from version ``n - 1`` to ``n``: ``by`` is the seat whose record it was;
    ``ops`` change the view (below); ``log`` (absent if the log did not change) says: drop the
    entries with ``i >= first``, then append these.

An *op* is a JSON array whose first element is a path (a list of keys and list indices):
``[path, value]`` sets the value at ``path`` (adding a key if needed), ``[path]`` deletes the
key at ``path``, ``[path, start, count, items]`` replaces ``count`` items of the list at
``path`` from index ``start`` with ``items``.  Applying a version's ops in order to the
previous view gives exactly the next view (:func:`apply_ops` does, and the tests check it).

Every message is serialised once per version and viewer and shared by every socket and
request of that viewer (spectators are one viewer), not built per connection.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
from collections import OrderedDict
from typing import Any, Callable, Iterable

from ..engine.zones import card_name

#: Versions whose deltas are kept per viewer; a client further behind gets a full state (a few
#: bot turns; they are kept for every game in the server's cache, so not many more).
KEEP = 64
PROTOCOL = 2

_CARD_REF = re.compile(r"#\d+(?:\.\d+)* ")
_LABEL = re.compile(r"@((?:top|middle|bottom)(?:\+(?:top|middle|bottom))*)")
_SPOIL_DECAY = re.compile(r"spoils with (-?\d+) decay")


def dumps(value: Any) -> str:
    """Compact JSON (no spaces), as every message is sent."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# -- deltas ------------------------------------------------------------------------------
def diff(old: Any, new: Any) -> list[list]:
    """The ops that turn ``old`` into ``new`` (plain JSON data); [] when they are equal.

    Values are compared with Python's equality, in which 1 and true are equal: a view never
    turns a number into a boolean or back, so that costs nothing here."""
    out: list[list] = []
    _diff(old, new, [], out)
    return out


def _diff(old: Any, new: Any, path: list, out: list[list]) -> None:
    if old is new:
        return
    if type(old) is dict and type(new) is dict:
        for k, v in new.items():
            if k in old:
                _diff(old[k], v, path + [k], out)
            else:
                out.append([path + [k], v])
        for k in old:
            if k not in new:
                out.append([path + [k]])
        return
    if type(old) is list and type(new) is list:
        _diff_list(old, new, path, out)
        return
    if old != new or type(old) is not type(new):
        out.append([path, new])


def _diff_list(old: list, new: list, path: list, out: list[list]) -> None:
    n_old, n_new = len(old), len(new)
    a = 0
    limit = min(n_old, n_new)
    while a < limit and (old[a] is new[a] or old[a] == new[a]):
        a += 1
    s = 0
    while s < limit - a and (old[n_old - 1 - s] is new[n_new - 1 - s] or old[n_old - 1 - s] == new[n_new - 1 - s]):
        s += 1
    mid_old, mid_new = n_old - a - s, n_new - a - s
    if mid_old == 0 and mid_new == 0:
        return
    if mid_old == mid_new:
        # Same length: change each item in place (a card that got an advancement is one small op).
        for i in range(a, a + mid_old):
            _diff(old[i], new[i], path + [i], out)
        return
    out.append([path, a, mid_old, new[a:a + mid_new]])


def apply_ops(doc: Any, ops: Iterable[list]) -> Any:
    """Apply ``ops`` (see the module docstring) to ``doc`` in place; returns the document
    (a new one if an op replaced the root).  The reference for clients and tests."""
    for op in ops:
        path = op[0]
        if not path:
            if len(op) == 2:
                doc = op[1]
                continue
            target = doc
        else:
            target = doc
            for key in path[:-1]:
                target = target[key]
        if len(op) == 4:
            lst = target[path[-1]] if path else target
            start, count, items = op[1], op[2], op[3]
            lst[start:start + count] = items
        elif len(op) == 2:
            target[path[-1]] = op[1]
        else:
            del target[path[-1]]
    return doc


# -- the log as people read it -------------------------------------------------------------
def clean_text(text: str) -> str:
    """An engine log text for people: no card ids (``#36 Stag`` -> ``Stag``) and advancements
    named with their slot (``Stag@middle`` -> ``Stag (middle)``)."""
    text = _CARD_REF.sub("", text)
    return _LABEL.sub(lambda m: " (" + m.group(1).replace("+", " + ") + ")", text)


def _label_args(label: str) -> dict[str, str]:
    name, _, slots = label.partition("@")
    return {"name": name, "slots": slots}


def log_entries(game, viewer: int | None, since: int = 0,
                started: Callable[[Any], float | None] | None = None) -> list[dict[str, Any]]:
    """The log from event ``since`` on as ``viewer`` may read it, in the client's format.

    ``started(actions)``: when the turn began that started after that many actions; each turn's
    entry then carries ``at`` (whole seconds since 1970), the time the log shows for the turn."""
    events = game.state.events
    out = []
    for e in game.log(viewer, since):
        event = events[e["index"]]
        entry: dict[str, Any] = {"i": e["index"], "k": e["kind"], "p": e["player"], "t": clean_text(e["text"])}
        args = _event_args(game, event, e, viewer)
        if args:
            entry["a"] = args
        if started is not None and e["kind"] == "turn":
            at = started((event.data or {}).get("action"))
            if at:
                entry["at"] = int(at)
        out.append(entry)
    return out


def _event_args(game, event, entry: dict, viewer: int | None) -> dict[str, Any]:
    """Arguments a client can put into its own words; only public data (or the viewer's own)."""
    if event.private_to is not None and event.private_to != viewer:
        return {}
    data = event.data or {}
    kind = entry["kind"]
    args: dict[str, Any] = {}
    if kind == "spoil":
        m = _SPOIL_DECAY.search(event.text)
        if m:
            args["decay"] = int(m.group(1))
    if kind in ("buy", "sleeve") or (kind == "ability" and "copy" in data):
        label = data.get("copy")
        if isinstance(label, str):
            args.update(_label_args(label))
    if "vale" in data and isinstance(data["vale"], str):
        args["vale"] = data["vale"]
    if "amount" in data and isinstance(data["amount"], int) and kind in ("vp", "curse"):
        args["amount"] = data["amount"]
    card = data.get("card")
    if kind == "reveal" and isinstance(card, int) and 0 <= card < len(game.state.cards):
        args["card"] = clean_text(card_name(game.state, card))
    return args


# -- views -----------------------------------------------------------------------------------
def view_of(session, seat: int | None) -> dict[str, Any]:
    """The versioned view of ``seat`` (None: spectator) at the session's current version.

    Call with the session's lock held."""
    g = session.game
    mine = seat is not None and g.current_player == seat
    config = session.config
    return {
        "game_id": session.id,
        "seat": seat,
        "observation": g.observe(seat),
        "legal_actions": [str(a) for a in g.legal_actions()] if mine else [],
        "can_undo": seat is not None and session._undo_refusal(seat) is None,
        "players": [{"seat": s.seat, "bot": s.bot} for s in session.seats],
        "catalogue": house_catalogue_url(session.id, g.state.cat) if g.state.cat.raw else catalogue_url(g.state.cat.sets),
        "options": {"players": config["players"], "sets": list(config["sets"]),
                    "leaders": bool(config.get("leaders")), "ruleset": config["ruleset"],
                    "finish_turn": bool(config.get("finish_turn")),
                    # issue 21: played with the host's card values (the sets their file replaced)
                    **({"house_cards": sorted(g.state.cat.raw)} if g.state.cat.raw else {})},
        "rematch": getattr(session, "rematch_id", None),
    }


def house_catalogue_url(game_id: str, cat) -> str:
    """The address of a game's own catalogue (house cards: ``GET /api/games/{id}/catalogue``)."""
    from .card_catalogue import house_catalogue_text
    return f"/api/games/{game_id}/catalogue?v={house_catalogue_text(cat)[1]}"


def catalogue_url(sets: Iterable[str]) -> str:
    from .card_catalogue import catalogue_version
    key = "+".join(sets)
    return f"/api/catalogue/{key}?v={catalogue_version(tuple(sets))}"


class _Viewer:
    """What the feed holds for one viewer: its view and log length at ``seq``."""

    __slots__ = ("seq", "view", "events")

    def __init__(self, seq: int, view: dict, events: int) -> None:
        self.seq, self.view, self.events = seq, view, events


class Feed:
    """The versions of one game session as messages: deltas per version and viewer, and the
    full state per viewer, each serialised once.

    A viewer is *tracked* from the first time it asks; from then on :meth:`record` (called
    by the session under its lock after every change) computes its delta for each version.
    """

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        self._viewers: dict[int | None, _Viewer] = {}
        #: seq -> {viewer: message text}; the newest ``keep`` versions
        self._deltas: OrderedDict[int, dict[int | None, str]] = OrderedDict()
        self._full: dict[int | None, tuple[int, str]] = {}
        self._lock = threading.RLock()

    # -- called by the session, under its lock -------------------------------------------
    def record(self, session, by: int | None, undo: bool) -> None:
        """Version ``session.seq`` exists now: make every tracked viewer's delta to it."""
        seq = session.seq
        g = session.game
        n_events = len(g.state.events)
        with self._lock:
            made: dict[int | None, str] = {}
            for viewer, held in list(self._viewers.items()):
                if held.seq != seq - 1:
                    del self._viewers[viewer]        # it missed a version: a full state next time
                    continue
                view = view_of(session, viewer)
                msg: dict[str, Any] = {"type": "delta", "v": PROTOCOL, "seq": seq, "from": seq - 1, "by": by,
                                       "undo": undo, "ops": diff(held.view, view)}
                first = min(held.events, n_events)
                tail = log_entries(g, viewer, first, session.turn_started_at)
                if tail or n_events < held.events:
                    msg["log"] = [first, tail]
                made[viewer] = dumps(msg)
                self._viewers[viewer] = _Viewer(seq, view, n_events)
            self._deltas[seq] = made
            while len(self._deltas) > self.keep:
                self._deltas.popitem(last=False)

    # -- reading ---------------------------------------------------------------------------
    def full(self, session, seat: int | None) -> tuple[int, str]:
        """(seq, text) of the full-state message of ``seat`` now; starts tracking the seat."""
        with session._lock, self._lock:
            seq = session.seq
            cached = self._full.get(seat)
            if cached is not None and cached[0] == seq:
                return cached
            held = self._viewers.get(seat)
            if held is None or held.seq != seq:
                held = _Viewer(seq, view_of(session, seat), len(session.game.state.events))
                self._viewers[seat] = held
            text = dumps({"type": "full", "v": PROTOCOL, "seq": seq, "view": held.view,
                          "log": log_entries(session.game, seat, 0, session.turn_started_at)})
            self._full[seat] = (seq, text)
            return seq, text

    def since(self, session, seat: int | None, seq: int | None) -> tuple[int, list[str]]:
        """(current seq, messages) that bring a client of ``seat`` at version ``seq`` to now:
        one delta per version, or one full state when the client is too far behind (or
        ``seq`` is None / unknown / ahead of the game)."""
        with session._lock, self._lock:
            cur = session.seq
            held = self._viewers.get(seat)
            if seq == cur:
                if held is None or held.seq != cur:     # up to date, but not tracked yet
                    self._viewers[seat] = _Viewer(cur, view_of(session, seat), len(session.game.state.events))
                return cur, []
            if seq is not None and 0 <= seq < cur and held is not None and held.seq == cur:
                texts: list[str] | None = []
                for s in range(seq + 1, cur + 1):
                    made = self._deltas.get(s)
                    if made is None or seat not in made:
                        texts = None
                        break
                    texts.append(made[seat])
                if texts is not None:
                    return cur, texts
            at, text = self.full(session, seat)
            return at, [text]

    def cached_since(self, seat: int | None, seq: int | None) -> tuple[int, list[str]] | None:
        """What :meth:`since` would answer, when it is serialised already, without waiting for any
        lock: (the viewer's newest version, its deltas after ``seq``).  None when the answer needs
        the session (a full state, a viewer not tracked, a version not kept) or the feed is busy
        recording a version: then ask :meth:`since` in a worker thread.

        For the sockets' pushers (:func:`updates_after`): when a version is recorded, every socket
        of a game wakes up at once, and 500 spectators handing the same cached text through 500
        worker threads cost far more than the text itself (every hand-over waits for the
        interpreter lock and the session lock).  A version that the session has counted but the
        feed not yet recorded is left out: its record notifies every socket again."""
        if seq is None or not self._lock.acquire(blocking=False):
            return None
        try:
            held = self._viewers.get(seat)
            if held is None or not 0 <= seq <= held.seq:
                return None
            texts = []
            for s in range(seq + 1, held.seq + 1):
                made = self._deltas.get(s)
                if made is None or seat not in made:
                    return None
                texts.append(made[seat])
            return held.seq, texts
        finally:
            self._lock.release()

    def forget_views(self) -> None:
        """Drop every tracked view (something outside the versions changed, e.g. a rematch):
        each viewer's next request starts again from a full state or its current version."""
        with self._lock:
            self._viewers.clear()
            self._full.clear()
            self._deltas.clear()


async def updates_after(session, seat: int | None, seq: int | None) -> tuple[int, list[str]]:
    """(version, messages) that bring a socket of ``seat`` at version ``seq`` to now: on the event
    loop when they are serialised already (:meth:`Feed.cached_since`), else from :meth:`Feed.since`
    in a worker thread (it may have to wait for the session's lock and build a full state).

    It first lets the event loop run once: the request whose action made the version finishes in
    the same turn of the loop as every socket of the game wakes up, and without that its answer
    would wait behind all of their sends."""
    await asyncio.sleep(0)
    got = session.feed.cached_since(seat, seq)
    if got is not None:
        return got
    from starlette.concurrency import run_in_threadpool
    return await run_in_threadpool(session.feed.since, session, seat, seq)


def messages_json(texts: list[str]) -> str:
    """``{"updates": [message, ...]}`` from already serialised messages (no re-encoding)."""
    return '{"updates":[' + ",".join(texts) + "]}"
