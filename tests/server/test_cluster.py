"""Two server processes on one PostgreSQL database, clients routed at random, one process killed with
``kill -9`` mid-game (with a request in flight): every game goes on, every socket gets the final
state, and no action is lost or doubled (each game equals the same game played by the engine alone,
and the database holds exactly one record per action)."""

from __future__ import annotations

import json
import random
import threading
import time

import httpx
import mysticvale as mv
from conftest import ServerProcess, _fresh_pg_database, choose, server_game, wait_for
from waiting import HTTP_TIMEOUT
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from mysticvale.bots import SeatView, make_bot
from mysticvale.server import Storage, bot_seed

#: (seed, bot seats) of the games: two people; a person and a bot; bots only.
GAMES = [(301, {}), (302, {}), (303, {1: "random"}), (304, {0: "random"}), (305, {0: "random", 1: "random"})]
#: Each game with a person is played to at least this many records.
RECORDS = 50


def reference(seed: int, bots: dict[int, str], records: int | None) -> mv.Game:
    g = server_game(humans=len(bots) < 2, players=2, seed=seed)
    while not g.is_over() and (records is None or len(g.history) < records):
        seq, seat = len(g.history), g.current_player
        if seat in bots:
            g.apply_action(make_bot(bots[seat], seed=bot_seed(seed, seat, seq)).act(SeatView(g, seat)))
        else:
            g.apply_action(choose(seq, [str(a) for a in g.legal_actions()]))
    return g


class Socket(threading.Thread):
    """A seat's WebSocket on a random live server; reconnects (to a live one) when its server dies."""

    def __init__(self, servers, gid: str, token: str | None, rng: random.Random) -> None:
        super().__init__(daemon=True)
        self.servers, self.gid, self.token, self.rng = servers, gid, token, rng
        self.seqs: list[int] = []
        self.reconnects = 0
        self.stop = False

    def run(self) -> None:
        while not self.stop:
            srv = self.rng.choice([s for s in self.servers if s.proc is not None])
            url = srv.base.replace("http://", "ws://") + f"/api/games/{self.gid}/ws"
            protocols = ["mysticvale"] + ([f"mysticvale.token.{self.token}"] if self.token else [])
            try:
                with connect(url, subprotocols=protocols, open_timeout=HTTP_TIMEOUT) as ws:
                    while not self.stop:
                        try:
                            msg = json.loads(ws.recv(timeout=0.2))
                        except TimeoutError:
                            continue
                        if msg["type"] == "state":
                            self.seqs.append(msg["seq"])
            except (ConnectionClosed, OSError, InvalidHandshake):
                self.reconnects += 1
                time.sleep(0.05)


