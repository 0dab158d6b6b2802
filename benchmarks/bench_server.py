"""Server capacity: action round trips under N active games, one action per second each.

    .venv/bin/python benchmarks/bench_server.py                                # all of the below
    .venv/bin/python benchmarks/bench_server.py --setup sqlite --games 10 50 200 --seconds 30
    .venv/bin/python benchmarks/bench_server.py --setup postgresql --games 200
    .venv/bin/python benchmarks/bench_server.py --setup sqlite --games 200 --py-spy profile.svg

What runs: the real server (``mysticvale serve``) as separate processes, one on a temporary SQLite
file (``sqlite``), or two on one throwaway PostgreSQL cluster (``postgresql``: ``initdb`` and
``pg_ctl`` from Debian's ``postgresql`` package in a temporary folder, ``fsync`` on), and a load
generator in ``--clients`` separate processes.  Each active game has two human seats, each with
its own WebSocket (the token offered as a subprotocol); once a second (at a random phase per game)
the seat whose decision it is sends one action over HTTP (``X-Seat-Token``, ``seq``), chosen at
random from its legal actions, and the generator measures the round trip until the answer.  With
two server processes every request and every socket goes to one of them at random, so pushes
travel between them through PostgreSQL.  A finished game is replaced by a new one.

Printed per setup and number of games, after ``--warmup`` seconds: actions answered per second,
the round trip's p50 / p95 / p99 / max (ms), the delay from sending an action to the other seat's
socket receiving its state (push p50 / p99), bytes per action (the HTTP answer plus every
WebSocket message sent to the two seats, divided by the actions), refused or failed requests,
and the resident memory of the server processes at the end.  ``--json FILE`` writes the rows.  ``--py-spy FILE`` profiles
the server with py-spy (the ``dev`` extra installs it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The seq near the start of a state (pushes and answers put it among their first keys).
SEQ = re.compile(r'"seq":\s*(\d+)')
SEQ_BYTES = re.compile(rb'"seq":\s*(\d+)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# -- servers ----------------------------------------------------------------------------
class Postgres:
    """A throwaway PostgreSQL cluster (as the server tests make one), fsync on."""

    def __init__(self) -> None:
        import glob

        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise SystemExit("PostgreSQL binaries not found (Debian's postgresql package)")
        self.bin = Path(found[-1]).parent
        self.root = Path(tempfile.mkdtemp(prefix="mv-bench-pg-"))
        self.port = free_port()

    def _run(self, cmd: list[str]) -> None:
        if os.geteuid() == 0:
            cmd = ["runuser", "-u", "nobody", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        data, sock = self.root / "data", self.root / "sock"
        sock.mkdir()
        if os.geteuid() == 0:
            shutil.chown(self.root, "nobody")
            shutil.chown(sock, "nobody")
        self._run([str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8"])
        self._run([str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(self.root / "pg.log"), "-w", "-o",
                   f"-p {self.port} -k {sock} -c listen_addresses=127.0.0.1 -c max_connections=300", "start"])
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        try:
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.root / "data"), "-m", "fast", "stop"])
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def start_server(data_dir: Path, database: str | None, extra: list[str], legacy: bool = False
                 ) -> tuple[subprocess.Popen, str]:
    import httpx

    port = free_port()
    cmd = [sys.executable, "-c", "from mysticvale.cli.main import app; app()", "serve", "--port", str(port),
           "--data-dir", str(data_dir), *([] if legacy else ["--games-per-minute", "100000"]), *extra]
    if database:
        cmd += ["--database", database]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(data_dir / f"server-{port}.log", "wb"))
    base = f"http://127.0.0.1:{port}"
    for _ in range(600):
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            raise SystemExit(f"the server exited: {(data_dir / f'server-{port}.log').read_text()[-2000:]}")
        time.sleep(0.05)
    raise SystemExit("the server did not start")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (seconds)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (MB)."""
    total = 0
    pids = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        pids.append(int(entry))
            except OSError:
                pass
    for p in pids:
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


