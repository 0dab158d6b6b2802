"""Helpers shared by the browser tests (kept out of conftest so test modules can import them)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urljoin


def http_json(method: str, url: str, payload: dict | None = None) -> dict:
    """A small JSON request helper for set-up steps the tests do not click through."""
    data = json.dumps(payload).encode() if payload is not None else None
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=10) as resp:
        return json.loads(resp.read().decode())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: The browser tests are one client address that creates a few dozen games within a minute (each
#: test its own); the server's per-address bounds (20 games a minute by default) are for strangers,
#: and tests/server/test_bad_input.py checks them.  Without this a full run answered 429.
BROWSER_TEST_LIMITS = ("--games-per-minute", "1000", "--bot-only-per-minute", "1000")


class ServerProcess:
    """``mysticvale serve`` as a subprocess on 127.0.0.1:``port`` with its SQLite file in ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self.log_path = self.data_dir / "server.log"

    def start(self, timeout: float = 30) -> "ServerProcess":
        """Start the server and wait until /api/health answers; RuntimeError with its log if not."""
        cmd = [sys.executable, "-c", "from mysticvale.cli.main import app; app()", "serve",
               "--host", "127.0.0.1", "--port", str(self.port), "--data-dir", str(self.data_dir),
               "--allow-seed", *BROWSER_TEST_LIMITS]
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=self.data_dir)
        log.close()
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n"
                                   f"{self.log_path.read_text()[-3000:]}")
            try:
                http_json("GET", self.base + "/api/health")
                return self
            except (urllib.error.URLError, ConnectionError, OSError):
                if time.monotonic() > deadline:
                    self.proc.kill()
                    raise RuntimeError(f"the server did not answer /api/health within {timeout} s") from None
                time.sleep(0.2)

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


# -- driving the table ------------------------------------------------------------------------------
MY_TURN = "document.body.dataset.myturn === 'yes' || document.body.dataset.over === 'yes'"


def create_game(server: str, seed: int, bots: dict[str, str] | None = None, players: int = 2,
                sets: tuple[str, ...] = ("base",), leaders: bool = False) -> dict:
    return http_json("POST", server + "/api/games", {
        "players": players, "sets": list(sets), "leaders": leaders, "ruleset": "yucata",
        "bots": bots if bots is not None else {"1": "random"}, "seed": seed})


def seat_state(server: str, game: dict, seat: int) -> dict:
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    return http_json("GET", f"{server}/api/games/{game['id']}/state?token={token}")


def play_api(server: str, game: dict, seat: int, choose, until, limit: int = 3000) -> dict:
    """Play ``seat`` through the HTTP API (``choose(state) -> action``), waiting for bots, until
    ``until(state)`` holds for a state where it is that seat's decision (or the game is over)."""
    token = next(s["token"] for s in game["seats"] if s["seat"] == seat)
    for _ in range(limit):
        st = seat_state(server, game, seat)
        if st["observation"]["over"] or (st["legal_actions"] and until(st)):
            return st
        if not st["legal_actions"]:
            time.sleep(0.05)
            continue
        http_json("POST", f"{server}/api/games/{game['id']}/actions",
                  {"token": token, "action": choose(st), "seq": st["seq"]})
    raise AssertionError("the state was not reached")


def open_seat(page, server: str, game: dict, seat: int = 0) -> None:
    url = next(s["url"] for s in game["seats"] if s["seat"] == seat)
    page.goto(urljoin(server, url))
    page.wait_for_selector("#field")


def no_playback(page) -> None:
    """Show other players' moves at once (the animations setting off), before the page loads."""
    use_settings(page, animations=False)


def use_settings(page, **settings) -> None:
    """Settings of this device, put in place before the page loads."""
    page.add_init_script(f"localStorage.setItem('mysticvale.settings', JSON.stringify({json.dumps(settings)}))")


def seq(page) -> str:
    return page.evaluate("document.body.dataset.seq")


def wait_seq_change(page, before: str, timeout: float = 10_000) -> None:
    page.wait_for_function(f"document.body.dataset.seq !== {before!r}", timeout=timeout)


def no_horizontal_scroll(page) -> tuple[int, int]:
    return page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")


