"""Kill the game server again and again while bots play; check that no action was lost or doubled.

    .venv/bin/python scripts/server_chaos.py [--games 4] [--kills 20] [--database URL]

Starts ``mysticvale serve`` on a free port with a temporary SQLite file (or ``--database``),
creates bot-only games with fixed seeds, SIGKILLs the server at random moments (seeded), restarts
it each time, waits until every game is over, and compares each game with the same game played
without interruption (engine + bots, same seeds).  Exits non-zero on any difference.
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

import mysticvale as mv
from mysticvale.bots import SeatView, make_bot
from mysticvale.engine.rng import Rng
from mysticvale.server import Storage, bot_seed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(port: int, data: Path, database: str | None) -> subprocess.Popen:
    cmd = [sys.executable, "-c", "from mysticvale.cli.main import app; app()", "serve", "--port", str(port),
           "--data-dir", str(data), "--allow-seed", "--games-per-minute", "1000", "--bot-only-per-minute", "1000",
           "--max-bot-only-games", "1000"] + (["--database", database] if database else [])
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def reference(seed: int, players: int) -> mv.Game:
    g = mv.new_game(players=players, seed=seed)
    while not g.is_over():
        seat = g.current_player
        g.apply_action(make_bot("random", seed=bot_seed(seed, seat, len(g.history))).act(SeatView(g, seat)))
    return g


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--database", default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = Rng(args.seed)
    data = Path(tempfile.mkdtemp(prefix="mv-chaos-"))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    proc = start(port, data, args.database)
    games = []
    for i in range(args.games):
        players = 2 + i % 3
        seed = 1000 + i
        body = {"players": players, "seed": seed, "bots": {str(s): "random" for s in range(players)}}
        games.append((httpx.post(f"{base}/api/games", json=body, timeout=10).json()["id"], seed, players))
    t0 = time.monotonic()
    for k in range(args.kills):
        time.sleep(0.05 + rng.below("delay", 500) / 1000)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc = start(port, data, args.database)
        seqs = [httpx.get(f"{base}/api/games/{g}/state", timeout=10).json()["seq"] for g, _, _ in games]
        print(f"kill {k + 1}: seqs {seqs}", flush=True)
    while not all(httpx.get(f"{base}/api/games/{g}/summary", timeout=10).json()["over"] for g, _, _ in games):
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    store = Storage(args.database or f"sqlite:///{data / 'mysticvale.db'}")
    bad = 0
    proc = start(port, data, args.database)
    for gid, seed, players in games:
        ref = reference(seed, players)
        st = httpx.get(f"{base}/api/games/{gid}/state", timeout=10).json()
        same = (st["observation"] == ref.observe(None) and st["log"] == ref.log(None)
                and st["seq"] == len(ref.history) == store.record_count(gid))
        bad += not same
        print(f"game {gid} ({players} players, {len(ref.history)} actions): {'same' if same else 'DIFFERENT'}")
    proc.send_signal(signal.SIGKILL)
    print(f"{args.kills} kills in {time.monotonic() - t0:.1f} s; {bad} game(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
