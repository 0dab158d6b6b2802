"""Server capacity: action round trips under N active games at one action per second each, and
the fan-out of one game to N spectators, as the browser client talks to the server.

    .venv/bin/python benchmarks/bench_server.py                                # 10, 50, 200 games, both setups
    .venv/bin/python benchmarks/bench_server.py --setup sqlite --games 10 50 200 --protocol 2 1
    .venv/bin/python benchmarks/bench_server.py --setup postgresql --games 10 50 200 --protocol 2 1
    .venv/bin/python benchmarks/bench_server.py --setup sqlite --spectators 500 --protocol 2 1 --seconds 60 --warmup 12
    .venv/bin/python benchmarks/bench_server.py --setup sqlite --games 200 --py-spy profile.svg --py-spy-gil

What runs: the real server (``mysticvale serve``) as separate processes, one on a temporary SQLite
file (``sqlite``), or two on one throwaway PostgreSQL cluster (``postgresql``: ``initdb`` and
``pg_ctl`` from Debian's ``postgresql`` package in a temporary folder, ``fsync`` on), and a load
generator in ``--clients`` separate processes (the ``websockets`` client and a small keep-alive
HTTP client of its own, :class:`HttpClient`), all on 127.0.0.1.  With two server processes every
request and every socket goes to one of them at random, so pushes travel between them through
PostgreSQL.

**Games** (``--games N ...``).  Each active game has two human seats, each with its own WebSocket
(the token offered as a subprotocol); once a second (at a random phase per game) the seat whose
decision it is sends one action over HTTP (``X-Seat-Token``, ``seq``), chosen at random from its
legal actions, and the generator measures the round trip until the answer.  A finished game is
replaced by a new one.

``--protocol 2`` (the default) is what the browser client does (docs/protocol.md): the socket
opens with ``?since=-1`` and gets one full state, then one delta per version, which the generator
applies to its copy of the seat's view (``updates.apply_ops``) to know the legal actions; actions
are posted with ``?since=<held version>`` and answered with the updates after it; a delta that does
not follow the held version is a gap, fetched with ``GET /updates?since=`` (counted).
``--protocol 1`` is the old full-state format: the socket without ``since`` pushes the seat's whole
state after every change and the action's answer is the whole state.  ``--protocol 2 1`` runs both,
one after the other for each row, so they share the machine's load.

Bytes per action are what the client receives: every WebSocket frame as it arrives on the socket
(permessage-deflate, negotiated as Chromium does: the ``websockets`` client offers
``client_max_window_bits`` like Chromium, and the server picks its own window; ``--no-deflate`` to
switch it off) plus every HTTP answer's body as transferred (gzip for answers of 1 kB and more, as
the server's middleware does); HTTP headers and TCP/IP overhead are not counted.  The same
uncompressed ("raw") is printed beside it.

**Spectators** (``--spectators N ...``).  One game whose two seats are played by one generator
process (``--rate`` actions per second), watched by N spectator sockets (no token) spread over the
``--clients`` processes.  For every version, the time from the action's answer arriving at the
player until the last of the N spectators has that version (and from sending the action), p50 /
p99 / max over the versions of the measured window, whether every spectator got every version, and
the server's CPU time per action (what one version costs to serve to N watchers).

Printed per row, after ``--warmup`` seconds: actions answered per second, the round trip's p50 / p95
/ p99 / max (ms), the delay from sending an action to the other seat's socket receiving it (push
p50 / p99), bytes per action, refused or failed requests, the resident memory of the server
processes at the end, their CPU, and the load average (1 min) before and after the row.
``--json FILE`` writes the rows.  ``--py-spy FILE`` profiles the server with py-spy (the ``dev``
extra installs it).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import gzip
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
    if not legacy:
        # every simulated player connects from 127.0.0.1: lift the bounds per client address (issue 22)
        cmd += ["--sockets-per-address", "100000", "--messages-per-address", "100000000"]
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


# -- what a browser table holds ----------------------------------------------------------
HEAD_TYPE = re.compile(rb'"type":"(\w+)"')
FROM_BYTES = re.compile(rb'"from":(-?\d+)')


class StateTable:
    """Protocol 1: the latest whole state of one seat.  The text is parsed only when an action is
    chosen from it, so the generator does not spend its time in ``json.loads`` of every push."""

    def __init__(self) -> None:
        self.seq = -1
        self._body: object = None

    def take_message(self, raw: bytes) -> tuple[int | None, bool]:
        """A socket message: (its version or None, False: protocol 1 has no gaps)."""
        if b'"type":"state"' not in raw[:40]:
            return None, False
        return self._take(raw), False

    def take_answer(self, raw: bytes) -> None:
        self._take(raw)

    def _take(self, raw: bytes) -> int | None:
        head = SEQ_BYTES.search(raw, 0, 300)
        if head is None:
            return None
        seq = int(head.group(1))
        if seq > self.seq:
            self.seq, self._body = seq, raw
        return seq

    def state(self) -> dict:
        if not isinstance(self._body, dict):
            self._body = json.loads(self._body)
        return self._body

    def legal(self) -> list[str]:
        return self.state()["legal_actions"]

    def observation(self) -> dict:
        return self.state()["observation"]


class DeltaTable:
    """Protocol 2: one seat's view as the browser keeps it: the version it holds, the view built
    from the first full state and every delta after it (the log is not kept: no decision needs it)."""

    def __init__(self) -> None:
        self.seq = -1
        self.view: dict | None = None

    def take(self, msg: dict) -> tuple[int | None, bool]:
        """One message: (its version or None, True if it shows a missed version)."""
        kind = msg.get("type")
        if kind == "full":
            if msg["seq"] > self.seq:
                self.seq, self.view = msg["seq"], msg["view"]
            return msg["seq"], False
        if kind != "delta":
            return None, False
        if msg["seq"] <= self.seq:                 # already held (the socket and the answer both bring it)
            return msg["seq"], False
        if msg["from"] != self.seq:
            return msg["seq"], True
        self.view = apply_ops(self.view, msg["ops"])
        self.seq = msg["seq"]
        return msg["seq"], False

    def take_message(self, raw: bytes) -> tuple[int | None, bool]:
        return self.take(json.loads(raw))

    def take_answer(self, raw: bytes) -> bool:
        gap = False
        for msg in json.loads(raw).get("updates", []):
            gap = self.take(msg)[1] or gap
        return gap

    def legal(self) -> list[str]:
        return self.view["legal_actions"]

    def observation(self) -> dict:
        return self.view["observation"]


def apply_ops(doc, ops):
    """The reference implementation of applying a delta (server/updates.py): imported by
    :func:`_load_client_code` before the generator starts, so no run pays for the import."""
    return _APPLY[0](doc, ops)


_APPLY: list = []


def _load_client_code() -> None:
    from mysticvale.server.updates import apply_ops as apply
    _APPLY[:] = [apply]


def _counting_connection():
    """A websockets client connection that counts the bytes arriving on its socket (the frames as
    compressed on the wire, after the handshake once :attr:`mark` is taken)."""
    from websockets.asyncio.client import ClientConnection

    class Counting(ClientConnection):
        received = 0

        def data_received(self, data: bytes) -> None:
            self.received += len(data)
            super().data_received(data)

    return Counting


async def open_socket(base: str, gid: str, token: str | None, opts: dict, connection_class):
    from websockets.asyncio.client import connect

    url = base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    query = []
    if opts["protocol"] == 2:
        query.append("since=-1")
    protocols = ["mysticvale"]
    if token is not None:
        if opts["legacy"]:
            query.append(f"token={token}")
        else:
            protocols.append(f"mysticvale.token.{token}")
    if query:
        url += "?" + "&".join(query)
    return await connect(url, subprotocols=protocols, max_size=None, open_timeout=60,
                         compression="deflate" if opts["deflate"] else None,
                         create_connection=connection_class)


def _count(stats: dict, key: str, label: str) -> None:
    stats[key] += 1
    stats["errors"][label] = stats["errors"].get(label, 0) + 1


class Match:
    """One game's two human seats as two browser tables: a WebSocket each, actions by POST."""

    def __init__(self, bases: list[str], gid: str, tokens: list[str], rng: random.Random, stats: dict,
                 measure_from: float, client, opts: dict, answers: dict | None = None) -> None:
        self.bases, self.gid, self.tokens, self.rng = bases, gid, tokens, rng
        self.stats, self.measure_from, self.client, self.opts = stats, measure_from, client, opts
        self.tables = [DeltaTable() if opts["protocol"] == 2 else StateTable() for _ in tokens]
        #: version -> (time its action was sent, the acting seat)
        self.sent_at: dict[int, tuple[float, int]] = {}
        #: version -> (sent, answered), for the spectator scenario
        self.answers = answers
        self.sockets: list = []
        self.fetching: set[int] = set()
        #: seat -> the future of its action sent on its socket (``opts["act_over"] == "socket"``)
        self.waiting: dict[int, asyncio.Future] = {}
        #: seat -> [(version, future)]: waiting until the seat's table holds that version
        self.reaching: dict[int, list] = {}

    def _api(self, path: str) -> str:
        return self.rng.choice(self.bases) + f"/api/games/{self.gid}{path}"

    def _headers(self, seat: int) -> dict:
        return {} if self.opts["legacy"] else {"X-Seat-Token": self.tokens[seat]}

    def _took_http(self, r, now: float) -> None:
        if now >= self.measure_from:
            self.stats["bytes"] += r.num_bytes_downloaded
            self.stats["raw"] += len(r.content)

    async def open(self) -> None:
        cls = _counting_connection()
        for seat in range(len(self.tokens)):
            ws = await open_socket(self.rng.choice(self.bases), self.gid, self.tokens[seat], self.opts, cls)
            self.sockets.append((ws, asyncio.ensure_future(self._read(seat, ws))))

    async def close(self) -> None:
        for ws, task in self.sockets:
            await ws.close()
            task.cancel()

    async def _read(self, seat: int, ws) -> None:
        import websockets

        table = self.tables[seat]
        mark = ws.received
        try:
            while True:
                raw = await ws.recv(decode=False)       # bytes: no UTF-8 decoding of every push
                now = time.monotonic()
                if now >= self.measure_from:
                    self.stats["bytes"] += ws.received - mark
                    self.stats["raw"] += len(raw)
                mark = ws.received
                if raw.startswith(b'{"type":"applied"') or raw.startswith(b'{"type":"error"'):
                    waiter = self.waiting.pop(seat, None)      # the answer to this socket's action
                    if waiter is not None and not waiter.done():
                        waiter.set_result(raw)
                    continue
                seq, gap = table.take_message(raw)
                self._wake(seat)
                if gap:
                    await self._fetch(seat)
                if seq is not None and seq in self.sent_at:
                    t0, actor = self.sent_at[seq]
                    if actor != seat and t0 >= self.measure_from:
                        self.stats["push"].append(now - t0)
        except websockets.ConnectionClosed:
            pass

    async def _fetch(self, seat: int) -> None:
        """A gap: ask for the versions after the held one, as the browser does."""
        if seat in self.fetching:
            return
        self.fetching.add(seat)
        self.stats["gaps"] += 1
        try:
            r = await self.client.get(self._api(f"/updates?since={self.tables[seat].seq}"),
                                      headers=self._headers(seat))
            self._took_http(r, time.monotonic())
            if r.status_code == 200:
                self.tables[seat].take_answer(r.content)
        except Exception as exc:
            _count(self.stats, "failed", f"updates: {type(exc).__name__}")
        finally:
            self.fetching.discard(seat)

    def decider(self) -> tuple[int | None, bool]:
        """(The seat that is to act and holds the newest version, or None; whether the game is over)."""
        top = max(t.seq for t in self.tables)
        if top < 0:
            return None, False
        holder = next(t for t in self.tables if t.seq == top)
        obs = holder.observation()
        if obs["over"]:
            return None, True
        cp = obs["current_player"]
        order = [cp, *(s for s in range(len(self.tables)) if s != cp)] if cp is not None else range(len(self.tables))
        for s in order:
            if self.tables[s].seq == top and self.tables[s].legal():
                return s, False
        return None, False

    async def act(self) -> bool:
        """One tick: the deciding seat sends a random legal action.  False once the game is over."""
        seat, over = self.decider()
        if over:
            return False
        if seat is None:
            if time.monotonic() >= self.measure_from:
                self.stats["skipped"] += 1
            return True
        table = self.tables[seat]
        held = table.seq
        action = self.rng.choice(table.legal())
        t0 = time.monotonic()
        self.sent_at[held + 1] = (t0, seat)
        if self.opts.get("act_over") == "socket":
            return await self._act_on_socket(seat, action, held, t0)
        try:
            if self.opts["legacy"]:
                r = await self.client.post(self._api("/actions"),
                                           json={"token": self.tokens[seat], "action": action, "seq": held})
            else:
                r = await self.client.post(self._api("/actions" + (f"?since={held}" if self.opts["protocol"] == 2
                                                                   else "")),
                                           json={"action": action, "seq": held}, headers=self._headers(seat))
        except Exception as exc:
            _count(self.stats, "failed", f"action: {type(exc).__name__}")
            return True
        t1 = time.monotonic()
        if r.status_code != 200:
            self._answered(held, t0, t1, refused=r.status_code)
            return True
        self._took_http(r, t1)
        if table.take_answer(r.content):
            await self._fetch(seat)
        self._answered(held, t0, t1)
        return True

    def _answered(self, held: int, t0: float, t1: float, refused: int | None = None) -> None:
        """Count an action sent at ``t0`` (measured time only) and answered at ``t1``."""
        if t0 < self.measure_from:
            return
        if refused is not None:
            self.stats["refused"] += 1
            self.stats["errors"][f"action: {refused}"] = self.stats["errors"].get(f"action: {refused}", 0) + 1
            return
        self.stats["rtt"].append(t1 - t0)
        self.stats["actions"] += 1
        if self.answers is not None:
            self.answers[held + 1] = (t0, t1)


    def _wake(self, seat: int) -> None:
        waiting = self.reaching.get(seat)
        if waiting:
            have = self.tables[seat].seq
            for seq, fut in [w for w in waiting if w[0] <= have]:
                waiting.remove((seq, fut))
                if not fut.done():
                    fut.set_result(None)

    async def _reach(self, seat: int, seq: int) -> None:
        """Until the seat's table holds version ``seq`` (it comes as a push; asked for if slow)."""
        if self.tables[seat].seq >= seq:
            return
        fut = asyncio.get_running_loop().create_future()
        self.reaching.setdefault(seat, []).append((seq, fut))
        try:
            await asyncio.wait_for(asyncio.shield(fut), 1.5)
        except asyncio.TimeoutError:
            await self._fetch(seat)

    async def _act_on_socket(self, seat: int, action: str, held: int, t0: float) -> bool:
        """The action as a message on the seat's own socket (``{"type": "action", ...}``); its round
        trip ends with the socket's ``applied`` answer (the version itself comes as a push)."""
        ws = self.sockets[seat][0]
        waiter = asyncio.get_running_loop().create_future()
        self.waiting[seat] = waiter
        try:
            await ws.send(json.dumps({"type": "action", "action": action, "seq": held}, separators=(",", ":")))
            raw = await asyncio.wait_for(waiter, 60)
        except Exception as exc:
            self.waiting.pop(seat, None)
            _count(self.stats, "failed", f"action: {type(exc).__name__}")
            return True
        if raw.startswith(b'{"type":"applied"'):
            await self._reach(seat, json.loads(raw)["applied_seq"])     # as the browser client does
        t1 = time.monotonic()
        refused = None if raw.startswith(b'{"type":"applied"') else json.loads(raw).get("status")
        self._answered(held, t0, t1, refused=refused)
        return True


