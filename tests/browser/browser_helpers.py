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
               "--allow-seed"]
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