def test_two_processes_one_killed_nothing_lost_or_doubled(tmp_path, pg_url):
    database = _fresh_pg_database(pg_url)
    servers = [ServerProcess(tmp_path / name, database) for name in ("a", "b")]
    for s in servers:
        s.data_dir.mkdir()
        s.start()
    rng = random.Random(7)
    live = lambda: [s for s in servers if s.proc is not None]

    def request(method: str, path: str, **kw):
        """A request to a random live server; on a dead one, the same request again elsewhere."""
        for _ in range(20):
            srv = rng.choice(live())
            try:
                return getattr(httpx, method)(srv.base + path, timeout=HTTP_TIMEOUT, **kw)
            except httpx.HTTPError:
                time.sleep(0.05)
        raise AssertionError("no server answered")

    games = []
    sockets: list[Socket] = []
    try:
        for seed, bots in GAMES:
            r = request("post", "/api/games", json={"players": 2, "seed": seed,
                                                    "bots": {str(k): v for k, v in bots.items()}})
            assert r.status_code == 201, r.text
            g = r.json()
            games.append((g["id"], seed, bots, {s["seat"]: s["token"] for s in g["seats"] if s["token"]}))
            for seat in range(2):
                sockets.append(Socket(servers, g["id"], g["seats"][seat]["token"], random.Random(seed + seat)))
        for s in sockets:
            s.start()

        killed = False
        plays = 0
        while True:
            pending = False
            for gid, seed, bots, tokens in games:
                if not tokens:
                    continue
                st = request("get", f"/api/games/{gid}/state").json()
                if st["observation"]["over"] or st["seq"] >= RECORDS:
                    continue
                pending = True
                seat = st["observation"]["current_player"]
                if seat not in tokens:
                    continue                    # a bot's turn: the servers play it
                h = {"X-Seat-Token": tokens[seat]}
                mine = request("get", f"/api/games/{gid}/state", headers=h).json()
                if not mine["legal_actions"]:
                    continue
                body = {"action": choose(mine["seq"], mine["legal_actions"]), "seq": mine["seq"]}
                plays += 1
                if plays == 40 and not killed:
                    # kill -9 the first server while this action is in flight to it
                    victim = servers[0]
                    sent: list = []
                    t = threading.Thread(target=lambda: sent.append(_post(victim, gid, body, h)))
                    t.start()
                    time.sleep(0.003)
                    victim.kill()
                    t.join()
                    killed = True
                r = request("post", f"/api/games/{gid}/actions", json=body, headers=h)
                assert r.status_code == 200, r.text      # applied now, or found as already applied
                applied = r.json()["applied_seq"]
                assert applied == mine["seq"] + 1
                # both seats' sockets hear of it, whichever process they are connected to
                for s in sockets:
                    if s.gid == gid:
                        wait_for(lambda: s.seqs and s.seqs[-1] >= applied, interval=0.005)
            if not pending:
                break
        assert killed
        # the bot-only game (its bots possibly taken over from the killed process) plays to its end
        wait_for(lambda: all(request("get", f"/api/games/{gid}/summary").json()["over"]
                             for gid, _, _, tokens in games if not tokens), interval=0.2)
        finals = {gid: request("get", f"/api/games/{gid}/state").json() for gid, *_ in games}
        # every socket, reconnected or not, receives its game's final state
        for s in sockets:
            final = finals[s.gid]["seq"]
            wait_for(lambda: s.seqs and s.seqs[-1] >= final)
            assert s.seqs[-1] == final
    finally:
        for s in sockets:
            s.stop = True
        for s in servers:
            s.kill()
    assert any(s.reconnects for s in sockets)              # some sockets were on the killed process
    store = Storage(database)
    try:
        for gid, seed, bots, tokens in games:
            final = finals[gid]
            ref = reference(seed, bots, final["seq"] if tokens else None)
            assert final["seq"] == len(ref.history) == store.record_count(gid), gid
            assert final["observation"] == ref.observe(None) and final["log"] == ref.log(None), gid
            if tokens:
                assert final["seq"] >= RECORDS or ref.is_over()
            else:
                assert ref.is_over()
    finally:
        store.close()


def _post(server: ServerProcess, gid: str, body: dict, headers: dict):
    try:
        return httpx.post(f"{server.base}/api/games/{gid}/actions", json=body, headers=headers, timeout=HTTP_TIMEOUT).status_code
    except httpx.HTTPError as exc:
        return exc


def test_workers_need_postgresql(tmp_path):
    from typer.testing import CliRunner

    from mysticvale.cli.main import app

    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and "PostgreSQL" in result.output


def test_serve_with_two_workers_on_postgresql(tmp_path, pg_url):
    srv = ServerProcess(tmp_path, _fresh_pg_database(pg_url), args=("--workers", "2"))
    srv.start()
    try:
        g = httpx.post(srv.base + "/api/games", json={"players": 2, "seed": 9, "bots": {"1": "random"}},
                       timeout=HTTP_TIMEOUT).json()
        token = g["seats"][0]["token"]
        ref = reference(9, {1: "random"}, None)
        # requests land on either worker (the kernel spreads connections); the game goes on as one
        for _ in range(25):
            st = wait_for(lambda: (lambda s: s if s["legal_actions"] or s["observation"]["over"] else None)(
                httpx.get(f"{srv.base}/api/games/{g['id']}/state", headers={"X-Seat-Token": token}, timeout=HTTP_TIMEOUT)
                .json()))
            if st["observation"]["over"]:
                break
            r = httpx.post(f"{srv.base}/api/games/{g['id']}/actions", headers={"X-Seat-Token": token}, timeout=HTTP_TIMEOUT,
                           json={"action": choose(st["seq"], st["legal_actions"]), "seq": st["seq"]})
            assert r.status_code == 200, r.text
        final = httpx.get(f"{srv.base}/api/games/{g['id']}/state", timeout=HTTP_TIMEOUT).json()
        assert final["log"] == reference(9, {1: "random"}, final["seq"]).log(None)
        assert ref.history[:final["seq"]] == reference(9, {1: "random"}, final["seq"]).history
    finally:
        srv.kill()