async def create_game(client, bases: list[str], rng: random.Random, stats: dict) -> tuple[str, list[str]] | None:
    try:
        r = await client.post(rng.choice(bases) + "/api/games", json={"players": 2})
    except Exception as exc:
        _count(stats, "failed", f"create: {type(exc).__name__}")
        return None
    if r.status_code != 201:
        _count(stats, "failed", f"create: {r.status_code}")
        return None
    g = r.json()
    return g["id"], [s["token"] for s in g["seats"]]


def new_stats() -> dict:
    return {"rtt": [], "push": [], "bytes": 0, "raw": 0, "actions": 0, "refused": 0, "failed": 0, "skipped": 0,
            "gaps": 0, "errors": {}, "lag": []}


async def loop_lag(stats: dict, measure_from: float, until: float) -> None:
    # How late the generator's own event loop wakes up: if this grows, the generator, not the
    # server, is what the figures measure.
    while time.monotonic() < until:
        t = time.monotonic()
        await asyncio.sleep(0.01)
        if t >= measure_from:
            stats["lag"].append(time.monotonic() - t - 0.01)


async def _game(bases: list[str], rng: random.Random, stats: dict, until: float, measure_from: float,
                client, opts: dict) -> None:
    """Games one after the other in one slot: one action per second until ``until``."""
    while time.monotonic() < until:
        made = await create_game(client, bases, rng, stats)
        if made is None:
            await asyncio.sleep(1)
            continue
        match = Match(bases, *made, rng, stats, measure_from, client, opts)
        try:
            await match.open()
        except Exception as exc:
            _count(stats, "failed", f"socket: {type(exc).__name__}")
            await match.close()
            await asyncio.sleep(1)
            continue
        await asyncio.sleep(rng.random())           # a random phase per game
        next_tick = time.monotonic()
        while time.monotonic() < until:
            next_tick += 1.0
            if not await match.act():
                break
            await asyncio.sleep(max(0.0, next_tick - time.monotonic()))
        await match.close()


