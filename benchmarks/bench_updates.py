"""Bytes the server sends to browser clients per action and per game: protocol 1 (whole states)
against protocol 2 (deltas of every version; server/updates.py).

A seeded game between two people, each with one open table (a WebSocket) who play by POSTing
their actions (the browser client's way), driven by greedy bots choosing for them, through the
real server sessions and storage (SQLite in a temporary folder).  For every version it counts
what each table receives:

* protocol 1 (the format before protocol 2): the WebSocket pushes the seat's whole state
  (``{"type": "state", ...GET /state}``) after every change, and the action's POST answers
  with the whole state again;
* protocol 2: the WebSocket pushes the version's delta, and the POST answers with the
  updates after the client's version (the same delta text), once the first full state
  and the card catalogue (fetched once per set combination) are there.

Sizes are given raw, and compressed as they travel: HTTP answers with gzip (protocol 1 had no
compression; protocol 2 has Starlette's GZipMiddleware at level 6 for answers of 1 kB and
more), WebSocket messages with permessage-deflate as uvicorn + websockets negotiate it with
Chromium (deflate with context takeover, 12 window bits as Chromium offers, one compressor per
socket).

    .venv/bin/python benchmarks/bench_updates.py --games 3
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from mysticvale.bots import SeatView, make_bot  # noqa: E402
from mysticvale.server.card_catalogue import catalogue_text  # noqa: E402
from mysticvale.server.sessions import SessionManager  # noqa: E402
from mysticvale.server.storage import Storage, sqlite_url  # noqa: E402
from mysticvale.server.updates import messages_json  # noqa: E402


def compact(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Deflate:
    """permessage-deflate of one socket (context takeover): bytes on the wire per message."""

    def __init__(self) -> None:
        self.z = zlib.compressobj(wbits=-12)

    def __call__(self, text: str) -> int:
        data = self.z.compress(text.encode()) + self.z.flush(zlib.Z_SYNC_FLUSH)
        return len(data) - 4        # the trailing 00 00 ff ff is not sent (RFC 7692)


def http_gzip(text: str, enabled: bool) -> int:
    raw = text.encode()
    if not enabled or len(raw) < 1000:
        return len(raw)
    return len(gzip.compress(raw, compresslevel=6))


class Tally:
    def __init__(self) -> None:
        self.raw = self.wire = 0

    def add(self, raw: int, wire: int) -> None:
        self.raw += raw
        self.wire += wire


def play(seed: int, sets: tuple[str, ...], folder: Path) -> dict:
    storage = Storage(sqlite_url(folder))
    manager = SessionManager(storage, allow_seed=True, bot_workers=1)
    try:
        session, tokens = manager.create(2, list(sets), False, "yucata", {}, seed)
        bots = [make_bot("greedy", seed=seed * 10 + s) for s in range(2)]
        old, new = Tally(), Tally()
        old_ws = [Deflate(), Deflate()]
        new_ws = [Deflate(), Deflate()]
        # First load. Protocol 1: GET /state and the socket's first state. Protocol 2: the socket's
        # full state and the catalogue (once; the browser caches it).
        for seat in range(2):
            body = compact(session.state_for(seat))
            old.add(len(body), len(body))
            first = compact({"type": "state", **session.state_for(seat)})
            old.add(len(first), old_ws[seat](first))
            _seq, [full] = session.feed.since(session, seat, None)
            new.add(len(full), new_ws[seat](full))
        cat, _v = catalogue_text(tuple(session.game.state.cat.sets))
        new.add(len(cat), http_gzip(cat, True))
        first_load = (old.raw, old.wire, new.raw, new.wire)
        held = [session.seq, session.seq]
        actions = 0
        started = time.perf_counter()
        while not session.game.is_over():
            seat = session.game.current_player
            action = str(bots[seat].act(SeatView(session.game.clone(), seat)))
            before_seq = held[seat]
            session.act(seat, action, session.seq)
            actions += 1
            # protocol 1: the POST answer, then each socket's push of the whole state
            answer = compact(session.state_for(seat))
            old.add(len(answer), http_gzip(answer, False))
            for viewer in range(2):
                push = compact({"type": "state", **session.state_for(viewer)})
                old.add(len(push), old_ws[viewer](push))
            # protocol 2: the POST answer (updates after the client's version), each socket's delta
            _seq, texts = session.feed.since(session, seat, before_seq)
            answer = messages_json(texts)
            new.add(len(answer), http_gzip(answer, True))
            for viewer in range(2):
                held_now, texts = session.feed.since(session, viewer, held[viewer] if viewer != seat else before_seq)
                for text in texts:
                    new.add(len(text), new_ws[viewer](text))
                held[viewer] = held_now
        elapsed = time.perf_counter() - started
        return {"actions": actions, "old_raw": old.raw, "old_wire": old.wire, "new_raw": new.raw,
                "new_wire": new.wire, "first_load": first_load, "seconds": elapsed}
    finally:
        manager.close()
        storage.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--sets", default="base,vale_of_magic,twilight_garden")
    args = ap.parse_args()
    sets = tuple(args.sets.split(","))
    rows = []
    for i in range(args.games):
        with tempfile.TemporaryDirectory() as tmp:
            rows.append(play(100 + i, sets, Path(tmp)))
    print(f"{args.games} two-player games ({'+'.join(sets)}), greedy choices, two tables (one per seat)")
    acts = statistics.mean(r["actions"] for r in rows)
    print(f"actions per game: {acts:.0f}")

    def line(label, key):
        per_game = statistics.mean(r[key] for r in rows)
        per_action = statistics.mean(r[key] / r["actions"] for r in rows)
        print(f"  {label:<44} {per_game / 1024:9.1f} kB/game  {per_action:9.0f} B/action")
        return per_game

    print("protocol 1 (whole states; before):")
    o_raw = line("raw JSON", "old_raw")
    o_wire = line("on the wire (ws deflate; HTTP uncompressed)", "old_wire")
    print("protocol 2 (deltas; after):")
    n_raw = line("raw JSON", "new_raw")
    n_wire = line("on the wire (ws deflate; HTTP gzip)", "new_wire")
    fl = rows[0]["first_load"]
    print(f"first load of both tables (incl. catalogue in protocol 2): protocol 1 {fl[0] / 1024:.1f} kB raw, "
          f"{fl[1] / 1024:.1f} kB wire; protocol 2 {fl[2] / 1024:.1f} kB raw, {fl[3] / 1024:.1f} kB wire")
    print(f"ratio protocol 1 / protocol 2: raw {o_raw / n_raw:.1f}x, on the wire {o_wire / n_wire:.1f}x")
    print(f"server time per action incl. both protocols' serialising and storage: "
          f"{1000 * statistics.mean(r['seconds'] / r['actions'] for r in rows):.2f} ms")


if __name__ == "__main__":
    main()