# -- load generator (runs in its own processes) --------------------------------------------
async def _game(bases: list[str], rng: random.Random, stats: dict, until: float, measure_from: float,
                client, legacy: bool) -> None:
    import websockets

    while time.monotonic() < until:
        try:
            r = await client.post(rng.choice(bases) + "/api/games", json={"players": 2})
        except Exception as exc:
            stats["errors"][f"create: {type(exc).__name__}"] = stats["errors"].get(f"create: {type(exc).__name__}", 0) + 1
            stats["failed"] += 1
            await asyncio.sleep(1)
            continue
        if r.status_code != 201:
            stats["errors"][f"create: {r.status_code}"] = stats["errors"].get(f"create: {r.status_code}", 0) + 1
            stats["failed"] += 1
            await asyncio.sleep(1)
            continue
        g = r.json()
        gid, tokens = g["id"], [s["token"] for s in g["seats"]]
        # The latest state of each seat as (seq, raw text or parsed dict): a state is parsed only
        # when an action is chosen from it, so the generator does not spend its time in json.loads.
        latest: dict[int, tuple[int, object]] = {}
        sent_at: dict[int, float] = {}
        sockets = []

        def state_of(seat: int) -> dict:
            seq, body = latest[seat]
            if not isinstance(body, dict):
                body = json.loads(body)
                latest[seat] = (seq, body)
            return body

        async def read(seat: int, ws) -> None:
            try:
                while True:
                    raw = await ws.recv(decode=False)       # bytes: no UTF-8 decoding of every push
                    now = time.monotonic()
                    if now >= measure_from:
                        stats["bytes"] += len(raw)
                    head = SEQ_BYTES.search(raw, 0, 300)
                    if head is None or b'"type":"state"' not in raw[:40]:
                        continue
                    seq = int(head.group(1))
                    if seat not in latest or seq >= latest[seat][0]:
                        latest[seat] = (seq, raw)
                    if seq in sent_at and now >= measure_from:
                        stats["push"].append(now - sent_at[seq])
            except websockets.ConnectionClosed:
                pass

        for seat in (0, 1):
            url = rng.choice(bases).replace("http://", "ws://") + f"/api/games/{gid}/ws"
            if legacy:
                ws = await websockets.connect(f"{url}?token={tokens[seat]}", max_size=None, compression=None)
            else:
                ws = await websockets.connect(url, subprotocols=["mysticvale", f"mysticvale.token.{tokens[seat]}"],
                                              max_size=None, compression=None)
            sockets.append((ws, asyncio.ensure_future(read(seat, ws))))
        await asyncio.sleep(rng.random())           # a random phase per game
        next_tick = time.monotonic()
        over = False
        while not over and time.monotonic() < until:
            next_tick += 1.0
            if latest:
                top_seat = max(latest, key=lambda k: latest[k][0])
                top = state_of(top_seat)
                seat = top["observation"]["current_player"]
                if top["observation"]["over"]:
                    over = True
                elif seat in latest and latest[seat][0] == top["seq"] and state_of(seat)["legal_actions"]:
                    mine = state_of(seat)
                    seq = mine["seq"]
                    action = rng.choice(mine["legal_actions"])
                    t0 = time.monotonic()
                    sent_at[seq + 1] = t0
                    try:
                        if legacy:
                            r = await client.post(rng.choice(bases) + f"/api/games/{gid}/actions",
                                                  json={"token": tokens[seat], "action": action, "seq": seq})
                        else:
                            r = await client.post(rng.choice(bases) + f"/api/games/{gid}/actions",
                                                  json={"action": action, "seq": seq},
                                                  headers={"X-Seat-Token": tokens[seat]})
                    except Exception as exc:
                        key = f"action: {type(exc).__name__}"
                        stats["errors"][key] = stats["errors"].get(key, 0) + 1
                        stats["failed"] += 1
                        r = None
                    t1 = time.monotonic()
                    if r is not None:
                        if r.status_code == 200:
                            got = int(SEQ.search(r.text, 0, 300).group(1))
                            if got >= latest[seat][0]:
                                latest[seat] = (got, r.text)
                            if t0 >= measure_from:
                                stats["rtt"].append(t1 - t0)
                                stats["bytes"] += len(r.content)
                                stats["actions"] += 1
                        elif t0 >= measure_from:
                            stats["refused"] += 1
                elif time.monotonic() >= measure_from:
                    stats["skipped"] += 1
            await asyncio.sleep(max(0.0, next_tick - time.monotonic()))
        for ws, task in sockets:
            await ws.close()
            task.cancel()


