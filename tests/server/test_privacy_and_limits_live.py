"""Against a real ``mysticvale serve`` (uvicorn): seat tokens never reach its logs, links come from the
configured public URL, every answer says ``Referrer-Policy: no-referrer``, a 50 MB body is refused
before it is sent, and a WebSocket frame above the bound closes the socket cleanly."""

from __future__ import annotations

import json
import socket

import httpx
import pytest
from conftest import ServerProcess, wait_for
from waiting import HTTP_TIMEOUT
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

PUBLIC = "https://vale.example.org"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = ServerProcess(tmp_path_factory.mktemp("live"), args=("--log-level", "info", "--public-url", PUBLIC))
    srv.start()
    yield srv
    srv.kill()


def test_tokens_stay_out_of_the_logs_and_links_use_the_public_url(server):
    base = server.base
    g = httpx.post(base + "/api/games", json={"players": 2}, headers={"Host": "evil.example"}, timeout=HTTP_TIMEOUT).json()
    tokens = [s["token"] for s in g["seats"]]
    for s in g["seats"]:
        assert s["url"] == f"{PUBLIC}/games/{g['id']}#token={s['token']}"      # not the Host header
    assert g["spectator_url"] == f"{PUBLIC}/games/{g['id']}"
    gid = g["id"]
    # every way a token may come: the old query parameter, the header, the body, the socket
    assert httpx.get(f"{base}/api/games/{gid}/state?token={tokens[0]}", timeout=HTTP_TIMEOUT).status_code == 200
    assert httpx.get(f"{base}/api/games/{gid}/state", headers={"X-Seat-Token": tokens[1]},
                     timeout=HTTP_TIMEOUT).status_code == 200
    assert httpx.get(f"{base}/games/{gid}?token={tokens[0]}", timeout=HTTP_TIMEOUT).status_code in (200, 503)
    ws_url = base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    with connect(f"{ws_url}?token={tokens[1]}") as ws:
        assert json.loads(ws.recv(timeout=HTTP_TIMEOUT))["seat"] == 1
    with connect(ws_url, subprotocols=["mysticvale", "mysticvale.token." + tokens[0]]) as ws:
        assert ws.subprotocol == "mysticvale"
        assert json.loads(ws.recv(timeout=HTTP_TIMEOUT))["seat"] == 0

    def logged() -> str | None:
        """The server's log once it tells of every request above (a line is written after its answer)."""
        log = server.output.read_text()
        return log if (log.count(f"/api/games/{gid}/state") >= 2 and f'"GET /games/{gid}' in log
                       and log.count(f"WebSocket /api/games/{gid}/ws") >= 2) else None

    log = wait_for(logged)                                               # the requests were logged ...
    for t in tokens:
        assert t not in log                                               # ... without their tokens


def test_referrer_policy_on_every_answer(server):
    for path in ("/", "/api/health", "/api/games/nope/state", "/docs"):
        r = httpx.get(server.base + path, timeout=HTTP_TIMEOUT)
        assert r.headers["referrer-policy"] == "no-referrer", path


def test_a_50_mb_body_is_refused_before_it_is_sent(server):
    host, port = "127.0.0.1", server.port
    with socket.create_connection((host, port), timeout=HTTP_TIMEOUT) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 52428800\r\n\r\n" + b'{"players": 2, "ruleset": "' + b"x" * 65536)
        answer = s.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:100]
    assert httpx.get(server.base + "/api/health", timeout=HTTP_TIMEOUT).status_code == 200


def test_websocket_frames_above_the_bound_close_the_socket_cleanly(server):
    gid = httpx.post(server.base + "/api/games", json={"players": 2}, timeout=HTTP_TIMEOUT).json()["id"]
    ws_url = server.base.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    with connect(ws_url, max_size=None) as ws:
        ws.recv(timeout=HTTP_TIMEOUT)
        ws.send("[" * 2000 + "]" * 2000)                # within the frame bound: an error message
        assert json.loads(ws.recv(timeout=HTTP_TIMEOUT))["status"] in (413, 422)
        ws.send("[" * 100_000 + "]" * 100_000)          # 200 KB: uvicorn closes with 1009
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=HTTP_TIMEOUT)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert httpx.get(server.base + "/api/health", timeout=HTTP_TIMEOUT).status_code == 200