class Response:
    """An HTTP answer: ``status_code``, ``content`` (decoded), ``num_bytes_downloaded`` (the body as
    transferred, gzip included)."""

    def __init__(self, status: int, content: bytes, wire: int) -> None:
        self.status_code, self.content, self.num_bytes_downloaded = status, content, wire

    def json(self):
        return json.loads(self.content)


class HttpClient:
    """A small HTTP/1.1 client with keep-alive connections, one set per game slot (as each browser
    has its own).  httpx's pool costs the generator more than the server spends on a request at 200
    games (its pool walks every connection per request), and then the generator is what is
    measured; this one does only what the benchmark needs: JSON bodies, ``Content-Length`` or
    chunked answers, gzip."""

    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.idle: dict[tuple[str, int], list] = {}

    async def post(self, url: str, json: dict | None = None, headers: dict | None = None) -> Response:
        return await self.request("POST", url, json, headers)

    async def get(self, url: str, headers: dict | None = None) -> Response:
        return await self.request("GET", url, None, headers)

    async def request(self, method: str, url: str, body: dict | None, headers: dict | None) -> Response:
        rest = url.split("://", 1)[1]
        hostport, _, path = rest.partition("/")
        host, _, port = hostport.partition(":")
        key = (host, int(port or 80))
        data = b"" if body is None else compact(body).encode()
        head = [f"{method} /{path} HTTP/1.1", f"Host: {hostport}", "Accept-Encoding: gzip",
                f"Content-Length: {len(data)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        head += [f"{k}: {v}" for k, v in (headers or {}).items()]
        message = ("\r\n".join(head) + "\r\n\r\n").encode() + data
        for attempt in range(2):
            pool = self.idle.setdefault(key, [])
            reused = bool(pool)
            conn = pool.pop() if pool else await asyncio.wait_for(asyncio.open_connection(*key), self.timeout)
            try:
                answer, keep = await asyncio.wait_for(self._exchange(conn, message), self.timeout)
            except (ConnectionError, asyncio.IncompleteReadError, EOFError):
                conn[1].close()
                if reused and attempt == 0:         # the server closed an idle connection: once more
                    continue
                raise
            except BaseException:
                conn[1].close()
                raise
            if keep:
                pool.append(conn)
            else:
                conn[1].close()
            return answer
        raise ConnectionError("unreachable")

    @staticmethod
    async def _exchange(conn, message: bytes) -> tuple[Response, bool]:
        reader, writer = conn
        writer.write(message)
        await writer.drain()
        status_line = await reader.readline()
        if not status_line:
            raise EOFError("connection closed")
        status = int(status_line.split()[1])
        fields: dict[str, str] = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            fields[name.strip().lower()] = value.strip()
        if fields.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while True:
                size = int((await reader.readline()).split(b";")[0], 16)
                if size == 0:
                    await reader.readline()
                    break
                parts.append(await reader.readexactly(size))
                await reader.readline()
            raw = b"".join(parts)
        else:
            raw = await reader.readexactly(int(fields.get("content-length", "0")))
        content = gzip.decompress(raw) if fields.get("content-encoding") == "gzip" else raw
        return Response(status, content, len(raw)), fields.get("connection", "").lower() != "close"

    async def aclose(self) -> None:
        for pool in self.idle.values():
            for _reader, writer in pool:
                writer.close()
        self.idle.clear()

    async def __aenter__(self) -> "HttpClient":
        return self

    async def __aexit__(self, *_exc) -> None:
        await self.aclose()


def compact(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _finish(stats: dict, out) -> None:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    stats["cpu"] = usage.ru_utime + usage.ru_stime
    out.put(stats)


def _ready(ready, start, opts: dict) -> tuple[float, float]:
    """(In a generator process.)  Load what the generator needs, say so, and wait for the measured
    window (monotonic times, the same clock in every process of the machine)."""
    if opts["protocol"] == 2:           # (protocol 1 runs against older servers' sources too)
        _load_client_code()
    # A browser has no Python collector: keep the generator's own pauses out of the figures (with
    # the default thresholds its full collections took up to 0.29 s, counted as the server's).
    gc.collect()
    gc.freeze()
    gc.set_threshold(25_000, 20, 100)
    ready.put(os.getpid())
    return start.get()


def _client_process(bases: list[str], games: int, seed: int, ready, start, opts: dict, out) -> None:
    measure_from, until = _ready(ready, start, opts)
    async def main() -> dict:
        stats = new_stats()
        warmup = max(0.5, measure_from - time.monotonic())
        rng = random.Random(seed)
        clients = [HttpClient() for _ in range(games)]       # one browser's connections per game slot
        tasks = [asyncio.ensure_future(loop_lag(stats, measure_from, until))]
        for client in clients:
            tasks.append(asyncio.ensure_future(_game(bases, random.Random(rng.getrandbits(32)), stats, until,
                                                     measure_from, client, opts)))
            await asyncio.sleep(min(1.0, warmup / 2) / games)   # spread the creations
        await asyncio.gather(*tasks, return_exceptions=True)
        for client in clients:
            await client.aclose()
        return stats

    _finish(asyncio.run(main()), out)


# -- spectators ---------------------------------------------------------------------------------
#: Seconds the spectators listen after the measured window (for the versions made at its end).
LINGER = 5.0

def _spectator_process(bases: list[str], gid: str, n: int, seed: int, ready, start, opts: dict, out) -> None:
    """N sockets without a token watching one game; per version: how many had it, first and last time."""
    import websockets

    measure_from, until = _ready(ready, start, opts)

    async def main() -> dict:
        stats = new_stats()
        stats.update(seen={}, connected=0, all_connected_at=None, messages=0)
        rng = random.Random(seed)
        cls = _counting_connection()
        spread = max(0.5, min(4.0, (measure_from - time.monotonic()) / 2))

        async def watch(i: int) -> None:
            await asyncio.sleep(spread * i / max(n, 1))
            try:
                ws = await open_socket(rng.choice(bases), gid, None, opts, cls)
            except Exception as exc:
                _count(stats, "failed", f"socket: {type(exc).__name__}")
                return
            stats["connected"] += 1
            if stats["connected"] == n:
                stats["all_connected_at"] = time.monotonic()
            held = -1
            mark = ws.received
            try:
                while True:
                    # Listening a little past the window: the last versions of the window arrive too.
                    raw = await asyncio.wait_for(ws.recv(decode=False), max(0.1, until + LINGER - time.monotonic()))
                    now = time.monotonic()
                    if measure_from <= now < until:
                        stats["bytes"] += ws.received - mark
                        stats["raw"] += len(raw)
                        stats["messages"] += 1
                    mark = ws.received
                    kind = HEAD_TYPE.search(raw, 0, 40)
                    head = SEQ_BYTES.search(raw, 0, 300)
                    if kind is None or head is None or kind.group(1) not in (b"full", b"delta", b"state"):
                        continue
                    seq = int(head.group(1))
                    if kind.group(1) == b"delta":
                        start = FROM_BYTES.search(raw, 0, 300)
                        if start is None or int(start.group(1)) != held:
                            stats["gaps"] += 1
                    held = max(held, seq)
                    got = stats["seen"].get(seq)
                    if got is None:
                        stats["seen"][seq] = [1, now, now]
                    else:
                        got[0] += 1
                        got[2] = max(got[2], now)
            except (websockets.ConnectionClosed, asyncio.TimeoutError):
                pass
            finally:
                await ws.close()

        lag = asyncio.ensure_future(loop_lag(stats, measure_from, until))
        await asyncio.gather(*(watch(i) for i in range(n)), return_exceptions=True)
        await lag
        return stats

    _finish(asyncio.run(main()), out)


def _player_process(bases: list[str], gid: str, tokens: list[str], seed: int, ready, start, rate: float,
                    opts: dict, out) -> None:
    """Both seats of the watched game, ``rate`` actions per second."""
    measure_from, until = _ready(ready, start, opts)
    async def main() -> dict:
        stats = new_stats()
        stats["answers"] = {}
        async with HttpClient() as client:
            match = Match(bases, gid, tokens, random.Random(seed), stats, measure_from, client, opts,
                          answers=stats["answers"])
            await match.open()
            lag = asyncio.ensure_future(loop_lag(stats, measure_from, until))
            next_tick = time.monotonic()
            while time.monotonic() < until:
                next_tick += 1.0 / rate
                if not await match.act():
                    stats["over"] = True
                    break
                await asyncio.sleep(max(0.0, next_tick - time.monotonic()))
            await match.close()
            await lag
        return stats

    _finish(asyncio.run(main()), out)


# -- running and reporting ----------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    return v[min(len(v) - 1, int(q * len(v)))]


def ms(value: float) -> float:
    return round(1000 * value, 1)


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _cpu_pressure() -> float | None:
    """/proc/pressure/cpu "some" avg10: the share of the last 10 s in which a task waited for a CPU."""
    try:
        with open("/proc/pressure/cpu") as f:
            return float(f.readline().split()[1].split("=")[1])
    except (OSError, IndexError, ValueError):
        return None


def _spawn(ctx, target, args_list: list[tuple]) -> list:
    procs = [ctx.Process(target=target, args=a) for a in args_list]
    for p in procs:
        p.start()
    return procs


def _go(procs: list, ready, start, args) -> tuple[float, float]:
    """Once every generator process is loaded: the warm-up starts now, then the measured window."""
    for _ in procs:
        ready.get(timeout=300)
    measure_from = time.monotonic() + args.warmup
    until = measure_from + args.seconds
    for _ in procs:
        start.put((measure_from, until))
    return measure_from, until


def _measure_cpu(pids: list[int], measure_from: float, seconds: float) -> list[float]:
    time.sleep(max(0.0, measure_from - time.monotonic()))
    cpu0 = [cpu_seconds(pid) for pid in pids]
    time.sleep(seconds)
    return [round(cpu_seconds(pid) - c, 3) for pid, c in zip(pids, cpu0)]


def run_load(bases: list[str], pids: list[int], games: int, args, opts: dict) -> dict:
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    clients = args.clients
    share = [games // clients + (1 if i < games % clients else 0) for i in range(clients)]
    ready, start = ctx.Queue(), ctx.Queue()
    procs = _spawn(ctx, _client_process, [(bases, n, args.seed + i, ready, start, opts, out)
                                          for i, n in enumerate(share) if n])
    measure_from, _until = _go(procs, ready, start, args)
    cpu = _measure_cpu(pids, measure_from, args.seconds)
    pressure = _cpu_pressure()
    parts = [out.get(timeout=args.warmup + args.seconds + 300) for _ in procs]
    memory = sum(rss_mb(pid) for pid in pids)
    for p in procs:
        p.join()
    rtt = [x for s in parts for x in s["rtt"]]
    push = [x for s in parts for x in s["push"]]
    actions = sum(s["actions"] for s in parts)
    per_s = actions / args.seconds
    return {
        "games": games, "actions_per_s": round(per_s, 1),
        "rtt_p50_ms": ms(percentile(rtt, 0.50)), "rtt_p95_ms": ms(percentile(rtt, 0.95)),
        "rtt_p99_ms": ms(percentile(rtt, 0.99)), "rtt_max_ms": ms(max(rtt, default=0)),
        "push_p50_ms": ms(percentile(push, 0.50)), "push_p99_ms": ms(percentile(push, 0.99)),
        "bytes_per_action": int(sum(s["bytes"] for s in parts) / max(actions, 1)),
        "raw_bytes_per_action": int(sum(s["raw"] for s in parts) / max(actions, 1)),
        "refused": sum(s["refused"] for s in parts), "failed": sum(s["failed"] for s in parts),
        "gaps": sum(s["gaps"] for s in parts), "skipped_ticks": sum(s["skipped"] for s in parts),
        "server_rss_mb": round(memory, 1), "server_cpu": [round(c / args.seconds, 2) for c in cpu],
        "server_cpu_ms_per_action": round(1000 * sum(cpu) / max(actions, 1), 2),
        "cpu_pressure_avg10": pressure,
        "client_cpu": round(sum(s["cpu"] for s in parts) / (args.warmup + args.seconds), 2),
        "client_loop_lag_p50_p99_ms": [ms(percentile([x for s in parts for x in s["lag"]], q)) for q in (0.5, 0.99)],
        "errors": {k: sum(s["errors"].get(k, 0) for s in parts) for k in {k for s in parts for k in s["errors"]}},
    }


def run_spectators(bases: list[str], pids: list[int], n: int, args, opts: dict) -> dict:
    import httpx

    r = httpx.post(bases[0] + "/api/games", json={"players": 2}, timeout=30)
    r.raise_for_status()
    g = r.json()
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    clients = args.clients
    share = [n // clients + (1 if i < n % clients else 0) for i in range(clients)]
    ready, start = ctx.Queue(), ctx.Queue()
    watchers = _spawn(ctx, _spectator_process, [(bases, gid, k, args.seed + i, ready, start, opts, out)
                                                for i, k in enumerate(share) if k])
    player = _spawn(ctx, _player_process, [(bases, gid, tokens, args.seed, ready, start, args.rate, opts, out)])
    measure_from, _until = _go(watchers + player, ready, start, args)
    cpu = _measure_cpu(pids, measure_from, args.seconds)
    pressure = _cpu_pressure()
    parts = [out.get(timeout=args.warmup + args.seconds + 300) for _ in watchers + player]
    memory = sum(rss_mb(pid) for pid in pids)
    for p in watchers + player:
        p.join()
    play = next(s for s in parts if "answers" in s)
    watch = [s for s in parts if "seen" in s]
    after_answer, after_send, complete = [], [], 0
    for seq, (t0, t1) in sorted(play["answers"].items()):
        got = [s["seen"][seq] for s in watch if seq in s["seen"]]
        count = sum(x[0] for x in got)
        if count < n:
            continue
        complete += 1
        last = max(x[2] for x in got)
        after_answer.append(last - t1)
        after_send.append(last - t0)
    versions = len(play["answers"])
    connected_at = [s["all_connected_at"] for s in watch]
    late = None if None in connected_at else round(max(connected_at) - measure_from, 2)
    return {
        "spectators": n, "connected": sum(s["connected"] for s in watch), "versions": versions,
        "complete": complete, "game_over": bool(play.get("over")),
        "fanout_after_answer_p50_ms": ms(percentile(after_answer, 0.5)),
        "fanout_after_answer_p99_ms": ms(percentile(after_answer, 0.99)),
        "fanout_after_answer_max_ms": ms(max(after_answer, default=0)),
        "fanout_after_send_p50_ms": ms(percentile(after_send, 0.5)),
        "fanout_after_send_p99_ms": ms(percentile(after_send, 0.99)),
        "rtt_p50_ms": ms(percentile(play["rtt"], 0.5)), "rtt_p99_ms": ms(percentile(play["rtt"], 0.99)),
        "bytes_per_spectator_version": int(sum(s["bytes"] for s in watch) / max(sum(s["messages"] for s in watch), 1)),
        "raw_bytes_per_spectator_version": int(sum(s["raw"] for s in watch) / max(sum(s["messages"] for s in watch), 1)),
        "gaps": sum(s["gaps"] for s in watch), "failed": sum(s["failed"] for s in parts),
        "server_rss_mb": round(memory, 1), "server_cpu": [round(c / args.seconds, 2) for c in cpu],
        "server_cpu_ms_per_action": round(1000 * sum(cpu) / max(versions, 1), 1),
        "all_connected_after_measure_start_s": late, "cpu_pressure_avg10": pressure,
        "client_loop_lag_p50_p99_ms": [ms(percentile([x for s in watch for x in s["lag"]], q)) for q in (0.5, 0.99)],
        "errors": {k: sum(s["errors"].get(k, 0) for s in parts) for k in {k for s in parts for k in s["errors"]}},
    }


class Servers:
    """The servers of one row: one on SQLite, or two on a fresh PostgreSQL cluster."""

    def __init__(self, setup: str, args) -> None:
        self.setup, self.args = setup, args
        self.data = Path(tempfile.mkdtemp(prefix="mv-bench-"))
        self.pg: Postgres | None = None
        self.procs: list[subprocess.Popen] = []
        self.bases: list[str] = []

    def __enter__(self) -> "Servers":
        try:
            if self.setup == "sqlite":
                proc, base = start_server(self.data, None, self.args.server_args, self.args.legacy_api)
                self.procs, self.bases = [proc], [base]
            else:
                self.pg = Postgres()
                url = self.pg.start()
                for i in range(2):
                    (self.data / str(i)).mkdir()
                    proc, base = start_server(self.data / str(i), url, self.args.server_args, self.args.legacy_api)
                    self.procs.append(proc)
                    self.bases.append(base)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *_exc) -> None:
        for p in self.procs:
            p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        if self.pg is not None:
            self.pg.stop()
        shutil.rmtree(self.data, ignore_errors=True)


def setup_name(setup: str, label: str) -> str:
    return ("1 process, SQLite" if setup == "sqlite" else "2 processes, PostgreSQL") + (f", {label}" if label else "")


def run_row(setup: str, protocol: int, games: int | None, spectators: int | None, args, profile: bool) -> dict:
    opts = {"protocol": protocol, "legacy": args.legacy_api, "deflate": not args.no_deflate, "act_over": args.act_over}
    load_before = _load()
    with Servers(setup, args) as servers:
        spy = None
        if profile:
            exe = Path(sys.executable).with_name("py-spy")
            spy = subprocess.Popen([str(exe) if exe.exists() else "py-spy", "record", "-o", args.py_spy,
                                    "-d", str(int(args.warmup + args.seconds)), "-p", str(servers.procs[0].pid),
                                    "-r", "50", "--subprocesses", "--idle",
                                    *(["--format", "raw"] if args.py_spy.endswith(".txt") else []),
                                    *(["--gil"] if args.py_spy_gil else [])],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pids = [p.pid for p in servers.procs]
        if spectators is not None:
            row = run_spectators(servers.bases, pids, spectators, args, opts)
        else:
            row = run_load(servers.bases, pids, games, args, opts)
        if spy is not None:
            spy.wait(timeout=120)
    row = {"setup": setup_name(setup, args.label), "protocol": protocol, **row,
           "load_before": load_before, "load_after": _load(),
           "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}
    print(json.dumps(row), flush=True)
    return row


def games_table(rows: list[dict]) -> str:
    lines = ["| setup | protocol | games | actions/s | round trip p50 / p95 / p99 / max (ms) | push p50 / p99 (ms) | "
             "bytes per action, wire (raw) | refused / failed / gaps | server memory (MB) | server CPU (cores) | "
             "server CPU per action (ms) | load before -> after |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['setup']} | {r['protocol']} | {r['games']} | {r['actions_per_s']} | {r['rtt_p50_ms']} / "
                     f"{r['rtt_p95_ms']} / {r['rtt_p99_ms']} / {r['rtt_max_ms']} | {r['push_p50_ms']} / "
                     f"{r['push_p99_ms']} | {r['bytes_per_action']:,} ({r['raw_bytes_per_action']:,}) | "
                     f"{r['refused']} / {r['failed']} / {r['gaps']} | {r['server_rss_mb']} | "
                     f"{' + '.join(str(c) for c in r['server_cpu'])} | {r['server_cpu_ms_per_action']} | "
                     f"{r['load_before']} -> {r['load_after']} |")
    return "\n".join(lines)


def spectators_table(rows: list[dict]) -> str:
    lines = ["| setup | protocol | spectators | versions (all delivered) | last spectator after the answer p50 / p99 / "
             "max (ms) | after sending p50 / p99 (ms) | action round trip p50 / p99 (ms) | bytes per spectator and "
             "version, wire (raw) | server CPU per action (ms) | server memory (MB) | load before -> after |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['setup']} | {r['protocol']} | {r['spectators']} | {r['versions']} ({r['complete']}) | "
                     f"{r['fanout_after_answer_p50_ms']} / {r['fanout_after_answer_p99_ms']} / "
                     f"{r['fanout_after_answer_max_ms']} | {r['fanout_after_send_p50_ms']} / "
                     f"{r['fanout_after_send_p99_ms']} | {r['rtt_p50_ms']} / {r['rtt_p99_ms']} | "
                     f"{r['bytes_per_spectator_version']:,} ({r['raw_bytes_per_spectator_version']:,}) | "
                     f"{r['server_cpu_ms_per_action']} | {r['server_rss_mb']} | "
                     f"{r['load_before']} -> {r['load_after']} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--setup", choices=["sqlite", "postgresql", "both"], default="both")
    ap.add_argument("--games", type=int, nargs="+", default=None,
                    help="active games per row (default 10 50 200, unless --spectators is given)")
    ap.add_argument("--spectators", type=int, nargs="+", default=[],
                    help="rows of one game watched by this many spectator sockets")
    ap.add_argument("--rate", type=float, default=1.0, help="actions per second of the watched game (spectators)")
    ap.add_argument("--protocol", type=int, nargs="+", choices=[1, 2], default=[2],
                    help="update protocol(s): 2 = deltas as the browser client (default), 1 = whole states; "
                         "several: each row is run with each, one right after the other")
    ap.add_argument("--no-deflate", action="store_true", help="WebSockets without permessage-deflate")
    ap.add_argument("--act-over", choices=["post", "socket"], default="socket",
                    help="send actions by POST (with the updates in the answer) or as messages on the seat's "
                         "own WebSocket (answered by an 'applied' message; the version comes as a push)")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured time per row")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds before measuring (games are created, "
                                                               "spectators connect)")
    ap.add_argument("--clients", type=int, default=2, help="load generator processes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--py-spy", default=None, help="record a py-spy profile of the (first) server at the largest "
                                                   "load (games, else spectators) into this file (.svg: flame "
                                                   "graph; .txt: collapsed stacks)")
    ap.add_argument("--py-spy-gil", action="store_true", help="profile only threads holding the GIL")
    ap.add_argument("--server-args", nargs=argparse.REMAINDER, default=[],
                    help="further arguments for mysticvale serve")
    ap.add_argument("--json", default=None)
    ap.add_argument("--legacy-api", action="store_true",
                    help="protocol 1 with the tokens in the body and the WebSocket URL, as servers before the "
                         "X-Seat-Token header took them (to measure an older server: PYTHONPATH=its/src)")
    ap.add_argument("--label", default="", help="added to the setup's name in the table")
    args = ap.parse_args()
    if args.legacy_api:
        args.protocol = [1]
    games = args.games if args.games is not None else ([] if args.spectators else [10, 50, 200])
    setups = ["sqlite", "postgresql"] if args.setup == "both" else [args.setup]
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}, "
          f"{os.cpu_count()} CPUs, {args.clients} load processes, deflate {'off' if args.no_deflate else 'on'}",
          flush=True)
    game_rows, spectator_rows = [], []
    for setup in setups:
        for n in games:
            for protocol in args.protocol:
                profile = bool(args.py_spy) and n == max(games) and protocol == args.protocol[0]
                game_rows.append(run_row(setup, protocol, n, None, args, profile))
        for n in args.spectators:
            for protocol in args.protocol:
                profile = bool(args.py_spy) and not games and n == max(args.spectators) and protocol == args.protocol[0]
                spectator_rows.append(run_row(setup, protocol, None, n, args, profile))
    if game_rows:
        print(games_table(game_rows))
    if spectator_rows:
        print(spectators_table(spectator_rows))
    if args.json:
        Path(args.json).write_text(json.dumps(game_rows + spectator_rows, indent=1))


if __name__ == "__main__":
    main()