def _client_process(bases: list[str], games: int, seed: int, warmup: float, seconds: float, legacy: bool,
                    out) -> None:
    import httpx

    async def main() -> dict:
        stats = {"rtt": [], "push": [], "bytes": 0, "actions": 0, "refused": 0, "failed": 0, "skipped": 0,
                 "errors": {}, "lag": []}
        start = time.monotonic()
        measure_from, until = start + warmup, start + warmup + seconds
        limits = httpx.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            rng = random.Random(seed)

            async def lag() -> None:
                # How late the generator's own event loop wakes up: if this grows, the generator,
                # not the server, is what the round trips measure.
                while time.monotonic() < until:
                    t = time.monotonic()
                    await asyncio.sleep(0.01)
                    if t >= measure_from:
                        stats["lag"].append(time.monotonic() - t - 0.01)

            tasks = [asyncio.ensure_future(lag())]
            for i in range(games):
                tasks.append(asyncio.ensure_future(_game(bases, random.Random(rng.getrandbits(32)), stats, until,
                                                         measure_from, client, legacy)))
                await asyncio.sleep(min(1.0, warmup / 2) / games)   # spread the creations
            await asyncio.gather(*tasks, return_exceptions=True)
        return stats

    import resource

    stats = asyncio.run(main())
    usage = resource.getrusage(resource.RUSAGE_SELF)
    stats["cpu"] = usage.ru_utime + usage.ru_stime
    out.put(stats)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def run_load(bases: list[str], pids: list[int], games: int, clients: int, warmup: float, seconds: float,
             seed: int, legacy: bool = False) -> dict:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    share = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
    procs = [ctx.Process(target=_client_process, args=(bases, n, seed + i, warmup, seconds, legacy, out))
             for i, n in enumerate(share) if n]
    for p in procs:
        p.start()
    time.sleep(warmup)
    cpu0 = [cpu_seconds(pid) for pid in pids]
    time.sleep(seconds)
    cpu = [round((cpu_seconds(pid) - c) / seconds, 2) for pid, c in zip(pids, cpu0)]
    parts = [out.get(timeout=warmup + seconds + 300) for _ in procs]
    memory = sum(rss_mb(pid) for pid in pids)
    for p in procs:
        p.join()
    rtt = [x for s in parts for x in s["rtt"]]
    push = [x for s in parts for x in s["push"]]
    actions = sum(s["actions"] for s in parts)
    return {
        "games": games, "actions_per_s": round(actions / seconds, 1),
        "rtt_p50_ms": round(1000 * percentile(rtt, 0.50), 1), "rtt_p95_ms": round(1000 * percentile(rtt, 0.95), 1),
        "rtt_p99_ms": round(1000 * percentile(rtt, 0.99), 1), "rtt_max_ms": round(1000 * max(rtt, default=0), 1),
        "push_p50_ms": round(1000 * percentile(push, 0.50), 1), "push_p99_ms": round(1000 * percentile(push, 0.99), 1),
        "bytes_per_action": int(sum(s["bytes"] for s in parts) / max(actions, 1)),
        "refused": sum(s["refused"] for s in parts), "failed": sum(s["failed"] for s in parts),
        "skipped_ticks": sum(s["skipped"] for s in parts), "server_rss_mb": round(memory, 1),
        "server_cpu": cpu, "load_average": round(os.getloadavg()[0], 1),
        "client_cpu": round(sum(s["cpu"] for s in parts) / (warmup + seconds), 2),
        "client_loop_lag_p50_p99_ms": [round(1000 * percentile([x for s in parts for x in s["lag"]], q), 1)
                                       for q in (0.5, 0.99)],
        "server_cpu_ms_per_action": round(1000 * sum(cpu) / max(actions / seconds, 1e-9), 2),
        "errors": {k: sum(s["errors"].get(k, 0) for s in parts) for k in {k for s in parts for k in s["errors"]}},
    }


def run_setup(setup: str, game_counts: list[int], args) -> list[dict]:
    rows = []
    for games in game_counts:
        data = Path(tempfile.mkdtemp(prefix="mv-bench-"))
        pg = None
        servers: list[subprocess.Popen] = []
        try:
            if setup == "sqlite":
                proc, base = start_server(data, None, args.server_args, args.legacy_api)
                servers, bases = [proc], [base]
            else:
                pg = Postgres()
                url = pg.start()
                servers, bases = [], []
                for i in range(2):
                    (data / str(i)).mkdir()
                    proc, base = start_server(data / str(i), url, args.server_args, args.legacy_api)
                    servers.append(proc)
                    bases.append(base)
            spy = None
            if args.py_spy and games == max(game_counts):
                spy = subprocess.Popen([str(Path(sys.executable).with_name("py-spy")) if Path(sys.executable).with_name("py-spy").exists() else "py-spy", "record", "-o", args.py_spy, "-d", str(int(args.warmup + args.seconds)),
                                        "-p", str(servers[0].pid), "-r", "50", "--subprocesses", "--idle",
                                        *(["--format", "raw"] if args.py_spy.endswith(".txt") else []),
                                        *(["--gil"] if args.py_spy_gil else [])], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            row = run_load(bases, [p.pid for p in servers], games, args.clients, args.warmup, args.seconds, args.seed,
                           args.legacy_api)
            if spy is not None:
                spy.wait(timeout=120)
            row = {"setup": ("1 process, SQLite" if setup == "sqlite" else "2 processes, PostgreSQL")
                   + (f", {args.label}" if args.label else ""), **row}
            rows.append(row)
            print(json.dumps(row), flush=True)
        finally:
            for p in servers:
                p.send_signal(signal.SIGTERM)
            for p in servers:
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()
            if pg is not None:
                pg.stop()
            shutil.rmtree(data, ignore_errors=True)
    return rows


def table(rows: list[dict]) -> str:
    head = ("| setup | games | actions/s | round trip p50 / p95 / p99 / max (ms) | push p50 / p99 (ms) | "
            "bytes per action | refused / failed | server memory (MB) | server CPU (cores) | server CPU per action (ms) | "
            "load average |\n|---|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]
    for r in rows:
        lines.append(f"| {r['setup']} | {r['games']} | {r['actions_per_s']} | {r['rtt_p50_ms']} / {r['rtt_p95_ms']} / "
                     f"{r['rtt_p99_ms']} / {r['rtt_max_ms']} | {r['push_p50_ms']} / {r['push_p99_ms']} | "
                     f"{r['bytes_per_action']:,} | {r['refused']} / {r['failed']} | {r['server_rss_mb']} | "
                     f"{' + '.join(str(c) for c in r['server_cpu'])} | {r['server_cpu_ms_per_action']} | "
                     f"{r['load_average']} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setup", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--games", type=int, nargs="+", default=[10, 50, 200])
    ap.add_argument("--seconds", type=float, default=30.0, help="measured time per run")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds before measuring (games are created)")
    ap.add_argument("--clients", type=int, default=2, help="load generator processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--py-spy", default=None, help="record a py-spy profile of the (first) server at the largest "
                                                   "load into this file (.svg: flame graph; .txt: collapsed stacks)")
    ap.add_argument("--py-spy-gil", action="store_true", help="profile only threads holding the GIL")
    ap.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                    help="further arguments for mysticvale serve")
    ap.add_argument("--json", default=None)
    ap.add_argument("--legacy-api", action="store_true",
                    help="send tokens in the body and the WebSocket URL, as servers before the X-Seat-Token header "
                         "took them (to measure an older server: PYTHONPATH=its/src)")
    ap.add_argument("--label", default="", help="added to the setup's name in the table")
    args = ap.parse_args()
    setups = ["sqlite", "postgresql"] if args.setup == "both" else [args.setup]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}, "
          f"{os.cpu_count()} CPUs, {args.clients} load processes", flush=True)
    rows = []
    for setup in setups:
        rows += run_setup(setup, args.games, args)
    print(table(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
